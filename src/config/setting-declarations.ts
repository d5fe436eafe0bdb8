import type * as z from 'zod';
import { configSchema } from './config-schema.js';
import { llmRoleSettingsSchema } from './llm-config-schema.js';
import { type SettingMeta, settingRegistry } from './setting.js';

/** 'list': comma-separated in env and flags. */
export type SettingType = 'string' | 'integer' | 'number' | 'boolean' | 'list';

/** A setting as its schema declares it: the key, its metadata, and what the schema says of its value. */
export interface SettingDeclaration {
  /** The config key, e.g. `search.provider`. */
  path: string;
  meta: SettingMeta;
  type: SettingType;
  /** The schema's default; undefined when there is none. */
  defaultValue?: unknown;
}

interface SchemaDef {
  type: string;
  innerType?: Schema;
  in?: Schema;
  element?: Schema;
  options?: Schema[];
  shape?: Record<string, Schema>;
  defaultValue?: unknown;
}
interface Schema {
  _zod: { def: SchemaDef };
  isInt?: boolean;
}

let declarations: readonly SettingDeclaration[] | undefined;

/** Every setting of the config schema, in the schema's order (computed on first use, then kept). */
export function settingDeclarations(): readonly SettingDeclaration[] {
  declarations ??= declarationsOf(configSchema as unknown as Schema, '');
  return declarations;
}

/** The settings of one role's block (`llm.roles.<role>`): the top-level llm settings' metadata. */
export function roleSettingDeclarations(): readonly SettingDeclaration[] {
  return declarationsOf(llmRoleSettingsSchema as unknown as Schema, '');
}

function declarationsOf(schema: Schema, path: string): SettingDeclaration[] {
  const meta = settingRegistry.get(schema as unknown as z.ZodType);
  if (meta) return [{ path, meta, type: valueType(schema), defaultValue: defaultOf(schema) }];
  const object = unwrapped(schema);
  if (object._zod.def.type !== 'object') return [];
  return Object.entries(object._zod.def.shape ?? {}).flatMap(([key, child]) =>
    declarationsOf(child, path ? `${path}.${key}` : key),
  );
}

/** Through the wrappers that do not change what a value is: default, optional, a transform's input. */
function unwrapped(schema: Schema): Schema {
  const def = schema._zod.def;
  if (def.innerType && ['default', 'optional', 'prefault', 'nullable', 'readonly'].includes(def.type)) {
    return unwrapped(def.innerType);
  }
  if (def.type === 'pipe' && def.in) return unwrapped(def.in);
  return schema;
}

function defaultOf(schema: Schema): unknown {
  const def = schema._zod.def;
  if (def.type === 'default') return def.defaultValue;
  return def.innerType && def.type !== 'pipe' ? defaultOf(def.innerType) : undefined;
}

function valueType(schema: Schema): SettingType {
  const inner = unwrapped(schema);
  switch (inner._zod.def.type) {
    case 'number':
      return inner.isInt ? 'integer' : 'number';
    case 'boolean':
      return 'boolean';
    case 'array':
      return 'list';
    case 'union':
      // NO_PROXY: a string as the variable, a list in the file.
      return (inner._zod.def.options ?? []).some((option) => unwrapped(option)._zod.def.type === 'array')
        ? 'list'
        : 'string';
    default:
      return 'string';
  }
}
