import { homedir } from 'node:os';
import { join } from 'node:path';
import type { CacheConfig, SearchConfig } from '../config/config-schema.js';
import {
  createSqliteCache,
  type ResponseCache,
  type SqliteDriverLoader,
} from '../platform/storage/sqlite-cache.js';
import {
  createReaderCacheMiddleware,
  createSearchCacheMiddleware,
} from '../providers/middleware/cache-middleware.js';
import type { PageReader } from '../providers/spec/page-reader.js';
import type { SearchProvider } from '../providers/spec/search-provider.js';
import { wrapPageReader, wrapSearchProvider } from '../providers/spec/wrap-provider.js';

/**
 * What the network guard allows: part of every cache key, so an answer stored while private
 * addresses were allowed (a private page, search hits on private hosts) is never handed to a run
 * whose guard would refuse it.
 */
export interface NetworkPolicy {
  allowPrivateNetwork: boolean;
}

export interface ProviderCache {
  search(search: SearchProvider, config: SearchConfig, network: NetworkPolicy): SearchProvider;
  reader(reader: PageReader, network: NetworkPolicy): PageReader;
  close(): void;
}

/**
 * Wraps providers with the on-disk cache the config asks for, or leaves them as they are when
 * the cache is off. The database opens on the first search or read, not here.
 */
export function createProviderCache(
  config: CacheConfig,
  options: {
    cache?: ResponseCache;
    /** See SqliteCacheOptions: the native module's loader, and what to do when it cannot load. */
    loadDriver?: SqliteDriverLoader;
    onUnavailable?: (message: string) => void;
  } = {},
): ProviderCache {
  if (!config.enabled) {
    return { search: (search) => search, reader: (reader) => reader, close: () => undefined };
  }
  const cache =
    options.cache ??
    createSqliteCache({
      file: join(config.dir ?? defaultCacheDir(), cacheFileName),
      loadDriver: options.loadDriver,
      onUnavailable: options.onUnavailable,
    });
  return {
    search: (provider, searchConfig, network) =>
      wrapSearchProvider({
        provider,
        middleware: createSearchCacheMiddleware({
          cache,
          ttlSeconds: config.ttlSeconds.search,
          scope: searchScope(searchConfig, network),
        }),
      }),
    reader: (provider, network) =>
      wrapPageReader({
        provider,
        middleware: createReaderCacheMiddleware({
          cache,
          ttlSeconds: config.ttlSeconds.page,
          scope: networkScope(network),
        }),
      }),
    close: () => cache.close(),
  };
}

/** Settings that change what a search answers (the network policy among them); keys and concurrency do not. */
export function searchScope(config: SearchConfig, network: NetworkPolicy): string {
  return JSON.stringify([
    config.provider,
    config.searxngUrl ?? null,
    config.baseURLs,
    config.resultsPerQuery,
    networkScope(network),
  ]);
}

function networkScope(network: NetworkPolicy): string {
  return network.allowPrivateNetwork ? 'private-allowed' : 'public-only';
}

export interface DefaultCacheDirOptions {
  /** Environment of an entry point (XDG_DATA_HOME, LOCALAPPDATA); nothing else reads it. */
  env?: Readonly<Record<string, string | undefined>>;
  platform?: NodeJS.Platform;
  home?: string;
}

export const cacheFileName = 'cache.sqlite';

/**
 * The user's data directory for deepsearch: $XDG_DATA_HOME/deepsearch or ~/.local/share/deepsearch
 * on Linux, ~/Library/Application Support/deepsearch on macOS, %LOCALAPPDATA%\deepsearch on Windows.
 */
export function defaultCacheDir(options: DefaultCacheDirOptions = {}): string {
  const env = options.env ?? {};
  const platform = options.platform ?? process.platform;
  const home = options.home ?? homedir();
  if (platform === 'win32') return join(env.LOCALAPPDATA || join(home, 'AppData', 'Local'), 'deepsearch');
  if (platform === 'darwin') return join(home, 'Library', 'Application Support', 'deepsearch');
  return join(env.XDG_DATA_HOME || join(home, '.local', 'share'), 'deepsearch');
}
