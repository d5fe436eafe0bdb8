import { describe, expect, it } from 'vitest';
import { BusyError, DeepSearchError } from '../core/errors/index.js';
import { startRunReconciler } from './run-reconciler.js';

function world(runs: Array<{ id: string; owner: string; attempt: number }>, queued: Set<string>) {
  const enqueued: string[] = [];
  let refuse: Error | undefined;
  const reconciler = startRunReconciler({
    store: { unfinished: async () => runs },
    queue: {
      has: async (id) => queued.has(id),
      enqueue: async (job) => {
        if (refuse) throw refuse;
        if (queued.has(job.id)) throw new DeepSearchError('exists', { code: 'job_exists' });
        queued.add(job.id);
        enqueued.push(job.id);
        return { status: 'queued' };
      },
    },
    intervalMs: 60_000,
    passNow: false,
  });
  reconciler.stop();
  return {
    reconciler,
    enqueued,
    refuseWith: (error: Error | undefined) => {
      refuse = error;
    },
  };
}

describe('startRunReconciler', () => {
  it('puts back a run missing from the queue on two passes with the same attempt, and only that one', async () => {
    const runs = [
      { id: 'lost', owner: 'a', attempt: 1 },
      { id: 'held', owner: 'a', attempt: 1 },
      { id: 'taken-over', owner: 'b', attempt: 1 },
    ];
    const { reconciler, enqueued } = world(runs, new Set(['held']));
    await reconciler.pass();
    expect(enqueued).toEqual([]);
    // Meanwhile a worker claimed one (a new attempt): the count starts again for it.
    runs[2]!.attempt = 2;
    expect(await reconciler.pass()).toEqual(['lost']);
    expect(enqueued).toEqual(['lost']);
    // 'lost' is in the queue again; 'taken-over' is missing a second time with the same attempt.
    expect(await reconciler.pass()).toEqual(['taken-over']);
    expect(await reconciler.pass()).toEqual([]);
  });

  it('a full queue is tried again on the next pass; a job another worker put back first is left alone', async () => {
    const runs = [{ id: 'lost', owner: 'a', attempt: 3 }];
    const queued = new Set<string>();
    const { reconciler, enqueued, refuseWith } = world(runs, queued);
    await reconciler.pass();
    refuseWith(new BusyError({ code: 'server_busy', message: 'full', retryAfterSeconds: 5 }));
    expect(await reconciler.pass()).toEqual([]);
    refuseWith(undefined);
    expect(await reconciler.pass()).toEqual(['lost']);
    expect(enqueued).toEqual(['lost']);
  });
});
