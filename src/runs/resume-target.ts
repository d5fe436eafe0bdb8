import type { RunRestore, StoredRestore } from '../agent/run-checkpoint.js';
import { checkpointSchemaVersion } from '../agent/run-checkpoint.js';
import type { DeepSearchConfig } from '../config/config-schema.js';
import { type ConfigOverrides, deriveConfig } from '../config/derive-config.js';
import { InputError, isInputError } from '../core/errors/index.js';
import type { RunRecord } from './run-record.js';
import type { RunStore } from './run-store.js';

/** Whether the process that was running a run is gone (a crash or a kill left it `running`). */
export function isOrphaned(
  record: Pick<RunRecord, 'status' | 'pid'>,
  isAlive: (pid: number) => boolean = processIsAlive,
): boolean {
  if (record.status !== 'running' && record.status !== 'queued') return false;
  return record.pid === null || (record.pid !== process.pid && !isAlive(record.pid));
}

function processIsAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists but belongs to another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** A run that can go on: a deep search from its last step, or a research task from its last phase. */
export type ResumeTarget =
  | { kind: 'search'; record: RunRecord; restore: RunRestore }
  | { kind: 'research'; record: RunRecord; restore: StoredRestore };

/**
 * The stored run and its last checkpoint, when it can go on: it exists (for this owner), no
 * process is running it, it has a checkpoint of this build's format and of its kind, and it did
 * not already end with an answer that passed (or needed) no budget stop, or with its report.
 */
export function resumeTarget(input: { store: RunStore; runId: string; owner?: string }): ResumeTarget {
  const record = resumableRecord(input);
  // resumableRecord saw the checkpoint's head, so the checkpoint is there.
  const restore = input.store.restore(record.id)!;
  return record.mode === 'research'
    ? { kind: 'research', record, restore }
    : { kind: 'search', record, restore: restore as RunRestore };
}

/**
 * resumeTarget's checks, on the record and the checkpoint's head only (no pages are loaded): the
 * stored run when it can go on, else the InputError saying why.
 */
export function resumableRecord(input: {
  store: Pick<RunStore, 'get' | 'checkpointHead'>;
  runId: string;
  owner?: string;
}): RunRecord {
  const record = input.store.get(input.runId);
  if (!record || (input.owner !== undefined && record.owner !== input.owner))
    throw new InputError(`no run ${input.runId} (deepsearch runs list shows the runs kept)`, {
      param: 'id',
      code: 'run_not_found',
    });
  if ((record.status === 'running' || record.status === 'queued') && !isOrphaned(record))
    throw new InputError(`run ${record.id} is still running`, { code: 'run_running' });
  const research = record.mode === 'research';
  const budget = (record.result?.budget ?? {}) as { exhausted?: unknown };
  if (record.status === 'completed' && (research || !budget.exhausted))
    throw new InputError(
      research
        ? `run ${record.id} is complete: its report is written, so there is nothing to resume`
        : `run ${record.id} is complete: its answer did not stop on a budget, so there is nothing to resume`,
      { code: 'run_complete' },
    );
  const head = input.store.checkpointHead(record.id);
  if (!head)
    throw new InputError(
      research
        ? `run ${record.id} has no checkpoint (it stopped before its plan was made): start the research again`
        : `run ${record.id} has no checkpoint (it stopped before its first step ended): ask the question again`,
      { code: 'run_not_resumable' },
    );
  if (head.$schemaVersion !== checkpointSchemaVersion || (head.kind === 'research') !== research)
    throw new InputError(
      `run ${record.id} was saved by another version of deepsearch and cannot be resumed`,
      { code: 'run_not_resumable' },
    );
  return record;
}

/**
 * Whether resumeTarget would take the run now (a page offers Resume only then). A completed or
 * running run is refused before its checkpoint is read, so asking costs nothing for most runs.
 */
export function isResumable(input: {
  store: Pick<RunStore, 'get' | 'checkpointHead'>;
  runId: string;
  owner?: string;
}): boolean {
  try {
    resumableRecord(input);
    return true;
  } catch (error) {
    if (isInputError(error)) return false;
    throw error;
  }
}

/**
 * The config a resumed run goes on with: today's, with the run's own stored settings (budget,
 * agent, search, a research run's controller), except those given now (a raised budget). A run
 * stored before its research settings were kept goes on with today's.
 */
export function resumedConfig(
  config: DeepSearchConfig,
  record: RunRecord,
  overrides: ConfigOverrides = {},
): DeepSearchConfig {
  return deriveConfig(config, {
    budget: { ...record.settings.budget, ...overrides.budget },
    agent: { ...record.settings.agent, ...overrides.agent },
    search: { ...record.settings.search, ...overrides.search },
    research: { ...record.settings.research, ...overrides.research },
  });
}
