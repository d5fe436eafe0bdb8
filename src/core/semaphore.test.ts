import { describe, expect, it } from 'vitest';
import { AbortedError } from './errors/index.js';
import { createSemaphore } from './semaphore.js';

function deferred() {
  let resolve!: () => void;
  const promise = new Promise<void>((done) => {
    resolve = done;
  });
  return { promise, resolve };
}

describe('createSemaphore', () => {
  it('runs at most max tasks at once, the others in arrival order', async () => {
    const limit = createSemaphore({ max: 2 });
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
    const limit = createSemaphore({ max: 1 });
    await expect(limit.run(() => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    expect(await limit.run(async () => 'next')).toBe('next');
  });

  it('gives up waiting when the caller aborts, without running the task', async () => {
    const limit = createSemaphore({ max: 1 });
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

  it('hands a freed slot to the waiter pickNext chooses, counting slots per key when granted', async () => {
    // The fewest-held rule of the server's fair share: key b holds nothing, so it goes before a.
    const semaphore = createSemaphore({
      max: 2,
      pickNext: (keys, state) => {
        let best = 0;
        keys.forEach((key, index) => {
          if (state.heldBy(key) < state.heldBy(keys[best]!)) best = index;
        });
        return best;
      },
    });
    const firstA = await semaphore.acquire({ key: 'a' });
    const secondA = await semaphore.acquire({ key: 'a' });
    const order: string[] = [];
    const thirdA = semaphore.acquire({ key: 'a' }).then((release) => (order.push('a'), release));
    const firstB = semaphore.acquire({ key: 'b' }).then((release) => (order.push('b'), release));
    expect(semaphore.waitingOf('a')).toBe(1);
    firstA();
    firstA(); // a second call of one release frees nothing more
    expect(semaphore.heldBy('b')).toBe(1);
    expect(semaphore.active).toBe(2);
    secondA();
    expect(semaphore.heldBy('a')).toBe(1);
    (await firstB)();
    (await thirdA)();
    expect(order).toEqual(['b', 'a']);
    expect(semaphore.active).toBe(0);
  });
});
