import type { LexicalChunkScorer } from './lexical-chunk-scorer.js';
import { blockRarity, coverageOf, coverageTerms } from './question-coverage.js';
import type { Snippet } from './select-snippets.js';
import { termsOf } from './tokenize.js';

export interface MissingWordRepairInput {
  question: string;
  /** Names the selection's hops followed (they count in its coverage, at half weight). */
  hopNames: readonly string[];
  /** The packed selection. */
  snippets: readonly Snippet[];
  /** The block scores it was packed with, in [0, 1]; not modified. */
  scores: Float64Array;
  blockCount: number;
  /** The blocks' scorer: which blocks hold a term, and how rare it is among them. */
  scorer: LexicalChunkScorer;
  /** Packs the blocks' sentences again with other scores. */
  pack(scores: Float64Array): Snippet[];
}

/**
 * A second packing when the selection lacks question words that some block holds: the words it
 * misses, each weighed by its rarity among the blocks, point at the block holding most of that
 * weight (a short block can hold the question's rarest words and still score low beside long ones,
 * or be crowded out by the blocks the hops raised); that block is raised to the top score and the
 * sentences packed again. The repacked selection is returned only when it covers more of the
 * question and the hop names (question-coverage.ts) than the first; otherwise undefined.
 * Only words rarer among the blocks than the question's median word count: a word many blocks
 * share (a relation like "author", "year", "label") points at no block in particular, and raising
 * one of them evicted a hop's answer at small budgets (bench:snippets, tuning half at 1,000).
 */
export function repairMissingWords(input: MissingWordRepairInput): Snippet[] | undefined {
  const selected = input.snippets.map((snippet) => snippet.text.toLowerCase()).join('\n');
  const asked = [...new Set(termsOf(input.question))];
  const rarity = new Map(asked.map((term) => [term, blockRarity(term, input.blockCount, input.scorer)]));
  const median = medianOf([...rarity.values()]);
  const missing = asked.filter((term) => !selected.includes(term) && rarity.get(term)! > median);
  if (missing.length === 0) return undefined;
  const block = blockHoldingMost(missing, rarity, input);
  if (block === undefined) return undefined;
  const raised = Float64Array.from(input.scores);
  let top = 0;
  for (const score of raised) top = Math.max(top, score);
  if (raised[block]! >= top) return undefined;
  raised[block] = top;
  const repacked = input.pack(raised);
  const weighed = coverageTerms({
    question: input.question,
    hopNames: input.hopNames,
    blockCount: input.blockCount,
    scorer: input.scorer,
  });
  return coverageOf(repacked, weighed) > coverageOf(input.snippets, weighed) ? repacked : undefined;
}

function medianOf(values: number[]): number {
  if (values.length === 0) return 0;
  values.sort((a, b) => a - b);
  const middle = Math.floor(values.length / 2);
  return values.length % 2 === 1 ? values[middle]! : (values[middle - 1]! + values[middle]!) / 2;
}

/** The block holding the most rarity weight of the missing words (ties: the better scored, first). */
function blockHoldingMost(
  missing: readonly string[],
  rarity: ReadonlyMap<string, number>,
  input: MissingWordRepairInput,
): number | undefined {
  const held = new Map<number, number>();
  for (const term of missing)
    for (const block of input.scorer.chunksWith(term))
      held.set(block, (held.get(block) ?? 0) + rarity.get(term)!);
  const better = (block: number, than: number) => {
    const gap = held.get(block)! - held.get(than)!;
    if (gap !== 0) return gap > 0;
    const scoreGap = input.scores[block]! - input.scores[than]!;
    return scoreGap !== 0 ? scoreGap > 0 : block < than;
  };
  let best: number | undefined;
  for (const block of held.keys()) if (best === undefined || better(block, best)) best = block;
  return best;
}
