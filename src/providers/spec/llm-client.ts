import type { z } from 'zod';
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
  /** Told before each retry of a failed call (rate limit, server error, timeout). */
  onRetry?: (info: RetryNotice) => void;
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
  /** Replies that parsed only after repair (think tags, fences, near-JSON, coercion). */
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
