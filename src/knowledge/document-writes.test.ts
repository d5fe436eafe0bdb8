import { describe, expect, it } from 'vitest';
import { KnowledgeStore } from './knowledge-store.js';

function addDocument(store: KnowledgeStore, source: string) {
  const text = `The text of ${source}.`;
  store.putDocument({
    collection: 'default',
    source,
    title: source,
    contentType: 'text/plain',
    contentHash: source,
    text,
    chunks: [{ kind: 'text', heading: '', text, start: 0, end: text.length }],
    vectors: [],
  });
}

const sources = (store: KnowledgeStore) => store.listDocuments().map((document) => document.source);

describe('removeDocuments', () => {
  it('removes a file or a folder of them, and nothing for an empty name', () => {
    const store = new KnowledgeStore({ file: ':memory:', vectorBackend: 'exact-scan' });
    for (const source of ['/home/a/notes/one.txt', '/home/a/notes/two.txt', '/home/a/other.txt'])
      addDocument(store, source);
    // An empty name (`kb remove ""`) is no folder: it must not match every absolute path.
    expect(store.removeDocuments('')).toEqual([]);
    expect(store.removeDocuments('/')).toEqual([]);
    expect(sources(store)).toHaveLength(3);
    expect(
      store
        .removeDocuments('/home/a/notes/')
        .map((document) => document.source)
        .sort(),
    ).toEqual(['/home/a/notes/one.txt', '/home/a/notes/two.txt']);
    expect(store.removeDocuments('/home/a/other.txt')).toHaveLength(1);
    expect(sources(store)).toEqual([]);
    store.close();
  });
});
