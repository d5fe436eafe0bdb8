import { describe, expect, it } from 'vitest';
import type { DeepSearchResult } from '../../events/deep-search-result.js';
import { summaryLine } from './render-result.js';

function result(steps: number, searchCalls: number, readCalls: number): DeepSearchResult {
  return {
    steps,
    durationMs: 1500,
    usage: { totalTokens: 0, byRole: {}, searchCalls, readCalls },
  } as unknown as DeepSearchResult;
}

describe('summaryLine', () => {
  it('says "1 search" and "2 searches", one step and one page in the singular', () => {
    expect(summaryLine(result(1, 1, 1))).toBe('1 step · 0 tokens (none) · 1 search · 1 page · 1.5s');
    expect(summaryLine(result(3, 2, 0))).toBe('3 steps · 0 tokens (none) · 2 searches · 0 pages · 1.5s');
  });
});
