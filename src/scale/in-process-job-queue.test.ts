import { describe, expect, it } from 'vitest';
import { createSemaphore } from '../core/semaphore.js';
import { createInProcessJobQueue } from './in-process-job-queue.js';
import { jobStopReason, type RunningJob } from './job-queue.js';

/** One slot, shared: what the server's limiter gives (a full queue would reject at once). */
function oneSlot() {
  const semaphore = createSemaphore({ max: 1 });
  return {
    acquire: ({ owner, signal }: { owner: string; signal?: AbortSignal }) =>
      semaphore.acquire({ key: owner, signal }),
  };
}

describe('the in-process job queue in shared slots', () => {
  it('runs a job in a free slot, queues the next, removes a waiting one and signals a running one', async () => {
    const started: RunningJob[] = [];
    const queue = createInProcessJobQueue({ maxQueue: 0, slots: oneSlot() });
    await queue.work({
      concurrency: 1,
      handler: (job) =>
        new Promise<void>((resolve) => {
          started.push(job);
          job.signal.addEventListener('abort', () => resolve());
        }),
    });
    expect(await queue.enqueue({ id: 'a', owner: 'k', data: {} })).toEqual({ status: 'running' });
    expect(await queue.enqueue({ id: 'b', owner: 'k', data: {} })).toEqual({ status: 'queued' });
    await expect(queue.enqueue({ id: 'a', owner: 'k', data: {} })).rejects.toMatchObject({
      code: 'job_exists',
    });
    expect(await queue.counts()).toEqual({ queued: 1, running: 1 });
    expect(await queue.cancel('b')).toBe('removed');
    expect(await queue.cancel('a')).toBe('signalled');
    expect(jobStopReason(started[0]!.signal)).toBe('job_cancelled');
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect([await queue.has('a'), await queue.has('b')]).toEqual([false, false]);
    expect(started.map((job) => job.id)).toEqual(['a']);
    expect(await queue.cancel('a')).toBe('not_found');
  });
});
