import { describe, expect, it } from 'vitest';
import { isTimeBudgetExceeded, runWithinTimeBudget } from './time-budget.js';

describe('runWithinTimeBudget', () => {
  it('returns what the task returns and lets its own errors through', () => {
    expect(runWithinTimeBudget(() => ({ page: 'tides' }), 1000)).toEqual({ page: 'tides' });
    const thrown = (() => {
      try {
        runWithinTimeBudget(() => {
          throw new RangeError('too deep');
        }, 1000);
      } catch (error) {
        return error;
      }
    })();
    expect(thrown).toBeInstanceOf(RangeError);
    expect(isTimeBudgetExceeded(thrown)).toBe(false);
  });

  it('stops a synchronous loop past the budget, even one that catches, and runs the next task', () => {
    const started = performance.now();
    let error: unknown;
    try {
      runWithinTimeBudget(() => {
        for (;;) {
          try {
            JSON.parse('{'.repeat(100));
          } catch {
            // a parser that swallows its errors cannot swallow the budget
          }
        }
      }, 50);
    } catch (caught) {
      error = caught;
    }
    expect(isTimeBudgetExceeded(error)).toBe(true);
    expect(performance.now() - started).toBeLessThan(5000);
    expect(runWithinTimeBudget(() => 'next', 1000)).toBe('next');
  });
});
