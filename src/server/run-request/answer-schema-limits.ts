import * as z from 'zod';
import { type AnswerSchema, parseAnswerSchema } from '../../agent/structured-answer.js';
import { InputError } from '../../core/errors/index.js';
import { findInfiniteSchema } from './finite-schema.js';

/** How large a client's answer schema may be; a real answer shape is a few dozen nodes. */
export const answerSchemaLimits = {
  /** Nesting of objects and arrays. */
  maxDepth: 20,
  /** Objects and arrays in the whole schema. */
  maxNodes: 2000,
  /** Keys of one object (properties...) or items of one array (allOf, enum...). */
  maxEntries: 200,
  /** The schema as JSON. */
  maxBytes: 64 * 1024,
} as const;

/**
 * A `response_format` JSON schema, bounded and converted, or an InputError (400) saying what is
 * too large. It is checked before any slot or work: a walk with its own stack (a deep schema cannot
 * overflow ours), then zod reads it, then it is converted back to the JSON schema the LLM will be
 * sent, so a schema that cannot make the round trip fails now, not after a whole deep search.
 */
export function readAnswerSchema(input: { name: string; jsonSchema: unknown }): AnswerSchema {
  assertSchemaWithinLimits(input.jsonSchema);
  const infinite = findInfiniteSchema(input.jsonSchema);
  if (infinite !== undefined) {
    throw new InputError(
      `the answer schema describes no finite value: ${infinite === '#' ? 'it' : `the $ref at ${infinite}`} ` +
        'needs itself without end (a $ref cycle with no way out); make the recursive property optional, ' +
        'or give it a choice (anyOf) that does not recurse',
      { param: 'response_format', code: 'invalid_schema' },
    );
  }
  const answerSchema = parseAnswerSchema(input);
  try {
    z.toJSONSchema(answerSchema.schema, { target: 'draft-7', io: 'input' });
  } catch (error) {
    throw new InputError(
      `the answer schema cannot be used: ${error instanceof Error ? error.message.slice(0, 200) : 'conversion failed'}`,
      { param: 'response_format', code: 'invalid_schema', cause: error },
    );
  }
  return answerSchema;
}

export function assertSchemaWithinLimits(schema: unknown, limits = answerSchemaLimits): void {
  const refuse = (what: string) => {
    throw new InputError(`the answer schema is too large: ${what}`, {
      param: 'response_format',
      code: 'schema_too_large',
    });
  };
  const stack: Array<{ value: unknown; depth: number }> = [{ value: schema, depth: 1 }];
  let nodes = 0;
  while (stack.length > 0) {
    const { value, depth } = stack.pop()!;
    if (typeof value !== 'object' || value === null) continue;
    if (depth > limits.maxDepth) refuse(`nested deeper than ${limits.maxDepth} levels`);
    if (++nodes > limits.maxNodes) refuse(`more than ${limits.maxNodes} objects and arrays`);
    const children = Array.isArray(value) ? value : Object.values(value);
    if (children.length > limits.maxEntries) {
      refuse(`more than ${limits.maxEntries} entries in one ${Array.isArray(value) ? 'list' : 'object'}`);
    }
    for (const child of children) stack.push({ value: child, depth: depth + 1 });
  }
  if (JSON.stringify(schema).length > limits.maxBytes) refuse(`larger than ${limits.maxBytes} bytes as JSON`);
}
