import type { LanguageModelV3 } from '@ai-sdk/provider';
import { defaultSettingsMiddleware } from 'ai';
import { generateStructuredOutput } from '../../structured-output/generate-structured-output.js';
import type { StructuredMode } from '../../structured-output/structured-output-request.js';
import type { LlmCallRecord, StructuredRequest, StructuredResult } from '../spec/llm-client.js';
import { relaxedSchemaProviderOptions } from './create-language-model.js';
import { createRetryMiddleware, type LlmCallLimits, toLlmError } from './retry-middleware.js';

export type { StructuredMode } from '../../structured-output/structured-output-request.js';

export interface StructuredCallSettings extends LlmCallLimits {
  model: LanguageModelV3;
  mode: StructuredMode;
  temperature?: number;
  maxOutputTokens?: number;
  /** False once this server refused a streamed request; `streamText` requests are then sent whole. */
  canStream?: boolean;
  /** Told when a streamed request was refused but the same request sent whole was answered. */
  onStreamUnsupported?: () => void;
}

/** Every provider validates what we parse; strict server-side schemas would reject optional fields. */
const relaxedSchemas = defaultSettingsMiddleware({
  settings: { providerOptions: relaxedSchemaProviderOptions },
});

/**
 * The structured-output engine (src/structured-output/) over this role's model with the LLM
 * middleware, its events turned into the request's callbacks: every HTTP request, whatever came
 * of it, reported once to `onCall` (failed ones by the retry middleware, replies by the engine,
 * which knows whether they validated); retries to `onRetry`, after the streamed field is reset.
 */
export async function generateStructured<T>(
  request: StructuredRequest<T>,
  settings: StructuredCallSettings,
): Promise<StructuredResult<T>> {
  const { role } = request;
  const model = settings.errorContext.model;
  try {
    return await generateStructuredOutput({
      request,
      model: settings.model,
      mode: settings.mode,
      temperature: settings.temperature,
      maxOutputTokens: settings.maxOutputTokens,
      abortSignal: request.signal,
      canStream: settings.canStream,
      source: { providerId: `llm:${settings.errorContext.provider}`, model },
      middleware: (restarted) => [
        relaxedSchemas,
        createRetryMiddleware(settings, (event) => {
          if (event.type === 'failed') request.onCall?.(failedRecord(role, model, event.error, event.ms));
          else {
            restarted();
            request.onRetry?.(event.notice);
          }
        }),
      ],
      report: (event) => {
        if (event.type === 'reply') request.onCall?.({ role, model, ...event.record });
        else if (event.type === 'retry') request.onRetry?.(event.notice);
        else settings.onStreamUnsupported?.();
      },
    });
  } catch (error) {
    throw toLlmError(error, settings, request.signal);
  }
}

function failedRecord(role: LlmCallRecord['role'], model: string, error: Error, ms: number): LlmCallRecord {
  return {
    role,
    model,
    promptTokens: 0,
    completionTokens: 0,
    ms: Math.round(ms),
    outcome: 'error',
    estimated: false,
    repairs: 0,
    error: error.message,
  };
}
