import type { SearchConfig } from '../../config/config-schema.js';
import { ConfigError } from '../../core/errors/index.js';
import { isPrivateHostLiteral } from '../../platform/http/network-guard.js';
import { createConcurrencyLimitMiddleware } from '../middleware/concurrency-limit-middleware.js';
import type { SearchProviderMiddleware } from '../spec/provider-middleware.js';
import type { SearchProvider } from '../spec/search-provider.js';
import { wrapSearchProvider } from '../spec/wrap-provider.js';
import { createBraveSearch } from './brave/brave-search.js';
import { createDuckDuckGoSearch } from './duckduckgo/duckduckgo-search.js';
import { createExaSearch } from './exa/exa-search.js';
import { createFallbackSearch } from './fallback-search.js';
import type { HttpSearchSettings } from './http-search-provider.js';
import { createJinaSearch } from './jina/jina-search.js';
import { effectiveSearchProvider } from './search-provider-choice.js';
import { createSearxngSearch } from './searxng/searxng-search.js';
import { createSerperSearch } from './serper/serper-search.js';
import { createTavilySearch } from './tavily/tavily-search.js';

/** What the runtime passes besides the search config. */
export interface SearchProviderDependencies {
  fetch?: typeof globalThis.fetch;
  /** From reader.allowPrivateNetwork; when false (the default) hits on private hosts are dropped. */
  allowPrivateNetwork?: boolean;
  /**
   * Makes the `local` provider (the knowledge base): the runtime passes it, since the knowledge
   * layer sits below providers/ and this registry cannot import it.
   */
  localSearch?: () => SearchProvider;
}

export type SearchProviderSettings = SearchConfig & SearchProviderDependencies;

type SearchFactory = (settings: SearchProviderSettings) => SearchProvider;

const searchProviders: Readonly<Record<string, SearchFactory>> = {
  searxng: (settings) =>
    createSearxngSearch({
      baseURL: settings.baseURLs.searxng ?? settings.searxngUrl,
      fetch: settings.fetch,
      timeoutMs: settings.timeoutSeconds * 1000,
    }),
  duckduckgo: (settings) => createDuckDuckGoSearch(httpSettings(settings, 'duckduckgo')),
  brave: (settings) => createBraveSearch(httpSettings(settings, 'brave')),
  serper: (settings) => createSerperSearch(httpSettings(settings, 'serper')),
  tavily: (settings) => createTavilySearch(httpSettings(settings, 'tavily')),
  jina: (settings) => createJinaSearch(httpSettings(settings, 'jina')),
  exa: (settings) => createExaSearch(httpSettings(settings, 'exa')),
  local: (settings) => {
    if (!settings.localSearch) {
      throw new ConfigError(
        'search provider local needs a knowledge base: set knowledge.file (or DEEPSEARCH_KB)',
        {
          code: 'config_kb_missing',
        },
      );
    }
    return settings.localSearch();
  },
};

// DuckDuckGo's HTML endpoint answers bursts with a robot check: one search at a time by default.
const defaultProviderConcurrency: Readonly<Record<string, number>> = { duckduckgo: 1 };

export const searchProviderIds: readonly string[] = Object.keys(searchProviders);

/**
 * The configured provider (`auto`: see effectiveSearchProvider), or fallback chain when `provider`
 * lists several ("searxng,duckduckgo"),
 * each with its concurrency limit, asking for config.resultsPerQuery hits unless a call says
 * otherwise, and (unless private networks are allowed) without hits whose host is localhost or a
 * private IP literal: a search engine should never send the reader there. A provider whose hits
 * were all dropped counts as having found nothing, so the chain moves on.
 */
export function createSearchProvider(settings: SearchProviderSettings): SearchProvider {
  const ids = parseProviderChain(effectiveSearchProvider(settings));
  const allowPrivateNetwork = settings.allowPrivateNetwork ?? false;
  const providers = ids.map((id) =>
    wrapSearchProvider({
      provider: searchProviders[id]!(settings),
      middleware: [
        ...(allowPrivateNetwork ? [] : [dropPrivateHits]),
        createConcurrencyLimitMiddleware({ max: concurrencyFor(settings, id) }),
      ],
    }),
  );
  const provider = providers.length === 1 ? providers[0]! : createFallbackSearch(providers);
  return wrapSearchProvider({ provider, middleware: defaultCount(settings.resultsPerQuery) });
}

/** The provider ids of "a,b,c", each checked against the registry. */
export function parseProviderChain(provider: string): string[] {
  const ids = provider
    .split(',')
    .map((id) => id.trim())
    .filter(Boolean);
  for (const id of ids) {
    if (!Object.hasOwn(searchProviders, id)) {
      throw new ConfigError(`unknown search provider '${id}' (available: ${searchProviderIds.join(', ')})`, {
        code: 'config_unknown_provider',
      });
    }
  }
  if (ids.length === 0)
    throw new ConfigError('no search provider configured', { code: 'config_unknown_provider' });
  return ids;
}

function httpSettings(settings: SearchProviderSettings, id: string): HttpSearchSettings {
  const keyed = id as keyof SearchConfig['apiKeys'];
  return {
    apiKey: settings.apiKeys[keyed],
    baseURL: settings.baseURLs[id],
    fetch: settings.fetch,
    timeoutMs: settings.timeoutSeconds * 1000,
  };
}

function concurrencyFor(settings: SearchProviderSettings, id: string): number {
  return settings.providerConcurrency[id] ?? defaultProviderConcurrency[id] ?? settings.concurrency;
}

/** Asks for `count` hits unless the call says how many. */
function defaultCount(count: number): SearchProviderMiddleware {
  return {
    wrapSearch: ({ doSearch, query, options }) =>
      doSearch(query, { ...options, count: options.count ?? count }),
  };
}

/** Drops hits whose host is localhost or a private IP literal, and says so. */
const dropPrivateHits: SearchProviderMiddleware = {
  async wrapSearch({ doSearch, query, options, provider }) {
    const hits = await doSearch(query, options);
    const kept = hits.filter((hit) => !isPrivateHostLiteral(hit.url));
    // Said, not silent: the person may have meant an intranet search and need the flag.
    if (kept.length < hits.length) {
      options.onNotice?.({
        kind: 'private-hits-dropped',
        providerId: provider.id,
        urls: hits.filter((hit) => isPrivateHostLiteral(hit.url)).map((hit) => hit.url),
      });
    }
    return kept;
  },
};
