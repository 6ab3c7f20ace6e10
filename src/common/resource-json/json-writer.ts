import type { SqlDialect } from '../../database/sql-dialect';
import { SqlParams } from '../../database/sql-dialect';
import type { Fields, JsonArray, JsonComputed, JsonValue } from './json-shape';
import { checkKey } from './json-shape';

export type Row = Record<string, unknown>;
export type ReadRows = (sql: string, params: unknown[]) => Promise<Row[]>;

/**
 * Compiles a field table into a writer that builds the resource's JSON text in the service from
 * plain columns: the database only selects rows (the resource's own columns by the statement
 * that reads it, then each child array's rows for the whole page in one statement, by parent
 * key), and the service, which scales by adding instances, does the JSON work.
 *
 * The writer is generated code (one string concatenation per object, as a hand-written one
 * would be), compiled once per field table; the only input to the generated source is the
 * field table itself.
 */
export interface JsonWriter {
  /** The resource's columns, aliased, for the statement that reads the resource. */
  readonly selectList: string;
  /** Reads the rows' children and returns each row's JSON text, in row order. */
  write(rows: Row[], read: ReadRows): Promise<string[]>;
}

interface Level {
  readonly columns: string[];
  readonly arrays: ChildLevel[];
  readonly writeRow: (row: Row) => string;
}

interface ChildLevel {
  readonly array: JsonArray;
  /** Where the parent row keeps its key for this array, and its children once read. */
  readonly keyAlias: string;
  readonly childrenAlias: string;
  readonly sql: string;
  readonly level: Level;
}

const PARENT_KEY = '_parent';
/** Where a child statement's condition on its parents' keys goes. */
const KEYS = ':parent_keys';

const quote = (value: unknown): string =>
  value === null || value === undefined ? 'null' : JSON.stringify(value);
const integer = (value: unknown): string =>
  value === null || value === undefined ? 'null' : String(value as number);
const stored = (value: unknown): string =>
  value === null || value === undefined ? 'null' : (value as string);

/** Builds one level's generated writer: `'{"object":"order","id":"or_' + r.c0 + …`. */
class LevelCompiler {
  private readonly columns: string[] = [];
  private readonly arrays: ChildLevel[] = [];
  private readonly arrayWriters: ((rows: Row[] | undefined) => string)[] = [];
  private readonly computed: ((row: Row) => string)[] = [];
  private readonly code: string[] = [];
  private text = '';

  constructor(
    private readonly dialect: SqlDialect,
    private readonly prefix: string,
  ) {}

  compile(value: JsonValue): Level {
    this.value(value);
    this.flush();
    const body = `return ${this.code.join(' + ') || "''"};`;
    // oxlint-disable-next-line typescript/no-implied-eval -- the source is generated from field tables, never from input
    const writeRow = new Function(
      'q',
      'n',
      's',
      'A',
      'C',
      `return function writeRow(r) { ${body} };`,
    )(quote, integer, stored, this.arrayWriters, this.computed) as (
      row: Row,
    ) => string;
    return { columns: this.columns, arrays: this.arrays, writeRow };
  }

  private column(sql: string): string {
    const alias = `${this.prefix}${this.columns.length}`;
    this.columns.push(`${sql} AS ${alias}`);
    return `r.${alias}`;
  }

  private emitText(text: string) {
    this.text += text;
  }

  private emitCode(code: string) {
    this.flush();
    this.code.push(code);
  }

  private flush() {
    if (this.text !== '') this.code.push(JSON.stringify(this.text));
    this.text = '';
  }

  private value(value: JsonValue) {
    switch (value.kind) {
      case 'literal':
        return this.emitText(value.json);
      case 'string':
        return this.emitCode(`q(${this.column(value.sql)})`);
      case 'integer':
        return this.emitCode(`n(${this.column(value.sql)})`);
      case 'id': {
        const ref = this.column(value.sql);
        if (value.nullable) {
          return this.emitCode(
            `(${ref} == null ? 'null' : ${JSON.stringify(`"${value.prefix}`)} + ${ref} + '"')`,
          );
        }
        this.emitText(`"${value.prefix}`);
        this.emitCode(ref);
        return this.emitText('"');
      }
      case 'flag':
        return this.emitCode(
          `(${this.column(value.sql)} ? '"true"' : '"false"')`,
        );
      case 'stored':
        return this.emitCode(`s(${this.column(value.sql)})`);
      case 'object':
        this.emitText('{');
        value.fields.forEach(([key, field], i) => {
          this.emitText(`${i === 0 ? '' : ','}"${checkKey(key)}":`);
          this.value(field);
        });
        return this.emitText('}');
      case 'array':
        return this.array(value);
      case 'computed':
        return this.computedValue(value);
    }
  }

  private array(array: JsonArray) {
    const n = this.arrays.length;
    const keyRef = this.column(array.link[1]);
    const keyAlias = keyRef.slice(2);
    const childrenAlias = `${this.prefix}a${n}`;
    const level = new LevelCompiler(
      this.dialect,
      `${this.prefix}${n}_`,
    ).compile(array.of);
    this.arrays.push({
      array,
      keyAlias,
      childrenAlias,
      level,
      sql: childSql(array, level),
    });
    const writeChild = level.writeRow;
    this.arrayWriters.push((rows) => {
      if (rows === undefined) return '[]';
      let text = '[';
      for (let i = 0; i < rows.length; i++) {
        text += (i === 0 ? '' : ',') + writeChild(rows[i]);
      }
      return `${text}]`;
    });
    this.emitCode(`A[${n}](r.${childrenAlias})`);
  }

  private computedValue(computed: JsonComputed) {
    const names = Object.keys(computed.columns);
    const refs = names.map((name) => this.column(computed.columns[name]));
    const aliases = refs.map((ref) => ref.slice(2));
    const n = this.computed.length;
    this.computed.push((row) => {
      const values: Record<string, unknown> = {};
      names.forEach((name, i) => (values[name] = row[aliases[i]]));
      return computed.render(values);
    });
    this.emitCode(`C[${n}](r)`);
  }
}

function childSql(array: JsonArray, level: Level): string {
  return [
    `SELECT ${[...level.columns, `${array.link[0]} AS ${PARENT_KEY}`].join(',\n  ')}`,
    `FROM ${array.from}${array.join ? ` ${array.join}` : ''}`,
    `WHERE ${KEYS}`,
    `ORDER BY ${[array.link[0], ...array.orderBy].join(', ')}`,
  ].join('\n');
}

async function readChildren(
  dialect: SqlDialect,
  level: Level,
  rows: Row[],
  read: ReadRows,
): Promise<void> {
  for (const child of level.arrays) {
    const parents = new Map<unknown, Row[]>();
    for (const row of rows) {
      const key = row[child.keyAlias];
      if (key === null || key === undefined) continue;
      const same = parents.get(key);
      if (same) same.push(row);
      else parents.set(key, [row]);
    }
    if (parents.size === 0) continue;
    const params = new SqlParams(dialect);
    const sql = child.sql.replace(
      KEYS,
      dialect.inList(child.array.link[0], params, [...parents.keys()]),
    );
    const children = await read(sql, params.values);
    for (const childRow of children) {
      for (const parent of parents.get(childRow[PARENT_KEY]) ?? []) {
        const list = parent[child.childrenAlias] as Row[] | undefined;
        if (list) list.push(childRow);
        else parent[child.childrenAlias] = [childRow];
      }
    }
    await readChildren(dialect, child.level, children, read);
  }
}

export function compileJsonWriter(
  fields: Fields,
  dialect: SqlDialect,
): JsonWriter {
  const level = new LevelCompiler(dialect, 'c').compile({
    kind: 'object',
    fields,
  });
  return {
    selectList: level.columns.join(',\n  '),
    async write(rows, read) {
      await readChildren(dialect, level, rows, read);
      return rows.map(level.writeRow);
    },
  };
}

/** The child statements a writer sends, as a reviewer reads them (for the golden SQL files). */
export function childStatements(fields: Fields, dialect: SqlDialect): string[] {
  const level = new LevelCompiler(dialect, 'c').compile({
    kind: 'object',
    fields,
  });
  const statements: string[] = [];
  const visit = (current: Level) => {
    for (const child of current.arrays) {
      const params = new SqlParams(dialect);
      statements.push(
        child.sql.replace(
          KEYS,
          dialect.inList(child.array.link[0], params, [1, 2]),
        ),
      );
      visit(child.level);
    }
  };
  visit(level);
  return statements;
}
