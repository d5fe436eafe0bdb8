import type BetterSqlite3 from 'better-sqlite3';
import { createStatementCache, type PreparedStatements } from '../platform/storage/statement-cache.js';
import { removeDocuments, type WriteContext, writeDocument } from './document-writes.js';
import { FullTextIndex, type FullTextOptions } from './full-text-index.js';
import {
  chunkColumns,
  documentColumns,
  type EmbeddingModelInfo,
  type NewDocument,
  type StoredChunk,
  type StoredDocument,
} from './knowledge-records.js';
import {
  type KnowledgeDatabase,
  openKnowledgeDatabase,
  type VectorBackend,
} from './open-knowledge-database.js';
import {
  createVectorIndex,
  type NearestOptions,
  type VectorIndex,
  type VectorNeighbour,
} from './vector-index.js';

/**
 * The knowledge base's storage: documents, chunks, the FTS5 index and the vector index in one
 * SQLite file. Synchronous (better-sqlite3); each document is written in one transaction, so an
 * interrupted ingest leaves whole documents only. Writes live in document-writes.ts, full-text
 * ranking in full-text-index.ts; this class reads documents and chunks and ties them together.
 */
export class KnowledgeStore {
  readonly knowledge: KnowledgeDatabase;
  private vectors: VectorIndex | undefined;
  private readonly database: BetterSqlite3.Database;
  private readonly statement: PreparedStatements;
  private readonly fullTextIndex: FullTextIndex;

  constructor(options: { file: string; vectorBackend?: VectorBackend }) {
    this.knowledge = openKnowledgeDatabase(options);
    this.database = this.knowledge.database;
    this.statement = createStatementCache(this.database);
    this.fullTextIndex = new FullTextIndex(this.statement);
    const model = this.embeddingModel();
    if (model) this.vectors = createVectorIndex(this.knowledge, model.dimensions);
    this.indexSummaries();
  }

  /** Bases made before summaries had their own index get it filled once. */
  private indexSummaries(): void {
    if (this.statement("SELECT 1 FROM meta WHERE key = 'summaries_indexed'").get()) return;
    this.database.transaction(() => {
      this.database.exec(
        'INSERT INTO summaries_fts (rowid, title, summary) SELECT id, title, summary FROM documents WHERE summary IS NOT NULL',
      );
      this.statement("INSERT INTO meta (key, value) VALUES ('summaries_indexed', '1')").run();
    })();
  }

  get vectorBackend(): VectorBackend {
    return this.knowledge.vectorBackend;
  }

  embeddingModel(): EmbeddingModelInfo | undefined {
    const row = this.statement("SELECT value FROM meta WHERE key = 'embedding'").get() as
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
    this.statement("INSERT OR REPLACE INTO meta (key, value) VALUES ('embedding', ?)").run(
      JSON.stringify(info),
    );
    this.vectors = createVectorIndex(this.knowledge, info.dimensions);
    return current !== undefined;
  }

  findDocument(collection: string, source: string): StoredDocument | undefined {
    return this.statement(
      `SELECT ${documentColumns} FROM documents d WHERE d.collection = ? AND d.source = ?`,
    ).get(collection, source) as StoredDocument | undefined;
  }

  /** Another document of the collection with the same content (a copy under another path). */
  findByHash(collection: string, hash: string): StoredDocument | undefined {
    return this.statement(
      `SELECT ${documentColumns} FROM documents d WHERE d.collection = ? AND d.content_hash = ?`,
    ).get(collection, hash) as StoredDocument | undefined;
  }

  getDocument(key: string): (StoredDocument & { text: string }) | undefined {
    return this.statement(`SELECT ${documentColumns}, d.text FROM documents d WHERE d.doc_key = ?`).get(
      key,
    ) as (StoredDocument & { text: string }) | undefined;
  }

  listDocuments(collection?: string): StoredDocument[] {
    const where = collection ? 'WHERE d.collection = ?' : '';
    const statement = this.statement(
      `SELECT ${documentColumns} FROM documents d ${where} ORDER BY d.collection, d.source`,
    );
    return (collection ? statement.all(collection) : statement.all()) as StoredDocument[];
  }

  /** Writes a document with its chunks, replacing an earlier version of the same source. */
  putDocument(document: NewDocument): StoredDocument {
    this.fullTextIndex.forget();
    writeDocument(this.writeContext(), document);
    return this.findDocument(document.collection, document.source)!;
  }

  /** Removes documents by key or source (a path or URL); returns what was removed. */
  removeDocuments(keyOrSource: string): StoredDocument[] {
    this.fullTextIndex.forget();
    return removeDocuments(this.writeContext(), keyOrSource);
  }

  private writeContext(): WriteContext {
    return { database: this.database, statement: this.statement, vectors: this.vectors };
  }

  /** Full-text search with an FTS5 MATCH expression; scores are BM25 (higher is better). */
  fullText(match: string, options: FullTextOptions): Array<{ chunkId: number; score: number }> {
    return this.fullTextIndex.chunks(match, options);
  }

  /** How many chunks match an FTS5 expression, of how many in all. */
  fullTextCount(match: string): { rows: number; of: number } {
    return this.fullTextIndex.matchCount(match);
  }

  /** Chunks holding any of the words, best first by BM25: fullText() of the words OR-ed, pruned. */
  fullTextAnyWord(
    words: readonly string[],
    options: FullTextOptions,
  ): Array<{ chunkId: number; score: number }> {
    return this.fullTextIndex.chunksWithAnyWord(words, options);
  }

  /** Documents whose summary (--analyze) matches an FTS5 MATCH expression, best first (BM25, higher is better). */
  summaryMatches(match: string, options: FullTextOptions): Array<{ documentId: number; score: number }> {
    return this.fullTextIndex.summaries(match, options);
  }

  /** The query words worth ranking by (see FullTextIndex.informativeWords). */
  informativeWords(words: readonly string[]): string[] {
    return this.fullTextIndex.informativeWords(words);
  }

  nearest(vector: Float32Array, options: NearestOptions): VectorNeighbour[] {
    return this.vectors ? this.vectors.nearest(vector, options) : [];
  }

  chunks(ids: readonly number[]): Map<number, StoredChunk> {
    const found = new Map<number, StoredChunk>();
    const statement = this.statement(
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
    return this.statement(
      `SELECT ${chunkColumns} FROM chunks c JOIN documents d ON d.id = c.document_id WHERE c.document_id = ? ORDER BY c.position`,
    ).all(documentId) as StoredChunk[];
  }

  putVector(chunkId: number, collection: string, vector: Float32Array): void {
    this.vectors?.put(chunkId, collection, vector);
  }

  stats(): {
    documents: number;
    chunks: number;
    collections: Array<{ collection: string; documents: number }>;
  } {
    const count = (sql: string) => (this.statement(sql).get() as { n: number }).n;
    return {
      documents: count('SELECT count(*) AS n FROM documents'),
      chunks: count('SELECT count(*) AS n FROM chunks'),
      collections: this.statement(
        'SELECT collection, count(*) AS documents FROM documents GROUP BY collection ORDER BY collection',
      ).all() as Array<{ collection: string; documents: number }>,
    };
  }

  close(): void {
    this.database.close();
  }
}
