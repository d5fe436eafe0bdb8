import type { LlmRole } from '../../config/config-schema.js';
import type {
  RetryNotice,
  StructuredOutput,
  StructuredOutputRequest,
  TokenUsage,
} from '../../structured-output/structured-output-request.js';

export type {
  RetryNotice,
  StreamTextOptions,
  TokenUsage,
} from '../../structured-output/structured-output-request.js';

/** One structured call: what the engine needs (prompts, schema, repairs, streaming) and who asks. */
export interface StructuredRequest<T> extends StructuredOutputRequest<T> {
  role: LlmRole;
  signal?: AbortSignal;
  /** This call's sampling temperature instead of the role's (research raises it when stuck). */
  temperature?: number;
  /** Told before each retry of a failed call (rate limit, server error, timeout). */
  onRetry?: (info: RetryNotice) => void;
  /**
   * Told once per HTTP request, whatever came of it: a reply that failed validation and was
   * re-asked, and a 500 that was retried, each count. Usage accounting listens here.
   */
  onCall?: (record: LlmCallRecord) => void;
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

/** What `generateObject` returns: the engine's result (src/structured-output/). */
export type StructuredResult<T> = StructuredOutput<T>;

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
  /** The version of this interface the client implements (see check-provider.ts). */
  readonly specificationVersion: 'v1';
  generateObject<T>(request: StructuredRequest<T>): Promise<StructuredResult<T>>;
  generateText(request: TextRequest): Promise<TextResult>;
}
