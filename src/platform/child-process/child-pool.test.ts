import { describe, expect, it, vi } from 'vitest';
import { createChildPool, type PooledChild } from './child-pool.js';

class FakeChild implements PooledChild {
  alive = true;
  constructor(readonly id: number) {}
  kill() {
    this.alive = false;
  }
}

function pool(
  tidy: (child: FakeChild) => Promise<'keep' | 'replace'>,
  size = 1,
  replaced?: (fresh: FakeChild, old: FakeChild) => Promise<void>,
) {
  let started = 0;
  const children: FakeChild[] = [];
  const created = createChildPool<FakeChild>({
    size,
    start: async () => {
      const child = new FakeChild(++started);
      children.push(child);
      return { ok: true, child };
    },
    idle: { afterMs: 20, tidy, replaced },
  });
  return { pool: created, children };
}

describe('createChildPool idle tidy', () => {
  it('replaces an idle child that asks for it with a fresh one at once, and keeps one that does not', async () => {
    const verdicts: Array<'keep' | 'replace'> = ['replace', 'keep'];
    const tidy = vi.fn(async () => verdicts.shift() ?? 'keep');
    const replaced = vi.fn(async () => undefined);
    const { pool: tested, children } = pool(tidy, 1, replaced);
    await tested.withChild(undefined, async (child) => child.id);
    await vi.waitFor(() => expect(children).toHaveLength(2));
    expect(children[0]!.alive).toBe(false);
    // The replacement is readied as its predecessor was (the extraction pool loads its parsers).
    await vi.waitFor(() => expect(replaced).toHaveBeenCalledWith(children[1], children[0]));
    expect(tested.children).toEqual([children[1]]);
    // The fresh child is used by the next task; after it, a 'keep' leaves it alone.
    expect((await tested.withChild(undefined, async (child) => child.id)) as unknown).toEqual({
      ok: true,
      value: 2,
    });
    await vi.waitFor(() => expect(tidy).toHaveBeenCalledTimes(2));
    expect(children).toHaveLength(2);
    expect(children[1]!.alive).toBe(true);
    tested.close();
  });

  it('does not tidy a child while a task uses it, and a task waits for a tidy under way', async () => {
    let release = () => {};
    const order: string[] = [];
    const tidy = vi.fn(async () => {
      order.push('tidy');
      await new Promise<void>((resolve) => {
        release = resolve;
      });
      order.push('tidied');
      return 'keep' as const;
    });
    const { pool: tested } = pool(tidy);
    await tested.withChild(undefined, async () => undefined);
    await vi.waitFor(() => expect(tidy).toHaveBeenCalledTimes(1));
    const task = tested.withChild(undefined, async () => order.push('task'));
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(order).toEqual(['tidy']);
    release();
    await task;
    expect(order).toEqual(['tidy', 'tidied', 'task']);
    tested.close();
  });

  it('a pool closed during a tidy starts no replacement', async () => {
    let release = () => {};
    const tidy = vi.fn(
      () =>
        new Promise<'replace'>((resolve) => {
          release = () => resolve('replace');
        }),
    );
    const { pool: tested, children } = pool(tidy);
    await tested.withChild(undefined, async () => undefined);
    await vi.waitFor(() => expect(tidy).toHaveBeenCalledTimes(1));
    tested.close();
    release();
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(children).toHaveLength(1);
    expect(tested.children).toEqual([]);
  });
});

describe('createChildPool warm()', () => {
  function slowPool(size: number) {
    const children: FakeChild[] = [];
    let finish = () => {};
    const created = createChildPool<FakeChild>({
      size,
      start: async () => {
        await new Promise<void>((resolve) => {
          finish = resolve;
        });
        const child = new FakeChild(children.length + 1);
        children.push(child);
        return { ok: true, child };
      },
    });
    return { pool: created, children, finish: () => finish() };
  }

  it('starts a child in the background that a task coming meanwhile waits for, then one per empty slot', async () => {
    const { pool: tested, children, finish } = slowPool(2);
    const warming = tested.warm();
    const task = tested.withChild(undefined, async (child) => child.id);
    finish();
    expect(await task).toEqual({ ok: true, value: 1 });
    expect(await warming).toEqual({ ok: true, child: children[0] });
    expect(children).toHaveLength(1);
    // The other slot gets its own; with every slot filled, warm() starts nothing more.
    const second = tested.warm();
    finish();
    expect(await second).toEqual({ ok: true, child: children[1] });
    expect((await tested.warm()).ok).toBe(true);
    expect(children).toHaveLength(2);
    tested.close();
  });

  it('a child still starting when the pool closes is killed, not kept', async () => {
    const { pool: tested, children, finish } = slowPool(1);
    const warming = tested.warm();
    tested.close();
    finish();
    expect(await warming).toEqual({ ok: false, reason: 'aborted' });
    expect(children[0]!.alive).toBe(false);
    expect(tested.children).toEqual([]);
  });
});
