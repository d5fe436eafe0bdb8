import { describe, expect, it } from 'vitest';
import { loadConfig } from './load-config.js';
import { isSinceValue, parseSince } from './time-scope.js';

const now = new Date('2026-12-05T12:00:00Z');

describe('--since values', () => {
  it('reads durations back from now and dates', () => {
    expect(parseSince('36h', now)).toEqual(new Date('2026-12-04T00:00:00Z'));
    expect(parseSince('2w', now)).toEqual(new Date('2026-11-21T12:00:00Z'));
    expect(parseSince('1m', now)).toEqual(new Date('2026-11-05T12:00:00Z'));
    expect(parseSince('1y', now)).toEqual(new Date('2025-12-05T12:00:00Z'));
    expect(parseSince('2026-11-01', now)).toEqual(new Date('2026-11-01T00:00:00Z'));
    expect(parseSince('2026-11-01T08:00:00Z', now)).toEqual(new Date('2026-11-01T08:00:00Z'));
  });

  it('refuses what is neither', () => {
    for (const value of ['yesterday', '30', '2026-13-45', '5 fortnights', ''])
      expect(isSinceValue(value), value).toBe(false);
    expect(parseSince('yesterday', now)).toBeUndefined();
  });

  it('is search.since in the config, from --since or DEEPSEARCH_SEARCH_SINCE, and a bad value is a clear error', () => {
    expect(loadConfig({ flags: { since: '30d' } }).search.since).toBe('30d');
    expect(loadConfig({ env: { DEEPSEARCH_SEARCH_SINCE: '2026-11-01' } }).search.since).toBe('2026-11-01');
    expect(() => loadConfig({ flags: { since: 'last week' } })).toThrow(
      /--since must be a date \(2026-11-01\) or a duration back from now/,
    );
  });
});
