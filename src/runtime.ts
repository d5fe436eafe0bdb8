import { randomUUID } from 'node:crypto';
import type { LanguageModelV3 } from '@ai-sdk/provider';
import type { AgentEventListener } from './agent/agent-events.js';
import type { DeepSearchResult } from './agent/agent-types.js';
import type { RunRestore } from './agent/run-checkpoint.js';
import type { AnswerSchema, StructuredAnswer } from './agent/structured-answer.js';
import type { DeepSearchConfig } from './config/config-schema.js';
import { configSecrets } from './config/config-secrets.js';
import type { ConfigOverrides } from './config/derive-config.js';
import type { ResolvedLlmSettings } from './config/resolve-llm-settings.js';
import { ConfigError, createRedactor, InputError, type Redactor } from './errors/index.js';
import { createKnowledgeBase, type KnowledgeBase } from './knowledge/knowledge-base.js';
import { createKnowledgeReader } from './knowledge/knowledge-reader.js';
import { createLocalSearch, localSearchId, withLocalHits } from './knowledge/local-search-provider.js';
import { createTrustRecords, type TrustRecords } from './knowledge/trust-records.js';
import { createProviderCache } from './providers/cache/create-provider-cache.js';
import type { SqliteDriverLoader } from './providers/cache/sqlite-cache.js';
import { assertFitsContext } from './providers/llm/assert-fits-context.js';
import { createLlmClient, type DeepSearchLlmClient } from './providers/llm/create-llm-client.js';
import { fitContextWindow } from './providers/llm/fit-context-window.js';
import { createPageReader } from './providers/reader/reader-registry.js';
import { withRedactedErrors } from './providers/redact-provider-errors.js';
import { createQuickJsCodeRunner } from './providers/sandbox/quickjs-code-runner.js';
import { assertSearchConfigured } from './providers/search/search-provider-choice.js';
import { createSearchProvider } from './providers/search/search-registry.js';
import type { CodeRunner } from './providers/spec/code-runner.js';
import type { EmbeddingProvider } from './providers/spec/embedding-provider.js';
import type { TextRequest, TextResult } from './providers/spec/llm-client.js';
import type { PageReader } from './providers/spec/page-reader.js';
import type { Reranker } from './providers/spec/reranker.js';
import type { SearchProvider } from './providers/spec/search-provider.js';
import { isResearchRestore, type ResearchRestore } from './research/research-checkpoint.js';
import type { ResearchPlan, ResearchReport } from './research/research-types.js';
import { createRetrievalProviders } from './retrieval/create-retrieval-providers.js';
import { HostHealth, type TrustProfile } from './retrieval/host-health.js';
import { type ResumeTarget, resumedConfig, resumeTarget } from './runs/resume-target.js';
import { type RecordOptions, startRecording } from './runs/run-recording.js';
import { createRunStore, type RunStore } from './runs/run-store.js';

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
  /** Runs the coding action's JavaScript; default: QuickJS in WebAssembly with config.sandbox's limits. */
  codeRunner?: CodeRunner;
  createModel?: (settings: ResolvedLlmSettings) => LanguageModelV3 | Promise<LanguageModelV3>;
  /**
   * Called once when the cache's native module cannot load; the run then goes on without the
   * cache. Without it, the first search or read throws a ConfigError saying how to fix it.
   */
  onCacheUnavailable?: (message: string) => void;
  /** Loads better-sqlite3 (tests simulate a missing native build with one that throws). */
  loadSqlite?: SqliteDriverLoader;
  /** Where runs are recorded; default: config.runs.file when set and runs are enabled, else none. */
  runStore?: RunStore;
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
  /** How the run is recorded in the run store (default: owner `local`); false: not recorded. */
  record?: RecordOptions | false;
}

export interface ResumeOptions extends Omit<AskOptions, 'config' | 'history' | 'runId'> {
  /** Settings changed for the rest of the run (a raised budget); the rest are the run's own. */
  overrides?: ConfigOverrides;
  /** Only a run of this owner may be resumed. */
  owner?: string;
}

export interface ResearchOptions extends Omit<AskOptions, 'history'> {
  /** A plan a person edited (`--outline FILE`): planning is skipped. */
  plan?: ResearchPlan;
}

export interface DeepSearchRuntime {
  readonly config: DeepSearchConfig;
  readonly llm: DeepSearchLlmClient;
  readonly search: SearchProvider;
  readonly reader: PageReader;
  readonly embedding: EmbeddingProvider;
  readonly reranker: Reranker;
  readonly codeRunner: CodeRunner;
  /**
   * Domain trust profiles (failures, paywalls, blocks, citations, https): loaded on first use
   * from the knowledge base's database (or retrieval.hostHealthFile) and saved after each run.
   */
  readonly hostHealth: HostHealth;
  /** The local knowledge base of config.knowledge.file (opened on first use), if one is set. */
  readonly knowledgeBase: KnowledgeBase | undefined;
  /** A domain's (or a URL's host's) trust profile with its provisional score; research synthesis weighs sources by it. */
  trustOf(hostOrUrl: string): TrustProfile;
  ask(question: string, options?: AskOptions): Promise<DeepSearchResult>;
  /**
   * Goes on with a stored run from its last checkpoint (same run id, events continue its
   * sequence): after a crash, a kill, a cancel or a budget stop with a raised budget.
   */
  resume(runId: string, options?: ResumeOptions): Promise<DeepSearchResult>;
  /**
   * Goes on with a stored research run from its last checkpoint: its plan (no planning call),
   * the sections already gathered, its shared knowledge and budget; then the rest and the report.
   */
  resumeResearch(runId: string, options?: ResumeOptions): Promise<ResearchReport>;
  /** The run store, when runs are recorded. */
  readonly runs: RunStore | undefined;
  /** Research mode: a planned, multi-section, cited report (see src/research/). */
  research(topic: string, options?: ResearchOptions): Promise<ResearchReport>;
  /** The answer of a finished run as JSON of the caller's schema (one more LLM call). */
  structureAnswer(
    result: DeepSearchResult,
    options: { answerSchema: AnswerSchema; signal?: AbortSignal },
  ): Promise<StructuredAnswer>;
  /** One plain call to the agent's model, without search: chat-UI background tasks, the direct model. */
  askModel(request: Omit<TextRequest, 'role'>): Promise<TextResult>;
  /** Replaces every configured secret (all keys, server keys too) in a text; output paths apply it. */
  readonly redact: Redactor;
  /**
   * Releases the cache, knowledge, trust and run databases and stops the sandbox process; the
   * runtime may still be used (they reopen on demand).
   */
  close(): void;
}

/** Every source scheme's reader: web and file: from the config, then the caller's (kb:...). */
function createSourceReader(options: RuntimeOptions): PageReader {
  const sources = createPageReader({ ...options.config.reader, fetch: options.fetch });
  for (const [scheme, reader] of Object.entries(options.sourceReaders ?? {}))
    sources.register(scheme, reader);
  return sources;
}

/** The trust profiles, read once from their records; a damaged or unreadable record starts afresh. */
function loadHostHealth(records: TrustRecords | undefined): HostHealth {
  if (!records) return new HostHealth();
  try {
    return new HostHealth(records.load());
  } catch {
    return new HostHealth();
  }
}

/** Writes the hosts changed since the last save; on failure they stay unsaved for the next one. */
function saveHostHealth(records: TrustRecords, health: HostHealth, warn: (message: string) => void): void {
  const changes = health.unsavedChanges();
  if (changes.length === 0) return;
  try {
    health.markSaved(records.save(changes));
  } catch (error) {
    warn(`cannot save domain trust profiles to ${records.file}: ${(error as Error).message}`);
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
  const cache = createProviderCache(config.cache, {
    loadDriver: options.loadSqlite,
    onUnavailable: options.onCacheUnavailable,
  });
  const network = { allowPrivateNetwork: config.reader.allowPrivateNetwork };
  const redact = createRedactor(configSecrets(config));
  const llm = withRedactedErrors(
    createLlmClient({ config, fetch: options.fetch, createModel: options.createModel }),
    redact,
  );
  // Starts its sandbox process (and loads the engine there) on the first run of code, not here;
  // an injected runner is the caller's to close.
  const ownCodeRunner = options.codeRunner ? undefined : createQuickJsCodeRunner(config.sandbox);
  const codeRunner = options.codeRunner ?? ownCodeRunner!;
  const services = createRetrievalProviders({ config, fetch: options.fetch });
  const embedding = options.embedding ?? services.embedding;
  const reranker = options.reranker ?? services.reranker;
  // The knowledge base opens on its first search or read, not here.
  const knowledgeBase = config.knowledge.file
    ? createKnowledgeBase({ file: config.knowledge.file, embedding, reranker })
    : undefined;
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
    return knowledge.merge && localSearch && !usesLocal ? withLocalHits(cached, localSearch()) : cached;
  };
  const search = options.search ?? makeSearch(config.search, config.knowledge);
  // kb: URLs are read from the knowledge base by the scheme-aware source reader; they are never
  // cached (the cache keeps network schemes only).
  const sourceReaders = knowledgeBase
    ? { 'kb:': createKnowledgeReader({ knowledgeBase }), ...options.sourceReaders }
    : options.sourceReaders;
  const reader = options.reader ?? cache.reader(createSourceReader({ ...options, sourceReaders }), network);
  // Keeps one connection to the knowledge base's file from the first load or save to close().
  const trustRecords = createTrustRecords({
    jsonFile: config.retrieval.hostHealthFile,
    knowledgeFile: config.knowledge.file,
    loadDriver: options.loadSqlite,
  });
  // Read on first use: a runtime that only searches or reads never opens the database for it.
  let loadedHealth: HostHealth | undefined;
  const hostHealth = () => {
    loadedHealth ??= loadHostHealth(trustRecords);
    return loadedHealth;
  };
  /** Records the hosts a finished run cited and saves the profiles when the run changed them. */
  const settleTrust = (
    health: HostHealth,
    cited: ReadonlyArray<{ url: string }> | undefined,
    warn: (message: string) => void,
  ) => {
    // A domain cited in a final answer earns trust: the reference count of its profile.
    for (const reference of cited ?? []) health.recordReference(reference.url);
    // Only the hosts changed since the last save (by this run or one still going) are written.
    if (trustRecords) saveHostHealth(trustRecords, health, warn);
  };
  const otherSearch = new Map<string, SearchProvider>();
  // A run may name another provider; made once per provider, unknown names fail like at start.
  const searchFor = (runConfig: DeepSearchConfig): SearchProvider => {
    const searchKey = (c: DeepSearchConfig) => `${c.search.provider}${c.knowledge.merge ? '+kb' : ''}`;
    const id = searchKey(runConfig);
    if (id === searchKey(config)) return search;
    let provider = otherSearch.get(id);
    if (!provider) {
      provider = makeSearch(runConfig.search, runConfig.knowledge);
      otherSearch.set(id, provider);
    }
    return provider;
  };
  /**
   * Checks a run's input against the model's window before any LLM call (an oversized question
   * is the user's to fix), and fits the run's config to the window the server really has.
   */
  const fitRun = async (question: string, runOptions: AskOptions) => {
    const runConfig = runOptions.config ?? config;
    assertFitsContext({ question, history: runOptions.history, contextTokens: runConfig.llm.contextTokens });
    // A missing SearXNG instance fails here, before any LLM call (the window query included).
    if (!options.search) assertSearchConfigured(runConfig);
    const window = await llm.contextWindow('agent', runOptions.signal);
    const fitted = fitContextWindow(runConfig, window);
    assertFitsContext({
      question,
      history: runOptions.history,
      contextTokens: fitted.config.llm.contextTokens,
    });
    return fitted;
  };
  const parts = {
    llm,
    reader: withRedactedErrors(reader, redact),
    embedding: withRedactedErrors(embedding, redact),
    reranker: withRedactedErrors(reranker, redact),
    codeRunner,
  };
  const runs =
    options.runStore ??
    (config.runs.enabled && config.runs.file
      ? createRunStore({
          file: config.runs.file,
          retention: config.runs.retention,
          loadDriver: options.loadSqlite,
        })
      : undefined);
  const ask = async (
    question: string,
    askOptions: AskOptions,
    restore?: RunRestore,
  ): Promise<DeepSearchResult> => {
    // The agent (and the AI SDK behind it) loads on the first question, so a runtime made only
    // to search or read pages (deepsearch search, read) never loads it.
    const [{ prepareRun }, { runLoop }, fitted] = await Promise.all([
      import('./agent/run-deep-search.js'),
      import('./agent/run-loop.js'),
      fitRun(question, askOptions),
    ]);
    const runConfig = fitted.config;
    const runId = askOptions.runId ?? randomUUID();
    const warnings = fitted.warning ? [fitted.warning] : [];
    const recording =
      runs && askOptions.record !== false
        ? startRecording({
            store: runs,
            runId,
            question,
            config: runConfig,
            redact,
            record: askOptions.record ?? {},
            warn: (message) => warnings.push(message),
          })
        : undefined;
    const health = hostHealth();
    let cited: DeepSearchResult['references'] | undefined;
    const run = prepareRun({
      question,
      ...parts,
      hostHealth: health,
      config: runConfig,
      search: withRedactedErrors(searchFor(runConfig), redact),
      signal: askOptions.signal,
      onEvent: askOptions.onEvent,
      // The recorder before the caller's observers: what a client is shown is already being stored.
      observers: [...(recording ? [recording.observe] : []), ...(askOptions.observers ?? [])],
      history: askOptions.history,
      runId,
      restore,
      onCheckpoint: recording?.checkpoint,
    });
    for (const message of warnings) run.events.emit({ type: 'warning', step: 0, message });
    try {
      const result = await runLoop(run);
      cited = result.references;
      recording?.settle({ result });
      return result;
    } catch (error) {
      recording?.settle({ error });
      throw error;
    } finally {
      settleTrust(health, cited, (message) => run.events.emit({ type: 'warning', step: 0, message }));
    }
  };
  const research = async (
    topic: string,
    researchOptions: ResearchOptions,
    restore?: ResearchRestore,
  ): Promise<ResearchReport> => {
    const [{ runResearch }, fitted] = await Promise.all([
      import('./research/run-research.js'),
      fitRun(topic, researchOptions),
    ]);
    const runConfig = fitted.config;
    const runId = researchOptions.runId ?? randomUUID();
    const notices = fitted.warning ? [fitted.warning] : [];
    const recording =
      runs && researchOptions.record !== false
        ? startRecording({
            store: runs,
            runId,
            question: topic,
            config: runConfig,
            redact,
            record: { mode: 'research', ...researchOptions.record },
            warn: (message) => notices.push(message),
          })
        : undefined;
    const health = hostHealth();
    let cited: ResearchReport['references'] | undefined;
    try {
      const report = await runResearch({
        topic,
        plan: researchOptions.plan,
        restore,
        onCheckpoint: recording?.checkpoint,
        ...parts,
        hostHealth: health,
        config: runConfig,
        search: withRedactedErrors(searchFor(runConfig), redact),
        signal: researchOptions.signal,
        // The sections' events come with their own run ids, in the task bus's one sequence (its
        // forward), which a resumed task takes up from the last stored event.
        // The recorder before the caller's observers: what a client is shown is already being stored.
        observers: [...(recording ? [recording.observe] : []), ...(researchOptions.observers ?? [])],
        onEvent: researchOptions.onEvent,
        notices,
        runId,
      });
      cited = report.references;
      recording?.settle({ result: report });
      return report;
    } catch (error) {
      recording?.settle({ error });
      throw error;
    } finally {
      settleTrust(health, cited, () => {});
    }
  };
  const findResumeTarget = (runId: string, owner: string | undefined): ResumeTarget => {
    if (!runs)
      throw new ConfigError(
        'runs are not recorded (runs.enabled is off or runs.file unset): nothing to resume',
      );
    return resumeTarget({ store: runs, runId, owner });
  };
  /** A resumed run's options: its own settings (a raised budget given now), id and record. */
  const resumedOptions = (target: ResumeTarget, resumeOptions: ResumeOptions) => ({
    ...resumeOptions,
    config: resumedConfig(config, target.record, resumeOptions.overrides),
    runId: target.record.id,
    record:
      resumeOptions.record === false
        ? (false as const)
        : { ...target.record, ...resumeOptions.record, resumed: target.record },
  });
  return {
    ...parts,
    get hostHealth() {
      return hostHealth();
    },
    trustOf: (hostOrUrl) => hostHealth().trustOf(hostOrUrl),
    config,
    search,
    knowledgeBase,
    redact,
    close: () => {
      cache.close();
      knowledgeBase?.close();
      trustRecords?.close();
      runs?.close();
      ownCodeRunner?.close();
    },
    runs,
    ask: (question, askOptions = {}) => ask(question, askOptions),
    resume: async (runId, resumeOptions = {}) => {
      const target = findResumeTarget(runId, resumeOptions.owner);
      if (target.kind !== 'search')
        throw new InputError(`run ${runId} is research: resume it with resumeResearch()`, {
          code: 'run_not_resumable',
        });
      return ask(target.record.question, resumedOptions(target, resumeOptions), target.restore);
    },
    research: (topic, researchOptions = {}) => research(topic, researchOptions),
    resumeResearch: async (runId, resumeOptions = {}) => {
      const target = findResumeTarget(runId, resumeOptions.owner);
      if (target.kind !== 'research' || !isResearchRestore(target.restore))
        throw new InputError(`run ${runId} is not research: resume it with resume()`, {
          code: 'run_not_resumable',
        });
      return research(target.record.question, resumedOptions(target, resumeOptions), target.restore);
    },
    askModel: (request) => llm.generateText({ role: 'agent', ...request }),
    structureAnswer: async (result, structureOptions) => {
      const { createStructuredAnswer } = await import('./agent/structured-answer.js');
      return createStructuredAnswer({ llm, result, ...structureOptions });
    },
  };
}
