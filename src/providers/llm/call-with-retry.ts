import { throwIfAborted } from '../../core/errors/index.js';
import { anySignal } from '../../core/link-signals.js';
import { withRetry } from '../../platform/retry/with-retry.js';
import type { RetryNotice } from '../spec/llm-client.js';
import { type LlmErrorContext, toProviderError } from './to-provider-error.js';

export interface LlmCallLimits {
  timeoutMs: number;
  maxRetries: number;
  errorContext: Pick<LlmErrorContext, 'provider' | 'model' | 'baseURL' | 'apiKey'>;
}

/** One attempt of an LLM call, as the call sees it. */
export interface LlmAttempt {
  /** Aborts when the caller's signal does or the attempt's own timeout passes. */
  abortSignal: AbortSignal;
  /**
   * What a failure of this attempt becomes (a ProviderError that says whether it timed out): for
   * a call that looks at a failure before giving up on the attempt (a refused stream).
   */
  toError(error: unknown): Error;
}

export interface LlmCallHooks {
  /** Every failed attempt, with the error it failed with and its duration (retried or not). */
  onAttemptError?: (error: Error, ms: number) => void;
}

/**
 * The one retry path of LLM calls: before each attempt the caller's signal is checked (a client
 * that left between two attempts must not cost one more request), the attempt gets its own
 * timeout joined with the caller's signal, SDK errors are turned into ProviderErrors (so a timeout
 * says it was one), and the caller is told before each retry.
 */
export function callWithRetry<T>(
  request: { signal?: AbortSignal; onRetry?: (info: RetryNotice) => void },
  limits: LlmCallLimits,
  call: (attempt: LlmAttempt) => Promise<T>,
  hooks: LlmCallHooks = {},
): Promise<T> {
  return withRetry(
    async () => {
      throwIfAborted(request.signal);
      const started = performance.now();
      const timeout = AbortSignal.timeout(limits.timeoutMs);
      const abortSignal = anySignal(timeout, request.signal);
      const toError = (error: unknown) =>
        toProviderError(error, {
          ...limits.errorContext,
          signal: request.signal,
          timeoutMs: limits.timeoutMs,
          timedOut: timeout.aborted && !request.signal?.aborted,
        });
      try {
        return await call({ abortSignal, toError });
      } catch (error) {
        const failure = toError(error);
        hooks.onAttemptError?.(failure, performance.now() - started);
        throw failure;
      }
    },
    {
      maxRetries: limits.maxRetries,
      signal: request.signal,
      onRetry: ({ error, attempt, delayMs }) =>
        request.onRetry?.({
          attempt,
          delayMs,
          reason: error instanceof Error ? error.message : String(error),
        }),
    },
  );
}
