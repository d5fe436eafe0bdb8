import { isAbortError } from '../../core/errors/index.js';
import { createSemaphore } from '../../core/semaphore.js';
import type { ChildFailure } from './ipc-child.js';

/** A child the pool keeps: alive until it dies or is killed. */
export interface PooledChild {
  readonly alive: boolean;
  kill(): void;
}

export type StartedChild<Child> = { ok: true; child: Child } | ({ ok: false } & ChildFailure);

export interface ChildPoolOptions<Child extends PooledChild> {
  /** Children working at once; more tasks wait in order. */
  size: number;
  /** Starts a child for a free slot that has none (or whose child died). */
  start(signal: AbortSignal | undefined): Promise<StartedChild<Child>>;
}

export interface ChildPool<Child extends PooledChild> {
  /**
   * Runs `task` with a free slot's child, started on first use and again after it died. Waits for
   * a free slot first, in order; a task aborted while waiting never reaches a child. A child that
   * cannot start is the answer instead of the task's.
   */
  withChild<T>(
    signal: AbortSignal | undefined,
    task: (child: Child) => Promise<T>,
  ): Promise<{ ok: true; value: T } | ({ ok: false } & ChildFailure)>;
  /** Kills every child; a later task starts new ones. */
  close(): void;
  /** Children alive now (for tests and the benchmark). */
  readonly children: readonly Child[];
}

export function createChildPool<Child extends PooledChild>(
  options: ChildPoolOptions<Child>,
): ChildPool<Child> {
  const slots: Array<Child | undefined> = Array.from({ length: options.size }, () => undefined);
  // The slots not in use: the limit lets at most `size` tasks through, so one is always free.
  const free = slots.map((_, slot) => slot).reverse();
  const limit = createSemaphore({ max: options.size });
  const childFor = async (slot: number, signal: AbortSignal | undefined): Promise<StartedChild<Child>> => {
    const current = slots[slot];
    if (current?.alive) return { ok: true, child: current };
    const started = await options.start(signal);
    if (started.ok) slots[slot] = started.child;
    return started;
  };
  const run = async <T>(signal: AbortSignal | undefined, task: (child: Child) => Promise<T>) => {
    const slot = free.pop()!;
    try {
      const started = await childFor(slot, signal);
      if (!started.ok) return started;
      return { ok: true as const, value: await task(started.child) };
    } finally {
      free.push(slot);
    }
  };
  return {
    async withChild(signal, task) {
      try {
        return await limit.run(() => run(signal, task), signal);
      } catch (error) {
        // Aborted while waiting for a free slot: it never reached a child.
        if (isAbortError(error) && signal?.aborted) return { ok: false, reason: 'aborted' };
        throw error;
      }
    },
    close() {
      for (const child of slots) child?.kill();
    },
    get children() {
      return slots.filter((child): child is Child => child?.alive === true);
    },
  };
}
