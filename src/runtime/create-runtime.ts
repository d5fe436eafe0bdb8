import type { LanguageModelV3 } from '@ai-sdk/provider';
import type { AnswerSchema, StructuredAnswer } from '../agent/structured-answer.js';
import type { DeepSearchConfig } from '../config/config-schema.js';
import type { ConfigOverrides } from '../config/derive-config.js';
import type { ResolvedLlmSettings } from '../config/resolve-llm-settings.js';
import type { Redactor } from '../core/errors/index.js';
import type { AgentEventListener } from '../events/agent-events.js';
import type { DeepSearchResult } from '../events/deep-search-result.js';
import type { ResearchEstimate, ResearchPlan, ResearchReport } from '../events/research-result.js';
import type { ContentExtractor } from '../extraction/worker/content-extractor.js';
import type { KnowledgeBase } from '../knowledge/knowledge-base.js';
import type { TrustStore } from '../knowledge/trust-store.js';
import type { SqliteDriverLoader } from '../platform/storage/sqlite-cache.js';
import type { DeepSearchLlmClient } from '../providers/llm/create-llm-client.js';
import type { CodeRunner } from '../providers/spec/code-runner.js';
import type { EmbeddingProvider } from '../providers/spec/embedding-provider.js';
import type { TextRequest, TextResult } from '../providers/spec/llm-client.js';
import type { PageReader } from '../providers/spec/page-reader.js';
import type { Reranker } from '../providers/spec/reranker.js';
import type { SearchProvider } from '../providers/spec/search-provider.js';
import type { HostHealth, TrustProfile } from '../retrieval/host-health.js';
import type { RecordOptions } from '../runs/run-recording.js';
import type { RunStore } from '../runs/run-store.js';
import { checkRuntimeOptions } from './check-runtime-options.js';
import { outlineRuntime } from './outline-runtime.js';
import { runRuntime } from './run-runtime.js';
import { createRuntimeProviders } from './runtime-providers.js';

export interface RuntimeOptions {
  config: DeepSearchConfig;
  /** Used by every HTTP provider instead of the outbound fetch (config.network's proxies); tests pass their own. */
  fetch?: typeof globalThis.fetch;
  /**
   * The fetch for calls to model servers only (LLM, embeddings, reranker), default `fetch`: a
   * worker's holds each call under the cap on LLM calls across workers, while searches and page
   * reads keep the runtime's own (the reader's connect-time guard, the browser for app shells).
   */
  modelFetch?: typeof globalThis.fetch;
  /**
   * Replace a provider (tests, or a library user's own implementation of the interface, with
   * `specificationVersion: 'v1'`; one without it, or of another version, is a ConfigError).
   */
  search?: SearchProvider;
  reader?: PageReader;
  /**
   * Parses the pages and files the config's readers fetch; default the process's extraction pool
   * for config.reader.extraction (the one-shot `deepsearch read` passes one that parses small pages
   * itself). The runtime's hold on the pool is released by close() either way.
   */
  extractor?: ContentExtractor;
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
  /**
   * Where domain trust profiles are read and saved, shared with other processes (queue mode:
   * Postgres; counts are added, so every worker's count); the caller closes it. Default: the
   * knowledge base's file (or retrieval.hostHealthFile).
   */
  trustStore?: TrustStore;
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

/**
 * One run of the runtime: a new deep search (`mode: 'search'`) or research report
 * (`mode: 'research'`) on `question`, or `{ resume: runId }`, which goes on with a stored run from
 * its last checkpoint in the mode it was started in (after a crash, a kill, a cancel, or a budget
 * stop with a raised budget in `overrides`).
 */
export type RunRequest =
  | ({ mode: 'search'; question: string } & AskOptions)
  | ({ mode: 'research'; question: string } & ResearchOptions)
  | ({ resume: string } & ResumeOptions);

/** A finished run: a deep search's answer or a research report, by the run's mode. */
export type RunOutcome =
  | { mode: 'search'; result: DeepSearchResult }
  | { mode: 'research'; result: ResearchReport };

/** The outcome a request can have: its mode's when it names one, either when it resumes. */
export type RunOutcomeOf<Request extends RunRequest> = Request extends { mode: infer Mode }
  ? Extract<RunOutcome, { mode: Mode }>
  : RunOutcome;

export type OutlineOptions = Pick<ResearchOptions, 'signal' | 'config' | 'onEvent' | 'observers'>;

export interface ResearchOutline {
  plan: ResearchPlan;
  estimate: ResearchEstimate;
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
   * from the knowledge base's database (or retrieval.hostHealthFile) and saved after each run;
   * with a `trustStore`, as read at the last run's start.
   */
  readonly hostHealth: HostHealth;
  /** The local knowledge base of config.knowledge.file (opened on first use), if one is set. */
  readonly knowledgeBase: KnowledgeBase | undefined;
  /** A domain's (or a URL's host's) trust profile with its provisional score; research synthesis weighs sources by it. */
  trustOf(hostOrUrl: string): TrustProfile;
  /** Runs a deep search or research, or resumes a stored run (see RunRequest). */
  run<Request extends RunRequest>(request: Request): Promise<RunOutcomeOf<Request>>;
  /** The run store, when runs are recorded. */
  readonly runs: RunStore | undefined;
  /**
   * Research's plan alone (one planning call, no run recorded), with its estimate: an outline a
   * person edits and hands back as `research(topic, {plan})`.
   */
  outline(topic: string, options?: OutlineOptions): Promise<ResearchOutline>;
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

/**
 * The one place that turns config into providers and an agent. Unknown provider names, and a
 * caller's provider that is none or names an unknown specificationVersion, fail here, at start;
 * missing keys fail when the provider is first called, naming the variable to set.
 * The parts share one RuntimeProviders (runtime-providers.ts); every run goes through `run`
 * (run-runtime.ts), one recorded-run wrapper (recorded-run.ts) for both modes.
 */
export function createRuntime(options: RuntimeOptions): DeepSearchRuntime {
  const runtime = createRuntimeProviders(checkRuntimeOptions(options));
  const { llm } = runtime.parts;
  return {
    ...runtime.parts,
    get hostHealth() {
      return runtime.trust.hostHealth();
    },
    trustOf: (hostOrUrl) => runtime.trust.hostHealth().trustOf(hostOrUrl),
    config: runtime.config,
    search: runtime.search,
    knowledgeBase: runtime.knowledgeBase,
    redact: runtime.redact,
    close: () => runtime.close(),
    runs: runtime.runs,
    run: (request) => runRuntime(runtime, request) as never,
    outline: (topic, outlineOptions = {}) => outlineRuntime(runtime, topic, outlineOptions),
    askModel: (request) => llm.generateText({ role: 'agent', ...request }),
    structureAnswer: async (result, structureOptions) => {
      const { createStructuredAnswer } = await import('../agent/structured-answer.js');
      return createStructuredAnswer({ llm, result, ...structureOptions });
    },
  };
}
