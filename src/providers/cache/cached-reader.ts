import type { Page, PageReader, ReadOptions } from '../spec/page-reader.js';
import type { ResponseCache } from './sqlite-cache.js';

export interface CachedReaderOptions {
  reader: PageReader;
  cache: ResponseCache;
  ttlSeconds: number;
}

/**
 * The same reader, answering a URL it read before from the cache while the entry is fresh.
 * Failed reads are not kept: the page may be back the next time.
 */
export function createCachedReader(options: CachedReaderOptions): PageReader {
  const { reader, cache } = options;
  return {
    id: reader.id,
    async read(url: string, readOptions?: ReadOptions): Promise<Page> {
      const key = JSON.stringify([reader.id, url]);
      const cached = cache.get('page', key);
      if (isPage(cached)) return cached;
      const page = await reader.read(url, readOptions);
      cache.set('page', key, page, options.ttlSeconds);
      return page;
    },
  };
}

function isPage(value: unknown): value is Page {
  return typeof value === 'object' && value !== null && typeof (value as Page).url === 'string';
}
