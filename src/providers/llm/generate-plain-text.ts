import type { LanguageModelV3 } from '@ai-sdk/provider';
import { generateText, wrapLanguageModel } from 'ai';
import { reportedUsage } from '../../structured-output/reported-usage.js';
import type { TextRequest, TextResult } from '../spec/llm-client.js';
import { createRetryMiddleware, type LlmCallLimits, toLlmError } from './retry-middleware.js';

export interface TextCallSettings extends LlmCallLimits {
  model: LanguageModelV3;
  temperature?: number;
  maxOutputTokens?: number;
}

/**
 * One plain call: the conversation in, the model's text out. Used when a client asks the model
 * itself (chat-UI title and tag tasks, the direct model), so there is nothing to validate; errors
 * and retries are those of every other LLM call (the retry middleware).
 */
export async function generatePlainText(
  request: TextRequest,
  settings: TextCallSettings,
): Promise<TextResult> {
  const started = performance.now();
  const messages = request.messages.map((message) => ({ role: message.role, content: message.content }));
  const model = wrapLanguageModel({
    model: settings.model,
    middleware: createRetryMiddleware(settings, (event) => {
      if (event.type === 'retry') request.onRetry?.(event.notice);
    }),
  });
  const result = await generateText({
    model,
    system: request.system,
    messages,
    temperature: settings.temperature,
    maxOutputTokens: request.maxOutputTokens ?? settings.maxOutputTokens,
    maxRetries: 0,
    abortSignal: request.signal,
  }).catch((error: unknown) => {
    throw toLlmError(error, settings, request.signal);
  });
  const sent = [request.system ?? '', ...messages.map((message) => message.content)];
  const { usage, estimated } = reportedUsage({ usage: result.usage, sent, text: result.text });
  return {
    text: result.text,
    usage,
    usageEstimated: estimated,
    model: settings.errorContext.model,
    durationMs: Math.round(performance.now() - started),
  };
}
