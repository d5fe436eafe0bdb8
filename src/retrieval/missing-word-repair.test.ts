import { describe, expect, it } from 'vitest';
import { createLexicalChunkScorer } from './lexical-chunk-scorer.js';
import { repairMissingWords } from './missing-word-repair.js';
import { packSentences, sentencesOfParagraphs } from './pack-sentences.js';
import { blocksOf } from './page-blocks.js';
import { selectSnippets } from './select-snippets.js';

// The university's block matches the question best; the city blocks the hops would raise fill the
// budget; the short block that holds the question's rarest words ("fight", "song") scores low.
const text = [
  'The University of Kansas is a public research university whose main campus is in Lawrence. It was founded in 1865 and has more than twenty thousand students. Its medical center is in Kansas City.',
  'Lawrence is a city in Douglas County whose main street runs along the Kansas River. The city grew around its university and its mills. Its downtown has many old brick buildings.',
  'Kansas City is the largest city in Missouri, across the state line from Kansas City, Kansas. It is known for jazz, barbecue and fountains. The city hosts many teams and museums.',
  'Topeka is the capital of Kansas and sits on the Kansas River west of Lawrence. Its state house was finished in 1903. The city has a zoo and several parks.',
  'Crimson Chant is the fight song of the university in Lawrence.',
].join('\n\n');
const question = 'What is the fight song of the university whose main campus is in Lawrence?';
const blocks = blocksOf(text);
const scorer = createLexicalChunkScorer(text, blocks);
const sentences = sentencesOfParagraphs(text, blocks);
const budgetChars = 260;
const pack = (scores: Float64Array) =>
  packSentences(text, sentences, { budgetChars, scores, queryOf: () => question });
const joined = (snippets: ReadonlyArray<{ text: string }>) =>
  snippets.map((snippet) => snippet.text).join('|');

describe('repairMissingWords', () => {
  it('raises the short block that holds the rarest missing words and packs again', () => {
    const scores = Float64Array.from([1, 0.9, 0.8, 0.7, 0.1]);
    const first = pack(scores);
    expect(joined(first)).not.toContain('fight song');
    const repaired = repairMissingWords({
      question,
      hopNames: ['Kansas City'],
      snippets: first,
      scores,
      blockCount: blocks.length,
      scorer,
      pack,
    });
    expect(repaired).toBeDefined();
    expect(joined(repaired!)).toContain('Crimson Chant is the fight song');
    expect(joined(repaired!)).toContain('main campus is in Lawrence');
    expect(repaired!.reduce((sum, snippet) => sum + snippet.text.length, 0)).toBeLessThanOrEqual(budgetChars);
    expect(scores[4]).toBe(0.1);
  });

  it('does nothing when the selection already holds the question’s words', () => {
    const scores = Float64Array.from([1, 0.2, 0.2, 0.2, 0.9]);
    const first = pack(scores);
    expect(joined(first)).toContain('fight song');
    expectDeclinedWithoutPacking(question, first, scores);
  });

  it('does not fire for a missing word most blocks share (not rarer than the question’s median word)', () => {
    // "city" is in four of five blocks; the selection (the song's block) lacks it and only it.
    const cityQuestion = 'Which city fight song?';
    const scores = Float64Array.from([0, 0, 0, 0, 1]);
    const first = packSentences(text, sentences, {
      budgetChars,
      scores,
      queryOf: () => cityQuestion,
    });
    expect(joined(first)).not.toMatch(/\bcity\b/i);
    expectDeclinedWithoutPacking(cityQuestion, first, scores);
  });

  it('keeps the first packing when packing again covers no more of the question', () => {
    // The raised block's sentences do not fit beside the best block's: nothing gained.
    const scores = Float64Array.from([1, 0.9, 0.8, 0.7, 0.1]);
    const tight = (raised: Float64Array) =>
      packSentences(text, sentences, { budgetChars: 40, scores: raised, queryOf: () => question });
    const first = tight(scores);
    const repaired = repairMissingWords({
      question,
      hopNames: [],
      snippets: first,
      scores,
      blockCount: blocks.length,
      scorer,
      pack: () => first,
    });
    expect(repaired).toBeUndefined();
  });
});

/** The repair declines for `asked`, and without packing the selection again. */
function expectDeclinedWithoutPacking(
  asked: string,
  first: ReturnType<typeof pack>,
  scores: Float64Array,
): void {
  let packedAgain = 0;
  const repaired = repairMissingWords({
    question: asked,
    hopNames: [],
    snippets: first,
    scores,
    blockCount: blocks.length,
    scorer,
    pack: (raised) => {
      packedAgain++;
      return pack(raised);
    },
  });
  expect(repaired).toBeUndefined();
  expect(packedAgain).toBe(0);
}

describe('selectSnippets with the repair', () => {
  // The hops from the university's block raise the Kansas City area's blocks; the one-line block
  // that holds the question's rarest words ("fight", "song") scores low beside them.
  const page = [
    'The University of Kansas is a public research university whose main campus is in Lawrence, Kansas. Its branch campuses are in the Kansas City metropolitan area, in Overland Park and Kansas City. It was founded in 1865 and has more than twenty thousand students.',
    'Kansas City is the largest city in Missouri and the center of the Kansas City metropolitan area. It is known for jazz, barbecue and its many fountains. The city hosts several teams and museums along its boulevards.',
    'Overland Park is the second most populous city in Kansas and part of the Kansas City metropolitan area. Its office parks hold many company headquarters. The city has an arboretum and a large convention center.',
    'Kansas City, Kansas is the third largest city of the state and part of the Kansas City metropolitan area. Its stockyards once fed the nation. The city sits where the Kansas River meets the Missouri River.',
    'Lawrence is a city in Douglas County, Kansas, on the Kansas River. The city grew around its mills and its schools. Its downtown has many old brick buildings and shops.',
    'Crimson Chant is a fight song of the University of Kansas.',
  ].join('\n\n');
  const asked =
    'What is the fight song of the university whose main campus is in Lawrence, Kansas and whose branch campuses are in the Kansas City metropolitan area?';

  it('keeps the short block’s sentence that holds the question’s rarest words, within budget', () => {
    const budget = 300;
    const snippets = selectSnippets(asked, page, { budgetChars: budget });
    const kept = joined(snippets);
    expect(kept).toContain('Crimson Chant is a fight song of the University of Kansas.');
    expect(kept).toContain('branch campuses are in the Kansas City metropolitan area');
    expect(snippets.reduce((sum, snippet) => sum + snippet.text.length, 0)).toBeLessThanOrEqual(budget);
    for (const snippet of snippets) expect(page.slice(snippet.start, snippet.end)).toBe(snippet.text);
  });
});
