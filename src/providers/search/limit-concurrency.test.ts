import { describe, expect, it } from 'vitest';
import { AbortedError } from '../../errors/index.js';
import type { SearchProvider } from '../spec/search-provider.js';
import { createConcurrencyLimit, withConcurrencyLimit } from './limit-concurrency.js';

function deferred() {
  let resolve!: () => void;
  const promise = new Promise<void>((done) => {
    resolve = done;
  });
  return { promise, resolve };
}

describe('createConcurrencyLimit', () => {
  it('runs at most max tasks at once, the others in arrival order', async () => {
    const limit = createConcurrencyLimit(2);
    const gates = [deferred(), deferred(), deferred(), deferred()];
    const started: number[] = [];
    const runs = gates.map((gate, index) =>
      limit.run(async () => {
        started.push(index);
        await gate.promise;
        return index;
      }),
    );
    await Promise.resolve();
    expect(started).toEqual([0, 1]);
    expect(limit.waiting).toBe(2);
    gates[1]!.resolve();
    await runs[1];
    await Promise.resolve();
    expect(started).toEqual([0, 1, 2]);
    for (const gate of gates) gate.resolve();
    expect(await Promise.all(runs)).toEqual([0, 1, 2, 3]);
    expect(limit.active).toBe(0);
  });

  it('frees its slot when a task fails', async () => {
    const limit = createConcurrencyLimit(1);
    await expect(limit.run(() => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    expect(await limit.run(async () => 'next')).toBe('next');
  });

  it('gives up waiting when the caller aborts, without running the task', async () => {
    const limit = createConcurrencyLimit(1);
    const gate = deferred();
    const holder = limit.run(() => gate.promise);
    const controller = new AbortController();
    let ran = false;
    const waiting = limit.run(async () => {
      ran = true;
    }, controller.signal);
    controller.abort();
    await expect(waiting).rejects.toBeInstanceOf(AbortedError);
    expect(limit.waiting).toBe(0);
    gate.resolve();
    await holder;
    expect(ran).toBe(false);
  });
});

describe('withConcurrencyLimit', () => {
  it('never lets more than max searches of one provider be in flight', async () => {
    let inFlight = 0;
    let peak = 0;
    const slow: SearchProvider = {
      id: 'slow',
      async search(query) {
        inFlight++;
        peak = Math.max(peak, inFlight);
        await new Promise((resolve) => setTimeout(resolve, 10));
        inFlight--;
        return [{ url: `https://e.example/${query}`, title: query, snippet: '' }];
      },
    };
    const limited = withConcurrencyLimit(slow, 2);
    const results = await Promise.all(['a', 'b', 'c', 'd', 'e'].map((query) => limited.search(query)));
    expect(results.map((hits) => hits[0]?.title)).toEqual(['a', 'b', 'c', 'd', 'e']);
    expect(peak).toBe(2);
    expect(limited.id).toBe('slow');
  });
});
