import type { ValidationRequest } from './validate-reply.js';

export type StructuredMode = 'json-schema' | 'prompt';

export interface TokenUsage {
  promptTokens: number;
  completionTokens: number;
  totalTokens: number;
}

/** What the engine needs to ask for one object: the prompts, the schema and how to read replies. */
export interface StructuredOutputRequest<T> extends ValidationRequest<T> {
  system: string;
  prompt: string;
  /** Short snake_case name, sent as the JSON schema name. */
  schemaName: string;
  maxOutputTokens?: number;
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

/** A failed request about to be sent again. */
export interface RetryNotice {
  attempt: number;
  delayMs: number;
  reason: string;
}

/** The validated object and what it cost, every request counted. */
export interface StructuredOutput<T> {
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

/** One answered request, as usage accounting wants it; the caller adds who asked (role, model). */
export interface ReplyRecord {
  promptTokens: number;
  completionTokens: number;
  /** Time of this request alone. */
  ms: number;
  outcome: 'ok' | 'parse-failure';
  /** Tokens estimated from text length because the server did not report them. */
  estimated: boolean;
  /** Fixes applied to this reply before it validated (think tags, fences, coercions). */
  repairs: number;
  /** Why the reply failed validation. */
  error?: string;
}

/** What the engine tells its caller while it works; the one channel besides the streamed field. */
export type StructuredOutputEvent =
  | { type: 'reply'; record: ReplyRecord }
  /** A streamed request failed half-way and is sent again; the streamed field was reset first. */
  | { type: 'retry'; notice: RetryNotice }
  /** The server refused `stream: true` but answered the same request sent whole. */
  | { type: 'stream-refused' };
