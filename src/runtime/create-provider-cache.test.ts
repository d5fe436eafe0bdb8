import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startFakeSearxng } from '../../test/helpers/fake-searxng-server.js';
import { startFakeWeb } from '../../test/helpers/fake-web-server.js';
import { trackServers } from '../../test/helpers/llm-wire-contract.js';
import { cacheConfigSchema, searchConfigSchema } from '../config/config-schema.js';
import { createFakeReader } from '../testing/fake-reader.js';
import { createFakeSearch } from '../testing/fake-search.js';
import { createTestConfig } from '../testing/test-config.js';
import { createProviderCache, defaultCacheDir, searchScope } from './create-provider-cache.js';
import { createRuntime } from './create-runtime.js';

const publicOnly = { allowPrivateNetwork: false };
let dir: string;
const track = trackServers();
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'deepsearch-provider-cache-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('createProviderCache', () => {
  it('leaves providers as they are when the cache is off', () => {
    const cache = createProviderCache(cacheConfigSchema.parse({ enabled: false, dir }));
    const search = createFakeSearch({});
    const reader = createFakeReader({});
    expect(cache.search(search, searchConfigSchema.parse({}), publicOnly)).toBe(search);
    expect(cache.reader(reader, publicOnly)).toBe(reader);
  });

  it('scopes search entries by provider chain, endpoints and result count, not by keys', () => {
    const base = searchConfigSchema.parse({ provider: 'brave', apiKeys: { brave: 'one' } });
    expect(searchScope(base, publicOnly)).toBe(
      searchScope({ ...base, apiKeys: { brave: 'two' } }, publicOnly),
    );
    expect(searchScope(base, publicOnly)).not.toBe(
      searchScope({ ...base, provider: 'brave,duckduckgo' }, publicOnly),
    );
    expect(searchScope(base, publicOnly)).not.toBe(
      searchScope({ ...base, baseURLs: { brave: 'http://proxy.example' } }, publicOnly),
    );
    expect(searchScope(base, publicOnly)).not.toBe(searchScope({ ...base, resultsPerQuery: 3 }, publicOnly));
    expect(searchScope(base, publicOnly)).not.toBe(searchScope(base, { allowPrivateNetwork: true }));
  });
});

describe('createRuntime with the cache on', () => {
  it('caches the search provider and reader it builds from the config, in the folder configured', async () => {
    const html = `<html><head><title>Tides</title></head><body><article><h1>Tides in Brest</h1>
<p>High tide at noon. Low tide is six hours later, in the evening, as on most days of the year.</p></article></body></html>`;
    const web = track(await startFakeWeb({ pages: { '/tides': { html } } }));
    const searxng = track(
      await startFakeSearxng({ results: () => [{ url: `${web.url}/tides`, title: 'Tides' }] }),
    );
    const config = createTestConfig({
      search: { provider: 'searxng', searxngUrl: searxng.url },
      reader: { provider: 'builtin', allowPrivateNetwork: true },
      cache: { enabled: true, dir },
    });
    const runtime = createRuntime({ config });
    try {
      await runtime.search.search('tides');
      expect(await runtime.search.search('tides')).toHaveLength(1);
      await runtime.reader.read(`${web.url}/tides`);
      expect((await runtime.reader.read(`${web.url}/tides`)).text).toContain('High tide at noon.');
    } finally {
      runtime.close();
    }
    expect(searxng.requests).toHaveLength(1);
    expect(web.requests.filter((request) => request.path === '/tides')).toHaveLength(1);
  });

  it('does not cache providers passed in', async () => {
    const search = createFakeSearch({
      tides: [{ url: 'https://tides.example/', title: 'Tides', snippet: '' }],
    });
    const config = createTestConfig({ cache: { enabled: true, dir } });
    const runtime = createRuntime({ config, search, reader: createFakeReader({}) });
    await runtime.search.search('tides');
    await runtime.search.search('tides');
    runtime.close();
    expect(search.calls).toHaveLength(2);
  });
});

describe('defaultCacheDir', () => {
  it('follows XDG_DATA_HOME on Linux, else ~/.local/share', () => {
    expect(defaultCacheDir({ platform: 'linux', home: '/home/ada', env: { XDG_DATA_HOME: '/data' } })).toBe(
      join('/data', 'deepsearch'),
    );
    expect(defaultCacheDir({ platform: 'linux', home: '/home/ada', env: {} })).toBe(
      join('/home/ada', '.local', 'share', 'deepsearch'),
    );
  });

  it('uses Application Support on macOS and LOCALAPPDATA on Windows', () => {
    expect(defaultCacheDir({ platform: 'darwin', home: '/Users/ada' })).toBe(
      join('/Users/ada', 'Library', 'Application Support', 'deepsearch'),
    );
    expect(
      defaultCacheDir({ platform: 'win32', home: 'C:/Users/ada', env: { LOCALAPPDATA: 'D:/local' } }),
    ).toBe(join('D:/local', 'deepsearch'));
  });
});
