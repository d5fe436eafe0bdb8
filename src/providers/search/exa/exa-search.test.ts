import { describe, expect, it } from 'vitest';
import { jsonBody, startFakeSearchApi } from '../../../../test/helpers/fake-search-api.js';
import { trackServers } from '../../../../test/helpers/llm-wire-contract.js';
import { describeSearchWireContract } from '../../../../test/helpers/search-wire-contract.js';
import type { FakeHttpServer } from '../../../testing/fake-http-server.js';
import { createExaSearch } from './exa-search.js';

const key = 'exa-key-1';
const now = () => new Date('2025-06-15T12:00:00.000Z');
const track = trackServers();

async function fakeExa(results: unknown[]): Promise<FakeHttpServer> {
  return track(
    await startFakeSearchApi({
      method: 'POST',
      path: '/search',
      authorized: (request) => request.headers['x-api-key'] === key,
      respond: () => ({
        requestId: 'r1',
        resolvedSearchType: 'neural',
        results,
        costDollars: { total: 0.005 },
      }),
    }),
  );
}

describe('createExaSearch', () => {
  it('sends POST /search with the key in x-api-key, asks for highlights and maps them to snippets', async () => {
    const fake = await fakeExa([
      {
        id: 'https://exa.ai/',
        url: 'https://exa.ai/',
        title: 'Exa',
        publishedDate: '2024-11-02T00:00:00.000Z',
        author: null,
        highlights: ['Exa is a search engine', 'made for AIs'],
        highlightScores: [0.4, 0.3],
      },
      { id: 'b', url: 'https://b.example/', title: 'B', text: 'full text of b' },
    ]);
    const hits = await createExaSearch({ apiKey: key, baseURL: fake.url, now }).search('what is exa', {
      count: 2,
    });
    expect(hits).toEqual([
      {
        url: 'https://exa.ai/',
        title: 'Exa',
        snippet: 'Exa is a search engine … made for AIs',
        publishedAt: '2024-11-02T00:00:00.000Z',
      },
      { url: 'https://b.example/', title: 'B', snippet: 'full text of b' },
    ]);
    expect(jsonBody(fake.requests[0]!)).toEqual({
      query: 'what is exa',
      type: 'auto',
      numResults: 2,
      contents: { highlights: true },
    });
  });

  it('turns a time range into startPublishedDate and maps site and region', async () => {
    const fake = await fakeExa([]);
    await createExaSearch({ apiKey: key, baseURL: fake.url, now }).search('launch', {
      timeRange: 'week',
      site: 'spacex.com',
      region: 'us',
    });
    expect(jsonBody(fake.requests[0]!)).toMatchObject({
      startPublishedDate: '2025-06-08T12:00:00.000Z',
      includeDomains: ['spacex.com'],
      userLocation: 'US',
    });
  });
});

describe('createExaSearch wire contract', () => {
  describeSearchWireContract({
    create: (settings) => createExaSearch(settings),
    keyVariable: 'EXA_API_KEY',
    oneResultBody: JSON.stringify({ results: [{ url: 'https://example.com/one', title: 'One' }] }),
    malformedBodies: {
      'a body that is not JSON': 'upstream error',
      'an answer without results': JSON.stringify({ error: 'x' }),
    },
  });
});
