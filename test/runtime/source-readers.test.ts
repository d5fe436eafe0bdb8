import { describe, expect, it } from 'vitest';
import type { Page, PageReader } from '../../src/providers/spec/page-reader.js';
import { createRuntime } from '../../src/runtime/create-runtime.js';
import { createFakeSearch } from '../../src/testing/fake-search.js';
import { createScriptedLlm } from '../../src/testing/scripted-llm.js';
import { scriptedStep } from '../../src/testing/scripted-steps.js';
import { createTestConfig } from '../../src/testing/test-config.js';

const note = 'Spring tides in Brest reach 7.5 metres. Neap tides stay near 4 metres.';

/** Stands in for the knowledge base's reader: kb: ids to stored notes. */
function knowledgeBaseReader(calls: string[]): PageReader {
  return {
    specificationVersion: 'v1',
    id: 'kb',
    read: async (url): Promise<Page> => {
      calls.push(url);
      return {
        requestedUrl: url,
        url,
        title: 'Brest tides (notes)',
        markdown: note,
        text: note,
        links: [],
        contentType: 'text/markdown',
      };
    },
  };
}

describe('readers of more source schemes in the runtime', () => {
  it('reads and cites a kb: source through the registered reader, beside the web and file: readers', async () => {
    const calls: string[] = [];
    const llm = createScriptedLlm([
      scriptedStep.visit(['kb:notes/brest-tides']),
      scriptedStep.answer('Spring tides in Brest reach 7.5 metres[^1].', [
        { url: 'kb:notes/brest-tides', quote: 'spring tides in brest reach 7.5 metres' },
      ]),
      scriptedStep.criteria(),
      scriptedStep.evaluation('definitive', true),
    ]);
    const runtime = createRuntime({
      // The reader built from the config (builtin web, file:) with kb: registered on it.
      config: createTestConfig({ reader: { provider: 'builtin' } }),
      search: createFakeSearch({}),
      sourceReaders: { 'kb:': knowledgeBaseReader(calls) },
      createModel: () => llm,
    });
    const { result } = await runtime.run({
      mode: 'search',
      question: 'How high do spring tides get in Brest (see kb:notes/brest-tides)?',
    });
    llm.assertConsumed();
    expect(calls).toEqual(['kb:notes/brest-tides']);
    expect(result.references).toEqual([
      {
        index: 1,
        url: 'kb:notes/brest-tides',
        title: 'Brest tides (notes)',
        quote: 'Spring tides in Brest reach 7.5 metres',
        quoteKind: 'exact',
      },
    ]);
    expect(runtime.hostHealth.snapshot()).toEqual({});
    // The file reader is still there, and still off unless the config allows it.
    await expect(runtime.reader.read('file:///etc/hostname')).rejects.toThrow(/local files are off/);
    await expect(runtime.reader.read('gopher://example.com/')).rejects.toThrow(
      /no reader for gopher: sources/,
    );
  });
});
