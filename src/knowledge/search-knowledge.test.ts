import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { KnowledgeStore } from './knowledge-store.js';
import { searchKnowledge } from './search-knowledge.js';

let folder: string;
let store: KnowledgeStore;

beforeEach(() => {
  folder = mkdtempSync(join(tmpdir(), 'kb-expand-'));
  store = new KnowledgeStore({ file: join(folder, 'kb.sqlite') });
});
afterEach(() => {
  store.close();
  rmSync(folder, { recursive: true, force: true });
});

/** One single-chunk document per title, no vectors. */
function put(documents: Record<string, string>): void {
  for (const [title, text] of Object.entries(documents)) {
    store.putDocument({
      collection: 'test',
      source: `/docs/${title}.txt`,
      title,
      contentType: 'text/plain',
      contentHash: title,
      text,
      chunks: [{ kind: 'text', heading: '', text, start: 0, end: text.length }],
      vectors: [],
    });
  }
}

const titles = (hits: ReadonlyArray<{ title: string }>) => hits.map((hit) => hit.title);

describe('searchKnowledge expansion', () => {
  it('reaches a second hop that shares no word with the question through the name next to its words', async () => {
    put({
      'Kiss and Tell (film)':
        'Kiss and Tell is a comedy picture directed by Richard Wallace. ' +
        'Shirley Temple portrayed Corliss Archer, the teenage heroine.',
      'Meet Corliss Archer': 'Meet Corliss Archer is a radio comedy about the teenage Corliss Archer.',
      'A Kiss for Corliss': 'A Kiss for Corliss is a sequel in which Corliss Archer returns.',
      'Shirley Temple': 'Shirley Temple Black served as ambassador to Ghana and later as Chief of Protocol.',
      'Richard Wallace': 'Richard Wallace was a Scottish director born in Sacramento.',
    });
    const question =
      'What government position was held by the woman who portrayed Corliss Archer in Kiss and Tell?';
    const plain = await searchKnowledge({ store, query: question, limit: 5, expand: false });
    expect(titles(plain.hits)).not.toContain('Shirley Temple');

    const expanded = await searchKnowledge({ store, query: question, limit: 5 });
    const found = titles(expanded.hits);
    expect(found.slice(0, 2)).toEqual(titles(plain.hits).slice(0, 2));
    expect(found).toContain('Shirley Temple');
    const hop = expanded.hits.find((hit) => hit.title === 'Shirley Temple')!;
    expect(hop.explain.expansion?.entity).toBe('Shirley Temple');
    // Both directors and actresses are named by the first hop, but only the actress shares a
    // sentence with the question's words, so her paragraph ranks above the director's.
    const director = found.indexOf('Richard Wallace');
    if (director >= 0) expect(found.indexOf('Shirley Temple')).toBeLessThan(director);
    expect(expanded.entities.indexOf('Shirley Temple')).toBeLessThan(
      expanded.entities.includes('Richard Wallace') ? expanded.entities.indexOf('Richard Wallace') : Infinity,
    );
  });

  it('searches for each name the question holds, so a name made of common words is not crowded out', async () => {
    const distractors: Record<string, string> = {};
    for (const index of [1, 2, 3, 4, 5, 6]) {
      distractors[`Norway roads ${index}`] =
        `A road in Norway was founded as a local toll road; the local council of Norway ` +
        `founded road ${index} and a local museum.`;
    }
    put({
      ...distractors,
      'Local Road': 'Local Road is a rock band from Bergen, formed by two brothers.',
      'Halvorsen Quartet': 'The Halvorsen Quartet is a string quartet founded in Norway.',
    });
    const question = 'Were Local Road and Halvorsen Quartet both founded in Norway?';
    const plain = await searchKnowledge({ store, query: question, limit: 5, expand: false });
    expect(titles(plain.hits)).toContain('Halvorsen Quartet');
    expect(titles(plain.hits)).not.toContain('Local Road');

    const expanded = await searchKnowledge({ store, query: question, limit: 5 });
    expect(titles(expanded.hits)).toContain('Local Road');
    expect(expanded.hits.find((hit) => hit.title === 'Local Road')?.explain.expansion?.entity).toBe(
      'Local Road',
    );
  });

  it('keeps a place in the first ten for a second hop when many chunks share the question words', async () => {
    const documents: Record<string, string> = {
      'Harbour Lights (novel)':
        'Harbour Lights is a mystery novel about a lighthouse keeper, written by Ingrid Vale.',
      'Ingrid Vale': 'Ingrid Vale grew up in Tromsø and later taught at a school in Bergen.',
    };
    for (let index = 0; index < 14; index++)
      documents[`Lighthouse ${index}`] =
        `Lighthouse ${index}: a keeper tended this lighthouse in a mystery storm.`;
    // Unrelated chunks, so the question's words are not in most of the base (such words are dropped).
    for (let index = 0; index < 20; index++)
      documents[`Recipe ${index}`] = `Recipe ${index}: bake the bread slowly.`;
    put(documents);
    const question = 'Where did the writer of the mystery novel about a lighthouse keeper grow up?';
    const plain = await searchKnowledge({ store, query: question, limit: 10, expand: false });
    expect(titles(plain.hits)).not.toContain('Ingrid Vale');
    const expanded = await searchKnowledge({ store, query: question, limit: 10 });
    expect(titles(expanded.hits)).toContain('Ingrid Vale');
    expect(titles(expanded.hits).slice(0, 2)).toEqual(titles(plain.hits).slice(0, 2));
    // With room for twenty the reserved place is still within the first ten.
    const wide = await searchKnowledge({ store, query: question, limit: 20 });
    expect(titles(wide.hits).indexOf('Ingrid Vale')).toBeLessThan(10);
  });

  it('leaves out a name most of a large base holds: it is no lead', async () => {
    const documents: Record<string, string> = {};
    for (let index = 0; index < 30; index++)
      documents[`Item ${index}`] = `Item ${index} is sold by Acme Stores across the region.`;
    documents['Widget history'] = 'The widget was designed by Acme Stores and by Nora Lind in Oslo.';
    documents['Nora Lind'] = 'Nora Lind is an engineer from Oslo.';
    put(documents);
    const result = await searchKnowledge({ store, query: 'who designed the widget', limit: 5 });
    expect(result.entities).not.toContain('Acme Stores');
    expect(result.entities).toContain('Nora Lind');
    expect(titles(result.hits)).toContain('Nora Lind');
  });
});
