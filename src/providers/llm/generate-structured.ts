import type { ModelMessage } from 'ai';
import * as z from 'zod';
import { StructuredOutputError } from '../../core/errors/index.js';
import { coerceToSchema, type JsonSchemaNode } from '../../structured-output/coerce-to-schema.js';
import { describeValidationIssues } from '../../structured-output/describe-validation-issues.js';
import { ModelJsonError, parseModelJson } from '../../structured-output/parse-model-json.js';
import type { StructuredRequest, StructuredResult, TokenUsage } from '../spec/llm-client.js';
import { callModel, type Reply, type StructuredCallSettings, type StructuredMode } from './call-model.js';
import { renderFieldGuide } from './field-guide.js';

export type { StructuredCallSettings, StructuredMode } from './call-model.js';

type Validation<T> =
  | { ok: true; object: T; repairs: number; reasoning: string }
  | { ok: false; message: string };

/** What validation needs besides the text: the schema and the caller's fix-ups. */
type ValidationRequest<T> = Pick<StructuredRequest<T>, 'schema' | 'keyAliases' | 'repair'>;

/**
 * Asks for a JSON object and returns it only once it validates against the schema. A reply that
 * fails is sent back once with the validation error; a second failure throws. Every HTTP
 * request, whatever came of it, is reported to `request.onCall`.
 */
export async function generateStructured<T>(
  request: StructuredRequest<T>,
  settings: StructuredCallSettings,
): Promise<StructuredResult<T>> {
  const started = performance.now();
  const jsonSchema = toJsonSchema(request.schema);
  const system = `${request.system}\n\n${formatInstruction(jsonSchema, settings.mode, request)}`;
  const messages: ModelMessage[] = [{ role: 'user', content: request.prompt }];
  const ask = async (): Promise<{ reply: Reply; validation: Validation<T> }> => {
    const reply = await callModel(request, settings, { system, messages, jsonSchema });
    const validation = validateReply(reply.text, request, jsonSchema);
    request.onCall?.({
      role: request.role,
      model: settings.errorContext.model,
      promptTokens: reply.usage.promptTokens,
      completionTokens: reply.usage.completionTokens,
      ms: reply.ms,
      outcome: validation.ok ? 'ok' : 'parse-failure',
      estimated: reply.estimated,
      repairs: validation.ok ? validation.repairs : 0,
      ...(validation.ok ? {} : { error: validation.message }),
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
        `the model (${settings.errorContext.model}) did not return a valid ${request.schemaName} object after ` +
          `a retry: ${validation.message}`,
        {
          providerId: `llm:${settings.errorContext.provider}`,
          text: reply.text,
          validationMessage: validation.message,
        },
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
    model: settings.errorContext.model,
    durationMs: Math.round(performance.now() - started),
  };
}

export function validateReply<T>(
  text: string,
  request: ValidationRequest<T>,
  jsonSchema: JsonSchemaNode,
): Validation<T> {
  let parsed: ReturnType<typeof parseModelJson>;
  try {
    parsed = parseModelJson(text);
  } catch (error) {
    if (error instanceof ModelJsonError) return { ok: false, message: error.message };
    throw error;
  }
  const lifted = request.repair ? request.repair(parsed.value) : parsed.value;
  const coerced = coerceToSchema(lifted, jsonSchema, { keyAliases: request.keyAliases });
  const result = request.schema.safeParse(coerced.value);
  if (!result.success) return { ok: false, message: describeValidationIssues(result.error, coerced.value) };
  return {
    ok: true,
    object: result.data,
    repairs: (parsed.repaired ? 1 : 0) + (lifted !== parsed.value ? 1 : 0) + coerced.repairs,
    reasoning: parsed.reasoning,
  };
}

const schemaCache = new WeakMap<z.ZodType, JsonSchemaNode>();

export function toJsonSchema(schema: z.ZodType): JsonSchemaNode {
  let cached = schemaCache.get(schema);
  if (!cached) {
    const { $schema: _ignored, ...rest } = z.toJSONSchema(schema, {
      target: 'draft-7',
      io: 'input',
      override: ({ jsonSchema }) => anyOfForOneOf(jsonSchema as JsonSchemaNode),
    }) as Record<string, unknown>;
    cached = rest as JsonSchemaNode;
    schemaCache.set(schema, cached);
  }
  return cached;
}

/**
 * zod writes a discriminated union as `oneOf`. OpenAI's structured outputs and llguidance (vLLM,
 * llama.cpp's optional backend) refuse `oneOf`, llama.cpp's own grammar converter and Ollama treat
 * both alike, and branches told apart by a constant field never overlap: `anyOf` means the same
 * and every server takes it.
 */
function anyOfForOneOf(node: JsonSchemaNode): void {
  if (!node.oneOf) return;
  node.anyOf = node.oneOf;
  delete node.oneOf;
}

/**
 * How to reply, in words the model reads: a field guide in both modes, since constrained
 * decoding never shows the model the schema; in prompt mode it replaces the minified schema.
 */
function formatInstruction(
  jsonSchema: JsonSchemaNode,
  mode: StructuredMode,
  request: Pick<StructuredRequest<unknown>, 'example' | 'fieldsInPrompt'>,
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
