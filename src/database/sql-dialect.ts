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
  /**
   * Whether a count the triggers keep (an event's sales, a ticket type's issued tickets, the
   * overview's rollups) is its row plus deltas not yet folded into it: PostgreSQL's, so that no
   * writer holds the counted row (migration CountsWithoutHotRows; pending-counts.ts).
   */
  readonly countsPending: boolean;
  /**
   * Whether a LIMIT's row count is written into the statement's text rather than sent as a
   * parameter (SqlParams.limit). PostgreSQL: the generic plan it may keep for a named statement
   * cannot see a parameter's value and costs `LIMIT $n` as a tenth of the rows; for a page that is
   * a hundred times the custom plan's cost, so it never keeps the generic plan and plans the page
   * again on every execution (a third of a millisecond of the database's CPU a walk page:
   * bench/notes/2026-12-07-postgresql-cpu-per-page.md). With the count in the text, the generic
   * plan is costed as the custom one and kept. SQLite plans a statement once, when prepared.
   */
  readonly literalLimits: boolean;
  /**
   * Whether a list page's statement hides the values its plan would otherwise depend on: the
   * tenant is a sub-select of the parameter, and a cursor given as an id is the sub-select of its
   * row's key and id, in the page statement (no lookup of its own); the probe for the other
   * direction is a column of the page too. PostgreSQL: the planner then costs a page alike for
   * every value, so after its fifth execution a named statement keeps its generic plan instead of
   * planning every page again (0.2–0.4 ms of the database's CPU a page, more than the page's
   * execution), and a page needs two round trips fewer. The plan is the generic plan
   * `npm run bench:explain` shows. SQLite plans a statement once and reads in-process.
   */
  readonly valueFreePages: boolean;
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
  countsPending: false,
  literalLimits: false,
  valueFreePages: false,
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
  countsPending: true,
  literalLimits: true,
  valueFreePages: true,
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

  /**
   * A LIMIT's row count: a parameter, or the number itself where the dialect writes it into the
   * text (SqlDialect.literalLimits). Each count is then a statement text of its own: the page sizes
   * a client uses (1 to 100 items a page, one more read) times the list's shapes, within the
   * named statements a process keeps (row-reader.ts, MAX_NAMED_STATEMENTS).
   */
  limit(rows: number): string {
    if (!Number.isSafeInteger(rows) || rows < 0) {
      throw new Error(`LIMIT ${String(rows)} is not a row count`);
    }
    return this.dialect.literalLimits ? String(rows) : this.add(rows);
  }
}

/** SQL text with its parameters, in the dialect's placeholders. */
export interface Statement {
  readonly sql: string;
  readonly params: unknown[];
}
