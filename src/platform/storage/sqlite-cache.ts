import { mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import type BetterSqlite3 from 'better-sqlite3';
import type { CacheKind } from '../../config/config-schema.js';
import { ConfigError } from '../../core/errors/index.js';

/** A key-value store with a time to live per entry, one namespace per kind. */
export interface ResponseCache {
  /** The stored value, or undefined when absent or expired. */
  get(kind: CacheKind, key: string): unknown;
  /**
   * Keeps a copy of the value; get sees it at once, the file at the end of this turn of the event
   * loop (with the turn's other entries, in one transaction) or at close. A write that failed is
   * thrown by the next set.
   */
  set(kind: CacheKind, key: string, value: unknown, ttlSeconds: number): void;
  /** Deletes expired entries; returns how many. */
  prune(): number;
  close(): void;
}

export interface SqliteCacheOptions {
  /** Path of the database file; ':memory:' for tests. Its folder is created on first use. */
  file: string;
  /** The clock (ms since epoch); tests move it to expire entries. */
  now?: () => number;
  /** Loads the better-sqlite3 constructor; tests inject one that fails like a missing native build. */
  loadDriver?: SqliteDriverLoader;
  /**
   * When given, a native module that cannot load turns the cache off: this is called once with one
   * line saying so, and every get misses and every set is dropped. Without it the first use throws.
   */
  onUnavailable?: (message: string) => void;
}

export type SqliteDriverLoader = () => typeof BetterSqlite3;

/** The installed better-sqlite3. */
export const loadBetterSqlite3: SqliteDriverLoader = () =>
  createRequire(import.meta.url)('better-sqlite3') as typeof BetterSqlite3;

const schema = `
CREATE TABLE IF NOT EXISTS entries (
  kind TEXT NOT NULL,
  key TEXT NOT NULL,
  value TEXT NOT NULL,
  stored_at INTEGER NOT NULL,
  expires_at INTEGER NOT NULL,
  PRIMARY KEY (kind, key)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS entries_expiry ON entries (expires_at);`;

/**
 * The on-disk cache: one SQLite file (better-sqlite3, WAL so several runs can share it). Nothing
 * is opened until the first get or set, and the native module is loaded only then, so a run
 * with the cache off never touches it.
 */
export function createSqliteCache(options: SqliteCacheOptions): ResponseCache {
  const now = options.now ?? Date.now;
  let statements: Statements | undefined;
  let unavailable = false;

  // Statements are prepared once per opened database: preparing is most of a lookup's cost.
  function open(): Statements | undefined {
    if (statements || unavailable) return statements;
    const Database = loadDriver(options);
    if (!Database) {
      unavailable = true;
      return undefined;
    }
    statements = prepareStatements(openDatabase(Database, options.file));
    statements.prune.run(now());
    return statements;
  }

  // Entries set in this turn of the event loop, written together at its end: one commit for a
  // turn's entries (a busy server's runs set dozens in one turn), not one per entry.
  const pending = new Map<string, PendingEntry>();
  let writing: NodeJS.Immediate | undefined;
  /** A write that failed, thrown by the next set (as the failed set itself would have been). */
  let failure: unknown;
  const write = () => {
    clearImmediate(writing);
    writing = undefined;
    if (pending.size === 0 || !statements) return;
    const entries = [...pending.values()];
    pending.clear();
    const { database, set } = statements;
    try {
      database.transaction(() => {
        for (const entry of entries)
          set.run(entry.kind, entry.key, entry.value, entry.storedAt, entry.expiresAt);
      })();
    } catch (error) {
      failure ??= error;
    }
  };

  return {
    get(kind, key) {
      const entry = pending.get(pendingKey(kind, key));
      if (entry) return entry.expiresAt > now() ? JSON.parse(entry.value) : undefined;
      const row = open()?.get.get(kind, key, now()) as { value: string } | undefined;
      return row ? JSON.parse(row.value) : undefined;
    },
    set(kind, key, value, ttlSeconds) {
      if (failure !== undefined) {
        const error = failure;
        failure = undefined;
        throw error;
      }
      if (ttlSeconds <= 0 || !open()) return;
      const storedAt = now();
      const entry = {
        kind,
        key,
        value: JSON.stringify(value),
        storedAt,
        expiresAt: storedAt + ttlSeconds * 1000,
      };
      pending.set(pendingKey(kind, key), entry);
      writing ??= setImmediate(write);
    },
    prune() {
      write();
      return open()?.prune.run(now()).changes ?? 0;
    },
    close() {
      write();
      statements?.database.close();
      statements = undefined;
    },
  };
}

interface PendingEntry {
  kind: CacheKind;
  key: string;
  value: string;
  storedAt: number;
  expiresAt: number;
}

const pendingKey = (kind: CacheKind, key: string) => `${kind}\n${key}`;

interface Statements {
  database: BetterSqlite3.Database;
  get: BetterSqlite3.Statement;
  set: BetterSqlite3.Statement;
  prune: BetterSqlite3.Statement;
}

function prepareStatements(database: BetterSqlite3.Database): Statements {
  return {
    database,
    get: database.prepare('SELECT value FROM entries WHERE kind = ? AND key = ? AND expires_at > ?'),
    set: database.prepare(
      'INSERT OR REPLACE INTO entries (kind, key, value, stored_at, expires_at) VALUES (?, ?, ?, ?, ?)',
    ),
    prune: database.prepare('DELETE FROM entries WHERE expires_at <= ?'),
  };
}

/**
 * The better-sqlite3 constructor, or undefined when it cannot load and the caller accepts running
 * without a cache. Its error lists every path the bindings were looked for in (a dozen lines):
 * only the first line is kept.
 */
function loadDriver(options: SqliteCacheOptions): typeof BetterSqlite3 | undefined {
  try {
    return (options.loadDriver ?? loadBetterSqlite3)();
  } catch (cause) {
    const reason = (cause instanceof Error ? cause.message : String(cause)).split('\n')[0]!.trim();
    const message =
      `the cache is off: its SQLite module (better-sqlite3) cannot load (${reason}); rebuild it with ` +
      'npm rebuild better-sqlite3 (needs python3, make and a C++ compiler), or pass --no-cache';
    if (!options.onUnavailable) throw new ConfigError(message, { code: 'config_cache_unavailable', cause });
    options.onUnavailable(message);
    return undefined;
  }
}

function openDatabase(Database: typeof BetterSqlite3, file: string): BetterSqlite3.Database {
  try {
    if (file !== ':memory:') mkdirSync(dirname(file), { recursive: true });
    const database = new Database(file);
    database.pragma('journal_mode = WAL');
    // A cache: a power cut may lose its last entries, never the file (WAL syncs at checkpoints).
    // FULL made every cached search and page wait for the disk on the server's one thread.
    database.pragma('synchronous = NORMAL');
    database.pragma('busy_timeout = 5000');
    database.exec(schema);
    return database;
  } catch (cause) {
    const reason = cause instanceof Error ? cause.message : String(cause);
    throw new ConfigError(
      `cannot open the cache at ${file} (${reason}): set DEEPSEARCH_CACHE_DIR to a writable folder, or run with --no-cache`,
      { code: 'config_cache_unavailable', cause },
    );
  }
}
