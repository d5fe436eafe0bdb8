import type {
  LanguageModelV3Middleware,
  LanguageModelV3StreamPart,
  LanguageModelV3StreamResult,
} from '@ai-sdk/provider';
import { throwIfAborted } from '../../core/errors/index.js';
import { anySignal, timedSignal } from '../../core/link-signals.js';
import { withRetry } from '../../platform/retry/with-retry.js';
import { restartPart } from '../../structured-output/stream-restart.js';
import type { RetryNotice } from '../spec/llm-client.js';
import { type LlmErrorContext, toProviderError } from './to-provider-error.js';

export interface LlmCallLimits {
  timeoutMs: number;
  maxRetries: number;
  errorContext: Pick<LlmErrorContext, 'provider' | 'model' | 'baseURL' | 'apiKey'>;
}

/** What the middleware tells its caller: a retry about to happen, or a request that failed. */
export type LlmCallEvent =
  | { type: 'retry'; notice: RetryNotice }
  | { type: 'failed'; error: Error; ms: number };

/**
 * The one retry path of LLM calls, as language-model middleware around every request the AI SDK
 * makes: before each attempt the caller's signal (the call's abortSignal) is checked (a client
 * that left between two attempts must not cost one more request), the attempt gets its own
 * timeout joined with it, SDK errors become ProviderErrors (a timeout says it was one, keys are
 * redacted), and withRetry retries the retryable ones. A stream that fails part-way is started
 * over, and says so in the stream itself (see retryingStream).
 */
export function createRetryMiddleware(
  limits: LlmCallLimits,
  report: (event: LlmCallEvent) => void = () => {},
): LanguageModelV3Middleware {
  return {
    specificationVersion: 'v3',
    wrapGenerate: ({ params, model }) =>
      retrying(limits, params.abortSignal, report, (abortSignal) =>
        model.doGenerate({ ...params, abortSignal }),
      ),
    wrapStream: async ({ params, model }): Promise<LanguageModelV3StreamResult> => ({
      stream: retryingStream(limits, params.abortSignal, report, (abortSignal) =>
        // Raw chunks carry only our restart parts: the consumer asks for them to see those.
        model.doStream({ ...params, includeRawChunks: false, abortSignal }),
      ),
    }),
  };
}

function retrying<T>(
  limits: LlmCallLimits,
  signal: AbortSignal | undefined,
  report: (event: LlmCallEvent) => void,
  attempt: (abortSignal: AbortSignal) => PromiseLike<T>,
  onRetry: (notice: RetryNotice) => void = (notice) => report({ type: 'retry', notice }),
): Promise<T> {
  return withRetry(
    async () => {
      throwIfAborted(signal);
      const started = performance.now();
      const deadline = timedSignal(limits.timeoutMs, signal);
      try {
        return await attempt(deadline.signal);
      } catch (error) {
        const failure = toProviderError(error, {
          ...limits.errorContext,
          signal,
          timeoutMs: limits.timeoutMs,
          timedOut: deadline.timedOut && !signal?.aborted,
        });
        report({ type: 'failed', error: failure, ms: performance.now() - started });
        throw failure;
      } finally {
        deadline.dispose();
      }
    },
    {
      maxRetries: limits.maxRetries,
      signal,
      onRetry: ({ error, attempt, delayMs }) =>
        onRetry({ attempt, delayMs, reason: error instanceof Error ? error.message : String(error) }),
    },
  );
}

/** An error from outside the model's requests (the SDK's own checks) as our error types, like the rest. */
export function toLlmError(error: unknown, limits: LlmCallLimits, signal: AbortSignal | undefined): Error {
  return toProviderError(error, {
    ...limits.errorContext,
    signal,
    timeoutMs: limits.timeoutMs,
    timedOut: false,
  });
}

/**
 * The parts of one streamed request, retried whole: an attempt is the request and its stream
 * read to the end, so an error part, a broken body or a timeout half-way is a failed attempt too.
 * Once parts are out, a retry is a restart part in the stream (stream-restart.ts) in place of the
 * `retry` event: the consumer voids what it read right there. What the stream
 * gives up with ends it as an error part, as the SDK reports failed streams.
 */
function retryingStream(
  limits: LlmCallLimits,
  signal: AbortSignal | undefined,
  report: (event: LlmCallEvent) => void,
  open: (abortSignal: AbortSignal) => PromiseLike<LanguageModelV3StreamResult>,
): ReadableStream<LanguageModelV3StreamPart> {
  // The reader went away (the SDK stopped reading): the request in flight stops too.
  const cancelled = new AbortController();
  const joined = anySignal(cancelled.signal, signal);
  return new ReadableStream<LanguageModelV3StreamPart>({
    start(controller) {
      // Once a part is out, every later retry is told in the stream too, so notices keep their order.
      let inBand = false;
      const forward = (part: LanguageModelV3StreamPart) => {
        inBand = true;
        if (!cancelled.signal.aborted) controller.enqueue(part);
      };
      const onRetry = (notice: RetryNotice) => {
        if (inBand) forward(restartPart(notice));
        else report({ type: 'retry', notice });
      };
      const run = retrying(
        limits,
        signal,
        report,
        async (abortSignal) => {
          const attemptSignal = anySignal(abortSignal, joined);
          const reader = (await open(attemptSignal)).stream.getReader();
          try {
            for (;;) {
              const { done, value } = await reader.read();
              if (done) break;
              if (value.type === 'error') throw value.error;
              forward(value);
            }
          } finally {
            reader.cancel().catch(() => {});
          }
          // A stream cut short by its signal may end quietly: the text so far is no reply.
          if (attemptSignal.aborted) throw attemptSignal.reason;
        },
        onRetry,
      );
      run
        .then(
          () => {},
          (error: unknown) => forward({ type: 'error', error }),
        )
        .finally(() => {
          if (!cancelled.signal.aborted) controller.close();
        });
    },
    cancel(reason) {
      cancelled.abort(reason);
    },
  });
}
