import type { LanguageModelV3, LanguageModelV3Middleware } from '@ai-sdk/provider';
import { wrapLanguageModel } from 'ai';
import { StructuredOutputError } from '../core/errors/index.js';
import type { JsonSchemaNode } from './coerce-to-schema.js';
import { renderFieldGuide } from './field-guide.js';
import { jsonResponseFormat } from './json-response-format.js';
import { type Reply, requestReply, type TextMessage } from './request-reply.js';
import type {
  StructuredMode,
  StructuredOutput,
  StructuredOutputEvent,
  StructuredOutputRequest,
  TokenUsage,
} from './structured-output-request.js';
import { toJsonSchema } from './to-json-schema.js';
import { type Validation, validateReply } from './validate-reply.js';
import { toWireSchema } from './wire-schema.js';

export interface StructuredOutputOptions<T> {
  request: StructuredOutputRequest<T>;
  model: LanguageModelV3;
  /**
   * The caller's language-model middleware for this call (retry, errors, provider options).
   * `restarted` is what it calls before it sends a failed request again (the streamed field is
   * reset); a stream that fails half-way says so in the stream instead (stream-restart.ts).
   */
  middleware?: (restarted: () => void) => LanguageModelV3Middleware[];
  mode: StructuredMode;
  temperature?: number;
  maxOutputTokens?: number;
  abortSignal?: AbortSignal;
  /** False once this server refused a streamed request; `streamText` requests are then sent whole. */
  canStream?: boolean;
  report?: (event: StructuredOutputEvent) => void;
  /** Who answered, for the error a second invalid reply throws (the model as configured). */
  source: { providerId: string; model: string };
}

/**
 * Asks for a JSON object and returns it only once it validates: parse, repair, coerce, validate,
 * and one re-ask with the validation error in sentences; a second failure throws
 * StructuredOutputError. Over the AI SDK's model interface (request-reply.ts); every reply, whatever came
 * of it, is reported as a `reply` event.
 */
export async function generateStructuredOutput<T>(
  options: StructuredOutputOptions<T>,
): Promise<StructuredOutput<T>> {
  const started = performance.now();
  const { request } = options;
  const jsonSchema = toJsonSchema(request.schema);
  // A retry the middleware reports itself (nothing of the failed request was streamed yet).
  const restarted = () => request.streamText?.onReset?.();
  const model = wrapLanguageModel({
    model: options.model,
    middleware: [
      ...(options.mode === 'json-schema'
        ? [jsonResponseFormat(toWireSchema(jsonSchema), request.schemaName)]
        : []),
      ...(options.middleware?.(restarted) ?? []),
    ],
  });
  const system = `${request.system}\n\n${formatInstruction(jsonSchema, options.mode, request)}`;
  const messages: TextMessage[] = [{ role: 'user', content: request.prompt }];
  const ask = async (): Promise<{ reply: Reply; validation: Validation<T> }> => {
    const reply = await requestReply({
      model,
      system,
      messages,
      temperature: options.temperature,
      maxOutputTokens: request.maxOutputTokens ?? options.maxOutputTokens,
      abortSignal: options.abortSignal,
      stream: request.streamText,
      canStream: options.canStream !== false,
      onStreamRefused: () => options.report?.({ type: 'stream-refused' }),
      onRestart: (notice) => options.report?.({ type: 'retry', notice }),
    });
    const validation = validateReply(reply.text, request, jsonSchema);
    options.report?.({
      type: 'reply',
      record: {
        promptTokens: reply.usage.promptTokens,
        completionTokens: reply.usage.completionTokens,
        ms: reply.ms,
        outcome: validation.ok ? 'ok' : 'parse-failure',
        estimated: reply.estimated,
        repairs: validation.ok ? validation.repairs : 0,
        ...(validation.ok ? {} : { error: validation.message }),
      },
    });
    return { reply, validation };
  };
  const replies: Reply[] = [];
  let { reply, validation } = await ask();
  replies.push(reply);
  if (!validation.ok) {
    messages.push(
      { role: 'assistant', content: reply.text || '(empty reply)' },
      { role: 'user', content: reaskPrompt(validation.message) },
    );
    request.streamText?.onReset?.();
    ({ reply, validation } = await ask());
    replies.push(reply);
    if (!validation.ok) {
      throw new StructuredOutputError(
        `the model (${options.source.model}) did not return a valid ${request.schemaName} object after ` +
          `a retry: ${validation.message}`,
        { providerId: options.source.providerId, text: reply.text, validationMessage: validation.message },
      );
    }
  }
  return {
    object: validation.object,
    usage: sumUsage(replies.map((each) => each.usage)),
    usageEstimated: replies.some((each) => each.estimated),
    parseFailures: replies.length - 1,
    repairs: validation.repairs,
    reasoning: [reply.reasoning, validation.reasoning].filter(Boolean).join('\n'),
    model: options.source.model,
    durationMs: Math.round(performance.now() - started),
  };
}

/**
 * How to reply, in words the model reads: a field guide in both modes, since constrained
 * decoding never shows the model the schema; in prompt mode it replaces the minified schema.
 */
function formatInstruction(
  jsonSchema: JsonSchemaNode,
  mode: StructuredMode,
  request: Pick<StructuredOutputRequest<unknown>, 'example' | 'fieldsInPrompt'>,
): string {
  const reply =
    mode === 'json-schema'
      ? 'Reply with one JSON object that matches the response schema'
      : 'Reply with one JSON object and nothing else: no prose, no markdown fences';
  if (request.fieldsInPrompt) return `${reply}.`;
  return `${reply}. Its fields:\n${renderFieldGuide(jsonSchema, request.example)}`;
}

function reaskPrompt(problem: string): string {
  return (
    `Your previous reply could not be used: ${problem}.\n` +
    'Reply again with only the corrected JSON object, matching the schema exactly.'
  );
}

function sumUsage(usages: TokenUsage[]): TokenUsage {
  return usages.reduce(
    (sum, usage) => ({
      promptTokens: sum.promptTokens + usage.promptTokens,
      completionTokens: sum.completionTokens + usage.completionTokens,
      totalTokens: sum.totalTokens + usage.totalTokens,
    }),
    { promptTokens: 0, completionTokens: 0, totalTokens: 0 },
  );
}
