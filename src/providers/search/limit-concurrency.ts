import { AbortedError } from '../../errors/index.js';
import type { SearchOptions, SearchProvider } from '../spec/search-provider.js';

export interface ConcurrencyLimit {
  /** Runs `task` once fewer than the limit are running; gives up waiting when `signal` aborts. */
  run<T>(task: () => Promise<T>, signal?: AbortSignal): Promise<T>;
  readonly active: number;
  readonly waiting: number;
}

/** A counting semaphore with a FIFO queue. */
export function createConcurrencyLimit(max: number): ConcurrencyLimit {
  let active = 0;
  const queue: Array<() => void> = [];

  function acquire(signal: AbortSignal | undefined): Promise<void> {
    if (signal?.aborted) return Promise.reject(new AbortedError(undefined, { cause: signal.reason }));
    if (active < max) {
      active++;
      return Promise.resolve();
    }
    return new Promise((resolve, reject) => {
      const grant = () => {
        signal?.removeEventListener('abort', onAbort);
        active++;
        resolve();
      };
      const onAbort = () => {
        const index = queue.indexOf(grant);
        if (index >= 0) queue.splice(index, 1);
        reject(new AbortedError(undefined, { cause: signal?.reason }));
      };
      queue.push(grant);
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  }

  function release(): void {
    active--;
    queue.shift()?.();
  }

  return {
    async run(task, signal) {
      await acquire(signal);
      try {
        return await task();
      } finally {
        release();
      }
    },
    get active() {
      return active;
    },
    get waiting() {
      return queue.length;
    },
  };
}

/** The same provider with at most `max` searches in flight; the rest wait their turn. */
export function withConcurrencyLimit(provider: SearchProvider, max: number): SearchProvider {
  const limit = createConcurrencyLimit(max);
  return {
    id: provider.id,
    search: (query: string, options: SearchOptions = {}) =>
      limit.run(() => provider.search(query, options), options.signal),
  };
}
