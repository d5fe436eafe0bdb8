import type { DeepSearchConfig } from '../config/config-schema.js';
import type { ConfigOverrides } from '../config/derive-config.js';
import { resumableRecord } from '../runs/resume-target.js';
import type { RunRecord } from '../runs/run-record.js';
import { type RecordOptions, runSettings } from '../runs/run-recording.js';
import type { RunStore } from '../runs/run-store.js';
import { injectTraceContext } from '../telemetry/trace-context.js';
import type { AsyncRunStore } from './async-run-store.js';
import type { JobQueue } from './job-queue.js';
import type { RunEventLog } from './run-event-log.js';
import type { RunJobData } from './run-job-handler.js';

/**
 * What the async run API works on, the same in both deployments: the runs in a store, their jobs
 * in a queue, their events in a log. One machine: SQLite, the in-process queue and the memory log
 * (local-run-backend.ts); queue mode: Postgres, BullMQ and Redis (open-queue-mode.ts).
 */
export interface RunBackend {
  store: AsyncRunStore;
  queue: JobQueue;
  log: RunEventLog;
  /**
   * Whether a run reading as queued or running is held by nobody: its job is gone from the queue
   * (a worker died and it was not taken over) or, on one machine, the process recording it is.
   * Such a run is shown failed (`run_interrupted`) and may be resumed.
   */
  isInterrupted(run: Pick<RunRecord, 'id' | 'status' | 'pid'>): Promise<boolean>;
  /**
   * Runs go on elsewhere when this process stops (queue mode: another worker, another node): a
   * client following one is told to reconnect. On one machine they end with it (cancelled).
   */
  outlivesProcess: boolean;
}

/** Stores the run as queued, then enqueues its job; a refused job leaves no run behind. */
export async function postRun(
  backend: Pick<RunBackend, 'store' | 'queue'>,
  run: {
    id: string;
    owner: string;
    question: string;
    mode: string;
    record: RecordOptions;
    config: DeepSearchConfig;
    data: RunJobData;
  },
): Promise<{ status: 'queued' | 'running' }> {
  const settings = runSettings(run.config, run.mode);
  await backend.store.begin(
    {
      id: run.id,
      owner: run.owner,
      source: run.record.source ?? 'library',
      mode: run.mode,
      question: run.question,
      options: run.record.options ?? (settings as Record<string, unknown>),
      settings,
    },
    'queued',
  );
  try {
    return await enqueueRun(backend, { id: run.id, owner: run.owner, data: run.data });
  } catch (error) {
    await backend.store.delete(run.id).catch(() => undefined);
    throw error;
  }
}

/** Enqueues a stored run's job; a full queue, or an owner at its limit, is a BusyError (429, Retry-After). */
export function enqueueRun(
  backend: Pick<RunBackend, 'queue'>,
  job: { id: string; owner: string; data: RunJobData },
): Promise<{ status: 'queued' | 'running' }> {
  // The trace of the request that queued it goes with the job: its worker's spans join it.
  const trace = injectTraceContext();
  return backend.queue.enqueue({
    id: job.id,
    owner: job.owner,
    data: { ...job.data, ...(trace ? { trace } : {}) },
  });
}

/**
 * Puts a stored run back on the queue, after resume's checks (refused with their reason, 400:
 * still running, complete, no checkpoint). A run reading as queued or running that nobody holds
 * (isInterrupted) is taken as held by nobody.
 */
export async function requeueRun(
  backend: RunBackend,
  record: RunRecord | undefined,
  request: { runId: string; owner?: string; overrides?: ConfigOverrides; interrupted?: boolean },
): Promise<{ record: RunRecord; status: 'queued' | 'running' }> {
  const view = await resumeView(backend, record, request.interrupted);
  const resumable = resumableRecord({ store: view, runId: request.runId, owner: request.owner });
  await backend.store.begin(resumable, 'queued');
  const { status } = await enqueueRun(backend, {
    id: resumable.id,
    owner: resumable.owner,
    data: request.overrides ? { overrides: request.overrides } : {},
  });
  return { record: resumable, status };
}

/**
 * What resume's checks read of a run: nobody holds it once it is interrupted (`interrupted`, when
 * the caller asked already); otherwise it is held, whichever process holds it.
 */
export async function resumeView(
  backend: RunBackend,
  record: RunRecord | undefined,
  interrupted?: boolean,
): Promise<Pick<RunStore, 'get' | 'checkpointHead'>> {
  if (!record) return { get: () => undefined, checkpointHead: () => undefined };
  const lost = interrupted ?? (await backend.isInterrupted(record));
  const shown = { ...record, pid: lost ? null : process.pid };
  // The checkpoint's head is read only when resume's checks get that far: a complete or running
  // run (what GET mostly shows) is refused before, with no read.
  let asked = false;
  try {
    resumableRecord({
      store: {
        get: () => shown,
        checkpointHead: () => {
          asked = true;
          return undefined;
        },
      },
      runId: record.id,
    });
  } catch {
    // refused before or at the head: `asked` says which
  }
  const head = asked ? await backend.store.checkpointHead(record.id) : undefined;
  return { get: () => shown, checkpointHead: () => head };
}
