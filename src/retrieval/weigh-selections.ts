import type { TextChunk } from './chunk-text.js';
import type { LexicalChunkScorer } from './lexical-chunk-scorer.js';
import { coverageOf, coverageTerms } from './question-coverage.js';
import type { Snippet } from './select-snippets.js';

/** A way to fill the budget: the selector's own, whole blocks best first, or the leading text. */
export interface CandidateSelection {
  name: 'ours' | 'blocks' | 'leading';
  snippets: Snippet[];
}

export interface WeighOptions {
  question: string;
  /**
   * Names the selector's own selection followed to the next hops: their words count as part of
   * what is asked (at `hopWeight` of a question word's weight), since the own selection spent its
   * budget on them.
   */
  hopNames?: readonly string[];
  /** Weight of a hop name's word beside a question word's. Default 0.5. */
  hopWeight?: number;
  /** The selector's own selection first; the others replace it only when clearly better. */
  candidates: readonly CandidateSelection[];
  /** The page's blocks and their scorer: a term's rarity among them is its weight. */
  blocks: readonly TextChunk[];
  scorer: LexicalChunkScorer;
  /**
   * Share of the question's weight a candidate must cover beyond the selector's own to replace it:
   * only a clear gap says the own selection missed what the question is about. Default 0.2
   * (bench:snippets, tuning half: 0.2 and 0.4 keep the same answers, 0.1 loses some on every set).
   */
  margin?: number;
}

/**
 * The candidate that covers most of the question, without knowing the answer: the share of the
 * question's terms (and, at a lower weight, of the hop names the own selection followed), each
 * weighed by its rarity among the page's blocks (idf), that the candidate's text holds. The selector's own selection (first) is kept unless another covers at least
 * `margin` more: then it missed a rare word of the question that plain BM25 over whole blocks or
 * the page's lead did find.
 */
export function weighSelections(options: WeighOptions): CandidateSelection {
  const [own, ...others] = options.candidates;
  if (!own) throw new RangeError('weighSelections needs at least one candidate');
  const weighed = coverageTerms({
    question: options.question,
    hopNames: options.hopNames,
    hopWeight: options.hopWeight,
    blockCount: options.blocks.length,
    scorer: options.scorer,
  });
  if (weighed.total <= 0) return own;
  const coverage = (candidate: CandidateSelection) => coverageOf(candidate.snippets, weighed);
  const margin = options.margin ?? 0.2;
  let best = own;
  let bestCoverage = coverage(own) + margin;
  for (const candidate of others) {
    if (candidate.snippets.length === 0) continue;
    const covered = coverage(candidate);
    if (covered >= bestCoverage) {
      best = candidate;
      bestCoverage = covered;
    }
  }
  return best;
}

/** Whole blocks best first by their scores while they fit (matching ones only), in page order. */
export function bestWholeBlocks(
  text: string,
  blocks: readonly TextChunk[],
  scores: ArrayLike<number>,
  budgetChars: number,
): Snippet[] {
  const order = blocks
    .map((_, index) => index)
    .filter((index) => scores[index]! > 0)
    .sort((a, b) => scores[b]! - scores[a]! || a - b);
  const kept: number[] = [];
  let used = 0;
  for (const index of order) {
    const length = blocks[index]!.end - blocks[index]!.start;
    if (used + length > budgetChars) continue;
    kept.push(index);
    used += length;
  }
  return kept
    .sort((a, b) => a - b)
    .map((index) => {
      const { start, end } = blocks[index]!;
      return { start, end, text: text.slice(start, end), score: scores[index]! };
    });
}
