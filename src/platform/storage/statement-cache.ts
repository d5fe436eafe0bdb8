import type BetterSqlite3 from 'better-sqlite3';

export type PreparedStatements = (sql: string) => BetterSqlite3.Statement;

/**
 * Prepared once per SQL text: a query runs a handful of statements, each compiled only once
 * per open database.
 */
export function createStatementCache(database: BetterSqlite3.Database): PreparedStatements {
  const statements = new Map<string, BetterSqlite3.Statement>();
  return (sql) => {
    let statement = statements.get(sql);
    if (!statement) {
      statement = database.prepare(sql);
      statements.set(sql, statement);
    }
    return statement;
  };
}
