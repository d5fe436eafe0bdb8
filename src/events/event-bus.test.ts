import { describe, expect, it } from 'vitest';
import type { AgentEvent } from './agent-events.js';
import { EventBus } from './event-bus.js';

describe('EventBus', () => {
  it('gives every event the run id, a sequence number and a time, for every observer', () => {
    const first: AgentEvent[] = [];
    const second: AgentEvent[] = [];
    let now = 1_000;
    const bus = new EventBus({ runId: 'run-a', observers: [(event) => first.push(event)], now: () => now++ });
    bus.subscribe((event) => second.push(event));
    bus.emit({ type: 'warning', step: 1, message: 'one' });
    bus.emit({ type: 'answer-delta', delta: 'x' });
    expect(first).toEqual(second);
    expect(first.map((event) => [event.runId, event.seq, event.at])).toEqual([
      ['run-a', 1, 1_000],
      ['run-a', 2, 1_001],
    ]);
    expect(JSON.parse(JSON.stringify(first))).toEqual(first);
  });

  it('detaches an observer that throws, reports it once, and keeps the others', () => {
    const seen: AgentEvent[] = [];
    let thrown = 0;
    const bus = new EventBus({
      observers: [
        () => {
          thrown++;
          throw new Error('renderer broke');
        },
        (event) => seen.push(event),
      ],
    });
    bus.emit({ type: 'answer-delta', delta: 'a' });
    bus.emit({ type: 'answer-delta', delta: 'b' });
    expect(thrown).toBe(1);
    expect(seen.map((event) => event.type)).toEqual(['answer-delta', 'warning', 'answer-delta']);
    expect(bus.warnings).toEqual(['an event observer failed and was detached: renderer broke']);
  });

  it("forwards a sub-run's events with their own run id, in the parent's one sequence", () => {
    const seen: AgentEvent[] = [];
    const parent = new EventBus({ runId: 'parent', lastSeq: 10, observers: [(event) => seen.push(event)] });
    const first = new EventBus({ runId: 'child-1', observers: [(event) => parent.forward(event)] });
    const second = new EventBus({ runId: 'child-2', observers: [(event) => parent.forward(event)] });
    parent.emit({ type: 'warning', step: 0, message: 'from the parent' });
    first.emit({ type: 'warning', step: 2, message: 'from the first child' });
    second.emit({ type: 'answer-delta', delta: 'x' });
    first.emit({ type: 'answer-delta', delta: 'y' });
    parent.emit({ type: 'answer-delta', delta: 'z' });
    // Each child counts from 1 on its own bus; the parent's observers see one sequence after lastSeq.
    expect(seen.map((event) => [event.runId, event.seq])).toEqual([
      ['parent', 11],
      ['child-1', 12],
      ['child-2', 13],
      ['child-1', 14],
      ['parent', 15],
    ]);
    expect(parent.warnings).toEqual(['from the parent', 'from the first child']);
  });

  it('an unsubscribed observer sees nothing more', () => {
    const seen: AgentEvent[] = [];
    const bus = new EventBus();
    const stop = bus.subscribe((event) => seen.push(event));
    bus.emit({ type: 'answer-delta', delta: 'a' });
    stop();
    bus.emit({ type: 'answer-delta', delta: 'b' });
    expect(seen).toHaveLength(1);
  });
});
