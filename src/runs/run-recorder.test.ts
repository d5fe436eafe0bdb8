import { afterEach, describe, expect, it, vi } from 'vitest';
import { warningEvent as warning } from '../../test/helpers/warning-event.js';
import { createRedactor } from '../core/errors/index.js';
import type { AgentEvent } from '../events/agent-events.js';
import { createRunRecorder } from './run-recorder.js';
import type { RunStore } from './run-store.js';

afterEach(() => {
  vi.useRealTimers();
});

describe('run recorder', () => {
  it("writes timed batches on the clock's quarter seconds: runs whose events came at different times flush together", () => {
    vi.useFakeTimers();
    vi.setSystemTime(10_000);
    const writes: Array<{ runId: string; at: number; seqs: number[] }> = [];
    const store = {
      append: (runId: string, events: readonly AgentEvent[]) =>
        writes.push({ runId, at: Date.now(), seqs: events.map((event) => event.seq) }),
    } as unknown as RunStore;
    const recorder = (runId: string) =>
      createRunRecorder({ store, runId, redact: createRedactor([]), prices: {} });
    const a = recorder('a');
    const b = recorder('b');
    a.observe(warning('a', 1)); // at 10 000: due at 10 250
    vi.advanceTimersByTime(120);
    b.observe(warning('b', 1)); // at 10 120: due at 10 250 too, not 10 370
    a.observe(warning('a', 2));
    vi.advanceTimersByTime(130);
    expect(writes).toEqual([
      { runId: 'a', at: 10_250, seqs: [1, 2] },
      { runId: 'b', at: 10_250, seqs: [1] },
    ]);
    vi.setSystemTime(10_400);
    b.observe(warning('b', 2)); // at 10 400: due at 10 500, within the quarter second
    vi.advanceTimersByTime(99);
    expect(writes).toHaveLength(2);
    vi.advanceTimersByTime(1);
    expect(writes.at(-1)).toEqual({ runId: 'b', at: 10_500, seqs: [2] });
  });
});
