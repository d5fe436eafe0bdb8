import type BetterSqlite3 from 'better-sqlite3';
import type { SqliteDriverLoader } from '../../platform/storage/sqlite-cache.js';
import { openRunDatabase } from '../../runs/run-store-schema.js';
import { createSqlWatchStore } from './sql-watch-store.js';
import { watchTablesSql } from './watch-rows.js';
import type { WatchStore } from './watch-store.js';

/**
 * Watches on one machine: in the run store's SQLite file, beside the runs their checks start (its
 * tables created when missing, so a file of an older build gains them). Its own connection: WAL
 * lets a CLI and a server share the file. The file is opened on first use, and a file that cannot
 * be opened rejects each call with the run store's `config_runs_unavailable` error (the server
 * says 503 for it, as for the runs) and is tried again on the next.
 */
export function createSqliteWatchStore(options: {
  file: string;
  loadDriver?: SqliteDriverLoader;
}): WatchStore {
  let database: BetterSqlite3.Database | undefined;
  const open = () => {
    if (!database) {
      const opened = openRunDatabase(options);
      opened.exec(watchTablesSql);
      database = opened;
    }
    return database;
  };
  return createSqlWatchStore({
    all: async (sql, params = []) =>
      open()
        .prepare(sql)
        .all(...params) as Record<string, unknown>[],
    run: async (sql, params = []) =>
      open()
        .prepare(sql)
        .run(...params).changes,
    close: async () => {
      if (database?.open) database.close();
    },
  });
}
