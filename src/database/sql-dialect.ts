/**
 * The one seam between SQLite and PostgreSQL for the hand-written SQL: placeholders, lower case,
 * who builds a resource's JSON, and whether a join may read the row it joins. Everything else is
 * SQL both databases run unchanged.
 */
export interface SqlDialect {
  readonly name: 'sqlite' | 'postgres';
  /**
   * Where resource JSON is built (see src/common/resources): `database`, by SQL that returns
   * JSON text, or `service`, by a writer over plain rows. The benchmark decides per database
   * (bench/README.md): on SQLite the query runs in the service's own process, so building the
   * text there costs nothing extra; on PostgreSQL the database's CPU is shared by every instance.
   */
  readonly jsonBuiltBy: 'database' | 'service';
  /**
   * Whether a subquery in FROM may read the columns of the rows before it (`CROSS JOIN LATERAL`):
   * PostgreSQL's; SQLite has no such join (see RowAggregate in common/resources).
   */
  readonly lateralJoins: boolean;
  /** Placeholder for the n-th (1-based) parameter. */
  placeholder(n: number): string;
  /**
   * `sql` in lower case, every script's letters alike (`Ö` → `ö`), for case-insensitive matching.
   * PostgreSQL's lower() does so under a UTF-8 ctype; SQLite's folds only ASCII, so there it is
   * FOLD_FUNCTION, which each connection defines (data-source-options.ts).
   */
  readonly lower: (sql: string) => string;
  /**
   * The database's clock in whole Unix seconds, as a `bigint` expression: one clock for every
   * instance, the one the triggers stamp rows with.
   */
  readonly now: string;
}

/**
 * SQLite's Unicode lower case, defined on each connection: each character's own lower case, as
 * PostgreSQL's lower() maps it (a whole string's toLowerCase would spell a final Σ `ς`, and then
 * `ΟΣ` would not be found in `ΟΣΑ`).
 */
export const FOLD_FUNCTION = {
  name: 'unicode_lower',
  fold: (value: unknown): unknown =>
    typeof value === 'string'
      ? Array.from(value, (c) => c.toLowerCase()).join('')
      : value,
} as const;

export const sqliteDialect: SqlDialect = {
  name: 'sqlite',
  jsonBuiltBy: 'database',
  lateralJoins: false,
  // `+?`, not `?`: SQLite re-plans (re-prepares) a statement whenever a parameter its planner
  // looked at is bound again, and it looks at `LIMIT ?` and at `col = ?` bound to 0 or 1 (a
  // possible boolean; box office 1 is a real tenant). Our plans never depend on values, and the
  // unary plus, a no-op on any value, keeps them out of the planner's sight: each statement is
  // planned once, when prepared.
  placeholder: () => '+?',
  lower: (sql) => `${FOLD_FUNCTION.name}(${sql})`,
  now: 'unixepoch()',
};

export const postgresDialect: SqlDialect = {
  name: 'postgres',
  jsonBuiltBy: 'service',
  lateralJoins: true,
  placeholder: (n) => `$${n}`,
  lower: (sql) => `lower(${sql})`,
  now: 'floor(extract(epoch FROM clock_timestamp()))::bigint',
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
