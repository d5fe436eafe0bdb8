import { mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import type BetterSqlite3 from 'better-sqlite3';
import { ConfigError } from '../core/errors/index.js';
import { domainsSchema } from './trust-records.js';

export type VectorBackend = 'sqlite-vec' | 'exact-scan';

export interface KnowledgeDatabase {
  database: BetterSqlite3.Database;
  /**
   * What compares every vector of a small base: sqlite-vec's cosine when its extension loads, else
   * a scan in JS. The extension is loaded on first read of this (an exact scan, a vec0 base moved
   * over, stats): a lexical search never loads it.
   */
  readonly vectorBackend: VectorBackend;
  /** Why sqlite-vec is not in use, when it is not. */
  readonly vectorBackendNote?: string;
}

// Chunks keep their text; the full-text index is contentless (with deletes) so the text is stored
// once. Documents' summaries (--analyze) have an index of their own (rowid = document id): a
// summary that matches a query pulls in the document's best chunks. The document's whole text is kept too: the kb reader serves it and quotes are verified
// against it exactly like a web page's text.
const schema = `
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS documents (
  id INTEGER PRIMARY KEY,
  doc_key TEXT NOT NULL UNIQUE,
  collection TEXT NOT NULL,
  source TEXT NOT NULL,
  title TEXT NOT NULL,
  content_type TEXT NOT NULL,
  content_hash TEXT NOT NULL,
  text TEXT NOT NULL,
  summary TEXT,
  pages INTEGER,
  added_at INTEGER NOT NULL,
  UNIQUE (collection, source)
);
CREATE INDEX IF NOT EXISTS documents_hash ON documents (collection, content_hash);
CREATE TABLE IF NOT EXISTS chunks (
  id INTEGER PRIMARY KEY,
  document_id INTEGER NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
  position INTEGER NOT NULL,
  kind TEXT NOT NULL,
  heading TEXT NOT NULL,
  text TEXT NOT NULL,
  page INTEGER,
  start_offset INTEGER NOT NULL,
  end_offset INTEGER NOT NULL,
  entities TEXT
);
CREATE INDEX IF NOT EXISTS chunks_document ON chunks (document_id, position);
CREATE VIRTUAL TABLE IF NOT EXISTS chunks_fts USING fts5(
  title, heading, text, analysis, content='', contentless_delete=1, tokenize='porter unicode61 remove_diacritics 2'
);
CREATE VIRTUAL TABLE IF NOT EXISTS summaries_fts USING fts5(
  title, summary, content='', contentless_delete=1, tokenize='porter unicode61 remove_diacritics 2'
);
CREATE TABLE IF NOT EXISTS chunk_vectors_blob (chunk_id INTEGER PRIMARY KEY, embedding BLOB NOT NULL);
CREATE TABLE IF NOT EXISTS chunk_vector_codes (chunk_id INTEGER PRIMARY KEY, collection TEXT NOT NULL, code BLOB NOT NULL);
CREATE TABLE IF NOT EXISTS vector_code_snapshot (
  id INTEGER PRIMARY KEY CHECK (id = 1), generation TEXT NOT NULL,
  ids BLOB NOT NULL, codes BLOB NOT NULL, collection_of BLOB NOT NULL, collections TEXT NOT NULL
);`;

// SQLite's default upper bound for mmap_size (SQLITE_MAX_MMAP_SIZE).
const mmapBytes = 0x7fff0000;

/**
 * Opens (creating when new) the knowledge base: one SQLite file with FTS5, vectors and their sign
 * codes (vector-index.ts). better-sqlite3 loads here, on first use, never at import time; the
 * sqlite-vec extension (exact cosine scans of small bases) on first need.
 */
export function openKnowledgeDatabase(options: {
  file: string;
  /** Tests force the fallback. */
  vectorBackend?: VectorBackend;
}): KnowledgeDatabase {
  let database: BetterSqlite3.Database;
  const require = createRequire(import.meta.url);
  try {
    if (options.file !== ':memory:') mkdirSync(dirname(options.file), { recursive: true });
    const Database = require('better-sqlite3') as typeof BetterSqlite3;
    database = new Database(options.file);
    database.pragma('journal_mode = WAL');
    database.pragma('busy_timeout = 5000');
    database.pragma('foreign_keys = ON');
    // Ranking a query reads the full-text index's pages for every chunk it matches, and a vector
    // search reads every vector: a 64 MB page cache, and the whole file memory-mapped (up to SQLite's
    // 2 GB cap), keep them out of read() calls. The map is address space, not memory; a 256 MB map
    // left most of a 100,000-chunk base with vectors (560 MB) to read(), about half of a hybrid
    // query's CPU time in system calls (bench:kb).
    database.pragma('cache_size = -65536');
    database.pragma(`mmap_size = ${mmapBytes}`);
    database.exec(schema + domainsSchema);
  } catch (cause) {
    const reason = cause instanceof Error ? cause.message : String(cause);
    throw new ConfigError(
      `cannot open the knowledge base at ${options.file} (${reason}): pass --kb with a writable path`,
      { code: 'config_kb_unavailable', cause },
    );
  }
  let backend: { vectorBackend: VectorBackend; vectorBackendNote?: string } | undefined;
  const loaded = () => {
    backend ??= loadVectorBackend(database, options.vectorBackend, require);
    return backend;
  };
  return {
    database,
    get vectorBackend() {
      return loaded().vectorBackend;
    },
    get vectorBackendNote() {
      return loaded().vectorBackendNote;
    },
  };
}

function loadVectorBackend(
  database: BetterSqlite3.Database,
  chosen: VectorBackend | undefined,
  require: NodeRequire,
): { vectorBackend: VectorBackend; vectorBackendNote?: string } {
  if (chosen === 'exact-scan')
    return { vectorBackend: 'exact-scan', vectorBackendNote: 'chosen by the caller' };
  try {
    (require('sqlite-vec') as { load(db: BetterSqlite3.Database): void }).load(database);
    return { vectorBackend: 'sqlite-vec' };
  } catch (cause) {
    const reason = cause instanceof Error ? cause.message : String(cause);
    return { vectorBackend: 'exact-scan', vectorBackendNote: `sqlite-vec did not load: ${reason}` };
  }
}
