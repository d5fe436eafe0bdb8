import type { SqliteDriverLoader } from '../../platform/storage/sqlite-cache.js';
import { openRunDatabase } from '../../runs/run-store-schema.js';
import { createSqlWatchStore } from './sql-watch-store.js';
import { watchTablesSql } from './watch-rows.js';
import type { WatchStore } from './watch-store.js';

/**
 * Watches on one machine: in the run store's SQLite file, beside the runs their checks start (its
 * tables created when missing, so a file of an older build gains them). Its own connection: WAL
 * lets a CLI and a server share the file.
 */
export function createSqliteWatchStore(options: {
  file: string;
  loadDriver?: SqliteDriverLoader;
}): WatchStore {
  const database = openRunDatabase(options);
  database.exec(watchTablesSql);
  return createSqlWatchStore({
    all: async (sql, params = []) => database.prepare(sql).all(...params) as Record<string, unknown>[],
    run: async (sql, params = []) => database.prepare(sql).run(...params).changes,
    close: async () => {
      if (database.open) database.close();
    },
  });
}
