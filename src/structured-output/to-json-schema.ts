import * as z from 'zod';
import type { JsonSchemaNode } from './coerce-to-schema.js';

const schemaCache = new WeakMap<z.ZodType, JsonSchemaNode>();

/** The zod schema as the JSON schema sent to the model and walked by coercion (cached per schema). */
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
