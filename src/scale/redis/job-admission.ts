import type { Redis } from 'ioredis';
import type { JobQueueLimits } from '../job-queue.js';
import { defineScript } from './redis-script.js';

// The queue's own bookkeeping beside BullMQ's, so admission is one atomic step across API nodes:
// admitted (hash id -> owner), owners (hash owner -> jobs queued or running), started (set of the
// admitted jobs a worker holds). Queued = admitted - started.
const admitScript = `
if redis.call('HEXISTS', KEYS[1], ARGV[1]) == 1 then return 'exists' end
local perOwner = tonumber(ARGV[4])
if perOwner >= 0 and tonumber(redis.call('HGET', KEYS[2], ARGV[2]) or '0') >= perOwner then return 'owner_busy' end
if redis.call('HLEN', KEYS[1]) - redis.call('SCARD', KEYS[3]) >= tonumber(ARGV[3]) then return 'server_busy' end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
redis.call('HINCRBY', KEYS[2], ARGV[2], 1)
redis.call('DEL', KEYS[4])
return 'ok'`;

// KEYS[4]: how long the last 20 jobs held a worker (ARGV[2], when given), for Retry-After.
const releaseScript = `
redis.call('SREM', KEYS[3], ARGV[1])
if ARGV[2] then
  redis.call('LPUSH', KEYS[4], ARGV[2])
  redis.call('LTRIM', KEYS[4], 0, 19)
end
local owner = redis.call('HGET', KEYS[1], ARGV[1])
if not owner then return 0 end
redis.call('HDEL', KEYS[1], ARGV[1])
if redis.call('HINCRBY', KEYS[2], owner, -1) <= 0 then redis.call('HDEL', KEYS[2], owner) end
return 1`;

// A worker took the job; whether a cancel was marked for it before (published to no one holding it).
const startScript = `
redis.call('SADD', KEYS[1], ARGV[1])
return redis.call('EXISTS', KEYS[2])`;

export type JobAdmissionOutcome = 'ok' | 'exists' | 'owner_busy' | 'server_busy';

export interface JobAdmission {
  admit(id: string, owner: string, limits: JobQueueLimits): Promise<JobAdmissionOutcome>;
  /** A worker took the job (it no longer counts as queued); true when a cancel was marked for it. */
  started(id: string): Promise<boolean>;
  /** A worker gave the job back to the queue (it counts as queued again). */
  handedBack(id: string): Promise<void>;
  /** The job is over (finished, failed, cancelled, removed): its owner's count goes down. */
  release(id: string, heldMs?: number): Promise<void>;
  /** How long the last jobs held a worker, for Retry-After. */
  recentMs(): Promise<number[]>;
  /** The admitted jobs, to reconcile with BullMQ's (a process that died between two steps). */
  admitted(): Promise<string[]>;
  /** Key of a job's cancel mark, checked by a worker before and while it runs the job. */
  cancelKey(id: string): string;
}

export function createJobAdmission(redis: Redis, prefix: string): JobAdmission {
  const keys = [`${prefix}:jobs:admitted`, `${prefix}:jobs:owners`, `${prefix}:jobs:started`];
  const durations = `${prefix}:jobs:durations`;
  const cancelKey = (id: string) => `${prefix}:jobs:cancel:${id}`;
  // Once per job each (one round trip): sent by SHA, not as source.
  const admitJob = defineScript(redis, 'deepsearchAdmitJob', { keys: 4, lua: admitScript });
  const releaseJob = defineScript(redis, 'deepsearchReleaseJob', { keys: 4, lua: releaseScript });
  const startJob = defineScript(redis, 'deepsearchStartJob', { keys: 2, lua: startScript });
  return {
    async admit(id, owner, limits) {
      const perOwner = limits.maxJobsPerOwner ?? -1;
      return (await admitJob(
        ...keys,
        cancelKey(id),
        id,
        owner,
        limits.maxQueue,
        perOwner,
      )) as JobAdmissionOutcome;
    },
    started: async (id) => (await startJob(keys[2]!, cancelKey(id), id)) === 1,
    async handedBack(id) {
      await redis.srem(keys[2]!, id);
    },
    async release(id, heldMs) {
      await releaseJob(...keys, durations, id, ...(heldMs === undefined ? [] : [Math.round(heldMs)]));
    },
    async recentMs() {
      return (await redis.lrange(durations, 0, 19)).map(Number);
    },
    admitted: () => redis.hkeys(keys[0]!),
    cancelKey,
  };
}
