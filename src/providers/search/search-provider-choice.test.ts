import { describe, expect, it } from 'vitest';
import { searchKeyProviderIds } from '../../config/config-schema.js';
import { createTestConfig } from '../../testing/test-config.js';
import { assertSearchConfigured, missingSearchSetting } from './search-provider-choice.js';
import { createSearchProvider } from './search-registry.js';

describe('missingSearchSetting', () => {
  it('names the variable of each keyed engine without a key, the one its own search error names', async () => {
    const config = createTestConfig({});
    for (const id of searchKeyProviderIds) {
      const missing = missingSearchSetting(config, id);
      expect(missing).toEqual({ providerId: id, missing: 'key', setting: `${id.toUpperCase()}_API_KEY` });
      const searching = createSearchProvider({ ...config.search, provider: id }).search('q');
      await expect(searching).rejects.toThrow(`set ${missing?.setting}`);
    }
  });

  it('is satisfied by a key, and asks nothing of keyless engines', () => {
    const config = createTestConfig({ search: { apiKeys: { brave: 'brave-secret' } } });
    expect(missingSearchSetting(config, 'brave')).toBeUndefined();
    expect(missingSearchSetting(config, 'duckduckgo')).toBeUndefined();
    expect(missingSearchSetting(config, 'local')).toBeUndefined();
  });

  it('asks SearXNG for an instance URL', () => {
    expect(missingSearchSetting(createTestConfig({}), 'searxng')).toMatchObject({
      missing: 'instance',
      setting: 'DEEPSEARCH_SEARXNG_URL (or --searxng-url)',
    });
    const withUrl = createTestConfig({ search: { searxngUrl: 'http://127.0.0.1:8888' } });
    expect(missingSearchSetting(withUrl, 'searxng')).toBeUndefined();
  });
});

describe('assertSearchConfigured', () => {
  it('fails at start when the one engine chosen has no key, with the error a search would give', () => {
    const config = createTestConfig({ search: { provider: 'tavily' } });
    expect(() => assertSearchConfigured(config)).toThrow(
      expect.objectContaining({
        code: 'config_missing_key',
        message: 'the tavily search provider needs an API key: set TAVILY_API_KEY',
      }),
    );
    const keyed = createTestConfig({ search: { provider: 'tavily', apiKeys: { tavily: 'k' } } });
    expect(() => assertSearchConfigured(keyed)).not.toThrow();
  });

  it('leaves a chain to pass over an engine without its key at search time', () => {
    const config = createTestConfig({ search: { provider: 'tavily,duckduckgo' } });
    expect(() => assertSearchConfigured(config)).not.toThrow();
  });
});
