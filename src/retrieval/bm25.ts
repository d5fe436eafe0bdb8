import { termsOf } from './tokenize.js';

export interface Bm25Options {
  k1?: number;
  b?: number;
}

/**
 * Scores each document against the query with BM25, the corpus being the documents given
 * (chunks of one page, or the titles and snippets of candidate URLs). Scores are ≥ 0 and not
 * normalised; use normaliseScores to bring them to [0, 1].
 */
export function scoreBm25(query: string, documents: readonly string[], options: Bm25Options = {}): number[] {
  const k1 = options.k1 ?? 1.2;
  const b = options.b ?? 0.75;
  const queryTerms = [...new Set(termsOf(query))];
  if (queryTerms.length === 0 || documents.length === 0) return documents.map(() => 0);
  const wanted = new Set(queryTerms);
  const counts: Array<Map<string, number>> = [];
  const lengths: number[] = [];
  const documentFrequency = new Map<string, number>();
  for (const document of documents) {
    const terms = termsOf(document);
    lengths.push(terms.length);
    const termCounts = new Map<string, number>();
    for (const term of terms) {
      if (wanted.has(term)) termCounts.set(term, (termCounts.get(term) ?? 0) + 1);
    }
    for (const term of termCounts.keys()) documentFrequency.set(term, (documentFrequency.get(term) ?? 0) + 1);
    counts.push(termCounts);
  }
  const averageLength = lengths.reduce((sum, length) => sum + length, 0) / documents.length || 1;
  const total = documents.length;
  return counts.map((termCounts, index) => {
    let score = 0;
    for (const term of queryTerms) {
      const frequency = termCounts.get(term);
      if (!frequency) continue;
      const df = documentFrequency.get(term) ?? 0;
      const idf = Math.log(1 + (total - df + 0.5) / (df + 0.5));
      const norm = frequency + k1 * (1 - b + (b * lengths[index]!) / averageLength);
      score += idf * ((frequency * (k1 + 1)) / norm);
    }
    return score;
  });
}

/** Scales scores into [0, 1] by the maximum; all zeros stay zeros. */
export function normaliseScores(scores: readonly number[]): number[] {
  const max = Math.max(0, ...scores);
  return max === 0 ? scores.map(() => 0) : scores.map((score) => score / max);
}
