import { AbortedError } from '../core/errors/index.js';
import type { SearchHit, SearchOptions, SearchProvider } from '../providers/spec/search-provider.js';

export interface FakeSearch extends SearchProvider {
  /** Every call, in order, with the options it was given (signal left out). */
  readonly calls: Array<{ query: string; options: Omit<SearchOptions, 'signal'> }>;
}

/** A search engine over a table of query → hits; an unknown query has no hits. */
export function createFakeSearch(results: Record<string, SearchHit[]>): FakeSearch {
  const calls: FakeSearch['calls'] = [];
  return {
    specificationVersion: 'v1',
    id: 'fake',
    calls,
    async search(query: string, options: SearchOptions = {}): Promise<SearchHit[]> {
      const { signal, ...rest } = options;
      calls.push({ query, options: rest });
      if (signal?.aborted) throw new AbortedError(undefined, { cause: signal.reason });
      const hits = Object.hasOwn(results, query) ? results[query]! : [];
      return hits.slice(0, options.count ?? hits.length).map((hit) => ({ ...hit }));
    },
  };
}
