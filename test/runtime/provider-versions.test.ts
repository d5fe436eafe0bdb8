import { afterEach, describe, expect, it, vi } from 'vitest';
import { runDeepSearch } from '../../src/api/run-deep-search.js';
import { ConfigError } from '../../src/core/errors/index.js';
import type { SearchHit } from '../../src/providers/spec/search-provider.js';
import { createRuntime } from '../../src/runtime/create-runtime.js';
import { createFakeReader } from '../../src/testing/fake-reader.js';
import { createScriptedLlm } from '../../src/testing/scripted-llm.js';
import { scriptedStep } from '../../src/testing/scripted-steps.js';
import { createTestConfig } from '../../src/testing/test-config.js';

const page = 'https://tides.example/brest';
const html =
  '<html><head><title>Brest tides</title></head><body><article><p>Spring tides in Brest reach 7.5 metres. Neap tides stay near 4 metres.</p></article></body></html>';

/** A custom search written before interfaces carried specificationVersion. */
function legacySearch(id: string) {
  const hits: SearchHit[] = [{ url: page, title: 'Brest tides', snippet: 'Spring tides reach 7.5 metres.' }];
  return { id, search: async () => hits };
}

describe("a caller's providers entering createRuntime and runDeepSearch", () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('runs with an unversioned provider, after one DeprecationWarning saying what to set', async () => {
    const emit = vi.spyOn(process, 'emitWarning').mockImplementation(() => undefined);
    const llm = createScriptedLlm([
      scriptedStep.search(['brest spring tides']),
      scriptedStep.visit([page]),
      scriptedStep.answer('Spring tides in Brest reach 7.5 metres[^1].', [
        { url: page, quote: 'Spring tides in Brest reach 7.5 metres' },
      ]),
      scriptedStep.criteria(),
      scriptedStep.evaluation('definitive', true),
    ]);
    const runtime = createRuntime({
      config: createTestConfig(),
      search: legacySearch('legacy-runtime-search'),
      reader: createFakeReader({ [page]: html }),
      createModel: () => llm,
    });
    const { result } = await runtime.run({ mode: 'search', question: 'How high are spring tides in Brest?' });
    llm.assertConsumed();
    expect(result.references.map((reference) => reference.url)).toEqual([page]);
    expect(emit).toHaveBeenCalledTimes(1);
    expect(emit).toHaveBeenCalledWith(
      expect.stringMatching(
        /^search 'legacy-runtime-search' has no specificationVersion: add specificationVersion: 'v1'/,
      ),
      { type: 'DeprecationWarning', code: 'DEEPSEARCH_UNVERSIONED_PROVIDER' },
    );
    runtime.close();
  });

  it('refuses a provider of an unknown version, or no provider at all, at start with a ConfigError', () => {
    const config = createTestConfig();
    const future = { ...legacySearch('next'), specificationVersion: 'v2' };
    expect(() => createRuntime({ config, search: future as never })).toThrow(ConfigError);
    expect(() => createRuntime({ config, search: future as never })).toThrow(
      /search 'next' has specificationVersion "v2", which this deepsearch does not implement: set specificationVersion: 'v1'/,
    );
    expect(() => createRuntime({ config, reranker: { id: 'x' } as never })).toThrow(
      /reranker does not implement Reranker: it needs rerank\(\)/,
    );
    expect(() =>
      createRuntime({
        config,
        sourceReaders: { 'kb:': { specificationVersion: 'v0', id: 'kb', read: async () => ({}) } as never },
      }),
    ).toThrow(/sourceReaders\['kb:'\] 'kb' has specificationVersion "v0"/);
  });

  it("rejects runDeepSearch's run, before any call, when its llm names an unknown version", async () => {
    const reader = createFakeReader({});
    const llm = { specificationVersion: 'v9', generateObject: vi.fn(), generateText: vi.fn() };
    await expect(
      runDeepSearch({
        question: 'q',
        config: createTestConfig(),
        llm: llm as never,
        search: legacySearch('s'),
        reader,
      }),
    ).rejects.toMatchObject({ code: 'config_provider_version' });
    expect(llm.generateObject).not.toHaveBeenCalled();
  });
});
