import { createHash } from 'node:crypto';
import type BetterSqlite3 from 'better-sqlite3';
import { analysisText } from './analysis/analysis-text.js';
import type { ChunkAnalysis } from './analysis/analyze-chunk-prompt.js';
import type { DocumentChunk } from './chunk-document.js';
import {
  type KnowledgeDatabase,
  openKnowledgeDatabase,
  type VectorBackend,
} from './open-knowledge-database.js';
import { createVectorIndex, type VectorIndex, type VectorNeighbour } from './vector-index.js';

export interface StoredDocument {
  id: number;
  /** Stable across re-ingestion: derived from collection and source. Part of `kb:` URLs. */
  key: string;
  collection: string;
  source: string;
  title: string;
  contentType: string;
  contentHash: string;
  pages: number | null;
  chunks: number;
  addedAt: number;
  /** 1 when added with --analyze. */
  analyzed: number;
}

export interface StoredChunk {
  id: number;
  documentId: number;
  documentKey: string;
  collection: string;
  source: string;
  title: string;
  position: number;
  kind: 'text' | 'table';
  heading: string;
  text: string;
  page: number | null;
  /** JSON of the chunk's analysis (ChunkAnalysis) when the document was added with --analyze. */
  analysis: string | null;
}

export interface NewDocument {
  collection: string;
  source: string;
  title: string;
  contentType: string;
  contentHash: string;
  text: string;
  pages?: number;
  chunks: readonly DocumentChunk[];
  /** One per chunk (undefined where embedding failed: the chunk is still found by full text). */
  vectors: ReadonlyArray<Float32Array | undefined>;
  /** From --analyze: the document's summary and each chunk's analysis. */
  analysis?: { summary: string; chunks: ReadonlyArray<ChunkAnalysis | undefined> };
}

export interface EmbeddingModelInfo {
  model: string;
  dimensions: number;
}

/** Stable id of a document: the first 12 hex digits of SHA-256(collection + NUL + source). */
export function documentKey(collection: string, source: string): string {
  return createHash('sha256').update(`${collection}\0${source}`).digest('hex').slice(0, 12);
}

export function contentHash(bytes: Uint8Array | string): string {
  return createHash('sha256').update(bytes).digest('hex');
}

const documentColumns =
  'd.id, d.doc_key AS key, d.collection, d.source, d.title, d.content_type AS contentType, ' +
  'd.content_hash AS contentHash, d.pages, d.added_at AS addedAt, (d.summary IS NOT NULL) AS analyzed, ' +
  '(SELECT count(*) FROM chunks c WHERE c.document_id = d.id) AS chunks';
const chunkColumns =
  'c.id, c.document_id AS documentId, d.doc_key AS documentKey, d.collection, d.source, d.title, ' +
  'c.position, c.kind, c.heading, c.text, c.page, c.entities AS analysis';

/**
 * The knowledge base's storage: documents, chunks, the FTS5 index and the vector index in one
 * SQLite file. Synchronous (better-sqlite3); each document is written in one transaction, so an
 * interrupted ingest leaves whole documents only.
 */
export class KnowledgeStore {
  readonly knowledge: KnowledgeDatabase;
  private vectors: VectorIndex | undefined;
  private readonly database: BetterSqlite3.Database;
  // Cached for informativeWords(); forgotten on every write.
  private chunkCount: number | undefined;
  private readonly documentFrequency = new Map<string, number>();

  constructor(options: { file: string; vectorBackend?: VectorBackend }) {
    this.knowledge = openKnowledgeDatabase(options);
    this.database = this.knowledge.database;
    const model = this.embeddingModel();
    if (model) this.vectors = createVectorIndex(this.knowledge, model.dimensions);
  }

  get vectorBackend(): VectorBackend {
    return this.knowledge.vectorBackend;
  }

  embeddingModel(): EmbeddingModelInfo | undefined {
    const row = this.database.prepare("SELECT value FROM meta WHERE key = 'embedding'").get() as
      | { value: string }
      | undefined;
    return row ? (JSON.parse(row.value) as EmbeddingModelInfo) : undefined;
  }

  /**
   * Records the model the vectors come from. A different model or dimension drops every vector
   * (vectors of two models are not comparable) and returns true: the caller re-embeds.
   */
  useEmbeddingModel(info: EmbeddingModelInfo): boolean {
    const current = this.embeddingModel();
    if (current && current.model === info.model && current.dimensions === info.dimensions) return false;
    this.vectors?.clear();
    this.database
      .prepare("INSERT OR REPLACE INTO meta (key, value) VALUES ('embedding', ?)")
      .run(JSON.stringify(info));
    this.vectors = createVectorIndex(this.knowledge, info.dimensions);
    return current !== undefined;
  }

  findDocument(collection: string, source: string): StoredDocument | undefined {
    return this.database
      .prepare(`SELECT ${documentColumns} FROM documents d WHERE d.collection = ? AND d.source = ?`)
      .get(collection, source) as StoredDocument | undefined;
  }

  /** Another document of the collection with the same content (a copy under another path). */
  findByHash(collection: string, hash: string): StoredDocument | undefined {
    return this.database
      .prepare(`SELECT ${documentColumns} FROM documents d WHERE d.collection = ? AND d.content_hash = ?`)
      .get(collection, hash) as StoredDocument | undefined;
  }

  getDocument(key: string): (StoredDocument & { text: string }) | undefined {
    return this.database
      .prepare(`SELECT ${documentColumns}, d.text FROM documents d WHERE d.doc_key = ?`)
      .get(key) as (StoredDocument & { text: string }) | undefined;
  }

  listDocuments(collection?: string): StoredDocument[] {
    const where = collection ? 'WHERE d.collection = ?' : '';
    const statement = this.database.prepare(
      `SELECT ${documentColumns} FROM documents d ${where} ORDER BY d.collection, d.source`,
    );
    return (collection ? statement.all(collection) : statement.all()) as StoredDocument[];
  }

  /** Writes a document with its chunks, replacing an earlier version of the same source. */
  putDocument(document: NewDocument): StoredDocument {
    this.forgetFrequencies();
    const key = documentKey(document.collection, document.source);
    this.database.transaction(() => {
      const existing = this.findDocument(document.collection, document.source);
      if (existing) this.deleteDocument(existing.id);
      const { lastInsertRowid } = this.database
        .prepare(
          'INSERT INTO documents (doc_key, collection, source, title, content_type, content_hash, text, pages, added_at, summary) ' +
            'VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
        )
        .run(
          key,
          document.collection,
          document.source,
          document.title,
          document.contentType,
          document.contentHash,
          document.text,
          document.pages ?? null,
          Date.now(),
          document.analysis?.summary ?? null,
        );
      this.insertChunks(Number(lastInsertRowid), document);
    })();
    return this.findDocument(document.collection, document.source)!;
  }

  private insertChunks(documentId: number, document: NewDocument): void {
    const insertChunk = this.database.prepare(
      'INSERT INTO chunks (document_id, position, kind, heading, text, page, start_offset, end_offset, entities) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)',
    );
    const insertText = this.database.prepare(
      'INSERT INTO chunks_fts (rowid, title, heading, text, analysis) VALUES (?, ?, ?, ?, ?)',
    );
    const { analysis } = document;
    document.chunks.forEach((chunk, position) => {
      const { lastInsertRowid } = insertChunk.run(
        documentId,
        position,
        chunk.kind,
        chunk.heading,
        chunk.text,
        chunk.page ?? null,
        chunk.start,
        chunk.end,
        analysis?.chunks[position] ? JSON.stringify(analysis.chunks[position]) : null,
      );
      // The document's summary is indexed with its first chunk: a query that matches the summary
      // finds the document even when no single passage says it all.
      const summary = position === 0 ? analysis?.summary : undefined;
      insertText.run(
        lastInsertRowid,
        document.title,
        chunk.heading,
        chunk.text,
        analysisText(analysis?.chunks[position], summary),
      );
      const vector = document.vectors[position];
      if (vector && this.vectors) this.vectors.put(Number(lastInsertRowid), document.collection, vector);
    });
  }

  /** Removes documents by key or source (a path or URL); returns what was removed. */
  removeDocuments(keyOrSource: string): StoredDocument[] {
    this.forgetFrequencies();
    const matches = this.database
      .prepare(
        `SELECT ${documentColumns} FROM documents d WHERE d.doc_key = ? OR d.source = ? OR d.source LIKE ? ESCAPE '\\'`,
      )
      .all(keyOrSource, keyOrSource, `${escapeLike(keyOrSource.replace(/\/+$/, ''))}/%`) as StoredDocument[];
    this.database.transaction(() => {
      for (const document of matches) this.deleteDocument(document.id);
    })();
    return matches;
  }

  private deleteDocument(documentId: number): void {
    const ids = (
      this.database.prepare('SELECT id FROM chunks WHERE document_id = ?').all(documentId) as Array<{
        id: number;
      }>
    ).map((row) => row.id);
    const deleteText = this.database.prepare('DELETE FROM chunks_fts WHERE rowid = ?');
    for (const id of ids) deleteText.run(id);
    this.vectors?.remove(ids);
    this.database.prepare('DELETE FROM chunks WHERE document_id = ?').run(documentId);
    this.database.prepare('DELETE FROM documents WHERE id = ?').run(documentId);
  }

  /** Full-text search with an FTS5 MATCH expression; scores are BM25 (higher is better). */
  fullText(
    match: string,
    options: { limit: number; collection?: string },
  ): Array<{ chunkId: number; score: number }> {
    if (!match) return [];
    // Title and heading weigh more than body text: a name that is a document's title is its topic.
    const rank = 'bm25(chunks_fts, 4.0, 2.0, 1.0, 1.0)';
    const sql = options.collection
      ? `SELECT f.rowid AS chunkId, -${rank} AS score FROM chunks_fts f JOIN chunks c ON c.id = f.rowid ` +
        'JOIN documents d ON d.id = c.document_id WHERE chunks_fts MATCH ? AND d.collection = ? ORDER BY score DESC LIMIT ?'
      : `SELECT rowid AS chunkId, -${rank} AS score FROM chunks_fts WHERE chunks_fts MATCH ? ORDER BY score DESC LIMIT ?`;
    const statement = this.database.prepare(sql);
    return (
      options.collection
        ? statement.all(match, options.collection, options.limit)
        : statement.all(match, options.limit)
    ) as Array<{ chunkId: number; score: number }>;
  }

  /**
   * The query words worth ranking by: a word in more than half of all chunks has a BM25 idf near
   * zero, so it barely moves the order, yet ranking every chunk it matches is most of a query's
   * time on a large base. Such words are dropped unless nothing else is left (then the rarest
   * stay). Document frequencies are remembered until the next write.
   */
  informativeWords(words: readonly string[]): string[] {
    if (words.length <= 1) return [...words];
    this.chunkCount ??= (this.database.prepare('SELECT count(*) AS n FROM chunks').get() as { n: number }).n;
    const count = this.database.prepare('SELECT count(*) AS n FROM chunks_fts WHERE chunks_fts MATCH ?');
    const frequencies = words.map((word) => {
      let frequency = this.documentFrequency.get(word);
      if (frequency === undefined) {
        frequency = (count.get(`"${word.replace(/"/g, '')}"`) as { n: number }).n;
        this.documentFrequency.set(word, frequency);
      }
      return { word, frequency };
    });
    const informative = frequencies.filter((entry) => entry.frequency <= this.chunkCount! / 2);
    const kept =
      informative.length > 0
        ? informative
        : frequencies.sort((a, b) => a.frequency - b.frequency).slice(0, 2);
    return kept.map((entry) => entry.word);
  }

  nearest(vector: Float32Array, options: { limit: number; collection?: string }): VectorNeighbour[] {
    return this.vectors ? this.vectors.nearest(vector, options) : [];
  }

  chunks(ids: readonly number[]): Map<number, StoredChunk> {
    const found = new Map<number, StoredChunk>();
    const statement = this.database.prepare(
      `SELECT ${chunkColumns} FROM chunks c JOIN documents d ON d.id = c.document_id WHERE c.id = ?`,
    );
    for (const id of ids) {
      const row = statement.get(id) as StoredChunk | undefined;
      if (row) found.set(id, row);
    }
    return found;
  }

  /** Chunks of one document in order (for re-embedding). */
  documentChunks(documentId: number): StoredChunk[] {
    return this.database
      .prepare(
        `SELECT ${chunkColumns} FROM chunks c JOIN documents d ON d.id = c.document_id WHERE c.document_id = ? ORDER BY c.position`,
      )
      .all(documentId) as StoredChunk[];
  }

  putVector(chunkId: number, collection: string, vector: Float32Array): void {
    this.vectors?.put(chunkId, collection, vector);
  }

  stats(): {
    documents: number;
    chunks: number;
    collections: Array<{ collection: string; documents: number }>;
  } {
    const count = (sql: string) => (this.database.prepare(sql).get() as { n: number }).n;
    return {
      documents: count('SELECT count(*) AS n FROM documents'),
      chunks: count('SELECT count(*) AS n FROM chunks'),
      collections: this.database
        .prepare(
          'SELECT collection, count(*) AS documents FROM documents GROUP BY collection ORDER BY collection',
        )
        .all() as Array<{ collection: string; documents: number }>,
    };
  }

  private forgetFrequencies(): void {
    this.chunkCount = undefined;
    this.documentFrequency.clear();
  }

  close(): void {
    this.database.close();
  }
}

function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (character) => `\\${character}`);
}
