import { describe, expect, it } from 'vitest';
import { AbortedError } from '../errors/index.js';
import { createConcurrencyLimiter } from './concurrency-limiter.js';
import { HttpError } from './http-error.js';

describe('createConcurrencyLimiter', () => {
  it('grants up to maxConcurrent, queues up to maxQueue in order, and refuses beyond with a 429', async () => {
    const limiter = createConcurrencyLimiter({ maxConcurrent: 2, maxQueue: 1 });
    const first = await limiter.acquire();
    await limiter.acquire();
    const order: string[] = [];
    const queued = limiter.acquire().then((release) => {
      order.push('queued');
      return release;
    });
    expect(limiter.queued).toBe(1);
    const refused = await limiter.acquire().catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(HttpError);
    expect(refused).toMatchObject({ status: 429, headers: { 'retry-after': '1' } });
    first();
    first();
    (await queued)();
    expect(order).toEqual(['queued']);
    expect(limiter.running).toBe(1);
  });

  it('drops a waiter whose signal fires, so it neither holds a place nor gets a slot', async () => {
    const limiter = createConcurrencyLimiter({ maxConcurrent: 1, maxQueue: 1 });
    const release = await limiter.acquire();
    const controller = new AbortController();
    const waiting = limiter.acquire(controller.signal);
    controller.abort();
    await expect(waiting).rejects.toBeInstanceOf(AbortedError);
    expect(limiter.queued).toBe(0);
    release();
    expect(limiter.running).toBe(0);
  });
});
