import type { EmbeddingProvider } from '../providers/spec/embedding-provider.js';
import type { KnowledgeStore } from './knowledge-store.js';

/** The text embedded for a chunk: its document title and headings give a lone paragraph its topic. */
export function embeddingText(chunk: { title: string; heading: string; text: string }): string {
  return [chunk.title, chunk.heading, chunk.text].filter(Boolean).join('\n');
}

/** How the store names a provider's vectors: a different name means incomparable vectors. */
export function embeddingModelName(embedding: EmbeddingProvider): string {
  return `${embedding.id}/${embedding.model}`;
}

/**
 * Makes sure the store's vectors come from `embedding`: on first use it records the model and
 * dimension; when they differ from the recorded ones every chunk is embedded again (vectors of
 * two models are never mixed). Returns the number of chunks re-embedded.
 */
export async function syncEmbeddingModel(options: {
  store: KnowledgeStore;
  embedding: EmbeddingProvider;
  signal?: AbortSignal;
}): Promise<number> {
  const { store, embedding, signal } = options;
  const probe = await embedding.embed(['dimension probe'], { task: 'passage', signal });
  const vector = probe.vectors[0];
  if (!vector) throw probe.failures[0] ?? new Error('the embedding provider returned no vector');
  const changed = store.useEmbeddingModel({
    model: embeddingModelName(embedding),
    dimensions: vector.length,
  });
  if (!changed) return 0;
  let count = 0;
  for (const document of store.listDocuments()) {
    const chunks = store.documentChunks(document.id);
    const result = await embedding.embed(chunks.map(embeddingText), { task: 'passage', signal });
    chunks.forEach((chunk, index) => {
      const chunkVector = result.vectors[index];
      if (chunkVector) store.putVector(chunk.id, chunk.collection, chunkVector);
    });
    count += chunks.length;
  }
  return count;
}

/** True when the store's vectors were made by this provider (else vector search is skipped). */
export function vectorsMatch(store: KnowledgeStore, embedding: EmbeddingProvider): boolean {
  return store.embeddingModel()?.model === embeddingModelName(embedding);
}
