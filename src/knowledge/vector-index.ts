import type BetterSqlite3 from 'better-sqlite3';
import type { KnowledgeDatabase } from './open-knowledge-database.js';

export interface VectorNeighbour {
  chunkId: number;
  /** Cosine similarity in [-1, 1]. */
  similarity: number;
}

/** Chunk vectors of one dimension; the store drops and rebuilds it when the model changes. */
export interface VectorIndex {
  put(chunkId: number, collection: string, vector: Float32Array): void;
  remove(chunkIds: readonly number[]): void;
  nearest(vector: Float32Array, options: { limit: number; collection?: string }): VectorNeighbour[];
  /** Forgets every vector (a new embedding model). */
  clear(): void;
}

/**
 * sqlite-vec's vec0 table (cosine distance, collection as a metadata column filtered inside the
 * KNN query), or an exact scan over Float32 blobs when the extension is not available. Both are
 * exact: vec0 is a brute-force index too, only in C.
 */
export function createVectorIndex(knowledge: KnowledgeDatabase, dimensions: number): VectorIndex {
  return knowledge.vectorBackend === 'sqlite-vec'
    ? createSqliteVecIndex(knowledge.database, dimensions)
    : createExactScanIndex(knowledge.database);
}

function createSqliteVecIndex(database: BetterSqlite3.Database, dimensions: number): VectorIndex {
  const table = `chunk_vectors_${dimensions}`;
  database.exec(
    `CREATE VIRTUAL TABLE IF NOT EXISTS ${table} USING vec0(` +
      `chunk_id INTEGER PRIMARY KEY, collection TEXT, embedding float[${dimensions}] distance_metric=cosine)`,
  );
  const insert = database.prepare(
    `INSERT OR REPLACE INTO ${table} (chunk_id, collection, embedding) VALUES (?, ?, ?)`,
  );
  const remove = database.prepare(`DELETE FROM ${table} WHERE chunk_id = ?`);
  const nearestAll = database.prepare(
    `SELECT chunk_id, distance FROM ${table} WHERE embedding MATCH ? AND k = ? ORDER BY distance`,
  );
  const nearestIn = database.prepare(
    `SELECT chunk_id, distance FROM ${table} WHERE embedding MATCH ? AND k = ? AND collection = ? ORDER BY distance`,
  );
  return {
    put: (chunkId, collection, vector) => insert.run(BigInt(chunkId), collection, vector),
    remove(chunkIds) {
      for (const id of chunkIds) remove.run(BigInt(id));
    },
    nearest(vector, options) {
      const rows = (
        options.collection
          ? nearestIn.all(vector, options.limit, options.collection)
          : nearestAll.all(vector, options.limit)
      ) as Array<{ chunk_id: number; distance: number }>;
      return rows.map((row) => ({ chunkId: row.chunk_id, similarity: 1 - row.distance }));
    },
    clear: () => database.exec(`DELETE FROM ${table}`),
  };
}

function createExactScanIndex(database: BetterSqlite3.Database): VectorIndex {
  const insert = database.prepare(
    'INSERT OR REPLACE INTO chunk_vectors_blob (chunk_id, embedding) VALUES (?, ?)',
  );
  const remove = database.prepare('DELETE FROM chunk_vectors_blob WHERE chunk_id = ?');
  const scanAll = database.prepare('SELECT chunk_id, embedding FROM chunk_vectors_blob');
  const scanIn = database.prepare(
    'SELECT v.chunk_id, v.embedding FROM chunk_vectors_blob v JOIN chunks c ON c.id = v.chunk_id ' +
      'JOIN documents d ON d.id = c.document_id WHERE d.collection = ?',
  );
  return {
    put: (chunkId, _collection, vector) =>
      insert.run(chunkId, Buffer.from(vector.buffer, vector.byteOffset, vector.byteLength)),
    remove(chunkIds) {
      for (const id of chunkIds) remove.run(id);
    },
    nearest(vector, options) {
      const best: VectorNeighbour[] = [];
      const rows = (options.collection ? scanIn.iterate(options.collection) : scanAll.iterate()) as Iterable<{
        chunk_id: number;
        embedding: Buffer;
      }>;
      const queryNorm = norm(vector);
      for (const row of rows) {
        const stored = new Float32Array(
          row.embedding.buffer,
          row.embedding.byteOffset,
          row.embedding.byteLength / 4,
        );
        const similarity = cosine(vector, stored, queryNorm);
        insertTopK(best, { chunkId: row.chunk_id, similarity }, options.limit);
      }
      return best;
    },
    clear: () => database.exec('DELETE FROM chunk_vectors_blob'),
  };
}

function norm(vector: Float32Array): number {
  let sum = 0;
  for (let index = 0; index < vector.length; index++) sum += vector[index]! * vector[index]!;
  return Math.sqrt(sum);
}

function cosine(query: Float32Array, stored: Float32Array, queryNorm: number): number {
  if (stored.length !== query.length) return -1;
  let dot = 0;
  let storedNorm = 0;
  for (let index = 0; index < query.length; index++) {
    dot += query[index]! * stored[index]!;
    storedNorm += stored[index]! * stored[index]!;
  }
  const denominator = queryNorm * Math.sqrt(storedNorm);
  return denominator > 0 ? dot / denominator : 0;
}

/** Keeps `best` sorted by similarity, at most `limit` long. */
function insertTopK(best: VectorNeighbour[], item: VectorNeighbour, limit: number): void {
  if (best.length === limit && item.similarity <= best[best.length - 1]!.similarity) return;
  let index = best.length;
  while (index > 0 && best[index - 1]!.similarity < item.similarity) index--;
  best.splice(index, 0, item);
  if (best.length > limit) best.pop();
}
