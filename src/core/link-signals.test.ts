import { afterEach, describe, expect, it, vi } from 'vitest';
import { timedSignal } from './link-signals.js';

afterEach(() => {
  vi.useRealTimers();
});

describe('timedSignal: a source signal with a timeout, for one piece of work', () => {
  it('aborts with a TimeoutError once the time is up, and says it timed out', () => {
    vi.useFakeTimers();
    const source = new AbortController();
    const deadline = timedSignal(1_000, source.signal);
    vi.advanceTimersByTime(999);
    expect(deadline.signal.aborted).toBe(false);
    vi.advanceTimersByTime(1);
    expect(deadline.signal.aborted).toBe(true);
    expect(deadline.timedOut).toBe(true);
    expect(deadline.signal.reason).toBeInstanceOf(DOMException);
    expect((deadline.signal.reason as DOMException).name).toBe('TimeoutError');
    expect(source.signal.aborted).toBe(false);
  });

  it("follows the source's abort with the source's reason, which is no timeout", () => {
    const source = new AbortController();
    const deadline = timedSignal(60_000, source.signal);
    const reason = new Error('client left');
    source.abort(reason);
    expect(deadline.signal.aborted).toBe(true);
    expect(deadline.signal.reason).toBe(reason);
    expect(deadline.timedOut).toBe(false);
    deadline.dispose();
  });

  it('starts aborted when the source already is', () => {
    const source = new AbortController();
    source.abort(new Error('gone'));
    const deadline = timedSignal(60_000, source.signal);
    expect(deadline.signal.aborted).toBe(true);
    deadline.dispose();
  });

  it('works without a source', () => {
    vi.useFakeTimers();
    const deadline = timedSignal(10);
    vi.advanceTimersByTime(10);
    expect(deadline.timedOut).toBe(true);
  });

  it('once disposed, neither the timer nor the source aborts it, and no timer is left', () => {
    vi.useFakeTimers();
    const source = new AbortController();
    const deadline = timedSignal(1_000, source.signal);
    expect(vi.getTimerCount()).toBe(1);
    deadline.dispose();
    expect(vi.getTimerCount()).toBe(0);
    vi.advanceTimersByTime(5_000);
    source.abort(new Error('late'));
    expect(deadline.signal.aborted).toBe(false);
    expect(deadline.timedOut).toBe(false);
  });

  it("does not keep the process alive: the timer is unref'd", () => {
    const timers = () => process.getActiveResourcesInfo().filter((name) => name === 'Timeout').length;
    const before = timers();
    const held = setTimeout(() => undefined, 60_000);
    // The count sees a timer that holds the process...
    expect(timers()).toBe(before + 1);
    clearTimeout(held);
    const deadline = timedSignal(60_000);
    // ...and none for the deadline's.
    expect(timers()).toBe(before);
    deadline.dispose();
  });
});
