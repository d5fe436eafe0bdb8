import type { TextChunk } from './chunk-text.js';
import { expandHops, type HopLink, type HopSource } from './hop-expansion.js';
import type { LexicalChunkScorer } from './lexical-chunk-scorer.js';
import { repairMissingWords } from './missing-word-repair.js';
import { type PageSentences, packSentences } from './pack-sentences.js';
import { isTitled, type PageBlock } from './page-blocks.js';
import type { Snippet } from './select-snippets.js';
import { termsOf } from './tokenize.js';

// A page is made of blocks worth selecting from when it has a few and a typical one is an entry's
// size that fits the budget; otherwise fixed windows do better (one article in long sections, a
// table, a transcript).
const minParagraphs = 4;
const maxMedianShare = 1;
const maxMedianChars = 1200;
const minTitledShare = 0.5;

/**
 * True when selection should work block by block (page-blocks.ts): a page of entries (articles,
 * records, notes pooled into one page), a typical one short enough to be one entry and to fit the
 * budget. Entries show as blocks most of which carry their own title (a heading, a bold line, a
 * plain title line); a page where a few titles head sections of untitled paragraphs is one article
 * in sections, whose names lead away from its subject, and windows with a lead prior keep more
 * answers there (bench:snippets, NQ's pages: 0.80 with windows at 4,000 chars, 0.73 by blocks and
 * hops). A page without any title can be either: blocks, with hops that stop once the question's
 * words are all found (selectParagraphs), lose little on an article (NQ without titles at 4,000:
 * 0.79 against 0.83) and gain most on entries (MuSiQue without titles: 0.63 against 0.40 at 2,000).
 */
export function keepsParagraphs(paragraphs: readonly PageBlock[], budgetChars: number): boolean {
  if (paragraphs.length < minParagraphs) return false;
  const titled = paragraphs.filter(isTitled).length;
  if (titled > 0 && titled < paragraphs.length * minTitledShare) return false;
  const lengths = paragraphs.map((paragraph) => paragraph.end - paragraph.start).sort((a, b) => a - b);
  return lengths[Math.floor(lengths.length / 2)]! <= Math.min(budgetChars * maxMedianShare, maxMedianChars);
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
 * heading first, in page order; packed again when that left out a rare question word some
 * paragraph holds (missing-word-repair.ts). Undefined when no paragraph matches: the caller falls
 * back.
 */
export function selectParagraphs(
  question: string,
  text: string,
  index: ParagraphIndex,
  options: ParagraphSelectionOptions,
): Snippet[] | undefined {
  return selectParagraphsWithHops(question, text, index, options)?.snippets;
}

/** selectParagraphs, with the names the hops followed (what the selection spent budget on). */
export function selectParagraphsWithHops(
  question: string,
  text: string,
  index: ParagraphIndex,
  options: ParagraphSelectionOptions,
): { snippets: Snippet[]; names: string[] } | undefined {
  const initial = initialScores(question, index, options.semantic);
  if (initial.size === 0) return undefined;
  const queries = new Map<number, string>();
  let scores: ReadonlyMap<number, number> = initial;
  let names: string[] = [];
  if (options.expand ?? true) {
    const hops = expandHops({
      question,
      scores: initial,
      source: paragraphSource(index),
      // A question whose words the followed blocks all hold is answered where it points.
      answeredShare: 1,
    });
    scores = hops.scores;
    names = hops.entities;
    for (const [id, reach] of hops.reached) queries.set(id, `${reach.entity} ${question}`);
  }
  const dense = new Float64Array(index.paragraphs.length);
  let best = 0;
  for (const score of scores.values()) best = Math.max(best, score);
  for (const [id, score] of scores) dense[id] = score / best;
  const pack = (scores: Float64Array) =>
    packSentences(text, index.sentences, {
      budgetChars: options.budgetChars,
      scores,
      queryOf: (id) => queries.get(id) ?? question,
    });
  const packed = pack(dense);
  if (packed.length === 0) return undefined;
  const repaired = repairMissingWords({
    question,
    hopNames: names,
    snippets: packed,
    scores: dense,
    blockCount: index.paragraphs.length,
    scorer: index.scorer,
    pack,
  });
  return { snippets: repaired ?? packed, names };
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
