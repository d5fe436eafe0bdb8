import { describe, expect, it } from 'vitest';
import { startFakeSearchApi } from '../../../../test/helpers/fake-search-api.js';
import { trackServers } from '../../../../test/helpers/llm-wire-contract.js';
import { describeSearchWireContract } from '../../../../test/helpers/search-wire-contract.js';
import type { FakeHttpServer } from '../../../testing/fake-http-server.js';
import { createBraveSearch } from './brave-search.js';

const key = 'brave-key-1';
const track = trackServers();

async function fakeBrave(results: unknown[] | undefined): Promise<FakeHttpServer> {
  return track(
    await startFakeSearchApi({
      method: 'GET',
      path: '/res/v1/web/search',
      authorized: (request) => request.headers['x-subscription-token'] === key,
      respond: (request) => ({
        type: 'search',
        query: { original: request.query.q },
        ...(results ? { web: { type: 'search', results } } : {}),
      }),
    }),
  );
}

describe('createBraveSearch', () => {
  it('sends GET /res/v1/web/search with the key in X-Subscription-Token and maps the results', async () => {
    const fake = await fakeBrave([
      {
        title: 'The <strong>Rust</strong> book',
        url: 'https://doc.rust-lang.org/book/',
        description: 'Learn <strong>Rust</strong> async.',
        page_age: '2024-03-01T10:00:00',
        age: 'March 1, 2024',
      },
      { title: 'no url' },
    ]);
    const hits = await createBraveSearch({ apiKey: key, baseURL: fake.url }).search('rust async');
    expect(hits).toEqual([
      {
        url: 'https://doc.rust-lang.org/book/',
        title: 'The Rust book',
        snippet: 'Learn Rust async.',
        publishedAt: '2024-03-01T10:00:00.000Z',
      },
    ]);
    const request = fake.requests[0]!;
    expect(request.headers.accept).toBe('application/json');
    expect(request.query).toEqual({ q: 'rust async', count: '10' });
  });

  it('maps count (at most 20), freshness, language, region and site', async () => {
    const fake = await fakeBrave([]);
    const search = createBraveSearch({ apiKey: key, baseURL: fake.url });
    await search.search('news', {
      count: 50,
      timeRange: 'week',
      language: 'fr',
      region: 'be',
      site: 'lesoir.be',
    });
    await search.search('news', { count: 3, timeRange: 'hour', language: 'pt-BR' });
    expect(fake.requests[0]?.query).toEqual({
      q: 'site:lesoir.be news',
      count: '20',
      freshness: 'pw',
      search_lang: 'fr',
      country: 'BE',
    });
    expect(fake.requests[1]?.query).toEqual({
      q: 'news',
      count: '3',
      freshness: 'pd',
      search_lang: 'pt',
      country: 'BR',
    });
  });

  it('gives no hits when Brave leaves out the web section', async () => {
    const fake = await fakeBrave(undefined);
    expect(await createBraveSearch({ apiKey: key, baseURL: fake.url }).search('zzzz')).toEqual([]);
  });

  it('is refused by the fake with a wrong key, as Brave would', async () => {
    const fake = await fakeBrave([]);
    await expect(createBraveSearch({ apiKey: 'wrong', baseURL: fake.url }).search('q')).rejects.toThrow(
      /HTTP 401.*check BRAVE_API_KEY/,
    );
  });
});

describe('createBraveSearch wire contract', () => {
  describeSearchWireContract({
    create: (settings) => createBraveSearch(settings),
    keyVariable: 'BRAVE_API_KEY',
    oneResultBody: JSON.stringify({ web: { results: [{ url: 'https://example.com/one', title: 'One' }] } }),
    malformedBodies: {
      'a body that is not JSON': '<html>maintenance</html>',
      'results that are not a list': JSON.stringify({ web: { results: 'none' } }),
    },
  });
});
