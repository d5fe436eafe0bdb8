import { describe, expect, it } from 'vitest';
import { scoreBm25 } from './bm25.js';
import { chunkText } from './chunk-text.js';
import { selectSnippets } from './select-snippets.js';

const filler = (topic: string, count: number) =>
  Array.from(
    { length: count },
    (_, index) => `This sentence ${index} talks about ${topic} in general terms.`,
  ).join(' ');

describe('selectSnippets', () => {
  it('passes a short page through whole', () => {
    expect(selectSnippets('anything', 'short page', { budgetChars: 100 })).toEqual([
      { start: 0, end: 10, text: 'short page', score: 1 },
    ]);
  });

  it('keeps the passage that answers the question, within budget, with true offsets', () => {
    const answer = 'The Eiffel Tower was completed in 1889 for the World Fair in Paris.';
    const text = `${filler('gardening', 80)} ${answer} ${filler('cooking', 80)}`;
    const snippets = selectSnippets('When was the Eiffel Tower completed?', text, { budgetChars: 600 });
    const total = snippets.reduce((sum, snippet) => sum + snippet.text.length, 0);
    expect(total).toBeLessThanOrEqual(600);
    expect(snippets.some((snippet) => snippet.text.includes('completed in 1889'))).toBe(true);
    for (const snippet of snippets) expect(text.slice(snippet.start, snippet.end)).toBe(snippet.text);
  });

  it('returns several windows in page order when the answer is spread out', () => {
    const text = `Alpha facts: the alpha value is 7. ${filler('weather', 60)} Beta facts: the beta value is 9. ${filler('sport', 60)}`;
    const snippets = selectSnippets('alpha value and beta value', text, {
      budgetChars: 700,
      windowChars: 250,
    });
    expect(snippets.length).toBeGreaterThanOrEqual(2);
    expect(snippets.map((snippet) => snippet.start)).toEqual(
      [...snippets.map((snippet) => snippet.start)].sort((a, b) => a - b),
    );
    const joined = snippets.map((snippet) => snippet.text).join(' ');
    expect(joined).toContain('alpha value is 7');
    expect(joined).toContain('beta value is 9');
  });

  it('falls back to the leading text when nothing matches', () => {
    const text = filler('nothing', 50);
    const [snippet] = selectSnippets('zebra quantum', text, { budgetChars: 300 });
    expect(snippet?.start).toBe(0);
    expect(snippet?.text.length).toBeLessThanOrEqual(300);
  });
});

describe('scoreBm25 and chunkText', () => {
  it('ranks the document holding the rare query term first', () => {
    const scores = scoreBm25('iPhone 16 battery', [
      'iPhone 15 battery life',
      'iPhone 16 battery life',
      'Android phones',
    ]);
    expect(scores[1]).toBeGreaterThan(scores[0]!);
    expect(scores[2]).toBe(0);
  });

  it('cuts chunks at sentence ends and covers the text exactly', () => {
    const text = 'One sentence here. Another one follows here. And a third sentence closes it.';
    const chunks = chunkText(text, 30);
    expect(chunks.map((chunk) => chunk.text).join('')).toBe(text);
    expect(chunks[0]!.text.endsWith('.')).toBe(true);
  });
});

describe('selectSnippets lead prior', () => {
  it('prefers the page lead between equally relevant passages, unless turned off', () => {
    const passage = 'The tower opened to visitors in 1889 after two years of work.';
    const text = `${passage} ${filler('gardening', 60)} ${passage} ${filler('cooking', 60)}`;
    const second = text.lastIndexOf(passage);
    const withPrior = selectSnippets('when did the tower open', text, { budgetChars: 300, windowChars: 250 });
    expect(withPrior[0]!.start).toBe(0);
    const flat = selectSnippets('when did the tower open', text, {
      budgetChars: 300,
      windowChars: 250,
      leadWeight: 0,
    });
    expect(flat.some((snippet) => snippet.start <= second && snippet.end > second)).toBe(true);
  });

  it('selects from a 1,000,000-character page within budget and with true offsets', () => {
    const needle = 'The secret launch code of the Zephyr project is 7731.';
    const text = `${filler('history', 9000)} ${needle} ${filler('geography', 9000)}`;
    expect(text.length).toBeGreaterThan(1_000_000);
    const snippets = selectSnippets('Zephyr project launch code', text, { budgetChars: 4000 });
    expect(snippets.some((snippet) => snippet.text.includes('7731'))).toBe(true);
    expect(snippets.reduce((sum, snippet) => sum + snippet.text.length, 0)).toBeLessThanOrEqual(4000);
    for (const snippet of snippets) expect(text.slice(snippet.start, snippet.end)).toBe(snippet.text);
  });
});

describe('selectSnippets on a page of untitled paragraphs', () => {
  it('keeps the name a paragraph opens with beside the later sentence that answers', () => {
    const page = [
      'Henry Roth (February 8, 1906 – October 13, 1995) was an American novelist and short story writer whose books about immigrant life in New York were rediscovered decades later. His first novel appeared in 1934 to mixed reviews. He spent his later years in New Mexico and was born in Tysmenitz.',
      'Erskine Childers (25 June 1870 – 24 November 1922) was a writer and politician. His novel about the sea was a best seller. He was born in London and grew up in County Wicklow.',
      'The Salt Marsh reserve lies on the coast south of the town. Many birds rest there in spring. Its paths are closed in winter storms.',
      'Grey Tide is a novel about a fishing town and its harbour. It was written over ten years. Critics praised its quiet scenes.',
      'Night Ferry is a song recorded in Oslo during a long winter. It was released as a single. The band toured with it for a year.',
    ].join('\n\n');
    const budget = 140;
    const snippets = selectSnippets('Who was born in Tysmenitz?', page, { budgetChars: budget });
    const kept = snippets.map((snippet) => snippet.text);
    // The answer's sentence alone would not say whom it is about; the opening sentence does not fit.
    expect(kept[0]).toBe('Henry Roth');
    expect(kept[1]).toContain('He spent his later years in New Mexico and was born in Tysmenitz.');
    expect(kept.join('').length).toBeLessThanOrEqual(budget);
    for (const snippet of snippets) expect(page.slice(snippet.start, snippet.end)).toBe(snippet.text);
  });
});
