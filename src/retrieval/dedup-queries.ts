import { isAuthenticationError } from '../core/errors/index.js';
import { cosineSimilarity } from './cosine-similarity.js';
import { foldText } from './match-text.js';

/** What query dedup needs of an embedding provider (providers/spec's EmbeddingProvider fits it). */
export interface TextEmbedder {
  embed(
    texts: readonly string[],
    options: { task: 'similarity'; signal?: AbortSignal },
  ): Promise<{ vectors: Array<Float32Array | undefined>; failures: Error[] }>;
}

export interface DedupQueriesInput {
  queries: readonly string[];
  /** Queries already searched in this run. */
  previous: readonly string[];
  embedding: TextEmbedder;
  /** Cosine similarity at or above which a query is a duplicate. */
  threshold: number;
  /** Vectors of earlier queries by text, kept by the caller so each is embedded once. */
  cache?: Map<string, Float32Array>;
  signal?: AbortSignal;
}

export interface DuplicateQuery {
  query: string;
  /** The earlier or sibling query it repeats. */
  of: string;
  similarity: number;
}

export interface DedupQueriesResult {
  unique: string[];
  duplicates: DuplicateQuery[];
  /** Set when the embedding service failed and only exact duplicates were removed. */
  warning?: string;
}

/**
 * Drops queries that repeat an earlier one or a sibling in the same batch: the same text once
 * folded, or embeddings at least `threshold` similar. Numbers and symbols must match too, so
 * "iPhone 15" never counts as a repeat of "iPhone 16", nor "C++" of "C#".
 */
export async function dedupQueries(input: DedupQueriesInput): Promise<DedupQueriesResult> {
  const cache = input.cache ?? new Map<string, Float32Array>();
  const candidates = [...new Set(input.queries.map((query) => query.replace(/\s+/g, ' ').trim()))].filter(
    Boolean,
  );
  let warning: string | undefined;
  try {
    await embedMissing([...input.previous, ...candidates], cache, input);
  } catch (error) {
    if (isAuthenticationError(error)) throw error;
    warning = `query dedup fell back to exact matches: ${(error as Error).message}`;
  }
  const kept: string[] = [...input.previous];
  const unique: string[] = [];
  const duplicates: DuplicateQuery[] = [];
  for (const query of candidates) {
    const repeat = findRepeat(query, kept, cache, input.threshold);
    if (repeat) {
      duplicates.push({ query, ...repeat });
      continue;
    }
    kept.push(query);
    unique.push(query);
  }
  return { unique, duplicates, ...(warning ? { warning } : {}) };
}

async function embedMissing(texts: string[], cache: Map<string, Float32Array>, input: DedupQueriesInput) {
  const missing = [...new Set(texts)].filter((text) => !cache.has(text));
  if (missing.length === 0) return;
  const { vectors } = await input.embedding.embed(missing, { task: 'similarity', signal: input.signal });
  missing.forEach((text, index) => {
    const vector = vectors[index];
    if (vector) cache.set(text, vector);
  });
}

function findRepeat(
  query: string,
  kept: readonly string[],
  cache: Map<string, Float32Array>,
  threshold: number,
): { of: string; similarity: number } | undefined {
  const key = foldText(query).folded;
  const marks = distinctiveTokens(query);
  const vector = cache.get(query);
  let best: { of: string; similarity: number } | undefined;
  for (const other of kept) {
    if (!sameMarks(marks, distinctiveTokens(other))) continue;
    if (foldText(other).folded === key) return { of: other, similarity: 1 };
    const otherVector = cache.get(other);
    if (!vector || !otherVector) continue;
    const similarity = cosineSimilarity(vector, otherVector);
    if (similarity >= threshold && similarity > (best?.similarity ?? 0)) best = { of: other, similarity };
  }
  return best;
}

/** Tokens holding a digit or a symbol ("15", "c++", "c#", "$5"): they change what a query asks. */
export function distinctiveTokens(query: string): Set<string> {
  const tokens = query.toLowerCase().match(/[^\s,;:!?()"'«»]+/g) ?? [];
  return new Set(
    tokens.filter((token) => /[\d#+$%€£@&*=<>^~]/.test(token)).map((token) => token.replace(/[.]+$/, '')),
  );
}

function sameMarks(a: Set<string>, b: Set<string>): boolean {
  if (a.size !== b.size) return false;
  for (const token of a) if (!b.has(token)) return false;
  return true;
}
