import { describe, expect, it } from 'vitest';
import { createLexicalChunkScorer } from './lexical-chunk-scorer.js';
import { blocksOf } from './page-blocks.js';
import { bestWholeBlocks, type CandidateSelection, weighSelections } from './weigh-selections.js';

const text = [
  'Harbour Lights\nHarbour Lights is a 1963 drama film directed by Tomas Verlaine in Ostend.',
  'Salt Marsh\nSalt Marsh is a quiet wetland reserve with many birds in the spring.',
  'Grey Tide\nGrey Tide is a novel about a fishing town and its harbour.',
  'Night Ferry\nNight Ferry is a song recorded in Oslo during a long winter.',
].join('\n\n');
const blocks = blocksOf(text);
const scorer = createLexicalChunkScorer(text, blocks);
const snippet = (index: number) => {
  const { start, end } = blocks[index]!;
  return { start, end, text: text.slice(start, end), score: 1 };
};

describe('weighSelections', () => {
  const question = 'Who directed the drama Harbour Lights?';
  const whole: CandidateSelection = {
    name: 'blocks',
    snippets: bestWholeBlocks(text, blocks, scorer.score(question), 200),
  };

  it('keeps the selector’s own selection when it covers the question as well', () => {
    const own: CandidateSelection = { name: 'ours', snippets: [snippet(0)] };
    expect(weighSelections({ question, candidates: [own, whole], blocks, scorer })).toBe(own);
  });

  it('takes whole blocks when the own selection missed the question’s words', () => {
    const own: CandidateSelection = { name: 'ours', snippets: [snippet(1)] };
    expect(weighSelections({ question, candidates: [own, whole], blocks, scorer }).name).toBe('blocks');
  });

  it('counts the names the own selection followed: budget spent on a hop is not a miss', () => {
    const hopQuestion = 'Which birds live in the reserve near the town where Grey Tide is set?';
    const own: CandidateSelection = { name: 'ours', snippets: [snippet(1)] };
    const town: CandidateSelection = { name: 'blocks', snippets: [snippet(2)] };
    const weigh = (hopNames?: string[]) =>
      weighSelections({
        question: hopQuestion,
        hopNames,
        candidates: [own, town],
        blocks,
        scorer,
        margin: 0.05,
      });
    expect(weigh().name).toBe('blocks');
    expect(weigh(['Salt Marsh'])).toBe(own);
  });

  it('ranks whole blocks by score, keeps those that fit, returns them in page order', () => {
    const kept = bestWholeBlocks(text, blocks, [0.2, 0, 0.9, 0.5], 150);
    expect(kept.map((piece) => piece.text.split('\n')[0])).toEqual(['Grey Tide', 'Night Ferry']);
    for (const piece of kept) expect(text.slice(piece.start, piece.end)).toBe(piece.text);
  });
});
