import type { JsonSchemaNode } from './coerce-to-schema.js';
import { grammarRepetitionLimit } from './wire-schema.js';

/** The JSON-schema dialect node-llama-cpp turns into a grammar (its GbnfJsonSchema). */
export type GrammarSchema = Readonly<Record<string, unknown>>;

type Node = JsonSchemaNode & {
  minItems?: number;
  minLength?: number;
  format?: string;
  additionalProperties?: boolean | Node;
};

const scalarTypes = new Set(['string', 'number', 'integer', 'boolean', 'null']);
const grammarFormats = new Set(['date-time', 'time', 'date']);

/**
 * Our wire schema (zod's draft-7 output, see toWireSchema) in node-llama-cpp's dialect, which
 * differs in three ways that matter: every listed property is required, so optional ones are left
 * out (validation does not need them, and a model on a CPU writes fewer tokens); alternatives are
 * `oneOf` only; and references are inlined. Bounds it cannot express (minimum, maximum) are
 * dropped: validation still holds the reply to them and re-asks once.
 */
export function toGrammarSchema(schema: JsonSchemaNode): GrammarSchema {
  const root = schema as Node;
  return convert(root, root, 0);
}

function convert(node: Node, root: Node, depth: number): GrammarSchema {
  if (depth > 32) throw new Error('the JSON schema nests too deeply for a grammar');
  if (node.$ref) return convert(resolveRef(node.$ref, root), root, depth + 1);
  const alternatives = node.anyOf ?? node.oneOf;
  if (alternatives) {
    const branches = alternatives.map((branch) => convert(branch as Node, root, depth + 1));
    return branches.length === 1 ? branches[0]! : { oneOf: branches };
  }
  if (node.const !== undefined) return { const: node.const };
  if (node.enum) return { enum: node.enum };
  const types = Array.isArray(node.type) ? node.type : node.type ? [node.type] : [];
  if (types.length > 1) {
    if (types.every((type) => scalarTypes.has(type))) return { type: types };
    return { oneOf: types.map((type) => convert({ ...node, type }, root, depth + 1)) };
  }
  switch (types[0]) {
    case 'object':
      return objectSchema(node, root, depth);
    case 'array':
      return {
        type: 'array',
        ...(node.items ? { items: convert(node.items as Node, root, depth + 1) } : {}),
        ...(node.minItems !== undefined ? { minItems: node.minItems } : {}),
        ...(node.maxItems !== undefined ? { maxItems: node.maxItems } : {}),
      };
    case 'string':
      if (node.format && grammarFormats.has(node.format)) return { type: 'string', format: node.format };
      // llama.cpp refuses a grammar whose repetition reaches grammarRepetitionLimit.
      return {
        type: 'string',
        ...(node.minLength !== undefined && node.minLength < grammarRepetitionLimit
          ? { minLength: node.minLength }
          : {}),
        ...(node.maxLength !== undefined && node.maxLength < grammarRepetitionLimit
          ? { maxLength: node.maxLength }
          : {}),
      };
    case undefined:
      // No type at all: any scalar (our schemas never leave a value this open).
      return { type: ['string', 'number', 'boolean', 'null'] };
    default:
      return { type: types[0] };
  }
}

function objectSchema(node: Node, root: Node, depth: number): GrammarSchema {
  const required = new Set(node.required ?? []);
  const properties = Object.entries(node.properties ?? {}).filter(([key]) => required.has(key));
  if (properties.length === 0 && typeof node.additionalProperties === 'object') {
    // A record: any keys, each value of one schema.
    return { type: 'object', additionalProperties: convert(node.additionalProperties, root, depth + 1) };
  }
  return {
    type: 'object',
    properties: Object.fromEntries(
      properties.map(([key, value]) => [key, convert(value as Node, root, depth + 1)]),
    ),
  };
}

function resolveRef(ref: string, root: Node): Node {
  const match = /^#\/(\$defs|definitions)\/(.+)$/.exec(ref);
  const target = match
    ? root[match[1] as '$defs' | 'definitions']?.[match[2]!]
    : ref === '#'
      ? root
      : undefined;
  if (!target) throw new Error(`the JSON schema reference ${ref} cannot be resolved`);
  return target as Node;
}
