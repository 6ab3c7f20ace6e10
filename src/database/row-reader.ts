import { createHash } from 'node:crypto';
import type { Pool } from 'pg';
import type { DataSource } from 'typeorm';

export type Row = Record<string, unknown>;

/** Runs one statement and returns its rows, as the driver gives them. */
export type ReadRows = (sql: string, params: unknown[]) => Promise<Row[]>;

/**
 * Distinct statement texts given a name of their own, per process. Texts vary only with the
 * shape of a request (which filters, how many ids in a list), so a real workload names a few
 * dozen; the bound keeps a pathological mix from growing every connection's plan cache without
 * end: past it, statements run unnamed (parsed and planned each time, as before).
 */
export const MAX_NAMED_STATEMENTS = 256;

/**
 * How the resource readers run their SQL. On PostgreSQL every statement is a named prepared
 * statement sent straight to the driver's pool: each connection parses it once, and after a few
 * executions PostgreSQL keeps a generic plan for it, so a request costs the database execution
 * only (TypeORM's `query` sends unnamed statements, parsed and planned on every call, and wraps
 * each call in a query runner of its own). Named statements need a session per connection, as a
 * direct connection or a pooler in session mode gives. On SQLite TypeORM's driver already keeps
 * prepared statements (`statementCacheSize`).
 */
export function rowReader(dataSource: DataSource): ReadRows {
  if (dataSource.options.type !== 'postgres') {
    return (sql, params) => dataSource.query<Row[]>(sql, params);
  }
  const names = new Map<string, string>();
  const nameOf = (sql: string): string | undefined => {
    let name = names.get(sql);
    if (name === undefined && names.size < MAX_NAMED_STATEMENTS) {
      name = `r_${createHash('sha1').update(sql).digest('hex').slice(0, 20)}`;
      names.set(sql, name);
    }
    return name;
  };
  return async (sql, params) => {
    // The pool TypeORM opened: the same connections, settings and type parsers as its queries.
    const pool = (dataSource.driver as unknown as { master: Pool }).master;
    const result = await pool.query<Row>({
      name: nameOf(sql),
      text: sql,
      values: params,
    });
    return result.rows;
  };
}
