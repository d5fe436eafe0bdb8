import { ProviderError } from '../../src/core/errors/index.js';
import type { PageReader } from '../../src/providers/spec/page-reader.js';
import { createFakeReader } from '../../src/testing/fake-reader.js';
import { createFakeSearch } from '../../src/testing/fake-search.js';
import type { ScriptedStep } from '../../src/testing/scripted-llm.js';
import { scriptedStep } from '../../src/testing/scripted-steps.js';

/**
 * A one-question world for domain trust: the search finds a page that answers and one whose host
 * refuses us (HTTP 403, a block); the agent reads both and cites the first.
 */
export const tidesQuestion = 'How high do spring tides get in Brest?';
export const tidesUrl = 'https://tides.example/brest';
export const walledUrl = 'https://walled.example/brest';
const page =
  '<html><head><title>Brest tides</title></head><body><article><h1>Brest tides</h1><p>Spring tides in Brest reach 7.5 metres above chart datum, the harbour office says.</p></article></body></html>';

/** The scripted LLM's steps for one run of the question. */
export function tidesSteps(): ScriptedStep[] {
  return [
    scriptedStep.search(['brest tides']),
    scriptedStep.visit([tidesUrl, walledUrl]),
    scriptedStep.answer('Spring tides in Brest reach 7.5 metres[^1].', [
      { url: tidesUrl, quote: 'Spring tides in Brest reach 7.5 metres' },
    ]),
    scriptedStep.criteria(),
    scriptedStep.evaluation('definitive', true),
  ];
}

/** The world's search and reader, for createRuntime. */
export function tidesProviders() {
  const pages = createFakeReader({ [tidesUrl]: page });
  const reader: PageReader = {
    specificationVersion: 'v1',
    id: 'fake',
    read: async (url, options) => {
      if (url === walledUrl)
        throw new ProviderError(`${url} answered HTTP 403`, { providerId: 'builtin', statusCode: 403 });
      return pages.read(url, options);
    },
  };
  const search = createFakeSearch({
    'brest tides': [
      { url: tidesUrl, title: 'Brest tides', snippet: 'tide tables' },
      { url: walledUrl, title: 'Brest tides', snippet: 'tide tables' },
    ],
  });
  return { search, reader };
}
