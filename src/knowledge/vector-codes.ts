import type BetterSqlite3 from 'better-sqlite3';
import { createStatementCache } from '../platform/storage/statement-cache.js';
import { type CodeSnapshot, codesGenerationKey, loadCodeSnapshot } from './code-snapshot.js';
import { codeWords, dot, queryTable, scoreCodes, signCode, topIndexes } from './sign-codes.js';
import type { VectorNeighbour } from './vector-index.js';

/** Codes scored, best first, whose stored vectors are compared exactly (at least; 20 per hit above that). */
export const rescoredCandidates = 1000;
// The centre is the mean of the vectors when it was last computed; it is computed again (and every
// code with it) when the base has doubled since, from this many vectors on. Below that the codes
// are around the origin: only bases of more than exactVectorLimit vectors read them.
const centreFrom = 1024;
const centreKey = 'vector_centre';

export interface VectorCodes {
  put(chunkId: number, collection: string, vector: Float32Array): void;
  remove(chunkIds: readonly number[]): void;
  clear(): void;
  /** Codes are computed again around a fresh centre (a migrated base, or one that doubled). */
  rebuild(): void;
  /** How many vectors have codes (known without loading them). */
  count(): number;
  /** The best `limit` by exact cosine among the codes' best candidates. */
  nearest(vector: Float32Array, options: { limit: number; collection?: string }): VectorNeighbour[];
}

/**
 * The sign codes of the stored vectors (sign-codes.ts) in `chunk_vector_codes`, and a search over
 * them held in memory: every code scored against the query, the best candidates' stored vectors
 * (`chunk_vectors_blob`, read by rowid) compared exactly. The codes are loaded (code-snapshot.ts)
 * on first search and again after a write, this process's or another's (a generation counter in
 * `meta`, read when SQLite's data_version says the file changed).
 */
export function createVectorCodes(database: BetterSqlite3.Database, dimensions: number): VectorCodes {
  const statement = createStatementCache(database);
  const words = codeWords(dimensions);
  let centre: { values: Float32Array; count: number } | undefined = readCentre(statement);
  let written: number | undefined;
  let snapshot: CodeSnapshot | undefined;
  let counted: { generation: string; count: number } | undefined;
  let dataVersion: number | undefined;
  let generation: string | undefined;

  const bump = () => {
    statement(
      'INSERT INTO meta (key, value) VALUES (?, 1) ON CONFLICT(key) DO UPDATE SET value = CAST(value AS INTEGER) + 1',
    ).run(codesGenerationKey);
    generation = undefined;
  };
  const currentGeneration = (): string => {
    const version = statement('PRAGMA data_version').pluck().get() as number;
    if (generation === undefined || version !== dataVersion) {
      dataVersion = version;
      generation = String(
        statement('SELECT value FROM meta WHERE key = ?').pluck().get(codesGenerationKey) ?? 0,
      );
      centre = readCentre(statement);
    }
    return generation;
  };
  const insert = (chunkId: number, collection: string, vector: Float32Array) =>
    statement('INSERT OR REPLACE INTO chunk_vector_codes (chunk_id, collection, code) VALUES (?, ?, ?)').run(
      chunkId,
      collection,
      signCode(vector, centre?.values),
    );

  const codes: VectorCodes = {
    put(chunkId, collection, vector) {
      // Another process may have moved the centre since: the generation check reads it again.
      currentGeneration();
      written = (written ?? codes.count()) + 1;
      insert(chunkId, collection, vector);
      bump();
      if (written >= centreFrom && written > 2 * (centre?.count ?? 0)) codes.rebuild();
    },
    remove(chunkIds) {
      const remove = statement('DELETE FROM chunk_vector_codes WHERE chunk_id = ?');
      for (const id of chunkIds) remove.run(id);
      bump();
      written = undefined;
    },
    clear() {
      statement('DELETE FROM chunk_vector_codes').run();
      statement('DELETE FROM vector_code_snapshot').run();
      statement('DELETE FROM meta WHERE key = ?').run(centreKey);
      centre = undefined;
      bump();
      written = undefined;
    },
    rebuild() {
      database.transaction(() => {
        centre = meanOfStoredVectors(statement, dimensions);
        statement('INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)').run(
          centreKey,
          JSON.stringify({ count: centre.count, values: [...centre.values] }),
        );
        statement('DELETE FROM chunk_vector_codes').run();
        // In pages by rowid: better-sqlite3 runs no other statement while one is being iterated.
        const page = statement(
          'SELECT v.chunk_id, v.embedding, d.collection FROM chunk_vectors_blob v ' +
            'JOIN chunks c ON c.id = v.chunk_id JOIN documents d ON d.id = c.document_id ' +
            'WHERE v.chunk_id > ? ORDER BY v.chunk_id LIMIT 1000',
        ).raw(true);
        for (let after = -1; ; ) {
          const rows = page.all(after) as Array<[number, Buffer, string]>;
          for (const [id, blob, collection] of rows) insert(id, collection, floats(blob));
          if (rows.length < 1000) break;
          after = rows.at(-1)![0];
        }
        bump();
        written = centre.count;
      })();
    },
    count() {
      const now = currentGeneration();
      if (snapshot?.generation === now) return snapshot.count;
      if (counted?.generation !== now) {
        const count = statement('SELECT count(*) FROM chunk_vector_codes').pluck().get() as number;
        counted = { generation: now, count };
      }
      return counted.count;
    },
    nearest(vector, options) {
      const now = currentGeneration();
      if (snapshot?.generation !== now) snapshot = loadCodeSnapshot(database, statement, words);
      const candidates = candidatesOf(snapshot, words, vector, {
        limit: Math.max(rescoredCandidates, options.limit * 20),
        collection: options.collection,
      });
      return rescore(statement, vector, candidates, options.limit);
    },
  };
  return codes;
}

function candidatesOf(
  snapshot: CodeSnapshot,
  words: number,
  vector: Float32Array,
  options: { limit: number; collection?: string },
): number[] {
  const scores = new Float32Array(snapshot.count);
  const only = options.collection === undefined ? undefined : snapshot.collections.get(options.collection);
  if (options.collection !== undefined && only === undefined) return [];
  scoreCodes({
    codes: snapshot.codes,
    count: snapshot.count,
    words,
    table: queryTable(vector),
    scores,
    skip: only === undefined ? undefined : (index) => snapshot.collectionOf[index] !== only,
  });
  return topIndexes(scores, snapshot.count, options.limit).map((index) => snapshot.ids[index]!);
}

/** The candidates' stored vectors, read in one statement, ranked by exact cosine. */
function rescore(
  statement: ReturnType<typeof createStatementCache>,
  vector: Float32Array,
  chunkIds: number[],
  limit: number,
): VectorNeighbour[] {
  const rows = statement(
    'SELECT chunk_id, embedding FROM chunk_vectors_blob WHERE chunk_id IN (SELECT value FROM json_each(?))',
  )
    .raw(true)
    .all(JSON.stringify(chunkIds)) as Array<[number, Buffer]>;
  const queryNorm = Math.sqrt(dot(vector, vector));
  return rows
    .map(([chunkId, blob]) => ({ chunkId, similarity: cosine(vector, floats(blob), queryNorm) }))
    .filter((neighbour) => !Number.isNaN(neighbour.similarity))
    .sort((a, b) => b.similarity - a.similarity || a.chunkId - b.chunkId)
    .slice(0, limit);
}

function meanOfStoredVectors(statement: ReturnType<typeof createStatementCache>, dimensions: number) {
  const sum = new Float64Array(dimensions);
  let count = 0;
  const rows = statement('SELECT embedding FROM chunk_vectors_blob').pluck();
  for (const blob of rows.iterate() as Iterable<Buffer>) {
    const vector = floats(blob);
    if (vector.length !== dimensions) continue;
    const scale = 1 / (Math.sqrt(dot(vector, vector)) || 1);
    for (let index = 0; index < dimensions; index++) sum[index]! += vector[index]! * scale;
    count++;
  }
  return { values: Float32Array.from(sum, (value) => value / Math.max(1, count)), count };
}

function readCentre(statement: ReturnType<typeof createStatementCache>) {
  const text = statement('SELECT value FROM meta WHERE key = ?').pluck().get(centreKey) as string | undefined;
  if (!text) return undefined;
  const parsed = JSON.parse(text) as { count: number; values: number[] };
  return { count: parsed.count, values: Float32Array.from(parsed.values) };
}

/** A stored vector's floats (copied when the blob is not 4-byte aligned). */
export function floats(blob: Buffer): Float32Array {
  if (blob.byteOffset % 4 === 0) return new Float32Array(blob.buffer, blob.byteOffset, blob.byteLength / 4);
  return new Float32Array(Uint8Array.from(blob).buffer);
}

/** NaN when either vector is zero (it has no direction) or their lengths differ: no neighbour. */
export function cosine(query: Float32Array, stored: Float32Array, queryNorm: number): number {
  if (stored.length !== query.length) return Number.NaN;
  const denominator = queryNorm * Math.sqrt(dot(stored, stored));
  return denominator > 0 ? dot(query, stored) / denominator : Number.NaN;
}
