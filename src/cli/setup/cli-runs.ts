import type { DeepSearchConfig } from '../../config/config-schema.js';
import { ConfigError, InputError } from '../../core/errors/index.js';
import { isOrphaned } from '../../runs/resume-target.js';
import type { RunRecord } from '../../runs/run-record.js';
import { createConfiguredRunStore } from '../../runs/run-store.js';
import { type AsyncRunStore, toAsyncRunStore } from '../../scale/async-run-store.js';
import type { QueueMode } from '../../scale/open-queue-mode.js';
import type { CliIo } from '../io/cli-io.js';
import { clipLine } from '../io/terminal-style.js';
import { sqliteLoaderFrom } from './create-cli-runtime.js';

/**
 * The runs `deepsearch runs|replay|resume` work on: this machine's SQLite file, or in queue mode
 * (both DEEPSEARCH_REDIS_URL and DEEPSEARCH_DATABASE_URL set) the deployment's, in Postgres, with
 * the queue telling which runs nobody holds any more.
 */
export interface CliRuns {
  readonly store: AsyncRunStore;
  /** Queue mode's shared pieces (resume puts the run back on the queue); undefined on one machine. */
  readonly shared: QueueMode | undefined;
  /** What a run is now: a queued or running run nobody holds (its process or worker is gone) is `interrupted`. */
  statusOf(record: Pick<RunRecord, 'id' | 'status' | 'pid'>): Promise<string>;
  /** Closes the store (and queue mode's connections); closing again does nothing. */
  close(): Promise<void>;
}

export async function openCliRuns(io: CliIo, config: DeepSearchConfig): Promise<CliRuns> {
  const { redisUrl, databaseUrl } = config.scale;
  if (redisUrl && databaseUrl) return openDeploymentRuns(io, config);
  const local = createConfiguredRunStore(config.runs, sqliteLoaderFrom(io));
  if (!local)
    throw new ConfigError('the run store is off (--no-runs or DEEPSEARCH_NO_RUNS): no runs are kept');
  return {
    store: toAsyncRunStore(local),
    shared: undefined,
    statusOf: async (record) => (isOrphaned(record) ? 'interrupted' : record.status),
    close: once(async () => local.close()),
  };
}

/** Queue mode: Postgres and Redis (loaded only then), both checked at once (a ConfigError names the one down). */
async function openDeploymentRuns(io: CliIo, config: DeepSearchConfig): Promise<CliRuns> {
  const { openQueueMode } = await import('../../scale/open-queue-mode.js');
  const shared = await openQueueMode({
    scale: config.scale,
    retention: config.runs.retention,
    onError: (error) => io.stderr.write(`deepsearch: warning: ${error.message}\n`),
  });
  return {
    store: shared.store,
    shared,
    statusOf: async (record) => ((await shared.isInterrupted(record)) ? 'interrupted' : record.status),
    close: once(async () => {
      await shared.close();
    }),
  };
}

/** A run by its id or a unique prefix of it, or a one-line error saying how to find one. */
export async function findRun(store: AsyncRunStore, id: string): Promise<RunRecord> {
  const record = (await store.get(id)) ?? (await store.get((await store.resolveId(id)) ?? ''));
  if (!record)
    throw new InputError(`no run '${clipLine(id, 60)}' (deepsearch runs list shows the runs kept)`);
  return record;
}

function once(close: () => Promise<void>): () => Promise<void> {
  let closed: Promise<void> | undefined;
  return () => {
    closed ??= close();
    return closed;
  };
}
