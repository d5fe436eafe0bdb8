import { describe, expect, it } from 'vitest';
import { AuthenticationError, ProviderError } from '../core/errors/index.js';
import { createLexicalEmbedding, hashedNgramVector } from '../providers/embedding/lexical-embedding.js';
import type { EmbeddingProvider } from '../providers/spec/embedding-provider.js';
import { cosineSimilarity } from './cosine-similarity.js';
import { dedupQueries } from './dedup-queries.js';

const embedding = createLexicalEmbedding();

describe('dedupQueries with the built-in lexical embedding', () => {
  it('drops reworded repeats of earlier queries and of siblings in the batch', async () => {
    const result = await dedupQueries({
      queries: [
        'best pizza New York',
        'New York best pizza',
        'pizza dough recipe',
        'Best  Pizza in New York!',
      ],
      previous: ['best pizza in New York'],
      embedding,
      threshold: 0.86,
    });
    expect(result.unique).toEqual(['pizza dough recipe']);
    expect(result.duplicates.map((duplicate) => duplicate.of)).toEqual([
      'best pizza in New York',
      'best pizza in New York',
      'best pizza in New York',
    ]);
  });

  it('keeps queries that differ only by a number or a symbol', async () => {
    const result = await dedupQueries({
      queries: ['iPhone 16 battery life', 'C# tutorial', 'C++ tutorial'],
      previous: ['iPhone 15 battery life'],
      embedding,
      threshold: 0.5,
    });
    expect(result.unique).toEqual(['iPhone 16 battery life', 'C# tutorial', 'C++ tutorial']);
    expect(
      cosineSimilarity(
        hashedNgramVector('iPhone 16 battery life'),
        hashedNgramVector('iPhone 15 battery life'),
      ),
    ).toBeGreaterThan(0.5);
  });

  it('embeds each query once across calls through the cache', async () => {
    const seen: string[] = [];
    const counting: EmbeddingProvider = {
      ...embedding,
      embed: (texts, options) => {
        seen.push(...texts);
        return embedding.embed(texts, options);
      },
    };
    const cache = new Map<string, Float32Array>();
    await dedupQueries({ queries: ['a b c'], previous: [], embedding: counting, threshold: 0.9, cache });
    await dedupQueries({
      queries: ['d e f'],
      previous: ['a b c'],
      embedding: counting,
      threshold: 0.9,
      cache,
    });
    expect(seen).toEqual(['a b c', 'd e f']);
  });

  it('falls back to exact matches when the service fails, but never swallows a bad key', async () => {
    const failing = (error: Error): EmbeddingProvider => ({
      ...embedding,
      embed: () => Promise.reject(error),
    });
    const result = await dedupQueries({
      queries: ['Rust async', 'rust   ASYNC', 'rust futures'],
      previous: [],
      embedding: failing(new ProviderError('down', { providerId: 'jina', statusCode: 503 })),
      threshold: 0.5,
    });
    expect(result.unique).toEqual(['Rust async', 'rust futures']);
    expect(result.warning).toMatch(/exact matches: down/);
    await expect(
      dedupQueries({
        queries: ['x'],
        previous: [],
        embedding: failing(new AuthenticationError('bad key', { providerId: 'jina', statusCode: 401 })),
        threshold: 0.5,
      }),
    ).rejects.toBeInstanceOf(AuthenticationError);
  });
});
