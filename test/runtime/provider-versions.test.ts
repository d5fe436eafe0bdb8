import { afterEach, describe, expect, it, vi } from 'vitest';
import { ConfigError } from '../../src/core/errors/index.js';
import type { SearchHit } from '../../src/providers/spec/search-provider.js';
import { createRuntime } from '../../src/runtime/create-runtime.js';
import { createFakeReader } from '../../src/testing/fake-reader.js';
import { createScriptedLlm } from '../../src/testing/scripted-llm.js';
import { createTestConfig } from '../../src/testing/test-config.js';

const page = 'https://tides.example/brest';
const html =
  '<html><head><title>Brest tides</title></head><body><article><p>Spring tides in Brest reach 7.5 metres. Neap tides stay near 4 metres.</p></article></body></html>';

/** A custom search without specificationVersion (written before interfaces carried it). */
function legacySearch(id: string) {
  const hits: SearchHit[] = [{ url: page, title: 'Brest tides', snippet: 'Spring tides reach 7.5 metres.' }];
  return { id, search: async () => hits };
}

describe("a caller's providers entering createRuntime", () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('refuses an unversioned provider at start with a ConfigError saying what to set, before any call', () => {
    const emit = vi.spyOn(process, 'emitWarning').mockImplementation(() => undefined);
    const llm = createScriptedLlm([]);
    const legacy = legacySearch('legacy-runtime-search');
    const start = () =>
      createRuntime({
        config: createTestConfig(),
        search: legacy as never,
        reader: createFakeReader({ [page]: html }),
        createModel: () => llm,
      });
    expect(start).toThrow(ConfigError);
    expect(start).toThrow(
      /^search 'legacy-runtime-search' has no specificationVersion: add specificationVersion: 'v1'/,
    );
    expect(() => start()).toThrow(expect.objectContaining({ code: 'config_provider_version' }));
    llm.assertConsumed();
    expect(emit).not.toHaveBeenCalled();
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

  it('rejects the runtime, before any call, when a provider names an unknown version', () => {
    const llm = createScriptedLlm([]);
    const search = { ...legacySearch('s'), specificationVersion: 'v9' };
    expect(() =>
      createRuntime({
        config: createTestConfig(),
        search: search as never,
        reader: createFakeReader({}),
        createModel: () => llm,
      }),
    ).toThrow(expect.objectContaining({ code: 'config_provider_version' }));
    llm.assertConsumed();
  });
});
