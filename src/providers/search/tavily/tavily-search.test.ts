import { describe, expect, it } from 'vitest';
import { jsonBody, startFakeSearchApi } from '../../../../test/helpers/fake-search-api.js';
import { trackServers } from '../../../../test/helpers/llm-wire-contract.js';
import { describeSearchWireContract } from '../../../../test/helpers/search-wire-contract.js';
import type { FakeHttpServer } from '../../../testing/fake-http-server.js';
import { createTavilySearch } from './tavily-search.js';

const key = 'tvly-test-1';
const track = trackServers();

async function fakeTavily(results: unknown[]): Promise<FakeHttpServer> {
  return track(
    await startFakeSearchApi({
      method: 'POST',
      path: '/search',
      authorized: (request) => request.headers.authorization === `Bearer ${key}`,
      respond: (request) => ({
        query: jsonBody(request).query,
        answer: null,
        images: [],
        results,
        response_time: 0.4,
      }),
    }),
  );
}

describe('createTavilySearch', () => {
  it('sends POST /search with a Bearer key and maps results, keeping published_date', async () => {
    const fake = await fakeTavily([
      { title: 'Tavily', url: 'https://tavily.com/', content: 'Search API for agents', score: 0.9 },
      {
        title: 'News',
        url: 'https://news.example/a',
        content: 'c',
        score: 0.5,
        published_date: 'Tue, 05 Mar 2024 10:00:00 GMT',
      },
    ]);
    const hits = await createTavilySearch({ apiKey: key, baseURL: fake.url }).search('tavily', { count: 4 });
    expect(hits).toEqual([
      { url: 'https://tavily.com/', title: 'Tavily', snippet: 'Search API for agents' },
      { url: 'https://news.example/a', title: 'News', snippet: 'c', publishedAt: '2024-03-05T10:00:00.000Z' },
    ]);
    expect(jsonBody(fake.requests[0]!)).toEqual({
      query: 'tavily',
      search_depth: 'basic',
      topic: 'general',
      max_results: 4,
    });
  });

  it('maps time range, caps the count at 20 and restricts the site with include_domains', async () => {
    const fake = await fakeTavily([]);
    await createTavilySearch({ apiKey: key, baseURL: fake.url }).search('release', {
      count: 30,
      timeRange: 'hour',
      site: 'nodejs.org',
    });
    expect(jsonBody(fake.requests[0]!)).toMatchObject({
      query: 'release',
      max_results: 20,
      time_range: 'day',
      include_domains: ['nodejs.org'],
    });
  });
});

describe('createTavilySearch wire contract', () => {
  describeSearchWireContract({
    create: (settings) => createTavilySearch(settings),
    keyVariable: 'TAVILY_API_KEY',
    oneResultBody: JSON.stringify({
      results: [{ url: 'https://example.com/one', title: 'One', content: '' }],
    }),
    malformedBodies: {
      'a body that is not JSON': '<h1>502</h1>',
      'an answer without results': JSON.stringify({ query: 'q', detail: 'something' }),
    },
  });
});
