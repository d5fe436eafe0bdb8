import { existsSync, mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import type BetterSqlite3 from 'better-sqlite3';
import { readJsonFile, writeJsonFile } from '../platform/storage/json-file.js';
import { loadBetterSqlite3, type SqliteDriverLoader } from '../platform/storage/sqlite-cache.js';
import {
  type HostHealthChange,
  type HostHealthEntry,
  type HostHealthSnapshot,
  isHostHealthEntry,
} from '../retrieval/host-health.js';
import { addChange } from '../retrieval/host-health-change.js';

/**
 * Where domain trust profiles are kept across runs. Saves add a runtime's changes to what is
 * stored (counts add up, the earliest first visit and the latest problem are kept, the https of
 * the newest read wins), so two processes updating one domain both count.
 */
export interface TrustRecords {
  /** The file, for messages and `deepsearch trust`. */
  readonly file: string;
  readonly kind: 'knowledge base' | 'json';
  /** The saved profiles ({} when there are none yet). */
  load(): HostHealthSnapshot;
  /** Adds the changes to the stored profiles, in one transaction; returns those profiles as stored now. */
  save(changes: readonly HostHealthChange[]): HostHealthSnapshot;
  /** Releases the database connection, if one is open; the next load or save reopens it. */
  close(): void;
}

// Part of the knowledge base's schema too (open-knowledge-database.ts): one table, whichever
// connection creates it first.
export const domainsSchema = `
CREATE TABLE IF NOT EXISTS domains (
  host TEXT PRIMARY KEY,
  first_seen TEXT,
  reference_count INTEGER NOT NULL DEFAULT 0,
  failures INTEGER NOT NULL DEFAULT 0,
  successes INTEGER NOT NULL DEFAULT 0,
  paywalled INTEGER NOT NULL DEFAULT 0,
  blocked INTEGER NOT NULL DEFAULT 0,
  https INTEGER,
  last_problem_at TEXT
) WITHOUT ROWID;`;

/**
 * The one record of domain trust (formerly "host health"): a JSON file when
 * retrieval.hostHealthFile names one (kept for existing setups), else the `domains` table of the
 * knowledge base's SQLite file, else nothing (profiles live for the runtime only).
 */
export function createTrustRecords(options: {
  jsonFile?: string;
  knowledgeFile?: string;
  /** better-sqlite3, or another build of it (DEEPSEARCH_SQLITE_MODULE; tests count connections). */
  loadDriver?: SqliteDriverLoader;
}): TrustRecords | undefined {
  if (options.jsonFile) return jsonRecords(options.jsonFile);
  if (options.knowledgeFile && options.knowledgeFile !== ':memory:')
    return sqliteRecords(options.knowledgeFile, options.loadDriver ?? loadBetterSqlite3);
  return undefined;
}

/** The JSON file is read, merged and rewritten whole on every save (kept for existing setups). */
function jsonRecords(file: string): TrustRecords {
  const load = (): HostHealthSnapshot => {
    const stored = readJsonFile(file);
    // Anything but an object (a damaged file) starts afresh; HostHealth skips damaged entries.
    return typeof stored === 'object' && stored !== null && !Array.isArray(stored)
      ? (stored as HostHealthSnapshot)
      : {};
  };
  return {
    file,
    kind: 'json',
    load,
    save(changes) {
      const stored = load();
      const saved = mergeChanges(changes, (host) =>
        isHostHealthEntry(stored[host]) ? stored[host] : undefined,
      );
      writeJsonFile(file, { ...stored, ...saved });
      return saved;
    },
    close() {},
  };
}

/** A row of `domains` (Postgres's store selects `https` as an integer too). */
export interface DomainRow {
  host: string;
  first_seen: string | null;
  reference_count: number;
  failures: number;
  successes: number;
  paywalled: number;
  blocked: number;
  https: number | null;
  last_problem_at: string | null;
}

/**
 * One connection for the records' life (opened on first use, released by close()): a save writes
 * only the changed hosts, in one immediate transaction, so a concurrent writer waits rather than
 * interleaving between a row's read and its write.
 */
function sqliteRecords(file: string, loadDriver: SqliteDriverLoader): TrustRecords {
  let connection: TrustConnection | undefined;
  const open = (create: boolean) => {
    if (connection) return connection;
    // Reading never creates the knowledge base: a run that reads no page leaves no file behind.
    if (!create && !existsSync(file)) return undefined;
    mkdirSync(dirname(file), { recursive: true });
    const Database = loadDriver();
    const database = new Database(file);
    try {
      connection = prepare(database);
    } catch (error) {
      database.close();
      throw error;
    }
    return connection;
  };
  return {
    file,
    kind: 'knowledge base',
    load() {
      const database = open(false)?.database;
      if (!database) return {};
      const rows = database.prepare('SELECT * FROM domains').all() as DomainRow[];
      return Object.fromEntries(rows.map((row) => [row.host, entryOf(row)]));
    },
    save(changes) {
      if (changes.length === 0) return {};
      return open(true)!.save(changes);
    },
    close() {
      connection?.database.close();
      connection = undefined;
    },
  };
}

interface TrustConnection {
  database: BetterSqlite3.Database;
  save(changes: readonly HostHealthChange[]): HostHealthSnapshot;
}

/** The schema and the statements of a save, made once per connection. */
function prepare(database: BetterSqlite3.Database): TrustConnection {
  database.pragma('journal_mode = WAL');
  database.pragma('busy_timeout = 5000');
  database.exec(domainsSchema);
  const select = database.prepare('SELECT * FROM domains WHERE host = ?');
  const upsert = database.prepare(
    'INSERT OR REPLACE INTO domains (host, first_seen, reference_count, failures, successes, paywalled, blocked, https, last_problem_at) ' +
      'VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)',
  );
  const write = database.transaction((changes: readonly HostHealthChange[]) => {
    const saved = mergeChanges(changes, (host) => {
      const row = select.get(host) as DomainRow | undefined;
      return row && entryOf(row);
    });
    for (const [host, entry] of Object.entries(saved)) {
      upsert.run(
        host,
        entry.firstSeen ?? null,
        entry.references ?? 0,
        entry.failures,
        entry.successes,
        entry.paywalled,
        entry.blocked ?? 0,
        entry.https === undefined ? null : Number(entry.https),
        entry.lastProblemAt ?? null,
      );
    }
    return saved;
  });
  return { database, save: (changes) => write.immediate(changes) };
}

/** The stored profiles of the changed hosts with the changes added (see TrustRecords). */
function mergeChanges(
  changes: readonly HostHealthChange[],
  stored: (host: string) => HostHealthEntry | undefined,
): HostHealthSnapshot {
  const saved: HostHealthSnapshot = {};
  for (const change of changes) saved[change.host] = addChange(stored(change.host), change);
  return saved;
}

export function entryOf(row: DomainRow): HostHealthEntry {
  return {
    failures: row.failures,
    successes: row.successes,
    paywalled: row.paywalled,
    blocked: row.blocked,
    references: row.reference_count,
    ...(row.first_seen ? { firstSeen: row.first_seen } : {}),
    ...(row.https === null ? {} : { https: row.https === 1 }),
    ...(row.last_problem_at ? { lastProblemAt: row.last_problem_at } : {}),
  };
}
