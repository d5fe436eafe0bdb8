import { describe, expect, it } from 'vitest';
import { createRunStarts } from './run-starts.js';

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

describe("a run thread's run starts", () => {
  it('begins the runs of one batch one per turn of the event loop, in order', async () => {
    const begun: string[] = [];
    const starts = createRunStarts<string>((run) => begun.push(run));
    for (const run of ['a', 'b', 'c']) starts.add(run);
    expect(begun).toEqual([]);
    expect(starts.waiting).toBe(3);
    await nextTurn();
    expect(begun).toEqual(['a']);
    await nextTurn();
    expect(begun).toEqual(['a', 'b']);
    await nextTurn();
    expect(begun).toEqual(['a', 'b', 'c']);
    expect(starts.waiting).toBe(0);
  });

  it("what a run's beginning leaves for the next turn happens before the next run begins", async () => {
    const order: string[] = [];
    const starts = createRunStarts<string>((run) => {
      order.push(`begin ${run}`);
      // Stands for the run's first request: its connection is made in a later turn.
      setImmediate(() => order.push(`request of ${run}`));
    });
    starts.add('a');
    starts.add('b');
    while (starts.waiting > 0) await nextTurn();
    await nextTurn();
    expect(order).toEqual(['begin a', 'request of a', 'begin b', 'request of b']);
  });

  it('clear drops the runs not begun yet', async () => {
    const begun: string[] = [];
    const starts = createRunStarts<string>((run) => begun.push(run));
    starts.add('a');
    starts.add('b');
    await nextTurn();
    starts.clear();
    await nextTurn();
    await nextTurn();
    expect(begun).toEqual(['a']);
    starts.add('c');
    await nextTurn();
    expect(begun).toEqual(['a', 'c']);
  });
});
