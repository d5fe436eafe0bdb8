import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createSqliteCache, type ResponseCache } from '../../platform/storage/sqlite-cache.js';
import { createFakeReader } from '../../testing/fake-reader.js';
import { createFakeSearch } from '../../testing/fake-search.js';
import type { PageReader } from '../spec/page-reader.js';
import type { SearchProvider } from '../spec/search-provider.js';
import { wrapPageReader, wrapSearchProvider } from '../spec/wrap-provider.js';
import {
  createReaderCacheMiddleware,
  createSearchCacheMiddleware,
  type ReaderCacheOptions,
  type SearchCacheOptions,
} from './cache-middleware.js';

let dir: string;
let cache: ResponseCache;
let clock: number;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'deepsearch-cached-'));
  clock = 1_700_000_000_000;
  cache = createSqliteCache({ file: join(dir, 'cache.sqlite'), now: () => clock });
});

afterEach(() => {
  cache.close();
  rmSync(dir, { recursive: true, force: true });
});

const createCachedSearch = ({ search, ...options }: SearchCacheOptions & { search: SearchProvider }) =>
  wrapSearchProvider({ provider: search, middleware: createSearchCacheMiddleware(options) });
const createCachedReader = ({ reader, ...options }: ReaderCacheOptions & { reader: PageReader }) =>
  wrapPageReader({ provider: reader, middleware: createReaderCacheMiddleware(options) });

const hits = [{ url: 'https://tides.example/', title: 'Tides', snippet: 'high tide at noon' }];

describe('createSearchCacheMiddleware', () => {
  it('answers a repeated search from the cache while fresh, and asks again once expired', async () => {
    const engine = createFakeSearch({ tides: hits });
    const search = createCachedSearch({ search: engine, cache, ttlSeconds: 3600, scope: 'searxng' });
    expect(await search.search('tides', { count: 5 })).toEqual(hits);
    clock += 3_599_000;
    expect(await search.search('tides', { count: 5 })).toEqual(hits);
    expect(engine.calls).toHaveLength(1);
    clock += 1_000;
    expect(await search.search('tides', { count: 5 })).toEqual(hits);
    expect(engine.calls).toHaveLength(2);
  });

  it('keys on the options and the scope, not only on the query', async () => {
    const engine = createFakeSearch({ tides: hits });
    const search = createCachedSearch({ search: engine, cache, ttlSeconds: 3600, scope: 'searxng' });
    await search.search('tides', { count: 5 });
    await search.search('tides', { count: 5, site: 'tides.example' });
    await search.search('tides', { count: 5, language: 'fr' });
    const other = createCachedSearch({ search: engine, cache, ttlSeconds: 3600, scope: 'brave' });
    await other.search('tides', { count: 5 });
    expect(engine.calls).toHaveLength(4);
  });

  it('does not keep empty answers', async () => {
    const engine = createFakeSearch({});
    const search = createCachedSearch({ search: engine, cache, ttlSeconds: 3600, scope: 's' });
    await search.search('nothing');
    await search.search('nothing');
    expect(engine.calls).toHaveLength(2);
  });

  it('keeps a search of the last hour for ten minutes at most', async () => {
    const engine = createFakeSearch({ news: hits });
    const search = createCachedSearch({ search: engine, cache, ttlSeconds: 86_400, scope: 's' });
    await search.search('news', { timeRange: 'hour' });
    clock += 9 * 60_000;
    await search.search('news', { timeRange: 'hour' });
    expect(engine.calls).toHaveLength(1);
    clock += 60_000;
    await search.search('news', { timeRange: 'hour' });
    expect(engine.calls).toHaveLength(2);
  });
});

describe('createReaderCacheMiddleware', () => {
  const url = 'https://tides.example/';
  const html =
    '<html><head><title>Tides</title></head><body><article><p>High tide is at noon today, low tide at six in the evening.</p></article></body></html>';

  it('answers a repeated read from the cache while fresh, and reads again once expired', async () => {
    const fake = createFakeReader({ [url]: html });
    const reader = createCachedReader({ reader: fake, cache, ttlSeconds: 60 });
    const first = await reader.read(url);
    expect(await reader.read(url)).toEqual(first);
    expect(fake.calls).toEqual([url]);
    clock += 60_000;
    await reader.read(url);
    expect(fake.calls).toEqual([url, url]);
    expect(first.text).toContain('High tide is at noon');
  });

  it('does not keep failed reads', async () => {
    const fake = createFakeReader({});
    const reader = createCachedReader({ reader: fake, cache, ttlSeconds: 60 });
    await expect(reader.read('https://gone.example/')).rejects.toThrow(/404/);
    await expect(reader.read('https://gone.example/')).rejects.toThrow(/404/);
    expect(fake.calls).toHaveLength(2);
  });

  it('does not keep an app shell read without its scripts: a browser may render it next time', async () => {
    const shell = 'https://app.example/';
    const fake = createFakeReader({
      [shell]: '<html><body><div id="root"></div><script src="/app.js"></script></body></html>',
    });
    const reader = createCachedReader({ reader: fake, cache, ttlSeconds: 60 });
    expect((await reader.read(shell)).emptyShell).toBe(true);
    await reader.read(shell);
    expect(fake.calls).toEqual([shell, shell]);
  });

  it('reads local sources (file:, kb:) fresh every time: only network pages are cached', async () => {
    const local = 'file:///notes/tides.html';
    const fake = createFakeReader({ [local]: html, 'kb:notes/tides': html });
    const reader = createCachedReader({ reader: fake, cache, ttlSeconds: 60 });
    await reader.read(local);
    await reader.read(local);
    await reader.read('kb:notes/tides');
    await reader.read('kb:notes/tides');
    expect(fake.calls).toEqual([local, local, 'kb:notes/tides', 'kb:notes/tides']);
  });

  it('never serves a page stored under one network policy to a reader of another', async () => {
    const fake = createFakeReader({ [url]: html });
    const permissive = createCachedReader({ reader: fake, cache, ttlSeconds: 60, scope: 'private-allowed' });
    const strict = createCachedReader({ reader: fake, cache, ttlSeconds: 60, scope: 'public-only' });
    await permissive.read(url);
    await permissive.read(url);
    await strict.read(url);
    expect(fake.calls).toEqual([url, url]);
  });

  it("keeps the reader's other members: version, id, prepare and a live freeToPrefetch", async () => {
    let prepared = 0;
    let free = false;
    const inner: PageReader = {
      specificationVersion: 'v1',
      id: 'web',
      get freeToPrefetch() {
        return free;
      },
      prepare: async () => {
        prepared++;
      },
      read: createFakeReader({ [url]: html }).read,
    };
    const reader = createCachedReader({ reader: inner, cache, ttlSeconds: 60 });
    expect(reader).toMatchObject({ specificationVersion: 'v1', id: 'web', freeToPrefetch: false });
    free = true;
    expect(reader.freeToPrefetch).toBe(true);
    await reader.prepare?.();
    expect(prepared).toBe(1);
  });
});
