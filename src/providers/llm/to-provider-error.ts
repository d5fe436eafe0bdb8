import { APICallError } from '@ai-sdk/provider';
import type { LlmProviderId } from '../../config/config-schema.js';
import {
  AbortedError,
  AuthenticationError,
  createRedactor,
  isAbortError,
  isDeepSearchError,
  ProviderError,
  redactErrorMessages,
  structuredOutputUnsupportedCode,
} from '../../core/errors/index.js';
import { describeNetworkError, displayUrl } from '../../platform/http/describe-network-error.js';
import { parseRetryAfter } from '../../platform/retry/with-retry.js';

export interface LlmErrorContext {
  provider: LlmProviderId;
  model: string;
  baseURL?: string;
  signal?: AbortSignal;
  timeoutMs: number;
  timedOut: boolean;
  /** Redacted from whatever the server answers: some echo the key they were sent. */
  apiKey?: string;
}

const keyVariables: Record<LlmProviderId, string> = {
  openai: 'OPENAI_API_KEY or DEEPSEARCH_LLM_API_KEY',
  anthropic: 'ANTHROPIC_API_KEY or DEEPSEARCH_LLM_API_KEY',
  google: 'GEMINI_API_KEY or DEEPSEARCH_LLM_API_KEY',
  'openai-compatible': 'DEEPSEARCH_LLM_API_KEY',
  'local-embedded': 'DEEPSEARCH_LLM_API_KEY',
};

/** Maps whatever the AI SDK threw into our error types, with a message that says what to fix. */
export function toProviderError(error: unknown, context: LlmErrorContext): Error {
  if (isDeepSearchError(error)) return error;
  // Our fetch's own error (a proxy's failure), which the AI SDK wraps when it finds a network code inside.
  if (APICallError.isInstance(error) && isDeepSearchError(error.cause)) return error.cause;
  const redact = createRedactor([context.apiKey]);
  return redactErrorMessages(describeLlmError(error, context), redact);
}

function describeLlmError(error: unknown, context: LlmErrorContext): Error {
  const providerId = `llm:${context.provider}`;
  if (context.signal?.aborted) return new AbortedError(undefined, { cause: error });
  if (context.timedOut) {
    return new ProviderError(
      `the LLM (${context.model}) did not answer within ${formatSeconds(context.timeoutMs)}`,
      { providerId, code: 'provider_timeout', isRetryable: true, cause: error },
    );
  }
  if (isAbortError(error)) return new AbortedError(undefined, { cause: error });
  if (APICallError.isInstance(error)) return fromApiCallError(error, context, providerId);
  const name = error instanceof Error ? error.name : '';
  if (/JSONParse|TypeValidation|InvalidResponseData|EmptyResponseBody|NoContentGenerated/.test(name)) {
    return new ProviderError(
      `the LLM server sent a malformed response: ${(error as Error).message.slice(0, 200)}`,
      {
        providerId,
        code: 'provider_bad_response',
        isRetryable: true,
        cause: error,
      },
    );
  }
  return new ProviderError(`LLM call failed: ${error instanceof Error ? error.message : String(error)}`, {
    providerId,
    cause: error,
  });
}

function fromApiCallError(error: APICallError, context: LlmErrorContext, providerId: string): Error {
  const where = displayUrl(error.url);
  const status = error.statusCode;
  const detail = summariseBody(error.responseBody) ?? error.message;
  if (status === undefined) {
    return new ProviderError(
      `cannot reach the LLM server at ${where}: ${describeNetworkError(error.cause ?? error)}` +
        (context.provider === 'openai-compatible' ? ' (is it running? check DEEPSEARCH_LLM_BASE_URL)' : ''),
      { providerId, code: 'provider_unreachable', isRetryable: true, cause: error },
    );
  }
  if (status === 401 || status === 403 || isRejectedKey(status, error.responseBody)) {
    return new AuthenticationError(
      `the LLM server rejected the API key (HTTP ${status} from ${where}): check ${keyVariables[context.provider]}`,
      { providerId, statusCode: status, cause: error },
    );
  }
  if (status >= 200 && status < 300) {
    return new ProviderError(`the LLM server at ${where} sent a malformed response: ${detail}`, {
      providerId,
      code: 'provider_bad_response',
      statusCode: status,
      isRetryable: true,
      cause: error,
    });
  }
  if (status === 404) {
    return new ProviderError(
      `the LLM server at ${where} answered 404 for model '${context.model}': check DEEPSEARCH_LLM_MODEL` +
        ` and DEEPSEARCH_LLM_BASE_URL (${detail})`,
      { providerId, code: 'llm_model_not_found', statusCode: status, cause: error },
    );
  }
  if (status === 400 && /response_format|json_schema|structured|grammar|schema/i.test(detail)) {
    return new ProviderError(`the LLM server does not accept JSON-schema output: ${detail}`, {
      providerId,
      code: structuredOutputUnsupportedCode,
      statusCode: status,
      cause: error,
    });
  }
  return new ProviderError(`the LLM server at ${where} answered HTTP ${status}: ${detail}`, {
    providerId,
    code: status === 429 ? 'provider_rate_limited' : 'provider_http_error',
    statusCode: status,
    retryAfterMs: parseRetryAfter(error.responseHeaders?.['retry-after']),
    cause: error,
  });
}

/** Gemini answers a wrong key with 400 INVALID_ARGUMENT (reason API_KEY_INVALID), not with 401. */
function isRejectedKey(status: number, body: string | undefined): boolean {
  return status === 400 && /API_KEY_INVALID|API key not valid/i.test(body ?? '');
}

function summariseBody(body: string | undefined): string | undefined {
  if (!body) return undefined;
  try {
    const json = JSON.parse(body) as { error?: { message?: unknown } | string; message?: unknown };
    const message = typeof json.error === 'string' ? json.error : (json.error?.message ?? json.message);
    if (typeof message === 'string') return message.slice(0, 240);
  } catch {
    // not JSON
  }
  return (
    body
      .replace(/<[^>]+>/g, ' ')
      .replace(/\s+/g, ' ')
      .trim()
      .slice(0, 160) || undefined
  );
}

function formatSeconds(ms: number): string {
  return ms < 10_000 ? `${(ms / 1000).toFixed(1)}s` : `${Math.round(ms / 1000)}s`;
}
