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
  /**
   * What happens to a child left idle `afterMs` after its last task: `tidy` runs in its slot (no
   * task can use the slot meanwhile) and says whether to keep the child or replace it with a fresh
   * one at once, so a pool that went quiet gives back what its busy time left and stays warm.
   */
  idle?: {
    afterMs: number;
    tidy(child: Child): Promise<'keep' | 'replace'>;
    /** Readies a replacement as its predecessor was (still in the slot), e.g. loads what it had loaded. */
    replaced?(fresh: Child, old: Child): Promise<void>;
  };
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
  /**
   * Starts a child ahead of the tasks, in the background (no slot is held), in a free slot that has
   * none; resolves with it, or with a child alive or being started when every slot has one. A task
   * that comes meanwhile waits for that child rather than starting another.
   */
  warm(): Promise<StartedChild<Child>>;
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
  const idleTimers: Array<NodeJS.Timeout | undefined> = slots.map(() => undefined);
  // A slot's child being started (by warm() or a task), awaited by whoever needs that slot next.
  const starting: Array<Promise<StartedChild<Child>> | undefined> = slots.map(() => undefined);
  // Bumped by close(): a tidy that was under way when the pool closed starts no replacement.
  let generation = 0;
  const startIn = (slot: number, signal: AbortSignal | undefined): Promise<StartedChild<Child>> => {
    const begun = generation;
    const pending = options.start(signal).then((started): StartedChild<Child> => {
      if (!started.ok) return started;
      // The pool was closed meanwhile: this child is nobody's.
      if (begun !== generation) {
        started.child.kill();
        return { ok: false, reason: 'aborted' };
      }
      slots[slot] = started.child;
      return started;
    });
    starting[slot] = pending;
    const clear = () => {
      if (starting[slot] === pending) starting[slot] = undefined;
    };
    pending.then(clear, clear);
    return pending;
  };
  const childFor = async (slot: number, signal: AbortSignal | undefined): Promise<StartedChild<Child>> => {
    const current = slots[slot];
    if (current?.alive) return { ok: true, child: current };
    const pending = starting[slot];
    return pending ? untilAborted(pending, signal) : startIn(slot, signal);
  };
  // A free slot with a live child first, then one whose child is being started, then any.
  const takeSlot = (): number => {
    const ready = free.findIndex((slot) => slots[slot]?.alive);
    const coming = free.findIndex((slot) => starting[slot] !== undefined);
    const index = ready >= 0 ? ready : coming >= 0 ? coming : free.length - 1;
    return free.splice(index, 1)[0]!;
  };
  const run = async <T>(signal: AbortSignal | undefined, task: (child: Child) => Promise<T>) => {
    const slot = takeSlot();
    try {
      const started = await childFor(slot, signal);
      if (!started.ok) return started;
      return { ok: true as const, value: await task(started.child) };
    } finally {
      free.push(slot);
      scheduleTidy(slot);
    }
  };
  const scheduleTidy = (slot: number) => {
    const { idle } = options;
    if (!idle) return;
    clearTimeout(idleTimers[slot]);
    idleTimers[slot] = setTimeout(() => void tidy(slot, idle).catch(() => undefined), idle.afterMs);
    idleTimers[slot].unref();
  };
  const tidy = (slot: number, idle: NonNullable<ChildPoolOptions<Child>['idle']>) =>
    limit.run(async () => {
      const child = slots[slot];
      const index = free.indexOf(slot);
      // A task took the slot since (it is not idle), or its child is gone: nothing to tidy.
      if (index < 0 || !child?.alive) return;
      free.splice(index, 1);
      const started = generation;
      try {
        if ((await idle.tidy(child)) === 'keep') return;
        child.kill();
        if (started !== generation) return;
        const fresh = await childFor(slot, undefined);
        if (fresh.ok && started !== generation) fresh.child.kill();
        else if (fresh.ok) await idle.replaced?.(fresh.child, child);
      } finally {
        free.push(slot);
      }
    }, undefined);
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
    warm() {
      const empty = free.findLast((slot) => !slots[slot]?.alive && starting[slot] === undefined);
      if (empty !== undefined) return startIn(empty, undefined);
      const pending = starting.find((start) => start !== undefined);
      if (pending) return pending;
      const alive = slots.find((child) => child?.alive);
      if (alive) return Promise.resolve({ ok: true as const, child: alive });
      // Every slot held by a task starting its own child: nothing to warm.
      return Promise.resolve({ ok: false as const, reason: 'aborted' as const });
    },
    close() {
      generation += 1;
      for (const timer of idleTimers) clearTimeout(timer);
      for (const child of slots) child?.kill();
    },
    get children() {
      return slots.filter((child): child is Child => child?.alive === true);
    },
  };
}

/** The start, or 'aborted' as soon as the signal is (the start goes on for the slot's next task). */
function untilAborted<Child>(
  pending: Promise<StartedChild<Child>>,
  signal: AbortSignal | undefined,
): Promise<StartedChild<Child>> {
  if (!signal) return pending;
  if (signal.aborted) return Promise.resolve({ ok: false, reason: 'aborted' });
  return new Promise((resolve) => {
    const onAbort = () => resolve({ ok: false, reason: 'aborted' });
    signal.addEventListener('abort', onAbort, { once: true });
    pending.then((started) => {
      signal.removeEventListener('abort', onAbort);
      resolve(started);
    });
  });
}
