import { createHash } from 'node:crypto';
import type { ChunkAnalysis } from './analysis/analyze-chunk-prompt.js';
import type { DocumentChunk } from './chunk-document.js';

/** The rows the knowledge store reads and writes, and the SQL column lists that produce them. */
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

export const documentColumns =
  'd.id, d.doc_key AS key, d.collection, d.source, d.title, d.content_type AS contentType, ' +
  'd.content_hash AS contentHash, d.pages, d.added_at AS addedAt, (d.summary IS NOT NULL) AS analyzed, ' +
  '(SELECT count(*) FROM chunks c WHERE c.document_id = d.id) AS chunks';
export const chunkColumns =
  'c.id, c.document_id AS documentId, d.doc_key AS documentKey, d.collection, d.source, d.title, ' +
  'c.position, c.kind, c.heading, c.text, c.page, c.entities AS analysis';
