import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { KnowledgeStore } from './knowledge-store.js';
import { exactVectorLimit } from './vector-index.js';

const dimensions = 64;
let folder: string;
const stores: KnowledgeStore[] = [];

beforeEach(() => {
  folder = mkdtempSync(join(tmpdir(), 'vector-index-'));
});
afterEach(() => {
  for (const store of stores.splice(0)) store.close();
  rmSync(folder, { recursive: true, force: true });
});

function seeded(seed: number) {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 2 ** 32 - 0.5;
  };
}

/** Vectors around 200 centres sharing one direction, as a model's embeddings cluster by topic. */
function clusteredVectors(count: number) {
  const random = seeded(11);
  const common = Float32Array.from({ length: dimensions }, random);
  const centres = Array.from({ length: 200 }, () => Float32Array.from({ length: dimensions }, random));
  return Array.from({ length: count }, (_, index) =>
    Float32Array.from(
      { length: dimensions },
      (_, dimension) => common[dimension]! + centres[index % 200]![dimension]! + 0.6 * random(),
    ),
  );
}

function open(file = join(folder, 'kb.sqlite'), vectorBackend?: 'exact-scan') {
  const store = new KnowledgeStore({ file, vectorBackend });
  stores.push(store);
  store.useEmbeddingModel({ model: 'test/clustered', dimensions });
  return store;
}

/** Documents of 50 chunks, the i-th chunk's vector vectors[i]; collection "even"/"odd" by document. */
function fill(store: KnowledgeStore, vectors: Float32Array[], first = 0) {
  for (let start = 0; start < vectors.length; start += 50) {
    const slice = vectors.slice(start, start + 50);
    const document = (first + start) / 50;
    store.putDocument({
      collection: document % 2 === 0 ? 'even' : 'odd',
      source: `/doc/${document}.txt`,
      title: `doc ${document}`,
      contentType: 'text/plain',
      contentHash: String(document),
      text: 'x',
      chunks: slice.map(() => ({ kind: 'text', heading: '', text: 'x', start: 0, end: 1 })),
      vectors: slice,
    });
  }
}

function recallAt(store: KnowledgeStore, queries: Float32Array[], k: number): number {
  let found = 0;
  for (const query of queries) {
    const exact = store.nearest(query, { limit: k, exact: true }).map((hit) => hit.chunkId);
    const approximate = new Set(store.nearest(query, { limit: k }).map((hit) => hit.chunkId));
    found += exact.filter((id) => approximate.has(id)).length;
  }
  return found / (queries.length * k);
}

describe('vector index', () => {
  it('above the exact limit, finds through the sign codes what the exact scan finds', () => {
    const vectors = clusteredVectors(exactVectorLimit + 500);
    const store = open();
    fill(store, vectors);
    const random = seeded(5);
    const queries = Array.from({ length: 20 }, (_, index) =>
      vectors[index * 499]!.map((value) => value + 0.3 * random()),
    );
    const { database } = store.knowledge;
    const sqliteVecLoaded = () => {
      try {
        return Boolean(database.prepare('SELECT vec_version()').pluck().get());
      } catch {
        return false;
      }
    };
    // Searches through the codes (and by full text) never load sqlite-vec; the exact scan does.
    store.nearest(vectors[1]!, { limit: 10 });
    expect(store.fullText('x', { limit: 5 }).length).toBeGreaterThan(0);
    expect(sqliteVecLoaded()).toBe(false);
    expect(recallAt(store, queries, 10)).toBeGreaterThanOrEqual(0.95);
    expect(sqliteVecLoaded()).toBe(true);
    // The search went through the codes (loading them stores their snapshot; the exact scan does not).
    expect(database.prepare('SELECT count(*) FROM vector_code_snapshot').pluck().get()).toBe(1);
    // A stored vector is its own nearest neighbour, with its exact cosine.
    const [top] = store.nearest(vectors[1234]!, { limit: 1 });
    expect(top!.similarity).toBeCloseTo(1, 5);
    expect(store.chunks([top!.chunkId]).get(top!.chunkId)!.source).toBe('/doc/24.txt');
    // A collection filter keeps the candidates inside it.
    const odd = store.nearest(vectors[1234]!, { limit: 20, collection: 'odd' });
    expect(odd).toHaveLength(20);
    const chunks = store.chunks(odd.map((hit) => hit.chunkId));
    expect([...chunks.values()].every((chunk) => chunk.collection === 'odd')).toBe(true);
    expect(store.nearest(vectors[0]!, { limit: 5, collection: 'none' })).toEqual([]);
  });

  it("sees this process's and another process's writes, and the next process reads the stored codes", () => {
    const vectors = clusteredVectors(exactVectorLimit + 100);
    const file = join(folder, 'shared.sqlite');
    const writer = open(file);
    fill(writer, vectors.slice(0, exactVectorLimit + 50));
    const reader = open(file);
    const probe = vectors[exactVectorLimit + 60]!;
    const before = reader.nearest(probe, { limit: 1 })[0]!;
    expect(before.similarity).toBeLessThan(0.9999);
    // Another connection adds the probe's own vector: the reader's codes are read again.
    fill(writer, vectors.slice(exactVectorLimit + 50), exactVectorLimit + 50);
    const after = reader.nearest(probe, { limit: 1 })[0]!;
    expect(after.similarity).toBeCloseTo(1, 5);
    // The writer removes it again; its own next search no longer finds it.
    writer.removeDocuments(`/doc/${(exactVectorLimit + 50) / 50}.txt`);
    expect(writer.nearest(probe, { limit: 1 })[0]!.chunkId).not.toBe(after.chunkId);
    expect(reader.nearest(probe, { limit: 1 })[0]!.chunkId).not.toBe(after.chunkId);
    // The last load stored its snapshot: a new process reads it instead of every row.
    const snapshot = reader.knowledge.database
      .prepare('SELECT generation, length(ids) / 8 AS count FROM vector_code_snapshot')
      .get() as { generation: string; count: number };
    expect(snapshot.count).toBe(exactVectorLimit + 50);
    const fresh = open(file);
    expect(fresh.nearest(probe, { limit: 5 })).toEqual(reader.nearest(probe, { limit: 5 }));
  });

  it('forgets the vectors, their codes and the snapshot when the embedding model changes', () => {
    const vectors = clusteredVectors(exactVectorLimit + 50);
    const file = join(folder, 'model.sqlite');
    const store = open(file);
    fill(store, vectors);
    expect(store.nearest(vectors[0]!, { limit: 1 })[0]!.chunkId).toBe(1);
    const count = (table: string) =>
      store.knowledge.database.prepare(`SELECT count(*) FROM ${table}`).pluck().get() as number;
    expect(count('vector_code_snapshot')).toBe(1);
    expect(store.useEmbeddingModel({ model: 'test/other', dimensions: 32 })).toBe(true);
    expect([count('chunk_vectors_blob'), count('chunk_vector_codes'), count('vector_code_snapshot')]).toEqual(
      [0, 0, 0],
    );
    expect(store.nearest(new Float32Array(32).fill(1), { limit: 1 })).toEqual([]);
  });

  it('compares every vector of a small base, without sqlite-vec too, and skips zero vectors', () => {
    for (const backend of [undefined, 'exact-scan'] as const) {
      const store = open(join(folder, `small-${backend}.sqlite`), backend);
      const vectors = clusteredVectors(120);
      vectors[7] = new Float32Array(dimensions);
      fill(store, vectors);
      const hits = store.nearest(vectors[3]!, { limit: 120 });
      expect(hits[0]).toEqual({ chunkId: 4, similarity: expect.closeTo(1, 5) });
      expect(hits).toHaveLength(119);
      expect(hits.some((hit) => hit.chunkId === 8)).toBe(false);
      const even = store.nearest(vectors[3]!, { limit: 120, collection: 'even' });
      expect(even.map((hit) => hit.chunkId).sort((a, b) => a - b)).toEqual(
        Array.from({ length: 120 }, (_, index) => index + 1).filter(
          (id) => (id <= 50 || id > 100) && id !== 8,
        ),
      );
      expect(store.nearest(new Float32Array(dimensions), { limit: 5 })).toEqual([]);
    }
  });

  it('moves the vectors of a base made with sqlite-vec vec0 tables to the plain table, with codes', () => {
    const file = join(folder, 'old.sqlite');
    const vectors = clusteredVectors(60);
    const store = open(file);
    fill(store, vectors);
    // The layout before the codes: vectors only in a vec0 table, no codes, no migration mark.
    const { database } = store.knowledge;
    expect(store.vectorBackend).toBe('sqlite-vec');
    database.exec(
      `CREATE VIRTUAL TABLE chunk_vectors_${dimensions} USING vec0(chunk_id INTEGER PRIMARY KEY, collection TEXT, embedding float[${dimensions}] distance_metric=cosine)`,
    );
    database.exec(
      `INSERT INTO chunk_vectors_${dimensions} (chunk_id, collection, embedding) SELECT chunk_id, 'even', embedding FROM chunk_vectors_blob`,
    );
    database.exec(
      "DELETE FROM chunk_vectors_blob; DELETE FROM chunk_vector_codes; DELETE FROM meta WHERE key IN ('vector_codes', 'vector_centre')",
    );
    stores.pop()!.close();
    const reopened = new KnowledgeStore({ file });
    stores.push(reopened);
    expect(reopened.nearest(vectors[10]!, { limit: 1 })[0]).toEqual({
      chunkId: 11,
      similarity: expect.closeTo(1, 5),
    });
    const tables = reopened.knowledge.database
      .prepare("SELECT name FROM sqlite_master WHERE name LIKE 'chunk_vectors_%'")
      .pluck()
      .all();
    expect(tables).toEqual(['chunk_vectors_blob']);
    expect(reopened.knowledge.database.prepare('SELECT count(*) FROM chunk_vector_codes').pluck().get()).toBe(
      60,
    );
  });
});
