import type { LlmRole } from '../config/config-schema.js';
import type { TokenUsage } from '../providers/spec/llm-client.js';
import type { SkippedPage } from '../retrieval/skipped-page.js';

export type { SkippedPage, SkipReason } from '../retrieval/skipped-page.js';

/**
 * The agent's action names. Written out here so events and results need nothing from agent/;
 * agent/actions/action-registry.ts fails to compile if its registered actions drift from it.
 */
export type ActionName = 'search' | 'visit' | 'reflect' | 'coding' | 'answer';

/**
 * Answers to sub-questions, earlier chat turns and results computed by the coding action. Pages
 * read and search results are knowledge too, but live in the page store and search records,
 * where they can be cut to snippets.
 */
export type KnowledgeType = 'qa' | 'chat-history' | 'coding';

/** Something the agent learned, shown to it (trimmed and ranked) in later prompts. */
export interface KnowledgeItem {
  type: KnowledgeType;
  question: string;
  answer: string;
  /** URLs the item came from. */
  urls: string[];
  step: number;
  /** For 'coding': the JavaScript that computed `answer`. */
  code?: string;
}

/** A result the coding action computed in the sandbox, as shown in the run's result. */
export interface Computation {
  step: number;
  /** What the code computes (the model's purpose, or the step's question). */
  purpose: string;
  code: string;
  /** The returned value: text as is, anything else as JSON. */
  result: string;
}

/** A reference as shown to the user: its quote was found in text read from the URL in this run. */
export interface Reference {
  index: number;
  url: string;
  title: string;
  quote: string;
  /** 'exact': the model's quote was found; 'sentence': replaced by the best matching sentence. */
  quoteKind: 'exact' | 'sentence';
  /**
   * Other pages read in the run that carry the same story (a syndicated or copied text, an AMP or
   * print version): one source, cited at `url`, its original (retrieval/page-groups.ts).
   */
  alsoAt?: string[];
}

export type Confidence = 'high' | 'medium' | 'low';

/** How the final answer was reached. */
export type AnswerOrigin = 'evaluated' | 'direct' | 'forced' | 'fallback';

export type StopReason =
  | 'steps'
  | 'tokens'
  | 'time'
  | 'attempts'
  | 'invalid-output'
  | 'errors'
  | 'no-progress';

export interface RoleUsage extends TokenUsage {
  calls: number;
}

export interface UsageReport extends TokenUsage {
  byRole: Partial<Record<LlmRole, RoleUsage>>;
  llmCalls: number;
  searchCalls: number;
  readCalls: number;
  /** Model replies that failed to parse or validate (each was re-asked once). */
  parseFailures: number;
  /** Fixes made to replies before they validated (fences, think tags, coerced shapes); not failures. */
  repairs: number;
  /** LLM requests that got no usable reply (HTTP errors, timeouts); included in llmCalls. */
  failedCalls: number;
  /** True if any call's usage was estimated because the server did not report it. */
  estimated: boolean;
}

export interface BudgetReport {
  maxSteps: number;
  maxTokens: number;
  maxTimeMs: number;
  maxAttempts: number;
  stepsUsed: number;
  tokensUsed: number;
  elapsedMs: number;
  failedAttempts: number;
  /** What ran out, if anything did, forcing the final answer. */
  exhausted: StopReason | null;
  finalAnswerForced: boolean;
}

export interface TimingReport {
  totalMs: number;
  llmMs: number;
  searchMs: number;
  readMs: number;
  /** Time not spent waiting on the LLM, search or reader: the agent's own work. */
  ownMs: number;
  /** When the first LLM request started, from the start of the run (null: none was made). */
  firstLlmCallMs: number | null;
  /** When the first piece of the final answer's text was ready, from the start of the run. */
  firstAnswerTokenMs: number | null;
}

export interface DeepSearchResult {
  /** The id every event of this run carries. */
  runId: string;
  question: string;
  /** Markdown with [^n] footnotes matching `references`. */
  answer: string;
  references: Reference[];
  confidence: Confidence;
  /** One sentence on why the confidence is what it is. */
  confidenceReason: string;
  /**
   * How many independent sources the references quote: copies of one story (a syndicated or
   * mirrored text, an AMP or print version) count once. Absent in results stored before it existed.
   */
  independentSources?: number;
  origin: AnswerOrigin;
  usage: UsageReport;
  steps: number;
  durationMs: number;
  timing: TimingReport;
  budget: BudgetReport;
  visitedUrls: string[];
  /** Pages chosen but not read, with why: a bot check, a login or paywall stub, a timeout... None is content. */
  skipped: SkippedPage[];
  /** What went wrong along the way without stopping the run (a failed step, a provider passed over). */
  warnings: string[];
  /** What the coding action computed, with its code (failed runs are in `warnings`). */
  computations: Computation[];
}
