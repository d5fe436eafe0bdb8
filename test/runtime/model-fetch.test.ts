// RuntimeOptions.modelFetch (a worker's LLM-capped fetch): the calls to the model server go
// through it, searches and page reads do not (they keep the runtime's own fetch, with the
// reader's connect-time guard). Real HTTP servers on 127.0.0.1: LLM, SearXNG and a web.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRuntime } from '../../src/runtime/create-runtime.js';
import type { FakeHttpServer } from '../../src/testing/fake-http-server.js';
import { type FakeOpenAiServer, startFakeOpenAi } from '../../src/testing/fake-openai-server.js';
import { createTestConfig } from '../../src/testing/test-config.js';
import { startFakeSearxng } from '../helpers/fake-searxng-server.js';
import { startFakeWeb } from '../helpers/fake-web-server.js';
import { researchRoutes, researchSearxngResults, researchWebPages } from '../helpers/research-fake-llm.js';

let web: FakeHttpServer;
let searxng: FakeHttpServer;
let llm: FakeOpenAiServer;
beforeAll(async () => {
  web = await startFakeWeb({ pages: researchWebPages });
  searxng = await startFakeSearxng({ results: researchSearxngResults(web.url) });
  llm = await startFakeOpenAi({ routes: researchRoutes(web.url) });
});
afterAll(() => Promise.all([web.close(), searxng.close(), llm.close()]));

describe('the runtime with a modelFetch', () => {
  it('sends the model calls through it, and nothing else', async () => {
    const throughModelFetch: string[] = [];
    const modelFetch: typeof globalThis.fetch = (input, init) => {
      throughModelFetch.push(input instanceof Request ? input.url : String(input));
      return globalThis.fetch(input, init);
    };
    const runtime = createRuntime({
      config: createTestConfig({
        llm: { baseURL: `${llm.url}/v1`, model: 'fake-model' },
        search: { provider: 'searxng', searxngUrl: searxng.url },
        reader: { provider: 'builtin', allowPrivateNetwork: true },
      }),
      modelFetch,
    });
    try {
      const { result } = await runtime.run({
        mode: 'search',
        question: 'How did heat pump sales in Europe change after 2022?',
      });
      expect(result.references.map((reference) => reference.url)).toContain(`${web.url}/ehpa`);
    } finally {
      runtime.close();
    }
    // Every call to the model server (chat, its window probes) went through modelFetch, and only
    // those; the search and the pages did not.
    expect(llm.requests.length).toBeGreaterThan(2);
    expect(throughModelFetch).toHaveLength(llm.requests.length);
    expect(throughModelFetch.filter((url) => !url.startsWith(`${llm.url}/`))).toEqual([]);
    expect(searxng.requests.length).toBeGreaterThan(0);
    expect(web.requests.map((request) => request.path)).toContain('/ehpa');
  });
});
