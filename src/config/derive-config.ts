import { ConfigError } from '../errors/index.js';
import { keepConfigOrigins } from './config-origins.js';
import { configSchema, type DeepSearchConfig } from './config-schema.js';

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
    budget: definedOnly(overrides.budget),
    agent: definedOnly(overrides.agent),
    search: definedOnly(overrides.search),
    research: definedOnly(overrides.research),
  };
  // Nothing replaced (a request with no options): the base was validated when it was loaded, and
  // checking the whole schema again costs an API node a millisecond or two of CPU per request.
  if (Object.values(set).every((section) => Object.keys(section).length === 0)) return base;
  const merged = {
    ...base,
    budget: { ...base.budget, ...set.budget },
    agent: { ...base.agent, ...set.agent },
    search: { ...base.search, ...set.search },
    research: { ...base.research, ...set.research },
  };
  const parsed = configSchema.safeParse(merged);
  if (parsed.success) return keepConfigOrigins(parsed.data, base);
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
