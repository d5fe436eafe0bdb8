import type { Page, PageReader, ReadOptions } from '../spec/page-reader.js';
import type { SearchOptions, SearchProvider, TimeRange } from '../spec/search-provider.js';
import { isNetworkUrl } from '../spec/source-schemes.js';
import type { ResponseCache } from './sqlite-cache.js';

export interface CachedSearchOptions {
  search: SearchProvider;
  cache: ResponseCache;
  ttlSeconds: number;
  /** What else decides the answer besides the query (provider chain, endpoints), part of every key. */
  scope: string;
}

// A search restricted to the last hour or day goes stale faster than the window it covers.
const windowTtlSeconds: Partial<Record<TimeRange, number>> = { hour: 10 * 60, day: 4 * 3600 };

/**
 * The same provider, answering a search it made before from the cache while the entry is fresh.
 * Only non-empty answers are kept: an empty one may be a passing failure of the whole chain.
 */
export function createCachedSearch(options: CachedSearchOptions): SearchProvider {
  const { search, cache } = options;
  return {
    id: search.id,
    async search(query: string, searchOptions: SearchOptions = {}) {
      const key = searchKey(options.scope, query, searchOptions);
      const cached = cache.get('search', key);
      if (Array.isArray(cached)) return cached;
      const hits = await search.search(query, searchOptions);
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

export interface CachedReaderOptions {
  reader: PageReader;
  cache: ResponseCache;
  ttlSeconds: number;
  /**
   * What decides whether a read would be allowed at all (the network policy), part of every key:
   * a page read with private addresses allowed is never handed to a run that does not allow them.
   */
  scope?: string;
}

/**
 * The same reader, answering a URL it read before from the cache while the entry is fresh.
 * Failed reads are not kept, nor app shells read without their scripts: the page may be back, or
 * rendered, the next time. Only network sources are cached:
 * a local file or knowledge-base entry is read fresh each time (it is cheap and may have changed).
 */
export function createCachedReader(options: CachedReaderOptions): PageReader {
  const { reader, cache } = options;
  return {
    id: reader.id,
    ...(reader.freeToPrefetch ? { freeToPrefetch: true } : {}),
    ...(reader.prepare ? { prepare: () => reader.prepare!() } : {}),
    async read(url: string, readOptions?: ReadOptions): Promise<Page> {
      if (!isNetworkUrl(url)) return reader.read(url, readOptions);
      const key = JSON.stringify(options.scope ? [reader.id, options.scope, url] : [reader.id, url]);
      const cached = cache.get('page', key);
      if (isPage(cached)) return cached;
      const page = await reader.read(url, readOptions);
      // An app shell read without its scripts (no browser, or it failed) may render the next time.
      if (!page.emptyShell) cache.set('page', key, page, options.ttlSeconds);
      return page;
    },
  };
}

function isPage(value: unknown): value is Page {
  return typeof value === 'object' && value !== null && typeof (value as Page).url === 'string';
}
