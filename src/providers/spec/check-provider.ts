import { ConfigError } from '../../core/errors/index.js';

/** The interface versions this release implements; a provider names the one it was written for. */
export const specificationVersions = ['v1'] as const;
export type SpecificationVersion = (typeof specificationVersions)[number];

/**
 * A provider written before interfaces carried `specificationVersion`: still accepted where a
 * caller's provider enters (createRuntime, runDeepSearch), with a deprecation warning.
 */
export type UnversionedProvider<P> = Omit<P, 'specificationVersion'> & {
  readonly specificationVersion?: undefined;
};

/** What an entry point takes: a versioned provider, or (deprecated) an unversioned one. */
export type ProviderInput<P> = P | UnversionedProvider<P>;

const kinds = {
  search: { methods: ['search'], interface: 'SearchProvider' },
  reader: { methods: ['read'], interface: 'PageReader' },
  embedding: { methods: ['embed'], interface: 'EmbeddingProvider' },
  reranker: { methods: ['rerank'], interface: 'Reranker' },
  codeRunner: { methods: ['run'], interface: 'CodeRunner' },
  llm: { methods: ['generateObject', 'generateText'], interface: 'LlmClient' },
} as const;

export type ProviderKind = keyof typeof kinds;

/** Unversioned providers already warned about in this process: one warning each, not one per run. */
const warned = new Set<string>();

/**
 * Checks a provider a caller brings: an object with its kind's methods and a known
 * `specificationVersion`. A missing version is accepted with a DeprecationWarning (existing custom
 * providers keep working); an unknown one, or a value that is no provider, is a ConfigError naming
 * the option and what to set. `option` is how the caller passed it ("search", "sourceReaders['kb:']").
 */
export function checkProvider<P>(kind: ProviderKind, provider: ProviderInput<P>, option: string = kind): P {
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
  if (version === undefined) {
    const key = `${kind}:${named}`;
    if (!warned.has(key)) {
      warned.add(key);
      process.emitWarning(
        `${named} has no specificationVersion: add specificationVersion: 'v1' to it. Unversioned providers are accepted for now and will be refused by a later major version.`,
        { type: 'DeprecationWarning', code: 'DEEPSEARCH_UNVERSIONED_PROVIDER' },
      );
    }
  } else if (!(specificationVersions as readonly unknown[]).includes(version)) {
    throw new ConfigError(
      `${named} has specificationVersion ${JSON.stringify(version)}, which this deepsearch does not implement: set specificationVersion: 'v1' (supported: ${specificationVersions.join(', ')})`,
      { code: 'config_provider_version' },
    );
  }
  return provider as P;
}
