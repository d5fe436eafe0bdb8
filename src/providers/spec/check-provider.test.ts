import { afterEach, describe, expect, it, vi } from 'vitest';
import { ConfigError } from '../../core/errors/index.js';
import { checkProvider } from './check-provider.js';
import type { SearchProvider } from './search-provider.js';

const search = async () => [];

describe('checkProvider', () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('takes a provider of a version this release implements as it is', () => {
    const emit = vi.spyOn(process, 'emitWarning').mockImplementation(() => undefined);
    const provider: SearchProvider = { specificationVersion: 'v1', id: 'mine', search };
    expect(checkProvider('search', provider)).toBe(provider);
    expect(emit).not.toHaveBeenCalled();
  });

  it('refuses an unversioned provider with a ConfigError saying what to set', () => {
    const emit = vi.spyOn(process, 'emitWarning').mockImplementation(() => undefined);
    const provider = { id: 'legacy-search', search };
    expect(() => checkProvider('search', provider as never)).toThrow(ConfigError);
    expect(() => checkProvider('search', provider as never)).toThrow(
      expect.objectContaining({
        code: 'config_provider_version',
        message: expect.stringContaining(
          "search 'legacy-search' has no specificationVersion: add specificationVersion: 'v1'",
        ),
      }),
    );
    expect(emit).not.toHaveBeenCalled();
  });

  it('refuses an unknown version with a ConfigError naming the option and the version to set', () => {
    const provider = { specificationVersion: 'v2', id: 'future', read: async () => ({}) };
    const error = (() => {
      try {
        checkProvider('reader', provider as never, "sourceReaders['kb:']");
      } catch (caught) {
        return caught;
      }
    })();
    expect(error).toBeInstanceOf(ConfigError);
    expect(error).toMatchObject({
      code: 'config_provider_version',
      message: expect.stringContaining(
        `sourceReaders['kb:'] 'future' has specificationVersion "v2", which this deepsearch does not implement: set specificationVersion: 'v1'`,
      ),
    });
  });

  it('refuses what is not a provider of its kind, naming the methods it lacks', () => {
    expect(() => checkProvider('llm', { specificationVersion: 'v1', generateText: search } as never)).toThrow(
      /llm does not implement LlmClient: it needs generateObject\(\) and generateText\(\) .*\(missing: generateObject\)/,
    );
    expect(() => checkProvider('embedding', undefined as never)).toThrow(ConfigError);
    expect(() => checkProvider('reranker', 'bm25' as never)).toThrow(/missing: rerank/);
  });
});
