import { describe, expect, it } from 'vitest';
import { startFakeSearchApi } from '../../../../test/helpers/fake-search-api.js';
import { trackServers } from '../../../../test/helpers/llm-wire-contract.js';
import { describeSearchWireContract } from '../../../../test/helpers/search-wire-contract.js';
import type { FakeHttpServer } from '../../../testing/fake-http-server.js';
import { createJinaSearch } from './jina-search.js';

const key = 'jina_test_1';
const track = trackServers();

async function fakeJina(data: unknown[] | null): Promise<FakeHttpServer> {
  return track(
    await startFakeSearchApi({
      method: 'GET',
      path: '/',
      authorized: (request) => request.headers.authorization === `Bearer ${key}`,
      respond: () => ({ code: 200, status: 20000, data, meta: { usage: { tokens: 100 } } }),
    }),
  );
}

describe('createJinaSearch', () => {
  it('sends GET /?q= with a Bearer key, JSON accept and no page content, and maps data', async () => {
    const fake = await fakeJina([
      {
        title: 'Jina AI',
        url: 'https://jina.ai/',
        description: 'Search foundation',
        date: 'Jan 9, 2025',
        usage: { tokens: 10 },
      },
      { title: 'bad', url: 'javascript:alert(1)', description: '' },
    ]);
    const hits = await createJinaSearch({ apiKey: key, baseURL: fake.url }).search('jina reader');
    expect(hits).toEqual([
      {
        url: 'https://jina.ai/',
        title: 'Jina AI',
        snippet: 'Search foundation',
        publishedAt: expect.stringMatching(/^2025-01-0[89]T/),
      },
    ]);
    const request = fake.requests[0]!;
    expect(request.query).toEqual({ q: 'jina reader', num: '10' });
    expect(request.headers.accept).toBe('application/json');
    expect(request.headers['x-respond-with']).toBe('no-content');
    expect(request.headers).not.toHaveProperty('x-site');
  });

  it('puts the site in X-Site and the locale in gl and hl', async () => {
    const fake = await fakeJina([]);
    await createJinaSearch({ apiKey: key, baseURL: fake.url }).search('docs', {
      count: 5,
      site: 'developer.mozilla.org',
      language: 'es',
      region: 'MX',
    });
    const request = fake.requests[0]!;
    expect(request.query).toEqual({ q: 'docs', num: '5', gl: 'mx', hl: 'es' });
    expect(request.headers['x-site']).toBe('developer.mozilla.org');
  });

  it('gives no hits when data is null', async () => {
    const fake = await fakeJina(null);
    expect(await createJinaSearch({ apiKey: key, baseURL: fake.url }).search('q')).toEqual([]);
  });
});

describe('createJinaSearch wire contract', () => {
  describeSearchWireContract({
    create: (settings) => createJinaSearch(settings),
    keyVariable: 'JINA_API_KEY',
    oneResultBody: JSON.stringify({ code: 200, data: [{ url: 'https://example.com/one', title: 'One' }] }),
    malformedBodies: {
      'a body that is not JSON': 'Title: One\nURL Source: https://example.com/one',
      'data that is not a list': JSON.stringify({ code: 200, data: 'x' }),
    },
  });
});
