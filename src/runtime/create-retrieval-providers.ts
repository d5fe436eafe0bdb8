import type { DeepSearchConfig } from '../config/config-schema.js';
import { createEmbeddingService } from '../providers/embedding/embedding-registry.js';
import { createLexicalEmbedding } from '../providers/embedding/lexical-embedding.js';
import { createLexicalReranker } from '../providers/rerank/lexical-reranker.js';
import { createRerankService } from '../providers/rerank/rerank-registry.js';
import type { EmbeddingProvider } from '../providers/spec/embedding-provider.js';
import type { Reranker } from '../providers/spec/reranker.js';

export interface RetrievalProviders {
  embedding: EmbeddingProvider;
  reranker: Reranker;
}

/**
 * The embedding and rerank providers from the config: a service when one is named, else the
 * built-in lexical fallbacks, so dedup, snippets and URL ranking work with nothing configured.
 */
export function createRetrievalProviders(options: {
  config: Pick<DeepSearchConfig, 'embedding' | 'rerank' | 'keys'>;
  fetch?: typeof globalThis.fetch;
}): RetrievalProviders {
  const { config, fetch } = options;
  return {
    embedding:
      config.embedding.provider === 'builtin'
        ? createLexicalEmbedding()
        : createEmbeddingService({ config: config.embedding, keys: config.keys, fetch }),
    reranker:
      config.rerank.provider === 'builtin'
        ? createLexicalReranker()
        : createRerankService({ config: config.rerank, keys: config.keys, fetch }),
  };
}

/** One line for --debug: which embedding and reranker a run uses. */
export function describeRetrievalProviders(providers: RetrievalProviders): string[] {
  const describe = (kind: string, provider: { id: string; model: string; builtin: boolean }) =>
    provider.builtin
      ? `${kind}: built-in lexical fallback (${provider.model}); no service configured`
      : `${kind}: ${provider.id} ${provider.model}`;
  return [describe('embedding', providers.embedding), describe('rerank', providers.reranker)];
}
