import { createHash } from 'node:crypto';
import type { Database, Statement } from 'better-sqlite3';
import type { Pool } from 'pg';
import { type DataSource, QueryFailedError } from 'typeorm';
import { statementObserver } from './statement-timing';

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
 * A name for each statement text, the same for the same text (`r_` and a hash of it), until
 * MAX_NAMED_STATEMENTS texts have one; then undefined: the statement runs unnamed.
 */
export function statementNames(): (sql: string) => string | undefined {
  const names = new Map<string, string>();
  return (sql) => {
    let name = names.get(sql);
    if (name === undefined && names.size < MAX_NAMED_STATEMENTS) {
      name = `r_${createHash('sha1').update(sql).digest('hex').slice(0, 20)}`;
      names.set(sql, name);
    }
    return name;
  };
}

/** Prepared SQLite statements kept per process, as TypeORM's `statementCacheSize` did. */
export const MAX_SQLITE_STATEMENTS = 200;

/** The SQLite connection TypeORM opened (one per process), once it is open. */
export function sqliteConnection(dataSource: DataSource): Database {
  return (dataSource.driver as unknown as { databaseConnection: Database })
    .databaseConnection;
}

/**
 * better-sqlite3's prepared statement for each text, on TypeORM's connection: prepared once, the
 * oldest dropped past MAX_SQLITE_STATEMENTS (each caller keeps a cache of its own).
 */
export function sqliteStatements(
  dataSource: DataSource,
): (sql: string) => Statement {
  const statements = new Map<string, Statement>();
  return (sql) => {
    let statement = statements.get(sql);
    if (statement === undefined) {
      statement = sqliteConnection(dataSource).prepare(sql);
      if (statements.size >= MAX_SQLITE_STATEMENTS) {
        statements.delete(statements.keys().next().value!);
      }
      statements.set(sql, statement);
    }
    return statement;
  };
}

/**
 * How the resource readers run their SQL: straight to the driver, past TypeORM's `query` (which
 * makes a query runner per call, and awaits a statement lookup and its event broadcasts), as a
 * request's reads need none of that.
 *
 * - PostgreSQL: every statement is a named prepared statement sent to TypeORM's pool: each
 *   connection parses it once, and after a few executions PostgreSQL keeps a generic plan for it,
 *   so a request costs the database execution only (TypeORM's `query` sends unnamed statements,
 *   parsed and planned on every call). Named statements need a session per connection, as a
 *   direct connection or a pooler in session mode gives.
 * - SQLite: better-sqlite3's prepared statements on TypeORM's connection, kept per statement text
 *   (bounded as TypeORM's cache was); rows read as arrays come from the driver as arrays (`raw`).
 *   Each statement is still passed to the DataSource logger's `logQuery`, where the bench's SQL
 *   counter reads it, and a failure is wrapped in QueryFailedError, as TypeORM's `query` did.
 *
 * While metrics are on, each statement's duration goes to the data source's observer
 * (statement-timing.ts), read on each call: readers are built before the metrics that observe.
 */
export function rowReader(dataSource: DataSource): ReadRows {
  if (dataSource.options.type !== 'postgres') {
    const prepare = sqliteStatements(dataSource);
    return (sql, params, options) => {
      dataSource.logger.logQuery(sql, params);
      const observe = statementObserver(dataSource);
      const start = observe === undefined ? 0 : performance.now();
      try {
        const statement = prepare(sql).raw(options?.arrays === true);
        return Promise.resolve(statement.all(...params) as Row[]);
      } catch (error) {
        return Promise.reject(
          new QueryFailedError(sql, params, error as Error),
        );
      } finally {
        observe?.((performance.now() - start) / 1000);
      }
    };
  }
  const nameOf = statementNames();
  return async (sql, params, options) => {
    // The pool TypeORM opened: the same connections, settings and type parsers as its queries.
    const pool = (dataSource.driver as unknown as { master: Pool }).master;
    const config = { name: nameOf(sql), text: sql, values: params };
    const observe = statementObserver(dataSource);
    const start = observe === undefined ? 0 : performance.now();
    try {
      if (options?.arrays) {
        const { rows } = await pool.query({ ...config, rowMode: 'array' });
        return rows as unknown as Row[];
      }
      return (await pool.query<Row>(config)).rows;
    } finally {
      observe?.((performance.now() - start) / 1000);
    }
  };
}
