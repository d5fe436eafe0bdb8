import { createSemaphore } from '../../core/semaphore.js';
import type { SearchOptions, SearchProvider } from '../spec/search-provider.js';

/** The same provider with at most `max` searches in flight; the rest wait their turn. */
export function withConcurrencyLimit(provider: SearchProvider, max: number): SearchProvider {
  const limit = createSemaphore({ max });
  return {
    id: provider.id,
    search: (query: string, options: SearchOptions = {}) =>
      limit.run(() => provider.search(query, options), options.signal),
  };
}
