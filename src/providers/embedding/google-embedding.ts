import * as z from 'zod';
import { ProviderError } from '../../core/errors/index.js';
import { requestJson } from '../../platform/http/request-json.js';
import { joinUrl, requireSetting } from '../../platform/http/require-setting.js';
import type { EmbeddingProvider, EmbeddingTask, EmbedOptions } from '../spec/embedding-provider.js';
import { embedInBatches } from './embed-in-batches.js';
import {
  batchOptions,
  type EmbeddingServiceSettings,
  embeddingDefaults,
  requestOptions,
} from './embedding-service-settings.js';

const providerId = 'google';
const googleTasks: Readonly<Record<EmbeddingTask, string>> = {
  query: 'RETRIEVAL_QUERY',
  passage: 'RETRIEVAL_DOCUMENT',
  similarity: 'SEMANTIC_SIMILARITY',
};
// The Gemini API takes at most 100 requests per batchEmbedContents call.
const maxBatch = 100;

const googleResponseSchema = z.looseObject({
  embeddings: z.array(z.looseObject({ values: z.array(z.number()) })),
});

/** Gemini API embeddings: POST /v1beta/models/{model}:batchEmbedContents with a task type. */
export function createGoogleEmbedding(settings: EmbeddingServiceSettings = {}): EmbeddingProvider {
  const model = (settings.model ?? 'gemini-embedding-001').replace(/^models\//, '');
  const keyHint = settings.keyHint ?? 'GEMINI_API_KEY';
  return {
    specificationVersion: 'v1',
    id: providerId,
    model,
    builtin: false,
    embed(texts, options: EmbedOptions) {
      return embedInBatches({
        ...batchOptions(providerId, settings, options),
        texts,
        batchSize: Math.min(maxBatch, settings.batchSize ?? embeddingDefaults.batchSize),
        embedBatch: async (batch) => {
          const apiKey = requireSetting(
            settings.apiKey,
            `the google embedding provider needs a key: set ${keyHint}`,
          );
          const base = settings.baseURL ?? 'https://generativelanguage.googleapis.com/v1beta';
          const body = await requestJson({
            ...requestOptions(providerId, settings, { signal: options.signal, keyHint }),
            url: joinUrl(base, `models/${encodeURIComponent(model)}:batchEmbedContents`),
            headers: { 'x-goog-api-key': apiKey },
            body: {
              requests: batch.map((text) => ({
                model: `models/${model}`,
                content: { parts: [{ text }] },
                taskType: googleTasks[options.task],
                ...(settings.dimensions ? { outputDimensionality: settings.dimensions } : {}),
              })),
            },
            schema: googleResponseSchema,
          });
          // No index in this format: a short list cannot be matched to the texts, so it is an error.
          if (body.embeddings.length !== batch.length) {
            throw new ProviderError(
              `${providerId} returned ${body.embeddings.length} embeddings for ${batch.length} texts`,
              { providerId, code: 'provider_bad_response' },
            );
          }
          return body.embeddings.map((embedding) => embedding.values);
        },
      });
    },
  };
}
