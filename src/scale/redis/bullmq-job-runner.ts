import type { Job, Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import { isStaleAttemptError } from '../../runs/stale-attempt-error.js';
import { type JobData, type JobHandler, JobStoppedError, jobStopReason } from '../job-queue.js';
import type { JobAdmission } from './job-admission.js';
import { defineScript } from './redis-script.js';

/** A job as BullMQ stores it (its id is the run's). */
export interface QueuedJob {
  owner: string;
  data: JobData;
}

export interface JobRunnerOptions {
  bullmq: typeof import('bullmq');
  queue: Queue<QueuedJob>;
  redis: Redis;
  admission: JobAdmission;
  cancelChannel: string;
  handler: JobHandler;
  concurrency: number;
  workerId: string;
  lockMs: number;
  stalledIntervalMs: number;
  sweepIntervalMs: number;
  maxTakeovers: number;
  onError?: (error: Error) => void;
}

export interface JobRunner {
  ready: Promise<void>;
  close(graceMs: number): Promise<string[]>;
}

/**
 * A BullMQ worker running jobs with the handler. Each job gets its own AbortController, aborted
 * (reason JobStoppedError) when a cancel for it is published, when its lock could not be renewed
 * (another worker takes it over), or when close() hands it back. A job whose handler returns is
 * over for the queue, whatever happened to its run (cancelled or failed runs are never retried);
 * one handed back goes to the wait list; one lost, or whose writes were fenced, is left to its new
 * holder; one whose handler throws (it could not record the run) is left for its lock to expire.
 */
export function startJobRunner(options: JobRunnerOptions): JobRunner {
  const { admission, redis, handler, workerId } = options;
  const held = new Map<string, AbortController>();
  const handedBack: string[] = [];
  // Set once close's grace period is over: a job fetched while closing goes straight back.
  let handingBack = false;
  const stop = (id: string, code: 'job_cancelled' | 'job_lease_lost' | 'job_handed_back') => {
    const controller = held.get(id);
    if (controller && !controller.signal.aborted) controller.abort(new JobStoppedError(code));
  };

  const runJob = async (job: Job<QueuedJob>, token?: string) => {
    const id = job.id!;
    const controller = new AbortController();
    held.set(id, controller);
    if (handingBack) stop(id, 'job_handed_back');
    const started = performance.now();
    let failure: unknown;
    try {
      // Cancelled before this worker got it (the cancel was published to no one holding it).
      if (await admission.started(id)) stop(id, 'job_cancelled');
      await handler({ id, owner: job.data.owner, data: job.data.data, signal: controller.signal, workerId });
    } catch (error) {
      failure = error;
    } finally {
      held.delete(id);
    }
    const reason = jobStopReason(controller.signal);
    if (reason === 'job_handed_back') {
      handedBack.push(id);
      await admission.handedBack(id);
      await job.moveToWait(token).catch(() => undefined);
      throw new options.bullmq.WaitingError();
    }
    // Someone else's job now: BullMQ is told nothing was done (a WaitingError moves nothing).
    if (reason === 'job_lease_lost' || isStaleAttemptError(failure)) throw new options.bullmq.WaitingError();
    // The handler could not record the run (its store is away): the job is left as it is, its lock
    // runs out and a worker takes it again (at most maxTakeovers times), resuming the run.
    if (failure !== undefined && reason !== 'job_cancelled') {
      options.onError?.(failure as Error);
      throw new options.bullmq.WaitingError();
    }
    await admission.release(id, performance.now() - started);
  };

  const worker = new options.bullmq.Worker<QueuedJob>(options.queue.name, runJob, {
    connection: redis,
    prefix: options.queue.opts.prefix,
    concurrency: options.concurrency,
    lockDuration: options.lockMs,
    stalledInterval: options.stalledIntervalMs,
    maxStalledCount: options.maxTakeovers,
    name: workerId,
  });
  worker.on('lockRenewalFailed', (ids) => {
    for (const id of ids) stop(id, 'job_lease_lost');
  });
  worker.on('error', (error) => options.onError?.(error));
  const subscriber = redis.duplicate();
  subscriber.on('error', () => undefined);
  subscriber.on('message', (_channel: string, id: string) => stop(id, 'job_cancelled'));
  const sweeper = startSweeper(options);

  return {
    ready: Promise.all([worker.waitUntilReady(), subscriber.subscribe(options.cancelChannel)]).then(
      () => undefined,
    ),
    async close(graceMs) {
      clearInterval(sweeper);
      // Takes no new job from here; waits for the running ones, handed back after the grace period.
      const closed = worker.close();
      const timer = setTimeout(() => {
        handingBack = true;
        for (const id of held.keys()) stop(id, 'job_handed_back');
      }, graceMs);
      await closed;
      clearTimeout(timer);
      subscriber.disconnect();
      return handedBack;
    },
  };
}

// The admitted jobs (ARGV) BullMQ no longer holds: no job hash, or finished (completed, failed).
// KEYS[1]: the sweep's lock, taken for the interval (ARGV[1], ms) by one worker of the deployment.
const goneScript = `
if not redis.call('SET', KEYS[1], '1', 'NX', 'PX', ARGV[1]) then return false end
local gone = {}
for i = 2, #ARGV do
  local id = ARGV[i]
  if redis.call('EXISTS', KEYS[2] .. id) == 0 or redis.call('ZSCORE', KEYS[3], id)
    or redis.call('ZSCORE', KEYS[4], id) then gone[#gone + 1] = id end
end
return gone`;

/**
 * Reconciles the queue's bookkeeping with BullMQ's: a job admitted but gone from BullMQ (an API
 * node died between the two steps, or a job failed after too many takeovers) is released once it
 * has been seen gone twice, so its owner's count does not stay taken forever. One worker of the
 * deployment sweeps per interval, checking every admitted job in one script: a sweep per worker,
 * with a round trip per job, cost every worker ~2 Redis calls per job it ran.
 */
function startSweeper(options: JobRunnerOptions): NodeJS.Timeout {
  const suspects = new Set<string>();
  const intervalMs = options.sweepIntervalMs;
  const { queue } = options;
  const findGone = defineScript(options.redis, 'deepsearchGoneJobs', { keys: 4, lua: goneScript });
  const sweep = async () => {
    const admitted = await options.admission.admitted();
    if (admitted.length === 0) return;
    const keys = [
      `${queue.opts.prefix}:jobs:sweep`,
      queue.toKey(''),
      queue.toKey('completed'),
      queue.toKey('failed'),
    ];
    // Another worker swept this interval: its suspects are its own to confirm.
    const gone = (await findGone(...keys, Math.round(intervalMs * 0.9), ...admitted)) as string[] | null;
    if (!gone) return;
    const goneNow = new Set(gone);
    for (const id of [...suspects]) if (!goneNow.has(id)) suspects.delete(id);
    for (const id of gone) {
      if (!suspects.delete(id)) suspects.add(id);
      else await options.admission.release(id);
    }
  };
  const timer = setInterval(() => sweep().catch((error: Error) => options.onError?.(error)), intervalMs);
  timer.unref();
  return timer;
}
