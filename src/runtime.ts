import type { LanguageModelV3 } from '@ai-sdk/provider';
import type { AgentEventListener } from './agent/agent-events.js';
import type { DeepSearchResult } from './agent/agent-types.js';
import { runDeepSearch } from './agent/run-deep-search.js';
import {
  type AnswerSchema,
  createStructuredAnswer,
  type StructuredAnswer,
} from './agent/structured-answer.js';
import type { DeepSearchConfig } from './config/config-schema.js';
import type { ResolvedLlmSettings } from './config/resolve-llm-settings.js';
import { createLlmClient, type DeepSearchLlmClient } from './providers/llm/create-llm-client.js';
import { createPageReader } from './providers/reader/reader-registry.js';
import { createSearchProvider } from './providers/search/search-registry.js';
import type { PageReader } from './providers/spec/page-reader.js';
import type { SearchProvider } from './providers/spec/search-provider.js';

export interface RuntimeOptions {
  config: DeepSearchConfig;
  /** Used by every HTTP provider; tests and proxies pass their own. */
  fetch?: typeof globalThis.fetch;
  /** Replace a provider (tests, or a library user's own implementation). */
  search?: SearchProvider;
  reader?: PageReader;
  createModel?: (settings: ResolvedLlmSettings) => LanguageModelV3 | Promise<LanguageModelV3>;
}

export interface AskOptions {
  signal?: AbortSignal;
  onEvent?: AgentEventListener;
  history?: ReadonlyArray<{ question: string; answer: string }>;
  /**
   * This run's own config (from `deriveConfig`): budgets, agent and search settings, including
   * another search provider. The LLM settings stay the runtime's.
   */
  config?: DeepSearchConfig;
}

export interface DeepSearchRuntime {
  readonly config: DeepSearchConfig;
  readonly llm: DeepSearchLlmClient;
  readonly search: SearchProvider;
  readonly reader: PageReader;
  ask(question: string, options?: AskOptions): Promise<DeepSearchResult>;
  /** The answer of a finished run as JSON of the caller's schema (one more LLM call). */
  structureAnswer(
    result: DeepSearchResult,
    options: { answerSchema: AnswerSchema; signal?: AbortSignal },
  ): Promise<StructuredAnswer>;
}

/**
 * The one place that turns config into providers and an agent. Unknown provider names fail here,
 * at start; missing keys fail when the provider is first called, naming the variable to set.
 */
export function createRuntime(options: RuntimeOptions): DeepSearchRuntime {
  const { config } = options;
  const search =
    options.search ??
    createSearchProvider({
      ...config.search,
      fetch: options.fetch,
      allowPrivateNetwork: config.reader.allowPrivateNetwork,
    });
  const reader = options.reader ?? createPageReader({ ...config.reader, fetch: options.fetch });
  const llm = createLlmClient({ config, fetch: options.fetch, createModel: options.createModel });
  const otherSearch = new Map<string, SearchProvider>();
  // A run may name another provider; made once per provider, unknown names fail like at start.
  const searchFor = (runConfig: DeepSearchConfig): SearchProvider => {
    const id = runConfig.search.provider;
    if (id === config.search.provider) return search;
    let provider = otherSearch.get(id);
    if (!provider) {
      provider = createSearchProvider({
        ...runConfig.search,
        fetch: options.fetch,
        allowPrivateNetwork: config.reader.allowPrivateNetwork,
      });
      otherSearch.set(id, provider);
    }
    return provider;
  };
  return {
    config,
    llm,
    search,
    reader,
    ask: (question, askOptions = {}) => {
      const runConfig = askOptions.config ?? config;
      return runDeepSearch({
        question,
        config: runConfig,
        llm,
        search: searchFor(runConfig),
        reader,
        signal: askOptions.signal,
        onEvent: askOptions.onEvent,
        history: askOptions.history,
      });
    },
    structureAnswer: (result, structureOptions) =>
      createStructuredAnswer({ llm, result, ...structureOptions }),
  };
}
