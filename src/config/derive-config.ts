import { ConfigError } from '../core/errors/index.js';
import { keepConfigOrigins } from './config-origins.js';
import { configSchema, type DeepSearchConfig } from './config-schema.js';
import { freezeConfig } from './frozen-config.js';

/** The code of the ConfigError deriveConfig throws: the overrides, not the base config, are wrong. */
export const configOverrideErrorCode = 'config_invalid_override';

/**
 * Settings a single run may replace: budgets, agent behaviour, search and (a research run) its
 * controller; not the LLM or keys.
 */
export interface ConfigOverrides {
  budget?: Partial<DeepSearchConfig['budget']>;
  agent?: Partial<DeepSearchConfig['agent']>;
  search?: Partial<DeepSearchConfig['search']>;
  research?: Partial<DeepSearchConfig['research']>;
}

/**
 * A copy of a loaded config with some settings replaced, validated again by the one schema, so a
 * per-request config obeys the same rules as one read from flags, env and file.
 */
export function deriveConfig(base: DeepSearchConfig, overrides: ConfigOverrides): DeepSearchConfig {
  const set = {
    budget: replaced(base.budget, overrides.budget),
    agent: replaced(base.agent, overrides.agent),
    search: replaced(base.search, overrides.search),
    research: replaced(base.research, overrides.research),
  };
  // Nothing replaced (a request with no options, a stored run's settings equal to the config's):
  // the base was validated when it was loaded, and checking the whole schema again costs a
  // millisecond or two of CPU per run (an API node's request, a worker's job).
  if (Object.values(set).every((section) => Object.keys(section).length === 0)) return base;
  const merged = {
    ...base,
    budget: { ...base.budget, ...set.budget },
    agent: { ...base.agent, ...set.agent },
    search: { ...base.search, ...set.search },
    research: { ...base.research, ...set.research },
  };
  const parsed = configSchema.safeParse(merged);
  if (parsed.success) return freezeConfig(keepConfigOrigins(parsed.data, base));
  const issue = parsed.error.issues[0]!;
  throw new ConfigError(`invalid setting ${issue.path.join('.')}: ${issue.message}`, {
    code: configOverrideErrorCode,
    cause: parsed.error,
  });
}

/** The fields that are set: an override of `undefined` means "keep what the config says". */
export function definedOnly<T extends object>(value: T | undefined): Partial<T> {
  if (!value) return {};
  return Object.fromEntries(Object.entries(value).filter(([, item]) => item !== undefined)) as Partial<T>;
}

/** The settings of `section` that `overrides` sets to another value than `base` has. */
function replaced<T extends object>(base: T, overrides: Partial<T> | undefined): Partial<T> {
  const set = definedOnly(overrides);
  for (const key of Object.keys(set) as Array<keyof T>) if (sameSetting(set[key], base[key])) delete set[key];
  return set;
}

/** Settings are JSON data (numbers, strings, lists, small records): equal when their JSON is. */
function sameSetting(a: unknown, b: unknown): boolean {
  if (Object.is(a, b)) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  return JSON.stringify(a) === JSON.stringify(b);
}
