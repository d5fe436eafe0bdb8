import { type LlmRole, llmRoles, type SearchKeyProviderId, searchKeyProviderIds } from './config-ids.js';
import type { SettingType } from './setting-declarations.js';
import {
  roleSettingDeclarations,
  type SettingDeclaration,
  settingDeclarations,
} from './setting-declarations.js';

export type { SettingType };

/** One variable or flag of a setting: where it lives in the config and how it is read. */
export interface SettingSource {
  path: string;
  type: SettingType;
  description: string;
  env?: string;
  flag?: string;
  secret?: boolean;
  /** The variable or flag says the opposite of the config value (--no-cache sets cache.enabled false). */
  negate?: boolean;
  /** The schema's default; undefined when there is none. */
  defaultValue?: unknown;
}

/** The value a flag takes, as help shows it (`--max-steps <integer>`); none for a switch. */
export function flagPlaceholder(source: Pick<SettingSource, 'type'>): string | undefined {
  if (source.type === 'boolean') return undefined;
  return source.type === 'string' ? 'value' : source.type === 'list' ? 'a,b' : source.type;
}

/** The fields of `llm.roles.<role>` that each have a variable and flag per role. */
export const roleFieldNames = ['provider', 'baseURL', 'model', 'apiKey', 'temperature', 'maxOutputTokens'];

/**
 * A description with the schema's default after it, for a flag's help line: "(default 30)". None for
 * a switch that turns a setting off (its default is "not given"), nor for an empty list.
 */
export function describedWithDefault(source: SettingSource): string {
  const value = source.defaultValue;
  const empty = value === undefined || (typeof value === 'object' && Object.keys(value ?? {}).length === 0);
  if (source.negate || empty) return source.description;
  return `${source.description} (default ${Array.isArray(value) ? value.join(',') : String(value)})`;
}

let table: readonly SettingSource[] | undefined;

/**
 * The settings table the loader reads variables and flags from, derived from the schema's
 * declarations (setting.ts), with the two families written from a list: the search keys by provider
 * and the settings of each LLM role.
 */
export function settingSources(): readonly SettingSource[] {
  table ??= [
    ...settingDeclarations().flatMap(sourcesOf),
    ...searchKeySources(),
    ...llmRoles.flatMap(roleSources),
  ];
  return table;
}

function sourcesOf({ path, meta, type, defaultValue }: SettingDeclaration): SettingSource[] {
  const sources: SettingSource[] = [];
  const common = { path, type, defaultValue, ...(meta.secret ? { secret: true } : {}) };
  if (meta.env || meta.flag) {
    sources.push({
      ...common,
      description: meta.description,
      ...(meta.env ? { env: meta.env } : {}),
      ...(meta.flag ? { flag: meta.flag } : {}),
      ...(meta.negate ? { negate: true } : {}),
    });
  }
  if (meta.offFlag) sources.push({ ...common, ...meta.offFlag, negate: true });
  return sources;
}

/** Settings only the config file sets (no variable, flag or proxy variable), with what each does. */
export function fileOnlySettings(): Readonly<Record<string, string>> {
  return Object.fromEntries(
    settingDeclarations()
      .filter(({ meta }) => !meta.env && !meta.flag && !meta.offFlag && !meta.proxyEnv)
      .map(({ path, meta }) => [path, meta.description]),
  );
}

/** Extra names accepted for a variable (GOOGLE_GENERATIVE_AI_API_KEY for keys.google), read before it. */
export function envAliases(): Readonly<Record<string, string>> {
  return Object.fromEntries(
    settingDeclarations().flatMap(({ path, meta }) => (meta.envAliases ?? []).map((alias) => [alias, path])),
  );
}

/** Each proxy setting's variables, in the order they are read: the lower-case name wins, as in curl and undici. */
export function proxyVariables(): Readonly<Record<string, readonly string[]>> {
  return Object.fromEntries(
    settingDeclarations().flatMap(({ path, meta }) => (meta.proxyEnv ? [[path, meta.proxyEnv]] : [])),
  );
}

/** The variable that sets a limit, for the message that names it. */
export function limitVariable(path: string): string {
  return settingSources().find((source) => source.path === path)?.env ?? path;
}

const searchKeyNames: Readonly<Record<SearchKeyProviderId, string>> = {
  brave: 'Brave Search',
  serper: 'Serper',
  tavily: 'Tavily',
  jina: 'Jina',
  exa: 'Exa',
};

/** The vendors' own variable names (BRAVE_API_KEY...), as for the LLM vendor keys. */
function searchKeySources(): SettingSource[] {
  return searchKeyProviderIds.map((id) => ({
    path: `search.apiKeys.${id}`,
    env: searchKeyVariable(id),
    type: 'string',
    secret: true,
    description: `${searchKeyNames[id]} API key (search provider ${id})`,
  }));
}

export function searchKeyVariable(id: SearchKeyProviderId): string {
  return `${id.toUpperCase()}_API_KEY`;
}

/** A role's variable and flag are the top-level setting's with the role in them: DEEPSEARCH_LLM_AGENT_MODEL. */
function roleSources(role: LlmRole): SettingSource[] {
  return roleSettingDeclarations()
    .filter(({ path }) => roleFieldNames.includes(path))
    .map(({ path, meta, type }) => ({
      path: `llm.roles.${role}.${path}`,
      env: meta.env!.replace('DEEPSEARCH_LLM_', `DEEPSEARCH_LLM_${role.toUpperCase()}_`),
      flag: meta.flag!.replace('llm-', `llm-${role}-`),
      type,
      ...(meta.secret ? { secret: true } : {}),
      description: `${path} for the ${role} role`,
    }));
}
