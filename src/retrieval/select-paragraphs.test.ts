import { describe, expect, it } from 'vitest';
import { createLexicalChunkScorer } from './lexical-chunk-scorer.js';
import { sentencesOfParagraphs } from './pack-sentences.js';
import { blocksOf } from './page-blocks.js';
import { keepsParagraphs, selectParagraphs } from './select-paragraphs.js';
import { selectSnippets } from './select-snippets.js';

const filler = (topic: string) =>
  `${topic} is described here at some length, with dates, places and people that have nothing to do with the question at hand. `.repeat(
    3,
  );

// Two hops: the question names the film; only the director's own paragraph, which shares no word
// with the question, says where he grew up.
const page = [
  `## Harbour Lights\nHarbour Lights is a 1963 drama film directed by Tomas Verlaine. ${filler('The film')}`,
  `## Tomas Verlaine\nTomas Verlaine grew up in Ghent and trained as a painter. ${filler('His career')}`,
  `## Salt Marsh\n${filler('Salt Marsh')}`,
  `## Grey Tide\n${filler('Grey Tide')}`,
  `## Night Ferry\n${filler('Night Ferry')}`,
].join('\n\n');
const question = 'Which city did the director of Harbour Lights grow up in?';

describe('selectParagraphs', () => {
  it('splits at blank lines and keeps a lone heading with the paragraph below it', () => {
    const paragraphs = blocksOf('# Title\n\nFirst para.\nStill first.\n\n\nSecond para.');
    expect(paragraphs.map((paragraph) => paragraph.text)).toEqual([
      '# Title\n\nFirst para.\nStill first.',
      'Second para.',
    ]);
  });

  it('keeps whole paragraphs only on pages made of a few short ones', () => {
    expect(keepsParagraphs(blocksOf(page), 1000)).toBe(true);
    expect(keepsParagraphs(blocksOf(page), 300)).toBe(false);
    expect(keepsParagraphs(blocksOf('one\n\ntwo\n\nthree'), 1000)).toBe(false);
    // One article's paragraphs, most without a heading of their own: windows.
    const article = page.replace(/## (?!Harbour)[^\n]*\n/g, '');
    expect(keepsParagraphs(blocksOf(article), 1000)).toBe(false);
  });

  it('reaches the paragraph a name of the best paragraph leads to, heading kept, within budget', () => {
    const budget = 450;
    const plain = selectSnippets(question, page, { budgetChars: budget, expand: false });
    const expanded = selectSnippets(question, page, { budgetChars: budget });
    const kept = expanded.map((snippet) => snippet.text).join('\n');
    expect(kept).toContain('directed by Tomas Verlaine');
    expect(kept).toContain('## Tomas Verlaine\nTomas Verlaine grew up in Ghent');
    expect(plain.map((snippet) => snippet.text).join('\n')).not.toContain('Ghent');
    for (const snippets of [plain, expanded]) {
      expect(snippets.reduce((sum, snippet) => sum + snippet.text.length, 0)).toBeLessThanOrEqual(budget);
      for (const snippet of snippets) expect(page.slice(snippet.start, snippet.end)).toBe(snippet.text);
      const starts = snippets.map((snippet) => snippet.start);
      expect(starts).toEqual([...starts].sort((a, b) => a - b));
    }
  });

  it('returns undefined when no paragraph matches, so windows and the leading text take over', () => {
    const paragraphs = blocksOf(page);
    const index = {
      paragraphs,
      scorer: createLexicalChunkScorer(page, paragraphs),
      sentences: sentencesOfParagraphs(page, paragraphs),
    };
    expect(selectParagraphs('quantum chromodynamics', page, index, { budgetChars: 900 })).toBeUndefined();
    expect(selectSnippets('quantum chromodynamics', page, { budgetChars: 300 })[0]!.start).toBe(0);
  });
});
