import type { LanguageModelV3 } from '@ai-sdk/provider';
import { generateText } from 'ai';
import type { TextRequest, TextResult } from '../spec/llm-client.js';
import { withRetry } from '../with-retry.js';
import { estimateTokens } from './estimate-tokens.js';
import { type LlmErrorContext, toProviderError } from './to-provider-error.js';

export interface TextCallSettings {
  model: LanguageModelV3;
  temperature?: number;
  maxOutputTokens?: number;
  timeoutMs: number;
  maxRetries: number;
  errorContext: Pick<LlmErrorContext, 'provider' | 'model' | 'baseURL'>;
}

/**
 * One plain call: the conversation in, the model's text out. Used when a client asks the model
 * itself (chat-UI title and tag tasks, the direct model), so there is nothing to validate; errors
 * and retries are those of every other LLM call.
 */
export async function generatePlainText(
  request: TextRequest,
  settings: TextCallSettings,
): Promise<TextResult> {
  const started = performance.now();
  const messages = request.messages.map((message) => ({ role: message.role, content: message.content }));
  const result = await withRetry(
    async () => {
      const timeout = AbortSignal.timeout(settings.timeoutMs);
      const abortSignal = request.signal ? AbortSignal.any([request.signal, timeout]) : timeout;
      try {
        return await generateText({
          model: settings.model,
          system: request.system,
          messages,
          temperature: settings.temperature,
          maxOutputTokens: request.maxOutputTokens ?? settings.maxOutputTokens,
          maxRetries: 0,
          abortSignal,
        });
      } catch (error) {
        throw toProviderError(error, {
          ...settings.errorContext,
          signal: request.signal,
          timeoutMs: settings.timeoutMs,
          timedOut: timeout.aborted && !request.signal?.aborted,
        });
      }
    },
    {
      maxRetries: settings.maxRetries,
      signal: request.signal,
      onRetry: ({ error, attempt, delayMs }) =>
        request.onRetry?.({
          attempt,
          delayMs,
          reason: error instanceof Error ? error.message : String(error),
        }),
    },
  );
  const estimated = result.usage.inputTokens === undefined || result.usage.outputTokens === undefined;
  const promptTokens =
    result.usage.inputTokens ??
    estimateTokens(request.system ?? '') +
      messages.reduce((sum, message) => sum + estimateTokens(message.content), 0);
  const completionTokens = result.usage.outputTokens ?? estimateTokens(result.text);
  return {
    text: result.text,
    usage: { promptTokens, completionTokens, totalTokens: promptTokens + completionTokens },
    usageEstimated: estimated,
    model: settings.errorContext.model,
    durationMs: Math.round(performance.now() - started),
  };
}
