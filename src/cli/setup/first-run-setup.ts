import { type DeepSearchConfig, llmRoles } from '../../config/config-schema.js';
import { withSettings } from '../../config/frozen-config.js';
import { resolveProxySettings } from '../../config/proxy-settings.js';
import { requireApiKey, resolveLlmSettings } from '../../config/resolve-llm-settings.js';
import { isConfigError } from '../../core/errors/index.js';
import { createOutboundFetch } from '../../platform/http/outbound-fetch.js';
import { discoverLocalLlm, parseLocalLlmCandidates } from '../../providers/llm/discover-local-llm.js';
import { assertSearchConfigured, isSearchFallback } from '../../providers/search/search-provider-choice.js';
import type { CliIo } from '../io/cli-io.js';

/**
 * Checks the search settings at start (before any LLM call) and says in one line when no SearXNG
 * instance is set and DuckDuckGo is used instead.
 */
export function prepareSearch(io: CliIo, config: DeepSearchConfig, options: { quiet?: boolean } = {}): void {
  assertSearchConfigured(config);
  if (isSearchFallback(config.search) && !options.quiet) {
    io.stderr.write(
      'deepsearch: note: no SearXNG instance set, searching with DuckDuckGo (set DEEPSEARCH_SEARXNG_URL to use yours)\n',
    );
  }
}

/**
 * With no LLM configured at all, looks for a local server (Ollama, LM Studio, llama.cpp, vLLM on
 * their usual ports, or DEEPSEARCH_LOCAL_LLM_URLS) and configures the first that lists a model,
 * saying which. Anything configured, even half, is left alone: its own error is more useful.
 * Returns the config to run with: the loaded one, or a copy with the LLM found.
 */
export async function prepareLlm(
  io: CliIo,
  loaded: DeepSearchConfig,
  options: { quiet?: boolean; offerDownload?: boolean; yes?: boolean } = {},
): Promise<DeepSearchConfig> {
  let config = await discoverLlm(io, loaded, options);
  if (needsLlmDiscovery(config)) {
    const { setUpLocalModel } = await import('./local-model-setup.js');
    config = (await setUpLocalModel(io, config, options)) ?? config;
  }
  // Fail at start, not at the first LLM call, when no LLM (or no key for one role) is configured.
  for (const role of llmRoles) requireApiKey(resolveLlmSettings(config, role));
  if (config.llm.provider === 'local-embedded' && !options.quiet) {
    const { announceLocalModel } = await import('./local-model-setup.js');
    await announceLocalModel(io, config);
  }
  return config;
}

/**
 * The discovery of prepareLlm alone: `doctor` reports a missing LLM as a failed check instead.
 * Returns the config with the LLM found, or the one given.
 */
export async function discoverLlm(
  io: CliIo,
  config: DeepSearchConfig,
  options: { quiet?: boolean } = {},
): Promise<DeepSearchConfig> {
  if (!needsLlmDiscovery(config)) return config;
  const candidates = parseLocalLlmCandidates(io.env.DEEPSEARCH_LOCAL_LLM_URLS);
  const fetch = createOutboundFetch({ proxy: resolveProxySettings(config) });
  const found = await discoverLocalLlm({ candidates, signal: io.signal, fetch });
  if (!found) {
    // A model downloaded earlier for the embedded runtime, if any (prepareLlm may offer one).
    const { setUpLocalModel } = await import('./local-model-setup.js');
    // Else resolveLlmSettings fails with the line naming the variables and init.
    return (await setUpLocalModel(io, config, { quiet: options.quiet }).catch(() => undefined)) ?? config;
  }
  const foundConfig = withSettings(config, {
    llm: { provider: 'openai-compatible', baseURL: found.baseURL, model: found.model },
  });
  if (!options.quiet) {
    io.stderr.write(
      `deepsearch: note: no LLM configured, using ${found.candidate.name} at ${found.candidate.url} with model ` +
        `${found.model} (deepsearch init saves a choice)\n`,
    );
  }
  return foundConfig;
}

function needsLlmDiscovery(config: DeepSearchConfig): boolean {
  try {
    resolveLlmSettings(config, 'agent');
    return false;
  } catch (error) {
    return isConfigError(error) && error.code === 'config_missing_llm';
  }
}
