import { scoreDocumentsLexically } from '../../retrieval/lexical-chunk-scorer.js';
import type { Reranker } from '../spec/reranker.js';

/** The built-in reranker: BM25 of each document against the query, scaled to [0, 1]. */
export function createLexicalReranker(): Reranker {
  return {
    specificationVersion: 'v1',
    id: 'builtin',
    model: 'bm25',
    builtin: true,
    async rerank(query, documents) {
      return Array.from(scoreDocumentsLexically(query, documents));
    },
  };
}
