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
  /** Children at most. */
  size: number;
  /**
   * Tasks one child may hold at once (default 1): a child whose tasks queue requests in it (an
   * IpcChild) starts the next as soon as it answers one, without waiting for this process to hear
   * the answer. `size × depth` tasks run at once; more wait in order.
   */
  depth?: number;
  /** Starts a child for a slot that has none (or whose child died). */
  start(signal: AbortSignal | undefined): Promise<StartedChild<Child>>;
  /**
   * What happens to a child left idle `afterMs` after its last task: `tidy` runs while no task can
   * use the child (a task for it waits) and says whether to keep the child or replace it with a
   * fresh one at once, so a pool that went quiet gives back what its busy time left and stays warm.
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
   * Runs `task` with a child, started on first use and again after it died: an idle child first,
   * then a new one in an empty slot, then the least busy. Waits in order when `size × depth`
   * tasks run; a task aborted while waiting never reaches a child. A child that cannot start is
   * the answer instead of the task's.
   */
  withChild<T>(
    signal: AbortSignal | undefined,
    task: (child: Child) => Promise<T>,
  ): Promise<{ ok: true; value: T } | ({ ok: false } & ChildFailure)>;
  /**
   * Starts a child ahead of the tasks, in the background, in a slot that has none; resolves with
   * it, or with a child alive or being started when every slot has one. A task that comes
   * meanwhile waits for that child rather than starting another.
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
  const depth = Math.max(1, options.depth ?? 1);
  const slots: Array<Child | undefined> = Array.from({ length: options.size }, () => undefined);
  // Tasks holding each slot's child; the limit lets at most size × depth through.
  const busy = slots.map(() => 0);
  const limit = createSemaphore({ max: options.size * depth });
  const idleTimers: Array<NodeJS.Timeout | undefined> = slots.map(() => undefined);
  // A slot's child being started (by warm() or a task), awaited by whoever needs that slot next.
  const starting: Array<Promise<StartedChild<Child>> | undefined> = slots.map(() => undefined);
  // A slot's idle tidy under way: no task is given that slot unless every other is full.
  const tidying: Array<Promise<void> | undefined> = slots.map(() => undefined);
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
  const alive = (slot: number) => slots[slot]?.alive === true;
  // An idle live child, then one being started, then an empty slot (a new child), then the least
  // busy live or starting child; a slot being tidied only when every other is full.
  const rank = (slot: number): number => {
    if (busy[slot]! >= depth) return Number.POSITIVE_INFINITY;
    const waitsForTidy = tidying[slot] ? 4 * depth : 0;
    if (busy[slot] === 0 && alive(slot)) return waitsForTidy;
    if (busy[slot] === 0 && starting[slot]) return waitsForTidy + 1;
    if (!alive(slot) && !starting[slot]) return waitsForTidy + 2;
    return waitsForTidy + 2 + busy[slot]!;
  };
  const takeSlot = (): number => {
    let best = 0;
    for (let slot = 1; slot < slots.length; slot++) if (rank(slot) < rank(best)) best = slot;
    busy[best]! += 1;
    clearTimeout(idleTimers[best]);
    return best;
  };
  const run = async <T>(signal: AbortSignal | undefined, task: (child: Child) => Promise<T>) => {
    const slot = takeSlot();
    try {
      await tidying[slot];
      const started = await childFor(slot, signal);
      if (!started.ok) return started;
      return { ok: true as const, value: await task(started.child) };
    } finally {
      busy[slot]! -= 1;
      if (busy[slot] === 0) scheduleTidy(slot);
    }
  };
  const scheduleTidy = (slot: number) => {
    const { idle } = options;
    if (!idle) return;
    clearTimeout(idleTimers[slot]);
    idleTimers[slot] = setTimeout(() => {
      // A task took the slot since (it is not idle), or its child is gone: nothing to tidy.
      if (busy[slot]! > 0 || tidying[slot] || !alive(slot)) return;
      const done = tidy(slot, slots[slot]!, idle)
        .catch(() => undefined)
        .finally(() => {
          if (tidying[slot] === done) tidying[slot] = undefined;
        });
      tidying[slot] = done;
    }, idle.afterMs);
    idleTimers[slot].unref();
  };
  const tidy = async (slot: number, child: Child, idle: NonNullable<ChildPoolOptions<Child>['idle']>) => {
    const started = generation;
    if ((await idle.tidy(child)) === 'keep') return;
    child.kill();
    if (started !== generation) return;
    const fresh = await childFor(slot, undefined);
    if (fresh.ok && started !== generation) fresh.child.kill();
    else if (fresh.ok) await idle.replaced?.(fresh.child, child);
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
    warm() {
      const empty = slots.findIndex((_, slot) => !alive(slot) && starting[slot] === undefined);
      if (empty >= 0) return startIn(empty, undefined);
      const pending = starting.find((start) => start !== undefined);
      if (pending) return pending;
      const live = slots.find((child) => child?.alive);
      if (live) return Promise.resolve({ ok: true as const, child: live });
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
