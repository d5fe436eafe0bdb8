import { describe, expect, it } from 'vitest';
import { blocksOf } from './page-blocks.js';
import { selectSnippets } from './select-snippets.js';

// Two hops on every page: the question names the film; only the director's own block, which
// shares no word with the question, says where he grew up. The same entries in each page shape.
const question = 'Which city did the director of Harbour Lights grow up in?';
const filler = (topic: string) =>
  `${topic} is described here at some length, with dates, places and people that have nothing to do with the question at hand.`;
const entries = [
  {
    title: 'Harbour Lights',
    sentences: ['Harbour Lights is a 1963 drama film directed by Tomas Verlaine.', filler('The film')],
  },
  { title: 'Salt Marsh', sentences: ['Salt Marsh is a quiet wetland reserve.', filler('The reserve')] },
  { title: 'Grey Tide', sentences: ['Grey Tide is a novel about a fishing town.', filler('The novel')] },
  {
    title: 'Tomas Verlaine',
    sentences: ['Tomas Verlaine grew up in Ghent and trained as a painter.', filler('His career')],
  },
  { title: 'Night Ferry', sentences: ['Night Ferry is a song recorded in Oslo.', filler('The song')] },
];

const pages = {
  'plain title lines': entries.map((entry) => `${entry.title}\n${entry.sentences.join(' ')}`).join('\n\n'),
  'bold title lines': entries.map((entry) => `**${entry.title}**\n${entry.sentences.join(' ')}`).join('\n\n'),
  'list items': entries.map((entry) => `- ${entry.title}: ${entry.sentences.join(' ')}`).join('\n'),
  'table rows': [
    '| Name | About |',
    '| --- | --- |',
    ...entries.map((entry) => `| ${entry.title} | ${entry.sentences.join(' ')} |`),
  ].join('\n'),
  'one sentence per line': entries.flatMap((entry) => entry.sentences).join('\n'),
  'paragraphs without titles': entries.map((entry) => entry.sentences.join(' ')).join('\n\n'),
};

describe('blocksOf', () => {
  it('takes a short line above a paragraph as its title, with or without a blank line between', () => {
    const text =
      'Harbour Lights\nHarbour Lights is a 1963 drama film directed by Tomas Verlaine.\n\nSalt Marsh\n\nSalt Marsh is a quiet wetland reserve on the coast.';
    const blocks = blocksOf(text);
    expect(blocks.map((block) => block.text)).toEqual([
      'Harbour Lights\nHarbour Lights is a 1963 drama film directed by Tomas Verlaine.',
      'Salt Marsh\n\nSalt Marsh is a quiet wetland reserve on the coast.',
    ]);
    expect(blocks.map((block) => block.titleLength)).toEqual([
      'Harbour Lights\n'.length,
      'Salt Marsh\n\n'.length,
    ]);
    for (const block of blocks) expect(text.slice(block.start, block.end)).toBe(block.text);
  });

  it('does not take a wrapped paragraph line or a full sentence for a title', () => {
    const text =
      'The committee met on Tuesday and agreed on the budget for the coming\nYear of works on the bridge and the station, which will start in May.\n\nIt rained.\nThe meeting went on until late in the evening, with many questions.';
    const blocks = blocksOf(text);
    expect(blocks.every((block) => block.titleLength === 0)).toBe(true);
    expect(blocks[0]!.text).toContain('coming\nYear of works');
  });

  it('splits each page shape into its entries, titles kept with their block', () => {
    const titled = (name: keyof typeof pages) =>
      blocksOf(pages[name]).filter((block) => block.titleLength > 0);
    expect(blocksOf(pages['plain title lines'])).toHaveLength(5);
    expect(titled('plain title lines').map((block) => block.text.split('\n')[0])).toEqual(
      entries.map((entry) => entry.title),
    );
    expect(titled('bold title lines').map((block) => block.text.split('\n')[0])).toEqual(
      entries.map((entry) => `**${entry.title}**`),
    );
    expect(blocksOf(pages['list items']).map((block) => block.text)).toEqual(
      entries.map((entry) => `- ${entry.title}: ${entry.sentences.join(' ')}`),
    );
    // Header, rule and one row per entry.
    expect(blocksOf(pages['table rows'])).toHaveLength(7);
    expect(blocksOf(pages['one sentence per line'])).toHaveLength(10);
    expect(blocksOf(pages['paragraphs without titles'])).toHaveLength(5);
  });

  it('groups the sentence lines under a plain title line into one block', () => {
    const text = entries.map((entry) => `${entry.title}\n${entry.sentences.join('\n')}`).join('\n');
    const blocks = blocksOf(text);
    expect(blocks).toHaveLength(5);
    expect(blocks[3]!.text).toBe(`Tomas Verlaine\n${entries[3]!.sentences.join('\n')}`);
    expect(blocks[3]!.titleLength).toBe('Tomas Verlaine\n'.length);
  });
});

describe('selectSnippets on every page shape', () => {
  for (const [shape, page] of Object.entries(pages)) {
    it(`reaches the bridged block through the second hop: ${shape}`, () => {
      const budget = 300;
      const expanded = selectSnippets(question, page, { budgetChars: budget });
      const plain = selectSnippets(question, page, { budgetChars: budget, expand: false });
      const kept = expanded.map((snippet) => snippet.text).join('\n');
      expect(kept).toContain('directed by Tomas Verlaine');
      expect(kept).toContain('Tomas Verlaine grew up in Ghent');
      expect(plain.map((snippet) => snippet.text).join('\n')).not.toContain('Ghent');
      expect(expanded.reduce((sum, snippet) => sum + snippet.text.length, 0)).toBeLessThanOrEqual(budget);
      for (const snippet of expanded) expect(page.slice(snippet.start, snippet.end)).toBe(snippet.text);
    });
  }
});
