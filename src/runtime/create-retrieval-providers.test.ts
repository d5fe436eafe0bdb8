import { describe, expect, it } from 'vitest';
import { createTestConfig } from '../testing/test-config.js';
import { createRetrievalProviders, describeRetrievalProviders } from './create-retrieval-providers.js';

describe('createRetrievalProviders', () => {
  it('uses the built-in lexical fallbacks when no service is configured, and says so', async () => {
    const providers = createRetrievalProviders({ config: createTestConfig() });
    expect(providers.embedding.builtin).toBe(true);
    expect(providers.reranker.builtin).toBe(true);
    expect(describeRetrievalProviders(providers)).toEqual([
      'embedding: built-in lexical fallback (hashed-ngrams-1024); no service configured',
      'rerank: built-in lexical fallback (bm25); no service configured',
    ]);
    const scores = await providers.reranker.rerank('best picture winner', [
      'weather',
      'Best Picture: the winner was Green Book',
    ]);
    expect(scores[1]).toBe(1);
    expect(scores[0]).toBe(0);
    const { vectors } = await providers.embedding.embed(['a query', ''], { task: 'similarity' });
    expect(vectors[0]).toHaveLength(1024);
  });

  it('builds the configured services and names them', () => {
    const config = createTestConfig({
      embedding: {
        provider: 'openai-compatible',
        baseURL: 'http://127.0.0.1:9/v1',
        model: 'nomic-embed-text',
      },
      rerank: { provider: 'jina' },
    });
    const providers = createRetrievalProviders({ config });
    expect(describeRetrievalProviders(providers)).toEqual([
      'embedding: openai-compatible nomic-embed-text',
      'rerank: jina jina-reranker-v2-base-multilingual',
    ]);
  });
});
