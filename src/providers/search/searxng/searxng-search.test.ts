import { afterEach, describe, expect, it } from 'vitest';
import { startFakeSearxng } from '../../../../test/helpers/fake-searxng-server.js';
import { AbortedError, AuthenticationError, ConfigError, ProviderError } from '../../../core/errors/index.js';
import { type FakeHttpServer, startFakeHttpServer } from '../../../testing/fake-http-server.js';
import { createSearxngSearch } from './searxng-search.js';

let server: FakeHttpServer | undefined;

afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function fakeSearxng(...args: Parameters<typeof startFakeSearxng>): Promise<FakeHttpServer> {
  server = await startFakeSearxng(...args);
  return server;
}

async function fakeServer(...args: Parameters<typeof startFakeHttpServer>): Promise<FakeHttpServer> {
  server = await startFakeHttpServer(...args);
  return server;
}

describe('createSearxngSearch', () => {
  it('sends GET /search with the query, JSON format, first page and safesearch off', async () => {
    const fake = await fakeSearxng({
      results: { 'rust async': [{ url: 'https://example.com/a', title: 'A', content: 'about a' }] },
    });
    const hits = await createSearxngSearch({ baseURL: fake.url }).search('rust async');
    expect(hits).toEqual([{ url: 'https://example.com/a', title: 'A', snippet: 'about a' }]);
    expect(fake.requests).toHaveLength(1);
    const request = fake.requests[0]!;
    expect(request.method).toBe('GET');
    expect(request.path).toBe('/search');
    expect(request.query).toEqual({ q: 'rust async', format: 'json', pageno: '1', safesearch: '0' });
    expect(request.headers.accept).toBe('application/json');
  });

  it('keeps a path prefix of the base URL and ignores a trailing slash', async () => {
    const fake = await fakeServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ results: [{ url: 'https://example.com/', title: 'x' }] }));
    });
    await createSearxngSearch({ baseURL: `${fake.url}/searxng/` }).search('q');
    expect(fake.requests[0]?.path).toBe('/searxng/search');
  });

  it('maps time range, language, region and site to SearXNG parameters', async () => {
    const fake = await fakeSearxng({ results: {} });
    const search = createSearxngSearch({ baseURL: fake.url });
    await search.search('election results', {
      timeRange: 'week',
      language: 'fr',
      region: 'be',
      site: 'lesoir.be',
    });
    await search.search('breaking news', { timeRange: 'hour', language: 'de-AT', region: 'ch' });
    expect(fake.requests[0]?.query).toMatchObject({
      q: 'site:lesoir.be election results',
      time_range: 'week',
      language: 'fr-BE',
    });
    // SearXNG has no 'hour' range; a tag that already names a region keeps it.
    expect(fake.requests[1]?.query).toMatchObject({
      q: 'breaking news',
      time_range: 'day',
      language: 'de-AT',
    });
  });

  it('leaves out time_range and language when not asked for', async () => {
    const fake = await fakeSearxng({ results: {} });
    await createSearxngSearch({ baseURL: fake.url }).search('q');
    expect(fake.requests[0]?.query).not.toHaveProperty('time_range');
    expect(fake.requests[0]?.query).not.toHaveProperty('language');
  });

  it('tolerates missing and null fields, drops results without a usable URL, reads dates as UTC', async () => {
    const fake = await fakeSearxng({
      results: {
        q: [
          {
            url: 'https://a.example/',
            title: '  Title A ',
            content: ' snippet ',
            publishedDate: '2024-05-01T12:00:00',
          },
          { title: 'no url' },
          { url: 'not a url', title: 'bad url' },
          { url: 'https://b.example/', publishedDate: null },
          { url: 'https://c.example/', title: 'C', publishedDate: 'sometime' },
        ],
      },
    });
    const hits = await createSearxngSearch({ baseURL: fake.url }).search('q');
    expect(hits).toEqual([
      {
        url: 'https://a.example/',
        title: 'Title A',
        snippet: 'snippet',
        publishedAt: '2024-05-01T12:00:00.000Z',
      },
      { url: 'https://b.example/', title: '', snippet: '' },
      { url: 'https://c.example/', title: 'C', snippet: '' },
    ]);
  });

  it('returns at most count hits, 10 by default', async () => {
    const many = Array.from({ length: 25 }, (_, index) => ({
      url: `https://example.com/${index}`,
      title: `${index}`,
    }));
    const fake = await fakeSearxng({ results: () => many });
    const search = createSearxngSearch({ baseURL: fake.url });
    expect(await search.search('q', { count: 3 })).toHaveLength(3);
    expect((await search.search('q')).map((hit) => hit.url)).toEqual(many.slice(0, 10).map((hit) => hit.url));
  });

  it('asks for DEEPSEARCH_SEARXNG_URL when no base URL is set, at search time only', async () => {
    const search = createSearxngSearch({});
    expect(search.id).toBe('searxng');
    const error = await search.search('q').catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).message).toMatch(/DEEPSEARCH_SEARXNG_URL/);
  });

  it('explains a 403 as the JSON format being disabled, without retrying', async () => {
    const fake = await fakeSearxng({ results: {}, status: 403 });
    const error = await createSearxngSearch({ baseURL: fake.url })
      .search('q')
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(AuthenticationError);
    expect(error).toMatchObject({ statusCode: 403, providerId: 'searxng', isRetryable: false });
    expect((error as Error).message).toMatch(/enable `json` in search\.formats of settings\.yml/);
    expect(fake.requests).toHaveLength(1);
  });

  it('fails on 401 at once with an authentication error', async () => {
    const fake = await fakeSearxng({ results: {}, status: 401 });
    const error = await createSearxngSearch({ baseURL: fake.url, maxRetries: 3 })
      .search('q')
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(AuthenticationError);
    expect(error).toMatchObject({ statusCode: 401 });
    expect(fake.requests).toHaveLength(1);
  });

  it('retries a 429 after the server-given Retry-After, then succeeds', async () => {
    let calls = 0;
    const fake = await fakeServer((request, response) => {
      calls++;
      if (calls === 1) {
        response.writeHead(429, { 'retry-after': '0', 'content-type': 'text/plain' });
        response.end('Too Many Requests');
        return;
      }
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ results: [{ url: 'https://example.com/', title: request.query.q }] }));
    });
    const hits = await createSearxngSearch({ baseURL: fake.url, maxRetries: 1 }).search('again');
    expect(hits).toEqual([{ url: 'https://example.com/', title: 'again', snippet: '' }]);
    expect(fake.requests).toHaveLength(2);
    expect(fake.requests[1]?.query.q).toBe('again');
  });

  it('gives up on a 500 after maxRetries retries, with a retryable error', async () => {
    const fake = await fakeServer((_request, response) => {
      response.writeHead(500, { 'retry-after': '0', 'content-type': 'text/plain' });
      response.end('engine exploded');
    });
    const error = await createSearxngSearch({ baseURL: fake.url, maxRetries: 2 })
      .search('q')
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ProviderError);
    expect(error).toMatchObject({ statusCode: 500, isRetryable: true, code: 'provider_http_error' });
    expect((error as Error).message).toMatch(/HTTP 500: engine exploded/);
    expect(fake.requests).toHaveLength(3);
  });

  it('times out on a server that never answers', async () => {
    const fake = await fakeServer(() => {});
    const error = await createSearxngSearch({ baseURL: fake.url, timeoutMs: 200, maxRetries: 0 })
      .search('q')
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ProviderError);
    expect(error).toMatchObject({ code: 'provider_timeout', isRetryable: true });
  });

  it('stops when the caller aborts', async () => {
    const fake = await fakeServer(() => {});
    const controller = new AbortController();
    const pending = createSearxngSearch({ baseURL: fake.url, timeoutMs: 5000 }).search('q', {
      signal: controller.signal,
    });
    setTimeout(() => controller.abort(), 50);
    await expect(pending).rejects.toBeInstanceOf(AbortedError);
  });

  it.each([
    ['a body that is not JSON', '<html>oops</html>', /not JSON/],
    ['JSON without results', JSON.stringify({ query: 'q' }), /unexpected response shape \(results/],
    ['results that are not objects', JSON.stringify({ results: ['x'] }), /unexpected response shape/],
  ])('reports %s as a bad response', async (_name, body, message) => {
    const fake = await fakeServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(body);
    });
    const error = await createSearxngSearch({ baseURL: fake.url })
      .search('q')
      .catch((caught: unknown) => caught);
    expect(error).toMatchObject({ code: 'provider_bad_response', isRetryable: false });
    expect((error as Error).message).toMatch(message);
    expect(fake.requests).toHaveLength(1);
  });

  it('uses the injected fetch', async () => {
    const urls: string[] = [];
    const fetch: typeof globalThis.fetch = async (input) => {
      urls.push(String(input));
      return new Response(JSON.stringify({ results: [{ url: 'https://injected.example/' }] }));
    };
    const hits = await createSearxngSearch({ baseURL: 'http://searx.invalid', fetch }).search('q');
    expect(hits.map((hit) => hit.url)).toEqual(['https://injected.example/']);
    expect(urls).toEqual(['http://searx.invalid/search?q=q&format=json&pageno=1&safesearch=0']);
  });
});
