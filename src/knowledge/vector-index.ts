import { endianness } from 'node:os';
import { createStatementCache, type PreparedStatements } from '../platform/storage/statement-cache.js';
import type { KnowledgeDatabase, VectorBackend } from './open-knowledge-database.js';
import { cosine, createVectorCodes, floats } from './vector-codes.js';

export interface VectorNeighbour {
  chunkId: number;
  /** Cosine similarity in [-1, 1]. */
  similarity: number;
}

export interface NearestOptions {
  limit: number;
  collection?: string;
  /** Compare every stored vector whatever the base's size (the reference the approximate search is measured against). */
  exact?: boolean;
}

/** Chunk vectors of one dimension; the store drops and rebuilds it when the model changes. */
export interface VectorIndex {
  put(chunkId: number, collection: string, vector: Float32Array): void;
  remove(chunkIds: readonly number[]): void;
  nearest(vector: Float32Array, options: NearestOptions): VectorNeighbour[];
  /** Forgets every vector (a new embedding model). */
  clear(): void;
}

/**
 * Up to this many vectors a search compares them all (sqlite-vec's cosine in C, about 1 µs a
 * 768-d vector, or a scan in JS without it). Above it, the sign codes pick candidates and only
 * those are compared (vector-codes.ts): recall against the exact list is measured by bench:kb.
 */
export const exactVectorLimit = 10_000;
const codesKey = 'vector_codes';
// The codes' table layout is read as little-endian 32-bit words.
const littleEndian = endianness() === 'LE';

/**
 * Vectors as Float32 blobs in a plain table (`chunk_vectors_blob`, rowid = chunk id: a rescoring
 * read is one B-tree lookup) with their sign codes beside them. A base made when vectors lived in
 * sqlite-vec's vec0 table is moved over on first open with the extension.
 */
export function createVectorIndex(knowledge: KnowledgeDatabase, dimensions: number): VectorIndex {
  const { database } = knowledge;
  const statement = createStatementCache(database);
  const codes = createVectorCodes(database, dimensions);
  migrateVectors(knowledge, statement, dimensions, () => codes.rebuild());
  // Chosen on the first exact search: reading the backend loads sqlite-vec, which a base searched
  // through its codes (or not by vector at all) never needs.
  let exact: ReturnType<typeof createExactScan> | undefined;
  return {
    put(chunkId, collection, vector) {
      statement('INSERT OR REPLACE INTO chunk_vectors_blob (chunk_id, embedding) VALUES (?, ?)').run(
        chunkId,
        Buffer.from(vector.buffer, vector.byteOffset, vector.byteLength),
      );
      codes.put(chunkId, collection, vector);
    },
    remove(chunkIds) {
      const remove = statement('DELETE FROM chunk_vectors_blob WHERE chunk_id = ?');
      for (const id of chunkIds) remove.run(id);
      codes.remove(chunkIds);
    },
    nearest(vector, options) {
      if (vector.length !== dimensions || options.limit <= 0) return [];
      const approximate = !options.exact && littleEndian && codes.count() > exactVectorLimit;
      if (approximate) return codes.nearest(vector, options);
      exact ??= createExactScan(statement, knowledge.vectorBackend);
      return exact(vector, options);
    },
    clear() {
      statement('DELETE FROM chunk_vectors_blob').run();
      codes.clear();
    },
  };
}

/** Every stored vector compared: by sqlite-vec's vec_distance_cosine when it is loaded, else in JS. */
function createExactScan(statement: PreparedStatements, backend: VectorBackend) {
  const join =
    'JOIN chunks c ON c.id = v.chunk_id JOIN documents d ON d.id = c.document_id WHERE d.collection = ?';
  if (backend === 'sqlite-vec') {
    return (vector: Float32Array, options: NearestOptions): VectorNeighbour[] => {
      const select =
        'SELECT v.chunk_id, vec_distance_cosine(v.embedding, ?) AS distance FROM chunk_vectors_blob v';
      // A zero vector has no direction: its distance is NULL, sorted last and dropped.
      const order = 'ORDER BY distance NULLS LAST, v.chunk_id LIMIT ?';
      const rows = (
        options.collection
          ? statement(`${select} ${join} ${order}`).raw(true).all(vector, options.collection, options.limit)
          : statement(`${select} ${order}`).raw(true).all(vector, options.limit)
      ) as Array<[number, number | null]>;
      return rows
        .filter(([, distance]) => distance !== null)
        .map(([chunkId, distance]) => ({ chunkId, similarity: 1 - distance! }));
    };
  }
  return (vector: Float32Array, options: NearestOptions): VectorNeighbour[] => {
    const select = 'SELECT v.chunk_id, v.embedding FROM chunk_vectors_blob v';
    const rows = (
      options.collection
        ? statement(`${select} ${join}`).raw(true).iterate(options.collection)
        : statement(select).raw(true).iterate()
    ) as Iterable<[number, Buffer]>;
    const best: VectorNeighbour[] = [];
    const queryNorm = Math.sqrt(vector.reduce((sum, value) => sum + value * value, 0));
    for (const [chunkId, blob] of rows) {
      const similarity = cosine(vector, floats(blob), queryNorm);
      if (!Number.isNaN(similarity)) insertTopK(best, { chunkId, similarity }, options.limit);
    }
    return best;
  };
}

/**
 * Once per base: vectors kept in sqlite-vec's vec0 tables (before the codes) are copied to the
 * plain table and the vec0 tables dropped; then every vector gets its code. Without the extension a
 * vec0 table cannot be read, so the move waits for a process that has it.
 */
function migrateVectors(
  knowledge: KnowledgeDatabase,
  statement: PreparedStatements,
  dimensions: number,
  rebuildCodes: () => void,
): void {
  if (statement('SELECT 1 FROM meta WHERE key = ?').get(codesKey)) return;
  const vec0Tables = statement(
    "SELECT name FROM sqlite_master WHERE type = 'table' AND name GLOB 'chunk_vectors_[0-9]*' AND sql LIKE '%vec0%'",
  )
    .pluck()
    .all() as string[];
  if (vec0Tables.length > 0 && knowledge.vectorBackend !== 'sqlite-vec') return;
  knowledge.database.transaction(() => {
    for (const table of vec0Tables) {
      if (table === `chunk_vectors_${dimensions}`) {
        knowledge.database.exec(
          `INSERT OR REPLACE INTO chunk_vectors_blob (chunk_id, embedding) SELECT chunk_id, embedding FROM ${table}`,
        );
      }
      knowledge.database.exec(`DROP TABLE ${table}`);
    }
    rebuildCodes();
    statement("INSERT OR REPLACE INTO meta (key, value) VALUES (?, '1')").run(codesKey);
  })();
}

/** Keeps `best` sorted by similarity, at most `limit` long. */
function insertTopK(best: VectorNeighbour[], item: VectorNeighbour, limit: number): void {
  if (best.length === limit && item.similarity <= best[best.length - 1]!.similarity) return;
  let index = best.length;
  while (index > 0 && best[index - 1]!.similarity < item.similarity) index--;
  best.splice(index, 0, item);
  if (best.length > limit) best.pop();
}
