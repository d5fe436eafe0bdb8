import type { EmbeddingProvider } from '../providers/spec/embedding-provider.js';
import type { Reranker } from '../providers/spec/reranker.js';
import { expansionEntities, namesIn } from '../retrieval/entity-expansion.js';
import { searchWordsOf, termsOf, tokenize } from '../retrieval/tokenize.js';
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
// Expansion (tuned on HotpotQA questions 1–50 only, see bench:kb): a sentence naming an entity
// multiplies its weight by 1 + contextWeight × the share of question terms in it; an entity's
// chunks enter the fusion at expansionDiscount of a fused list's reciprocal rank.
const contextWeight = 30;
const expansionDiscount = 0.8;
const maxEntityShare = 0.05;
const minEntityRows = 20;
// Places in the first ten kept for the best chunk reached through a top chunk's entity.
const reservedSlots = 1;

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
  if (options.expand ?? true) ranked = expand({ ...options, limit, ranked, chunks, explanations, entities });
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

/**
 * Graph-aware expansion. Entities: the names in the best chunks, weighted by the chunk's rank and by
 * how many of the question's words share a sentence with the name (the entity the question asks
 * about sits next to its words: "… portrayed Corliss Archer … Shirley Temple"), and the names the
 * question itself holds (a comparison names two things; BM25 may rank only one of them high).
 * Each entity's phrase search adds its best chunks to the fusion by reciprocal rank, discounted by
 * the entity's weight and rarity, so a generic name ("United States") moves little; the two best
 * fused chunks keep their places.
 */
function expand(input: {
  store: KnowledgeStore;
  query: string;
  collection?: string;
  ranked: number[];
  limit: number;
  chunks: Map<number, StoredChunk>;
  explanations: Map<number, HitExplanation>;
  entities: string[];
}): number[] {
  const { store, ranked, chunks, explanations } = input;
  const seeds = ranked.slice(0, seedCount).map((id) => chunks.get(id)!);
  if (seeds.length === 0) return ranked;
  const found = [
    ...questionNames(input.query, seeds),
    ...expansionEntities({
      query: input.query,
      texts: seeds.map((seed) => seed.text),
      names: seeds.map((seed) => analysedNames(seed.analysis)),
      exclude: seeds.map((seed) => seed.title),
      contextWeight,
      numbers: false,
    }).map((entity) => ({ ...entity, fromQuestion: false })),
  ];
  const taken = new Set(ranked.slice(0, seedCount));
  const hopGains = new Map<number, number>(); // chunk → what the top chunks' entities added to it
  const searched = new Set<string>();
  // Question names the base holds: "Kiss and Tell" found means "Kiss" and "Tell" are not searched.
  const heldNames: string[] = [];
  for (const entity of found) {
    const phrase = phraseQuery(entity.text);
    if (!phrase || searched.has(phrase)) continue;
    searched.add(phrase);
    if (entity.fromQuestion && heldNames.some((name) => name.includes(entity.text))) continue;
    const { rows: holding, of } = store.fullTextCount(phrase);
    if (entity.fromQuestion && holding > 0) heldNames.push(entity.text);
    // A name in more than one chunk in twenty of a large base is no lead (and finds anything).
    if (holding === 0 || holding > Math.max(minEntityRows, of * maxEntityShare)) continue;
    const rarity = Math.log(1 + of / holding) / Math.log(1 + of);
    const fromPosition = entity.fromQuestion
      ? 0
      : Math.max(
          0,
          seeds.findIndex((seed) => seed.text.includes(entity.text)),
        );
    const rows = store.fullText(phrase, { limit: perEntity + seedCount, collection: input.collection });
    let added = 0;
    for (const [rank, row] of rows.entries()) {
      if (added >= perEntity || taken.has(row.chunkId)) continue;
      added++;
      const entry = explanations.get(row.chunkId) ?? { fused: 0 };
      const gain = (expansionDiscount * entity.weight * rarity) / (rrfK + rank + 1 + fromPosition);
      entry.fused += gain;
      if (!entity.fromQuestion) hopGains.set(row.chunkId, (hopGains.get(row.chunkId) ?? 0) + gain);
      entry.expansion ??= { entity: entity.text, rank: rank + 1, fromChunk: ranked[fromPosition]! };
      explanations.set(row.chunkId, entry);
    }
    if (added > 0) input.entities.push(entity.text);
  }
  const head = ranked.slice(0, keptSeeds);
  const rest = [...new Set([...ranked, ...explanations.keys()])].filter((id) => !head.includes(id));
  rest.sort((a, b) => explanations.get(b)!.fused - explanations.get(a)!.fused);
  const order = [...head, ...rest];
  // A second hop shares no word with the question, so its discounted reciprocal rank alone stays
  // below the tenth fused hit: the best of them is kept inside the first page (ten, or the limit).
  const window = Math.min(input.limit, 10);
  const late = [...hopGains.entries()]
    .filter(([id]) => !head.includes(id))
    .sort((a, b) => b[1] - a[1])
    .slice(0, reservedSlots)
    .map(([id]) => id)
    .filter((id) => order.indexOf(id) >= window);
  if (late.length === 0) return order;
  const kept = order.filter((id) => !late.includes(id));
  kept.splice(Math.max(keptSeeds, window - late.length), 0, ...late);
  return kept;
}

/** The names the question holds that no seed is titled by, whole ("Kiss and Tell", not "Kiss"). */
function questionNames(
  query: string,
  seeds: readonly StoredChunk[],
): Array<{ text: string; weight: number; fromQuestion: boolean }> {
  const titles = new Set(seeds.map((seed) => termsKey(seed.title)));
  // Longest first: a part is skipped when a longer name holding it was found (see expand).
  return [...new Set(namesIn(query, { withoutOpener: true, numbers: false }))]
    .filter((name) => !titles.has(termsKey(name)))
    .sort((a, b) => b.length - a.length)
    .map((text) => ({ text, weight: 1, fromQuestion: true }));
}

function termsKey(name: string): string {
  return termsOf(name).join(' ');
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
