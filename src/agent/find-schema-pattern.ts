/** Keywords whose value is one subschema. */
const singleSchemaKeywords = [
  'additionalProperties',
  'additionalItems',
  'items',
  'contains',
  'not',
  'if',
  'then',
  'else',
  'propertyNames',
  'unevaluatedItems',
  'unevaluatedProperties',
  'contentSchema',
];
/** Keywords whose value is a list of subschemas. */
const schemaListKeywords = ['allOf', 'anyOf', 'oneOf', 'prefixItems', 'items'];
/** Keywords whose value maps names to subschemas. */
const schemaMapKeywords = [
  'properties',
  'patternProperties',
  '$defs',
  'definitions',
  'dependentSchemas',
  'dependencies',
];

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The path (e.g. `properties.date.pattern`) of the first `pattern` or `patternProperties` keyword
 * in a JSON Schema, or undefined when it has none. Only schema positions are walked: a property
 * *named* `pattern`, or `pattern` inside `default`, `const` or `enum` data, is not a keyword.
 * An explicit stack, so a deeply nested schema cannot overflow ours.
 */
export function findSchemaPattern(schema: unknown): string | undefined {
  const stack: Array<{ node: unknown; path: string[] }> = [{ node: schema, path: [] }];
  while (stack.length > 0) {
    const { node, path } = stack.pop()!;
    if (!isObject(node)) continue;
    if (typeof node.pattern === 'string') return [...path, 'pattern'].join('.');
    if (node.patternProperties !== undefined) return [...path, 'patternProperties'].join('.');
    for (const keyword of singleSchemaKeywords)
      if (isObject(node[keyword])) stack.push({ node: node[keyword], path: [...path, keyword] });
    for (const keyword of schemaListKeywords) {
      const list = node[keyword];
      if (!Array.isArray(list)) continue;
      for (const [index, item] of list.entries())
        stack.push({ node: item, path: [...path, keyword, String(index)] });
    }
    for (const keyword of schemaMapKeywords) {
      const map = node[keyword];
      if (isObject(map))
        for (const [name, child] of Object.entries(map))
          stack.push({ node: child, path: [...path, keyword, name] });
    }
  }
  return undefined;
}
