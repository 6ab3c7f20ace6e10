/**
 * The one seam between SQLite and PostgreSQL for the hand-written SQL: placeholders, who builds a
 * resource's JSON, whether a join may read the row it joins, how writers take turns and what an
 * INSERT returns. Everything else is SQL both databases run unchanged (case-insensitive matching
 * included: search-fold.ts).
 */
export interface SqlDialect {
  readonly name: 'sqlite' | 'postgres';
  /**
   * Where resource JSON is built (see src/common/resources): `database`, by SQL that returns
   * JSON text, or `service`, by a writer over plain rows. The benchmark decides per database
   * (bench/notes/2026-11-23-postgresql-where-the-time-goes.md): on SQLite the query runs in the
   * service's own process, so building the text there costs nothing extra; on PostgreSQL the
   * database's CPU is shared by every instance.
   */
  readonly jsonBuiltBy: 'database' | 'service';
  /**
   * Whether a subquery in FROM may read the columns of the rows before it (`CROSS JOIN LATERAL`):
   * PostgreSQL's; SQLite has no such join (see RowAggregate in common/resources).
   */
  readonly lateralJoins: boolean;
  /**
   * Whether a write transaction runs whole while no other runs, on any process (SQLite: the write
   * lock from BEGIN IMMEDIATE, the work run synchronously; write-transaction.ts): no request can
   * see another's transaction half done, so what PostgreSQL must announce to the transactions
   * running beside it (an Idempotency-Key's hold) needs nothing sent.
   */
  readonly writesInTurn: boolean;
  /**
   * Whether an INSERT's RETURNING gives the row as stored, stamps included: PostgreSQL stamps a
   * row in BEFORE triggers; SQLite's stamps are AFTER triggers, which RETURNING does not see, so
   * there the row must be read again.
   */
  readonly returnsStampedRows: boolean;
  /** Placeholder for the n-th (1-based) parameter. */
  placeholder(n: number): string;
  /**
   * The database's clock in whole Unix seconds, as a `bigint` expression: one clock for every
   * instance, the one the triggers stamp rows with.
   */
  readonly now: string;
  /**
   * The database's clock in whole Unix milliseconds, as a `bigint` expression: the one clock that
   * instances whose own clocks drift apart agree on (webhook leases and retry times).
   */
  readonly nowMs: string;
}

export const sqliteDialect: SqlDialect = {
  name: 'sqlite',
  jsonBuiltBy: 'database',
  lateralJoins: false,
  writesInTurn: true,
  returnsStampedRows: false,
  // `+?`, not `?`: SQLite re-plans (re-prepares) a statement whenever a parameter its planner
  // looked at is bound again, and it looks at `LIMIT ?` and at `col = ?` bound to 0 or 1 (a
  // possible boolean; box office 1 is a real tenant). Our plans never depend on values, and the
  // unary plus, a no-op on any value, keeps them out of the planner's sight: each statement is
  // planned once, when prepared.
  placeholder: () => '+?',
  now: 'unixepoch()',
  nowMs: "CAST(unixepoch('subsec') * 1000 AS INTEGER)",
};

export const postgresDialect: SqlDialect = {
  name: 'postgres',
  jsonBuiltBy: 'service',
  lateralJoins: true,
  writesInTurn: false,
  returnsStampedRows: true,
  placeholder: (n) => `$${n}`,
  now: 'floor(extract(epoch FROM clock_timestamp()))::bigint',
  nowMs: 'floor(extract(epoch FROM clock_timestamp()) * 1000)::bigint',
};

export function dialectFor(type: string): SqlDialect {
  if (type === 'better-sqlite3' || type === 'sqlite') return sqliteDialect;
  if (type === 'postgres') return postgresDialect;
  throw new Error(`unsupported database type ${type}`);
}

/** Collects parameters and hands out placeholders in order, for either dialect. */
export class SqlParams {
  readonly values: unknown[] = [];
  constructor(readonly dialect: SqlDialect) {}

  add(value: unknown): string {
    this.values.push(value);
    return this.dialect.placeholder(this.values.length);
  }
}

/** SQL text with its parameters, in the dialect's placeholders. */
export interface Statement {
  readonly sql: string;
  readonly params: unknown[];
}
