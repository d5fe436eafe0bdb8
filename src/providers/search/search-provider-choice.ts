import { settingHint } from '../../config/config-origins.js';
import type { DeepSearchConfig, SearchConfig } from '../../config/config-schema.js';
import { ConfigError } from '../../errors/index.js';

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

/**
 * Fails at start, before any LLM call, when SearXNG alone was chosen and no instance is set. In a
 * chain ("searxng,duckduckgo") it is passed over at search time like any failing provider.
 */
export function assertSearchConfigured(config: DeepSearchConfig): void {
  if (effectiveSearchProvider(config.search).trim() !== 'searxng' || searxngUrlOf(config.search)) return;
  // The config file's key when the file chose SearXNG, else the variable and the flag.
  const hint = settingHint(config, { path: 'search.searxngUrl', because: 'search.provider' });
  throw new ConfigError(
    `no SearXNG instance configured: set ${hint} to the base URL of an instance with the JSON format ` +
      'enabled, e.g. http://localhost:8080, or search without one: --search-provider duckduckgo',
    { code: 'config_missing_search' },
  );
}

function searxngUrlOf(config: Pick<SearchConfig, 'searxngUrl' | 'baseURLs'>): string | undefined {
  return config.baseURLs.searxng ?? config.searxngUrl;
}
