import { settingHint } from '../../config/config-origins.js';
import {
  type DeepSearchConfig,
  type SearchConfig,
  type SearchKeyProviderId,
  searchKeyProviderIds,
} from '../../config/config-schema.js';
import { ConfigError } from '../../core/errors/index.js';
import { missingKeyError } from './http-search-provider.js';

/** The default `search.provider`: SearXNG when an instance is configured, else DuckDuckGo. */
export const autoSearchProviderId = 'auto';

/**
 * The provider chain `search.provider` stands for. `auto` becomes SearXNG when an instance URL
 * is set and DuckDuckGo otherwise, because DuckDuckGo's HTML endpoint needs neither a key nor a
 * server: a first run with nothing set up can still search.
 */
export function effectiveSearchProvider(
  config: Pick<SearchConfig, 'provider' | 'searxngUrl' | 'baseURLs'>,
): string {
  if (config.provider.trim() !== autoSearchProviderId) return config.provider;
  return searxngUrlOf(config) ? 'searxng' : 'duckduckgo';
}

/** True when `auto` fell back to DuckDuckGo: the CLI says so in one line. */
export function isSearchFallback(
  config: Pick<SearchConfig, 'provider' | 'searxngUrl' | 'baseURLs'>,
): boolean {
  return config.provider.trim() === autoSearchProviderId && !searxngUrlOf(config);
}

/** What a search provider lacks to be used with a config, and the setting that gives it. */
export interface MissingSearchSetting {
  providerId: string;
  /** 'key': an engine that takes an API key has none; 'instance': SearXNG has no URL. */
  missing: 'key' | 'instance';
  /** Where to set it: the variable (and flag) from the settings table, e.g. BRAVE_API_KEY. */
  setting: string;
}

/**
 * What provider `id` lacks under `config`, undefined when it has what it needs (or needs nothing).
 * Keyed engines are the config's searchKeyProviderIds, each read from the variable the settings
 * table names: the one their own missing-key error names too.
 */
export function missingSearchSetting(config: DeepSearchConfig, id: string): MissingSearchSetting | undefined {
  if (id === 'searxng') {
    if (searxngUrlOf(config.search)) return undefined;
    return {
      providerId: id,
      missing: 'instance',
      setting: settingHint(config, { path: 'search.searxngUrl' }),
    };
  }
  if (!isSearchKeyProvider(id) || config.search.apiKeys[id]) return undefined;
  return { providerId: id, missing: 'key', setting: settingHint(config, { path: `search.apiKeys.${id}` }) };
}

/**
 * Fails at start, before any LLM call, when the one provider chosen cannot search: SearXNG without
 * an instance, or an engine that takes a key without one. In a chain ("searxng,duckduckgo") such
 * a provider is passed over at search time like any failing provider.
 */
export function assertSearchConfigured(config: DeepSearchConfig): void {
  const id = effectiveSearchProvider(config.search).trim();
  const missing = id.includes(',') ? undefined : missingSearchSetting(config, id);
  if (!missing) return;
  if (missing.missing === 'key') throw missingKeyError(id, missing.setting);
  // The config file's key when the file chose SearXNG, else the variable and the flag.
  const hint = settingHint(config, { path: 'search.searxngUrl', because: 'search.provider' });
  throw new ConfigError(
    `no SearXNG instance configured: set ${hint} to the base URL of an instance with the JSON format ` +
      'enabled, e.g. http://localhost:8080, or search without one: --search-provider duckduckgo',
    { code: 'config_missing_search' },
  );
}

function isSearchKeyProvider(id: string): id is SearchKeyProviderId {
  return (searchKeyProviderIds as readonly string[]).includes(id);
}

function searxngUrlOf(config: Pick<SearchConfig, 'searxngUrl' | 'baseURLs'>): string | undefined {
  return config.baseURLs.searxng ?? config.searxngUrl;
}
