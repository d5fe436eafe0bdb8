import type { LanguageModelV3 } from '@ai-sdk/provider';
import { generateText, type ModelMessage, type OutputInterface } from 'ai';
import { z } from 'zod';
import { StructuredOutputError, throwIfAborted } from '../../errors/index.js';
import type { StructuredRequest, StructuredResult, TokenUsage } from '../spec/llm-client.js';
import { withRetry } from '../with-retry.js';
import { coerceToSchema, type JsonSchemaNode } from './coerce-to-schema.js';
import { relaxedSchemaProviderOptions } from './create-language-model.js';
import { estimateTokens } from './estimate-tokens.js';
import { ModelJsonError, parseModelJson } from './parse-model-json.js';
import { type LlmErrorContext, toProviderError } from './to-provider-error.js';

export type StructuredMode = 'json-schema' | 'prompt';

export interface StructuredCallSettings {
  model: LanguageModelV3;
  mode: StructuredMode;
  temperature?: number;
  maxOutputTokens?: number;
  timeoutMs: number;
  maxRetries: number;
  errorContext: Pick<LlmErrorContext, 'provider' | 'model' | 'baseURL' | 'apiKey'>;
}

interface Reply {
  text: string;
  reasoning: string;
  usage: TokenUsage;
  estimated: boolean;
}

type Validation<T> =
  | { ok: true; object: T; repaired: boolean; reasoning: string }
  | { ok: false; message: string };

/**
 * Asks for a JSON object and returns it only once it validates against the schema. A reply that
 * fails is sent back once with the validation error; a second failure throws.
 */
export async function generateStructured<T>(
  request: StructuredRequest<T>,
  settings: StructuredCallSettings,
): Promise<StructuredResult<T>> {
  const started = performance.now();
  const jsonSchema = toJsonSchema(request.schema);
  const system = `${request.system}\n\n${formatInstruction(jsonSchema, settings.mode)}`;
  const messages: ModelMessage[] = [{ role: 'user', content: request.prompt }];
  const replies: Reply[] = [await callModel(request, settings, system, messages, jsonSchema)];
  let validation = validateReply(replies[0]!.text, request.schema, jsonSchema);
  if (!validation.ok) {
    messages.push(
      { role: 'assistant', content: replies[0]!.text || '(empty reply)' },
      { role: 'user', content: reaskPrompt(validation.message) },
    );
    replies.push(await callModel(request, settings, system, messages, jsonSchema));
    validation = validateReply(replies[1]!.text, request.schema, jsonSchema);
    if (!validation.ok) {
      throw new StructuredOutputError(
        `the model (${settings.errorContext.model}) did not return a valid ${request.schemaName} object after ` +
          `a retry: ${validation.message}`,
        {
          providerId: `llm:${settings.errorContext.provider}`,
          text: replies[1]!.text,
          validationMessage: validation.message,
        },
      );
    }
  }
  return {
    object: validation.object,
    usage: sumUsage(replies.map((reply) => reply.usage)),
    usageEstimated: replies.some((reply) => reply.estimated),
    parseFailures: replies.length - 1,
    repairs: validation.repaired ? 1 : 0,
    reasoning: [replies.at(-1)!.reasoning, validation.reasoning].filter(Boolean).join('\n'),
    model: settings.errorContext.model,
    durationMs: Math.round(performance.now() - started),
  };
}

async function callModel<T>(
  request: StructuredRequest<T>,
  settings: StructuredCallSettings,
  system: string,
  messages: ModelMessage[],
  jsonSchema: JsonSchemaNode,
): Promise<Reply> {
  return withRetry(
    async () => {
      // A client that left (or Ctrl-C) between two calls must not cost one more request.
      throwIfAborted(request.signal);
      const timeout = AbortSignal.timeout(settings.timeoutMs);
      const abortSignal = request.signal ? AbortSignal.any([request.signal, timeout]) : timeout;
      try {
        const result = await generateText({
          model: settings.model,
          system,
          messages,
          temperature: settings.temperature,
          maxOutputTokens: request.maxOutputTokens ?? settings.maxOutputTokens,
          maxRetries: 0,
          abortSignal,
          providerOptions: relaxedSchemaProviderOptions,
          ...(settings.mode === 'json-schema'
            ? { output: rawJsonOutput(jsonSchema, request.schemaName) }
            : {}),
        });
        return toReply(result.text, result.reasoningText, result.usage, system, messages);
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
}

function toReply(
  text: string,
  reasoning: string | undefined,
  usage: { inputTokens: number | undefined; outputTokens: number | undefined },
  system: string,
  messages: ModelMessage[],
): Reply {
  const estimated = usage.inputTokens === undefined || usage.outputTokens === undefined;
  const promptTokens =
    usage.inputTokens ??
    estimateTokens(system) +
      messages.reduce((sum, message) => sum + estimateTokens(String(message.content)), 0);
  const completionTokens = usage.outputTokens ?? estimateTokens(text);
  return {
    text,
    reasoning: reasoning ?? '',
    usage: { promptTokens, completionTokens, totalTokens: promptTokens + completionTokens },
    estimated,
  };
}

export function validateReply<T>(
  text: string,
  schema: z.ZodType<T>,
  jsonSchema: JsonSchemaNode,
): Validation<T> {
  let parsed: ReturnType<typeof parseModelJson>;
  try {
    parsed = parseModelJson(text);
  } catch (error) {
    if (error instanceof ModelJsonError) return { ok: false, message: error.message };
    throw error;
  }
  const coerced = coerceToSchema(parsed.value, jsonSchema);
  const result = schema.safeParse(coerced.value);
  if (!result.success) return { ok: false, message: describeIssues(result.error) };
  return {
    ok: true,
    object: result.data,
    repaired: parsed.repaired || coerced.changed,
    reasoning: parsed.reasoning,
  };
}

function describeIssues(error: z.ZodError): string {
  return error.issues
    .slice(0, 6)
    .map((issue) => `${issue.path.length ? issue.path.join('.') : '(root)'}: ${issue.message}`)
    .join('; ');
}

const schemaCache = new WeakMap<z.ZodType, JsonSchemaNode>();

export function toJsonSchema(schema: z.ZodType): JsonSchemaNode {
  let cached = schemaCache.get(schema);
  if (!cached) {
    const { $schema: _ignored, ...rest } = z.toJSONSchema(schema, {
      target: 'draft-7',
      io: 'input',
    }) as Record<string, unknown>;
    cached = rest as JsonSchemaNode;
    schemaCache.set(schema, cached);
  }
  return cached;
}

function formatInstruction(jsonSchema: JsonSchemaNode, mode: StructuredMode): string {
  if (mode === 'json-schema') return 'Reply with one JSON object that matches the response schema.';
  return (
    'Reply with one JSON object and nothing else: no prose, no markdown fences. It must match this JSON schema ' +
    `(field descriptions say what to put in each field):\n${JSON.stringify(jsonSchema)}`
  );
}

function reaskPrompt(problem: string): string {
  return (
    `Your previous reply could not be used: ${problem}.\n` +
    'Reply again with only the corrected JSON object, matching the schema exactly.'
  );
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
