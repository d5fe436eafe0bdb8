import { afterEach, describe, expect, it } from 'vitest';
import { startFakeDuckDuckGo } from '../../../../test/helpers/fake-duckduckgo-server.js';
import { describeSearchWireContract } from '../../../../test/helpers/search-wire-contract.js';
import type { FakeHttpServer } from '../../../testing/fake-http-server.js';
import { createDuckDuckGoSearch } from './duckduckgo-search.js';
import { decodeResultLink, parseDuckDuckGoHtml } from './parse-duckduckgo-html.js';

let server: FakeHttpServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const results = [
  { url: 'https://shop.example/buy?x=1', title: 'Buy <b>rust</b> now', snippet: 'Sponsored', ad: true },
  {
    url: 'https://www.rust-lang.org/learn?lang=en&v=2',
    title: 'Learn <b>Rust</b>',
    snippet: 'Get started with <b>Rust</b> &amp; Cargo.',
    date: '2024-01-15T00:00:00.0000000',
  },
  {
    url: 'https://doc.rust-lang.org/book/',
    title: 'The Rust Programming Language',
    snippet: 'by Steve Klabnik',
  },
];

describe('createDuckDuckGoSearch', () => {
  it('posts the form to /html/ like a browser and returns organic results with decoded links, ads skipped', async () => {
    server = await startFakeDuckDuckGo({ results: (query) => (query === 'rust' ? results : []) });
    const hits = await createDuckDuckGoSearch({ baseURL: server.url }).search('rust');
    expect(hits).toEqual([
      {
        url: 'https://www.rust-lang.org/learn?lang=en&v=2',
        title: 'Learn Rust',
        snippet: 'Get started with Rust & Cargo.',
        publishedAt: '2024-01-15T00:00:00.000Z',
      },
      {
        url: 'https://doc.rust-lang.org/book/',
        title: 'The Rust Programming Language',
        snippet: 'by Steve Klabnik',
      },
    ]);
    const request = server.requests[0]!;
    expect(request.headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(request.headers['user-agent']).toMatch(/Mozilla\/5\.0/);
    expect(Object.fromEntries(new URLSearchParams(request.body))).toEqual({ q: 'rust', b: '' });
  });

  it('maps site, region with language, and time range to q, kl and df', async () => {
    server = await startFakeDuckDuckGo({ results: () => [] });
    await createDuckDuckGoSearch({ baseURL: server.url }).search('élections', {
      site: 'lesoir.be',
      region: 'BE',
      language: 'fr',
      timeRange: 'hour',
    });
    expect(Object.fromEntries(new URLSearchParams(server.requests[0]!.body))).toEqual({
      q: 'site:lesoir.be élections',
      b: '',
      kl: 'be-fr',
      df: 'd',
    });
  });

  it('returns no hits for the "No results." page', async () => {
    server = await startFakeDuckDuckGo({ results: () => [] });
    expect(await createDuckDuckGoSearch({ baseURL: server.url }).search('zzqxv')).toEqual([]);
  });

  it('reports the robot check as a rate limit the fallback chain can move past, without retrying', async () => {
    server = await startFakeDuckDuckGo({ results: () => results, challenge: true });
    const error = await createDuckDuckGoSearch({ baseURL: server.url, maxRetries: 2 })
      .search('rust')
      .catch((caught: unknown) => caught);
    expect(error).toMatchObject({
      code: 'provider_rate_limited',
      providerId: 'duckduckgo',
      isRetryable: false,
    });
    expect(server.requests).toHaveLength(1);
  });

  it('respects count', async () => {
    const many = Array.from({ length: 12 }, (_, index) => ({
      url: `https://e.example/${index}`,
      title: `${index}`,
    }));
    server = await startFakeDuckDuckGo({ results: () => many });
    expect(await createDuckDuckGoSearch({ baseURL: server.url }).search('q', { count: 4 })).toHaveLength(4);
  });
});

describe('parseDuckDuckGoHtml', () => {
  it('decodes redirect links and keeps direct ones, refusing ad and internal links', () => {
    expect(decodeResultLink('//duckduckgo.com/l/?uddg=https%3A%2F%2Fa.example%2Fp%3Fq%3D1&rut=x')).toBe(
      'https://a.example/p?q=1',
    );
    expect(decodeResultLink('https://b.example/')).toBe('https://b.example/');
    expect(decodeResultLink('https://duckduckgo.com/y.js?ad_domain=x')).toBeUndefined();
    expect(decodeResultLink('/html/?q=next')).toBeUndefined();
    expect(decodeResultLink(undefined)).toBeUndefined();
  });

  it('does not take an unrelated page for an empty result list', () => {
    const page = parseDuckDuckGoHtml('<html><body><p>Service unavailable</p></body></html>');
    expect(page).toEqual({ hits: [], blocked: false, recognised: false });
  });
});

describe('createDuckDuckGoSearch wire contract', () => {
  describeSearchWireContract({
    create: (settings) => createDuckDuckGoSearch(settings),
    oneResultBody: `<div id="links" class="results"><div class="result"><a class="result__a" href="//duckduckgo.com/l/?uddg=${encodeURIComponent('https://example.com/one')}">One</a></div></div>`,
    malformedBodies: { 'a page without a results list': '<html><body><h1>Oops</h1></body></html>' },
  });
});
