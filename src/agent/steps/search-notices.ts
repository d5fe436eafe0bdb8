import type { SearchNotice } from '../../providers/spec/search-provider.js';
import type { RunContext } from '../run-context.js';

/**
 * The onNotice listener for one query: a provider of the fallback chain that was passed over
 * becomes a `warning` event, so the person following the run sees which engine failed and why.
 */
export function searchNoticeListener(context: RunContext, query: string): (notice: SearchNotice) => void {
  return (notice) =>
    context.emit({ type: 'warning', step: context.step, message: describeSearchNotice(query, notice) });
}

export function describeSearchNotice(query: string, notice: SearchNotice): string {
  const next = notice.nextProviderId ? `; trying ${notice.nextProviderId}` : '';
  return `search "${query}": ${notice.providerId} passed over (${notice.reason})${next}`;
}
