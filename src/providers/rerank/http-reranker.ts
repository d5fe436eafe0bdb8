import * as z from 'zod';
import { requestJson } from '../../platform/http/request-json.js';
import { joinUrl, requireSetting } from '../../platform/http/require-setting.js';
import { withRetry } from '../../platform/retry/with-retry.js';
import type { Reranker, RerankOptions } from '../spec/reranker.js';

/**
 * `cohere`: POST /rerank {model, query, documents, top_n} → {results: [{index, relevance_score}]},
 * spoken by Cohere, Jina, Infinity and vLLM. `tei`: Hugging Face text-embeddings-inference,
 * POST /rerank {query, texts} → [{index, score}].
 */
export type RerankWireShape = 'cohere' | 'tei';

export interface HttpRerankerSettings {
  id: string;
  shape: RerankWireShape;
  baseURL?: string;
  /** Said when no base URL is set and the service has no public default. */
  baseUrlHint?: string;
  model?: string;
  apiKey?: string;
  /** When set, a key is required and this names the variable to set. */
  keyHint?: string;
  keyRequired?: boolean;
  batchSize?: number;
  timeoutMs?: number;
  maxRetries?: number;
  fetch?: typeof globalThis.fetch;
}

const cohereResponseSchema = z.looseObject({
  results: z.array(z.looseObject({ index: z.number().int(), relevance_score: z.number() })),
});
const teiResponseSchema = z.array(z.looseObject({ index: z.number().int(), score: z.number() }));

/** A reranker over HTTP; long lists go in several requests, scores come back in input order. */
export function createHttpReranker(settings: HttpRerankerSettings): Reranker {
  return {
    specificationVersion: 'v1',
    id: settings.id,
    model: settings.model ?? '(server default)',
    builtin: false,
    async rerank(query, documents, options: RerankOptions = {}) {
      const scores = new Array<number>(documents.length).fill(0);
      const batchSize = settings.batchSize ?? 100;
      for (let start = 0; start < documents.length; start += batchSize) {
        const batch = documents.slice(start, start + batchSize).map((document) => document || ' ');
        const results = await withRetry(() => requestBatch(settings, query, batch, options.signal), {
          maxRetries: settings.maxRetries ?? 2,
          signal: options.signal,
        });
        for (const { index, score } of results) {
          if (index >= 0 && index < batch.length) scores[start + index] = score;
        }
      }
      return toUnitInterval(scores);
    },
  };
}

async function requestBatch(
  settings: HttpRerankerSettings,
  query: string,
  documents: string[],
  signal: AbortSignal | undefined,
): Promise<Array<{ index: number; score: number }>> {
  const baseURL = requireSetting(
    settings.baseURL,
    `the ${settings.id} reranker needs a server: set DEEPSEARCH_RERANK_BASE_URL${settings.baseUrlHint ? `, e.g. ${settings.baseUrlHint}` : ''}`,
  );
  const apiKey = settings.keyRequired
    ? requireSetting(settings.apiKey, `the ${settings.id} reranker needs a key: set ${settings.keyHint}`)
    : settings.apiKey;
  const common = {
    providerId: settings.id,
    url: joinUrl(baseURL, 'rerank'),
    headers: apiKey ? { authorization: `Bearer ${apiKey}` } : undefined,
    fetch: settings.fetch,
    timeoutMs: settings.timeoutMs ?? 30_000,
    signal,
    keyHint: settings.keyHint,
  };
  if (settings.shape === 'tei') {
    const body = await requestJson({
      ...common,
      body: { query, texts: documents, raw_scores: false, truncate: true },
      schema: teiResponseSchema,
    });
    return body.map((item) => ({ index: item.index, score: item.score }));
  }
  const body = await requestJson({
    ...common,
    body: {
      ...(settings.model ? { model: settings.model } : {}),
      query,
      documents,
      top_n: documents.length,
      return_documents: false,
    },
    schema: cohereResponseSchema,
  });
  return body.results.map((item) => ({ index: item.index, score: item.relevance_score }));
}

/** Scores already in [0, 1] stay; logits (some servers return raw scores) go through a sigmoid. */
function toUnitInterval(scores: number[]): number[] {
  const inRange = scores.every((score) => score >= 0 && score <= 1);
  return inRange ? scores : scores.map((score) => 1 / (1 + Math.exp(-score)));
}
