import { requestJson } from '../../platform/http/request-json.js';
import { joinUrl, requireSetting } from '../../platform/http/require-setting.js';
import type { EmbeddingProvider, EmbedOptions } from '../spec/embedding-provider.js';
import { byIndex, embedInBatches, indexedEmbeddingsSchema } from './embed-in-batches.js';
import { batchOptions, type EmbeddingServiceSettings, requestOptions } from './embedding-service-settings.js';

export interface OpenAiEmbeddingSettings extends EmbeddingServiceSettings {
  /** 'openai' (api.openai.com, key required) or 'openai-compatible' (base URL and model required). */
  flavour?: 'openai' | 'openai-compatible';
}

/**
 * POST {baseURL}/embeddings in the OpenAI format: OpenAI itself, and the servers that copy it
 * (Ollama, vLLM, LM Studio, llama.cpp, TEI's OpenAI route). The task is not sent: the format has none.
 */
export function createOpenAiEmbedding(settings: OpenAiEmbeddingSettings = {}): EmbeddingProvider {
  const flavour = settings.flavour ?? 'openai';
  const providerId = flavour;
  const model = settings.model ?? (flavour === 'openai' ? 'text-embedding-3-small' : '');
  const keyHint =
    settings.keyHint ?? (flavour === 'openai' ? 'OPENAI_API_KEY' : 'DEEPSEARCH_EMBEDDING_API_KEY');
  return {
    specificationVersion: 'v1',
    id: providerId,
    model: model || '(unset)',
    builtin: false,
    embed(texts, options: EmbedOptions) {
      return embedInBatches({
        ...batchOptions(providerId, settings, options),
        texts,
        embedBatch: async (batch) => {
          const body = await requestJson({
            ...requestOptions(providerId, settings, { signal: options.signal, keyHint }),
            url: joinUrl(resolveBaseUrl(flavour, settings.baseURL), 'embeddings'),
            headers: authorization(flavour, settings.apiKey, keyHint),
            body: {
              model: requireSetting(model, 'no embedding model set: set DEEPSEARCH_EMBEDDING_MODEL'),
              input: batch,
              encoding_format: 'float',
              ...(settings.dimensions ? { dimensions: settings.dimensions } : {}),
            },
            schema: indexedEmbeddingsSchema,
          });
          return byIndex(body.data, batch.length);
        },
      });
    },
  };
}

function resolveBaseUrl(flavour: 'openai' | 'openai-compatible', baseURL: string | undefined): string {
  if (baseURL) return baseURL;
  if (flavour === 'openai') return 'https://api.openai.com/v1';
  return requireSetting(
    baseURL,
    'the openai-compatible embedding provider needs a server: set DEEPSEARCH_EMBEDDING_BASE_URL, e.g. http://localhost:11434/v1',
  );
}

function authorization(flavour: string, apiKey: string | undefined, keyHint: string): Record<string, string> {
  if (flavour === 'openai')
    return {
      authorization: `Bearer ${requireSetting(apiKey, `the openai embedding provider needs a key: set ${keyHint}`)}`,
    };
  return apiKey ? { authorization: `Bearer ${apiKey}` } : {};
}
