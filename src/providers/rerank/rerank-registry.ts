import type { RerankConfig, VendorKeys } from '../../config/config-schema.js';
import { ConfigError } from '../../core/errors/index.js';
import type { Reranker } from '../spec/reranker.js';
import { createHttpReranker, type HttpRerankerSettings } from './http-reranker.js';

export interface RerankServiceOptions {
  config: RerankConfig;
  keys: VendorKeys;
  fetch?: typeof globalThis.fetch;
}

type ServiceDefaults = Pick<
  HttpRerankerSettings,
  'shape' | 'baseURL' | 'baseUrlHint' | 'model' | 'keyRequired'
> & {
  key?: keyof VendorKeys;
  keyEnv?: string;
};

const services: Readonly<Record<string, ServiceDefaults>> = {
  jina: {
    shape: 'cohere',
    baseURL: 'https://api.jina.ai/v1',
    model: 'jina-reranker-v2-base-multilingual',
    keyRequired: true,
    key: 'jina',
    keyEnv: 'JINA_API_KEY',
  },
  cohere: {
    shape: 'cohere',
    baseURL: 'https://api.cohere.com/v2',
    model: 'rerank-v3.5',
    keyRequired: true,
    key: 'cohere',
    keyEnv: 'COHERE_API_KEY',
  },
  tei: { shape: 'tei', baseUrlHint: 'http://localhost:8080' },
  infinity: { shape: 'cohere', baseUrlHint: 'http://localhost:7997' },
  vllm: { shape: 'cohere', baseUrlHint: 'http://localhost:8000/v1' },
};

export const rerankServiceIds: readonly string[] = Object.keys(services);

/**
 * The rerank service named in the config (the built-in BM25 reranker is chosen by the retrieval
 * layer). Unknown names fail here, at start; a missing key or server on first use.
 */
export function createRerankService(options: RerankServiceOptions): Reranker {
  const { config } = options;
  const service = Object.hasOwn(services, config.provider) ? services[config.provider] : undefined;
  if (!service) {
    throw new ConfigError(
      `unknown rerank provider '${config.provider}' (available: builtin, ${rerankServiceIds.join(', ')})`,
      { code: 'config_unknown_provider' },
    );
  }
  const { key, keyEnv, ...defaults } = service;
  return createHttpReranker({
    ...defaults,
    id: config.provider,
    baseURL: config.baseURL ?? defaults.baseURL,
    model: config.model ?? defaults.model,
    apiKey: config.apiKey ?? (key ? options.keys[key] : undefined),
    keyHint:
      config.apiKey || !keyEnv ? 'DEEPSEARCH_RERANK_API_KEY' : `${keyEnv} (or DEEPSEARCH_RERANK_API_KEY)`,
    batchSize: config.batchSize,
    timeoutMs: config.timeoutSeconds * 1000,
    maxRetries: config.maxRetries,
    fetch: options.fetch,
  });
}
