import { basename } from 'node:path';
import type { DeepSearchConfig } from './config-schema.js';
import { settingSources } from './setting-sources.js';

interface ConfigOrigins {
  /** Config path → what set it: a variable name, a flag (--x) or the config file's name. */
  origins: ReadonlyMap<string, string>;
  fileName: string | undefined;
}

// Kept beside the config object, not in it, so the config stays plain data that the schema parses.
const originsByConfig = new WeakMap<object, ConfigOrigins>();

export function recordConfigOrigins(config: DeepSearchConfig, origins: ConfigOrigins): void {
  originsByConfig.set(config, origins);
}

/** A copy of a loaded config (deriveConfig, a command's own variant) says what set its settings too. */
export function keepConfigOrigins(copy: DeepSearchConfig, original: DeepSearchConfig): DeepSearchConfig {
  const recorded = originsByConfig.get(original);
  if (recorded) originsByConfig.set(copy, recorded);
  return copy;
}

/**
 * What `recordConfigOrigins` kept for a config, as plain data: a copy of the config sent to another
 * thread (a run thread of the server) says what set its settings too, once recorded there again.
 */
export function configOrigins(
  config: DeepSearchConfig,
): { origins: Array<[string, string]>; fileName: string | undefined } | undefined {
  const recorded = originsByConfig.get(config);
  return recorded && { origins: [...recorded.origins], fileName: recorded.fileName };
}

/** What set `path` in a config made by loadConfig: a variable, a flag, the file, or undefined. */
export function settingOrigin(config: DeepSearchConfig, path: string): string | undefined {
  return originsByConfig.get(config)?.origins.get(path);
}

/**
 * How to tell the user to set `path`. When the setting that made it necessary (`because`, e.g.
 * search.provider for search.searxngUrl) came from the config file, the hint names the file's key:
 * that is where the user configures; otherwise the variable and the flag.
 */
export function settingHint(config: DeepSearchConfig, options: { path: string; because?: string }): string {
  const recorded = originsByConfig.get(config);
  const becauseOrigin = options.because ? recorded?.origins.get(options.because) : undefined;
  if (recorded?.fileName && becauseOrigin === recorded.fileName) {
    return `"${options.path}" in ${basename(recorded.fileName)}`;
  }
  const source = settingSources().find((candidate) => candidate.path === options.path);
  if (!source?.env) return `"${options.path}" in the config file`;
  return source.flag ? `${source.env} (or --${source.flag})` : source.env;
}
