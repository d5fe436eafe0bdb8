import type { KnowledgeStore } from '../../src/knowledge/knowledge-store.js';

/** Stores a plain-text document of one chunk, without vectors: the smallest knowledge-store fixture. */
export function addTextDocument(store: KnowledgeStore, source: string, text: string): void {
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
