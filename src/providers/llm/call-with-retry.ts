import { throwIfAborted } from '../../errors/index.js';
import type { RetryNotice } from '../spec/llm-client.js';
import { withRetry } from '../with-retry.js';
import { type LlmErrorContext, toProviderError } from './to-provider-error.js';

export interface LlmCallLimits {
  timeoutMs: number;
  maxRetries: number;
  errorContext: Pick<LlmErrorContext, 'provider' | 'model' | 'baseURL'>;
}

/**
 * One LLM call with the settings every call shares: its own timeout joined with the caller's
 * signal, SDK errors turned into ProviderErrors (so a timeout says it was one), and the retry loop
 * telling the caller before each retry.
 */
export function callWithRetry<T>(
  request: { signal?: AbortSignal; onRetry?: (info: RetryNotice) => void },
  limits: LlmCallLimits,
  call: (abortSignal: AbortSignal) => Promise<T>,
): Promise<T> {
  return withRetry(
    async () => {
      // A client that left between two attempts must not cost one more request.
      throwIfAborted(request.signal);
      const timeout = AbortSignal.timeout(limits.timeoutMs);
      const abortSignal = request.signal ? AbortSignal.any([request.signal, timeout]) : timeout;
      try {
        return await call(abortSignal);
      } catch (error) {
        throw toProviderError(error, {
          ...limits.errorContext,
          signal: request.signal,
          timeoutMs: limits.timeoutMs,
          timedOut: timeout.aborted && !request.signal?.aborted,
        });
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
