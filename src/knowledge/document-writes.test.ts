import { describe, expect, it } from 'vitest';
import { addTextDocument } from '../../test/helpers/add-text-document.js';
import { KnowledgeStore } from './knowledge-store.js';

const sources = (store: KnowledgeStore) => store.listDocuments().map((document) => document.source);

describe('removeDocuments', () => {
  it('removes a file or a folder of them, and nothing for an empty name', () => {
    const store = new KnowledgeStore({ file: ':memory:', vectorBackend: 'exact-scan' });
    for (const source of ['/home/a/notes/one.txt', '/home/a/notes/two.txt', '/home/a/other.txt'])
      addTextDocument(store, source, `The text of ${source}.`);
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
