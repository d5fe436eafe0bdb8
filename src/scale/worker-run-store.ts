import type { StoredRestore } from '../agent/run-checkpoint.js';
import { DeepSearchError } from '../core/errors/index.js';
import type { AgentEvent } from '../events/agent-events.js';
import type { RunRecord } from '../runs/run-record.js';
import type { RunStore } from '../runs/run-store.js';
import { StaleAttemptError } from '../runs/stale-attempt-error.js';
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
  id: string;
  writes: Promise<void>;
  /** Events recorded, not yet taken by a write (a batch, a checkpoint, the run's end). */
  pending: AgentEvent[];
  /** A write queued will take the pending events: a new append need not queue one. */
  flushQueued: boolean;
  /** Checkpoints and ends queued, each taking the events pending when it runs. */
  carriers: number;
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
 *
 * Events cost a worker a round trip per write, so they are grouped: the events of every run
 * recorded in the same turn of the event loop (the recorders' timers fire together) go in one
 * fenced statement for all of them (createEventBatches), and a step's last events go with its
 * checkpoint, a run's last ones with its end, in that statement.
 */
export function createWorkerRunStore(options: { store: AsyncRunStore; log: RunEventLog }): WorkerRunStore {
  const { store, log } = options;
  const held = new Map<string, Holding>();
  const batches = createEventBatches(store, log);
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
  /** Queues a write that takes the events pending when it runs (a batch waiting for this run gives them up). */
  const carrying = (runId: string, operation: (run: Holding, events: AgentEvent[]) => Promise<void>) => {
    const run = holding(runId);
    run.carriers++;
    batches.withdraw(run);
    return write(runId, async (run) => {
      run.carriers--;
      run.flushQueued = false;
      const events = run.pending.splice(0);
      await operation(run, events);
      run.lastSeq = events.at(-1)?.seq ?? run.lastSeq;
    });
  };
  const notServed = (what: string) => () => {
    throw new DeepSearchError(`a worker's run store does not ${what}`, { code: 'worker_store' });
  };
  return {
    hold(runId, run) {
      held.set(runId, {
        ...run,
        id: runId,
        writes: Promise.resolve(),
        pending: [],
        flushQueued: false,
        carriers: 0,
        ended: false,
        lastSeq: run.record.lastSeq,
      });
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
    append(runId, events) {
      const run = holding(runId);
      run.pending.push(...events);
      if (run.flushQueued || run.carriers > 0) return;
      run.flushQueued = true;
      void write(runId, (run) => (run.carriers > 0 ? Promise.resolve() : batches.send(run)));
    },
    checkpoint: (runId, checkpoint, usage, _attempt, stepEvents = []) => {
      holding(runId).pending.push(...stepEvents);
      return carrying(runId, async (run, events) => {
        await store.checkpoint(runId, checkpoint, usage, run.attempt, events);
        await log.publish(runId, events);
      });
    },
    // Its writes are queued and go in batches of their own (createEventBatches).
    batch: (write) => write(),
    ended: (runId) => held.get(runId)?.ended ?? false,
    finish(runId, outcome) {
      holding(runId).ended = true;
      void carrying(runId, async (run, events) => {
        // Handed back or lost: the events are stored (fenced), the end is the next holder's.
        if (run.keepsRunning()) {
          if (events.length > 0) await batches.sendNow(run, events);
          return;
        }
        await store.finish(runId, outcome, run.attempt, events);
        await log.publish(runId, events);
        await log.end(runId, events.at(-1)?.seq ?? run.lastSeq);
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
    sources: notServed('read source snapshots'),
    list: notServed('list runs'),
    delete: notServed('delete runs'),
    prune: () => 0,
    close() {},
  };
}

/**
 * The worker's event batches: the runs asking to write their pending events in one turn of the
 * event loop go together, in one store statement (each run fenced by its own attempt) and one
 * pipelined write of their stream entries; one batch at a time, the runs asking meanwhile going
 * in the next. A run whose attempt no longer holds it gets StaleAttemptError; a failed statement
 * fails every run in it.
 */
function createEventBatches(store: AsyncRunStore, log: RunEventLog) {
  const waiting = new Map<Holding, { resolve: () => void; reject: (error: unknown) => void }>();
  let sending = false;
  let scheduled = false;
  const schedule = () => {
    if (scheduled || sending || waiting.size === 0) return;
    scheduled = true;
    setImmediate(() => {
      scheduled = false;
      void sendWaiting();
    });
  };
  const write = async (runs: Array<{ run: Holding; events: AgentEvent[] }>) => {
    const stale = await log.appendMany(
      runs.map(({ run, events }) => ({ runId: run.id, attempt: run.attempt, events })),
    );
    // Rare (a run taken over, or deleted): the attempt holding it now is read for the error.
    const refused = new Map<string, StaleAttemptError>();
    for (const { run } of runs.filter(({ run }) => stale.includes(run.id))) {
      const current = (await store.get(run.id).catch(() => undefined))?.attempt;
      refused.set(run.id, new StaleAttemptError({ runId: run.id, attempt: run.attempt, current }));
    }
    return (run: Holding) => refused.get(run.id);
  };
  const sendWaiting = async () => {
    if (waiting.size === 0) return; // every run asking gave its place to a checkpoint meanwhile
    sending = true;
    const asking = [...waiting];
    waiting.clear();
    const runs = asking.map(([run]) => {
      run.flushQueued = false;
      return { run, events: run.pending.splice(0) };
    });
    try {
      const refusal = await write(runs.filter(({ events }) => events.length > 0));
      for (const [index, [run, { resolve, reject }]] of asking.entries()) {
        const error = refusal(run);
        if (error) reject(error);
        else {
          run.lastSeq = runs[index]!.events.at(-1)?.seq ?? run.lastSeq;
          resolve();
        }
      }
    } catch (error) {
      for (const [, { reject }] of asking) reject(error);
    } finally {
      sending = false;
      schedule();
    }
  };
  return {
    /** Writes the run's pending events with the next batch; settles once they are stored. */
    send: (run: Holding) =>
      new Promise<void>((resolve, reject) => {
        waiting.set(run, { resolve, reject });
        schedule();
      }),
    /** Writes these events of the run now, alone. */
    async sendNow(run: Holding, events: AgentEvent[]) {
      const error = (await write([{ run, events }]))(run);
      if (error) throw error;
    },
    /** The run's pending events go with a write of its own (a checkpoint): its place in the batch is given up. */
    withdraw(run: Holding) {
      const asked = waiting.get(run);
      if (!asked) return;
      waiting.delete(run);
      run.flushQueued = false;
      asked.resolve();
    },
  };
}

function notHeld(runId: string): DeepSearchError {
  return new DeepSearchError(`run ${runId} is not held by this worker`, { code: 'run_not_held' });
}
