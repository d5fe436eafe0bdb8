import type BetterSqlite3 from 'better-sqlite3';
import type { PreparedStatements } from '../platform/storage/statement-cache.js';
import { analysisText } from './analysis/analysis-text.js';
import { documentColumns, documentKey, type NewDocument, type StoredDocument } from './knowledge-records.js';
import type { VectorIndex } from './vector-index.js';

/** What a write needs: the database, its prepared statements and the vector index when there is one. */
export interface WriteContext {
  database: BetterSqlite3.Database;
  statement: PreparedStatements;
  vectors: VectorIndex | undefined;
}

/**
 * Writes a document with its chunks, their full-text rows and vectors in one transaction,
 * replacing an earlier version of the same source; returns the document's id.
 */
export function writeDocument(context: WriteContext, document: NewDocument): number {
  const { database, statement } = context;
  const key = documentKey(document.collection, document.source);
  let documentId = 0;
  database.transaction(() => {
    const existing = statement('SELECT id FROM documents WHERE collection = ? AND source = ?').get(
      document.collection,
      document.source,
    ) as { id: number } | undefined;
    if (existing) deleteDocument(context, existing.id);
    const { lastInsertRowid } = statement(
      'INSERT INTO documents (doc_key, collection, source, title, content_type, content_hash, text, pages, added_at, summary) ' +
        'VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
    ).run(
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
    documentId = Number(lastInsertRowid);
    insertChunks(context, documentId, document);
    markChunksChanged(context);
    if (document.analysis?.summary) {
      statement('INSERT INTO summaries_fts (rowid, title, summary) VALUES (?, ?, ?)').run(
        documentId,
        document.title,
        document.analysis.summary,
      );
    }
  })();
  return documentId;
}

function insertChunks(context: WriteContext, documentId: number, document: NewDocument): void {
  const insertChunk = context.statement(
    'INSERT INTO chunks (document_id, position, kind, heading, text, page, start_offset, end_offset, entities) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)',
  );
  const insertText = context.statement(
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
    // The document's summary has its own index (summaries_fts): a query that matches it pulls
    // in the document's best chunks, not always the first one.
    insertText.run(
      lastInsertRowid,
      document.title,
      chunk.heading,
      chunk.text,
      analysisText(analysis?.chunks[position]),
    );
    const vector = document.vectors[position];
    if (vector && context.vectors) context.vectors.put(Number(lastInsertRowid), document.collection, vector);
  });
}

/**
 * Removes documents by key or source (a path or URL, or a folder of them); returns what was
 * removed. An empty name or "/" is no folder: it would match every absolute path.
 */
export function removeDocuments(context: WriteContext, keyOrSource: string): StoredDocument[] {
  const folder = keyOrSource.replace(/\/+$/, '');
  const matches = context
    .statement(
      `SELECT ${documentColumns} FROM documents d WHERE d.doc_key = ? OR d.source = ? OR d.source LIKE ? ESCAPE '\\'`,
    )
    .all(keyOrSource, keyOrSource, folder ? `${escapeLike(folder)}/%` : '') as StoredDocument[];
  context.database.transaction(() => {
    for (const document of matches) deleteDocument(context, document.id);
    if (matches.length > 0) markChunksChanged(context);
  })();
  return matches;
}

function deleteDocument(context: WriteContext, documentId: number): void {
  const { statement } = context;
  const ids = (
    statement('SELECT id FROM chunks WHERE document_id = ?').all(documentId) as Array<{ id: number }>
  ).map((row) => row.id);
  const deleteText = statement('DELETE FROM chunks_fts WHERE rowid = ?');
  for (const id of ids) deleteText.run(id);
  context.vectors?.remove(ids);
  statement('DELETE FROM chunks WHERE document_id = ?').run(documentId);
  statement('DELETE FROM summaries_fts WHERE rowid = ?').run(documentId);
  statement('DELETE FROM documents WHERE id = ?').run(documentId);
}

/** The meta row a write of chunks bumps, so other processes know their word counts are stale. */
export const chunksGenerationKey = 'chunks_generation';

function markChunksChanged(context: WriteContext): void {
  context
    .statement(
      'INSERT INTO meta (key, value) VALUES (?, 1) ON CONFLICT(key) DO UPDATE SET value = CAST(value AS INTEGER) + 1',
    )
    .run(chunksGenerationKey);
}

function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (character) => `\\${character}`);
}
