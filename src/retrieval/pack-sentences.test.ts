import { describe, expect, it } from 'vitest';
import { packSentences, sentencesOfParagraphs } from './pack-sentences.js';
import { blocksOf } from './page-blocks.js';

const text = [
  '## Rail history\nThe line opened in 1851. J. R. Ellery of the U.S. Navy surveyed it first. Trains ran twice a day.',
  '## Station\nThe station has two platforms. Its clock tower was added in 1902. A café sits by the entrance.',
].join('\n\n');
const page = sentencesOfParagraphs(text, blocksOf(text));

describe('sentencesOfParagraphs', () => {
  it('splits sentences but not after initials or short abbreviations, headings apart', () => {
    expect(page.sentences.map((sentence) => sentence.text.trim())).toEqual([
      'The line opened in 1851.',
      'J. R. Ellery of the U.S. Navy surveyed it first.',
      'Trains ran twice a day.',
      'The station has two platforms.',
      'Its clock tower was added in 1902.',
      'A café sits by the entrance.',
    ]);
    expect(page.paragraphs.map((paragraph) => paragraph.headingLength)).toEqual([
      '## Rail history\n'.length,
      '## Station\n'.length,
    ]);
  });
});

describe('packSentences', () => {
  const pack = (question: string, budgetChars: number, scores = [1, 1]) =>
    packSentences(text, page, { budgetChars, scores, queryOf: () => question });

  it('keeps the best sentences of each paragraph with its heading, within budget, in page order', () => {
    const snippets = pack('When was the clock tower added, and who surveyed the line?', 120);
    const kept = snippets.map((snippet) => snippet.text).join('|');
    expect(kept).toContain('## Station\n');
    expect(kept).toContain('clock tower was added in 1902');
    expect(snippets.reduce((sum, snippet) => sum + snippet.text.length, 0)).toBeLessThanOrEqual(120);
    for (const snippet of snippets) expect(text.slice(snippet.start, snippet.end)).toBe(snippet.text);
    const starts = snippets.map((snippet) => snippet.start);
    expect(starts).toEqual([...starts].sort((a, b) => a - b));
  });

  it('leaves out paragraphs that score 0 and keeps a whole paragraph when the budget allows', () => {
    const snippets = pack('clock tower', 1000, [0, 1]);
    expect(snippets).toHaveLength(1);
    const station = page.paragraphs[1]!;
    expect(snippets[0]!.text).toBe(text.slice(station.start, station.end));
  });
});

describe('packSentences on untitled paragraphs', () => {
  const untitled = [
    'Henry Roth (February 8, 1906 – October 13, 1995) was an American novelist. His first novel was published in 1934. He was born in Tysmenitz and grew up in New York.',
    'The harbour was dredged in 1880. Ships of every size called there. He was born in a fishing village on the coast.',
  ].join('\n\n');
  const paragraphs = sentencesOfParagraphs(untitled, blocksOf(untitled));
  const pack = (budgetChars: number, scores = [1, 1]) =>
    packSentences(untitled, paragraphs, {
      budgetChars,
      scores,
      queryOf: () => 'Which writer was born in Tysmenitz?',
    });

  it('keeps the name a paragraph opens with, as its title, with a later sentence taken', () => {
    expect(paragraphs.paragraphs.map((paragraph) => paragraph.nameLength)).toEqual(['Henry Roth'.length, 0]);
    const snippets = pack(70);
    expect(snippets.map((snippet) => snippet.text)).toEqual([
      'Henry Roth',
      'He was born in Tysmenitz and grew up in New York.',
    ]);
    for (const snippet of snippets) expect(untitled.slice(snippet.start, snippet.end)).toBe(snippet.text);
  });

  it('counts the name once when the opening sentence is taken too, within budget', () => {
    const [opening, , born] = paragraphs.sentences;
    // Room for exactly the two sentences: the name, inside the opening one, must not cost twice.
    const budget = opening!.text.length + born!.text.length;
    const snippets = pack(budget, [1, 0]);
    const kept = snippets.map((snippet) => snippet.text).join('|');
    expect(kept).toContain('Henry Roth (February 8, 1906');
    expect(kept).toContain('born in Tysmenitz');
    expect(snippets.reduce((sum, snippet) => sum + snippet.text.length, 0)).toBeLessThanOrEqual(budget);
  });
});
