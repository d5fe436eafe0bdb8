import { describe, expect, it } from 'vitest';
import { AuthenticationError, ProviderError } from '../../src/core/errors/index.js';
import { createFallbackSearch } from '../../src/providers/search/fallback-search.js';
import { createSearchProvider } from '../../src/providers/search/search-registry.js';
import type { SearchProvider } from '../../src/providers/spec/search-provider.js';
import { createFakeSearch } from '../../src/testing/fake-search.js';
import { scriptedStep } from '../../src/testing/scripted-steps.js';
import { createTestConfig } from '../../src/testing/test-config.js';
import { eventsOf, oscarsPage, parasiteHits, runAgent } from '../helpers/agent-harness.js';
import { startFakeSearxng } from '../helpers/fake-searxng-server.js';

const question = 'Which film won Best Picture in 2019?';
const oscarsUrl = 'https://en.wikipedia.org/wiki/91st_Academy_Awards';

function failing(id: string, error: Error): SearchProvider {
  return {
    specificationVersion: 'v1',
    id,
    search: async () => {
      throw error;
    },
  };
}

const rateLimited = new ProviderError('searxng answered HTTP 429', {
  providerId: 'searxng',
  statusCode: 429,
  code: 'provider_rate_limited',
});

describe('the search step with a fallback chain', () => {
  it('turns a fallback into a warning event and uses the hits of the next provider', async () => {
    const backup = createFakeSearch({ 'Best Picture 2019': [parasiteHits[1]!] });
    const { result, events, llm } = await runAgent(question, {
      searchProvider: createFallbackSearch([failing('searxng', rateLimited), backup]),
      pages: { [oscarsUrl]: oscarsPage },
      steps: [
        scriptedStep.search(['Best Picture 2019']),
        scriptedStep.visit([oscarsUrl]),
        scriptedStep.answer('Green Book[^1].', [
          { url: oscarsUrl, quote: 'Green Book won Best Picture. The film was directed by Peter Farrelly.' },
        ]),
        scriptedStep.criteria({}),
        scriptedStep.evaluation('definitive', true),
      ],
    });
    llm.assertConsumed();
    expect(eventsOf(events, 'warning').map((event) => event.message)).toEqual([
      'search "Best Picture 2019": searxng passed over (searxng answered HTTP 429); trying fake',
    ]);
    expect(eventsOf(events, 'search-end')[0]).toMatchObject({ hits: 1, failures: [] });
    expect(backup.calls.map((call) => call.query)).toEqual(['Best Picture 2019']);
    expect(result.references[0]?.url).toBe(oscarsUrl);
  });

  it('ends the run with the rejected key when no provider of the chain could search', async () => {
    const badKey = new AuthenticationError('brave rejected the request with HTTP 401: check BRAVE_API_KEY', {
      providerId: 'brave',
      statusCode: 401,
    });
    const chain = createFallbackSearch([failing('brave', badKey), failing('searxng', rateLimited)]);
    const error = await runAgent(question, {
      searchProvider: chain,
      steps: [scriptedStep.search(['x'])],
    }).catch((caught: unknown) => caught);
    expect(error).toBe(badKey);
  });
});

describe('the search step with hits on private addresses', () => {
  it('says which hits were dropped instead of letting them vanish', async () => {
    const searxng = await startFakeSearxng({
      results: () => [
        { url: 'http://192.168.1.10/wiki/Oscars', title: 'Intranet wiki', content: 'Oscars' },
        { url: oscarsUrl, title: '91st Academy Awards', content: 'Green Book won Best Picture.' },
      ],
    });
    try {
      const config = createTestConfig({ search: { searxngUrl: searxng.url } });
      const { events, llm } = await runAgent(question, {
        searchProvider: createSearchProvider({ ...config.search, provider: 'searxng' }),
        config: { budget: { maxSteps: 2 } },
        steps: [scriptedStep.search(['Best Picture 2019']), scriptedStep.finalAnswer('Green Book.')],
      });
      llm.assertConsumed();
      expect(eventsOf(events, 'warning').map((event) => event.message)).toEqual([
        'search "Best Picture 2019": searxng: dropped 1 hit pointing at private or loopback addresses (http://192.168.1.10/wiki/Oscars); --allow-private-network keeps them',
      ]);
      expect(eventsOf(events, 'search-end')[0]).toMatchObject({ hits: 1 });
    } finally {
      await searxng.close();
    }
  });
});
