/**
 * Whether a JSON schema with local `$ref`s describes any finite value. `{"$ref":"#"}`, two
 * definitions that only refer to each other, or an object that requires a property of its own type
 * describe none: no answer could ever satisfy them, so they are refused at the request rather than
 * after a whole deep search. A least fixpoint over the schema's nodes: a node is satisfiable once
 * what it requires is (all of `allOf`, the required properties, `minItems` items, the `$ref`
 * target; one branch of `anyOf`/`oneOf`). Returns the JSON pointer of an unsatisfiable `$ref`, or
 * of the root, when the root is not satisfiable; undefined when it is (or cannot be told here).
 */
export function findInfiniteSchema(schema: unknown): string | undefined {
  const nodes = collectNodes(schema);
  const satisfiable = new Set<string>();
  for (let changed = true; changed; ) {
    changed = false;
    for (const [pointer, node] of nodes) {
      if (satisfiable.has(pointer) || !isSatisfiable(pointer, node, satisfiable, nodes)) continue;
      satisfiable.add(pointer);
      changed = true;
    }
  }
  if (satisfiable.has('#')) return undefined;
  for (const [pointer, node] of nodes) {
    if (!satisfiable.has(pointer) && typeof node === 'object' && node !== null && '$ref' in node)
      return pointer;
  }
  return '#';
}

type SchemaNode = Record<string, unknown>;

const listKeywords = ['allOf', 'anyOf', 'oneOf', 'prefixItems'] as const;
const mapKeywords = ['properties', '$defs', 'definitions'] as const;
const singleKeywords = ['items', 'additionalProperties', 'not', 'if', 'then', 'else'] as const;

/** Every subschema by its JSON pointer, walked with our own stack. */
function collectNodes(root: unknown): Map<string, unknown> {
  const nodes = new Map<string, unknown>();
  const stack: Array<[string, unknown]> = [['#', root]];
  while (stack.length > 0) {
    const [pointer, node] = stack.pop()!;
    nodes.set(pointer, node);
    if (typeof node !== 'object' || node === null || Array.isArray(node)) continue;
    const object = node as SchemaNode;
    for (const key of listKeywords) {
      const list = object[key];
      if (!Array.isArray(list)) continue;
      for (const [index, item] of list.entries()) stack.push([`${pointer}/${key}/${index}`, item]);
    }
    for (const key of mapKeywords) {
      const map = object[key];
      if (typeof map !== 'object' || map === null || Array.isArray(map)) continue;
      for (const [name, item] of Object.entries(map))
        stack.push([`${pointer}/${key}/${pointerToken(name)}`, item]);
    }
    for (const key of singleKeywords) {
      if (typeof object[key] === 'object' && object[key] !== null)
        stack.push([`${pointer}/${key}`, object[key]]);
    }
  }
  return nodes;
}

function isSatisfiable(
  pointer: string,
  node: unknown,
  known: ReadonlySet<string>,
  nodes: ReadonlyMap<string, unknown>,
): boolean {
  if (node === false) return false;
  if (typeof node !== 'object' || node === null || Array.isArray(node)) return true;
  const object = node as SchemaNode;
  const ok = (child: string) => known.has(child);
  // A reference to a node not walked here (another document, an unusual keyword) is not judged.
  const target = typeof object.$ref === 'string' ? decodeRef(object.$ref) : undefined;
  if (target !== undefined && nodes.has(target) && !ok(target)) return false;
  if (Array.isArray(object.allOf) && !object.allOf.every((_, index) => ok(`${pointer}/allOf/${index}`)))
    return false;
  for (const key of ['anyOf', 'oneOf'] as const) {
    const list = object[key];
    if (Array.isArray(list) && !list.some((_, index) => ok(`${pointer}/${key}/${index}`))) return false;
  }
  const properties = object.properties;
  if (Array.isArray(object.required) && typeof properties === 'object' && properties !== null) {
    for (const name of object.required) {
      if (
        typeof name === 'string' &&
        name in properties &&
        !ok(`${pointer}/properties/${pointerToken(name)}`)
      )
        return false;
    }
  }
  const minItems = typeof object.minItems === 'number' ? object.minItems : 0;
  if (minItems > 0) {
    const prefix = Array.isArray(object.prefixItems) ? object.prefixItems.length : 0;
    for (let index = 0; index < Math.min(minItems, prefix); index++) {
      if (!ok(`${pointer}/prefixItems/${index}`)) return false;
    }
    if (
      minItems > prefix &&
      typeof object.items === 'object' &&
      object.items !== null &&
      !ok(`${pointer}/items`)
    ) {
      return false;
    }
  }
  return true;
}

/** `#/$defs/a~1b` → the pointer collectNodes gives that node (`#/$defs/a~1b`), `#` → `#`. */
function decodeRef(ref: string): string | undefined {
  if (!ref.startsWith('#')) return undefined;
  if (ref === '#' || ref === '#/') return '#';
  try {
    return `#${decodeURIComponent(ref.slice(1))}`;
  } catch {
    return undefined;
  }
}

function pointerToken(name: string): string {
  return name.replace(/~/g, '~0').replace(/\//g, '~1');
}
