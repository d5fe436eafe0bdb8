import { BusyError, DeepSearchError } from '../core/errors/index.js';
import type { AsyncRunStore } from './async-run-store.js';
import type { JobQueue } from './job-queue.js';

export interface RunReconciler {
  /** One comparison of the store with the queue (the timer's; tests call it directly). */
  pass(): Promise<string[]>;
  stop(): void;
}

/** Runs one pass compares at most (the oldest first). */
const maxRunsPerPass = 1000;

/**
 * Puts back on the queue the runs the store says are queued or running but the queue no longer
 * knows (a Redis restart without its data, a flushed key): without it such a run stays `running`
 * for ever and the API shows it interrupted. A run is taken as lost only when two passes,
 * `intervalMs` apart, found it missing with the same attempt, so a run an API node is posting or
 * resuming right now (stored, not yet enqueued) is never touched. Its job goes back with no data:
 * the worker that takes it claims a new attempt (fencing any worker still running the old one, as
 * a takeover does) and goes on from its last checkpoint. Started on every worker, at once and then
 * every `intervalMs`; two workers putting back the same run make one job (the id is the run's).
 */
export function startRunReconciler(options: {
  store: Pick<AsyncRunStore, 'unfinished'>;
  queue: Pick<JobQueue, 'has' | 'enqueue'>;
  intervalMs: number;
  onRequeued?: (runId: string) => void;
  onError?: (error: Error) => void;
  /** A first pass at once (default); tests drive the passes themselves. */
  passNow?: boolean;
}): RunReconciler {
  let missing = new Map<string, number>();
  const pass = async (): Promise<string[]> => {
    const runs = (await options.store.unfinished?.(maxRunsPerPass)) ?? [];
    const stillMissing = new Map<string, number>();
    const requeued: string[] = [];
    for (const run of runs) {
      if (await options.queue.has(run.id)) continue;
      if (missing.get(run.id) !== run.attempt) {
        stillMissing.set(run.id, run.attempt);
        continue;
      }
      try {
        await options.queue.enqueue({ id: run.id, owner: run.owner, data: {} });
        requeued.push(run.id);
        options.onRequeued?.(run.id);
      } catch (error) {
        // Another worker put it back first: done. A full queue or an owner at its limit: next pass.
        if (DeepSearchError.isInstance(error) && error.code === 'job_exists') continue;
        if (BusyError.isInstance(error)) stillMissing.set(run.id, run.attempt);
        else throw error;
      }
    }
    missing = stillMissing;
    return requeued;
  };
  let running = false;
  const tick = () => {
    if (running) return;
    running = true;
    pass()
      .catch((error: unknown) => options.onError?.(error as Error))
      .finally(() => {
        running = false;
      });
  };
  if (options.passNow !== false) tick();
  const timer = setInterval(tick, options.intervalMs);
  timer.unref();
  return { pass, stop: () => clearInterval(timer) };
}
