import { describe, expect, it } from 'vitest';
import { PageStore } from './page-store.js';

const filler = (topic: string) =>
  `${topic} is described here at some length, with dates, places and people unrelated to the question. `.repeat(
    3,
  );
const text = [
  `## Harbour Lights\nHarbour Lights is a 1963 drama film directed by Tomas Verlaine. ${filler('The film')}`,
  `## Tomas Verlaine\nTomas Verlaine grew up in Ghent and trained as a painter. ${filler('His career')}`,
  `## Salt Marsh\nSalt Marsh is a quiet wetland reserve. ${filler('The reserve')}`,
  `## Grey Tide\n${filler('Grey Tide')}`,
  `## Night Ferry\n${filler('Night Ferry')}`,
].join('\n\n');
const question = 'Which city did the director of Harbour Lights grow up in?';

function storedPage() {
  const store = new PageStore();
  const url = 'https://example.test/a';
  const page = store.add(
    { url, requestedUrl: url, title: 'A', text, markdown: text, links: [], contentType: 'text/html' },
    1,
  );
  return { store, page };
}

describe('PageStore.snippets', () => {
  it('selects as selectSnippets does by default: the second hop is kept, within budget', () => {
    const { store, page } = storedPage();
    const snippets = store.snippets(page, question, 450);
    const kept = snippets.map((snippet) => snippet.text).join('\n');
    expect(kept).toContain('Tomas Verlaine grew up in Ghent');
    expect(snippets.reduce((sum, snippet) => sum + snippet.text.length, 0)).toBeLessThanOrEqual(450);
    for (const snippet of snippets) expect(text.slice(snippet.start, snippet.end)).toBe(snippet.text);
  });

  it('blends chunk embeddings in: a paragraph similar to the question but sharing no word is kept', () => {
    const { store, page } = storedPage();
    const marsh = text.indexOf('## Salt Marsh');
    const wetlandQuestion = 'Which protected nature area is mentioned?';
    expect(store.snippets(page, wetlandQuestion, 450).some((s) => s.text.includes('wetland'))).toBe(false);
    const vectors = store
      .chunksOf(page)
      .map((chunk) => Float32Array.from(chunk.start >= marsh && chunk.start < marsh + 300 ? [1, 0] : [0, 1]));
    store.setChunkVectors(page, vectors);
    const blended = store.snippets(page, wetlandQuestion, 450, Float32Array.from([1, 0]));
    expect(
      blended.some((snippet) =>
        snippet.text.includes('## Salt Marsh\nSalt Marsh is a quiet wetland reserve'),
      ),
    ).toBe(true);
  });
});
