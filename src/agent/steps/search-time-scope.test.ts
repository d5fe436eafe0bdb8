import { describe, expect, it } from 'vitest';
import { searchTimeScope } from './search-time-scope.js';

const now = new Date('2026-12-05T12:00:00Z');

describe('searchTimeScope', () => {
  it('sends --since as a start date with the smallest range covering it', () => {
    expect(searchTimeScope({ since: '10d', timeRange: undefined }, now)).toEqual({
      since: new Date('2026-11-25T12:00:00Z'),
      timeRange: 'month',
    });
    expect(searchTimeScope({ since: '2026-12-04', timeRange: undefined }, now)).toEqual({
      since: new Date('2026-12-04T00:00:00Z'),
      timeRange: 'week',
    });
  });

  it('sends only the date when it is older than a year (no range reaches it)', () => {
    expect(searchTimeScope({ since: '2y', timeRange: undefined }, now)).toEqual({
      since: new Date('2024-12-05T12:00:00Z'),
    });
  });

  it('lets a query range narrower than --since stand alone, and a wider one give way', () => {
    expect(searchTimeScope({ since: '6m', timeRange: 'week' }, now)).toEqual({ timeRange: 'week' });
    expect(searchTimeScope({ since: '3d', timeRange: 'year' }, now)).toEqual({
      since: new Date('2026-12-02T12:00:00Z'),
      timeRange: 'week',
    });
    expect(searchTimeScope({ since: undefined, timeRange: 'day' }, now)).toEqual({ timeRange: 'day' });
    expect(searchTimeScope({ since: undefined, timeRange: undefined }, now)).toEqual({});
  });
});
