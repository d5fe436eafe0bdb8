import type * as z from 'zod';
import type { LlmRole } from '../../config/config-schema.js';

export interface TokenUsage {
  promptTokens: number;
  completionTokens: number;
  totalTokens: number;
}

export interface StructuredRequest<T> {
  role: LlmRole;
  system: string;
  prompt: string;
  schema: z.ZodType<T>;
  /** Short snake_case name, sent as the JSON schema name. */
  schemaName: string;
  signal?: AbortSignal;
  maxOutputTokens?: number;
  /** This call's sampling temperature instead of the role's (research raises it when stuck). */
  temperature?: number;
  /** Told before each retry of a failed call (rate limit, server error, timeout). */
  onRetry?: (info: RetryNotice) => void;
  /**
   * Told once per HTTP request, whatever came of it: a reply that failed validation and was
   * re-asked, and a 500 that was retried, each count. Usage accounting listens here.
   */
  onCall?: (record: LlmCallRecord) => void;
  /**
   * Key synonyms small models use, mapped before validation wherever the wanted key is
   * absent, e.g. `{exactQuote: 'quote', urls: 'targets'}`. Each mapping counts as a repair.
   */
  keyAliases?: Readonly<Record<string, string>>;
  /**
   * One example reply, shown with the field guide every structured prompt carries (see
   * renderFieldGuide); without one, a skeleton of the schema's types is shown.
   */
  example?: T;
  /**
   * The system prompt already explains every field with examples (the agent's action guides):
   * no generic field guide is added, in either structured-output mode.
   */
  fieldsInPrompt?: boolean;
  /** The caller's own fix-up of a parsed reply, run before the generic coercion and validation. */
  repair?: (value: unknown) => unknown;
  /**
   * Stream the reply and report what the model writes into the string field at `path`
   * (e.g. ['answer', 'text']) as it writes it. The object returned is still validated whole.
   */
  streamText?: StreamTextOptions;
}

export interface StreamTextOptions {
  path: readonly string[];
  /**
   * Other places the same text may be written, for replies in another accepted shape (an agent
   * step written flat: `['answer', 'text']` instead of `['step', 'answer', 'text']`). The first
   * of `path` and these that the reply writes to is followed; the others are then ignored.
   */
  otherPaths?: ReadonlyArray<readonly string[]>;
  onDelta(delta: string): void;
  /**
   * The text so far is void: a reply was discarded (retried after an error, or re-asked after
   * failing validation) and the field's text starts again from the next delta.
   */
  onReset?(): void;
}

/** One HTTP request to a model, as usage accounting and a run store want it. */
export interface LlmCallRecord {
  role: LlmRole;
  model: string;
  promptTokens: number;
  completionTokens: number;
  /** Time of this request alone (retries and re-asks are records of their own). */
  ms: number;
  /** 'error': no usable reply (HTTP error, timeout, broken stream); its tokens are 0, as nothing is billed. */
  outcome: 'ok' | 'parse-failure' | 'error';
  /** Tokens estimated from text length because the server did not report them. */
  estimated: boolean;
  /** Fixes applied to this reply before it validated (think tags, fences, coercions). */
  repairs: number;
  /** What went wrong, for 'error' and 'parse-failure'. */
  error?: string;
}

export interface RetryNotice {
  attempt: number;
  delayMs: number;
  reason: string;
}

export interface StructuredResult<T> {
  /** Always validated against the request's schema. */
  object: T;
  usage: TokenUsage;
  /** True when the provider did not report usage and it was estimated from text length. */
  usageEstimated: boolean;
  /** Replies that could not be parsed or validated (0 or 1; a second one throws). */
  parseFailures: number;
  /** Fixes applied before the returned object validated (think tags, fences, near-JSON, coercion). */
  repairs: number;
  /** Reasoning the model produced outside the JSON (think tags or a reasoning channel). */
  reasoning: string;
  model: string;
  durationMs: number;
}

/** A plain conversation for the model, answered with text (no schema, no tools). */
export interface TextRequest {
  role: LlmRole;
  system?: string;
  messages: ReadonlyArray<{ role: 'user' | 'assistant'; content: string }>;
  signal?: AbortSignal;
  maxOutputTokens?: number;
  onRetry?: (info: RetryNotice) => void;
}

export interface TextResult {
  text: string;
  usage: TokenUsage;
  usageEstimated: boolean;
  model: string;
  durationMs: number;
}

/** What the agent needs from an LLM: validated objects, with usage; and plain text for direct questions. */
export interface LlmClient {
  generateObject<T>(request: StructuredRequest<T>): Promise<StructuredResult<T>>;
  generateText(request: TextRequest): Promise<TextResult>;
}
