import type { PostgresDatabase } from '../../scale/postgres/postgres-database.js';
import { createSqlWatchStore } from './sql-watch-store.js';
import type { WatchStore } from './watch-store.js';

/**
 * Watches in queue mode: in the deployment's Postgres (its tables are a migration of
 * postgres-schema.ts), shared by every node and worker. The database is the queue mode's own; it
 * is closed with it, not here.
 */
export function createPostgresWatchStore(database: PostgresDatabase): WatchStore {
  const numbered = (sql: string) => {
    let index = 0;
    return sql.replace(/\?/g, () => `$${++index}`);
  };
  return createSqlWatchStore({
    all: async (sql, params = []) => (await database.query(numbered(sql), params)).rows,
    run: async (sql, params = []) => (await database.query(numbered(sql), params)).rowCount,
    close: async () => undefined,
  });
}
