import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import { AbortedError } from '../../core/errors/index.js';
import type { TaskLimit } from '../../core/semaphore.js';
import { defineScript } from './redis-script.js';

// A sorted set of leases (member: lease id, score: when it expires, in Redis's own clock so the
// workers' clocks need not agree). Expired leases are dropped before counting: a worker that died
// holding one frees it when its lease runs out.
const acquireScript = `
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[1]) then return 0 end
redis.call('ZADD', KEYS[1], now + tonumber(ARGV[2]), ARGV[3])
redis.call('PEXPIRE', KEYS[1], tonumber(ARGV[2]) * 2)
return 1`;

const renewScript = `
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
redis.call('ZADD', KEYS[1], 'XX', now + tonumber(ARGV[1]), ARGV[2])
redis.call('PEXPIRE', KEYS[1], tonumber(ARGV[1]) * 2)
return 1`;

export interface RedisSemaphoreOptions {
  redis: Redis;
  /** The key shared by every worker counting the same calls, e.g. `deepsearch:llm-calls`. */
  key: string;
  /** Calls at once across all workers. */
  limit: number;
  /** A lease is renewed at a third of this while its call runs; a dead holder's frees after it (default 30 s). */
  leaseMs?: number;
}

/**
 * A counting semaphore across processes, with leases: the global cap on concurrent LLM calls, so
 * a shared model server is not flooded however many workers run. Same interface as the
 * in-process semaphore (createSemaphore), which stands in for it on one machine. A waiter
 * polls (25 ms, doubling to 400 ms, or at once when a call of this process ends); waiters of
 * different processes are served in no particular order.
 */
export function createRedisSemaphore(options: RedisSemaphoreOptions): TaskLimit {
  const leaseMs = options.leaseMs ?? 30_000;
  let active = 0;
  let waiting = 0;
  const wakers = new Set<() => void>();
  // By SHA: the acquire runs once per LLM call (and per poll of a waiter), the renewal every leaseMs / 3.
  const acquireLease = defineScript(options.redis, 'deepsearchAcquireLease', { keys: 1, lua: acquireScript });
  const renewLease = defineScript(options.redis, 'deepsearchRenewLease', { keys: 1, lua: renewScript });
  const tryAcquire = async (lease: string) =>
    (await acquireLease(options.key, options.limit, leaseMs, lease)) === 1;

  const acquire = async (lease: string, signal: AbortSignal | undefined) => {
    waiting++;
    try {
      for (let delay = 25; ; delay = Math.min(delay * 2, 400)) {
        if (signal?.aborted) throw new AbortedError(undefined, { cause: signal.reason });
        if (await tryAcquire(lease)) return;
        await new Promise<void>((resolve) => {
          const wake = () => {
            clearTimeout(timer);
            wakers.delete(wake);
            signal?.removeEventListener('abort', wake);
            resolve();
          };
          const timer = setTimeout(wake, delay);
          wakers.add(wake);
          signal?.addEventListener('abort', wake, { once: true });
        });
      }
    } finally {
      waiting--;
    }
  };

  return {
    async run(task, signal) {
      const lease = randomUUID();
      await acquire(lease, signal);
      active++;
      const renewal = setInterval(() => {
        renewLease(options.key, leaseMs, lease).catch(() => undefined);
      }, leaseMs / 3);
      renewal.unref();
      try {
        return await task();
      } finally {
        clearInterval(renewal);
        active--;
        await options.redis.zrem(options.key, lease).catch(() => undefined);
        for (const wake of [...wakers]) wake();
      }
    },
    get active() {
      return active;
    },
    get waiting() {
      return waiting;
    },
  };
}
