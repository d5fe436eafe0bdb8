import type { SearchConfig } from '../../config/config-schema.js';
import { ConfigError } from '../../errors/index.js';
import { isPrivateHostLiteral } from '../http/network-guard.js';
import type { SearchOptions, SearchProvider } from '../spec/search-provider.js';
import { createSearxngSearch } from './searxng/searxng-search.js';

/** What the runtime passes besides the search config. */
export interface SearchProviderDependencies {
  fetch?: typeof globalThis.fetch;
  /** From reader.allowPrivateNetwork; when false (the default) hits on private hosts are dropped. */
  allowPrivateNetwork?: boolean;
}

export type SearchProviderSettings = SearchConfig & SearchProviderDependencies;

const searchProviders: Readonly<Record<string, (settings: SearchProviderSettings) => SearchProvider>> = {
  searxng: (settings) =>
    createSearxngSearch({
      baseURL: settings.searxngUrl,
      fetch: settings.fetch,
      timeoutMs: settings.timeoutSeconds * 1000,
    }),
};

export const searchProviderIds: readonly string[] = Object.keys(searchProviders);

/**
 * The configured search provider, asking for config.resultsPerQuery hits unless a call says
 * otherwise, and (unless private networks are allowed) without hits whose host is localhost or a
 * private IP literal: a search engine should never send the reader there.
 */
export function createSearchProvider(settings: SearchProviderSettings): SearchProvider {
  const create = Object.hasOwn(searchProviders, settings.provider)
    ? searchProviders[settings.provider]
    : undefined;
  if (!create) {
    throw new ConfigError(
      `unknown search provider '${settings.provider}' (available: ${searchProviderIds.join(', ')})`,
      { code: 'config_unknown_provider' },
    );
  }
  const provider = create(settings);
  const allowPrivateNetwork = settings.allowPrivateNetwork ?? false;
  return {
    id: provider.id,
    async search(query: string, options: SearchOptions = {}) {
      const hits = await provider.search(query, {
        ...options,
        count: options.count ?? settings.resultsPerQuery,
      });
      return allowPrivateNetwork ? hits : hits.filter((hit) => !isPrivateHostLiteral(hit.url));
    },
  };
}
