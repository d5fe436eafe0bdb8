import type { Pool, QueryResultRow } from 'pg';
import { maskProxyUrl } from '../../config/proxy-settings.js';
import { ConfigError } from '../../core/errors/index.js';
import { importQueuePackage } from '../import-queue-package.js';
import { migratePostgres } from './postgres-schema.js';

/** What the stores need of Postgres: queries (a fenced write is one statement), and the pool's end. */
export interface PostgresDatabase {
  query<Row extends QueryResultRow = Record<string, unknown>>(
    sql: string,
    params?: readonly unknown[],
  ): Promise<{ rows: Row[]; rowCount: number }>;
  close(): Promise<void>;
}

export interface PostgresDatabaseOptions {
  /** postgres://user:password@host:port/database (DEEPSEARCH_DATABASE_URL). */
  url: string;
  /** Connections in the pool (default 10). */
  maxConnections?: number;
  /** An idle connection that broke (the server restarted): the next query reconnects. */
  onError?: (error: Error) => void;
}

/**
 * A pool on the deployment's database, opened on first use: `pg` is imported then (a machine
 * that never configures Postgres never loads it), and the schema is brought up to date
 * (postgres-schema.ts) before the first query runs.
 */
export function createPostgresDatabase(options: PostgresDatabaseOptions): PostgresDatabase {
  let ready: Promise<Pool> | undefined;
  const pool = () => {
    ready ??= openPool(options).catch((error: unknown) => {
      ready = undefined; // the next call tries again (Postgres may be starting)
      throw error;
    });
    return ready;
  };
  return {
    async query<Row extends QueryResultRow>(sql: string, params: readonly unknown[] = []) {
      const result = await (await pool()).query<Row>(sql, params as unknown[]);
      return { rows: result.rows, rowCount: result.rowCount ?? 0 };
    },
    async close() {
      const opened = ready;
      ready = undefined;
      if (opened) await (await opened.catch(() => undefined))?.end();
    },
  };
}

async function openPool(options: PostgresDatabaseOptions): Promise<Pool> {
  const where = maskProxyUrl(options.url);
  const pg = await importQueuePackage('pg', async () => (await import('pg')).default);
  const pool = new pg.Pool({
    connectionString: options.url,
    max: options.maxConnections ?? 10,
    // A database that is down fails the call in seconds instead of holding it.
    connectionTimeoutMillis: 5000,
  });
  pool.on('error', (error) => options.onError?.(error));
  try {
    await migratePostgres(pool);
  } catch (cause) {
    await pool.end().catch(() => undefined);
    const reason = cause instanceof Error ? cause.message : String(cause);
    throw new ConfigError(
      `cannot use the database at ${where} (${reason}): check that Postgres runs and DEEPSEARCH_DATABASE_URL is right`,
      { code: 'config_database_unavailable', cause },
    );
  }
  return pool;
}
