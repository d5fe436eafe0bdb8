import type * as z from 'zod';
import { ConfigError } from '../core/errors/index.js';
import { recordConfigOrigins } from './config-origins.js';
import { configSchema, type DeepSearchConfig, llmProviderIds, oneOffParse } from './config-schema.js';
import { freezeConfig } from './frozen-config.js';
import { proxyEnvironment } from './proxy-environment.js';
import { envAliases, type SettingSource, settingSources } from './setting-sources.js';

export interface LoadConfigOptions {
  /** Environment variables (pass process.env from an entry point; nothing else reads it). */
  env?: Readonly<Record<string, string | undefined>>;
  /** Parsed content of the config file, if any. */
  file?: unknown;
  /** Name of the config file, for error messages. */
  fileName?: string;
  /** CLI flags keyed by flag name without dashes, e.g. { 'llm-model': 'qwen2.5:7b' }. */
  flags?: Readonly<Record<string, unknown>>;
  /** Values a command's own options give (`ask --kb <file>`), above every other source. */
  commandValues?: readonly CommandValue[];
  /**
   * Values for keys still unset after parsing, by path: what only an entry point can know (the
   * user's data directory). They are the entry point's own values and are not parsed again.
   */
  fallbacks?: (config: DeepSearchConfig) => Readonly<Record<string, unknown>>;
}

/** A config value set by a command's own option; `origin` names it in errors (`--kb`). */
export interface CommandValue {
  path: string;
  value: unknown;
  origin: string;
}

type Tree = Record<string, unknown>;

/** The key of a comment in the config file, ignored by the loader (deepsearch init writes them). */
export const commentKey = '$comment';

/**
 * Pure: flags > env > config file > defaults, validated by one zod schema. Errors name the
 * variable, flag or file that set the bad value. The proxy variables (HTTPS_PROXY...) rank below
 * the config file: they are the machine's, the file is deepsearch's own.
 */
export function loadConfig(options: LoadConfigOptions = {}): DeepSearchConfig {
  const tree: Tree = {};
  const origins = new Map<string, string>();
  const env = options.env ?? {};
  for (const { path, value, origin } of proxyEnvironment(env)) assign(tree, path, value, origin, origins);
  if (options.file !== undefined) {
    const fileName = options.fileName ?? 'config file';
    if (!isPlainObject(options.file)) throw new ConfigError(`${fileName} must hold a JSON object`);
    mergeFile(tree, options.file, [], fileName, origins);
  }
  for (const [alias, path] of Object.entries(envAliases())) {
    const value = env[alias];
    if (value) assign(tree, path, value, alias, origins);
  }
  for (const source of settingSources()) {
    const raw = source.env ? env[source.env] : undefined;
    if (raw !== undefined && raw.trim() !== '') {
      assign(tree, source.path, parseSource(source, raw, source.env!), source.env!, origins);
    }
  }
  const flags = options.flags ?? {};
  for (const source of settingSources()) {
    const raw = source.flag ? flags[source.flag] : undefined;
    if (raw !== undefined) {
      const origin = `--${source.flag}`;
      assign(tree, source.path, parseSource(source, raw, origin), origin, origins);
    }
  }
  for (const { path, value, origin } of options.commandValues ?? [])
    assign(tree, path, value, origin, origins);
  const parsed = configSchema.safeParse(tree, oneOffParse);
  if (!parsed.success) throw new ConfigError(describeIssues(parsed.error, origins), { cause: parsed.error });
  checkLlmProviders(parsed.data, origins);
  if (options.fallbacks) fillUnset(parsed.data, options.fallbacks(parsed.data));
  recordConfigOrigins(parsed.data, {
    origins,
    fileName: options.file === undefined ? undefined : options.fileName,
  });
  // Read-only from here: a command's variant is a copy (withSettings, deriveConfig).
  return freezeConfig(parsed.data);
}

function fillUnset(config: DeepSearchConfig, values: Readonly<Record<string, unknown>>): void {
  for (const [path, value] of Object.entries(values)) {
    const keys = path.split('.');
    let node = config as unknown as Tree;
    for (const key of keys.slice(0, -1)) node = node[key] as Tree;
    node[keys.at(-1)!] ??= value;
  }
}

function parseSource(source: SettingSource, raw: unknown, origin: string): unknown {
  const value = parseSettingValue(source, raw, origin);
  return source.negate ? value !== true : value;
}

export function parseSettingValue(source: SettingSource, raw: unknown, origin: string): unknown {
  if (typeof raw !== 'string') return raw;
  const value = raw.trim();
  switch (source.type) {
    case 'string':
      return value;
    case 'integer':
      if (!/^-?\d+$/.test(value)) throw new ConfigError(`${origin} must be a whole number (got "${value}")`);
      return Number(value);
    case 'number': {
      const number = Number(value);
      if (value === '' || !Number.isFinite(number)) {
        throw new ConfigError(`${origin} must be a number (got "${value}")`);
      }
      return number;
    }
    case 'list':
      return value
        .split(',')
        .map((item) => item.trim())
        .filter((item) => item !== '');
    case 'boolean': {
      const lower = value.toLowerCase();
      if (['1', 'true', 'yes', 'on'].includes(lower)) return true;
      if (['0', 'false', 'no', 'off'].includes(lower)) return false;
      throw new ConfigError(`${origin} must be true or false (got "${value}")`);
    }
  }
}

function checkLlmProviders(config: DeepSearchConfig, origins: Map<string, string>): void {
  const candidates: Array<[string, string | undefined]> = [
    ['llm.provider', config.llm.provider],
    ...Object.entries(config.llm.roles).map(
      ([role, settings]) =>
        [`llm.roles.${role}.provider`, settings?.provider] as [string, string | undefined],
    ),
  ];
  for (const [path, provider] of candidates) {
    if (provider !== undefined && !(llmProviderIds as readonly string[]).includes(provider)) {
      throw new ConfigError(
        `unknown LLM provider '${provider}' (available: ${llmProviderIds.join(', ')})${originSuffix(path, origins)}`,
        { code: 'config_unknown_provider' },
      );
    }
  }
}

function describeIssues(error: z.ZodError, origins: Map<string, string>): string {
  const lines = error.issues.slice(0, 5).map((issue) => {
    const path = issue.path.join('.');
    const where = path === '' ? 'config' : path;
    return `${where}: ${issue.message}${originSuffix(path, origins)}`;
  });
  return `invalid configuration: ${lines.join('; ')}`;
}

function originSuffix(path: string, origins: Map<string, string>): string {
  for (
    let probe = path;
    probe !== '';
    probe = probe.includes('.') ? probe.slice(0, probe.lastIndexOf('.')) : ''
  ) {
    const origin = origins.get(probe);
    if (origin) return ` (set by ${origin})`;
  }
  return '';
}

function mergeFile(
  tree: Tree,
  value: Tree,
  prefix: string[],
  fileName: string,
  origins: Map<string, string>,
): void {
  for (const [key, child] of Object.entries(value)) {
    // JSON has no comments: "$comment" keys (at any level) carry them, as in JSON Schema.
    if (key === commentKey) continue;
    const path = [...prefix, key];
    if (isPlainObject(child)) {
      mergeFile(tree, child, path, fileName, origins);
      if (Object.keys(child).length === 0) assign(tree, path.join('.'), {}, fileName, origins);
    } else {
      assign(tree, path.join('.'), child, fileName, origins);
    }
  }
}

function assign(
  tree: Tree,
  path: string,
  value: unknown,
  origin: string,
  origins: Map<string, string>,
): void {
  const keys = path.split('.');
  let node = tree;
  for (const key of keys.slice(0, -1)) {
    const next = node[key];
    if (!isPlainObject(next)) node[key] = {};
    node = node[key] as Tree;
  }
  node[keys.at(-1)!] = value;
  origins.set(path, origin);
}

function isPlainObject(value: unknown): value is Tree {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
