import { type DeliveryOptions, deliverDueNotifications } from './notify/deliver-notifications.js';
import { runWatch, type WatchRunDeps } from './run-watch.js';
import type { Watch, WatchRun } from './watch-record.js';
import { nextRunAfter } from './watch-schedule.js';

/** Running watches and sending what they found: the runner's needs and the webhook's. */
export interface WatchDeps extends WatchRunDeps {
  delivery: Omit<DeliveryOptions, 'store' | 'now'>;
}

// A check holds its watch this long, renewed every third of it while it goes on: a process that
// died holding one frees it within this.
const leaseMs = 3 * 60_000;

/**
 * Takes the watch (undefined when a check of it is already going, here or in another process),
 * runs one check, lets it go with its next run set, then sends what is due. A scheduled check
 * sets the next run from when it started: after downtime, however many ticks were missed, one
 * check catches up. A check asked for now (`watch run`, POST /run) leaves the schedule as it was.
 */
export async function checkWatch(
  watch: Watch,
  deps: WatchDeps,
  options: { scheduled: boolean; onClaim?: (held: boolean) => void },
): Promise<WatchRun | undefined> {
  const now = deps.now ?? Date.now;
  const startedAt = now();
  const held = await deps.store.claim(watch.id, startedAt, leaseMs, options);
  options.onClaim?.(held);
  if (!held) return undefined;
  let run: WatchRun | undefined;
  const renewal = setInterval(() => {
    const at = now();
    void deps.store.renew(watch.id, at, at + leaseMs).catch(() => undefined);
  }, leaseMs / 3);
  renewal.unref();
  try {
    // Recorded as started when it was claimed, the time the next run is set from.
    run = await runWatch(watch, deps, startedAt);
  } finally {
    clearInterval(renewal);
    const current = await deps.store.get(watch.id);
    // A check stopped before its end leaves the schedule as it was: the watch is due again.
    const stopped = run === undefined;
    if (current)
      await deps.store.release(watch.id, {
        lastRunAt: stopped ? current.lastRunAt : startedAt,
        nextRunAt:
          options.scheduled && !stopped ? nextRunAfter(current.schedule, startedAt) : current.nextRunAt,
      });
  }
  await sendDueNotifications(deps);
  return run;
}

/** Every watch due now, one check each (one at a time), then every notification due: `watch run-due`. */
export async function runDueWatches(deps: WatchDeps): Promise<WatchRun[]> {
  const now = deps.now ?? Date.now;
  const done: WatchRun[] = [];
  for (const watch of await deps.store.due(now(), 1000)) {
    const run = await checkWatch(watch, deps, { scheduled: true });
    if (run) done.push(run);
  }
  await sendDueNotifications(deps);
  return done;
}

export function sendDueNotifications(deps: WatchDeps): Promise<number> {
  return deliverDueNotifications({ ...deps.delivery, store: deps.store, now: deps.now });
}
