// The cap on concurrent LLM calls: one machine's semaphore, and the one shared by every worker
// through Redis (two semaphores on one key stand for two worker processes).
import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AbortedError } from '../../src/core/errors/index.js';
import { createSemaphore, type TaskLimit } from '../../src/core/semaphore.js';
import { openRedis } from '../../src/scale/redis/open-redis.js';
import { createRedisSemaphore } from '../../src/scale/redis/redis-semaphore.js';
import { needServices, type RunningService, startRedis } from '../helpers/scale-services.js';

const redisAvailable = needServices('redis');
let redis: RunningService | undefined;
const clients: Redis[] = [];
beforeAll(async () => {
  if (redisAvailable) redis = await startRedis();
}, 60_000);
afterAll(async () => {
  for (const client of clients) client.disconnect();
  await redis?.stop();
});

let keys = 0;
const implementations: Array<{
  name: string;
  available: boolean;
  pair(limit: number): Promise<TaskLimit[]>;
}> = [
  {
    name: 'in-process',
    available: true,
    async pair(limit) {
      const one = createSemaphore({ max: limit });
      return [one, one];
    },
  },
  {
    name: 'Redis',
    available: redisAvailable,
    async pair(limit) {
      const key = `cap-${++keys}`;
      const open = async () => {
        const client = await openRedis(redis!.url, { name: 'test' });
        clients.push(client);
        return createRedisSemaphore({ redis: client, key, limit });
      };
      return [await open(), await open()];
    },
  },
];

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

for (const implementation of implementations) {
  describe.skipIf(!implementation.available)(`LLM call cap contract: ${implementation.name}`, () => {
    it('never runs more calls at once than the cap, across workers, and runs them all', async () => {
      const [one, two] = await implementation.pair(3);
      let running = 0;
      let most = 0;
      const call = async () => {
        running++;
        most = Math.max(most, running);
        await sleep(30);
        running--;
        return 'ok';
      };
      const results = await Promise.all(
        Array.from({ length: 12 }, (_, index) => (index % 2 ? one! : two!).run(call)),
      );
      expect(results).toEqual(Array(12).fill('ok'));
      expect(most).toBe(3);
      expect(one!.active + two!.active).toBe(0);
    });

    it('a waiter whose signal aborts gives up its turn with an AbortedError', async () => {
      const [one, two] = await implementation.pair(1);
      let release = () => {};
      const holding = one!.run(() => new Promise<void>((resolve) => (release = resolve)));
      await sleep(20);
      const controller = new AbortController();
      const waiting = two!.run(async () => 'ran', controller.signal);
      await sleep(50);
      expect(two!.waiting).toBe(1);
      controller.abort();
      await expect(waiting).rejects.toBeInstanceOf(AbortedError);
      release();
      await holding;
      expect(await two!.run(async () => 'next')).toBe('next');
    });
  });
}

describe.skipIf(!redisAvailable)('Redis LLM call cap', () => {
  it('a worker that dies holding a call frees it when its lease runs out', async () => {
    const dying = await openRedis(redis!.url, { name: 'dying' });
    const alive = await openRedis(redis!.url, { name: 'alive' });
    clients.push(alive);
    const settings = { key: 'cap-lease', limit: 1, leaseMs: 400 };
    void createRedisSemaphore({ ...settings, redis: dying }).run(() => new Promise(() => {}));
    await sleep(50);
    dying.disconnect(); // no renewal from here on, as after a crash
    const started = performance.now();
    expect(await createRedisSemaphore({ ...settings, redis: alive }).run(async () => 'taken')).toBe('taken');
    expect(performance.now() - started).toBeGreaterThan(250);
  });
});

describe.skipIf(!redisAvailable)('Redis LLM call cap: by SHA', () => {
  const scriptCalls = async (client: Redis) => {
    const info = await client.info('commandstats');
    const calls = (name: string) =>
      Number(new RegExp(`^cmdstat_${name}:calls=(\\d+)`, 'm').exec(info)?.[1] ?? 0);
    return { eval: calls('eval'), evalsha: calls('evalsha') };
  };

  it('sends its script once per connection, then its SHA; after a SCRIPT FLUSH, the source again', async () => {
    const client = await openRedis(redis!.url, { name: 'sha' });
    const admin = await openRedis(redis!.url, { name: 'admin' });
    clients.push(client, admin);
    const cap = createRedisSemaphore({ redis: client, key: 'cap-sha', limit: 2 });
    await admin.config('RESETSTAT');
    for (let call = 0; call < 5; call++) expect(await cap.run(async () => call)).toBe(call);
    expect(await scriptCalls(admin)).toEqual({ eval: 1, evalsha: 4 });
    await admin.script('FLUSH');
    expect(await cap.run(async () => 'after flush')).toBe('after flush');
    // The SHA was refused (NOSCRIPT), then the source sent again.
    expect(await scriptCalls(admin)).toEqual({ eval: 2, evalsha: 5 });
  });
});
