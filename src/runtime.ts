import type { LanguageModelV3 } from '@ai-sdk/provider';
import type { AgentEventListener } from './agent/agent-events.js';
import type { DeepSearchResult } from './agent/agent-types.js';
import type { AnswerSchema, StructuredAnswer } from './agent/structured-answer.js';
import type { DeepSearchConfig } from './config/config-schema.js';
import type { ResolvedLlmSettings } from './config/resolve-llm-settings.js';
import { createProviderCache } from './providers/cache/create-provider-cache.js';
import { createLlmClient, type DeepSearchLlmClient } from './providers/llm/create-llm-client.js';
import { fitContextWindow } from './providers/llm/fit-context-window.js';
import { createPageReader } from './providers/reader/reader-registry.js';
import { createSearchProvider } from './providers/search/search-registry.js';
import type { EmbeddingProvider } from './providers/spec/embedding-provider.js';
import type { PageReader } from './providers/spec/page-reader.js';
import type { Reranker } from './providers/spec/reranker.js';
import type { SearchProvider } from './providers/spec/search-provider.js';
import { readJsonFile, writeJsonFile } from './providers/storage/json-file.js';
import { createRetrievalProviders } from './retrieval/create-retrieval-providers.js';
import { HostHealth } from './retrieval/host-health.js';

export interface RuntimeOptions {
  config: DeepSearchConfig;
  /** Used by every HTTP provider; tests and proxies pass their own. */
  fetch?: typeof globalThis.fetch;
  /** Replace a provider (tests, or a library user's own implementation). */
  search?: SearchProvider;
  reader?: PageReader;
  /**
   * Readers of more source schemes beside http(s) and file:, by scheme: {"kb:": knowledgeBaseReader}.
   * Used with the reader built from the config (not with `reader`); never cached.
   */
  sourceReaders?: Readonly<Record<string, PageReader>>;
  embedding?: EmbeddingProvider;
  reranker?: Reranker;
  createModel?: (settings: ResolvedLlmSettings) => LanguageModelV3 | Promise<LanguageModelV3>;
}

export interface AskOptions {
  signal?: AbortSignal;
  onEvent?: AgentEventListener;
  /** More observers of the run's events; one that throws is detached, never ends the run. */
  observers?: ReadonlyArray<AgentEventListener>;
  /** The run's id (default: a new UUID); every event carries it. */
  runId?: string;
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
  readonly embedding: EmbeddingProvider;
  readonly reranker: Reranker;
  /** Hosts that failed or were paywalled; saved to retrieval.hostHealthFile after each run. */
  readonly hostHealth: HostHealth;
  ask(question: string, options?: AskOptions): Promise<DeepSearchResult>;
  /** The answer of a finished run as JSON of the caller's schema (one more LLM call). */
  structureAnswer(
    result: DeepSearchResult,
    options: { answerSchema: AnswerSchema; signal?: AbortSignal },
  ): Promise<StructuredAnswer>;
  /** Releases the cache database; the runtime may still be used (it reopens on demand). */
  close(): void;
}

/** Every source scheme's reader: web and file: from the config, then the caller's (kb:...). */
function createSourceReader(options: RuntimeOptions): PageReader {
  const sources = createPageReader({ ...options.config.reader, fetch: options.fetch });
  for (const [scheme, reader] of Object.entries(options.sourceReaders ?? {}))
    sources.register(scheme, reader);
  return sources;
}

function saveHostHealth(path: string, health: HostHealth, warn: (message: string) => void): void {
  try {
    writeJsonFile(path, health.snapshot());
  } catch (error) {
    warn(`cannot save host health to ${path}: ${(error as Error).message}`);
  }
}

/**
 * The one place that turns config into providers and an agent. Unknown provider names fail here,
 * at start; missing keys fail when the provider is first called, naming the variable to set.
 */
export function createRuntime(options: RuntimeOptions): DeepSearchRuntime {
  const { config } = options;
  // Only providers built from the config are cached: injected ones (tests, a library user's own)
  // are used as given.
  const cache = createProviderCache(config.cache);
  const network = { allowPrivateNetwork: config.reader.allowPrivateNetwork };
  const search =
    options.search ??
    cache.search(
      createSearchProvider({
        ...config.search,
        fetch: options.fetch,
        allowPrivateNetwork: config.reader.allowPrivateNetwork,
      }),
      config.search,
      network,
    );
  const reader = options.reader ?? cache.reader(createSourceReader(options), network);
  const llm = createLlmClient({ config, fetch: options.fetch, createModel: options.createModel });
  const services = createRetrievalProviders({ config, fetch: options.fetch });
  const embedding = options.embedding ?? services.embedding;
  const reranker = options.reranker ?? services.reranker;
  const healthFile = config.retrieval.hostHealthFile;
  const hostHealth = new HostHealth(healthFile ? readJsonFile(healthFile) : {});
  const otherSearch = new Map<string, SearchProvider>();
  // A run may name another provider; made once per provider, unknown names fail like at start.
  const searchFor = (runConfig: DeepSearchConfig): SearchProvider => {
    const id = runConfig.search.provider;
    if (id === config.search.provider) return search;
    let provider = otherSearch.get(id);
    if (!provider) {
      provider = cache.search(
        createSearchProvider({
          ...runConfig.search,
          fetch: options.fetch,
          allowPrivateNetwork: config.reader.allowPrivateNetwork,
        }),
        runConfig.search,
        network,
      );
      otherSearch.set(id, provider);
    }
    return provider;
  };
  const parts = { llm, reader, embedding, reranker, hostHealth };
  return {
    ...parts,
    config,
    search,
    close: () => cache.close(),
    ask: async (question, askOptions = {}) => {
      // The agent (and the AI SDK behind it) loads on the first question, so a runtime made only
      // to search or read pages (deepsearch search, read) never loads it. The server's real window
      // is asked meanwhile (once per runtime), so prompts never outgrow it.
      const [{ prepareRun }, { runLoop }, window] = await Promise.all([
        import('./agent/run-deep-search.js'),
        import('./agent/run-loop.js'),
        llm.contextWindow('agent', askOptions.signal),
      ]);
      const fitted = fitContextWindow(askOptions.config ?? config, window);
      const runConfig = fitted.config;
      const run = prepareRun({
        question,
        ...parts,
        config: runConfig,
        search: searchFor(runConfig),
        signal: askOptions.signal,
        onEvent: askOptions.onEvent,
        observers: askOptions.observers,
        history: askOptions.history,
        runId: askOptions.runId,
      });
      if (fitted.warning) run.events.emit({ type: 'warning', step: 0, message: fitted.warning });
      try {
        return await runLoop(run);
      } finally {
        if (healthFile)
          saveHostHealth(healthFile, hostHealth, (message) =>
            run.events.emit({ type: 'warning', step: 0, message }),
          );
      }
    },
    structureAnswer: async (result, structureOptions) => {
      const { createStructuredAnswer } = await import('./agent/structured-answer.js');
      return createStructuredAnswer({ llm, result, ...structureOptions });
    },
  };
}
