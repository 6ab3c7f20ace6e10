/**
 * The one seam between SQLite and PostgreSQL for the hand-written hot-path SQL. Everything else
 * (placeholders aside) is SQL both databases run unchanged.
 *
 * JSON is built inside the database, compact and with keys in the order given, so a page of
 * orders is concatenated rather than parsed and re-serialised. SQLite has `json_object` (arrays
 * are concatenated text, see `jsonArray`); on PostgreSQL `json_build_object` pads with spaces and
 * `jsonb` reorders keys, so objects are `row_to_json` of a one-row sub-select and arrays
 * `array_to_json(array_agg)`, which print exactly what SQLite prints.
 */
export type JsonField = readonly [key: string, value: string | JsonText];

/**
 * An SQL expression whose value is JSON text that SQLite does not know to be JSON (the result of
 * a sub-query, say). `jsonObject` splices it in as is instead of quoting it as a string.
 */
export interface JsonText {
  readonly jsonText: string;
}

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
  ): JsonText;
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
  // `+?`, not `?`: SQLite re-plans (re-prepares) a statement whenever a parameter its planner
  // looked at is bound again, and it looks at `LIMIT ?` and at `col = ?` bound to 0 or 1 (a
  // possible boolean; box office 1 is a real tenant). Our plans never depend on values, and the
  // unary plus, a no-op on any value, keeps them out of the planner's sight: each statement is
  // planned once, when prepared (re-planning cost more than running a one-order lookup).
  placeholder: () => '+?',
  jsonObject: (fields) => {
    // JSON text can only be spliced in by concatenation, so it must lead the object. Such an
    // object is plain text itself: select it (the order's tail is), never nest it as a value of
    // another object, where json_object would quote it as a string.
    const firstScalar = fields.findIndex(([, v]) => typeof v === 'string');
    const leading = firstScalar === -1 ? fields.length : firstScalar;
    const rest = fields.slice(leading) as (readonly [string, string])[];
    if (rest.some(([, value]) => typeof value !== 'string')) {
      throw new Error('JSON text fields must come first in a SQLite object');
    }
    const object = `json_object(${rest.map(([k, v]) => `'${quoteKey(k)}', ${v}`).join(', ')})`;
    if (leading === 0) return object;
    // concat() copies each part once; a || b || c copies the growing prefix at every step.
    const parts = fields
      .slice(0, leading)
      .flatMap(([k, v], i) => [
        `'${i === 0 ? '{' : ','}"${quoteKey(k)}":'`,
        (v as JsonText).jsonText,
      ]);
    // Then the rest's own object without its opening brace, or just the closing brace.
    parts.push(rest.length > 0 ? `',', substr(${object}, 2)` : `'}'`);
    return `concat(${parts.join(', ')})`;
  },
  // group_concat, not json_group_array: a scalar sub-query's result loses SQLite's JSON subtype,
  // and re-parsing it with json() cost a fifth of a page's SQL time; the text is spliced into
  // the parent object instead. No ORDER BY inside the aggregate: SQLite would sort every order's
  // children in a temp B-tree, while the (order_id, id) index lookup already visits them in id
  // order (the query-plan test asserts that index is used).
  jsonArray: (fields, fromWhere) => ({
    // concat() reads the NULL of no rows as '': '[]'.
    jsonText: `concat('[', (SELECT group_concat(${sqliteDialect.jsonObject(fields)}, ',') FROM ${fromWhere}), ']')`,
  }),
  embedJson: (column) => `json(${column})`,
  asText: (expression) => expression,
};

export const postgresDialect: SqlDialect = {
  name: 'postgres',
  placeholder: (n) => `$${n}`,
  jsonObject: (fields) =>
    `(SELECT row_to_json(_r) FROM (SELECT ${fields
      .map(
        ([k, v]) =>
          `${typeof v === 'string' ? v : v.jsonText} AS "${quoteKey(k)}"`,
      )
      .join(', ')}) _r)`,
  // A json value already: row_to_json nests it as JSON.
  jsonArray: (fields, fromWhere, orderBy) => ({
    jsonText: `(SELECT coalesce(array_to_json(array_agg(${postgresDialect.jsonObject(fields)} ORDER BY ${orderBy})), '[]'::json) FROM ${fromWhere})`,
  }),
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
