import * as z from 'zod';
import { InputError } from '../core/errors/index.js';
import type { DeepSearchResult } from '../events/deep-search-result.js';
import type { LlmClient, TokenUsage } from '../providers/spec/llm-client.js';
import { findSchemaPattern } from './find-schema-pattern.js';
import { structuredAnswerPrompt, structuredAnswerSystemPrompt } from './prompts/structured-answer-prompt.js';

/** A caller's JSON schema for the answer, turned into the zod schema the LLM client validates with. */
export interface AnswerSchema {
  name: string;
  schema: z.ZodType;
}

/**
 * Reads a JSON Schema (as sent in OpenAI's `response_format.json_schema.schema`). Throws InputError
 * when it is not one zod can follow, so the caller can refuse the request before any work starts.
 *
 * The schema is untrusted, so a regular expression in it (`pattern`, `patternProperties`) is
 * refused: zod would run it with JavaScript's backtracking engine on the model's answer, where
 * `^(\w+\s?)*$` takes seconds per string and blocks the event loop. A caller who wants one
 * builds its own `AnswerSchema` with a zod schema it trusts.
 */
export function parseAnswerSchema(input: { name?: string; jsonSchema: unknown }): AnswerSchema {
  const jsonSchema = input.jsonSchema;
  if (typeof jsonSchema !== 'object' || jsonSchema === null || Array.isArray(jsonSchema)) {
    throw new InputError('the answer schema must be a JSON Schema object', { param: 'response_format' });
  }
  const pattern = findSchemaPattern(jsonSchema);
  if (pattern !== undefined) {
    throw new InputError(
      `the answer schema has a regular expression at ${pattern}: this server does not run client regular expressions (pattern, patternProperties); remove it and describe the format in a description instead`,
      { param: `response_format.json_schema.schema.${pattern}`, code: 'unsupported_schema_keyword' },
    );
  }
  try {
    return {
      name: input.name ?? 'answer',
      schema: z.fromJSONSchema(jsonSchema as z.core.JSONSchema.JSONSchema),
    };
  } catch (error) {
    throw new InputError(`the answer schema is not usable: ${(error as Error).message}`, {
      param: 'response_format',
      cause: error,
    });
  }
}

export interface StructuredAnswer {
  object: unknown;
  usage: TokenUsage;
}

/** One more LLM call after the run: the verified answer and its sources, as JSON of the caller's schema. */
export async function createStructuredAnswer(input: {
  llm: LlmClient;
  result: DeepSearchResult;
  answerSchema: AnswerSchema;
  signal?: AbortSignal;
}): Promise<StructuredAnswer> {
  const { result, answerSchema } = input;
  const reply = await input.llm.generateObject({
    role: 'agent',
    system: structuredAnswerSystemPrompt(),
    prompt: structuredAnswerPrompt({
      question: result.question,
      answer: result.answer,
      references: result.references,
    }),
    schema: answerSchema.schema,
    schemaName: answerSchema.name,
    signal: input.signal,
  });
  return { object: reply.object, usage: reply.usage };
}
