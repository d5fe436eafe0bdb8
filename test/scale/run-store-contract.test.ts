// The run store's contract, run against both implementations: today's SQLite store (through the
// async adapter) and the Postgres store, on a real Postgres started for this file.

import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { NewRun } from '../../src/runs/run-record.js';
import { createRunStore } from '../../src/runs/run-store.js';
import { snapshotMaxChars, snapshotOf } from '../../src/runs/source-snapshot.js';
import { RunClaimError, StaleAttemptError } from '../../src/runs/stale-attempt-error.js';
import { type AsyncRunStore, toAsyncRunStore } from '../../src/scale/async-run-store.js';
import { createPostgresDatabase } from '../../src/scale/postgres/postgres-database.js';
import { createPostgresRunStore } from '../../src/scale/postgres/postgres-run-store.js';
import { needServices, type PostgresService, startPostgres } from '../helpers/scale-services.js';
import { warningEvent } from '../helpers/warning-event.js';

type Retention = { maxRuns: number; maxAgeDays: number };
type Factory = (clock: { now: number }, retention?: Retention) => Promise<AsyncRunStore>;

const postgresAvailable = needServices('postgres');
let postgres: PostgresService | undefined;
beforeAll(async () => {
  if (postgresAvailable) postgres = await startPostgres();
}, 60_000);
afterAll(() => postgres?.stop());

const defaults: Retention = { maxRuns: 100, maxAgeDays: 1000 };
const implementations: Array<{ name: string; available: boolean; create: Factory }> = [
  {
    name: 'SQLite',
    available: true,
    create: async (clock, retention = defaults) =>
      toAsyncRunStore(createRunStore({ file: ':memory:', retention, now: () => clock.now })),
  },
  {
    name: 'Postgres',
    available: postgresAvailable,
    create: async (clock, retention = defaults) =>
      createPostgresRunStore({
        database: createPostgresDatabase({ url: await postgres!.createDatabase() }),
        retention,
        now: () => clock.now,
      }),
  },
];

const newRun = (id: string, question = `question ${id}`): NewRun => ({
  id,
  owner: 'local',
  source: 'research',
  mode: 'search',
  question,
  options: { note: 'x' },
  settings: { budget: { maxSteps: 5 } },
});

const warning = (runId: string, seq: number, message = `w${seq}`) =>
  warningEvent(runId, seq, { message, at: 1000 + seq });

const usage = { promptTokens: 1, completionTokens: 1, totalTokens: 2, costUsd: null, byRole: {} };
const worker = { workerId: 'host-a:1:w1', pid: 4242 };

function checkpointWith(step: number, pages: Array<{ url: string; text: string }>) {
  return {
    $schemaVersion: 1 as const,
    step,
    state: {
      question: 'q',
      pages: pages.map(({ url, text }) => ({
        keys: [url.replace('https://', '')],
        page: { url, title: url, text, markdown: text, step },
      })),
    } as never,
    budget: {} as never,
  };
}

for (const implementation of implementations) {
  describe.skipIf(!implementation.available)(`run store contract: ${implementation.name}`, () => {
    const create = implementation.create;

    it('keeps at most maxRuns finished runs and none older than maxAgeDays; running ones stay', async () => {
      const clock = { now: Date.UTC(2026, 0, 1) };
      const store = await create(clock, { maxRuns: 3, maxAgeDays: 10 });
      for (const id of ['a', 'b', 'c', 'd']) {
        clock.now += 1000;
        await store.begin(newRun(id), 'running');
        await store.append(id, [warning(id, 1)], 0);
        await store.finish(id, { status: 'completed', result: { answer: `answer ${id}` } }, 0);
      }
      await store.begin(newRun('live'), 'running');
      expect((await store.list({ limit: 10 })).runs.map((run) => run.id)).toEqual(['live', 'd', 'c', 'b']);
      expect(await store.events('a')).toEqual([]);
      clock.now += 11 * 86_400_000;
      expect(await store.prune()).toBe(4);
      expect((await store.list({ limit: 10 })).runs).toEqual([]);
      await store.close();
    });

    it('lists newest first with a page cursor, searches question and answer text literally, resolves prefixes', async () => {
      const clock = { now: 1_000_000 };
      const store = await create(clock);
      for (const [id, question] of [
        ['r1', 'Who wrote 100% of it?'],
        ['r2', 'What is SearXNG?'],
        ['r3', 'Capital of France'],
      ] as const) {
        clock.now += 1000;
        await store.begin({ ...newRun(id, question), owner: id === 'r2' ? 'key:b' : 'local' }, 'running');
        await store.finish(
          id,
          { status: 'completed', result: { answer: id === 'r3' ? 'Paris is the capital.' : 'x' } },
          0,
        );
      }
      const first = await store.list({ limit: 2 });
      expect(first.runs.map((run) => run.id)).toEqual(['r3', 'r2']);
      expect(first.hasMore).toBe(true);
      expect(first.runs[0]).toMatchObject({
        answerPreview: 'Paris is the capital.',
        status: 'completed',
        source: 'research',
      });
      const next = await store.list({ limit: 2, before: first.runs[1]!.createdAt });
      expect(next.runs.map((run) => run.id)).toEqual(['r1']);
      expect(next.hasMore).toBe(false);
      expect((await store.list({ limit: 5, q: 'paris' })).runs.map((run) => run.id)).toEqual(['r3']);
      expect((await store.list({ limit: 5, q: '100%' })).runs.map((run) => run.id)).toEqual(['r1']);
      expect((await store.list({ limit: 5, q: '_' })).runs).toEqual([]);
      expect((await store.list({ limit: 5, owner: 'key:b' })).runs.map((run) => run.id)).toEqual(['r2']);
      // An evaluation's run (its options name the question) is marked, and left out when asked.
      clock.now += 1000;
      await store.begin({ ...newRun('r4'), options: { eval: { id: 'q1' } } }, 'running');
      expect((await store.list({ limit: 1 })).runs[0]).toMatchObject({ id: 'r4', evaluation: true });
      expect((await store.list({ limit: 1, withoutEvaluations: true })).runs[0]).toMatchObject({
        id: 'r3',
        evaluation: false,
      });
      expect(await store.resolveId('r')).toBeUndefined();
      expect(await store.resolveId('r2')).toBe('r2');
      expect(await store.resolveId('r2', 'local')).toBeUndefined();
      await store.close();
    });

    it('keeps events in seq order; a seq already stored keeps its first content', async () => {
      const store = await create({ now: 1 });
      await store.begin(newRun('e'), 'running');
      await store.append('e', [warning('e', 3), warning('e', 4)], 0);
      await store.append('e', [warning('e', 1), warning('e', 2)], 0);
      await store.append('e', [warning('e', 2, 'again')], 0);
      expect((await store.events('e')).map((event) => event.seq)).toEqual([1, 2, 3, 4]);
      expect((await store.events('e', 1))[0]).toEqual(warning('e', 2));
      expect((await store.get('e'))!.lastSeq).toBe(4);
      await store.close();
    });

    it('stores each page of a run once: a later checkpoint keeps the first copy; delete removes everything', async () => {
      const store = await create({ now: 1 });
      await store.begin(newRun('c'), 'running');
      await store.checkpoint(
        'c',
        checkpointWith(1, [{ url: 'https://a.example/', text: 'first' }]),
        usage,
        0,
      );
      await store.append('c', [warning('c', 7)], 0);
      const second = checkpointWith(2, [
        { url: 'https://a.example/', text: 'changed' },
        { url: 'https://b.example/', text: 'b' },
      ]);
      await store.checkpoint('c', second, { ...usage, totalTokens: 9 }, 0);
      const restored = (await store.restore('c'))!;
      expect(restored.lastSeq).toBe(7);
      expect(restored.checkpoint.step).toBe(2);
      expect(restored.checkpoint.state.pages.map(({ page }) => [page.url, page.text])).toEqual([
        ['https://a.example/', 'first'],
        ['https://b.example/', 'b'],
      ]);
      expect(await store.checkpointHead('c')).toEqual({ $schemaVersion: 1, kind: undefined });
      const record = (await store.get('c'))!;
      expect(record).toMatchObject({ checkpointStep: 2, usage: { totalTokens: 9 }, options: { note: 'x' } });
      expect(await store.delete('c')).toBe(true);
      expect(await store.delete('c')).toBe(false);
      expect(await store.restore('c')).toBeUndefined();
      expect(await store.checkpointHead('c')).toBeUndefined();
      expect(await store.events('c')).toEqual([]);
      // Its pages went too: a run made again under its id stores its own copy of the page.
      await store.begin(newRun('c'), 'running');
      await store.checkpoint(
        'c',
        checkpointWith(1, [{ url: 'https://a.example/', text: 'again' }]),
        usage,
        0,
      );
      expect((await store.restore('c'))!.checkpoint.state.pages.map(({ page }) => page.text)).toEqual([
        'again',
      ]);
      expect((await store.restore('c'))!.lastSeq).toBe(0);
      await store.close();
    });

    it("keeps a run's source snapshots with its end: replaced by a later end, fenced, gone with the run and by retention", async () => {
      const clock = { now: Date.UTC(2026, 0, 1) };
      const store = await create(clock, { maxRuns: 1, maxAgeDays: 10 });
      const long = 'x'.repeat(snapshotMaxChars + 10);
      const read = (url: string, text: string) =>
        snapshotOf({
          url,
          title: `title of ${url}`,
          text,
          markdown: text,
          step: 1,
          status: 200,
          fetchedAt: '2026-01-01T00:00:00.000Z',
          siteName: 'Site',
          byline: 'A. Author',
          publishedAt: '2025-12-01',
        });
      await store.begin(newRun('s'), 'running');
      const attempt = await store.claim('s', worker);
      expect(await store.sources('s')).toEqual([]);
      await store.finish(
        's',
        {
          status: 'completed',
          result: { answer: 'a' },
          sources: [
            read('https://a.example/', 'café ünïcode'),
            read('https://b.example/', long),
            read('https://c.example/', 'c'),
          ],
        },
        attempt,
      );
      const kept = await store.sources('s');
      expect(kept.map((source) => source.url)).toEqual([
        'https://a.example/',
        'https://b.example/',
        'https://c.example/',
      ]);
      expect(kept[0]).toEqual({
        url: 'https://a.example/',
        title: 'title of https://a.example/',
        fetchedAt: '2026-01-01T00:00:00.000Z',
        status: 200,
        hash: createHash('sha256').update('café ünïcode').digest('hex'),
        text: 'café ünïcode',
        truncated: false,
        siteName: 'Site',
        author: 'A. Author',
        publishedAt: '2025-12-01',
      });
      // A long text is capped; its hash is of the whole text read.
      expect(kept[1]).toMatchObject({
        truncated: true,
        hash: createHash('sha256').update(long).digest('hex'),
      });
      expect(kept[1]!.text).toHaveLength(snapshotMaxChars);
      // A stale attempt writes none; a resumed run's end replaces them, fewer included.
      const resumed = await store.claim('s', worker).catch(() => undefined);
      expect(resumed).toBeUndefined();
      await store.begin(newRun('s'), 'running');
      const next = await store.claim('s', worker);
      await expect(
        store.finish('s', { status: 'completed', sources: [read('https://z.example/', 'z')] }, attempt),
      ).rejects.toBeInstanceOf(StaleAttemptError);
      expect((await store.sources('s')).map((source) => source.url)).toHaveLength(3);
      await store.finish('s', { status: 'completed', sources: [read('https://d.example/', 'd')] }, next);
      expect((await store.sources('s')).map((source) => [source.url, source.text])).toEqual([
        ['https://d.example/', 'd'],
      ]);
      expect(await store.delete('s')).toBe(true);
      expect(await store.sources('s')).toEqual([]);
      // Retention takes a run's snapshots with it.
      for (const id of ['r1', 'r2']) {
        clock.now += 1000;
        await store.begin(newRun(id), 'running');
        await store.finish(id, { status: 'completed', sources: [read(`https://${id}.example/`, id)] }, 0);
      }
      expect(await store.sources('r1')).toEqual([]);
      expect((await store.sources('r2')).map((source) => source.text)).toEqual(['r2']);
      await store.close();
    });

    it('a claim fences the earlier attempt: its writes fail and write nothing; the new one writes', async () => {
      const store = await create({ now: 5 });
      await store.begin(newRun('f'), 'queued');
      expect((await store.get('f'))!).toMatchObject({ status: 'queued', attempt: 0, worker: null });
      const first = await store.claim('f', worker);
      expect(first).toBe(1);
      expect(await store.get('f')).toMatchObject({
        status: 'running',
        attempt: 1,
        worker: worker.workerId,
        pid: 4242,
      });
      await store.append('f', [warning('f', 1)], first);
      const second = await store.claim('f', { workerId: 'host-b:2:w1' });
      expect(second).toBe(2);
      const stale = await store.append('f', [warning('f', 2)], first).catch((error: unknown) => error);
      expect(stale).toBeInstanceOf(StaleAttemptError);
      expect(stale).toMatchObject({ code: 'stale_attempt', attempt: 1, current: 2 });
      await expect(store.checkpoint('f', checkpointWith(1, []), usage, first)).rejects.toBeInstanceOf(
        StaleAttemptError,
      );
      await expect(store.finish('f', { status: 'failed' }, first)).rejects.toBeInstanceOf(StaleAttemptError);
      expect((await store.events('f')).map((event) => event.seq)).toEqual([1]);
      expect(await store.restore('f')).toBeUndefined();
      expect((await store.get('f'))!).toMatchObject({ status: 'running', lastSeq: 1, worker: 'host-b:2:w1' });
      // The new attempt goes on from the last stored seq.
      await store.append('f', [warning('f', 2)], second);
      await store.finish('f', { status: 'completed', result: { answer: 'done' } }, second);
      expect(await store.get('f')).toMatchObject({
        status: 'completed',
        worker: null,
        pid: null,
        lastSeq: 2,
      });
      await store.close();
    });

    it("appendMany writes several runs' events at once, each fenced: a stale attempt's batch writes nothing", async () => {
      const store = await create({ now: 5 });
      for (const id of ['m1', 'm2', 'm3']) await store.begin(newRun(id), 'queued');
      const [m1, m2, m3] = [await store.claim('m1', worker), await store.claim('m2', worker), 0];
      await store.claim('m2', { workerId: 'host-b:2:w1' }); // m2 taken over: attempt m2 is stale
      const stale = await store.appendMany([
        { runId: 'm1', attempt: m1, events: [warning('m1', 1), warning('m1', 2)] },
        { runId: 'm2', attempt: m2, events: [warning('m2', 1)] },
        { runId: 'm3', attempt: m3, events: [] },
        { runId: 'gone', attempt: 1, events: [warning('gone', 1)] },
      ]);
      expect(stale.sort()).toEqual(['gone', 'm2']);
      expect((await store.events('m1')).map((event) => event.seq)).toEqual([1, 2]);
      expect(await store.events('m2')).toEqual([]);
      expect(await store.events('gone')).toEqual([]);
      expect(await store.get('m1')).toMatchObject({ lastSeq: 2 });
      expect(await store.get('m2')).toMatchObject({ lastSeq: 0 });
      expect(await store.appendMany([])).toEqual([]);
      await store.close();
    });

    it("a checkpoint and a run's end store the events given with them, fenced as they are", async () => {
      const store = await create({ now: 5 });
      await store.begin(newRun('k'), 'queued');
      const first = await store.claim('k', worker);
      await store.checkpoint('k', checkpointWith(1, []), usage, first, [warning('k', 1), warning('k', 2)]);
      expect((await store.restore('k'))!.lastSeq).toBe(2);
      const second = await store.claim('k', { workerId: 'host-b:2:w1' });
      await expect(
        store.checkpoint('k', checkpointWith(2, []), usage, first, [warning('k', 3)]),
      ).rejects.toBeInstanceOf(StaleAttemptError);
      await expect(store.finish('k', { status: 'failed' }, first, [warning('k', 3)])).rejects.toBeInstanceOf(
        StaleAttemptError,
      );
      expect((await store.events('k')).map((event) => event.seq)).toEqual([1, 2]);
      await store.finish('k', { status: 'completed', result: { answer: 'a' } }, second, [warning('k', 3)]);
      expect((await store.events('k')).map((event) => event.seq)).toEqual([1, 2, 3]);
      expect(await store.get('k')).toMatchObject({ status: 'completed', lastSeq: 3 });
      await store.close();
    });

    it('claims are atomic, only for queued or running runs; a deleted run refuses every write', async () => {
      const store = await create({ now: 5 });
      await store.begin(newRun('g'), 'queued');
      const attempts = await Promise.all([1, 2, 3, 4, 5].map((n) => store.claim('g', { workerId: `w${n}` })));
      expect([...attempts].sort()).toEqual([1, 2, 3, 4, 5]);
      await store.finish('g', { status: 'cancelled' }, 5);
      const finished = await store.claim('g', worker).catch((error: unknown) => error);
      expect(finished).toBeInstanceOf(RunClaimError);
      expect(finished).toMatchObject({ code: 'run_finished' });
      await expect(store.claim('nope', worker)).rejects.toMatchObject({ code: 'run_not_found' });
      // A resumed run is queued again and claimed once more.
      await store.begin(newRun('g'), 'queued');
      expect(await store.claim('g', worker)).toBe(6);
      await store.delete('g');
      await expect(store.append('g', [warning('g', 1)], 6)).rejects.toMatchObject({
        code: 'stale_attempt',
        current: undefined,
      });
      await store.close();
    });
  });
}

describe.skipIf(!postgresAvailable)('Postgres run store: retention as runs end', () => {
  it('with pruneIntervalMs, applies retention at a run end at most once per interval', async () => {
    const clock = { now: Date.UTC(2026, 0, 1) };
    const store = createPostgresRunStore({
      database: createPostgresDatabase({ url: await postgres!.createDatabase() }),
      retention: { maxRuns: 1, maxAgeDays: 10 },
      now: () => clock.now,
      pruneIntervalMs: 60_000,
    });
    const end = async (id: string) => {
      clock.now += 1000;
      await store.begin(newRun(id), 'running');
      await store.finish(id, { status: 'completed', result: { answer: id } }, 0);
    };
    const kept = async () => (await store.list({ limit: 10 })).runs.map((run) => run.id);
    await end('a'); // the process's first end prunes
    expect(await kept()).toEqual(['a']);
    await end('b'); // within the minute: not pruned
    expect(await kept()).toEqual(['b', 'a']);
    clock.now += 60_000;
    await end('d');
    expect(await kept()).toEqual(['d']);
    await store.close();
  });
});
