import type { LexicalChunkScorer } from './lexical-chunk-scorer.js';
import type { Snippet } from './select-snippets.js';
import { termsOf } from './tokenize.js';

/** What a selection should cover: the question's terms and hop names' terms, each with a weight. */
export interface CoverageTerms {
  terms: string[];
  weights: number[];
  total: number;
}

export interface CoverageOptions {
  question: string;
  /** Names a selection's hops followed: their words count, at `hopWeight` of a question word's. */
  hopNames?: readonly string[];
  /** Default 0.5. */
  hopWeight?: number;
  /** How many blocks the page has, and the scorer that finds a term's blocks: its rarity (idf). */
  blockCount: number;
  scorer: LexicalChunkScorer;
}

/** A term's rarity among the page's blocks: words every block holds say little of where to look. */
export function blockRarity(term: string, blockCount: number, scorer: LexicalChunkScorer): number {
  return Math.log(1 + blockCount / (1 + scorer.chunksWith(term).length));
}

/**
 * The question's distinct terms (and, at a lower weight, the hop names' other terms), each weighed
 * by its rarity among the page's blocks (weigh-selections.ts, missing-word-repair.ts).
 */
export function coverageTerms(options: CoverageOptions): CoverageTerms {
  const asked = new Set(termsOf(options.question));
  const hopTerms = new Set((options.hopNames ?? []).flatMap((name) => termsOf(name)));
  for (const term of asked) hopTerms.delete(term);
  const terms = [...asked, ...hopTerms];
  const weights = terms.map(
    (term) =>
      blockRarity(term, options.blockCount, options.scorer) *
      (asked.has(term) ? 1 : (options.hopWeight ?? 0.5)),
  );
  return { terms, weights, total: weights.reduce((sum, weight) => sum + weight, 0) };
}

/** The share of the weighed terms a selection's text holds (0 when there is nothing to weigh). */
export function coverageOf(snippets: readonly Snippet[], weighed: CoverageTerms): number {
  if (weighed.total <= 0) return 0;
  const text = snippets.map((snippet) => snippet.text.toLowerCase()).join('\n');
  let covered = 0;
  weighed.terms.forEach((term, index) => {
    if (text.includes(term)) covered += weighed.weights[index]!;
  });
  return covered / weighed.total;
}
