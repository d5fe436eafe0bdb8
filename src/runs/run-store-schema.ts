import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import type BetterSqlite3 from 'better-sqlite3';
import { ConfigError } from '../core/errors/index.js';
import { loadBetterSqlite3, type SqliteDriverLoader } from '../platform/storage/sqlite-cache.js';

/** The run store's file name in the user's data directory. */
export const runsFileName = 'runs.sqlite';

// Events are kept one row each (replay and SSE read them in order, from any point). Only the
// last checkpoint of a run is kept; its pages live in their own table, written once each, so a
// checkpoint per step does not rewrite every page read so far.
const schema = `
CREATE TABLE IF NOT EXISTS runs (
  id TEXT PRIMARY KEY,
  owner TEXT NOT NULL,
  source TEXT NOT NULL,
  mode TEXT NOT NULL,
  question TEXT NOT NULL,
  options TEXT NOT NULL,
  settings TEXT NOT NULL,
  status TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  started_at INTEGER,
  finished_at INTEGER,
  pid INTEGER,
  result TEXT,
  answer TEXT,
  error TEXT,
  usage TEXT,
  total_tokens INTEGER,
  last_seq INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX IF NOT EXISTS runs_owner_created ON runs (owner, created_at);
CREATE INDEX IF NOT EXISTS runs_created ON runs (created_at);
CREATE TABLE IF NOT EXISTS run_events (
  run_id TEXT NOT NULL,
  seq INTEGER NOT NULL,
  type TEXT NOT NULL,
  at INTEGER NOT NULL,
  data TEXT NOT NULL,
  PRIMARY KEY (run_id, seq)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS run_checkpoints (
  run_id TEXT PRIMARY KEY,
  step INTEGER NOT NULL,
  at INTEGER NOT NULL,
  state TEXT NOT NULL
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS run_pages (
  run_id TEXT NOT NULL,
  url TEXT NOT NULL,
  page TEXT NOT NULL,
  PRIMARY KEY (run_id, url)
) WITHOUT ROWID;`;

/**
 * Changes to the schema above, in order; a file records how many it has in `user_version`. Each is
 * additive (new columns with defaults), so a file migrated here still opens in an older build.
 * 1: the attempt that holds a run (fencing: a worker whose run was claimed since cannot write)
 *    and the worker that claimed it.
 * 2: the snapshots of the sources a run cites (source-snapshot.ts), written with its end.
 */
const migrations: readonly string[] = [
  `ALTER TABLE runs ADD COLUMN attempt INTEGER NOT NULL DEFAULT 0;
   ALTER TABLE runs ADD COLUMN worker TEXT;`,
  `CREATE TABLE IF NOT EXISTS run_sources (
     run_id TEXT NOT NULL,
     position INTEGER NOT NULL,
     url TEXT NOT NULL,
     title TEXT NOT NULL,
     fetched_at TEXT NOT NULL,
     status INTEGER,
     hash TEXT NOT NULL,
     meta TEXT NOT NULL,
     body BLOB NOT NULL,
     PRIMARY KEY (run_id, position)
   ) WITHOUT ROWID;`,
];

/** Brings a file up to the latest schema; a process opening it at the same time waits (IMMEDIATE). */
function migrate(database: BetterSqlite3.Database): void {
  database.exec(schema);
  const version = () => database.pragma('user_version', { simple: true }) as number;
  if (version() >= migrations.length) return;
  database
    .transaction(() => {
      for (let index = version(); index < migrations.length; index++) database.exec(migrations[index]!);
      database.pragma(`user_version = ${migrations.length}`);
    })
    .immediate();
}

/**
 * Opens (creating when new) the run store's SQLite file, WAL so a CLI run and a server can share
 * it. A native module that cannot load, or a file that cannot be opened, is a ConfigError saying
 * what to do.
 */
export function openRunDatabase(options: {
  file: string;
  loadDriver?: SqliteDriverLoader;
}): BetterSqlite3.Database {
  let Database: typeof BetterSqlite3;
  try {
    Database = (options.loadDriver ?? loadBetterSqlite3)();
  } catch (cause) {
    const reason = (cause instanceof Error ? cause.message : String(cause)).split('\n')[0]!.trim();
    throw new ConfigError(
      `the run store cannot open: its SQLite module (better-sqlite3) cannot load (${reason}); rebuild it with ` +
        'npm rebuild better-sqlite3 (needs python3, make and a C++ compiler), or pass --no-runs',
      { code: 'config_runs_unavailable', cause },
    );
  }
  try {
    if (options.file !== ':memory:') mkdirSync(dirname(options.file), { recursive: true });
    const database = new Database(options.file);
    database.pragma('journal_mode = WAL');
    // In WAL mode NORMAL syncs at checkpoints, not at every commit: a process that dies loses
    // nothing; a power cut may lose the last writes, never the file. FULL made each of a run's
    // dozen commits wait for the disk on the server's one thread.
    database.pragma('synchronous = NORMAL');
    database.pragma('busy_timeout = 5000');
    migrate(database);
    return database;
  } catch (cause) {
    const reason = cause instanceof Error ? cause.message : String(cause);
    throw new ConfigError(
      `cannot open the run store at ${options.file} (${reason}): set DEEPSEARCH_RUNS_FILE to a writable path, or pass --no-runs`,
      { code: 'config_runs_unavailable', cause },
    );
  }
}
