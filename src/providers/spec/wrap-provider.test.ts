import { describe, expect, it } from 'vitest';
import { createFakeSearch } from '../../testing/fake-search.js';
import type { LlmClient, TextRequest } from './llm-client.js';
import type { SearchProviderMiddleware } from './provider-middleware.js';
import type { Reranker } from './reranker.js';
import type { SearchProvider } from './search-provider.js';
import { wrapLlmClient, wrapReranker, wrapSearchProvider } from './wrap-provider.js';

const hit = { url: 'https://tides.example/', title: 'Tides', snippet: 'high tide at noon' };

/** Writes `name` into the log on the way in and on the way out of each search. */
function tracing(name: string, log: string[]): SearchProviderMiddleware {
  return {
    async wrapSearch({ doSearch, query, options }) {
      log.push(`${name}>`);
      const hits = await doSearch(`${query}+${name}`, options);
      log.push(`<${name}`);
      return hits;
    },
  };
}

describe('wrapSearchProvider', () => {
  it('applies a list of middleware with the first outermost, each seeing what the one before passed on', async () => {
    const log: string[] = [];
    const engine = createFakeSearch({ 'tides+a+b': [hit] });
    const wrapped = wrapSearchProvider({
      provider: engine,
      middleware: [tracing('a', log), tracing('b', log)],
    });
    expect(await wrapped.search('tides')).toEqual([hit]);
    expect(log).toEqual(['a>', 'b>', '<b', '<a']);
    expect(engine.calls.map((call) => call.query)).toEqual(['tides+a+b']);
  });

  it('keeps the version, id and extra members; overrideId renames it', async () => {
    const engine = createFakeSearch({ tides: [hit] });
    const same = wrapSearchProvider({ provider: engine, middleware: [] });
    const renamed = wrapSearchProvider({
      provider: engine,
      middleware: { overrideId: ({ id }) => `${id}+kb` },
    });
    expect(same).toMatchObject({ specificationVersion: 'v1', id: 'fake' });
    expect(renamed.id).toBe('fake+kb');
    await renamed.search('tides', { count: 1 });
    // A fake's record of calls is read through the wrapper, and spreading keeps the wrapped method.
    expect(renamed.calls).toEqual([{ query: 'tides', options: { count: 1 } }]);
    expect({ ...renamed }.id).toBe('fake+kb');
  });

  it('lets a middleware answer without the provider, and calls a class-based provider bound to itself', async () => {
    class Engine implements SearchProvider {
      readonly specificationVersion = 'v1';
      readonly id = 'engine';
      #asked = 0;
      async search(_query: string) {
        this.#asked++;
        return [{ ...hit, snippet: `asked ${this.#asked}` }];
      }
    }
    const answered = wrapSearchProvider({
      provider: new Engine(),
      middleware: {
        wrapSearch: async ({ query, doSearch, options }) =>
          query === 'cached' ? [hit] : doSearch(query, options),
      },
    });
    expect(await answered.search('cached')).toEqual([hit]);
    expect((await answered.search('fresh'))[0]!.snippet).toBe('asked 1');
    expect(answered.id).toBe('engine');
  });
});

describe('wrapReranker and wrapLlmClient', () => {
  it('pass the call and its options to the hook, and leave members without a hook as they are', async () => {
    const reranker: Reranker = {
      specificationVersion: 'v1',
      id: 'r',
      model: 'm',
      builtin: false,
      rerank: async (_query, documents) => documents.map(() => 0.5),
    };
    const seen: string[] = [];
    const wrapped = wrapReranker({
      provider: reranker,
      middleware: {
        wrapRerank: async ({ doRerank, query, documents, options }) => {
          seen.push(query);
          return (await doRerank(query, documents, options)).map((score) => score * 2);
        },
      },
    });
    expect(await wrapped.rerank('q', ['a', 'b'])).toEqual([1, 1]);
    expect(seen).toEqual(['q']);
    expect(wrapped).toMatchObject({ id: 'r', model: 'm', builtin: false, specificationVersion: 'v1' });

    const texts: TextRequest[] = [];
    const client: LlmClient & { describe(): string } = {
      specificationVersion: 'v1',
      describe: () => 'fake model',
      generateObject: () => Promise.reject(new Error('not scripted')),
      generateText: async (request) => {
        texts.push(request);
        return {
          text: 'hi',
          usage: { promptTokens: 1, completionTokens: 1, totalTokens: 2 },
          usageEstimated: false,
          model: 'm',
          durationMs: 1,
        };
      },
    };
    const shouting = wrapLlmClient({
      provider: client,
      middleware: {
        wrapGenerateText: async ({ doGenerateText, request }) => {
          const result = await doGenerateText({ ...request, system: 'be brief' });
          return { ...result, text: result.text.toUpperCase() };
        },
      },
    });
    const reply = await shouting.generateText({
      role: 'agent',
      messages: [{ role: 'user', content: 'hello' }],
    });
    expect(reply.text).toBe('HI');
    expect(texts[0]!.system).toBe('be brief');
    expect(shouting.describe()).toBe('fake model');
    await expect(shouting.generateObject({} as never)).rejects.toThrow('not scripted');
  });
});
