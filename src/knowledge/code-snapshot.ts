import type BetterSqlite3 from 'better-sqlite3';
import type { PreparedStatements } from '../platform/storage/statement-cache.js';

/** The sign codes of every stored vector, in memory: what an approximate search scans. */
export interface CodeSnapshot {
  /** The codes' generation (meta) it was read at; a write bumps it. */
  generation: string;
  count: number;
  ids: Float64Array;
  /** `count` codes of `words` 32-bit words each. */
  codes: Uint32Array;
  collectionOf: Uint32Array;
  collections: Map<string, number>;
}

export const codesGenerationKey = 'vector_codes_generation';

/**
 * Reads the codes: the stored snapshot (one row of four blobs, ~10 MB for 100,000 vectors, read in
 * a few ms) when it was made at the current generation, else the codes' rows (one per vector, ~1.5
 * µs each) — and then stores the snapshot for the next process. Both reads happen inside one read
 * transaction, so the generation is that of the rows read.
 */
export function loadCodeSnapshot(
  database: BetterSqlite3.Database,
  statement: PreparedStatements,
  words: number,
): CodeSnapshot {
  let fromRows = false;
  const snapshot = database.transaction(() => {
    const generation = String(
      statement('SELECT value FROM meta WHERE key = ?').pluck().get(codesGenerationKey) ?? 0,
    );
    const stored = readStored(statement, generation, words);
    if (stored) return stored;
    fromRows = true;
    return readRows(statement, generation, words);
  })();
  if (fromRows) storeSnapshot(database, statement, snapshot);
  return snapshot;
}

function readStored(statement: PreparedStatements, generation: string, words: number) {
  const row = statement(
    'SELECT ids, codes, collection_of, collections FROM vector_code_snapshot WHERE id = 1 AND generation = ?',
  )
    .raw(true)
    .get(generation) as [Buffer, Buffer, Buffer, string] | undefined;
  if (!row) return undefined;
  const [ids, codes, collectionOf, names] = row;
  const count = ids.byteLength / 8;
  if (codes.byteLength !== count * words * 4 || collectionOf.byteLength !== count * 4) return undefined;
  return {
    generation,
    count,
    ids: new Float64Array(copy(ids)),
    codes: new Uint32Array(copy(codes)),
    collectionOf: new Uint32Array(copy(collectionOf)),
    collections: new Map((JSON.parse(names) as string[]).map((name, index) => [name, index])),
  } satisfies CodeSnapshot;
}

// Three narrow scans in rowid order: one value per row is cheaper to bring into JS than a row of three.
function readRows(statement: PreparedStatements, generation: string, words: number): CodeSnapshot {
  const column = (name: string) =>
    statement(`SELECT ${name} FROM chunk_vector_codes ORDER BY chunk_id`).pluck().all() as unknown[];
  const ids = Float64Array.from(column('chunk_id') as number[]);
  const codes = new Uint32Array(ids.length * words);
  const bytes = new Uint8Array(codes.buffer);
  (column('code') as Buffer[]).forEach((code, index) => {
    bytes.set(code.subarray(0, words * 4), index * words * 4);
  });
  const collections = new Map<string, number>();
  const collectionOf = Uint32Array.from(column('collection') as string[], (name) => {
    if (!collections.has(name)) collections.set(name, collections.size);
    return collections.get(name)!;
  });
  return { generation, count: ids.length, ids, codes, collectionOf, collections };
}

/**
 * Stored only if the generation is still current, and only if the file is free at once: a search
 * never waits for an ingest's write lock to save the next process some time.
 */
function storeSnapshot(
  database: BetterSqlite3.Database,
  statement: PreparedStatements,
  snapshot: CodeSnapshot,
): void {
  const timeout = database.pragma('busy_timeout', { simple: true }) as number;
  database.pragma('busy_timeout = 0');
  try {
    database
      .transaction(() => {
        const now = String(
          statement('SELECT value FROM meta WHERE key = ?').pluck().get(codesGenerationKey) ?? 0,
        );
        if (now !== snapshot.generation) return;
        statement(
          'INSERT OR REPLACE INTO vector_code_snapshot (id, generation, ids, codes, collection_of, collections) VALUES (1, ?, ?, ?, ?, ?)',
        ).run(
          snapshot.generation,
          bytesOf(snapshot.ids),
          bytesOf(snapshot.codes),
          bytesOf(snapshot.collectionOf),
          JSON.stringify([...snapshot.collections.keys()]),
        );
      })
      .immediate();
  } catch {
    // Busy or read-only: the next process reads the rows again.
  } finally {
    database.pragma(`busy_timeout = ${timeout}`);
  }
}

function bytesOf(array: Float64Array | Uint32Array): Buffer {
  return Buffer.from(array.buffer, array.byteOffset, array.byteLength);
}

/** A blob's bytes in an ArrayBuffer of their own (aligned for typed arrays). */
function copy(blob: Buffer): ArrayBuffer {
  return blob.buffer.slice(blob.byteOffset, blob.byteOffset + blob.byteLength) as ArrayBuffer;
}
