import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { Redis } from 'ioredis';
import { importQueuePackage } from '../import-queue-package.js';
import {
  busyMessage,
  type JobQueue,
  JobQueueBusyError,
  type JobQueueLimits,
  jobExists,
  retryAfterSeconds,
} from '../job-queue.js';
import { type JobRunner, type QueuedJob, startJobRunner } from './bullmq-job-runner.js';
import { createJobAdmission } from './job-admission.js';
import { checkNoEviction, openRedis } from './open-redis.js';

export interface BullmqJobQueueOptions extends JobQueueLimits {
  /** redis://… (DEEPSEARCH_REDIS_URL). */
  url: string;
  /** Prefix of every key and channel (default `deepsearch`): several deployments on one Redis. */
  prefix?: string;
  /** A job's lock, renewed at half of it: a worker silent this long loses its jobs (default 30 s). */
  lockMs?: number;
  /** How often workers look for jobs whose lock expired (default: stalledCheckMs(lockMs)). */
  stalledIntervalMs?: number;
  /** How often a worker reconciles the admitted jobs with BullMQ's (default: lockMs, at least 5 s). */
  sweepIntervalMs?: number;
  /** Takeovers of one job (its worker died or hung) before it fails (default 3). */
  maxTakeovers?: number;
  workerId?: string;
  /** Errors of background work (lock renewal, the reconciling sweep), for the log. */
  onError?: (error: Error) => void;
}

/**
 * How often workers look for jobs whose lock expired. BullMQ moves a job back only on the second
 * look that finds it unlocked (the first marks it), so a dead worker's job is taken over at most
 * lock + this + a fetch after its last renewal: a quarter of the lock, at most 4 s, keeps that
 * under lock + 5 s (with the check as long as the lock it was up to twice the lock).
 */
export function stalledCheckMs(lockMs: number): number {
  return Math.min(Math.max(Math.round(lockMs / 4), 250), 4000);
}

const waitingStates = new Set(['waiting', 'prioritized', 'delayed']);
const dayInSeconds = 86_400;

/**
 * Jobs in Redis through BullMQ, shared by every API node and worker. The job id is the run id.
 * Admission (queue size, jobs per owner) is one atomic script (job-admission.ts); BullMQ holds the
 * jobs, their locks and takeovers. Redis must run with maxmemory-policy noeviction: refused here
 * at start otherwise, since an evicted lock or job loses runs silently.
 */
export async function createBullmqJobQueue(options: BullmqJobQueueOptions): Promise<JobQueue> {
  const prefix = options.prefix ?? 'deepsearch';
  // Enqueue, cancel and counts answer clients: they fail fast while Redis is away. The worker's
  // connection (opened by work()) waits for it instead.
  const redis = await openRedis(options.url, { name: 'queue', failFast: true });
  try {
    await checkNoEviction(redis, options.url);
  } catch (error) {
    redis.disconnect();
    throw error;
  }
  const bullmq = await importQueuePackage('bullmq', () => import('bullmq'));
  const queue = new bullmq.Queue<QueuedJob>('runs', { connection: redis, prefix });
  // BullMQ prints a connection error to the console unless someone listens: the caller's log does.
  queue.on('error', (error) => options.onError?.(error));
  const admission = createJobAdmission(redis, prefix);
  let workerRedis: Redis | undefined;
  const cancelChannel = `${prefix}:jobs:cancel`;
  const workerId = options.workerId ?? `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  const lockMs = options.lockMs ?? 30_000;
  let runner: JobRunner | undefined;
  const counts = async () => {
    const by = await queue.getJobCounts('waiting', 'prioritized', 'delayed', 'active');
    return { queued: (by.waiting ?? 0) + (by.prioritized ?? 0) + (by.delayed ?? 0), running: by.active ?? 0 };
  };
  return {
    async enqueue(request) {
      const verdict = await admission.admit(request.id, request.owner, options);
      if (verdict === 'exists') throw jobExists(request.id);
      if (verdict !== 'ok') {
        const limit = verdict === 'owner_busy' ? options.maxJobsPerOwner! : options.maxQueue;
        const { queued } = await counts();
        throw new JobQueueBusyError({
          code: verdict,
          message: busyMessage(verdict, { queued, limit }),
          retryAfterSeconds: retryAfterSeconds(await admission.recentMs()),
        });
      }
      try {
        const data = { owner: request.owner, data: request.data };
        await queue.add('run', data, {
          jobId: request.id,
          attempts: 1,
          removeOnComplete: true,
          removeOnFail: true,
        });
      } catch (error) {
        await admission.release(request.id);
        throw error;
      }
      return { status: 'queued' };
    },
    async cancel(id) {
      // Marked first: a worker taking the job from now on sees the mark before it runs it.
      await redis.set(admission.cancelKey(id), '1', 'EX', dayInSeconds);
      const job = await queue.getJob(id);
      if (!job) return 'not_found';
      if (waitingStates.has(await job.getState())) {
        const removed = await job.remove().then(
          () => true,
          () => false, // a worker took it meanwhile: it is signalled below
        );
        if (removed) {
          await admission.release(id);
          return 'removed';
        }
      }
      await redis.publish(cancelChannel, id);
      return 'signalled';
    },
    async has(id) {
      const state = await queue.getJobState(id);
      return state !== 'unknown' && state !== 'completed' && state !== 'failed';
    },
    async work(settings) {
      if (runner) return runner.ready;
      workerRedis = await openRedis(options.url, { name: 'worker' });
      runner = startJobRunner({
        bullmq,
        queue,
        redis: workerRedis,
        admission: createJobAdmission(workerRedis, prefix),
        cancelChannel,
        ...settings,
        workerId,
        lockMs,
        stalledIntervalMs: options.stalledIntervalMs ?? stalledCheckMs(lockMs),
        sweepIntervalMs: options.sweepIntervalMs ?? Math.max(lockMs, 5000),
        maxTakeovers: options.maxTakeovers ?? 3,
        onError: options.onError,
      });
      await runner.ready;
    },
    counts,
    async close(settings = {}) {
      const handedBack = (await runner?.close(settings.graceMs ?? 0)) ?? [];
      await queue.close();
      redis.disconnect();
      workerRedis?.disconnect();
      return { handedBack };
    },
  };
}
