import { keepConfigOrigins } from './config-origins.js';
import type { DeepSearchConfig } from './config-schema.js';

/** The config frozen all the way down, so a setting changed after loading fails where it is changed. */
export function freezeConfig<Config extends object>(config: Config): Config {
  return deepFreeze(config);
}

function deepFreeze<Value>(value: Value): Value {
  if (typeof value !== 'object' || value === null || Object.isFrozen(value)) return value;
  for (const child of Object.values(value)) deepFreeze(child);
  return Object.freeze(value);
}

type SectionChanges = {
  readonly [Section in keyof DeepSearchConfig]?: DeepSearchConfig[Section] extends object
    ? Partial<DeepSearchConfig[Section]>
    : DeepSearchConfig[Section];
};

/**
 * A frozen copy of a config with some settings of its sections replaced, for an entry point's own
 * variant (the LLM a first run found, a queue node without a run store). Unlike deriveConfig it
 * does not parse again: the values come from code, not from a user. What set the other settings
 * is kept.
 */
export function withSettings(config: DeepSearchConfig, changes: SectionChanges): DeepSearchConfig {
  const copy: Record<string, unknown> = { ...config };
  for (const [section, change] of Object.entries(changes)) {
    const current = (config as Record<string, unknown>)[section];
    copy[section] =
      typeof current === 'object' && current !== null && !Array.isArray(current)
        ? { ...current, ...(change as object) }
        : change;
  }
  return freezeConfig(keepConfigOrigins(copy as DeepSearchConfig, config));
}
