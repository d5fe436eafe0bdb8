import { createFairSharePolicy, type FairShareState, type SlotAdmission } from '../../core/fair-share.js';
import { createSemaphore, type SemaphoreState } from '../../core/semaphore.js';
import { HttpError } from '../http/http-error.js';

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

/**
 * At most `maxConcurrent` holders at once, then up to `maxQueue` waiting, shared between keys by
 * the fair-share policy (fair-share.ts) over the core semaphore; beyond that a 429 whose
 * Retry-After is the average time a slot was held lately. A waiter whose signal fires (the client
 * left) gives up its place.
 */
export function createConcurrencyLimiter(options: {
  maxConcurrent: number;
  maxQueue: number;
  /** Share of the queue one owner may hold; 1 (default): no per-owner cap. */
  ownerShare?: number;
}): ConcurrencyLimiter {
  const policy = createFairSharePolicy({ ...options, ownerShare: options.ownerShare ?? 1 });
  const recentHoldMs: number[] = [];
  const slots = createSemaphore({
    max: options.maxConcurrent,
    pickNext: (owners, held) => policy.pickNext(owners, fairShareState(held)),
    onRelease: (heldMs) => {
      recentHoldMs.push(heldMs);
      if (recentHoldMs.length > 20) recentHoldMs.shift();
    },
  });
  const state = fairShareState(slots);
  const refuse = (admission: Exclude<SlotAdmission, 'run' | 'queue'>, owner: string) => {
    const average = recentHoldMs.reduce((sum, ms) => sum + ms, 0) / Math.max(1, recentHoldMs.length);
    const retryAfter = String(Math.max(1, Math.ceil(average / 1000)));
    const message =
      admission === 'owner_busy'
        ? `this API key is busy: it has ${state.runningOf(owner)} running and ${state.queuedOf(owner)} waiting (its share of the queue is ${policy.ownerQueue}); retry later`
        : `the server is busy (${state.running} running, ${state.queued} waiting); retry later`;
    return new HttpError(message, {
      status: 429,
      type: 'rate_limit_error',
      code: admission,
      headers: { 'retry-after': retryAfter },
    });
  };

  return {
    get running() {
      return slots.active;
    },
    get queued() {
      return slots.waiting;
    },
    runningOf: state.runningOf,
    acquire({ owner, signal }) {
      const admission = signal?.aborted ? 'run' : policy.admit(owner, state);
      if (admission !== 'run' && admission !== 'queue') return Promise.reject(refuse(admission, owner));
      // An aborted signal is refused by the semaphore with an AbortedError, before any admission.
      // Returned as is: a slot granted at once is an already settled promise (research-jobs.ts).
      return slots.acquire({ key: owner, signal });
    },
  };
}

/** The semaphore's counts as the fair-share policy reads them. */
function fairShareState(slots: SemaphoreState): FairShareState {
  return {
    get running() {
      return slots.active;
    },
    get queued() {
      return slots.waiting;
    },
    runningOf: (owner) => slots.heldBy(owner),
    queuedOf: (owner) => slots.waitingOf(owner),
  };
}
