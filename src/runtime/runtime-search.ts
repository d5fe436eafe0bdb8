import type { DeepSearchConfig } from '../config/config-schema.js';
import type { KnowledgeBase } from '../knowledge/knowledge-base.js';
import {
  createLocalHitsMiddleware,
  createLocalSearch,
  localSearchId,
} from '../knowledge/local-search-provider.js';
import { createSearchProvider } from '../providers/search/search-registry.js';
import type { SearchProvider } from '../providers/spec/search-provider.js';
import { wrapSearchProvider } from '../providers/spec/wrap-provider.js';
import type { NetworkPolicy, ProviderCache } from './create-provider-cache.js';

/** The runtime's search: the config's provider, and the one a run's own config names. */
export interface RuntimeSearch {
  /** The search of the runtime's config, or the caller's own. */
  search: SearchProvider;
  /** A run's search: made once per provider a run names; unknown names fail like at start. */
  searchFor(runConfig: DeepSearchConfig): SearchProvider;
}

export function createRuntimeSearch(options: {
  config: DeepSearchConfig;
  fetch?: typeof globalThis.fetch;
  /** The caller's own provider, used as given for the runtime's config. */
  search?: SearchProvider;
  cache: ProviderCache;
  network: NetworkPolicy;
  knowledgeBase: KnowledgeBase | undefined;
}): RuntimeSearch {
  const { config, cache, network, knowledgeBase } = options;
  const makeSearch = (searchConfig: DeepSearchConfig['search'], knowledge: DeepSearchConfig['knowledge']) => {
    const localSearch = knowledgeBase
      ? () => createLocalSearch({ knowledgeBase, collection: knowledge.collection })
      : undefined;
    const provider = createSearchProvider({
      ...searchConfig,
      fetch: options.fetch,
      allowPrivateNetwork: config.reader.allowPrivateNetwork,
      localSearch,
    });
    // Local hits change as documents are added: never served from the cache.
    const usesLocal = searchConfig.provider.split(',').some((id) => id.trim() === localSearchId);
    const cached = usesLocal ? provider : cache.search(provider, searchConfig, network);
    return knowledge.merge && localSearch && !usesLocal
      ? wrapSearchProvider({
          provider: cached,
          middleware: createLocalHitsMiddleware({ local: localSearch() }),
        })
      : cached;
  };
  const search = options.search ?? makeSearch(config.search, config.knowledge);
  const otherSearch = new Map<string, SearchProvider>();
  const searchKey = (c: DeepSearchConfig) => `${c.search.provider}${c.knowledge.merge ? '+kb' : ''}`;
  return {
    search,
    searchFor: (runConfig) => {
      const id = searchKey(runConfig);
      if (id === searchKey(config)) return search;
      let provider = otherSearch.get(id);
      if (!provider) {
        provider = makeSearch(runConfig.search, runConfig.knowledge);
        otherSearch.set(id, provider);
      }
      return provider;
    },
  };
}
