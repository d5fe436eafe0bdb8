import { AbortedError } from '../errors/index.js';
import { HttpError } from './http-error.js';

export interface ConcurrencyLimiter {
  /** Resolves with a release function once a slot is free; rejects with a 429 when the queue is full. */
  acquire(signal?: AbortSignal): Promise<() => void>;
  readonly running: number;
  readonly queued: number;
}

/**
 * At most `maxConcurrent` holders at once, then up to `maxQueue` waiting in arrival order; beyond
 * that a 429 whose Retry-After is the average time a slot was held lately. A waiter whose signal
 * fires (the client left) gives up its place.
 */
export function createConcurrencyLimiter(options: {
  maxConcurrent: number;
  maxQueue: number;
}): ConcurrencyLimiter {
  let running = 0;
  const waiting: Array<() => void> = [];
  const recentHoldMs: number[] = [];

  const grant = (): (() => void) => {
    running++;
    const started = performance.now();
    let released = false;
    return () => {
      if (released) return;
      released = true;
      running--;
      recentHoldMs.push(performance.now() - started);
      if (recentHoldMs.length > 20) recentHoldMs.shift();
      waiting.shift()?.();
    };
  };
  const retryAfterSeconds = () => {
    if (recentHoldMs.length === 0) return 1;
    const average = recentHoldMs.reduce((sum, ms) => sum + ms, 0) / recentHoldMs.length;
    return Math.max(1, Math.ceil(average / 1000));
  };

  return {
    get running() {
      return running;
    },
    get queued() {
      return waiting.length;
    },
    acquire(signal) {
      if (signal?.aborted) return Promise.reject(new AbortedError(undefined, { cause: signal.reason }));
      if (running < options.maxConcurrent) return Promise.resolve(grant());
      if (waiting.length >= options.maxQueue) {
        return Promise.reject(
          new HttpError(`the server is busy (${running} running, ${waiting.length} waiting); retry later`, {
            status: 429,
            type: 'rate_limit_error',
            code: 'server_busy',
            headers: { 'retry-after': String(retryAfterSeconds()) },
          }),
        );
      }
      return new Promise((resolve, reject) => {
        const onAbort = () => {
          const position = waiting.indexOf(wake);
          if (position >= 0) waiting.splice(position, 1);
          reject(new AbortedError(undefined, { cause: signal?.reason }));
        };
        const wake = () => {
          signal?.removeEventListener('abort', onAbort);
          resolve(grant());
        };
        waiting.push(wake);
        signal?.addEventListener('abort', onAbort, { once: true });
      });
    },
  };
}
