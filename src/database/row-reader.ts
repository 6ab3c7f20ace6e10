import { createHash } from 'node:crypto';
import type { Pool } from 'pg';
import type { DataSource } from 'typeorm';

export type Row = Record<string, unknown>;

export interface ReadOptions {
  /**
   * Each row as an array of its values in column order (still typed Row: `row[0]`), not an
   * object keyed by column name: cheaper to build for rows that are only read by position.
   */
  readonly arrays?: boolean;
}

/** Runs one statement and returns its rows, as the driver gives them. */
export type ReadRows = (
  sql: string,
  params: unknown[],
  options?: ReadOptions,
) => Promise<Row[]>;

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
    return async (sql, params, options) => {
      const rows = await dataSource.query<Row[]>(sql, params);
      // Column names are aliases, never integer-like: Object.values keeps the column order.
      return options?.arrays
        ? rows.map((row) => Object.values(row) as unknown as Row)
        : rows;
    };
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
  return async (sql, params, options) => {
    // The pool TypeORM opened: the same connections, settings and type parsers as its queries.
    const pool = (dataSource.driver as unknown as { master: Pool }).master;
    const config = { name: nameOf(sql), text: sql, values: params };
    if (options?.arrays) {
      const { rows } = await pool.query({ ...config, rowMode: 'array' });
      return rows as unknown as Row[];
    }
    return (await pool.query<Row>(config)).rows;
  };
}
