// The job queue's contract, run against both implementations: in this process's memory, and
// BullMQ on a real Redis started for this file (an "API node" queue and a separate "worker" one).
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createInProcessJobQueue } from '../../src/scale/in-process-job-queue.js';
import {
  type JobQueue,
  JobQueueBusyError,
  type JobQueueLimits,
  jobStopReason,
  type RunningJob,
} from '../../src/scale/job-queue.js';
import { createBullmqJobQueue } from '../../src/scale/redis/bullmq-job-queue.js';
import { needServices, type RunningService, startRedis } from '../helpers/scale-services.js';

const redisAvailable = needServices('redis');
let redis: RunningService | undefined;
beforeAll(async () => {
  if (redisAvailable) redis = await startRedis();
}, 60_000);
afterAll(() => redis?.stop());

/** An API node's queue and a worker's (the same object in-process), and a second worker. */
interface Deployment {
  api: JobQueue;
  worker: JobQueue;
  /** Another worker process: takes the jobs the first hands back. */
  another(): Promise<JobQueue>;
  close(): Promise<void>;
}

let prefixes = 0;
const implementations: Array<{
  name: string;
  available: boolean;
  deploy(limits: JobQueueLimits): Promise<Deployment>;
}> = [
  {
    name: 'in-process',
    available: true,
    async deploy(limits) {
      const queue = createInProcessJobQueue(limits);
      return { api: queue, worker: queue, another: async () => queue, close: async () => undefined };
    },
  },
  {
    name: 'BullMQ',
    available: redisAvailable,
    async deploy(limits) {
      const settings = { ...limits, url: redis!.url, prefix: `contract-${++prefixes}`, lockMs: 2000 };
      const opened: JobQueue[] = [];
      const open = async (workerId: string) => {
        const queue = await createBullmqJobQueue({ ...settings, workerId });
        opened.push(queue);
        return queue;
      };
      const api = await open('api');
      const worker = await open('worker-1');
      return {
        api,
        worker,
        another: () => open('worker-2'),
        async close() {
          await Promise.all(opened.map((queue) => queue.close({ graceMs: 0 })));
        },
      };
    },
  },
];

/** Polls until `probe` gives a truthy value (the value), for up to 20 s: the machine may be loaded. */
const waitFor = <T>(probe: () => T | Promise<T>) => vi.waitUntil(probe, { timeout: 20_000, interval: 20 });

/** A handler whose jobs run until released (or their signal aborts), recording what it saw. */
function controllableHandler() {
  const started: RunningJob[] = [];
  const stopped = new Map<string, { reason: string | undefined; at: number }>();
  const releases = new Map<string, () => void>();
  const handler = async (job: RunningJob) => {
    started.push(job);
    await new Promise<void>((resolve) => {
      releases.set(job.id, resolve);
      if (job.signal.aborted) resolve();
      job.signal.addEventListener('abort', () => resolve(), { once: true });
    });
    stopped.set(job.id, { reason: jobStopReason(job.signal), at: performance.now() });
  };
  return { handler, started, stopped, release: (id: string) => releases.get(id)?.() };
}

for (const implementation of implementations) {
  describe.skipIf(!implementation.available)(`job queue contract: ${implementation.name}`, () => {
    it('keeps a job queued while no worker runs, then runs it once with its owner and data', async () => {
      const deployment = await implementation.deploy({ maxQueue: 10 });
      expect(await deployment.api.enqueue({ id: 'job-1', owner: 'key:a', data: { question: 'q' } })).toEqual({
        status: 'queued',
      });
      expect(await deployment.api.counts()).toEqual({ queued: 1, running: 0 });
      const worker = controllableHandler();
      await deployment.worker.work({ handler: worker.handler, concurrency: 2 });
      const job = (await waitFor(() => worker.started.length === 1 && worker.started))[0];
      expect(job).toMatchObject({ id: 'job-1', owner: 'key:a', data: { question: 'q' } });
      expect(job!.workerId).toEqual(expect.any(String));
      expect(job!.signal.aborted).toBe(false);
      await waitFor(async () => (await deployment.api.counts()).running === 1);
      worker.release('job-1');
      await waitFor(async () => (await deployment.api.counts()).running === 0);
      expect(worker.started).toHaveLength(1);
      await deployment.close();
    });

    it('refuses with owner_busy past the per-owner limit and server_busy past the queue size', async () => {
      const deployment = await implementation.deploy({ maxQueue: 2, maxJobsPerOwner: 2 });
      await deployment.api.enqueue({ id: 'a1', owner: 'key:a', data: {} });
      await deployment.api.enqueue({ id: 'a2', owner: 'key:a', data: {} });
      const ownerBusy = await deployment.api
        .enqueue({ id: 'a3', owner: 'key:a', data: {} })
        .catch((error) => error);
      expect(ownerBusy).toBeInstanceOf(JobQueueBusyError);
      expect(ownerBusy).toMatchObject({ code: 'owner_busy' });
      expect(ownerBusy.retryAfterSeconds).toBeGreaterThanOrEqual(1);
      const serverBusy = await deployment.api
        .enqueue({ id: 'b1', owner: 'key:b', data: {} })
        .catch((error) => error);
      expect(serverBusy).toMatchObject({ code: 'server_busy', message: expect.stringContaining('busy') });
      await expect(deployment.api.enqueue({ id: 'a1', owner: 'key:a', data: {} })).rejects.toMatchObject({
        code: 'job_exists',
      });
      // Jobs that end give their places back.
      const worker = controllableHandler();
      await deployment.worker.work({ handler: worker.handler, concurrency: 2 });
      await waitFor(() => worker.started.length === 2);
      worker.release('a1');
      worker.release('a2');
      await waitFor(async () => (await deployment.api.counts()).running === 0);
      await waitFor(() =>
        deployment.api.enqueue({ id: 'a3', owner: 'key:a', data: {} }).catch(() => undefined),
      );
      await deployment.close();
    });

    it('cancels a waiting job (it never runs) and a running one within a second, without running it again', async () => {
      const deployment = await implementation.deploy({ maxQueue: 10 });
      await deployment.api.enqueue({ id: 'waiting', owner: 'o', data: {} });
      expect(await deployment.api.has('waiting')).toBe(true);
      expect(await deployment.api.cancel('waiting')).toBe('removed');
      expect(await deployment.api.has('waiting')).toBe(false);
      expect(await deployment.api.cancel('never-queued')).toBe('not_found');
      const worker = controllableHandler();
      await deployment.worker.work({ handler: worker.handler, concurrency: 1 });
      await deployment.api.enqueue({ id: 'running', owner: 'o', data: {} });
      await waitFor(() => worker.started.length === 1);
      expect(await deployment.api.has('running')).toBe(true);
      const cancelled = performance.now();
      expect(await deployment.api.cancel('running')).toBe('signalled');
      const stop = await waitFor(() => worker.stopped.get('running'));
      expect(stop.reason).toBe('job_cancelled');
      expect(stop.at - cancelled).toBeLessThan(1000);
      await waitFor(async () => (await deployment.api.counts()).running === 0);
      expect(await deployment.api.has('running')).toBe(false);
      // Neither the removed job nor the cancelled one runs (again).
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(worker.started.map((job) => job.id)).toEqual(['running']);
      await deployment.close();
    });

    it('close gives running jobs the grace period, then hands them back, never cancelled', async () => {
      const deployment = await implementation.deploy({ maxQueue: 10 });
      const worker = controllableHandler();
      await deployment.worker.work({ handler: worker.handler, concurrency: 2 });
      await deployment.api.enqueue({ id: 'quick', owner: 'o', data: {} });
      await deployment.api.enqueue({ id: 'long', owner: 'o', data: {} });
      await waitFor(() => worker.started.length === 2);
      setTimeout(() => worker.release('quick'), 100);
      const { handedBack } = await deployment.worker.close({ graceMs: 400 });
      expect(handedBack).toEqual(['long']);
      expect(worker.stopped.get('quick')?.reason).toBeUndefined();
      expect(worker.stopped.get('long')?.reason).toBe('job_handed_back');
      if (implementation.name === 'BullMQ') {
        // Another worker goes on with it.
        const next = controllableHandler();
        await (await deployment.another()).work({ handler: next.handler, concurrency: 1 });
        const [job] = await waitFor(() => next.started.length === 1 && next.started);
        expect(job).toMatchObject({ id: 'long', owner: 'o' });
        expect(job!.signal.aborted).toBe(false);
        next.release('long');
      }
      await deployment.close();
    });
  });
}

describe('in-process job queue', () => {
  it('runs at once when a slot is free; a freed slot goes to the owner holding the fewest', async () => {
    const queue = createInProcessJobQueue({ maxQueue: 10 });
    const worker = controllableHandler();
    await queue.work({ handler: worker.handler, concurrency: 2 });
    expect(await queue.enqueue({ id: 'a1', owner: 'a', data: {} })).toEqual({ status: 'running' });
    expect(await queue.enqueue({ id: 'a2', owner: 'a', data: {} })).toEqual({ status: 'running' });
    expect(await queue.enqueue({ id: 'a3', owner: 'a', data: {} })).toEqual({ status: 'queued' });
    expect(await queue.enqueue({ id: 'b1', owner: 'b', data: {} })).toEqual({ status: 'queued' });
    worker.release('a1');
    await waitFor(() => worker.started.length === 3);
    expect(worker.started.map((job) => job.id)).toEqual(['a1', 'a2', 'b1']);
    await queue.close({ graceMs: 0 });
  });

  it("applies the server's key share of the queue: one key cannot fill it", async () => {
    const queue = createInProcessJobQueue({ maxQueue: 4, ownerShare: 0.5 });
    const worker = controllableHandler();
    await queue.work({ handler: worker.handler, concurrency: 1 });
    expect(await queue.enqueue({ id: 'a1', owner: 'a', data: {} })).toEqual({ status: 'running' });
    await queue.enqueue({ id: 'a2', owner: 'a', data: {} });
    await queue.enqueue({ id: 'a3', owner: 'a', data: {} });
    await expect(queue.enqueue({ id: 'a4', owner: 'a', data: {} })).rejects.toMatchObject({
      code: 'owner_busy',
    });
    expect(await queue.enqueue({ id: 'b1', owner: 'b', data: {} })).toEqual({ status: 'queued' });
    await queue.close({ graceMs: 0 });
  });
});
