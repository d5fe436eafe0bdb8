import { ConfigError } from '../../core/errors/index.js';

/** The interface versions this release implements; a provider names the one it was written for. */
export const specificationVersions = ['v1'] as const;
export type SpecificationVersion = (typeof specificationVersions)[number];

const kinds = {
  search: { methods: ['search'], interface: 'SearchProvider' },
  reader: { methods: ['read'], interface: 'PageReader' },
  embedding: { methods: ['embed'], interface: 'EmbeddingProvider' },
  reranker: { methods: ['rerank'], interface: 'Reranker' },
  codeRunner: { methods: ['run'], interface: 'CodeRunner' },
  llm: { methods: ['generateObject', 'generateText'], interface: 'LlmClient' },
} as const;

export type ProviderKind = keyof typeof kinds;

/**
 * Checks a provider a caller brings: an object with its kind's methods and a
 * `specificationVersion` this release implements. A missing or unknown version, or a value that is
 * no provider, is a ConfigError naming the option and what to set: a provider is never read
 * against an interface it was not written for. `option` is how the caller passed it ("search",
 * "sourceReaders['kb:']").
 */
export function checkProvider<P>(kind: ProviderKind, provider: P, option: string = kind): P {
  const value = provider as Record<string, unknown> | null | undefined;
  const { methods, interface: name } = kinds[kind];
  const missing = methods.filter((method) => typeof value?.[method] !== 'function');
  if (typeof value !== 'object' || value === null || missing.length > 0) {
    const wanted = methods.map((method) => `${method}()`).join(' and ');
    throw new ConfigError(
      `${option} does not implement ${name}: it needs ${wanted} and specificationVersion: 'v1' (missing: ${missing.join(', ') || 'an object'})`,
      { code: 'config_provider_invalid' },
    );
  }
  const named = typeof value.id === 'string' ? `${option} '${value.id}'` : option;
  const version = value.specificationVersion;
  if (version === undefined)
    throw new ConfigError(
      `${named} has no specificationVersion: add specificationVersion: 'v1' to it (supported: ${specificationVersions.join(', ')})`,
      { code: 'config_provider_version' },
    );
  if (!(specificationVersions as readonly unknown[]).includes(version))
    throw new ConfigError(
      `${named} has specificationVersion ${JSON.stringify(version)}, which this deepsearch does not implement: set specificationVersion: 'v1' (supported: ${specificationVersions.join(', ')})`,
      { code: 'config_provider_version' },
    );
  return provider;
}
