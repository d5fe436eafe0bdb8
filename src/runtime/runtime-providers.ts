import type { DeepSearchConfig } from '../config/config-schema.js';
import { configSecrets } from '../config/config-secrets.js';
import { resolveProxySettings } from '../config/proxy-settings.js';
import { createRedactor, type Redactor } from '../core/errors/index.js';
import type { ContentExtractor } from '../extraction/worker/content-extractor.js';
import { acquireExtractionPool } from '../extraction/worker/shared-extraction-pool.js';
import { createKnowledgeBase, type KnowledgeBase } from '../knowledge/knowledge-base.js';
import { createKnowledgeReader } from '../knowledge/knowledge-reader.js';
import { createOutboundFetch } from '../platform/http/outbound-fetch.js';
import { createQuickJsCodeRunner } from '../providers/code-runner/quickjs-code-runner.js';
import { createLlmClient, type DeepSearchLlmClient } from '../providers/llm/create-llm-client.js';
import { createRedactErrorsMiddleware } from '../providers/middleware/redact-errors-middleware.js';
import { createPageReader } from '../providers/reader/reader-registry.js';
import type { CodeRunner } from '../providers/spec/code-runner.js';
import type { EmbeddingProvider } from '../providers/spec/embedding-provider.js';
import type { PageReader } from '../providers/spec/page-reader.js';
import type { Reranker } from '../providers/spec/reranker.js';
import type { SearchProvider } from '../providers/spec/search-provider.js';
import {
  wrapEmbeddingProvider,
  wrapLlmClient,
  wrapPageReader,
  wrapReranker,
  wrapSearchProvider,
} from '../providers/spec/wrap-provider.js';
import { createConfiguredRunStore, type RunStore } from '../runs/run-store.js';
import type { CheckedRuntimeOptions } from './check-runtime-options.js';
import { createProviderCache } from './create-provider-cache.js';
import { createRetrievalProviders } from './create-retrieval-providers.js';
import { createRuntimeSearch } from './runtime-search.js';
import { createRuntimeTrust, type RuntimeTrust } from './runtime-trust.js';

/** The providers every run of a runtime gets, their errors redacted (the runtime shows them too). */
export interface RunProviders {
  llm: DeepSearchLlmClient;
  reader: PageReader;
  embedding: EmbeddingProvider;
  reranker: Reranker;
  codeRunner: CodeRunner;
}

/**
 * What ask, research and resume share: the providers built once from the config, the stores, and
 * the options the runtime was made with.
 */
export interface RuntimeProviders {
  readonly options: CheckedRuntimeOptions;
  readonly config: DeepSearchConfig;
  readonly redact: Redactor;
  readonly parts: RunProviders;
  /** The search of the runtime's config (or the caller's), as the runtime shows it. */
  readonly search: SearchProvider;
  /** A run's search (its config may name another provider), its errors redacted. */
  runSearch(runConfig: DeepSearchConfig): SearchProvider;
  readonly knowledgeBase: KnowledgeBase | undefined;
  readonly trust: RuntimeTrust;
  /** The run store, when runs are recorded. */
  readonly runs: RunStore | undefined;
  /**
   * Releases the databases, stops the runtime's own sandbox process and its hold on the extraction
   * pool; all reopen on demand.
   */
  close(): void;
}

/**
 * Turns the config (and the caller's replacements) into providers. Unknown provider names fail
 * here, at start; missing keys fail when the provider is first called, naming the variable to set.
 */
export function createRuntimeProviders(options: CheckedRuntimeOptions): RuntimeProviders {
  const { config } = options;
  // Only providers built from the config are cached: injected ones (tests, a library user's own)
  // are used as given.
  const cache = createProviderCache(config.cache, {
    loadDriver: options.loadSqlite,
    onUnavailable: options.onCacheUnavailable,
  });
  const network = { allowPrivateNetwork: config.reader.allowPrivateNetwork };
  const redact = createRedactor(configSecrets(config));
  // Every service call goes through the config's proxy (HTTPS_PROXY...) unless the caller brings a fetch.
  const fetch = options.fetch ?? createOutboundFetch({ proxy: resolveProxySettings(config) });
  const redaction = createRedactErrorsMiddleware(redact);
  const modelFetch = options.modelFetch ?? fetch;
  const llm = wrapLlmClient({
    provider: createLlmClient({ config, fetch: modelFetch, createModel: options.createModel }),
    middleware: redaction,
  });
  // Starts its sandbox process (and loads the engine there) on the first run of code, not here;
  // an injected runner is the caller's to close.
  const ownCodeRunner = options.codeRunner ? undefined : createQuickJsCodeRunner(config.sandbox);
  const codeRunner = options.codeRunner ?? ownCodeRunner!;
  const services = createRetrievalProviders({ config, fetch: modelFetch });
  const embedding = options.embedding ?? services.embedding;
  const reranker = options.reranker ?? services.reranker;
  // Pages and files are parsed in the process's extraction pool (started on the first read).
  const extraction = acquireExtractionPool(config.reader.extraction);
  const extractor = options.extractor ?? extraction.extractor;
  // The knowledge base opens on its first search or read, not here.
  const knowledgeBase = config.knowledge.file
    ? createKnowledgeBase({
        file: config.knowledge.file,
        embedding,
        reranker,
        extractor,
        maxFileBytes: config.knowledge.maxFileBytes,
      })
    : undefined;
  const { search, searchFor } = createRuntimeSearch({
    config,
    fetch,
    search: options.search,
    cache,
    network,
    knowledgeBase,
  });
  // kb: URLs are read from the knowledge base by the scheme-aware source reader; they are never
  // cached (the cache keeps network schemes only).
  const sourceReaders = knowledgeBase
    ? { 'kb:': createKnowledgeReader({ knowledgeBase }), ...options.sourceReaders }
    : options.sourceReaders;
  const reader =
    options.reader ?? cache.reader(createSourceReader({ ...options, sourceReaders }, extractor), network);
  const trust = createRuntimeTrust({ config, loadSqlite: options.loadSqlite, store: options.trustStore });
  const runs = options.runStore ?? createConfiguredRunStore(options.config.runs, options.loadSqlite);
  return {
    options,
    config,
    redact,
    parts: {
      llm,
      reader: wrapPageReader({ provider: reader, middleware: redaction }),
      embedding: wrapEmbeddingProvider({ provider: embedding, middleware: redaction }),
      reranker: wrapReranker({ provider: reranker, middleware: redaction }),
      codeRunner,
    },
    search,
    runSearch: (runConfig) => wrapSearchProvider({ provider: searchFor(runConfig), middleware: redaction }),
    knowledgeBase,
    trust,
    runs,
    close: () => {
      cache.close();
      knowledgeBase?.close();
      trust.close();
      runs?.close();
      ownCodeRunner?.close();
      extraction.release();
    },
  };
}

/** Every source scheme's reader: web and file: from the config, then the caller's (kb:...). */
function createSourceReader(options: CheckedRuntimeOptions, extractor: ContentExtractor): PageReader {
  const sources = createPageReader({
    ...options.config.reader,
    fetch: options.fetch,
    extractor,
    proxy: resolveProxySettings(options.config),
  });
  for (const [scheme, reader] of Object.entries(options.sourceReaders ?? {}))
    sources.register(scheme, reader);
  return sources;
}
