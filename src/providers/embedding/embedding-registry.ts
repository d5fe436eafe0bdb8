import type { EmbeddingConfig, VendorKeys } from '../../config/config-schema.js';
import { ConfigError } from '../../core/errors/index.js';
import type { EmbeddingProvider } from '../spec/embedding-provider.js';
import type { EmbeddingServiceSettings } from './embedding-service-settings.js';
import { createGoogleEmbedding } from './google-embedding.js';
import { createJinaEmbedding } from './jina-embedding.js';
import { createOpenAiEmbedding } from './openai-embedding.js';

export interface EmbeddingServiceOptions {
  config: EmbeddingConfig;
  keys: VendorKeys;
  fetch?: typeof globalThis.fetch;
}

type Factory = (settings: EmbeddingServiceSettings) => EmbeddingProvider;

/** Each service with the vendor key variable it falls back to. */
const services: Readonly<Record<string, { create: Factory; key?: keyof VendorKeys; keyEnv?: string }>> = {
  jina: { create: createJinaEmbedding, key: 'jina', keyEnv: 'JINA_API_KEY' },
  openai: {
    create: (settings) => createOpenAiEmbedding({ ...settings, flavour: 'openai' }),
    key: 'openai',
    keyEnv: 'OPENAI_API_KEY',
  },
  'openai-compatible': {
    create: (settings) => createOpenAiEmbedding({ ...settings, flavour: 'openai-compatible' }),
  },
  google: { create: createGoogleEmbedding, key: 'google', keyEnv: 'GEMINI_API_KEY' },
};

export const embeddingServiceIds: readonly string[] = Object.keys(services);

/**
 * The embedding service named in the config (the built-in lexical embedding is chosen by the
 * retrieval layer, which owns it). Unknown names fail here, at start; missing keys on first use.
 */
export function createEmbeddingService(options: EmbeddingServiceOptions): EmbeddingProvider {
  const { config } = options;
  const service = Object.hasOwn(services, config.provider) ? services[config.provider] : undefined;
  if (!service) {
    throw new ConfigError(
      `unknown embedding provider '${config.provider}' (available: builtin, ${embeddingServiceIds.join(', ')})`,
      { code: 'config_unknown_provider' },
    );
  }
  const vendorKey = service.key ? options.keys[service.key] : undefined;
  return service.create({
    baseURL: config.baseURL,
    model: config.model,
    apiKey: config.apiKey ?? vendorKey,
    keyHint:
      config.apiKey || !service.keyEnv
        ? 'DEEPSEARCH_EMBEDDING_API_KEY'
        : `${service.keyEnv} (or DEEPSEARCH_EMBEDDING_API_KEY)`,
    dimensions: config.dimensions,
    batchSize: config.batchSize,
    lateChunking: config.lateChunking,
    timeoutMs: config.timeoutSeconds * 1000,
    maxRetries: config.maxRetries,
    fetch: options.fetch,
  });
}
