import { isNetworkUrl } from '../../platform/http/source-schemes.js';
import type { ResponseCache } from '../../platform/storage/sqlite-cache.js';
import type { Page } from '../spec/page-reader.js';
import type { PageReaderMiddleware, SearchProviderMiddleware } from '../spec/provider-middleware.js';
import type { SearchOptions, TimeRange } from '../spec/search-provider.js';

export interface SearchCacheOptions {
  cache: ResponseCache;
  ttlSeconds: number;
  /** What else decides the answer besides the query (provider chain, endpoints), part of every key. */
  scope: string;
}

// A search restricted to the last hour or day goes stale faster than the window it covers.
const windowTtlSeconds: Partial<Record<TimeRange, number>> = { hour: 10 * 60, day: 4 * 3600 };

/**
 * Answers a search the provider made before from the cache while the entry is fresh.
 * Only non-empty answers are kept: an empty one may be a passing failure of the whole chain.
 */
export function createSearchCacheMiddleware(options: SearchCacheOptions): SearchProviderMiddleware {
  const { cache } = options;
  return {
    async wrapSearch({ doSearch, query, options: searchOptions }) {
      const key = searchKey(options.scope, query, searchOptions);
      const cached = cache.get('search', key);
      if (Array.isArray(cached)) return cached;
      const hits = await doSearch(query, searchOptions);
      if (hits.length > 0)
        cache.set('search', key, hits, ttlFor(options.ttlSeconds, searchOptions.timeRange));
      return hits;
    },
  };
}

function searchKey(scope: string, query: string, options: SearchOptions): string {
  const { count, timeRange, language, region, site } = options;
  return JSON.stringify([
    scope,
    query.trim(),
    count ?? null,
    timeRange ?? null,
    language ?? null,
    region ?? null,
    site ?? null,
  ]);
}

function ttlFor(ttlSeconds: number, timeRange: TimeRange | undefined): number {
  const cap = timeRange ? windowTtlSeconds[timeRange] : undefined;
  return cap === undefined ? ttlSeconds : Math.min(ttlSeconds, cap);
}

export interface ReaderCacheOptions {
  cache: ResponseCache;
  ttlSeconds: number;
  /**
   * What decides whether a read would be allowed at all (the network policy), part of every key:
   * a page read with private addresses allowed is never handed to a run that does not allow them.
   */
  scope?: string;
}

/**
 * Answers a URL the reader read before from the cache while the entry is fresh (keyed on the
 * reader's id). Failed reads are not kept, nor app shells read without their scripts: the page may
 * be back, or rendered, the next time. Only network sources are cached: a local file or
 * knowledge-base entry is read fresh each time (it is cheap and may have changed).
 */
export function createReaderCacheMiddleware(options: ReaderCacheOptions): PageReaderMiddleware {
  const { cache } = options;
  return {
    async wrapRead({ doRead, url, options: readOptions, provider }): Promise<Page> {
      if (!isNetworkUrl(url)) return doRead(url, readOptions);
      const key = JSON.stringify(options.scope ? [provider.id, options.scope, url] : [provider.id, url]);
      const cached = cache.get('page', key);
      if (isPage(cached)) return cached;
      const page = await doRead(url, readOptions);
      // An app shell read without its scripts (no browser, or it failed) may render the next time.
      if (!page.emptyShell) cache.set('page', key, page, options.ttlSeconds);
      return page;
    },
  };
}

function isPage(value: unknown): value is Page {
  return typeof value === 'object' && value !== null && typeof (value as Page).url === 'string';
}
