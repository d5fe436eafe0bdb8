import { termsOf } from './tokenize.js';

export interface Bm25Options {
  k1?: number;
  b?: number;
}

/** Okapi BM25's usual constants: term-frequency saturation and length normalisation. */
export const bm25Defaults = { k1: 1.2, b: 0.75 } as const;

// BM25's formula in three parts, shared by every scorer here: Bm25Index (strings), the chunk
// scorer (terms found by indexOf) and the term index (word ids).

/** Inverse document frequency of a term found in `df` of `total` documents; 0 when in none. */
export function bm25Idf(total: number, df: number): number {
  return df === 0 ? 0 : Math.log(1 + (total - df + 0.5) / (df + 0.5));
}

/** A document's length normaliser: k1 · (1 − b + b · length / average length). */
export function bm25LengthNorm(length: number, averageLength: number, k1: number, b: number): number {
  return k1 * (1 - b + (b * length) / averageLength);
}

/** The saturated weight of a term seen `frequency` times in a document with that normaliser. */
export function bm25TermWeight(frequency: number, lengthNorm: number, k1: number): number {
  return (frequency * (k1 + 1)) / (frequency + lengthNorm);
}

/**
 * BM25 over a fixed set of documents, tokenised once so that scoring many queries (one per
 * agent step) costs only the lookups. The corpus is the documents given: chunks of one page,
 * or the knowledge items of one prompt.
 */
export class Bm25Index {
  private readonly termCounts: Array<Map<string, number>>;
  private readonly lengths: Float64Array;
  private readonly documentFrequency = new Map<string, number>();
  private readonly averageLength: number;
  private readonly k1: number;
  private readonly b: number;

  constructor(documents: readonly string[], options: Bm25Options = {}) {
    this.k1 = options.k1 ?? bm25Defaults.k1;
    this.b = options.b ?? bm25Defaults.b;
    this.termCounts = [];
    this.lengths = new Float64Array(documents.length);
    let totalLength = 0;
    documents.forEach((document, index) => {
      const counts = new Map<string, number>();
      const terms = termsOf(document);
      for (const term of terms) counts.set(term, (counts.get(term) ?? 0) + 1);
      for (const term of counts.keys())
        this.documentFrequency.set(term, (this.documentFrequency.get(term) ?? 0) + 1);
      this.termCounts.push(counts);
      this.lengths[index] = terms.length;
      totalLength += terms.length;
    });
    this.averageLength = totalLength / Math.max(1, documents.length) || 1;
  }

  get size(): number {
    return this.termCounts.length;
  }

  /** One score ≥ 0 per document, in document order. */
  score(query: string): number[] {
    const queryTerms = [...new Set(termsOf(query))];
    const total = this.termCounts.length;
    const weights = queryTerms.map((term) => bm25Idf(total, this.documentFrequency.get(term) ?? 0));
    const scores = new Array<number>(total).fill(0);
    for (let index = 0; index < total; index++) {
      const counts = this.termCounts[index]!;
      const lengthNorm = bm25LengthNorm(this.lengths[index]!, this.averageLength, this.k1, this.b);
      let score = 0;
      for (let term = 0; term < queryTerms.length; term++) {
        const frequency = counts.get(queryTerms[term]!);
        if (frequency) score += weights[term]! * bm25TermWeight(frequency, lengthNorm, this.k1);
      }
      scores[index] = score;
    }
    return scores;
  }
}

/** One-off BM25 scoring of documents against a query. */
export function scoreBm25(query: string, documents: readonly string[], options: Bm25Options = {}): number[] {
  return new Bm25Index(documents, options).score(query);
}

/** Scales scores into [0, 1] by the maximum; all zeros stay zeros. */
export function normaliseScores(scores: readonly number[]): number[] {
  let max = 0;
  for (const score of scores) if (score > max) max = score;
  return max === 0 ? scores.map(() => 0) : scores.map((score) => score / max);
}
