import { join } from 'node:path';
import type { CacheConfig, SearchConfig } from '../../config/config-schema.js';
import type { PageReader } from '../spec/page-reader.js';
import type { SearchProvider } from '../spec/search-provider.js';
import { createCachedReader } from './cached-reader.js';
import { createCachedSearch } from './cached-search.js';
import { cacheFileName, defaultCacheDir } from './default-cache-dir.js';
import { createSqliteCache, type ResponseCache } from './sqlite-cache.js';

export interface ProviderCache {
  search(search: SearchProvider, config: SearchConfig): SearchProvider;
  reader(reader: PageReader): PageReader;
  close(): void;
}

/**
 * Wraps providers with the on-disk cache the config asks for, or leaves them as they are when
 * the cache is off. The database opens on the first search or read, not here.
 */
export function createProviderCache(
  config: CacheConfig,
  options: { cache?: ResponseCache } = {},
): ProviderCache {
  if (!config.enabled) {
    return { search: (search) => search, reader: (reader) => reader, close: () => undefined };
  }
  const cache =
    options.cache ?? createSqliteCache({ file: join(config.dir ?? defaultCacheDir(), cacheFileName) });
  return {
    search: (search, searchConfig) =>
      createCachedSearch({
        search,
        cache,
        ttlSeconds: config.ttlSeconds.search,
        scope: searchScope(searchConfig),
      }),
    reader: (reader) => createCachedReader({ reader, cache, ttlSeconds: config.ttlSeconds.page }),
    close: () => cache.close(),
  };
}

/** Settings that change what a search answers; keys and concurrency do not. */
export function searchScope(config: SearchConfig): string {
  return JSON.stringify([
    config.provider,
    config.searxngUrl ?? null,
    config.baseURLs,
    config.resultsPerQuery,
  ]);
}
