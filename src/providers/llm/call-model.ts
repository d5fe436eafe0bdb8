import type { LanguageModelV3 } from '@ai-sdk/provider';
import { generateText, type ModelMessage, type OutputInterface, streamText } from 'ai';
import { isProviderError } from '../../core/errors/index.js';
import { estimateTokens } from '../../platform/llm-context/estimate-tokens.js';
import type { JsonSchemaNode } from '../../structured-output/coerce-to-schema.js';
import { createFieldStreamer } from '../../structured-output/create-field-streamer.js';
import { toWireSchema } from '../../structured-output/wire-schema.js';
import type { LlmCallRecord, StructuredRequest, TokenUsage } from '../spec/llm-client.js';
import { callWithRetry, type LlmAttempt, type LlmCallLimits } from './call-with-retry.js';
import { relaxedSchemaProviderOptions } from './create-language-model.js';
import { structuredOutputUnsupportedCode } from './to-provider-error.js';

export type StructuredMode = 'json-schema' | 'prompt';

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

/** One model reply, from one HTTP request. */
export interface Reply {
  text: string;
  reasoning: string;
  usage: TokenUsage;
  estimated: boolean;
  ms: number;
}

interface Attempt {
  system: string;
  messages: ModelMessage[];
  jsonSchema: JsonSchemaNode;
}

/**
 * Sends one conversation to the model through the one retry path of LLM calls (callWithRetry).
 * Every failed HTTP request is reported through `request.onCall` here; a reply is reported by the
 * caller, which knows whether it validated. A field streamed to the caller starts over before a
 * retry.
 */
export function callModel<T>(
  request: StructuredRequest<T>,
  settings: StructuredCallSettings,
  attempt: Attempt,
): Promise<Reply> {
  return callWithRetry(
    {
      signal: request.signal,
      onRetry: (notice) => {
        request.streamText?.onReset?.();
        request.onRetry?.(notice);
      },
    },
    settings,
    (once) => sendOnce(request, settings, attempt, once),
    { onAttemptError: (error, ms) => request.onCall?.(errorRecord(request, settings, ms, error)) },
  );
}

function errorRecord<T>(
  request: StructuredRequest<T>,
  settings: StructuredCallSettings,
  ms: number,
  error: unknown,
): LlmCallRecord {
  return {
    role: request.role,
    model: settings.errorContext.model,
    promptTokens: 0,
    completionTokens: 0,
    ms: Math.round(ms),
    outcome: 'error',
    estimated: false,
    repairs: 0,
    error: error instanceof Error ? error.message : String(error),
  };
}

/** One attempt: streamed when the caller streams a field and the server can, else sent whole. */
async function sendOnce<T>(
  request: StructuredRequest<T>,
  settings: StructuredCallSettings,
  attempt: Attempt,
  { abortSignal, toError }: LlmAttempt,
): Promise<Reply> {
  const started = performance.now();
  const options = {
    model: settings.model,
    system: attempt.system,
    messages: attempt.messages,
    temperature: settings.temperature,
    maxOutputTokens: request.maxOutputTokens ?? settings.maxOutputTokens,
    maxRetries: 0,
    abortSignal,
    providerOptions: relaxedSchemaProviderOptions,
    ...(settings.mode === 'json-schema'
      ? { output: rawJsonOutput(toWireSchema(attempt.jsonSchema), request.schemaName) }
      : {}),
  };
  const finish = (text: string, reasoning: string | undefined, usage: ModelUsage) =>
    toReply({ text, reasoning, usage, attempt, ms: performance.now() - started });
  const stream = request.streamText;
  if (stream && settings.canStream !== false) {
    try {
      const streamed = await streamReply(options, stream);
      return finish(streamed.text, streamed.reasoning, streamed.usage);
    } catch (error) {
      const failure = toError(error);
      if (!isStreamRefusal(failure)) throw failure;
      // The refused request was an HTTP request too; retryable failures are reported by callModel.
      request.onCall?.(errorRecord(request, settings, performance.now() - started, failure));
      stream.onReset?.();
    }
  }
  try {
    const result = await generateText(options);
    if (stream) {
      // A server that cannot stream still gets the field's text out, in one delta.
      const delta = createFieldStreamer(stream.path, stream.otherPaths).push(result.text);
      if (delta) stream.onDelta(delta);
      if (settings.canStream !== false) settings.onStreamUnsupported?.();
    }
    return finish(result.text, result.reasoningText, result.usage);
  } catch (error) {
    throw toError(error);
  }
}

type ModelUsage = { inputTokens: number | undefined; outputTokens: number | undefined };

async function streamReply(
  options: Parameters<typeof streamText>[0],
  stream: NonNullable<StructuredRequest<unknown>['streamText']>,
): Promise<{ text: string; reasoning: string; usage: ModelUsage }> {
  const field = createFieldStreamer(stream.path, stream.otherPaths);
  const text: string[] = [];
  const reasoning: string[] = [];
  let usage: ModelUsage = { inputTokens: undefined, outputTokens: undefined };
  // Errors arrive as stream parts and are thrown below; the SDK's default would also log them.
  const result = streamText({ ...options, onError: () => {} });
  for await (const part of result.fullStream) {
    if (part.type === 'text-delta') {
      text.push(part.text);
      const delta = field.push(part.text);
      if (delta) stream.onDelta(delta);
    } else if (part.type === 'reasoning-delta') reasoning.push(part.text);
    else if (part.type === 'finish') usage = part.totalUsage;
    else if (part.type === 'error') throw part.error;
  }
  // An aborted stream ends quietly (an 'abort' part) with the text so far: that is no reply, and
  // parsing it would re-ask the model after the caller left or the deadline passed.
  const signal = options.abortSignal;
  if (signal?.aborted) throw signal.reason ?? new DOMException('This operation was aborted', 'AbortError');
  return { text: text.join(''), reasoning: reasoning.join(''), usage };
}

/** A 4xx other than auth, rate limit or a refused JSON schema: the server may not do `stream: true`. */
function isStreamRefusal(error: Error): boolean {
  if (!isProviderError(error) || error.code === structuredOutputUnsupportedCode) return false;
  const status = error.statusCode;
  return status !== undefined && [400, 404, 405, 415, 422, 501].includes(status);
}

function toReply(input: {
  text: string;
  reasoning: string | undefined;
  usage: ModelUsage;
  attempt: Attempt;
  ms: number;
}): Reply {
  const { text, usage, attempt } = input;
  const estimated = usage.inputTokens === undefined || usage.outputTokens === undefined;
  const promptTokens =
    usage.inputTokens ??
    estimateTokens(attempt.system) +
      attempt.messages.reduce((sum, message) => sum + estimateTokens(String(message.content)), 0);
  const completionTokens = usage.outputTokens ?? estimateTokens(text);
  return {
    text,
    reasoning: input.reasoning ?? '',
    usage: { promptTokens, completionTokens, totalTokens: promptTokens + completionTokens },
    estimated,
    ms: Math.round(input.ms),
  };
}

/** Sends the schema as the response format but leaves parsing to us, so repair can happen. */
function rawJsonOutput(jsonSchema: JsonSchemaNode, name: string): OutputInterface<string, string, never> {
  return {
    name: 'object',
    responseFormat: Promise.resolve({ type: 'json', schema: jsonSchema as never, name }),
    parseCompleteOutput: async ({ text }) => text,
    parsePartialOutput: async ({ text }) => ({ partial: text }),
    createElementStreamTransform: () => undefined,
  };
}
