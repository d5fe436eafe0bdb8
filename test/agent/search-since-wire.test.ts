import { afterEach, describe, expect, it } from 'vitest';
import { createBraveSearch } from '../../src/providers/search/brave/brave-search.js';
import { createDuckDuckGoSearch } from '../../src/providers/search/duckduckgo/duckduckgo-search.js';
import { createExaSearch } from '../../src/providers/search/exa/exa-search.js';
import { createJinaSearch } from '../../src/providers/search/jina/jina-search.js';
import { createSearxngSearch } from '../../src/providers/search/searxng/searxng-search.js';
import { createSerperSearch } from '../../src/providers/search/serper/serper-search.js';
import { createTavilySearch } from '../../src/providers/search/tavily/tavily-search.js';
import type { SearchProvider } from '../../src/providers/spec/search-provider.js';
import {
  type FakeHttpServer,
  type RecordedRequest,
  startFakeHttpServer,
} from '../../src/testing/fake-http-server.js';
import { createFakeSearch } from '../../src/testing/fake-search.js';
import { scriptedStep } from '../../src/testing/scripted-steps.js';
import { eventsOf, runAgent } from '../helpers/agent-harness.js';

/** An engine on 127.0.0.1 answering every request with an empty result list in its own format. */
async function engine(body: string, contentType = 'application/json'): Promise<FakeHttpServer> {
  const server = await startFakeHttpServer((_request, response) => {
    response.writeHead(200, { 'content-type': contentType });
    response.end(body);
  });
  servers.push(server);
  return server;
}
const servers: FakeHttpServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

const apiKey = 'test-key';
const day = (offsetDays: number) => new Date(Date.now() - offsetDays * 86_400_000).toISOString().slice(0, 10);

/** One search step of the real loop with search.since set, then the forced answer. */
async function searchSince(since: string, search: SearchProvider) {
  return runAgent('What changed in heat pump sales?', {
    config: { search: { since }, budget: { maxSteps: 2 } },
    searchProvider: search,
    steps: [scriptedStep.search(['heat pump sales']), scriptedStep.finalAnswer('Nothing found.')],
  });
}

const form = (request: RecordedRequest) => Object.fromEntries(new URLSearchParams(request.body));
const json = (request: RecordedRequest) => JSON.parse(request.body) as Record<string, unknown>;

describe('search.since (--since) on each provider’s wire', () => {
  it('SearXNG: time_range, the smallest range covering it', async () => {
    const server = await engine('{"results": []}');
    await searchSince('10d', createSearxngSearch({ baseURL: server.url }));
    expect(server.requests[0]!.query).toMatchObject({ q: 'heat pump sales', time_range: 'month' });
  });

  it('Brave: freshness as a custom range from that day to today', async () => {
    const server = await engine('{"web": {"results": []}}');
    await searchSince('2w', createBraveSearch({ baseURL: server.url, apiKey }));
    expect(server.requests[0]!.query.freshness).toBe(`${day(14)}to${day(0)}`);
  });

  it('Serper: tbs qdr covering it, or a custom range past a year', async () => {
    const server = await engine('{"organic": []}');
    await searchSince('3d', createSerperSearch({ baseURL: server.url, apiKey }));
    expect(json(server.requests[0]!)).toMatchObject({ tbs: 'qdr:w' });
    await searchSince('2020-03-05', createSerperSearch({ baseURL: server.url, apiKey }));
    expect(json(server.requests[1]!)).toMatchObject({ tbs: 'cdr:1,cd_min:3/5/2020' });
  });

  it('Tavily: time_range covering it', async () => {
    const server = await engine('{"results": []}');
    await searchSince('36h', createTavilySearch({ baseURL: server.url, apiKey }));
    expect(json(server.requests[0]!)).toMatchObject({ time_range: 'week' });
  });

  it('DuckDuckGo: df covering it', async () => {
    const server = await engine(
      '<html><body><div class="no-results">No results.</div></body></html>',
      'text/html',
    );
    await searchSince('6m', createDuckDuckGoSearch({ baseURL: server.url }));
    expect(form(server.requests[0]!)).toMatchObject({ q: 'heat pump sales', df: 'y' });
  });

  it('Exa: startPublishedDate, the date itself', async () => {
    const server = await engine('{"results": []}');
    await searchSince('2026-11-01', createExaSearch({ baseURL: server.url, apiKey }));
    expect(json(server.requests[0]!)).toMatchObject({ startPublishedDate: '2026-11-01T00:00:00.000Z' });
  });

  it('Jina has no time filter: the run says so once, however many queries', async () => {
    const server = await engine('{"data": []}');
    const { events } = await runAgent('What changed in heat pump sales?', {
      config: { search: { since: '30d' }, budget: { maxSteps: 2 } },
      searchProvider: createJinaSearch({ baseURL: server.url, apiKey }),
      steps: [
        scriptedStep.search(['heat pump sales', 'heat pump market 2026']),
        scriptedStep.finalAnswer('x'),
      ],
    });
    expect(server.requests).toHaveLength(2);
    const told = eventsOf(events, 'warning').filter((event) => event.message.includes('no time filter'));
    expect(told.map((event) => event.message)).toEqual([
      'jina has no time filter: its results are not limited to --since (older pages are ranked down)',
    ]);
  });

  it('sends no time filter without --since', async () => {
    const server = await engine('{"results": []}');
    await runAgent('q', {
      config: { budget: { maxSteps: 2 } },
      searchProvider: createSearxngSearch({ baseURL: server.url }),
      steps: [scriptedStep.search(['heat pump sales']), scriptedStep.finalAnswer('x')],
    });
    expect(server.requests[0]!.query.time_range).toBeUndefined();
  });
});

describe('pages dated before --since', () => {
  it('rank lower and are said to be older in the agent prompt', async () => {
    const old = 'https://archive.example/heat-pumps-2019';
    const recent = 'https://news.example/heat-pumps-2026';
    const { events, llm } = await runAgent('What changed in heat pump sales?', {
      config: { search: { since: '2026-11-01' }, budget: { maxSteps: 3 } },
      searchProvider: createFakeSearch({
        'heat pump sales': [
          {
            url: old,
            title: 'Heat pump sales',
            snippet: 'heat pump sales',
            publishedAt: '2019-05-02T00:00:00Z',
          },
          {
            url: recent,
            title: 'Heat pump sales',
            snippet: 'heat pump sales',
            publishedAt: '2026-11-20T00:00:00Z',
          },
        ],
      }),
      pages: {
        [recent]:
          '<html><head><title>Heat pumps</title></head><body><article><p>Heat pump sales fell by a tenth in 2026, the association said.</p></article></body></html>',
      },
      steps: [
        scriptedStep.search(['heat pump sales']),
        {
          ...scriptedStep.visit([recent]),
          expect: { promptIncludes: `${old} (dated 2019-05-02: older than the time asked for)` },
        },
        scriptedStep.finalAnswer('x'),
      ],
    });
    llm.assertConsumed();
    const ranking = eventsOf(events, 'url-ranking')[0]!;
    expect(ranking.urls.map((entry) => entry.url)).toEqual([recent, old]);
    expect(ranking.urls[1]!.reasons.penalty).toBe(0.5);
  });
});
