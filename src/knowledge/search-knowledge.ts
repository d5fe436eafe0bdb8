import type { EmbeddingProvider } from '../providers/spec/embedding-provider.js';
import type { Reranker } from '../providers/spec/reranker.js';
import { expansionEntities } from '../retrieval/entity-expansion.js';
import { searchWordsOf, tokenize } from '../retrieval/tokenize.js';
import { embeddingText, vectorsMatch } from './embed-chunks.js';
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

const rrfK = 60;
// How many fused hits seed the expansion, and how many chunks each entity may add.
const seedCount = 3;
const perEntity = 2;
const keptSeeds = 2;
const rerankDepth = 30;

/**
 * Hybrid search over the knowledge base: FTS5 BM25, vector neighbours and the best chunks of
 * documents whose summary matched, fused by reciprocal rank, then the configured reranker, then graph-aware expansion: the named entities of the
 * best chunks trigger phrase searches whose chunks join the list just below the chunk that named
 * them (seed 004).
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
  const vectorSearch = options.embedding !== undefined && vectorsMatch(store, options.embedding);
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
  if (options.expand ?? true) ranked = expand({ ...options, ranked, chunks, explanations, entities });
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

function expand(input: {
  store: KnowledgeStore;
  query: string;
  collection?: string;
  ranked: number[];
  chunks: Map<number, StoredChunk>;
  explanations: Map<number, HitExplanation>;
  entities: string[];
}): number[] {
  const { store, ranked, chunks } = input;
  const seeds = ranked.slice(0, seedCount).map((id) => chunks.get(id)!);
  if (seeds.length === 0) return ranked;
  const found = expansionEntities({
    query: input.query,
    texts: seeds.map((seed) => seed.text),
    names: seeds.map((seed) => analysedNames(seed.analysis)),
    exclude: seeds.map((seed) => seed.title),
  });
  const inserted = new Map<number, number[]>(); // seed position → chunks added after it
  const taken = new Set(ranked.slice(0, seedCount));
  for (const entity of found) {
    const fromPosition = seeds.findIndex((seed) => seed.text.includes(entity.text));
    const rows = store.fullText(phraseQuery(entity.text), {
      limit: perEntity + seedCount,
      collection: input.collection,
    });
    let added = 0;
    for (const [rank, row] of rows.entries()) {
      if (added >= perEntity || taken.has(row.chunkId)) continue;
      taken.add(row.chunkId);
      added++;
      const entry = input.explanations.get(row.chunkId) ?? { fused: 0 };
      entry.expansion = {
        entity: entity.text,
        rank: rank + 1,
        fromChunk: ranked[Math.max(0, fromPosition)]!,
      };
      input.explanations.set(row.chunkId, entry);
      const list = inserted.get(Math.max(0, fromPosition)) ?? [];
      list.push(row.chunkId);
      inserted.set(Math.max(0, fromPosition), list);
    }
    if (added > 0) input.entities.push(entity.text);
  }
  // The seeds keep their places; below them expansion chunks (best entity first) alternate with
  // the rest of the fused list, so neither a wrong entity nor a long fused tail crowds out the other.
  const expansions = [...inserted.keys()]
    .sort((a, b) => a - b)
    .flatMap((position) => inserted.get(position)!);
  const order: number[] = ranked.slice(0, keptSeeds);
  const rest = ranked.slice(keptSeeds).filter((id) => !expansions.includes(id));
  while (expansions.length > 0 || rest.length > 0) {
    if (expansions.length > 0) order.push(expansions.shift()!);
    if (rest.length > 0) order.push(rest.shift()!);
  }
  return order;
}

/** The entity names of an analysed chunk (--analyze), else undefined: names are then found in the text. */
function analysedNames(analysis: string | null): string[] | undefined {
  if (!analysis) return undefined;
  try {
    const parsed = JSON.parse(analysis) as { entities?: Array<{ name?: unknown }> };
    const names = (parsed.entities ?? []).flatMap((entity) =>
      typeof entity.name === 'string' ? [entity.name] : [],
    );
    return names.length > 0 ? names : undefined;
  } catch {
    return undefined;
  }
}

function phraseQuery(name: string): string {
  // Stopwords stay: "University of Oxford" is a phrase of three tokens in the index.
  const words = tokenize(name);
  return words.length > 0 ? `"${words.join(' ').replace(/"/g, '')}"` : '';
}

function round(value: number): number {
  return Math.round(value * 10000) / 10000;
}
