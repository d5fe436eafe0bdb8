/**
 * Nudges a parsed reply toward its JSON schema before validation, fixing the mistakes small
 * models make: "true" for true, "3" for 3, a bare string where a list is wanted, `null` for an
 * omitted optional field, snake_case keys and known synonyms, enum values in the wrong case, an
 * object wrapped in one extra key, a plain string where an object of one text field is wanted
 * (so a list of strings becomes a list of such objects), a list or a string where an object holding
 * one required list is wanted (`"search": ["a"]`), a list longer than allowed, a missing
 * `think`, free text over its length cap (cut). It invents no content: what cannot be fixed is left for zod to reject. Each fix
 * counts as one repair.
 */
export interface JsonSchemaNode {
  type?: string | string[];
  properties?: Record<string, JsonSchemaNode>;
  required?: string[];
  items?: JsonSchemaNode;
  maxItems?: number;
  maxLength?: number;
  minLength?: number;
  enum?: unknown[];
  const?: unknown;
  anyOf?: JsonSchemaNode[];
  oneOf?: JsonSchemaNode[];
  $ref?: string;
  $defs?: Record<string, JsonSchemaNode>;
  definitions?: Record<string, JsonSchemaNode>;
}

export interface CoerceResult {
  value: unknown;
  changed: boolean;
  /** How many fixes were made. */
  repairs: number;
}

export interface CoerceOptions {
  /** Synonym → the schema's key, used where the schema's key is absent: {exactQuote: 'quote'}. */
  keyAliases?: Readonly<Record<string, string>>;
}

export function coerceToSchema(
  value: unknown,
  schema: JsonSchemaNode,
  options: CoerceOptions = {},
): CoerceResult {
  const state: CoerceState = { repairs: 0, root: schema, aliases: options.keyAliases ?? {} };
  const result = coerceNode(value, schema, state);
  return { value: result, changed: state.repairs > 0, repairs: state.repairs };
}

interface CoerceState {
  repairs: number;
  root: JsonSchemaNode;
  aliases: Readonly<Record<string, string>>;
}

/** Required string fields small models leave out; an empty value is harmless. */
const fillableStringFields = ['think'];

function coerceNode(value: unknown, schema: JsonSchemaNode, state: CoerceState): unknown {
  const node = resolveNode(schema, value, state);
  const type = primaryType(node);
  let next = value;
  // Objects and arrays count their own fixes; a new container alone is not a fix.
  if (type === 'object' && !node.enum) return coerceObject(value, node, state);
  if (type === 'array' && !node.enum) return coerceArray(value, node, state);
  if (node.enum) next = coerceEnum(value, node.enum);
  else if (node.const !== undefined) next = coerceEnum(value, [node.const]);
  else if (type === 'string') next = capLength(coerceString(value), node.maxLength);
  else if (type === 'number' || type === 'integer') next = coerceNumber(value, type);
  else if (type === 'boolean') next = coerceBoolean(value);
  if (next !== value) state.repairs++;
  return next;
}

function resolveNode(schema: JsonSchemaNode, value: unknown, state: CoerceState): JsonSchemaNode {
  if (schema.$ref) {
    const name = schema.$ref.split('/').at(-1)!;
    const target = state.root.$defs?.[name] ?? state.root.definitions?.[name];
    return target ? resolveNode(target, value, state) : schema;
  }
  const branches = schema.anyOf ?? schema.oneOf;
  if (!branches) return schema;
  const nonNull = branches.filter((branch) => primaryType(branch) !== 'null');
  if (value === null && nonNull.length < branches.length) return { type: 'null' };
  const tagged = branchByConstant(nonNull, value, state);
  if (tagged) return resolveNode(tagged, value, state);
  const matching = nonNull.find((branch) => primaryType(branch) === jsonType(value));
  return matching ?? nonNull[0] ?? schema;
}

/**
 * Among object branches told apart by a constant field (`{action: {const: "search"}}`), the one
 * whose constant the value holds, whatever its case: coercing against the first object branch
 * would map the wrong payload.
 */
function branchByConstant(
  branches: JsonSchemaNode[],
  value: unknown,
  state: CoerceState,
): JsonSchemaNode | undefined {
  if (!isPlainObject(value)) return undefined;
  const record = value;
  return branches.find((branch) => {
    const properties = resolveNode(branch, undefined, state).properties ?? {};
    return Object.entries(properties).some(([key, property]) => {
      const wanted = property.const ?? (property.enum?.length === 1 ? property.enum[0] : undefined);
      const actual = record[key];
      return (
        typeof wanted === 'string' &&
        typeof actual === 'string' &&
        normaliseKey(actual) === normaliseKey(wanted)
      );
    });
  });
}

function primaryType(schema: JsonSchemaNode): string | undefined {
  if (Array.isArray(schema.type)) return schema.type.find((type) => type !== 'null');
  if (schema.type) return schema.type;
  if (schema.properties) return 'object';
  if (schema.items) return 'array';
  return undefined;
}

function acceptsNull(schema: JsonSchemaNode): boolean {
  if (Array.isArray(schema.type)) return schema.type.includes('null');
  if (schema.type === 'null') return true;
  return (schema.anyOf ?? schema.oneOf ?? []).some((branch) => acceptsNull(branch));
}

function jsonType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value;
}

const normaliseKey = (key: string) => key.toLowerCase().replace(/[\s_-]/g, '');

function coerceObject(value: unknown, schema: JsonSchemaNode, state: CoerceState): unknown {
  let object = value;
  if (typeof object === 'string') {
    const parsed = tryParseJson(object);
    object = parsed ?? wrapText(object, schema) ?? wrapList([object], schema) ?? object;
    if (object !== value) state.repairs++;
  }
  if (Array.isArray(object)) {
    const only = object.length === 1 && isPlainObject(object[0]) ? object[0] : undefined;
    const unwrapped = only ?? wrapList(object, schema) ?? object;
    if (unwrapped !== object) state.repairs++;
    object = unwrapped;
  }
  if (!isPlainObject(object)) return object;
  const properties = schema.properties ?? {};
  const expected = Object.keys(properties);
  let record = object as Record<string, unknown>;
  if (expected.length > 0 && !expected.some((key) => key in record)) {
    const inner = unwrapSingleKey(record, expected);
    if (inner !== record) state.repairs++;
    record = inner;
  }
  const byNormalKey = new Map(expected.map((key) => [normaliseKey(key), key]));
  const out: Record<string, unknown> = {};
  for (const [key, child] of Object.entries(record)) {
    const target = key in properties ? key : (targetKey(key, properties, byNormalKey, state) ?? key);
    const childSchema = properties[target];
    if (childSchema && child === null && !acceptsNull(childSchema) && !schema.required?.includes(target)) {
      state.repairs++;
      continue;
    }
    if (target in out && !(key in properties)) continue;
    if (target !== key) state.repairs++;
    out[target] = childSchema ? coerceNode(child, childSchema, state) : child;
  }
  for (const field of fillableStringFields) {
    if (
      schema.required?.includes(field) &&
      !(field in out) &&
      primaryType(properties[field] ?? {}) === 'string'
    ) {
      out[field] = '';
      state.repairs++;
    }
  }
  return shallowEqual(out, object as Record<string, unknown>) ? object : out;
}

/** The schema's key for a reply's key: a declared synonym, else the same key in another case style. */
function targetKey(
  key: string,
  properties: Record<string, JsonSchemaNode>,
  byNormalKey: Map<string, string>,
  state: CoerceState,
): string | undefined {
  const alias = state.aliases[key];
  if (alias !== undefined && alias in properties) return alias;
  return byNormalKey.get(normaliseKey(key));
}

/**
 * A plain string where the schema wants an object whose one content field takes it: a `text` field,
 * else its one required free-text string, else the one of those that must not be empty
 * (`"Paris"` → `{text: "Paris"}`; a rewriter's `"a query"` → `{query: "a query", timeRange: "none",
 * language: ""}`). The other required fields get their empty value — a list `[]`, a string that may
 * be empty `""`, an enum's `"none"` — or the string is left for validation to reject.
 */
function wrapText(text: string, schema: JsonSchemaNode): Record<string, unknown> | undefined {
  const properties = schema.properties ?? {};
  const required = schema.required ?? [];
  const field =
    'text' in properties && primaryType(properties.text!) === 'string' ? 'text' : contentField(schema);
  if (field === undefined) return undefined;
  const wrapped: Record<string, unknown> = { [field]: text };
  for (const key of required) {
    if (key === field) continue;
    const empty = emptyValue(properties[key] ?? {});
    if (empty === undefined) return undefined;
    wrapped[key] = empty;
  }
  return wrapped;
}

function contentField(schema: JsonSchemaNode): string | undefined {
  const properties = schema.properties ?? {};
  const texts = (schema.required ?? []).filter((key) => {
    const property = properties[key] ?? {};
    return primaryType(property) === 'string' && !property.enum && property.const === undefined;
  });
  if (texts.length === 1) return texts[0];
  const nonEmpty = texts.filter((key) => (properties[key]?.minLength ?? 0) >= 1);
  return nonEmpty.length === 1 ? nonEmpty[0] : undefined;
}

/** The value that says "nothing" for a field, when it has one; undefined when it has none. */
function emptyValue(property: JsonSchemaNode): unknown {
  if (property.enum) return property.enum.includes('none') ? 'none' : undefined;
  const type = primaryType(property);
  if (type === 'array') return [];
  if (type === 'string' && property.const === undefined && (property.minLength ?? 0) === 0) return '';
  return undefined;
}

/**
 * A list where the schema wants an object whose one required field is a list:
 * `"search": ["a", "b"]` → `{"queries": ["a", "b"]}`.
 */
function wrapList(items: unknown[], schema: JsonSchemaNode): Record<string, unknown> | undefined {
  const required = schema.required ?? [];
  const field = required[0];
  if (required.length !== 1 || primaryType(schema.properties?.[field!] ?? {}) !== 'array') return undefined;
  return { [field!]: items };
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** `{"response": {...expected keys...}}` → the inner object. */
function unwrapSingleKey(record: Record<string, unknown>, expected: string[]): Record<string, unknown> {
  const keys = Object.keys(record);
  if (keys.length !== 1) return record;
  const inner = record[keys[0]!];
  if (!isPlainObject(inner)) return record;
  return expected.some((key) => key in inner) ? inner : record;
}

function coerceArray(value: unknown, schema: JsonSchemaNode, state: CoerceState): unknown {
  let list: unknown = value;
  if (typeof list === 'string') {
    const parsed = tryParseJson(list);
    list = Array.isArray(parsed) ? parsed : list.trim() === '' ? [] : [list];
  } else if (list === null) {
    list = [];
  } else if (!Array.isArray(list)) {
    list = [list];
  }
  let items = list as unknown[];
  if (list !== value) state.repairs++;
  // One query or URL too many is a common slip; the first ones are the model's best.
  if (schema.maxItems !== undefined && items.length > schema.maxItems) {
    items = items.slice(0, schema.maxItems);
    state.repairs++;
  }
  const coerced = schema.items ? items.map((item) => coerceNode(item, schema.items!, state)) : items;
  const same =
    Array.isArray(value) &&
    coerced.length === value.length &&
    coerced.every((item, index) => item === value[index]);
  return same ? value : coerced;
}

/**
 * Free text over its cap (a rambling `think`) is cut, not re-asked: the cap exists to bound
 * output and prompt size, and the text's start carries its point.
 */
function capLength(value: unknown, maxLength: number | undefined): unknown {
  if (typeof value !== 'string' || maxLength === undefined || value.length <= maxLength) return value;
  return `${value.slice(0, Math.max(0, maxLength - 1)).trimEnd()}…`;
}

function coerceString(value: unknown): unknown {
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (Array.isArray(value) && value.every((item) => typeof item === 'string')) return value.join('\n');
  return value;
}

function coerceNumber(value: unknown, type: string): unknown {
  let number = value;
  if (typeof value === 'string' && value.trim() !== '' && Number.isFinite(Number(value)))
    number = Number(value);
  if (type === 'integer' && typeof number === 'number' && !Number.isInteger(number))
    number = Math.round(number);
  return number;
}

function coerceBoolean(value: unknown): unknown {
  if (typeof value === 'string') {
    const lower = value.trim().toLowerCase();
    if (['true', 'yes', '1'].includes(lower)) return true;
    if (['false', 'no', '0'].includes(lower)) return false;
  }
  if (value === 1 || value === 0) return value === 1;
  return value;
}

function coerceEnum(value: unknown, options: unknown[]): unknown {
  if (options.includes(value) || typeof value !== 'string') return value;
  const wanted = normaliseKey(value);
  return options.find((option) => typeof option === 'string' && normaliseKey(option) === wanted) ?? value;
}

function tryParseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function shallowEqual(a: Record<string, unknown>, b: Record<string, unknown>): boolean {
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((key) => a[key] === b[key]);
}
