import { describe, expect, it } from 'vitest';
import { AbortedError, AuthenticationError, ConfigError, ProviderError } from '../../core/errors/index.js';
import type { FallbackNotice, SearchHit, SearchNotice, SearchProvider } from '../spec/search-provider.js';
import { createFallbackSearch } from './fallback-search.js';

type Outcome = SearchHit[] | Error;

/** A provider that answers each call with the next scripted outcome and records the queries. */
function scripted(id: string, ...outcomes: Outcome[]): SearchProvider & { calls: string[] } {
  const calls: string[] = [];
  return {
    specificationVersion: 'v1',
    id,
    calls,
    async search(query) {
      calls.push(query);
      const outcome = outcomes.shift();
      if (!outcome) throw new Error(`unexpected call to ${id}`);
      if (outcome instanceof Error) throw outcome;
      return outcome;
    },
  };
}

const hit = (url: string): SearchHit => ({ url, title: url, snippet: '' });
const rateLimited = (id: string) =>
  new ProviderError(`${id} answered HTTP 429`, {
    providerId: id,
    statusCode: 429,
    code: 'provider_rate_limited',
  });
const badKey = new AuthenticationError('brave rejected the request with HTTP 401: check BRAVE_API_KEY', {
  providerId: 'brave',
  statusCode: 401,
});

async function run(chain: SearchProvider) {
  const notices: FallbackNotice[] = [];
  const outcome = await chain
    .search('q', {
      onNotice: (notice: SearchNotice) => {
        if (notice.kind !== 'fallback') throw new Error(`unexpected notice ${notice.kind}`);
        notices.push(notice);
      },
    })
    .catch((error: unknown) => error);
  return { outcome, notices };
}

describe('createFallbackSearch', () => {
  it('uses the first provider that finds something, without asking the others', async () => {
    const first = scripted('searxng', [hit('https://a.example/')]);
    const second = scripted('duckduckgo');
    const { outcome, notices } = await run(createFallbackSearch([first, second]));
    expect(outcome).toEqual([hit('https://a.example/')]);
    expect(second.calls).toEqual([]);
    expect(notices).toEqual([]);
  });

  it('moves on after a rate limit and after an empty answer, and says so each time', async () => {
    const chain = createFallbackSearch([
      scripted('searxng', rateLimited('searxng')),
      scripted('brave', []),
      scripted('duckduckgo', [hit('https://d.example/')]),
    ]);
    const { outcome, notices } = await run(chain);
    expect(outcome).toEqual([hit('https://d.example/')]);
    expect(notices).toEqual([
      {
        kind: 'fallback',
        providerId: 'searxng',
        nextProviderId: 'brave',
        reason: 'searxng answered HTTP 429',
      },
      { kind: 'fallback', providerId: 'brave', nextProviderId: 'duckduckgo', reason: 'no results' },
    ]);
    expect(chain.id).toBe('searxng,brave,duckduckgo');
  });

  it('moves past a rejected key when the next provider works, reporting the key problem', async () => {
    const { outcome, notices } = await run(
      createFallbackSearch([scripted('brave', badKey), scripted('duckduckgo', [hit('https://d.example/')])]),
    );
    expect(outcome).toEqual([hit('https://d.example/')]);
    expect(notices[0]?.reason).toMatch(/check BRAVE_API_KEY/);
  });

  it('throws the rejected key, not the later rate limit, when every provider fails', async () => {
    const { outcome, notices } = await run(
      createFallbackSearch([scripted('brave', badKey), scripted('duckduckgo', rateLimited('duckduckgo'))]),
    );
    expect(outcome).toBe(badKey);
    expect(notices.map((notice) => notice.nextProviderId)).toEqual(['duckduckgo', undefined]);
  });

  it('throws a missing key as the configuration error it is when nothing else worked', async () => {
    const missing = new ConfigError('the exa search provider needs an API key: set EXA_API_KEY', {
      code: 'config_missing_key',
    });
    const { outcome } = await run(
      createFallbackSearch([scripted('searxng', rateLimited('searxng')), scripted('exa', missing)]),
    );
    expect(outcome).toBe(missing);
  });

  it('returns no hits when every provider answered but found nothing', async () => {
    const { outcome, notices } = await run(
      createFallbackSearch([scripted('searxng', []), scripted('duckduckgo', [])]),
    );
    expect(outcome).toEqual([]);
    expect(notices).toHaveLength(2);
  });

  it('returns no hits, not an error, when one provider failed and another found nothing', async () => {
    const { outcome } = await run(
      createFallbackSearch([scripted('searxng', rateLimited('searxng')), scripted('duckduckgo', [])]),
    );
    expect(outcome).toEqual([]);
  });

  it('stops at once on cancellation and on errors that are not provider failures', async () => {
    const aborted = new AbortedError();
    const untouched = scripted('duckduckgo');
    expect((await run(createFallbackSearch([scripted('searxng', aborted), untouched]))).outcome).toBe(
      aborted,
    );
    const bug = new TypeError('x is undefined');
    expect((await run(createFallbackSearch([scripted('searxng', bug), untouched]))).outcome).toBe(bug);
    expect(untouched.calls).toEqual([]);
  });
});
