import { createHash } from 'node:crypto';
import type { DataSource } from 'typeorm';

/**
 * The schema of a migrated database as one SQL text to read: per table its definition, then its
 * indexes, then its triggers (on PostgreSQL each preceded by the function it runs, when only that
 * table's triggers run it). Names in byte order; nothing that depends on when or by whom it was
 * made (no OIDs, owners, dates or sequence positions). TypeORM's `migrations` table is left out.
 */
export function schemaSql(dataSource: DataSource): Promise<string> {
  return dataSource.options.type === 'postgres'
    ? postgresSchemaSql(dataSource)
    : sqliteSchemaSql(dataSource);
}

const byName = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** A section per object, each statement ended by `;`, sections one blank line apart. */
const sections = (statements: string[]) =>
  statements.map((sql) => `${sql};\n`).join('\n');

/**
 * Lines indented by two spaces after being moved left together (as far as the least indented of
 * them allows), trailing spaces and empty lines gone: migrations build their SQL in indented
 * template strings, and the database keeps that indent.
 */
function dedent(lines: string[]): string[] {
  const kept = lines
    .map((line) => line.trimEnd())
    .filter((line) => line.trim() !== '');
  const indent = Math.min(
    ...kept.map((line) => line.length - line.trimStart().length),
  );
  return kept.map((line) => `  ${line.slice(indent)}`);
}

/** A definition as sent, its lines after the first dedented. */
function tidy(sql: string): string {
  const [first, ...rest] = sql.split('\n');
  return [first.trim(), ...dedent(rest)].join('\n');
}

/**
 * `CREATE TABLE t (a, b, CONSTRAINT …)` with each column and constraint on a line of its own.
 * SQLite keeps a table's CREATE TABLE as sent, with the columns ALTER TABLE added appended to it;
 * the list is split at its top-level commas (outside parentheses, quotes and brackets).
 */
function columnPerLine(createTable: string): string {
  const open = createTable.indexOf('(');
  const parts: string[] = [];
  let depth = 0;
  let quote: string | null = null;
  let start = open + 1;
  let close = -1;
  for (let i = open + 1; i < createTable.length && close < 0; i++) {
    const c = createTable[i];
    if (quote) {
      if (c === quote) quote = null;
    } else if (c === "'" || c === '"' || c === '`') {
      quote = c;
    } else if (c === '[') {
      quote = ']';
    } else if (c === '(') {
      depth++;
    } else if (c === ')') {
      if (depth === 0) close = i;
      else depth--;
    } else if (c === ',' && depth === 0) {
      parts.push(createTable.slice(start, i));
      start = i + 1;
    }
  }
  if (open < 0 || close < 0) return createTable;
  parts.push(createTable.slice(start, close));
  return `${createTable.slice(0, open).trimEnd()} (\n${parts
    .map((part) => `  ${part.replace(/\s+/g, ' ').trim()}`)
    .join(',\n')}\n)${createTable.slice(close + 1)}`;
}

async function sqliteSchemaSql(dataSource: DataSource): Promise<string> {
  const objects = await dataSource.query<
    { type: string; name: string; table: string; sql: string }[]
  >(
    `SELECT type, name, tbl_name AS "table", sql FROM sqlite_master
      WHERE sql IS NOT NULL AND name NOT LIKE 'sqlite_%' AND tbl_name <> 'migrations'`,
  );
  const rank = { table: 0, view: 0, index: 1, trigger: 2 } as Record<
    string,
    number
  >;
  objects.sort(
    (a, b) =>
      byName(a.table, b.table) ||
      rank[a.type] - rank[b.type] ||
      byName(a.name, b.name),
  );
  return sections(
    objects.map(({ type, sql }) =>
      type === 'table' ? columnPerLine(sql) : tidy(sql),
    ),
  );
}

type Rows<T> = Promise<T[]>;

async function postgresSchemaSql(dataSource: DataSource): Promise<string> {
  const all = <T>(sql: string, parameters?: unknown[]): Rows<T> =>
    dataSource.query<T[]>(sql, parameters);

  const schemas = await all<{ name: string }>(
    `SELECT nspname AS name FROM pg_namespace
      WHERE nspname NOT IN ('public', 'information_schema') AND nspname NOT LIKE 'pg\\_%'`,
  );
  const unshown = await all<{ name: string }>(
    `SELECT t.typname AS name FROM pg_type t JOIN pg_namespace n ON n.oid = t.typnamespace
      WHERE n.nspname = 'public' AND t.typtype IN ('d', 'r', 'm')
     UNION ALL
     SELECT c.relname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE n.nspname = 'public' AND c.relkind IN ('p', 'f', 'c')`,
  );
  if (schemas.length > 0 || unshown.length > 0) {
    throw new Error(
      `The schema holds what schemaSql does not show yet: ${[
        ...schemas,
        ...unshown,
      ]
        .map((row) => row.name)
        .join(', ')}`,
    );
  }

  const statements: string[] = [];
  for (const { name } of await all<{ name: string }>(
    `SELECT extname AS name FROM pg_extension WHERE extname <> 'plpgsql' ORDER BY extname COLLATE "C"`,
  )) {
    statements.push(`CREATE EXTENSION ${name}`);
  }
  for (const { name, labels } of await all<{ name: string; labels: string }>(
    `SELECT quote_ident(t.typname) AS name,
            string_agg(quote_literal(e.enumlabel), ', ' ORDER BY e.enumsortorder) AS labels
       FROM pg_type t JOIN pg_namespace n ON n.oid = t.typnamespace
       JOIN pg_enum e ON e.enumtypid = t.oid
      WHERE n.nspname = 'public' GROUP BY t.typname ORDER BY t.typname COLLATE "C"`,
  )) {
    statements.push(`CREATE TYPE ${name} AS ENUM (${labels})`);
  }

  const functions = await all<{
    oid: number;
    definition: string;
    tables: string[] | null;
  }>(
    `SELECT p.oid, pg_get_functiondef(p.oid) AS definition,
            (SELECT array_agg(DISTINCT t.tgrelid::regclass::text)
               FROM pg_trigger t WHERE t.tgfoid = p.oid AND NOT t.tgisinternal) AS tables
       FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
      WHERE n.nspname = 'public' AND p.prokind IN ('f', 'p')
        -- An extension's own functions come with its CREATE EXTENSION above.
        AND NOT EXISTS (SELECT 1 FROM pg_depend x WHERE x.classid = 'pg_proc'::regclass
                          AND x.objid = p.oid AND x.deptype = 'e')
      ORDER BY p.proname COLLATE "C", pg_get_function_identity_arguments(p.oid) COLLATE "C"`,
  );
  /** A function that only one table's triggers run is shown with them; the others come first. */
  const ownFunction = new Map<number, string>();
  for (const { oid, definition, tables } of functions) {
    const text = postgresFunction(definition);
    if (tables?.length === 1) ownFunction.set(oid, text);
    else statements.push(text);
  }

  const relations = await all<{ oid: number; name: string; kind: string }>(
    `SELECT c.oid, quote_ident(c.relname) AS name, c.relkind AS kind
       FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE n.nspname = 'public' AND c.relkind IN ('r', 'v', 'm') AND c.relname <> 'migrations'
      ORDER BY c.relname COLLATE "C"`,
  );
  for (const { oid, name, kind } of relations) {
    if (kind === 'r') {
      statements.push(await postgresTable(all, oid, name));
      statements.push(...(await postgresSequences(all, oid)));
    } else {
      const [{ definition }] = await all<{ definition: string }>(
        'SELECT pg_get_viewdef($1::oid, true) AS definition',
        [oid],
      );
      const materialized = kind === 'm' ? 'MATERIALIZED ' : '';
      statements.push(
        `CREATE ${materialized}VIEW ${name} AS\n${definition.replace(/;$/, '')}`,
      );
    }
    for (const { definition } of await all<{ definition: string }>(
      `SELECT pg_get_indexdef(x.indexrelid) AS definition
         FROM pg_index x JOIN pg_class i ON i.oid = x.indexrelid
        WHERE x.indrelid = $1 AND NOT EXISTS (SELECT 1 FROM pg_constraint c
                WHERE c.conindid = x.indexrelid AND c.conrelid = x.indrelid)
        ORDER BY i.relname COLLATE "C"`,
      [oid],
    )) {
      statements.push(definition);
    }
    for (const { definition, fn } of await all<{
      definition: string;
      fn: number;
    }>(
      `SELECT pg_get_triggerdef(t.oid, true) AS definition, t.tgfoid AS fn
         FROM pg_trigger t WHERE t.tgrelid = $1 AND NOT t.tgisinternal
        ORDER BY t.tgname COLLATE "C"`,
      [oid],
    )) {
      const own = ownFunction.get(fn);
      if (own !== undefined) {
        statements.push(own);
        ownFunction.delete(fn);
      }
      statements.push(triggerPerLine(definition));
    }
  }
  return sections(statements);
}

/**
 * pg_get_functiondef's text, its body's lines moved left together (see tidy) and its closing
 * dollar quote on a line of its own.
 */
function postgresFunction(definition: string): string {
  const match = /^([\s\S]*?\nAS (\$\w*\$))([\s\S]*)\2\s*$/.exec(definition);
  if (!match) return definition.trimEnd();
  const [, head, quote, body] = match;
  return [head, ...dedent(abridged(body).split('\n')), quote].join('\n');
}

/** Constants longer than this are shown by their length and hash (see abridged). */
const LONG_CONSTANT = 1_000;

/**
 * A function body with each long dollar-quoted constant (a lookup table such as the search fold's)
 * replaced by its length and SHA-256: a change to it still shows as a diff, and the file stays
 * readable. The constant is in full in its migration's pinned statements.
 */
function abridged(body: string): string {
  return body.replace(
    /\$(\w+)\$([\s\S]*?)\$\1\$/g,
    (constant: string, tag: string, text: string) =>
      text.length <= LONG_CONSTANT
        ? constant
        : `$${tag}$<${text.length} characters, sha256 ${createHash('sha256').update(text).digest('hex')}>$${tag}$`,
  );
}

/**
 * pg_get_triggerdef's one line with its clauses (timing and events, transition tables, level,
 * condition, function) on lines of their own: each clause's first keyword, in the order that
 * function writes them, starts a line.
 */
function triggerPerLine(definition: string): string {
  let text = definition;
  for (const clause of [
    / (BEFORE|AFTER|INSTEAD OF) /,
    / (REFERENCING) /,
    / (FOR EACH) /,
    / (WHEN) \(/,
    / (EXECUTE FUNCTION) /,
  ]) {
    text = text.replace(clause, (found) => `\n  ${found.trimStart()}`);
  }
  return text;
}

async function postgresTable(
  all: <T>(sql: string, parameters?: unknown[]) => Rows<T>,
  oid: number,
  name: string,
): Promise<string> {
  const columns = await all<{
    name: string;
    type: string;
    notnull: boolean;
    default: string | null;
    identity: string;
    generated: string;
  }>(
    `SELECT quote_ident(a.attname) AS name, format_type(a.atttypid, a.atttypmod) AS type,
            a.attnotnull AS notnull, pg_get_expr(d.adbin, d.adrelid) AS default,
            a.attidentity AS identity, a.attgenerated AS generated
       FROM pg_attribute a LEFT JOIN pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum
      WHERE a.attrelid = $1 AND a.attnum > 0 AND NOT a.attisdropped
      ORDER BY a.attnum`,
    [oid],
  );
  const constraints = await all<{ name: string; definition: string }>(
    `SELECT quote_ident(conname) AS name, pg_get_constraintdef(oid, true) AS definition
       FROM pg_constraint WHERE conrelid = $1 AND contype IN ('p', 'u', 'x', 'f', 'c')
      ORDER BY position(contype IN 'puxfc'), conname COLLATE "C"`,
    [oid],
  );
  const lines = [
    ...columns.map((column) => {
      const parts = [column.name, column.type];
      if (column.generated === 's') {
        parts.push(`GENERATED ALWAYS AS (${column.default}) STORED`);
      } else if (column.default !== null) {
        parts.push(`DEFAULT ${column.default}`);
      }
      if (column.identity) {
        parts.push(
          `GENERATED ${column.identity === 'a' ? 'ALWAYS' : 'BY DEFAULT'} AS IDENTITY`,
        );
      }
      if (column.notnull) parts.push('NOT NULL');
      return parts.join(' ');
    }),
    ...constraints.map(
      ({ name: constraint, definition }) =>
        `CONSTRAINT ${constraint} ${definition}`,
    ),
  ];
  return `CREATE TABLE ${name} (\n${lines.map((line) => `  ${line}`).join(',\n')}\n)`;
}

/** The largest value of each sequence type: a sequence's default MAXVALUE. */
const TYPE_MAX: Record<string, string> = {
  smallint: '32767',
  integer: '2147483647',
  bigint: '9223372036854775807',
};

/** The sequences a table's columns own (serial and identity columns), as they are set now. */
async function postgresSequences(
  all: <T>(sql: string, parameters?: unknown[]) => Rows<T>,
  table: number,
): Promise<string[]> {
  const sequences = await all<{
    name: string;
    owner: string;
    type: string;
    increment: string;
    start: string;
    min: string;
    max: string;
    cache: string;
    cycle: boolean;
  }>(
    `SELECT quote_ident(s.relname) AS name,
            quote_ident(t.relname) || '.' || quote_ident(a.attname) AS owner,
            format_type(q.seqtypid, NULL) AS type, q.seqincrement::text AS increment,
            q.seqstart::text AS start, q.seqmin::text AS min, q.seqmax::text AS max,
            q.seqcache::text AS cache, q.seqcycle AS cycle
       FROM pg_depend d
       JOIN pg_class s ON s.oid = d.objid AND s.relkind = 'S'
       JOIN pg_sequence q ON q.seqrelid = s.oid
       JOIN pg_class t ON t.oid = d.refobjid
       JOIN pg_attribute a ON a.attrelid = d.refobjid AND a.attnum = d.refobjsubid
      WHERE d.classid = 'pg_class'::regclass AND d.refobjid = $1 AND d.deptype IN ('a', 'i')
      ORDER BY s.relname COLLATE "C"`,
    [table],
  );
  return sequences.map((s) => {
    const parts = [
      `CREATE SEQUENCE ${s.name} AS ${s.type}`,
      `INCREMENT BY ${s.increment}`,
      `START WITH ${s.start}`,
    ];
    if (s.min !== '1') parts.push(`MINVALUE ${s.min}`);
    if (s.max !== TYPE_MAX[s.type]) parts.push(`MAXVALUE ${s.max}`);
    if (s.cache !== '1') parts.push(`CACHE ${s.cache}`);
    if (s.cycle) parts.push('CYCLE');
    parts.push(`OWNED BY ${s.owner}`);
    return parts.join(' ');
  });
}
