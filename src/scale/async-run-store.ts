import type { StoredCheckpoint, StoredRestore } from '../agent/run-checkpoint.js';
import type { AgentEvent } from '../events/agent-events.js';
import type { NewRun, RunRecord, RunSummary, RunUsage } from '../runs/run-record.js';
import type { RunFinish, RunListQuery, RunStore } from '../runs/run-store.js';
import type { SourceSnapshot } from '../runs/source-snapshot.js';
import { isStaleAttemptError, type RunClaimer } from '../runs/stale-attempt-error.js';

/**
 * The run store as every process of a deployment shares it (SQLite on one machine, Postgres for
 * several): RunStore's operations, awaited. Writes carry the attempt that makes them: the one
 * `claim` returned (0 for a run never claimed); a write of an attempt that no longer holds the run
 * fails with StaleAttemptError and writes nothing, so a worker whose job was taken over stops at
 * its next write.
 */
export interface AsyncRunStore {
  /** Creates the run (attempt 0), or (a resumed run) marks it queued or running again. */
  begin(run: NewRun, status: 'queued' | 'running', pid?: number): Promise<void>;
  /** attempt + 1 on a queued or running run, atomically; RunClaimError when it is gone or ended. */
  claim(runId: string, claimer: RunClaimer): Promise<number>;
  /** Appends events in one transaction; a seq already stored is kept as it was. */
  append(runId: string, events: readonly AgentEvent[], attempt: number): Promise<void>;
  /**
   * Appends the events of several runs in one transaction, each run's fenced by its own attempt:
   * the ids of the runs whose attempt no longer holds them (nothing of theirs is written).
   */
  appendMany(batches: readonly EventBatch[]): Promise<string[]>;
  /**
   * Replaces the checkpoint (pages written once per run) and the usage so far; `events` (the
   * step's last ones) are stored with it, in the same transaction.
   */
  checkpoint(
    runId: string,
    checkpoint: StoredCheckpoint,
    usage: RunUsage,
    attempt: number,
    events?: readonly AgentEvent[],
  ): Promise<void>;
  /** Records the run's end; `events` (its last ones) are stored with it, in the same transaction. */
  finish(runId: string, outcome: RunFinish, attempt: number, events?: readonly AgentEvent[]): Promise<void>;
  get(id: string): Promise<RunRecord | undefined>;
  /** The id a unique prefix stands for (`runs show 3f2a`). */
  resolveId(prefix: string, owner?: string): Promise<string | undefined>;
  events(runId: string, afterSeq?: number): Promise<AgentEvent[]>;
  /** The last checkpoint with its pages, and the last stored event's seq. */
  restore(runId: string): Promise<StoredRestore | undefined>;
  /** The last checkpoint's format version and kind, without loading it or its pages. */
  checkpointHead(runId: string): Promise<{ $schemaVersion: unknown; kind: unknown } | undefined>;
  /** The snapshots of the sources the run cites, in the order first cited (none: an older run). */
  sources(runId: string): Promise<SourceSnapshot[]>;
  /** Newest first; `before` pages on, `q` searches the question and the answer. */
  list(query: RunListQuery): Promise<{ runs: RunSummary[]; hasMore: boolean }>;
  delete(id: string): Promise<boolean>;
  /** Applies the retention limits; returns how many runs were deleted. */
  prune(): Promise<number>;
  /**
   * Runs reading as queued or running, oldest first, at most `limit` (the reconciler compares
   * them with the queue). Shared stores only.
   */
  unfinished?(limit: number): Promise<Array<{ id: string; owner: string; attempt: number }>>;
  close(): Promise<void>;
}

/** One run's events to append, fenced by the attempt that writes them. */
export interface EventBatch {
  runId: string;
  attempt: number;
  events: readonly AgentEvent[];
}

/**
 * Today's SQLite store behind the shared interface: each call runs synchronously on this
 * process's connection (SQLite is in-process; nothing is gained by a thread hop).
 */
export function toAsyncRunStore(store: RunStore): AsyncRunStore {
  const call =
    <Args extends unknown[], Result>(operation: (...args: Args) => Result) =>
    async (...args: Args): Promise<Result> =>
      operation(...args);
  return {
    begin: call(store.begin),
    claim: call(store.claim),
    append: call(store.append),
    async appendMany(batches) {
      const stale: string[] = [];
      // One process's SQLite: a transaction per run is as cheap as one for all.
      for (const { runId, events, attempt } of batches)
        try {
          store.append(runId, events, attempt);
        } catch (error) {
          if (!isStaleAttemptError(error)) throw error;
          stale.push(runId);
        }
      return stale;
    },
    async checkpoint(runId, checkpoint, usage, attempt, events) {
      await store.checkpoint(runId, checkpoint, usage, attempt, events);
    },
    async finish(runId, outcome, attempt, events) {
      if (events?.length) store.append(runId, events, attempt);
      store.finish(runId, outcome, attempt);
    },
    get: call(store.get),
    resolveId: call(store.resolveId),
    events: call(store.events),
    restore: call(store.restore),
    checkpointHead: call(store.checkpointHead),
    sources: call(store.sources),
    list: call(store.list),
    delete: call(store.delete),
    prune: call(store.prune),
    close: call(store.close),
  };
}
