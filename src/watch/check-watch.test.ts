import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { RunRecord } from '../runs/run-record.js';
import type { AsyncRunStore } from '../scale/async-run-store.js';
import type { JobQueue } from '../scale/job-queue.js';
import { createTestConfig } from '../testing/test-config.js';
import { checkWatch, runDueWatches, type WatchDeps } from './check-watch.js';
import type { CitedAnswer } from './claims/claim-types.js';
import { createSqliteWatchStore } from './store/sqlite-watch-store.js';
import type { WatchStore } from './store/watch-store.js';
import type { Watch } from './watch-record.js';
import { startWatchScheduler } from './watch-scheduler.js';

const minute = 60_000;
const answerOf = (length: number): CitedAnswer => ({
  answer: `The Orlin Bridge is ${length} metres long[^1]. It is run by the Orlin Transit Authority[^2].`,
  references: [
    {
      index: 1,
      url: 'https://orlin.example/bridge',
      title: 'Bridge',
      quote: `${length} metres`,
      quoteKind: 'exact',
    },
    {
      index: 2,
      url: 'https://orlin.example/bridge',
      title: 'Bridge',
      quote: 'Orlin Transit Authority',
      quoteKind: 'exact',
    },
  ],
});

/** A run backend whose runs end after `runMs` with what `outcome()` says; it counts runs going at once. */
function fakeBackend(outcome: () => CitedAnswer | Error, runMs = 5) {
  const records = new Map<string, RunRecord>();
  const stats = { started: 0, going: 0, mostAtOnce: 0 };
  const store = {
    begin: async (run: RunRecord) =>
      void records.set(run.id, { ...run, status: 'queued', result: null, error: null }),
    get: async (id: string) => records.get(id),
    delete: async (id: string) => records.delete(id),
  } as unknown as AsyncRunStore;
  const queue = {
    enqueue: async ({ id }: { id: string }) => {
      stats.started++;
      stats.going++;
      stats.mostAtOnce = Math.max(stats.mostAtOnce, stats.going);
      const result = outcome();
      setTimeout(() => {
        stats.going--;
        const record = records.get(id)!;
        records.set(
          id,
          result instanceof Error
            ? {
                ...record,
                status: 'failed',
                error: { message: result.message, type: 'upstream_error', code: null },
              }
            : { ...record, status: 'completed', result: { ...result } },
        );
      }, runMs);
      return { status: 'queued' as const };
    },
  } as unknown as JobQueue;
  return { backend: { store, queue, isInterrupted: async () => false, outlivesProcess: false }, stats };
}

function depsFor(
  store: WatchStore,
  backend: WatchDeps['backend'],
  clock: { now: number },
  fetch?: typeof globalThis.fetch,
): WatchDeps {
  return {
    store,
    backend,
    config: createTestConfig(),
    runUrl: (id) => `http://127.0.0.1:3000/v1/runs/${id}`,
    now: () => clock.now,
    pollMs: 2,
    delivery: {
      fetch: fetch ?? (async () => new Response(null, { status: 204 })),
      allowPrivateNetwork: true,
      maxAttempts: 3,
      backoffMs: 1000,
    },
  };
}

async function addWatch(store: WatchStore, at: number, extra: Partial<Watch> = {}): Promise<Watch> {
  return store.create({
    id: `watch_${Math.random().toString(36).slice(2)}`,
    owner: 'local',
    name: 'Orlin Bridge',
    question: 'How long is the Orlin Bridge?',
    mode: 'search',
    schedule: { every: '1m', everyMs: minute },
    notify: { url: 'http://127.0.0.1:1/hook', secret: 's3cret', format: 'json' },
    notifyAlways: false,
    createdAt: at,
    nextRunAt: at,
    ...extra,
  });
}

describe('checking watches', () => {
  it('catches up after downtime with one check, however many ticks were missed', async () => {
    const store = createSqliteWatchStore({ file: ':memory:' });
    const clock = { now: 1_000_000 };
    const { backend, stats } = fakeBackend(() => answerOf(412));
    const watch = await addWatch(store, clock.now);
    const deps = depsFor(store, backend, clock);
    expect(await runDueWatches(deps)).toHaveLength(1);
    expect((await store.get(watch.id))!.nextRunAt).toBe(clock.now + minute);
    // Down across three ticks: one check when it comes back, the next one a full interval later.
    clock.now += 3.5 * minute;
    expect(await runDueWatches(deps)).toHaveLength(1);
    expect(await runDueWatches(deps)).toHaveLength(0);
    expect((await store.get(watch.id))!.nextRunAt).toBe(clock.now + minute);
    expect(stats.started).toBe(2);
  });

  it('records a check as started when it was claimed: the time its next run is set from', async () => {
    const store = createSqliteWatchStore({ file: ':memory:' });
    const clock = { now: 1_000_000 };
    const { backend } = fakeBackend(() => answerOf(412));
    const watch = await addWatch(store, clock.now);
    // Time passes between any two readings of the clock (the claim, the run's start, its end).
    const deps = { ...depsFor(store, backend, clock), now: () => (clock.now += 7) };
    const [run] = await runDueWatches(deps);
    const { nextRunAt, lastRunAt } = (await store.get(watch.id))!;
    expect(run!.startedAt).toBe(lastRunAt);
    expect(nextRunAt - run!.startedAt).toBe(minute);
  });

  it('never runs one watch twice at once, even with two schedulers on the same store', async () => {
    const store = createSqliteWatchStore({ file: ':memory:' });
    const clock = { now: Date.now() };
    const { backend, stats } = fakeBackend(() => answerOf(412), 150);
    await addWatch(store, clock.now);
    const deps = depsFor(store, backend, clock);
    const schedulers = [1, 2].map(() => startWatchScheduler({ deps, checkIntervalMs: 10 }));
    await new Promise((resolve) => setTimeout(resolve, 400));
    await Promise.all(schedulers.map((scheduler) => scheduler.stop()));
    // The clock stood still: one tick due, one check, whatever the number of timers that saw it.
    expect(stats.started).toBe(1);
    expect(stats.mostAtOnce).toBe(1);
  });

  it('stopped mid-check (the server stopping), records nothing and leaves the watch due, free for the next start', async () => {
    const store = createSqliteWatchStore({ file: ':memory:' });
    const clock = { now: Date.now() };
    const { backend, stats } = fakeBackend(() => answerOf(412), 10_000);
    const watch = await addWatch(store, clock.now);
    const scheduler = startWatchScheduler({ deps: depsFor(store, backend, clock), checkIntervalMs: 10 });
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(stats.started).toBe(1);
    await scheduler.stop();
    expect(await store.runs(watch.id, 10)).toEqual([]);
    expect(await store.get(watch.id)).toMatchObject({ nextRunAt: watch.nextRunAt, lastRunAt: null });
    expect(await store.claim(watch.id, clock.now, 1000, { scheduled: true })).toBe(true);
  });

  it('records a failed run as a failed check, compared with nothing and notifying nothing', async () => {
    const store = createSqliteWatchStore({ file: ':memory:' });
    const clock = { now: 1_000_000 };
    let next: CitedAnswer | Error = answerOf(412);
    const { backend } = fakeBackend(() => next);
    const posts: string[] = [];
    const fetch = (async (_url: string, init: RequestInit) => {
      posts.push(String(init.body));
      return new Response(null, { status: 204 });
    }) as typeof globalThis.fetch;
    const watch = await addWatch(store, clock.now);
    const deps = depsFor(store, backend, clock, fetch);
    await checkWatch(watch, deps, { scheduled: false });
    clock.now += 10;
    next = new Error('the LLM is down');
    const failed = await checkWatch(watch, deps, { scheduled: false });
    expect(failed).toMatchObject({ status: 'failed', changes: [], error: 'the LLM is down' });
    expect(posts).toEqual([]);
    // The next good run is compared with the last good one: the same facts are no change.
    clock.now += 10;
    next = answerOf(412);
    const good = await checkWatch(watch, deps, { scheduled: false });
    expect(good!.changes.every((change) => change.kind === 'unchanged')).toBe(true);
    expect(posts).toEqual([]);
    clock.now += 10;
    next = answerOf(436);
    const changed = await checkWatch(watch, deps, { scheduled: false });
    expect(changed!.changes.map((change) => change.kind)).toContain('changed');
    expect(posts).toHaveLength(1);
    expect(JSON.parse(posts[0]!)).toMatchObject({ changed: true, summary: '1 changed' });
  });

  it('with notify_always, tells of a failed check as changed:false with the failure', async () => {
    const store = createSqliteWatchStore({ file: ':memory:' });
    const clock = { now: 1_000_000 };
    const { backend } = fakeBackend(() => new Error('search is down'));
    const requests: Array<{ body: string; signature: string | null }> = [];
    const fetch = (async (_url: string, init: RequestInit) => {
      requests.push({
        body: String(init.body),
        signature: new Headers(init.headers).get('x-deepsearch-signature'),
      });
      return new Response(null, { status: 200 });
    }) as typeof globalThis.fetch;
    const watch = await addWatch(store, clock.now, { notifyAlways: true });
    await checkWatch(watch, depsFor(store, backend, clock, fetch), { scheduled: true });
    expect(requests).toHaveLength(1);
    const payload = JSON.parse(requests[0]!.body);
    expect(payload).toMatchObject({ changed: false, changes: [], summary: 'check failed: search is down' });
    expect(requests[0]!.signature).toBe(
      `sha256=${createHmac('sha256', 's3cret').update(requests[0]!.body).digest('hex')}`,
    );
  });

  it('keeps a notification that failed in the store and sends it again after the backoff', async () => {
    const store = createSqliteWatchStore({ file: ':memory:' });
    const clock = { now: 1_000_000 };
    let answer = answerOf(412);
    const { backend } = fakeBackend(() => answer);
    let status = 503;
    let calls = 0;
    const fetch = (async () => {
      calls++;
      return new Response(null, { status });
    }) as typeof globalThis.fetch;
    const watch = await addWatch(store, clock.now);
    const deps = depsFor(store, backend, clock, fetch);
    await checkWatch(watch, deps, { scheduled: false });
    // Checks take time: the newest good one is the one compared with.
    clock.now += 10;
    answer = answerOf(436);
    await checkWatch(watch, deps, { scheduled: false });
    expect(calls).toBe(1);
    const [pending] = await store.dueNotifications(clock.now + 1000, 10);
    expect(pending).toMatchObject({ attempts: 1, lastError: 'the webhook answered HTTP 503' });
    // Not before its backoff; then sent, and gone from the store.
    clock.now += 10;
    await runDueWatches({ ...deps, now: () => clock.now + 989 });
    expect(calls).toBe(1);
    status = 204;
    clock.now += 990;
    await runDueWatches(deps);
    expect(calls).toBe(2);
    expect(await store.dueNotifications(clock.now + 10 * minute, 10)).toEqual([]);
  });
});

describe('sending notifications', () => {
  it('passes the network guard at each post: a private address is refused (and retried) without the setting', async () => {
    const store = createSqliteWatchStore({ file: ':memory:' });
    const clock = { now: 1_000_000 };
    const { backend } = fakeBackend(() => new Error('down'));
    let calls = 0;
    const fetch = (async () => {
      calls++;
      return new Response(null, { status: 204 });
    }) as typeof globalThis.fetch;
    const watch = await addWatch(store, clock.now, { notifyAlways: true });
    const deps = depsFor(store, backend, clock, fetch);
    await checkWatch(
      watch,
      { ...deps, delivery: { ...deps.delivery, allowPrivateNetwork: false } },
      { scheduled: true },
    );
    expect(calls).toBe(0);
    const [pending] = await store.dueNotifications(clock.now + minute, 10);
    expect(pending!.lastError).toContain('refusing to fetch http://127.0.0.1:1/hook: loopback address');
  });
});
