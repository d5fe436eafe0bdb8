import type { EmbeddingProvider } from '../providers/spec/embedding-provider.js';
import type { Reranker } from '../providers/spec/reranker.js';
import { searchWordsOf } from '../retrieval/tokenize.js';
import { embeddingText, vectorsMatch } from './embed-chunks.js';
import { expandKnowledgeHits, rrfK } from './expand-knowledge-hits.js';
import { fullTextQuery } from './full-text-index.js';
import type { StoredChunk } from './knowledge-records.js';
import type { KnowledgeStore } from './knowledge-store.js';
import { knowledgeUrl } from './knowledge-url.js';
import { summaryChunks } from './summary-chunks.js';

/** Why a hit is where it is: every signal that contributed, for --debug and --json. */
export interface HitExplanation {
  fullText?: { rank: number; bm25: number };
  vector?: { rank: number; similarity: number };
  /** One of the best chunks of a document whose summary (--analyze) matched. */
  summary?: { documentRank: number; chunkRank: number; bm25: number };
  /** Reciprocal-rank fusion of the lists above. */
  fused: number;
  /** Found by a secondary search for an entity of a top chunk. */
  expansion?: { entity: string; rank: number; fromChunk: number };
  rerank?: number;
}

export interface KnowledgeHit extends StoredChunk {
  /** `kb:<collection>/<document key>#chunk-<position>`: the citation URL. */
  url: string;
  score: number;
  explain: HitExplanation;
}

export interface KnowledgeSearchOptions {
  store: KnowledgeStore;
  query: string;
  limit?: number;
  collection?: string;
  /** Vectors for the hybrid half; omitted or of another model than the store's: full text only. */
  embedding?: EmbeddingProvider;
  /** A reranking service applied to the fused list; the built-in lexical one adds nothing to BM25 and is skipped. */
  reranker?: Reranker;
  /** Secondary full-text searches for the entities of the top chunks (default true). */
  expand?: boolean;
  signal?: AbortSignal;
}

export interface KnowledgeSearchResult {
  hits: KnowledgeHit[];
  /** Entities the expansion searched for. */
  entities: string[];
  vectorSearch: boolean;
  reranked: boolean;
}

// How many fused hits seed the expansion (their chunks are loaded with the hits).
const seedCount = 3;
const rerankDepth = 30;

/**
 * Hybrid search over the knowledge base: FTS5 BM25, vector neighbours and the best chunks of
 * documents whose summary matched, fused by reciprocal rank, then the configured reranker, then graph-aware expansion: the named entities of the
 * best chunks trigger phrase searches whose chunks join the list just below the chunk that named
 * them.
 */
export async function searchKnowledge(options: KnowledgeSearchOptions): Promise<KnowledgeSearchResult> {
  const { store, query } = options;
  const limit = options.limit ?? 10;
  const depth = Math.max(limit * 3, 30);
  const explanations = new Map<number, HitExplanation>();
  const explain = (id: number) => {
    const entry = explanations.get(id) ?? { fused: 0 };
    explanations.set(id, entry);
    return entry;
  };
  const words = store.informativeWords([...new Set(searchWordsOf(query))]);
  const match = fullTextQuery(words);
  store.fullTextAnyWord(words, { limit: depth, collection: options.collection }).forEach((row, rank) => {
    const entry = explain(row.chunkId);
    entry.fullText = { rank: rank + 1, bm25: round(row.score) };
    entry.fused += 1 / (rrfK + rank + 1);
  });
  // A third list for the fusion: the best chunks of documents whose summary matched, ranked by
  // document and then by chunk within it.
  summaryChunks({ store, query, match, collection: options.collection }).forEach((row) => {
    const entry = explain(row.chunkId);
    entry.summary = { documentRank: row.documentRank, chunkRank: row.chunkRank, bm25: row.bm25 };
    entry.fused += 1 / (rrfK + row.documentRank + row.chunkRank - 1);
  });
  // The built-in lexical vectors are a second lexical ranking: fused with BM25 they only add noise
  // (bench:kb, HotpotQA pooled para@10: 0.915 BM25 alone, 0.86 fused; 0.98 / 0.945 with
  // expansion, on both halves), so only a real embedding model's vectors take part.
  const vectorSearch =
    options.embedding !== undefined && !options.embedding.builtin && vectorsMatch(store, options.embedding);
  if (vectorSearch) {
    const embedded = await options.embedding!.embed([query], { task: 'query', signal: options.signal });
    const vector = embedded.vectors[0];
    if (vector) {
      const neighbours = store.nearest(vector, { limit: depth, collection: options.collection });
      // A vector with nothing in common with the query is not a hit, only the next in line.
      neighbours
        .filter((row) => row.similarity > 0.05)
        .forEach((row, rank) => {
          const entry = explain(row.chunkId);
          entry.vector = { rank: rank + 1, similarity: round(row.similarity) };
          entry.fused += 1 / (rrfK + rank + 1);
        });
    }
  }
  let ranked = [...explanations.entries()].sort((a, b) => b[1].fused - a[1].fused).map(([id]) => id);
  // Only the chunks something reads are loaded: the reranker's head, the expansion's seeds, the hits.
  const chunks = store.chunks(
    ranked.slice(0, Math.max(limit, seedCount, usesReranker(options) ? rerankDepth : 0)),
  );
  const reranked = await rerank(options, ranked, chunks, explanations);
  if (reranked) ranked = reranked;
  const entities: string[] = [];
  if (options.expand ?? true)
    ranked = expandKnowledgeHits({ ...options, limit, ranked, chunks, explanations, entities });
  ranked = ranked.slice(0, limit);
  const missing = ranked.filter((id) => !chunks.has(id));
  for (const [id, chunk] of store.chunks(missing)) chunks.set(id, chunk);
  const hits = ranked.map((id, index) => {
    const chunk = chunks.get(id)!;
    explanations.get(id)!.fused = round(explanations.get(id)!.fused);
    return {
      ...chunk,
      url: knowledgeUrl(chunk),
      score: round(1 / (index + 1)),
      explain: explanations.get(id)!,
    };
  });
  return { hits, entities, vectorSearch, reranked: reranked !== undefined };
}

async function rerank(
  options: KnowledgeSearchOptions,
  ranked: number[],
  chunks: Map<number, StoredChunk>,
  explanations: Map<number, HitExplanation>,
): Promise<number[] | undefined> {
  const { reranker } = options;
  if (!reranker || !usesReranker(options) || ranked.length === 0) return undefined;
  const head = ranked.slice(0, rerankDepth);
  const scores = await reranker.rerank(
    options.query,
    head.map((id) => embeddingText(chunks.get(id)!)),
    { signal: options.signal },
  );
  head.forEach((id, index) => {
    explanations.get(id)!.rerank = round(scores[index] ?? 0);
  });
  const order = head
    .map((id, index) => ({ id, score: scores[index] ?? 0 }))
    .sort((a, b) => b.score - a.score);
  return [...order.map((entry) => entry.id), ...ranked.slice(rerankDepth)];
}

function usesReranker(options: KnowledgeSearchOptions): boolean {
  return options.reranker !== undefined && !options.reranker.builtin;
}

function round(value: number): number {
  return Math.round(value * 10000) / 10000;
}
