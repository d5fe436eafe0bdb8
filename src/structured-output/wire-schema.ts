import type { JsonSchemaNode } from './coerce-to-schema.js';

/**
 * llama.cpp (llama-server, Ollama, LM Studio's llama.cpp engine) turns `maxLength: n` into a
 * grammar repetition `char{0,n}` and refuses the whole grammar ("failed to parse grammar", HTTP
 * 400) once a repetition reaches its MAX_REPETITION_THRESHOLD of 2000.
 */
export const grammarRepetitionLimit = 2000;

const wireSchemas = new WeakMap<JsonSchemaNode, JsonSchemaNode>();

/**
 * The JSON schema as sent for constrained decoding: the same schema without the length caps a
 * grammar cannot hold (a section body, an answer, code). Those caps stay where they are enforced
 * anyway: in validation (text over its cap is cut, a repair), in the field guide the model reads,
 * and in the output-token limit. Shorter caps (`think`, quotes, queries) stay on the wire, so a
 * server that constrains decoding closes a rambling `think` and goes on to the payload.
 */
export function toWireSchema(schema: JsonSchemaNode): JsonSchemaNode {
  let wire = wireSchemas.get(schema);
  if (!wire) {
    wire = withoutLongCaps(schema) as JsonSchemaNode;
    wireSchemas.set(schema, wire);
  }
  return wire;
}

function withoutLongCaps(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutLongCaps);
  if (typeof value !== 'object' || value === null) return value;
  const out: Record<string, unknown> = {};
  for (const [key, child] of Object.entries(value)) {
    if (key === 'maxLength' && typeof child === 'number' && child >= grammarRepetitionLimit) continue;
    out[key] = withoutLongCaps(child);
  }
  return out;
}
