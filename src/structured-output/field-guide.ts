import type * as z from 'zod';
import type { JsonSchemaNode } from './coerce-to-schema.js';
import { toJsonSchema } from './to-json-schema.js';

/**
 * The reply's fields in words, one line each, and one example object: what every structured
 * prompt shows the model. A server that constrains decoding to the JSON schema (Ollama,
 * llama.cpp, vLLM) never shows the model that schema or its descriptions, and a minified schema
 * in the prompt costs many tokens and reads badly to a 7B model; a field guide works in both modes.
 * Derived from the zod schema's `.describe()` texts and limits, so a new role gets one by
 * describing its fields and passing an example (StructuredRequest.example).
 */
export function renderFieldGuide(schema: z.ZodType | JsonSchemaNode, example?: unknown): string {
  const json = isZod(schema) ? toJsonSchema(schema) : schema;
  const lines: string[] = [];
  collectFields(json, json, '', lines);
  const shown = example === undefined ? exampleFromSchema(json, json) : example;
  return [...lines, `Example: ${JSON.stringify(shown)}`].join('\n');
}

function isZod(schema: z.ZodType | JsonSchemaNode): schema is z.ZodType {
  return typeof (schema as z.ZodType).safeParse === 'function';
}

interface DescribedNode extends JsonSchemaNode {
  description?: string;
  maxLength?: number;
  minItems?: number;
  minimum?: number;
  maximum?: number;
}

function collectFields(node: DescribedNode, root: JsonSchemaNode, path: string, lines: string[]): void {
  const resolved = resolve(node, root);
  const properties = resolved.properties;
  if (!properties) return;
  const required = new Set(resolved.required ?? []);
  for (const [key, child] of Object.entries(properties) as Array<[string, DescribedNode]>) {
    const field = resolve(child, root);
    const name = path ? `${path}.${key}` : key;
    const optional = required.has(key) ? '' : ', optional';
    const description = child.description ?? field.description;
    lines.push(`- ${name} (${typeOf(field, root)}${optional})${description ? `: ${description}` : ''}`);
    const items = field.items ? resolve(field.items as DescribedNode, root) : undefined;
    if (field.properties) collectFields(field, root, name, lines);
    else if (items?.properties) collectFields(items, root, `${name}[]`, lines);
    else collectBranches(field, root, name, lines);
  }
}

/**
 * A union of objects told apart by a constant field (the agent's `step`): each object's fields,
 * under the value that picks it, `- step when action is "search": ...`.
 */
function collectBranches(node: DescribedNode, root: JsonSchemaNode, path: string, lines: string[]): void {
  const branches = (node.anyOf ?? node.oneOf ?? []).map((branch) => resolve(branch as DescribedNode, root));
  for (const branch of branches) {
    const tag = Object.entries(branch.properties ?? {}).find(([, property]) => property.const !== undefined);
    if (!tag) continue;
    const [key, property] = tag;
    lines.push(`- ${path} when ${key} is ${JSON.stringify(property.const)}:`);
    const { [key]: _tag, ...rest } = branch.properties!;
    collectFields({ ...branch, properties: rest }, root, path, lines);
  }
}

/** "string, at most 600 characters", "list of 1 to 3 strings", "one of: none, day, week". */
function typeOf(node: DescribedNode, root: JsonSchemaNode): string {
  if (node.enum) return `one of: ${node.enum.map(String).join(', ')}`;
  if (node.const !== undefined) return `always ${JSON.stringify(node.const)}`;
  const branches = node.anyOf ?? node.oneOf;
  if (branches?.every((branch) => resolve(branch as DescribedNode, root).properties))
    return `one of ${branches.length} objects, below`;
  if (branches)
    return branches.map((branch) => typeOf(resolve(branch as DescribedNode, root), root)).join(' or ');
  const type = Array.isArray(node.type) ? node.type.filter((each) => each !== 'null')[0] : node.type;
  if (type === 'string') return node.maxLength ? `text, at most ${node.maxLength} characters` : 'text';
  if (type === 'integer' || type === 'number') {
    const word = type === 'integer' ? 'whole number' : 'number';
    return node.minimum !== undefined && node.minimum > 0 ? `${word} from ${node.minimum}` : word;
  }
  if (type === 'boolean') return 'true or false';
  if (type === 'array') {
    const items = node.items ? resolve(node.items as DescribedNode, root) : {};
    const count =
      node.maxItems !== undefined
        ? `${node.minItems ? `${node.minItems} to ` : 'up to '}${node.maxItems} `
        : '';
    const what = items.properties ? 'objects' : itemsOf(items, root);
    return `list of ${count}${what}`;
  }
  return type === 'object' ? 'object' : 'value';
}

function itemsOf(items: DescribedNode, root: JsonSchemaNode): string {
  if (items.type !== 'string' || items.enum) return `items (${typeOf(items, root)})`;
  return items.maxLength ? `texts (each at most ${items.maxLength} characters)` : 'texts';
}

/** A skeleton example for a schema with no example given: types, not content. */
function exampleFromSchema(node: DescribedNode, root: JsonSchemaNode): unknown {
  const resolved = resolve(node, root);
  if (resolved.enum) return resolved.enum[0];
  if (resolved.const !== undefined) return resolved.const;
  const branches = resolved.anyOf ?? resolved.oneOf;
  if (branches?.[0]) return exampleFromSchema(branches[0] as DescribedNode, root);
  const type = Array.isArray(resolved.type) ? resolved.type[0] : resolved.type;
  if (type === 'object' || resolved.properties) {
    return Object.fromEntries(
      Object.entries(resolved.properties ?? {}).map(([key, child]) => [
        key,
        exampleFromSchema(child as DescribedNode, root),
      ]),
    );
  }
  if (type === 'array')
    return resolved.items ? [exampleFromSchema(resolved.items as DescribedNode, root)] : [];
  if (type === 'string') return '...';
  if (type === 'integer' || type === 'number') return 0;
  if (type === 'boolean') return true;
  return null;
}

function resolve(node: DescribedNode, root: JsonSchemaNode): DescribedNode {
  if (!node.$ref) return node;
  const name = node.$ref.split('/').at(-1)!;
  return (root.$defs?.[name] ?? root.definitions?.[name] ?? node) as DescribedNode;
}
