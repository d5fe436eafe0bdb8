import { afterEach, describe, expect, it, vi } from 'vitest';
import { createCollapsedWarnings } from './collapsed-warnings.js';

describe('createCollapsedWarnings', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('writes the first of identical warnings, then one line a minute with the count', () => {
    vi.useFakeTimers();
    const lines: string[] = [];
    const warnings = createCollapsedWarnings({ write: (line) => lines.push(line) });
    for (let index = 0; index < 50; index++) warnings.warn("the run queue (Redis) can't be reached");
    warnings.warn('another one');
    expect(lines).toEqual(["the run queue (Redis) can't be reached", 'another one']);
    vi.advanceTimersByTime(61_000);
    expect(lines.slice(2)).toEqual([
      "the run queue (Redis) can't be reached (49 more times in the last minute)",
    ]);
    // A minute without repeats: nothing more; the next one is written at once again.
    vi.advanceTimersByTime(61_000);
    expect(lines).toHaveLength(3);
    warnings.warn('another one');
    expect(lines.at(-1)).toBe('another one');
    warnings.warn('another one');
    warnings.stop();
    expect(lines.at(-1)).toBe('another one (1 more time in the last minute)');
  });
});
