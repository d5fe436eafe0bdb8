import { APICallError } from '@ai-sdk/provider';
import { describe, expect, it } from 'vitest';
import { failureForModel } from '../../src/agent/steps/step-errors.js';
import { ProviderError } from '../../src/core/errors/index.js';
import type { PageReader } from '../../src/providers/spec/page-reader.js';
import type { SearchProvider } from '../../src/providers/spec/search-provider.js';
import { scriptedStep } from '../../src/testing/scripted-steps.js';
import { eventsOf, runAgent } from '../helpers/agent-harness.js';

const llmUrl = 'http://127.0.0.1:9/v1/chat/completions';
const searxngUrl = 'http://searx.internal.example:8888/search';

describe('failures in the diary', () => {
  it("name no address of the run's own services, while the person still sees them", async () => {
    let searches = 0;
    const failingSearch: SearchProvider = {
      specificationVersion: 'v1',
      id: 'searxng',
      search: async () => {
        if (searches++ === 0)
          return [{ url: 'https://varnholt.example/', title: 'Varnholt', snippet: 'An observatory.' }];
        throw new ProviderError(`SearXNG at ${searxngUrl} answered 502: bad gateway`, {
          providerId: 'search:searxng',
          statusCode: 502,
          isRetryable: false,
        });
      },
    };
    const unreachable = new APICallError({
      message: 'fetch failed',
      url: llmUrl,
      requestBodyValues: {},
      cause: Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:9'), { code: 'ECONNREFUSED' }),
    });
    const { llm, events } = await runAgent('Who founded the Varnholt Observatory?', {
      searchProvider: failingSearch,
      config: { llm: { maxRetries: 0 }, retrieval: { queryRewrite: false } },
      steps: [
        scriptedStep.search(['Varnholt founded']),
        { ...scriptedStep.search(['Varnholt Observatory history']), error: unreachable },
        scriptedStep.search(['Varnholt Observatory history']),
        {
          ...scriptedStep.answer('Varnholt has an observatory[^1].', [
            { url: 'https://varnholt.example/', quote: 'An observatory.' },
          ]),
          expect: {
            schemaName: 'agent_action',
            promptIncludes: [
              'this step failed (cannot reach the LLM server: connection refused',
              'answered 502',
            ],
            promptExcludes: ['127.0.0.1', 'searx.internal', 'http://'],
          },
        },
        scriptedStep.criteria(),
        scriptedStep.evaluation('definitive', true),
      ],
    });
    llm.assertConsumed();
    const warnings = eventsOf(events, 'warning').map((event) => event.message);
    expect(warnings.some((message) => message.includes(llmUrl))).toBe(true);
    const failed = eventsOf(events, 'search-end').find((event) => event.failures.length > 0);
    expect(failed?.failures[0]?.error).toContain(searxngUrl);
  });

  it('say why an app shell read as (nearly) empty, in the line the agent sees for its URL', async () => {
    const shell = 'https://app.example/tides';
    const reason =
      'an app shell whose scripts wrote no text within 20 s in Chromium (limit: DEEPSEARCH_READER_TIMEOUT)';
    const reader: PageReader = {
      specificationVersion: 'v1',
      id: 'browser',
      read: async (url) => ({
        requestedUrl: url,
        url,
        title: 'App',
        markdown: '',
        text: '',
        links: [],
        contentType: 'text/html',
        emptyShell: true,
        emptyReason: reason,
      }),
    };
    const { llm } = await runAgent('When is high tide at Brest?', {
      reader,
      search: { 'Brest tide': [{ url: shell, title: 'Tides', snippet: 'Tide times.' }] },
      config: { retrieval: { queryRewrite: false }, budget: { maxSteps: 3 } },
      steps: [
        scriptedStep.search(['Brest tide']),
        scriptedStep.visit([shell]),
        {
          ...scriptedStep.finalAnswer('Unknown.'),
          expect: { promptIncludes: [`no readable content: ${reason}`] },
        },
      ],
    });
    llm.assertConsumed();
  });

  it('failureForModel drops URLs and host:port with the word introducing them', () => {
    expect(failureForModel(new Error(`cannot reach the LLM server at ${llmUrl}: refused`))).toBe(
      'cannot reach the LLM server: refused',
    );
    expect(failureForModel('connect ECONNREFUSED localhost:11434, see https://x.example/a?b=c')).toBe(
      'connect ECONNREFUSED, see',
    );
    expect(failureForModel('x'.repeat(300))).toHaveLength(200);
  });
});
