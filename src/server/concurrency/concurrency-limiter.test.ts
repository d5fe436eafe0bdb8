import { describe, expect, it } from 'vitest';
import { AbortedError } from '../../core/errors/index.js';
import { HttpError } from '../http/http-error.js';
import { createConcurrencyLimiter } from './concurrency-limiter.js';

const a = { owner: 'key:a' };
const b = { owner: 'key:b' };

describe('createConcurrencyLimiter', () => {
  it('grants up to maxConcurrent, queues up to maxQueue in order, and refuses beyond with a 429', async () => {
    const limiter = createConcurrencyLimiter({ maxConcurrent: 2, maxQueue: 1 });
    const first = await limiter.acquire(a);
    await limiter.acquire(a);
    const order: string[] = [];
    const queued = limiter.acquire(a).then((release) => {
      order.push('queued');
      return release;
    });
    expect(limiter.queued).toBe(1);
    const refused = await limiter.acquire(a).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(HttpError);
    expect(refused).toMatchObject({ status: 429, code: 'server_busy', headers: { 'retry-after': '1' } });
    first();
    first();
    (await queued)();
    expect(order).toEqual(['queued']);
    expect(limiter.running).toBe(1);
  });

  it('drops a waiter whose signal fires, so it neither holds a place nor gets a slot', async () => {
    const limiter = createConcurrencyLimiter({ maxConcurrent: 1, maxQueue: 1 });
    const release = await limiter.acquire(a);
    const controller = new AbortController();
    const waiting = limiter.acquire({ ...a, signal: controller.signal });
    controller.abort();
    await expect(waiting).rejects.toBeInstanceOf(AbortedError);
    expect(limiter.queued).toBe(0);
    release();
    expect(limiter.running).toBe(0);
  });
});

describe('fair shares between keys', () => {
  it('one key filling every slot and its share of the queue leaves places for another key', async () => {
    const limiter = createConcurrencyLimiter({ maxConcurrent: 4, maxQueue: 8, ownerShare: 0.5 });
    const held = await Promise.all([1, 2, 3, 4].map(() => limiter.acquire(a)));
    const queuedOfA = [1, 2, 3, 4].map(() => limiter.acquire(a));
    const refused = await limiter.acquire(a).catch((error: unknown) => error);
    expect(refused).toMatchObject({ status: 429, code: 'owner_busy' });
    expect((refused as Error).message).toContain('its share of the queue is 4');
    // Key b still gets queue places, and the next freed slot, before a's older waiters.
    const ofB = limiter.acquire(b);
    expect(limiter.queued).toBe(5);
    held[0]!();
    (await ofB)();
    expect(limiter.runningOf('key:b')).toBe(0);
    // With b gone, a's waiters get the slots in their order.
    held[1]!();
    await queuedOfA[0];
    expect(limiter.runningOf('key:a')).toBe(4);
    expect(limiter.queued).toBe(2);
  });

  it('a freed slot goes to the waiting key holding the fewest, so busy keys converge to equal shares', async () => {
    const limiter = createConcurrencyLimiter({ maxConcurrent: 4, maxQueue: 16, ownerShare: 0.5 });
    const ofA = await Promise.all([1, 2, 3, 4].map(() => limiter.acquire(a)));
    const waitingA = [1, 2].map(() => limiter.acquire(a));
    const waitingB = [1, 2, 3].map(() => limiter.acquire(b));
    ofA[0]!();
    ofA[1]!();
    await Promise.all(waitingB.slice(0, 2));
    expect(limiter.runningOf('key:b')).toBe(2);
    expect(limiter.runningOf('key:a')).toBe(2);
    // Now a holds fewer than b: a's waiter goes before b's.
    ofA[2]!();
    await waitingA[0];
    expect(limiter.runningOf('key:a')).toBe(2);
    expect(limiter.queued).toBe(2);
  });

  it('server_busy when the queue is full and the key is within its share', async () => {
    const limiter = createConcurrencyLimiter({ maxConcurrent: 1, maxQueue: 2, ownerShare: 0.5 });
    await limiter.acquire(a);
    void limiter.acquire(a);
    void limiter.acquire(b);
    const refused = await limiter.acquire({ owner: 'key:c' }).catch((error: unknown) => error);
    expect(refused).toMatchObject({ status: 429, code: 'server_busy' });
  });
});
