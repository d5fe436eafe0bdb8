import { afterEach, describe, expect, it, vi } from 'vitest';
import { warningEvent as warning } from '../../test/helpers/warning-event.js';
import { createRedactor } from '../core/errors/index.js';
import type { AgentEvent } from '../events/agent-events.js';
import { createRunRecorder } from './run-recorder.js';
import type { RunStore } from './run-store.js';
import { createRunStore } from './run-store.js';

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

  it("writes a step's last events with its checkpoint, in one write; on their own just after when no checkpoint follows", async () => {
    const writes: string[] = [];
    const store = {
      append: (_runId: string, events: readonly AgentEvent[]) =>
        writes.push(`append ${events.map((event) => event.seq).join(',')}`),
      checkpoint: (
        _runId: string,
        _checkpoint: unknown,
        _usage: unknown,
        _attempt: unknown,
        events: AgentEvent[],
      ) => writes.push(`checkpoint with ${events.map((event) => event.seq).join(',')}`),
    } as unknown as RunStore;
    const recorder = createRunRecorder({ store, runId: 'r', redact: createRedactor([]), prices: {} });
    const stepEnd = (seq: number) =>
      ({
        ...warning('r', seq),
        type: 'step-end',
        action: 'search',
        usage: {},
        budget: {},
      }) as unknown as AgentEvent;
    recorder.observe(warning('r', 1));
    recorder.observe(stepEnd(2));
    await recorder.checkpoint({ state: { pages: [] } } as never);
    await new Promise((resolve) => setImmediate(resolve));
    expect(writes).toEqual(['checkpoint with 1,2']);
    recorder.observe(warning('r', 3));
    recorder.observe(stepEnd(4));
    expect(writes).toHaveLength(1);
    await new Promise((resolve) => setImmediate(resolve));
    expect(writes).toEqual(['checkpoint with 1,2', 'append 3,4']);
  });

  it('keeps the events of a checkpoint whose write failed, for the next write', () => {
    const appended: number[][] = [];
    let fail = true;
    const store = {
      append: (_runId: string, events: readonly AgentEvent[]) =>
        appended.push(events.map((event) => event.seq)),
      checkpoint: () => {
        if (fail) throw new Error('disk full');
      },
    } as unknown as RunStore;
    const recorder = createRunRecorder({ store, runId: 'r', redact: createRedactor([]), prices: {} });
    recorder.observe(warning('r', 1));
    expect(() => recorder.checkpoint({ state: { pages: [] } } as never)).toThrow('disk full');
    fail = false;
    recorder.observe(warning('r', 2));
    recorder.flush();
    expect(appended).toEqual([[1, 2]]);
  });

  it('stores each event redacted, as it was when observed', () => {
    const store = createRunStore({ file: ':memory:', retention: { maxRuns: 10, maxAgeDays: 10 } });
    store.begin(
      { id: 'r', owner: 'local', source: 'cli', mode: 'search', question: 'q', options: {}, settings: {} },
      'running',
    );
    const recorder = createRunRecorder({
      store,
      runId: 'r',
      redact: createRedactor(['sk-secret-123']),
      prices: {},
    });
    const plain = warning('r', 1, { message: 'a plain warning' });
    recorder.observe(plain);
    recorder.observe(warning('r', 2, { message: 'the key sk-secret-123 leaked' }));
    // An observer after the recorder changes the event it was given: the store keeps the original.
    (plain as { message: string }).message = 'changed later';
    recorder.flush();
    expect(store.events('r').map((event) => (event as { message: string }).message)).toEqual([
      'a plain warning',
      'the key [redacted] leaked',
    ]);
  });
});
