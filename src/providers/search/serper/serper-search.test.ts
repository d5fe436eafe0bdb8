import { describe, expect, it } from 'vitest';
import { jsonBody, startFakeSearchApi } from '../../../../test/helpers/fake-search-api.js';
import { trackServers } from '../../../../test/helpers/llm-wire-contract.js';
import { describeSearchWireContract } from '../../../../test/helpers/search-wire-contract.js';
import type { FakeHttpServer } from '../../../testing/fake-http-server.js';
import { createSerperSearch } from './serper-search.js';

const key = 'serper-key-1';
const track = trackServers();

async function fakeSerper(organic: unknown[] | undefined): Promise<FakeHttpServer> {
  return track(
    await startFakeSearchApi({
      method: 'POST',
      path: '/search',
      authorized: (request) => request.headers['x-api-key'] === key,
      respond: (request) => ({
        searchParameters: { ...jsonBody(request), type: 'search', engine: 'google' },
        ...(organic ? { organic } : {}),
        credits: 1,
      }),
    }),
  );
}

describe('createSerperSearch', () => {
  it('sends POST /search with a JSON body and the key in X-API-KEY, and maps organic results', async () => {
    const fake = await fakeSerper([
      { title: 'Apple', link: 'https://apple.com/', snippet: 'Discover the innovative world', position: 1 },
      { title: 'Dated', link: 'https://news.example/x', snippet: 's', date: 'Mar 4, 2024', position: 2 },
      { title: 'no link', position: 3 },
    ]);
    const hits = await createSerperSearch({ apiKey: key, baseURL: fake.url }).search('apple inc', {
      count: 5,
    });
    expect(hits).toEqual([
      { url: 'https://apple.com/', title: 'Apple', snippet: 'Discover the innovative world' },
      {
        url: 'https://news.example/x',
        title: 'Dated',
        snippet: 's',
        publishedAt: expect.stringMatching(/^2024-03-0[34]T/),
      },
    ]);
    const request = fake.requests[0]!;
    expect(request.headers['content-type']).toBe('application/json');
    expect(jsonBody(request)).toEqual({ q: 'apple inc', num: 5 });
  });

  it('maps time range to tbs, language to hl, region to gl, and site to the query', async () => {
    const fake = await fakeSerper([]);
    await createSerperSearch({ apiKey: key, baseURL: fake.url }).search('wahl', {
      timeRange: 'hour',
      language: 'de-AT',
      site: 'orf.at',
    });
    expect(jsonBody(fake.requests[0]!)).toEqual({
      q: 'site:orf.at wahl',
      num: 10,
      gl: 'at',
      hl: 'de',
      tbs: 'qdr:h',
    });
  });

  it('gives no hits when organic is missing', async () => {
    const fake = await fakeSerper(undefined);
    expect(await createSerperSearch({ apiKey: key, baseURL: fake.url }).search('q')).toEqual([]);
  });
});

describe('createSerperSearch wire contract', () => {
  describeSearchWireContract({
    create: (settings) => createSerperSearch(settings),
    keyVariable: 'SERPER_API_KEY',
    oneResultBody: JSON.stringify({ organic: [{ link: 'https://example.com/one', title: 'One' }] }),
    malformedBodies: {
      'a body that is not JSON': 'Bad Gateway',
      'organic results that are not objects': JSON.stringify({ organic: ['x'] }),
    },
  });
});
