import type { StoredRestore } from '../agent/run-checkpoint.js';
import { DeepSearchError } from '../errors/index.js';
import type { RunRecord } from '../runs/run-record.js';
import type { RunStore } from '../runs/run-store.js';
import type { AsyncRunStore } from './async-run-store.js';
import type { RunEventLog } from './run-event-log.js';

/** A run this worker claimed: what the runtime reads of it, and how its writes are made. */
export interface HeldRun {
  attempt: number;
  /** The run as claimed: shown to the runtime with no process holding it, so resume takes it. */
  record: RunRecord;
  restore: StoredRestore | undefined;
  /** The job stopped without ending the run (handed back, lease lost): its end is not written. */
  keepsRunning(): boolean;
  /** A write failed: the run must stop (the error is the one `release` rethrows). */
  onWriteFailure(error: unknown): void;
}

/** The run store as a worker's runtime sees it: synchronous, for the runs this worker holds. */
export interface WorkerRunStore extends RunStore {
  hold(runId: string, run: HeldRun): void;
  /** Waits for the run's writes queued so far, forgets it; rejects with its first failed write. */
  release(runId: string): Promise<void>;
  /** Whether the runtime recorded the run's end (a run that failed before its recording began did not). */
  ended(runId: string): boolean;
}

interface Holding extends HeldRun {
  writes: Promise<void>;
  /** The run's last event stored: the claimed record's, then this attempt's appends'. */
  lastSeq: number;
  /** The runtime recorded the run's end (finish was called). */
  ended: boolean;
  failure?: { error: unknown };
}

/**
 * The runtime records runs through a synchronous RunStore (begin, append, checkpoint, finish, as
 * the agent loop calls them); a worker's runs live in the shared AsyncRunStore. This facade queues
 * each run's writes in order, each fenced by the attempt the worker claimed, events through the
 * event log (stored, then live on the run's stream): the run goes on while events are written,
 * but a checkpoint returns a promise that settles once it (and every write queued before it) is
 * stored, which the run awaits before its next step or phase: no LLM call after a checkpoint is
 * made before that checkpoint is stored, so a takeover never asks again what it holds.
 * The first write that fails stops the run (onWriteFailure aborts it before the checkpoint's
 * promise settles) and nothing more is written for it, so a worker whose run was taken over
 * (StaleAttemptError) writes nothing after and makes no further step. Reads serve the
 * claimed record and its checkpoint, as resume reads them, and only for held runs: a worker
 * lists and serves nothing.
 */
export function createWorkerRunStore(options: { store: AsyncRunStore; log: RunEventLog }): WorkerRunStore {
  const { store, log } = options;
  const held = new Map<string, Holding>();
  const holding = (runId: string): Holding => {
    const run = held.get(runId);
    if (!run) throw notHeld(runId);
    return run;
  };
  const write = (runId: string, operation: (run: Holding) => Promise<void>): Promise<void> => {
    const run = holding(runId);
    run.writes = run.writes.then(async () => {
      try {
        if (!run.failure) await operation(run);
      } catch (error) {
        run.failure = { error };
        run.onWriteFailure(error);
      }
    });
    return run.writes;
  };
  const notServed = (what: string) => () => {
    throw new DeepSearchError(`a worker's run store does not ${what}`, { code: 'worker_store' });
  };
  return {
    hold(runId, run) {
      held.set(runId, { ...run, writes: Promise.resolve(), ended: false, lastSeq: run.record.lastSeq });
    },
    async release(runId) {
      const run = held.get(runId);
      if (!run) return;
      await run.writes;
      held.delete(runId);
      if (run.failure) throw run.failure.error;
    },
    // The claim already marked the run running for this attempt; the API node created it.
    begin: (run) => void holding(run.id),
    claim: notServed('claim (the worker claims in the shared store)'),
    append: (runId, events) =>
      void write(runId, async (run) => {
        await log.append(runId, events, run.attempt);
        run.lastSeq = events.at(-1)?.seq ?? run.lastSeq;
      }),
    checkpoint: (runId, checkpoint, usage) =>
      write(runId, (run) => store.checkpoint(runId, checkpoint, usage, run.attempt)),
    ended: (runId) => held.get(runId)?.ended ?? false,
    finish(runId, outcome) {
      holding(runId).ended = true;
      void write(runId, async (run) => {
        if (run.keepsRunning()) return;
        await store.finish(runId, outcome, run.attempt);
        await log.end(runId, run.lastSeq);
      });
    },
    get: (id) => held.get(id)?.record,
    restore: (runId) => held.get(runId)?.restore,
    checkpointHead(runId) {
      const checkpoint = held.get(runId)?.restore?.checkpoint;
      return checkpoint && { $schemaVersion: checkpoint.$schemaVersion, kind: checkpoint.kind };
    },
    resolveId: notServed('resolve ids'),
    events: notServed('read events (the event log does)'),
    list: notServed('list runs'),
    delete: notServed('delete runs'),
    prune: () => 0,
    close() {},
  };
}

function notHeld(runId: string): DeepSearchError {
  return new DeepSearchError(`run ${runId} is not held by this worker`, { code: 'run_not_held' });
}
