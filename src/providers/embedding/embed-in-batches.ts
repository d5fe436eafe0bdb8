import * as z from 'zod';
import { isAbortError, isAuthenticationError, ProviderError } from '../../core/errors/index.js';
import { withRetry } from '../../platform/retry/with-retry.js';
import type { EmbeddingResult } from '../spec/embedding-provider.js';

export interface EmbedInBatchesInput {
  providerId: string;
  texts: readonly string[];
  /** Texts per request. */
  batchSize: number;
  /** Characters per request, for services that count the whole request (late chunking). */
  maxBatchChars?: number;
  /** Expected vector size; otherwise the first vector sets it. */
  dimensions?: number;
  maxRetries: number;
  signal?: AbortSignal;
  /** One request: a vector (or undefined when the service left it out) per text, in order. */
  embedBatch: (texts: string[]) => Promise<Array<number[] | undefined>>;
}

const concurrency = 4;

/**
 * Batching, retries and checks shared by every embedding service. Empty texts are not sent. A
 * batch that still fails after retries leaves its items undefined without shifting the others;
 * only when every batch fails (or a key is rejected) does the call throw.
 */
export async function embedInBatches(input: EmbedInBatchesInput): Promise<EmbeddingResult> {
  const vectors: Array<Float32Array | undefined> = new Array(input.texts.length).fill(undefined);
  const batches = planBatches(input);
  const failures: Error[] = [];
  let dimensions = input.dimensions;
  const runBatch = async (batch: number[]) => {
    try {
      const texts = batch.map((index) => input.texts[index]!);
      const result = await withRetry(() => input.embedBatch(texts), {
        maxRetries: input.maxRetries,
        signal: input.signal,
      });
      batch.forEach((textIndex, position) => {
        const values = result[position];
        if (!values) return;
        dimensions ??= values.length;
        if (values.length !== dimensions) {
          throw new ProviderError(
            `${input.providerId} returned a vector of ${values.length} dimensions, expected ${dimensions}`,
            { providerId: input.providerId, code: 'provider_bad_response' },
          );
        }
        vectors[textIndex] = Float32Array.from(values);
      });
    } catch (error) {
      if (isAuthenticationError(error) || isAbortError(error)) throw error;
      failures.push(error as Error);
    }
  };
  for (let start = 0; start < batches.length; start += concurrency) {
    await Promise.all(batches.slice(start, start + concurrency).map(runBatch));
  }
  if (batches.length > 0 && failures.length === batches.length) throw failures[0];
  return { vectors, failures };
}

/** Indices of the non-empty texts, grouped by count and (optionally) characters. */
function planBatches(input: EmbedInBatchesInput): number[][] {
  const batches: number[][] = [];
  let current: number[] = [];
  let chars = 0;
  input.texts.forEach((text, index) => {
    if (!text.trim()) return;
    const tooLong = input.maxBatchChars !== undefined && chars + text.length > input.maxBatchChars;
    if (current.length > 0 && (current.length >= input.batchSize || tooLong)) {
      batches.push(current);
      current = [];
      chars = 0;
    }
    current.push(index);
    chars += text.length;
  });
  if (current.length > 0) batches.push(current);
  return batches;
}

/** The OpenAI embeddings response, also Jina's: items that carry their input index. */
export const indexedEmbeddingsSchema = z.looseObject({
  data: z.array(z.looseObject({ index: z.number().int().nullish(), embedding: z.array(z.number()) })),
});

/** Places items that carry their own `index` (OpenAI, Jina) at that index; unknown ones are dropped. */
export function byIndex(items: ReadonlyArray<{ index?: number | null; embedding: number[] }>, count: number) {
  const out: Array<number[] | undefined> = new Array(count).fill(undefined);
  items.forEach((item, position) => {
    const index = item.index ?? position;
    if (Number.isInteger(index) && index >= 0 && index < count) out[index] = item.embedding;
  });
  return out;
}
