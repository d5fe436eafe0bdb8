import type { TextChunk } from './chunk-text.js';
import { expandHops, type HopLink, type HopSource } from './hop-expansion.js';
import type { LexicalChunkScorer } from './lexical-chunk-scorer.js';
import { type PageSentences, packSentences } from './pack-sentences.js';
import { isTitled, type PageBlock } from './page-blocks.js';
import type { Snippet } from './select-snippets.js';
import { termsOf } from './tokenize.js';

// A page is made of paragraphs worth selecting from when it has a few titled ones and a typical one
// fits the budget; otherwise fixed windows do better (one article, a table, a transcript).
const minParagraphs = 4;
const maxMedianShare = 1;
const minTitledShare = 0.5;

/**
 * True when selection should work paragraph by paragraph: a page of titled entries (most
 * paragraphs open with their own heading: articles, records, notes pooled into one page) of which
 * a typical one fits the budget. Names lead from one entry to another there; inside one article,
 * about one subject, they lead away from it, and windows with a lead prior keep more answers
 * (bench:snippets, NQ's pages as paragraphs: 0.83 with windows at 4,000 chars, 0.67 by paragraphs
 * and hops).
 */
export function keepsParagraphs(paragraphs: readonly PageBlock[], budgetChars: number): boolean {
  if (paragraphs.length < minParagraphs) return false;
  const titled = paragraphs.filter(isTitled).length;
  if (titled < paragraphs.length * minTitledShare) return false;
  const lengths = paragraphs.map((paragraph) => paragraph.end - paragraph.start).sort((a, b) => a - b);
  return lengths[Math.floor(lengths.length / 2)]! <= budgetChars * maxMedianShare;
}

export interface ParagraphIndex {
  paragraphs: readonly TextChunk[];
  /** BM25 of the paragraphs (lexical-chunk-scorer.ts). */
  scorer: LexicalChunkScorer;
  sentences: PageSentences;
}

export interface ParagraphSelectionOptions {
  budgetChars: number;
  /** Follow the names of the best paragraphs to the next hops (hop-expansion.ts). Default true. */
  expand?: boolean;
  /** Embedding similarity per paragraph in [0, 1], blended half and half with BM25 when given. */
  semantic?: ArrayLike<number>;
}

/**
 * Paragraphs scored for the question (BM25, blended with embedding similarity when given), raised
 * by multi-hop expansion, then their best sentences packed into the budget (pack-sentences.ts):
 * heading first, in page order. Undefined when no paragraph matches: the caller falls back.
 */
export function selectParagraphs(
  question: string,
  text: string,
  index: ParagraphIndex,
  options: ParagraphSelectionOptions,
): Snippet[] | undefined {
  const initial = initialScores(question, index, options.semantic);
  if (initial.size === 0) return undefined;
  const queries = new Map<number, string>();
  let scores: ReadonlyMap<number, number> = initial;
  if (options.expand ?? true) {
    const hops = expandHops({ question, scores: initial, source: paragraphSource(index) });
    scores = hops.scores;
    for (const [id, reach] of hops.reached) queries.set(id, `${reach.entity} ${question}`);
  }
  const dense = new Float64Array(index.paragraphs.length);
  let best = 0;
  for (const score of scores.values()) best = Math.max(best, score);
  for (const [id, score] of scores) dense[id] = score / best;
  const snippets = packSentences(text, index.sentences, {
    budgetChars: options.budgetChars,
    scores: dense,
    queryOf: (id) => queries.get(id) ?? question,
  });
  return snippets.length > 0 ? snippets : undefined;
}

function initialScores(
  question: string,
  index: ParagraphIndex,
  semantic: ArrayLike<number> | undefined,
): Map<number, number> {
  const lexical = index.scorer.score(question);
  let best = 0;
  for (const score of lexical) best = Math.max(best, score);
  const scores = new Map<number, number>();
  for (let id = 0; id < lexical.length; id++) {
    const own = best > 0 ? lexical[id]! / best : 0;
    const score = semantic ? (own + semantic[id]!) / 2 : own;
    if (score > 0) scores.set(id, score);
  }
  // Empty without a lexical or semantic match: the question says nothing this page's words can check.
  return scores;
}

/** One page's paragraphs as a hop source: a name leads to the paragraphs holding all its words. */
function paragraphSource(index: ParagraphIndex): HopSource {
  return {
    text: (id) => index.paragraphs[id]!.text,
    linked(name, query): HopLink[] {
      const terms = [...new Set(termsOf(name))];
      if (terms.length === 0) return [];
      let holding = index.scorer.chunksWith(terms[0]!);
      for (const term of terms.slice(1)) {
        if (holding.length === 0) return [];
        const next = new Set(index.scorer.chunksWith(term));
        holding = holding.filter((id) => next.has(id));
      }
      if (holding.length === 0) return [];
      const scores = index.scorer.score(query);
      return holding
        .map((id) => ({ id, score: scores[id]! }))
        .sort((a, b) => b.score - a.score || a.id - b.id);
    },
  };
}
