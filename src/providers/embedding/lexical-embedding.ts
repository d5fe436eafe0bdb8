import { termsOf, tokenize } from '../../retrieval/tokenize.js';
import type { EmbeddingProvider, EmbeddingResult } from '../spec/embedding-provider.js';

export const lexicalEmbeddingDimensions = 1024;

/**
 * The built-in embedding: hashed word and character-trigram features, L2-normalised. Lexical, not
 * semantic, but it needs no service and catches reworded duplicates ("best pizza new york" vs
 * "new york best pizza", typos, plurals), which is what query dedup needs from it.
 */
export function createLexicalEmbedding(): EmbeddingProvider {
  return {
    specificationVersion: 'v1',
    id: 'builtin',
    model: `hashed-ngrams-${lexicalEmbeddingDimensions}`,
    builtin: true,
    async embed(texts): Promise<EmbeddingResult> {
      return { vectors: texts.map((text) => hashedNgramVector(text)), failures: [] };
    },
  };
}

export function hashedNgramVector(text: string, dimensions = lexicalEmbeddingDimensions): Float32Array {
  const vector = new Float32Array(dimensions);
  const terms = termsOf(text);
  for (const term of terms.length > 0 ? terms : tokenize(text)) {
    addFeature(vector, `w:${term}`, 1);
    const padded = `#${term}#`;
    const trigrams = Math.max(1, padded.length - 2);
    for (let index = 0; index + 3 <= padded.length; index++) {
      addFeature(vector, padded.slice(index, index + 3), 1 / Math.sqrt(trigrams));
    }
  }
  let norm = 0;
  for (const value of vector) norm += value * value;
  if (norm > 0) {
    const scale = 1 / Math.sqrt(norm);
    for (let index = 0; index < dimensions; index++) vector[index]! *= scale;
  }
  return vector;
}

function addFeature(vector: Float32Array, feature: string, weight: number): void {
  const hash = fnv1a(feature);
  // The sign bit spreads collisions around zero instead of piling them up.
  vector[hash % vector.length]! += hash & 0x80000000 ? -weight : weight;
}

function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (let index = 0; index < text.length; index++) {
    hash ^= text.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}
