import { requestJson } from '../../platform/http/request-json.js';
import { joinUrl, requireSetting } from '../../platform/http/require-setting.js';
import type { EmbeddingProvider, EmbeddingTask, EmbedOptions } from '../spec/embedding-provider.js';
import { byIndex, embedInBatches, indexedEmbeddingsSchema } from './embed-in-batches.js';
import { batchOptions, type EmbeddingServiceSettings, requestOptions } from './embedding-service-settings.js';

const providerId = 'jina';
const jinaTasks: Readonly<Record<EmbeddingTask, string>> = {
  query: 'retrieval.query',
  passage: 'retrieval.passage',
  similarity: 'text-matching',
};
// Late chunking embeds the whole request as one document: keep it within the model's window.
const lateChunkingMaxChars = 24_000;

/**
 * Jina Embeddings (POST /v1/embeddings) with `task` and `late_chunking`, as Jina's snippet selection
 * uses them: https://jina.ai/news/snippet-selection-and-url-ranking-in-deepsearch-deepresearch/
 */
export function createJinaEmbedding(settings: EmbeddingServiceSettings = {}): EmbeddingProvider {
  const model = settings.model ?? 'jina-embeddings-v3';
  const keyHint = settings.keyHint ?? 'JINA_API_KEY';
  return {
    specificationVersion: 'v1',
    id: providerId,
    model,
    builtin: false,
    embed(texts, options: EmbedOptions) {
      const lateChunking = Boolean(
        options.lateChunking && settings.lateChunking !== false && options.task === 'passage',
      );
      return embedInBatches({
        ...batchOptions(providerId, settings, options),
        texts,
        ...(lateChunking ? { maxBatchChars: lateChunkingMaxChars } : {}),
        embedBatch: async (batch) => {
          const apiKey = requireSetting(
            settings.apiKey,
            `the jina embedding provider needs a key: set ${keyHint}`,
          );
          const body = await requestJson({
            ...requestOptions(providerId, settings, { signal: options.signal, keyHint }),
            url: joinUrl(settings.baseURL ?? 'https://api.jina.ai/v1', 'embeddings'),
            headers: { authorization: `Bearer ${apiKey}` },
            body: {
              model,
              task: jinaTasks[options.task],
              late_chunking: lateChunking,
              truncate: true,
              embedding_type: 'float',
              ...(settings.dimensions ? { dimensions: settings.dimensions } : {}),
              input: batch,
            },
            schema: indexedEmbeddingsSchema,
          });
          return byIndex(body.data, batch.length);
        },
      });
    },
  };
}
