import * as z from 'zod';
import { cliOnlyVariables } from './cli-only-variables.js';
import { llmRoles } from './config-ids.js';
import { configSchema } from './config-schema.js';
import { settingDeclarations } from './setting-declarations.js';
import {
  envAliases,
  fileOnlySettings,
  flagPlaceholder,
  roleFieldNames,
  type SettingSource,
  settingSources,
} from './setting-sources.js';

/** One setting as `deepsearch help settings` and docs/configuration.md show it. */
export interface SettingReference {
  /** The config file key, e.g. `search.provider`. */
  path: string;
  env: string[];
  flag?: string;
  /** The value placeholder of the flag: value, integer, number, a,b; none for a switch. */
  placeholder?: string;
  /** The default from the config schema, as JSON; undefined when there is none. */
  defaultValue?: string;
  description: string;
  secret: boolean;
}

export interface SettingGroup {
  title: string;
  settings: SettingReference[];
}

/** Groups by the config key's start (the longest that matches), in the order a first run meets them. */
const groupTitles: ReadonlyArray<[prefix: string, title: string]> = [
  ['llm.', 'LLM'],
  ['llm.roles.', 'LLM roles (each role may use its own model, provider, key...)'],
  ['keys.', 'Vendor keys'],
  ['search.', 'Search'],
  ['budget.', 'Budget'],
  ['agent.', 'Agent'],
  ['reader.', 'Reading pages and files'],
  ['embedding.', 'Embeddings'],
  ['rerank.', 'Reranking'],
  ['retrieval.', 'Retrieval'],
  ['cache.', 'Cache'],
  ['knowledge.', 'Knowledge base'],
  ['runs.', 'Runs'],
  ['sandbox.', 'Coding sandbox'],
  ['research.', 'Research mode'],
  ['network.', 'Network and proxy'],
  ['server.', 'Server (deepsearch serve)'],
  ['', 'Diagnostics'],
];

/** Role settings are listed one line per field, not one line per role and field. */
export { roleFieldNames };

/**
 * Every setting, from the table in setting-sources.ts (variables and flags), the config schema
 * (defaults, and the keys only the file sets) and the proxy variables: one source for the CLI's
 * `help settings` and the generated docs/configuration.md.
 */
export function settingsReference(): SettingGroup[] {
  const defaults = schemaDefaults();
  const byPath = new Map<string, SettingReference>();
  for (const source of settingSources()) {
    if (source.path.startsWith('llm.roles.')) continue;
    const entry = byPath.get(source.path) ?? newEntry(source, defaults);
    if (source.env && !entry.env.includes(source.env)) entry.env.push(source.env);
    if (source.flag && !entry.flag) {
      entry.flag = source.flag;
      entry.placeholder = flagPlaceholder(source);
    }
    byPath.set(source.path, entry);
  }
  for (const [alias, path] of Object.entries(envAliases())) byPath.get(path)?.env.push(alias);
  for (const { path, meta } of settingDeclarations()) {
    if (!meta.proxyEnv) continue;
    const entry =
      byPath.get(path) ?? newEntry({ path, description: meta.description, secret: meta.secret }, defaults);
    entry.env.push(...meta.proxyEnv.filter((name) => name === name.toUpperCase()));
    byPath.set(path, entry);
  }
  for (const [path, description] of Object.entries(fileOnlySettings())) {
    byPath.set(path, { path, env: [], description, secret: false, defaultValue: defaults.get(path) });
  }
  return groupSettings([...byPath.values(), ...roleReferences()]);
}

/** The config keys the schema knows (leaves; records as one key), for the test that none is undocumented. */
export function schemaSettingPaths(): string[] {
  return [...schemaDefaults().keys()];
}

/** The variables the CLI reads outside the config. */
export { cliOnlyVariables };

function newEntry(
  source: Pick<SettingSource, 'path' | 'description' | 'secret'>,
  defaults: ReadonlyMap<string, string | undefined>,
): SettingReference {
  // Descriptions never repeat the schema's default: the default column says it.
  return {
    path: source.path,
    env: [],
    description: source.description,
    secret: source.secret ?? false,
    defaultValue: defaults.get(source.path),
  };
}

/** One entry per role field (`llm.roles.<role>.model`...), its variable and flag written with <ROLE>. */
function roleReferences(): SettingReference[] {
  return roleFieldNames.map((field) => {
    const source = settingSources().find((candidate) => candidate.path === `llm.roles.agent.${field}`);
    if (!source?.env || !source.flag) throw new Error(`settings reference: no role setting for ${field}`);
    return {
      path: `llm.roles.<role>.${field}`,
      env: [source.env.replace('_AGENT_', '_<ROLE>_')],
      flag: source.flag.replace('llm-agent-', 'llm-<role>-'),
      placeholder: flagPlaceholder(source),
      description: `${field} for one role; roles: ${llmRoles.join(', ')}`,
      secret: source.secret ?? false,
    };
  });
}

function groupSettings(settings: SettingReference[]): SettingGroup[] {
  const groups = groupTitles.map(([, title]) => ({ title, settings: [] as SettingReference[] }));
  for (const setting of settings) {
    let at = -1;
    groupTitles.forEach(([prefix], index) => {
      if (setting.path.startsWith(prefix) && (at < 0 || prefix.length > groupTitles[at]![0].length))
        at = index;
    });
    groups[at]!.settings.push(setting);
  }
  return groups.filter((group) => group.settings.length > 0);
}

interface JsonSchemaNode {
  type?: string;
  default?: unknown;
  properties?: Record<string, JsonSchemaNode>;
}

/** Leaf config keys with their default as JSON (records and lists are leaves; empty ones have none). */
function schemaDefaults(): Map<string, string | undefined> {
  const root = z.toJSONSchema(configSchema, { io: 'input', unrepresentable: 'any' }) as JsonSchemaNode;
  const out = new Map<string, string | undefined>();
  const walk = (node: JsonSchemaNode, path: string) => {
    if (node.type === 'object' && node.properties && Object.keys(node.properties).length > 0) {
      for (const [key, child] of Object.entries(node.properties)) walk(child, path ? `${path}.${key}` : key);
      return;
    }
    const empty =
      typeof node.default === 'object' && node.default !== null && Object.keys(node.default).length === 0;
    out.set(path, node.default === undefined || empty ? undefined : JSON.stringify(node.default));
  };
  walk(root, '');
  return out;
}
