// The run event log's contract, run against both implementations: in memory over the SQLite
// store (one process), and a Redis stream per run over the Postgres store (a deployment), where
// the follower reads through another connection, as an SSE client on another API node does.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { AgentEvent } from '../../src/events/agent-events.js';
import { createRunStore } from '../../src/runs/run-store.js';
import { StaleAttemptError } from '../../src/runs/stale-attempt-error.js';
import { type AsyncRunStore, toAsyncRunStore } from '../../src/scale/async-run-store.js';
import { createPostgresDatabase } from '../../src/scale/postgres/postgres-database.js';
import { createPostgresRunStore } from '../../src/scale/postgres/postgres-run-store.js';
import { createRedisRunEventLog } from '../../src/scale/redis/redis-run-event-log.js';
import { createMemoryRunEventLog, type RunEventLog } from '../../src/scale/run-event-log.js';
import {
  needServices,
  type PostgresService,
  type RunningService,
  startPostgres,
  startRedis,
} from '../helpers/scale-services.js';

const available = needServices('redis', 'postgres');
let redis: RunningService | undefined;
let postgres: PostgresService | undefined;
beforeAll(async () => {
  if (available) [redis, postgres] = await Promise.all([startRedis(), startPostgres()]);
}, 60_000);
afterAll(() => Promise.all([redis?.stop(), postgres?.stop()]));

interface Setup {
  store: AsyncRunStore;
  /** The log the worker appends to and the log a follower reads (another node's, with Redis). */
  writer: RunEventLog;
  reader: RunEventLog;
  close(): Promise<void>;
}

const retention = { maxRuns: 100, maxAgeDays: 100 };
let prefixes = 0;
const implementations: Array<{ name: string; available: boolean; setup(blockMs?: number): Promise<Setup> }> =
  [
    {
      name: 'memory (SQLite store)',
      available: true,
      async setup() {
        const store = toAsyncRunStore(createRunStore({ file: ':memory:', retention }));
        const log = createMemoryRunEventLog({ store });
        return { store, writer: log, reader: log, close: () => log.close() };
      },
    },
    {
      name: 'Redis streams (Postgres store)',
      available,
      async setup(blockMs = 5000) {
        const url = await postgres!.createDatabase();
        const store = createPostgresRunStore({ database: createPostgresDatabase({ url }), retention });
        const settings = { url: redis!.url, store, prefix: `log-${++prefixes}`, blockMs };
        const writer = await createRedisRunEventLog(settings);
        const reader = await createRedisRunEventLog(settings);
        return {
          store,
          writer,
          reader,
          async close() {
            await Promise.all([writer.close(), reader.close()]);
            await store.close();
          },
        };
      },
    },
  ];

const event = (runId: string, seq: number, by = 'worker'): AgentEvent => ({
  type: 'warning',
  step: seq,
  message: `${by} ${seq}`,
  runId,
  seq,
  at: seq,
});
const events = (runId: string, seqs: number[], by?: string) => seqs.map((seq) => event(runId, seq, by));

/** Follows in the background, collecting what arrives until the iteration ends. */
function collect(log: RunEventLog, runId: string, afterSeq: number, signal?: AbortSignal) {
  const seen: AgentEvent[] = [];
  const done = (async () => {
    for await (const item of log.follow(runId, afterSeq, { signal })) seen.push(item);
    return seen;
  })();
  return { seen, done };
}

const until = (probe: () => boolean) => vi.waitUntil(probe, { timeout: 20_000, interval: 10 });

async function begin(store: AsyncRunStore, id: string): Promise<number> {
  await store.begin(
    { id, owner: 'local', source: 'research', mode: 'search', question: 'q', options: {}, settings: {} },
    'queued',
  );
  return store.claim(id, { workerId: 'w1' });
}

for (const implementation of implementations) {
  describe.skipIf(!implementation.available)(`run event log contract: ${implementation.name}`, () => {
    it('a follower gets the stored events, then the live ones, once each in order, and ends with the run', async () => {
      const { store, writer, reader, close } = await implementation.setup();
      const attempt = await begin(store, 'r1');
      await writer.append('r1', events('r1', [1, 2]), attempt);
      const follower = collect(reader, 'r1', 0);
      const late = collect(reader, 'r1', 2); // Last-Event-ID: 2
      await until(() => follower.seen.length === 2);
      await writer.append('r1', events('r1', [3]), attempt);
      await writer.append('r1', events('r1', [4, 5]), attempt);
      await until(() => follower.seen.length === 5);
      await store.finish('r1', { status: 'completed' }, attempt);
      await writer.end('r1');
      expect((await follower.done).map((item) => item.seq)).toEqual([1, 2, 3, 4, 5]);
      expect((await late.done).map((item) => item.seq)).toEqual([3, 4, 5]);
      expect(follower.seen[2]).toEqual(event('r1', 3));
      expect((await reader.read('r1', 3)).map((item) => item.seq)).toEqual([4, 5]);
      // A finished run: its events, then the end, with nothing live to wait for.
      expect((await collect(reader, 'r1', 1).done).map((item) => item.seq)).toEqual([2, 3, 4, 5]);
      await close();
    });

    it('ids go on without a gap or a repeat across a takeover; the old attempt adds nothing', async () => {
      const { store, writer, reader, close } = await implementation.setup();
      const first = await begin(store, 'r2');
      const follower = collect(reader, 'r2', 0);
      await writer.append('r2', events('r2', [1, 2, 3], 'first'), first);
      await until(() => follower.seen.length === 3);
      const second = await store.claim('r2', { workerId: 'w2' });
      const restored = (await store.get('r2'))!.lastSeq;
      await expect(writer.append('r2', events('r2', [4], 'first'), first)).rejects.toBeInstanceOf(
        StaleAttemptError,
      );
      await writer.append('r2', events('r2', [restored + 1, restored + 2], 'second'), second);
      await store.finish('r2', { status: 'completed' }, second);
      await writer.end('r2');
      const seen = await follower.done;
      expect(seen.map((item) => item.seq)).toEqual([1, 2, 3, 4, 5]);
      expect(seen.slice(3).map((item) => (item as { message: string }).message)).toEqual([
        'second 4',
        'second 5',
      ]);
      await close();
    });

    it('a run that ended and was resumed: its follower is not ended by the earlier end', async () => {
      const { store, writer, reader, close } = await implementation.setup();
      const first = await begin(store, 'r5');
      await writer.append('r5', events('r5', [1, 2]), first);
      await store.finish('r5', { status: 'cancelled' }, first);
      await writer.end('r5');
      // Resumed: queued again, then claimed by a worker, which goes on from seq 3.
      const second = await begin(store, 'r5');
      const follower = collect(reader, 'r5', 0);
      await until(() => follower.seen.length === 2);
      await writer.append('r5', events('r5', [3], 'second'), second);
      await until(() => follower.seen.length === 3);
      await store.finish('r5', { status: 'completed' }, second);
      await writer.end('r5');
      expect((await follower.done).map((item) => item.seq)).toEqual([1, 2, 3]);
      await close();
    });

    it('a follower whose signal aborts stops at once', async () => {
      const { store, writer, reader, close } = await implementation.setup();
      const attempt = await begin(store, 'r3');
      await writer.append('r3', events('r3', [1]), attempt);
      const controller = new AbortController();
      const follower = collect(reader, 'r3', 0, controller.signal);
      await until(() => follower.seen.length === 1);
      const aborted = performance.now();
      controller.abort();
      expect((await follower.done).map((item) => item.seq)).toEqual([1]);
      expect(performance.now() - aborted).toBeLessThan(1000);
      await close();
    });
  });
}

describe.skipIf(!available)('Redis run event log', () => {
  it('fills from the store what the stream lacks, and goes on from the store alone when the stream is gone', async () => {
    const { store, writer, reader, close } = await implementations[1]!.setup(200);
    const attempt = await begin(store, 'r4');
    const follower = collect(reader, 'r4', 0);
    await writer.append('r4', events('r4', [1]), attempt);
    await until(() => follower.seen.length === 1);
    // Stored but never published (a worker that died between the two): the next live event shows the gap.
    await store.append('r4', events('r4', [2, 3]), attempt);
    await writer.append('r4', events('r4', [4]), attempt);
    await until(() => follower.seen.length === 4);
    // The stream expires (or Redis lost it) and the end mark never comes: the store says when it is over.
    const { Redis } = await import('ioredis');
    const admin = new Redis(redis!.url);
    expect(await admin.del(`log-${prefixes}:events:r4`)).toBe(1);
    admin.disconnect();
    await store.append('r4', events('r4', [5]), attempt);
    await store.finish('r4', { status: 'failed' }, attempt);
    expect((await follower.done).map((item) => item.seq)).toEqual([1, 2, 3, 4, 5]);
    await close();
  });

  it('a follower told nothing is stored past its position reads no events from the store, yet fills a gap from it', async () => {
    const { store, writer, close } = await implementations[1]!.setup(200);
    const attempt = await begin(store, 'u1');
    // The follower's store counts its event reads (another node's view of the same Postgres).
    let eventReads = 0;
    const counted: AsyncRunStore = {
      ...store,
      events: (...args) => {
        eventReads += 1;
        return store.events(...args);
      },
    };
    const reader = await createRedisRunEventLog({
      url: redis!.url,
      store: counted,
      prefix: `log-${prefixes}`,
      blockMs: 200,
    });
    const seen: AgentEvent[] = [];
    const ends: Array<string | undefined> = [];
    const done = (async () => {
      const options = {
        storedUpTo: 0,
        onEnd: (record?: { status: string }) => void ends.push(record?.status),
      };
      for await (const item of reader.follow('u1', 0, options)) seen.push(item);
    })();
    await writer.append('u1', events('u1', [1, 2]), attempt);
    await until(() => seen.length === 2);
    expect(eventReads).toBe(0);
    // Stored but never published: the next live batch shows the gap, which the store fills.
    await store.append('u1', events('u1', [3]), attempt);
    await writer.append('u1', events('u1', [4]), attempt);
    await until(() => seen.length === 4);
    expect(eventReads).toBe(1);
    await store.finish('u1', { status: 'completed' }, attempt);
    await writer.end('u1', 4);
    await done;
    expect(seen.map((item) => item.seq)).toEqual([1, 2, 3, 4]);
    // The end's record is handed over: what `done` reports needs no other read.
    expect(ends).toEqual(['completed']);
    await reader.close();
    await close();
  });

  it("a batch is one stream entry; a follower takes from it the events after its own, and reads an earlier release's one-event entries", async () => {
    const { store, writer, reader, close } = await implementations[1]!.setup(200);
    const attempt = await begin(store, 'b1');
    const { Redis } = await import('ioredis');
    const admin = new Redis(redis!.url);
    const key = `log-${prefixes}:events:b1`;
    await writer.append('b1', events('b1', [1, 2, 3]), attempt);
    const inside = collect(reader, 'b1', 2); // Last-Event-ID 2: inside the first batch
    await until(() => inside.seen.length === 1);
    const whole = collect(reader, 'b1', 0);
    await writer.append('b1', events('b1', [4, 5, 6]), attempt);
    // A batch arriving twice (or late) is refused by its id, not added again.
    await writer.append('b1', events('b1', [4, 5, 6]), attempt);
    expect(await admin.xlen(key)).toBe(2);
    expect(await admin.ttl(key)).toBeGreaterThan(3600);
    // An earlier release's worker wrote one entry per event, `e`: still read.
    await store.append('b1', events('b1', [7]), attempt);
    await admin.xadd(key, '7-0', 'e', JSON.stringify(event('b1', 7)));
    await until(() => whole.seen.length === 7);
    await store.finish('b1', { status: 'completed' }, attempt);
    await writer.end('b1', 7);
    expect((await inside.done).map((item) => item.seq)).toEqual([3, 4, 5, 6, 7]);
    expect((await whole.done).map((item) => item.seq)).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(await admin.ttl(key)).toBeLessThanOrEqual(600);
    admin.disconnect();
    await close();
  });

  it('followers of many runs share one blocking read; one joining while it waits gets its events at once', async () => {
    // A read blocks 30 s: a follower joining meanwhile gets its events only if it wakes the read.
    const { store, writer, reader, close } = await implementations[1]!.setup(30_000);
    const runs = ['m1', 'm2', 'm3', 'm4'];
    const attempts = await Promise.all(runs.map((id) => begin(store, id)));
    const followers = runs.slice(0, 3).map((id) => collect(reader, id, 0));
    await writer.append('m1', events('m1', [1]), attempts[0]!);
    await until(() => followers[0]!.seen.length === 1);
    const late = collect(reader, 'm4', 0);
    // Its (empty) stored events read, it waits on the shared read, which did not include its run.
    await new Promise((resolve) => setTimeout(resolve, 300));
    const appended = performance.now();
    await writer.append('m4', events('m4', [1, 2]), attempts[3]!);
    await until(() => late.seen.length === 2);
    expect(performance.now() - appended).toBeLessThan(15_000);
    await writer.append('m2', events('m2', [1]), attempts[1]!);
    await until(() => followers[1]!.seen.length === 1);
    const { Redis } = await import('ioredis');
    const admin = new Redis(redis!.url);
    const clients = String(await admin.client('LIST'));
    admin.disconnect();
    // Four followers, one reading connection (the writer's process follows nothing: it has none).
    expect(clients.match(/name=deepsearch:events-reader /g)).toHaveLength(1);
    for (const [index, id] of runs.entries()) {
      await store.finish(id, { status: 'completed' }, attempts[index]!);
      await writer.end(id);
    }
    expect((await late.done).map((item) => item.seq)).toEqual([1, 2]);
    expect(
      (await Promise.all(followers.map((follower) => follower.done))).map((seen) => seen.length),
    ).toEqual([1, 1, 0]);
    await close();
  });
});
