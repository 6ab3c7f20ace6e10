/**
 * The vocabulary of a resource's field table: what each JSON value of the resource is made of,
 * laid out like the resource itself. A table is data, not SQL text, so that one table can be
 * compiled two ways (see `resource-json.ts`): into SQL that builds the JSON inside the database
 * (`json/sqlite.ts`), or into a writer that builds it in the service from plain rows
 * (`json/postgres.ts`). Every scalar renders SQL NULL as JSON `null`.
 *
 * `sql` strings are SQL expressions over the table aliases of the statement that reads the
 * resource (`o.id`); they come from the field tables only, never from a request.
 */
export type JsonValue =
  /** A constant, given as the JSON text to emit (`"order"`, `[]`). */
  | { readonly kind: 'literal'; readonly json: string }
  /** Text; `nullable` declares that the column may hold NULL (both writers render it as null). */
  | {
      readonly kind: 'string';
      readonly sql: string;
      readonly nullable: boolean;
    }
  | {
      readonly kind: 'integer';
      readonly sql: string;
      readonly nullable: boolean;
    }
  /** `<prefix><number>`: a public id from an integer column. */
  | {
      readonly kind: 'id';
      readonly prefix: string;
      readonly sql: string;
      readonly nullable: boolean;
    }
  /** A boolean, carried as the string `"true"` or `"false"` (as the API carries flags). */
  | { readonly kind: 'flag'; readonly sql: string }
  /** A TEXT column that holds JSON written by the service's own writers, embedded as JSON. */
  | { readonly kind: 'stored'; readonly sql: string }
  | { readonly kind: 'object'; readonly fields: Fields }
  | JsonArray
  | JsonComputed;

/**
 * The rows of a child table that belong to the row being written, as a JSON array (empty, never
 * null), in `orderBy` order.
 */
export interface JsonArray {
  readonly kind: 'array';
  readonly of: JsonValue;
  /** The child table and its alias: `line_items li`. */
  readonly from: string;
  /**
   * Aliases of the parent's statement that `of` reads (an issued ticket's `o.buyer_email`: its
   * order's). Built inside the parent's statement (SQLite), the array reads them from the parent
   * row it is correlated with; read by a statement of its own (PostgreSQL), its rows get them from
   * their parent row once attached to it, so that statement joins nothing back to the parent.
   */
  readonly parentAliases?: readonly string[];
  /** The child's column that names its parent, and the parent's column it names. */
  readonly link: readonly [child: string, parent: string];
  readonly orderBy: readonly string[];
  /**
   * The index that finds the children by `link` already returns them in `orderBy` order, so a
   * statement that reads them through it needs no sort.
   */
  readonly indexOrdered: boolean;
}

/**
 * A value the service computes from some columns, because SQL cannot (a date shown in an IANA
 * time zone). Only at the top level of a resource.
 */
export interface JsonComputed {
  readonly kind: 'computed';
  /** The columns it needs, by the name `render` reads them under. */
  readonly columns: Readonly<Record<string, string>>;
  /** The value's JSON text. Column values arrive as the driver gives them. */
  render(values: Readonly<Record<string, unknown>>): string;
}

export type Fields = readonly (readonly [key: string, value: JsonValue])[];

/**
 * Values aggregated over another table's rows once per resource row (a series' counts over its
 * dates), which fields read as `<alias>.<column>`. Where a join may read the row it joins
 * (SqlDialect.lateralJoins) the reader joins the aggregate once, so all its columns come from
 * one scan of those rows; elsewhere each reference becomes a scalar subquery of its own
 * (`inlineRowAggregate`), with the same values.
 */
export interface RowAggregate {
  readonly alias: string;
  /** The rows, correlated with the resource's: `events x WHERE x.event_series_id = es.id`. */
  readonly from: string;
  /** Each column's aggregate over them: `count(*)`. */
  readonly columns: Readonly<Record<string, string>>;
}

/** The aggregate as one subquery that yields a row of its columns, for a lateral join. */
export function rowAggregateSql(aggregate: RowAggregate): string {
  const columns = Object.entries(aggregate.columns)
    .map(([name, sql]) => `${sql} AS ${checkKey(name)}`)
    .join(', ');
  return `(SELECT ${columns} FROM ${aggregate.from}) ${aggregate.alias}`;
}

/**
 * The fields with every `<alias>.<column>` of the aggregate replaced by the scalar subquery that
 * computes it; a column the aggregate does not have stops the application when it starts.
 */
export function inlineRowAggregate(
  fields: Fields,
  aggregate: RowAggregate,
): Fields {
  const reference = new RegExp(`\\b${aggregate.alias}\\.(\\w+)\\b`, 'g');
  return mapFieldSql(fields, (sql) =>
    sql.replace(reference, (_, column: string) => {
      if (!Object.hasOwn(aggregate.columns, column)) {
        throw new Error(
          `${aggregate.alias}.${column}: the row aggregate has no such column`,
        );
      }
      return `(SELECT ${aggregate.columns[column]} FROM ${aggregate.from})`;
    }),
  );
}

/** The fields with each of their SQL expressions (values, computed columns) passed through `map`. */
export function mapFieldSql(
  fields: Fields,
  map: (sql: string) => string,
): Fields {
  const mapFields = (table: Fields): Fields =>
    table.map(([key, value]) => [key, mapValue(value)] as const);
  const mapValue = (value: JsonValue): JsonValue => {
    switch (value.kind) {
      case 'literal':
        return value;
      case 'object':
        return { ...value, fields: mapFields(value.fields) };
      case 'array':
        return { ...value, of: mapValue(value.of) };
      case 'computed':
        return {
          ...value,
          columns: Object.fromEntries(
            Object.entries(value.columns).map(([name, sql]) => [
              name,
              map(sql),
            ]),
          ),
        };
      default:
        return { ...value, sql: map(value.sql) };
    }
  };
  return mapFields(fields);
}

/** Field-table shorthands, so a table reads like the resource. */
export const json = {
  literal: (value: string | number | null | readonly []): JsonValue => ({
    kind: 'literal',
    json: JSON.stringify(value),
  }),
  string: (sql: string): JsonValue => ({
    kind: 'string',
    sql,
    nullable: false,
  }),
  nullableString: (sql: string): JsonValue => ({
    kind: 'string',
    sql,
    nullable: true,
  }),
  integer: (sql: string): JsonValue => ({
    kind: 'integer',
    sql,
    nullable: false,
  }),
  nullableInteger: (sql: string): JsonValue => ({
    kind: 'integer',
    sql,
    nullable: true,
  }),
  id: (prefix: string, sql: string): JsonValue => ({
    kind: 'id',
    prefix,
    sql,
    nullable: false,
  }),
  nullableId: (prefix: string, sql: string): JsonValue => ({
    kind: 'id',
    prefix,
    sql,
    nullable: true,
  }),
  flag: (sql: string): JsonValue => ({ kind: 'flag', sql }),
  stored: (sql: string): JsonValue => ({ kind: 'stored', sql }),
  object: (fields: Fields): JsonValue => ({ kind: 'object', fields }),
  array: (array: Omit<JsonArray, 'kind'>): JsonArray => ({
    kind: 'array',
    ...array,
  }),
  computed: <K extends string>(
    columns: Readonly<Record<K, string>>,
    render: (values: Readonly<Record<K, unknown>>) => string,
  ): JsonComputed => ({
    kind: 'computed',
    columns,
    render: render as JsonComputed['render'],
  }),
};

/** JSON keys are written into SQL and code as they are: plain snake_case names only. */
export function checkKey(key: string): string {
  if (!/^[a-z_][a-z0-9_]*$/.test(key)) throw new Error(`bad JSON key ${key}`);
  return key;
}

/**
 * The table aliases an SQL expression of a field table reads columns of (`o` in `o.id`): string
 * literals aside, and less the aliases its own subqueries declare (`FROM ticket_types ta`).
 */
export function aliasesRead(sql: string): string[] {
  const code = sql.replace(/'(?:[^']|'')*'/g, "''");
  const declared = new Set(
    [...code.matchAll(/\b(?:FROM|JOIN)\s+\w+\s+(?:AS\s+)?(\w+)/gi)].map(
      (match) => match[1],
    ),
  );
  const read = new Set(
    [...code.matchAll(/\b([a-z_]\w*)\.[a-z_]/gi)].map((match) => match[1]),
  );
  return [...read].filter((alias) => !declared.has(alias));
}

/** The alias a child array's rows are read under: `t` in `issued_tickets t`. */
export function arrayAlias(array: JsonArray): string {
  const alias = /^\w+\s+(?:AS\s+)?(\w+)$/i.exec(array.from.trim())?.[1];
  if (alias === undefined) {
    throw new Error(
      `${array.from}: an array reads one table, as "<table> <alias>"`,
    );
  }
  return alias;
}

/**
 * Checks the rules of a field table that neither database could report before a request reaches
 * it, so that a mistake stops the application when it starts, on SQLite as on PostgreSQL:
 * - an array's values read its own table's alias, or the parent's aliases it names in
 *   `parentAliases`, and a parent's column only as it is (`o.buyer_email`, not
 *   `lower(o.buyer_email)`: on PostgreSQL the child's statement does not join its parent);
 * - its link reads its own alias on the child's side;
 * - computed values are top-level fields;
 * - keys are plain snake_case names.
 */
export function checkFieldTable(fields: Fields): void {
  const check = (
    value: JsonValue,
    array: JsonArray | null,
    own: string | null,
  ) => {
    switch (value.kind) {
      case 'literal':
        return;
      case 'object':
        for (const [key, field] of value.fields) {
          checkKey(key);
          check(field, array, own);
        }
        return;
      case 'computed':
        if (array)
          throw new Error(
            `${array.from}: a computed value can only be a top-level field`,
          );
        return;
      case 'array': {
        const alias = arrayAlias(value);
        if (!aliasesRead(value.link[0]).every((read) => read === alias)) {
          throw new Error(
            `${value.link[0]}: an array's link reads its own table (${alias}) on the child's side`,
          );
        }
        check(value.of, value, alias);
        return;
      }
      default: {
        if (!array || own === null) return;
        const parents = array.parentAliases ?? [];
        for (const read of aliasesRead(value.sql)) {
          if (read === own) continue;
          if (!parents.includes(read)) {
            throw new Error(
              `${value.sql}: an array of ${array.from} reads ${read}, which is neither its own alias nor one of its parentAliases`,
            );
          }
          if (!new RegExp(`^${read}\\.\\w+$`).test(value.sql.trim())) {
            throw new Error(
              `${value.sql}: a child reads its parent's columns as they are (${read}.<column>)`,
            );
          }
        }
      }
    }
  };
  check({ kind: 'object', fields }, null, null);
}
