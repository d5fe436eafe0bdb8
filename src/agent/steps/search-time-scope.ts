import { parseSince } from '../../config/time-scope.js';
import {
  coveringTimeRange,
  isNarrowerRange,
  type SearchOptions,
  type TimeRange,
} from '../../providers/spec/search-provider.js';

/**
 * The time filter of one search: `--since` (search.since) as a start date and the smallest range
 * covering it, unless the query's own range (from the rewriter) is narrower, which then stands alone.
 */
export function searchTimeScope(
  input: { since: string | undefined; timeRange: TimeRange | undefined },
  now: Date = new Date(),
): Pick<SearchOptions, 'since' | 'timeRange'> {
  const since = input.since === undefined ? undefined : parseSince(input.since, now);
  if (!since) return input.timeRange ? { timeRange: input.timeRange } : {};
  const covering = coveringTimeRange(since, now);
  if (input.timeRange && (!covering || isNarrowerRange(input.timeRange, covering)))
    // A range reaching back less far than `since` is within it already.
    return { timeRange: input.timeRange };
  return { since, ...(covering ? { timeRange: covering } : {}) };
}
