import { AbortedError, isProviderError } from '../../core/errors/index.js';

export interface RetryOptions {
  maxRetries: number;
  /** First backoff delay; doubled on each retry, with jitter. */
  baseDelayMs?: number;
  maxDelayMs?: number;
  signal?: AbortSignal;
  onRetry?: (info: { error: unknown; attempt: number; delayMs: number }) => void;
}

/**
 * The one retry loop. Only ProviderErrors marked retryable (408/409/429/5xx, timeouts, network)
 * are retried; auth errors and bad input fail at once. A server's Retry-After is honoured.
 */
export async function withRetry<T>(
  operation: (attempt: number) => Promise<T>,
  options: RetryOptions,
): Promise<T> {
  const baseDelayMs = options.baseDelayMs ?? 500;
  const maxDelayMs = options.maxDelayMs ?? 20_000;
  for (let attempt = 0; ; attempt++) {
    try {
      return await operation(attempt);
    } catch (error) {
      if (attempt >= options.maxRetries || !isProviderError(error) || !error.isRetryable) throw error;
      if (options.signal?.aborted) throw new AbortedError(undefined, { cause: options.signal.reason });
      const backoff = baseDelayMs * 2 ** attempt * (0.75 + Math.random() * 0.5);
      const delayMs = Math.min(maxDelayMs, error.retryAfterMs ?? backoff);
      options.onRetry?.({ error, attempt: attempt + 1, delayMs });
      await sleep(delayMs, options.signal);
    }
  }
}

export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(new AbortedError(undefined, { cause: signal.reason }));
      return;
    }
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(new AbortedError(undefined, { cause: signal?.reason }));
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/** Parses Retry-After (seconds or HTTP date) into milliseconds. */
export function parseRetryAfter(value: string | null | undefined, now = Date.now()): number | undefined {
  if (!value) return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}
