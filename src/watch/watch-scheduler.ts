import { checkWatch, sendDueNotifications, type WatchDeps } from './check-watch.js';

export interface WatchScheduler {
  /** Stops looking for due watches and stops the checks going on (their watches stay due); resolves once they have. */
  stop(): Promise<void>;
}

/**
 * `deepsearch serve`'s timer: every `checkIntervalMs` it starts a check of each due watch (each
 * watch at most once at a time; the store's claim keeps other processes off it too) and sends the
 * notifications due. A watch overdue after downtime is due once: one catch-up check.
 */
export function startWatchScheduler(options: {
  deps: WatchDeps;
  checkIntervalMs: number;
  /** While true (the server draining), no new check starts. */
  isPaused?: () => boolean;
  onProblem?: (message: string) => void;
}): WatchScheduler {
  // Stopping aborts the checks going on: each lets its watch go, still due, without a record.
  const stopping = new AbortController();
  const deps = { ...options.deps, signal: stopping.signal };
  const now = deps.now ?? Date.now;
  const going = new Map<string, Promise<unknown>>();
  let ticking: Promise<void> | undefined;
  let stopped = false;
  const problem = (error: unknown) =>
    options.onProblem?.(`watch: ${error instanceof Error ? error.message : String(error)}`);
  const tick = async () => {
    if (options.isPaused?.()) return;
    for (const watch of await deps.store.due(now(), 100)) {
      if (stopped || going.has(watch.id)) continue;
      const check = checkWatch(watch, deps, { scheduled: true })
        .catch(problem)
        .finally(() => going.delete(watch.id));
      going.set(watch.id, check);
    }
    await sendDueNotifications(deps);
  };
  const timer = setInterval(() => {
    ticking ??= tick()
      .catch(problem)
      .finally(() => {
        ticking = undefined;
      });
  }, options.checkIntervalMs);
  timer.unref();
  ticking = tick()
    .catch(problem)
    .finally(() => {
      ticking = undefined;
    });
  return {
    async stop() {
      stopped = true;
      clearInterval(timer);
      stopping.abort(new Error('the watch timer stopped'));
      await ticking;
      await Promise.allSettled(going.values());
    },
  };
}
