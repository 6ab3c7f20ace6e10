/**
 * The one seam between SQLite and PostgreSQL for the hand-written hot-path SQL. Everything else
 * (placeholders aside) is SQL both databases run unchanged.
 *
 * JSON is built inside the database, compact and with keys in the order given, so a page of
 * orders is concatenated rather than parsed and re-serialised. SQLite has `json_object` /
 * `json_group_array`; on PostgreSQL `json_build_object` pads with spaces and `jsonb` reorders
 * keys, so objects are `row_to_json` of a one-row sub-select and arrays `array_to_json(array_agg)`,
 * which print exactly what SQLite prints.
 */
export type JsonField = readonly [key: string, sqlExpression: string];

export interface SqlDialect {
  readonly name: 'sqlite' | 'postgres';
  /** Placeholder for the n-th (1-based) parameter. */
  placeholder(n: number): string;
  /** A JSON object with the given keys, in order. */
  jsonObject(fields: readonly JsonField[]): string;
  /**
   * A JSON array (empty, never null) of one object per row of `fromWhere`, in `orderBy` order.
   * SQLite ignores `orderBy` and relies on `fromWhere` being read through an index in that order
   * (see below); PostgreSQL sorts the aggregate.
   */
  jsonArray(
    fields: readonly JsonField[],
    fromWhere: string,
    orderBy: string,
  ): string;
  /** A TEXT column that holds JSON, embedded as JSON rather than as a string. */
  embedJson(column: string): string;
  /** A JSON expression selected as text (so that the driver hands back the string untouched). */
  asText(jsonExpression: string): string;
}

const quoteKey = (key: string) => {
  if (!/^[a-z_][a-z0-9_]*$/.test(key)) throw new Error(`bad JSON key ${key}`);
  return key;
};

export const sqliteDialect: SqlDialect = {
  name: 'sqlite',
  placeholder: () => '?',
  jsonObject: (fields) =>
    `json_object(${fields.map(([k, v]) => `'${quoteKey(k)}', ${v}`).join(', ')})`,
  // No ORDER BY inside the aggregate: SQLite would sort every order's children in a temp B-tree,
  // while the (order_id, id) index lookup already visits them in id order (the query-plan test
  // asserts that index is used). json(): a scalar sub-query's result loses SQLite's JSON subtype
  // and would otherwise nest as a string.
  jsonArray: (fields, fromWhere) =>
    `json((SELECT json_group_array(${sqliteDialect.jsonObject(fields)}) FROM ${fromWhere}))`,
  embedJson: (column) => `json(${column})`,
  asText: (expression) => expression,
};

export const postgresDialect: SqlDialect = {
  name: 'postgres',
  placeholder: (n) => `$${n}`,
  jsonObject: (fields) =>
    `(SELECT row_to_json(_r) FROM (SELECT ${fields
      .map(([k, v]) => `${v} AS "${quoteKey(k)}"`)
      .join(', ')}) _r)`,
  jsonArray: (fields, fromWhere, orderBy) =>
    `(SELECT coalesce(array_to_json(array_agg(${postgresDialect.jsonObject(fields)} ORDER BY ${orderBy})), '[]'::json) FROM ${fromWhere})`,
  embedJson: (column) => `${column}::json`,
  asText: (expression) => `(${expression})::text`,
};

export function dialectFor(type: string): SqlDialect {
  if (type === 'better-sqlite3' || type === 'sqlite') return sqliteDialect;
  if (type === 'postgres') return postgresDialect;
  throw new Error(`unsupported database type ${type}`);
}

/** Collects parameters and hands out placeholders in order, for either dialect. */
export class SqlParams {
  readonly values: unknown[] = [];
  constructor(private readonly dialect: SqlDialect) {}

  add(value: unknown): string {
    this.values.push(value);
    return this.dialect.placeholder(this.values.length);
  }
}
