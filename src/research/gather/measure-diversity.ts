import type { EmbeddingProvider } from '../../providers/spec/embedding-provider.js';
import { cosineSimilarity } from '../../retrieval/cosine-similarity.js';
import { termsOf } from '../../retrieval/tokenize.js';

/** Chunks compared per hop: enough to judge, few enough to embed in one or two requests. */
const maxNewChunks = 48;
const maxKnownChunks = 160;

export interface Diversity {
  /** 0 = everything new repeats what was known, 1 = all of it is new. */
  value: number;
  method: 'embedding' | 'lexical' | 'none';
  newChunks: number;
}

/**
 * Information diversity of a hop: how unlike what was already known the newly read
 * chunks are, as 1 − the mean of each new chunk's highest similarity to a known chunk. Uses the
 * embedding provider; when it cannot embed (a failed batch) the similarity is lexical (Jaccard of
 * terms). A hop that read nothing new has diversity 0.
 */
export async function measureDiversity(
  embedding: EmbeddingProvider,
  fresh: readonly string[],
  known: readonly string[],
  signal?: AbortSignal,
): Promise<Diversity> {
  const news = fresh.filter((text) => text.trim()).slice(0, maxNewChunks);
  const olds = known.filter((text) => text.trim()).slice(-maxKnownChunks);
  if (news.length === 0) return { value: 0, method: 'none', newChunks: 0 };
  if (olds.length === 0) return { value: 1, method: 'none', newChunks: news.length };
  const vectors = await embedAll(embedding, [...news, ...olds], signal);
  if (vectors) {
    const newVectors = vectors.slice(0, news.length);
    const oldVectors = vectors.slice(news.length);
    const value = diversityOf(newVectors, oldVectors, (a, b) => Math.max(0, cosineSimilarity(a, b)));
    return { value, method: embedding.builtin ? 'lexical' : 'embedding', newChunks: news.length };
  }
  const newTerms = news.map(termSet);
  const oldTerms = olds.map(termSet);
  return { value: diversityOf(newTerms, oldTerms, jaccard), method: 'lexical', newChunks: news.length };
}

async function embedAll(
  embedding: EmbeddingProvider,
  texts: string[],
  signal: AbortSignal | undefined,
): Promise<Float32Array[] | undefined> {
  try {
    const { vectors } = await embedding.embed(texts, { task: 'similarity', signal });
    return vectors.every((vector) => vector !== undefined) ? (vectors as Float32Array[]) : undefined;
  } catch (error) {
    if (signal?.aborted) throw error;
    // The measure is advisory: a failing embedding service falls back to terms.
    return undefined;
  }
}

function diversityOf<T>(news: T[], olds: T[], similarity: (a: T, b: T) => number): number {
  let total = 0;
  for (const item of news) {
    let best = 0;
    for (const old of olds) best = Math.max(best, similarity(item, old));
    total += best;
  }
  return Math.round((1 - total / news.length) * 1000) / 1000;
}

function termSet(text: string): Set<string> {
  return new Set(termsOf(text));
}

function jaccard(a: Set<string>, b: Set<string>): number {
  if (a.size === 0 || b.size === 0) return 0;
  let shared = 0;
  for (const term of a) if (b.has(term)) shared++;
  return shared / (a.size + b.size - shared);
}
