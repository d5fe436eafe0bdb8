import { AbortedError } from './errors/index.js';

/** What a waiter-picking rule sees: the slots held now, in all and per key. */
export interface SemaphoreState {
  readonly active: number;
  readonly waiting: number;
  /** Slots held by one key. */
  heldBy(key: string): number;
  /** Waiters holding one key. */
  waitingOf(key: string): number;
}

export interface Semaphore extends SemaphoreState {
  /**
   * Resolves with a release function (safe to call twice) once a slot is granted; rejects with an
   * AbortedError when `signal` fires first, and the waiter leaves the queue.
   */
  acquire(options?: { key?: string; signal?: AbortSignal }): Promise<() => void>;
  /** Runs `task` in a slot and releases it after, whether it succeeds or fails. */
  run<T>(task: () => Promise<T>, signal?: AbortSignal): Promise<T>;
}

export interface SemaphoreOptions {
  max: number;
  /**
   * Which waiter (keys in arrival order) gets a freed slot; default the first (FIFO). The server's
   * fair share gives it to the key that holds the fewest.
   */
  pickNext?: (waitingKeys: readonly string[], state: SemaphoreState) => number;
  /** Told how long each slot was held, when it is released (the server's Retry-After). */
  onRelease?: (heldMs: number) => void;
}

interface Waiter {
  key: string;
  grant(): void;
}

/**
 * A counting semaphore: at most `max` slots held, the rest wait. The one limiter of the code base
 * (searches per provider, sandbox hosts, model lanes, report writing, the server's request slots).
 */
export function createSemaphore(options: SemaphoreOptions): Semaphore {
  const held = new Map<string, number>();
  const queue: Waiter[] = [];
  let active = 0;
  const state: SemaphoreState = {
    get active() {
      return active;
    },
    get waiting() {
      return queue.length;
    },
    heldBy: (key) => held.get(key) ?? 0,
    waitingOf: (key) => queue.reduce((sum, waiter) => sum + (waiter.key === key ? 1 : 0), 0),
  };
  // Counted when granted (not when the caller's await resumes), so a rule picking the next waiter
  // right after sees every slot already handed out.
  const take = (key: string): (() => void) => {
    active++;
    held.set(key, state.heldBy(key) + 1);
    const started = performance.now();
    let released = false;
    return () => {
      if (released) return;
      released = true;
      options.onRelease?.(performance.now() - started);
      active--;
      const left = state.heldBy(key) - 1;
      if (left > 0) held.set(key, left);
      else held.delete(key);
      if (queue.length === 0) return;
      const next = options.pickNext?.(
        queue.map((waiter) => waiter.key),
        state,
      );
      queue.splice(next !== undefined && next >= 0 ? next : 0, 1)[0]!.grant();
    };
  };
  const acquire: Semaphore['acquire'] = ({ key = '', signal } = {}) => {
    if (signal?.aborted) return Promise.reject(new AbortedError(undefined, { cause: signal.reason }));
    if (active < options.max && queue.length === 0) return Promise.resolve(take(key));
    return new Promise((resolve, reject) => {
      const onAbort = () => {
        const position = queue.indexOf(waiter);
        if (position >= 0) queue.splice(position, 1);
        reject(new AbortedError(undefined, { cause: signal?.reason }));
      };
      const waiter: Waiter = {
        key,
        grant: () => {
          signal?.removeEventListener('abort', onAbort);
          resolve(take(key));
        },
      };
      queue.push(waiter);
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  };
  return {
    acquire,
    async run(task, signal) {
      const release = await acquire({ signal });
      try {
        return await task();
      } finally {
        release();
      }
    },
    heldBy: state.heldBy,
    waitingOf: state.waitingOf,
    get active() {
      return active;
    },
    get waiting() {
      return queue.length;
    },
  };
}

/**
 * What a caller that only runs tasks in slots needs: the in-process semaphore, or the Redis one
 * that counts across workers (scale/redis/redis-semaphore.ts).
 */
export type TaskLimit = Pick<Semaphore, 'run' | 'active' | 'waiting'>;
