import { AbortedError } from '../errors/index.js';
import { type Admission, createFairSharePolicy, type FairShareState } from './fair-share.js';
import { HttpError } from './http-error.js';

export interface ConcurrencyLimiter {
  /**
   * Resolves with a release function once a slot is free for `owner`; rejects with a 429
   * (`owner_busy`: this key holds its share of the queue; `server_busy`: the queue is full).
   */
  acquire(request: { owner: string; signal?: AbortSignal }): Promise<() => void>;
  readonly running: number;
  readonly queued: number;
  /** Slots held by one owner. */
  runningOf(owner: string): number;
}

interface Waiter {
  owner: string;
  wake: () => void;
}

/**
 * At most `maxConcurrent` holders at once, then up to `maxQueue` waiting, shared between keys by
 * the fair-share policy (fair-share.ts); beyond that a 429 whose Retry-After is the average time a
 * slot was held lately. A waiter whose signal fires (the client left) gives up its place.
 */
export function createConcurrencyLimiter(options: {
  maxConcurrent: number;
  maxQueue: number;
  /** Share of the queue one owner may hold; 1 (default): no per-owner cap. */
  ownerShare?: number;
}): ConcurrencyLimiter {
  const policy = createFairSharePolicy({ ...options, ownerShare: options.ownerShare ?? 1 });
  const runningByOwner = new Map<string, number>();
  const waiting: Waiter[] = [];
  const recentHoldMs: number[] = [];
  const count = (owner: string) => waiting.reduce((sum, waiter) => sum + (waiter.owner === owner ? 1 : 0), 0);
  const state: FairShareState = {
    get running() {
      return [...runningByOwner.values()].reduce((sum, held) => sum + held, 0);
    },
    get queued() {
      return waiting.length;
    },
    runningOf: (owner) => runningByOwner.get(owner) ?? 0,
    queuedOf: count,
  };

  const grant = (owner: string): (() => void) => {
    runningByOwner.set(owner, state.runningOf(owner) + 1);
    const started = performance.now();
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const left = state.runningOf(owner) - 1;
      if (left > 0) runningByOwner.set(owner, left);
      else runningByOwner.delete(owner);
      recentHoldMs.push(performance.now() - started);
      if (recentHoldMs.length > 20) recentHoldMs.shift();
      const next = policy.pickNext(
        waiting.map((waiter) => waiter.owner),
        state,
      );
      if (next >= 0) waiting.splice(next, 1)[0]!.wake();
    };
  };
  const refuse = (admission: Exclude<Admission, 'run' | 'queue'>, owner: string) => {
    const average = recentHoldMs.reduce((sum, ms) => sum + ms, 0) / Math.max(1, recentHoldMs.length);
    const retryAfter = String(Math.max(1, Math.ceil(average / 1000)));
    const message =
      admission === 'owner_busy'
        ? `this API key is busy: it has ${state.runningOf(owner)} running and ${count(owner)} waiting (its share of the queue is ${policy.ownerQueue}); retry later`
        : `the server is busy (${state.running} running, ${waiting.length} waiting); retry later`;
    return new HttpError(message, {
      status: 429,
      type: 'rate_limit_error',
      code: admission,
      headers: { 'retry-after': retryAfter },
    });
  };

  return {
    get running() {
      return state.running;
    },
    get queued() {
      return waiting.length;
    },
    runningOf: state.runningOf,
    acquire({ owner, signal }) {
      if (signal?.aborted) return Promise.reject(new AbortedError(undefined, { cause: signal.reason }));
      const admission = policy.admit(owner, state);
      if (admission === 'run') return Promise.resolve(grant(owner));
      if (admission !== 'queue') return Promise.reject(refuse(admission, owner));
      return new Promise((resolve, reject) => {
        const onAbort = () => {
          const position = waiting.indexOf(waiter);
          if (position >= 0) waiting.splice(position, 1);
          reject(new AbortedError(undefined, { cause: signal?.reason }));
        };
        const waiter: Waiter = {
          owner,
          wake: () => {
            signal?.removeEventListener('abort', onAbort);
            resolve(grant(owner));
          },
        };
        waiting.push(waiter);
        signal?.addEventListener('abort', onAbort, { once: true });
      });
    },
  };
}
