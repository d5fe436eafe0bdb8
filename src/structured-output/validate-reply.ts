import type * as z from 'zod';
import { coerceToSchema, type JsonSchemaNode } from './coerce-to-schema.js';
import { describeValidationIssues } from './describe-validation-issues.js';
import { ModelJsonError, parseModelJson } from './parse-model-json.js';

export type Validation<T> =
  | { ok: true; object: T; repairs: number; reasoning: string }
  | { ok: false; message: string };

/** What validation needs besides the text: the schema and the caller's fix-ups. */
export interface ValidationRequest<T> {
  schema: z.ZodType<T>;
  /** Key synonyms mapped before validation where the wanted key is absent (each one a repair). */
  keyAliases?: Readonly<Record<string, string>>;
  /** The caller's own fix-up of a parsed reply, run before the generic coercion and validation. */
  repair?: (value: unknown) => unknown;
}

/**
 * Parse, repair, coerce, validate: a reply's text becomes the schema's object, or a message that
 * says in sentences what was wrong (what the re-ask sends back). Every fix counts as a repair.
 */
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
