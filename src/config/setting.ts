import * as z from 'zod';

/**
 * What a setting says about itself, declared once on its schema: the settings table (the loader's
 * variables and flags), `deepsearch help settings`, `--help` and docs/configuration.md are derived
 * from it. The default is the schema's own, so a description never repeats it.
 */
export interface SettingMeta {
  description: string;
  /** The variable that sets it (DEEPSEARCH_..., or a vendor's own name such as OPENAI_API_KEY). */
  env?: string;
  /** More variable names accepted, read before `env` (so `env` wins when both are set). */
  envAliases?: readonly string[];
  /** The flag without its dashes: `max-steps`. */
  flag?: string;
  /** Masked in every output, and never shown with its value. */
  secret?: boolean;
  /** The variable and flag say the opposite of the value (--no-cache sets cache.enabled false). */
  negate?: boolean;
  /** A switch that turns the setting off, beside a variable that sets it either way (--no-query-rewrite). */
  offFlag?: { flag: string; description: string };
  /**
   * The machine's proxy variables (lower-case first, as curl reads them): read with their own rules,
   * below the config file (proxy-environment.ts).
   */
  proxyEnv?: readonly string[];
}

/** The registry of settings' metadata; keyed by schema instance, so `setting()` is applied last. */
export const settingRegistry = z.registry<SettingMeta>();

/**
 * A schema that is a setting: call it on the field's final schema (after `.default()` and
 * `.optional()`, which wrap it in a new instance the registry would not know).
 */
export function setting<Schema extends z.ZodType>(schema: Schema, meta: SettingMeta): Schema {
  // register() types its metadata per schema; this registry's is the same for every schema.
  settingRegistry.add(schema, meta);
  return schema;
}

/**
 * Parse options for the config, parsed once per process: without zod's compiled fast path, whose
 * code generation for each object schema costs a one-off parse (a CLI command) more than it saves.
 */
export const oneOffParse = { jitless: true } as const;

/** An absent section's value: the section parsed from {}, every default filled in. */
export function sectionDefaults<Schema extends z.ZodType>(schema: Schema): () => z.output<Schema> {
  return () => schema.parse({}, oneOffParse);
}

export const providerName = z.string().min(1);

/**
 * A service URL. `http://user:pass@host` is refused: fetch will not send credentials written in a
 * URL, and the URL would carry the password into every message that names it. The message never
 * repeats the value.
 */
export const urlSetting = z.url().refine(
  (value) => {
    try {
      const parsed = new URL(value);
      return parsed.username === '' && parsed.password === '';
    } catch {
      return true;
    }
  },
  {
    message:
      'must not contain credentials (user:password@): fetch cannot send them; put the key in the ' +
      'matching API key setting, or use a proxy that adds the Authorization header',
  },
);
