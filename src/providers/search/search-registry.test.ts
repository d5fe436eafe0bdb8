import { afterEach, describe, expect, it } from 'vitest';
import { searchConfigSchema } from '../../config/config-schema.js';
import { ConfigError } from '../../errors/index.js';
import type { FakeHttpServer } from '../../testing/fake-http-server.js';
import { startFakeSearxng } from '../../testing/fake-searxng-server.js';
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
    const guarded = await createSearchProvider(config).search('q');
    expect(guarded.map((hit) => hit.title)).toEqual(['public', 'public literal']);
    const open = await createSearchProvider({ ...config, allowPrivateNetwork: true }).search('q');
    expect(open.map((hit) => hit.title)).toEqual(mixedHits.map((hit) => hit.title));
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
      message: "unknown search provider 'bing' (available: searxng)",
    });
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
