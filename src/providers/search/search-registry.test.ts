import { afterEach, describe, expect, it } from 'vitest';
import { startFakeDuckDuckGo } from '../../../test/helpers/fake-duckduckgo-server.js';
import { startFakeSearchApi } from '../../../test/helpers/fake-search-api.js';
import { startFakeSearxng } from '../../../test/helpers/fake-searxng-server.js';
import { searchConfigSchema, searchKeyProviderIds } from '../../config/config-schema.js';
import { settingSources } from '../../config/setting-sources.js';
import { ConfigError } from '../../core/errors/index.js';
import type { FakeHttpServer } from '../../testing/fake-http-server.js';
import { startFakeHttpServer } from '../../testing/fake-http-server.js';
import type { SearchNotice } from '../spec/search-provider.js';
import { describeSearchNotice } from './fallback-search.js';
import { createSearchProvider } from './search-registry.js';

let server: FakeHttpServer | undefined;

afterEach(async () => {
  await server?.close();
  server = undefined;
});

const mixedHits = [
  { url: 'https://public.example/a', title: 'public' },
  { url: 'http://127.0.0.1:8080/admin', title: 'loopback' },
  { url: 'http://localhost/x', title: 'localhost' },
  { url: 'http://[::1]/', title: 'ipv6 loopback' },
  { url: 'http://192.168.1.1/router', title: 'router' },
  { url: 'http://169.254.169.254/latest/meta-data/', title: 'metadata' },
  { url: 'https://93.184.216.34/b', title: 'public literal' },
];

describe('createSearchProvider', () => {
  it('makes a SearXNG provider from the config, with its URL, timeout and result count', async () => {
    server = await startFakeSearxng({
      results: () => Array.from({ length: 8 }, (_, index) => ({ url: `https://example.com/${index}` })),
    });
    const config = searchConfigSchema.parse({ searxngUrl: server.url, resultsPerQuery: 5 });
    const search = createSearchProvider(config);
    expect(search.id).toBe('searxng');
    expect(await search.search('q')).toHaveLength(5);
    expect(await search.search('q', { count: 2 })).toHaveLength(2);
    expect(server.requests[0]?.query).toMatchObject({ q: 'q', format: 'json' });
  });

  it('drops hits on private host literals unless private networks are allowed', async () => {
    server = await startFakeSearxng({ results: { q: mixedHits } });
    const config = searchConfigSchema.parse({ searxngUrl: server.url });
    const notices: SearchNotice[] = [];
    const guarded = await createSearchProvider(config).search('q', {
      onNotice: (notice) => notices.push(notice),
    });
    expect(guarded.map((hit) => hit.title)).toEqual(['public', 'public literal']);
    // Said, not silent: which hits went, so a person who meant an intranet knows to allow it.
    expect(notices).toEqual([
      {
        kind: 'private-hits-dropped',
        providerId: 'searxng',
        urls: mixedHits.slice(1, 6).map((hit) => hit.url),
      },
    ]);
    expect(describeSearchNotice('q', notices[0]!)).toBe(
      'search "q": searxng: dropped 5 hits pointing at private or loopback addresses (http://127.0.0.1:8080/admin, http://localhost/x, http://[::1]/ and 2 more); --allow-private-network keeps them',
    );
    const openNotices: SearchNotice[] = [];
    const open = await createSearchProvider({ ...config, allowPrivateNetwork: true }).search('q', {
      onNotice: (notice) => openNotices.push(notice),
    });
    expect(open.map((hit) => hit.title)).toEqual(mixedHits.map((hit) => hit.title));
    expect(openNotices).toEqual([]);
  });

  it('refuses an unknown provider, naming the available ones', () => {
    const config = searchConfigSchema.parse({ provider: 'bing' });
    const error = (() => {
      try {
        createSearchProvider(config);
      } catch (caught) {
        return caught;
      }
    })();
    expect(error).toBeInstanceOf(ConfigError);
    expect(error).toMatchObject({
      code: 'config_unknown_provider',
      message:
        "unknown search provider 'bing' (available: searxng, duckduckgo, brave, serper, tavily, jina, exa, local)",
    });
  });

  it('makes local from the factory the runtime passes, and says what to set without one', async () => {
    const config = searchConfigSchema.parse({ provider: 'local' });
    expect(() => createSearchProvider(config)).toThrow(/local needs a knowledge base: set knowledge.file/);
    const asked: Array<number | undefined> = [];
    const provider = createSearchProvider({
      ...config,
      localSearch: () => ({
        specificationVersion: 'v1',
        id: 'local',
        search: async (_query, options) => {
          asked.push(options?.count);
          return [{ url: 'kb:default/0123456789ab#chunk-0', title: 'Notes', snippet: 'x' }];
        },
      }),
    });
    expect(provider.id).toBe('local');
    expect(await provider.search('notes')).toEqual([
      { url: 'kb:default/0123456789ab#chunk-0', title: 'Notes', snippet: 'x' },
    ]);
    expect(asked).toEqual([config.resultsPerQuery]);
  });

  it('does not take inherited object keys for provider names', () => {
    expect(() => createSearchProvider(searchConfigSchema.parse({ provider: 'toString' }))).toThrow(
      /unknown search provider 'toString'/,
    );
  });

  it('passes the injected fetch to the provider', async () => {
    const requested: string[] = [];
    const fetch: typeof globalThis.fetch = async (input) => {
      requested.push(String(input));
      return new Response(JSON.stringify({ results: [] }));
    };
    const config = searchConfigSchema.parse({ searxngUrl: 'http://searx.invalid' });
    await createSearchProvider({ ...config, fetch }).search('q');
    expect(requested).toHaveLength(1);
    expect(requested[0]).toMatch(/^http:\/\/searx\.invalid\/search\?/);
  });
});

describe('createSearchProvider with a fallback chain', () => {
  const closers: FakeHttpServer[] = [];
  afterEach(async () => {
    await Promise.all(closers.splice(0).map((fake) => fake.close()));
  });

  it('falls back from a rate-limited SearXNG to DuckDuckGo and reports the fallback', async () => {
    const searxng = await startFakeSearxng({ results: {}, status: 429 });
    const duckduckgo = await startFakeDuckDuckGo({
      results: (query) => [{ url: `https://ddg.example/${encodeURIComponent(query)}`, title: query }],
    });
    closers.push(searxng, duckduckgo);
    const config = searchConfigSchema.parse({
      provider: 'searxng, duckduckgo',
      searxngUrl: searxng.url,
      baseURLs: { duckduckgo: duckduckgo.url },
      timeoutSeconds: 2,
    });
    const notices: SearchNotice[] = [];
    const search = createSearchProvider(config);
    const hits = await search.search('tides', { onNotice: (notice) => notices.push(notice) });
    expect(search.id).toBe('searxng,duckduckgo');
    expect(hits.map((hit) => hit.url)).toEqual(['https://ddg.example/tides']);
    expect(notices).toEqual([
      expect.objectContaining({
        providerId: 'searxng',
        nextProviderId: 'duckduckgo',
        reason: expect.stringMatching(/HTTP 429/),
      }),
    ]);
    expect(searxng.requests.length).toBeGreaterThanOrEqual(1);
  });

  it('passes each engine its key from search.apiKeys and moves on when hits are all private', async () => {
    const brave = await startFakeSearchApi({
      method: 'GET',
      path: '/res/v1/web/search',
      authorized: (request) => request.headers['x-subscription-token'] === 'brave-secret',
      respond: () => ({ web: { results: [{ url: 'http://192.168.0.1/', title: 'router' }] } }),
    });
    const serper = await startFakeSearchApi({
      method: 'POST',
      path: '/search',
      authorized: (request) => request.headers['x-api-key'] === 'serper-secret',
      respond: () => ({ organic: [{ link: 'https://public.example/', title: 'public' }] }),
    });
    closers.push(brave, serper);
    const config = searchConfigSchema.parse({
      provider: 'brave,serper',
      apiKeys: { brave: 'brave-secret', serper: 'serper-secret' },
      baseURLs: { brave: brave.url, serper: serper.url },
    });
    const hits = await createSearchProvider(config).search('q');
    expect(hits.map((hit) => hit.title)).toEqual(['public']);
    expect(brave.requests).toHaveLength(1);
  });

  it('names the missing key of a keyed engine', async () => {
    const config = searchConfigSchema.parse({ provider: 'tavily' });
    await expect(createSearchProvider(config).search('q')).rejects.toThrow(/set TAVILY_API_KEY/);
  });

  it('reads each key from the variable its error names', () => {
    for (const id of searchKeyProviderIds) {
      const source = settingSources().find((candidate) => candidate.path === `search.apiKeys.${id}`);
      expect(source).toMatchObject({ env: `${id.toUpperCase()}_API_KEY`, secret: true });
    }
  });

  it('refuses an unknown name anywhere in the chain', () => {
    expect(() => createSearchProvider(searchConfigSchema.parse({ provider: 'searxng,bing' }))).toThrow(
      /unknown search provider 'bing'/,
    );
  });
});

describe('createSearchProvider concurrency', () => {
  it('keeps at most providerConcurrency searches of a provider in flight', async () => {
    let inFlight = 0;
    let peak = 0;
    server = await startFakeHttpServer(async (request, response) => {
      inFlight++;
      peak = Math.max(peak, inFlight);
      await new Promise((resolve) => setTimeout(resolve, 30));
      inFlight--;
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ results: [{ url: `https://e.example/${request.query.q}` }] }));
    });
    const config = searchConfigSchema.parse({
      searxngUrl: server.url,
      concurrency: 4,
      providerConcurrency: { searxng: 2 },
    });
    const search = createSearchProvider(config);
    const results = await Promise.all(['a', 'b', 'c', 'd', 'e'].map((query) => search.search(query)));
    expect(results.map((hits) => hits[0]?.url)).toEqual(
      ['a', 'b', 'c', 'd', 'e'].map((q) => `https://e.example/${q}`),
    );
    expect(peak).toBe(2);
    expect(server.requests).toHaveLength(5);
  });
});
