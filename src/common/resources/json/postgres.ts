import type { ReadRows, Row } from '../../../database/row-reader';
import type { Statement } from '../../../database/sql-dialect';
import type {
  Fields,
  JsonArray,
  JsonComputed,
  JsonValue,
} from '../field-table';
import { checkKey } from '../field-table';

/**
 * Compiles a field table into a writer that builds the resource's JSON text in the service from
 * plain columns: the database only selects rows, and the service, which scales by adding
 * instances, does the JSON work. The SQL it writes is PostgreSQL's (SQLite builds the JSON in SQL:
 * see json/sqlite.ts).
 *
 * Two ways to read the children, each the cheaper one for its case (bench/README.md, "PostgreSQL:
 * where the time goes"):
 * - a page: one statement per child array reads that array's rows for the whole page, by parent
 *   key (`= ANY($1)`, through the child's index);
 * - one item: a single statement, the one that selects the item extended to return its children
 *   too (`withChildren`), so that a retrieval is one round trip.
 *
 * The writer is generated code (one string concatenation per object, as a hand-written one
 * would be), compiled once per field table; the only input to the generated source is the
 * field table itself.
 */
export interface JsonWriter {
  /** The resource's columns, aliased, for the statement that reads the resource. */
  readonly selectList: string;
  /**
   * `statement` (which selects the resource's rows, `selectList` among its columns) extended to
   * return their children too, with the same parameters.
   */
  readonly withChildren: (statement: Statement) => Statement;
  /** The resource's rows among what that statement returned, in order, children attached. */
  readonly resourceRows: (rows: readonly Row[]) => Row[];
  /** Reads the rows' children, one statement per child array, and attaches them. */
  readonly readChildren: (
    rows: readonly Row[],
    read: ReadRows,
  ) => Promise<void>;
  /** Each resource row's JSON text, in row order (children attached). */
  readonly write: (rows: readonly Row[]) => string[];
  /** The statements `readChildren` sends, as a reviewer reads them (for the golden SQL files). */
  readonly childStatements: readonly string[];
}

/**
 * Where a row holds a value: its column alias in a row read as an object (the resource's own
 * rows), its position in a row read as an array (a child array's rows: see `readChildren`).
 */
type Field = string | number;

interface Level {
  /** `<sql> AS <alias>` for each column the level's objects are written from. */
  readonly columns: string[];
  readonly aliases: string[];
  readonly arrays: ChildLevel[];
  /**
   * Where the parent row holds each value the level reads from it (`parentAliases`), in the order
   * they follow the level's own columns and its parent key in a row.
   */
  readonly fromParent: Field[];
  readonly writeRow: (row: Row) => string;
}

/** What a child level may read from its parent's row, and how to add it to that row. */
interface ParentColumns {
  readonly aliases: readonly string[];
  readonly field: (sql: string) => Field;
}

interface ChildLevel {
  readonly array: JsonArray;
  /** Where the parent row keeps its key for this array. */
  readonly keyField: Field;
  /** The property the parent row gets its children in. */
  readonly childrenAlias: string;
  /** The alias and the position of the parent's key in a child row: after its own columns. */
  readonly parentAlias: string;
  readonly parentField: number;
  readonly level: Level;
  /** The statement that reads the array's rows for a list of parent keys (`$1`). */
  readonly sql: string;
}

/** A part of the combined statement: the resource's rows, or one child array's. */
interface Part {
  /** Its name in the `WITH` list. */
  readonly name: string;
  /** The part that holds its parents (-1 for the resource's own rows). */
  readonly parent: number;
  readonly child: ChildLevel | null;
}

const RESOURCE_PART = 'res';

const quote = (value: unknown): string =>
  value === null || value === undefined ? 'null' : JSON.stringify(value);
const integer = (value: unknown): string =>
  value === null || value === undefined ? 'null' : String(value as number);
const stored = (value: unknown): string =>
  value === null || value === undefined ? 'null' : (value as string);

/**
 * Builds one level's generated writer: `'{"object":"order","id":"or_' + r.c0 + …` over rows read
 * as objects (the resource's), `… + r[0] + …` over rows read as arrays (its children's).
 */
class LevelCompiler {
  private readonly columns: string[] = [];
  private readonly aliases: string[] = [];
  private readonly arrays: ChildLevel[] = [];
  private readonly arrayWriters: ((rows: Row[] | undefined) => string)[] = [];
  private readonly computed: ((row: Row) => string)[] = [];
  private readonly code: string[] = [];
  private text = '';

  private readonly fromParent: Field[] = [];

  constructor(
    private readonly prefix: string,
    private readonly positional: boolean,
    private readonly parent?: ParentColumns,
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
      'P',
      `return function writeRow(r) { ${body} };`,
    )(
      quote,
      integer,
      stored,
      this.arrayWriters,
      this.computed,
      // P: where a value read from the parent starts, after the own columns and the parent key.
      this.columns.length + 1,
    ) as (row: Row) => string;
    return {
      columns: this.columns,
      aliases: this.aliases,
      arrays: this.arrays,
      fromParent: this.fromParent,
      writeRow,
    };
  }

  /** Adds a column; returns where the row holds it. */
  private field(sql: string): Field {
    const index = this.columns.length;
    const alias = `${this.prefix}${index}`;
    this.columns.push(`${sql} AS ${alias}`);
    this.aliases.push(alias);
    return this.positional ? index : alias;
  }

  /** Adds a column (or, for a parent's alias, the parent does); returns the code that reads it. */
  private column(sql: string): string {
    const parentAlias = this.parent?.aliases.find((alias) =>
      new RegExp(`\\b${alias}\\.`).test(sql),
    );
    if (this.parent && parentAlias !== undefined) {
      // The parent's statement selects the value; the child's own statement cannot compute with it.
      if (!new RegExp(`^${parentAlias}\\.\\w+$`).test(sql)) {
        throw new Error(
          `${sql}: a child reads its parent's columns as they are (${parentAlias}.<column>)`,
        );
      }
      this.fromParent.push(this.parent.field(sql));
      return `r[P + ${this.fromParent.length - 1}]`;
    }
    const field = this.field(sql);
    return typeof field === 'number' ? `r[${field}]` : `r.${field}`;
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
    const keyField = this.field(array.link[1]);
    const childPrefix = `${this.prefix}${n}_`;
    const level = new LevelCompiler(childPrefix, true, {
      aliases: array.parentAliases ?? [],
      field: (sql) => this.field(sql),
    }).compile(array.of);
    const childrenAlias = `${this.prefix}a${n}`;
    const parentAlias = `${childPrefix}p`;
    this.arrays.push({
      array,
      keyField,
      childrenAlias,
      parentAlias,
      parentField: level.columns.length,
      level,
      sql: childSql(array, level, parentAlias),
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
    const fields = names.map((name) => this.field(computed.columns[name]));
    const n = this.computed.length;
    this.computed.push((row) => {
      const values: Record<string, unknown> = {};
      names.forEach((name, i) => (values[name] = row[fields[i]]));
      return computed.render(values);
    });
    this.emitCode(`C[${n}](r)`);
  }
}

/** A child array's rows for the parents whose keys are the statement's one parameter. */
function childSql(array: JsonArray, level: Level, parentAlias: string): string {
  return [
    `SELECT ${[...level.columns, `${array.link[0]} AS ${parentAlias}`].join(',\n  ')}`,
    `FROM ${array.from}`,
    `WHERE ${array.link[0]} = ANY($1)`,
    `ORDER BY ${[array.link[0], ...array.orderBy].join(', ')}`,
  ].join('\n');
}

/**
 * Adds each child row to its parents' list (in the children's order), by the parents' key, with
 * the values it reads from its parent (a row shared by several parents is copied for each).
 */
function attach(
  child: ChildLevel,
  byKey: ReadonlyMap<unknown, Row[]>,
  rows: readonly Row[],
) {
  const { fromParent } = child.level;
  const at = child.parentField + 1;
  for (const row of rows) {
    const parents = byKey.get(row[child.parentField]) ?? [];
    for (let i = 0; i < parents.length; i++) {
      const parent = parents[i];
      // The first parent takes the row itself; each further one a copy, to hold its own values.
      const own =
        i > 0 && fromParent.length > 0
          ? ([...(row as unknown as unknown[])] as unknown as Row)
          : row;
      fromParent.forEach((field, j) => (own[at + j] = parent[field]));
      const list = parent[child.childrenAlias] as Row[] | undefined;
      if (list) list.push(own);
      else parent[child.childrenAlias] = [own];
    }
  }
}

/** The parents by their key for the array (parents without one have no children). */
function keyed(
  child: ChildLevel,
  parents: readonly Row[],
): Map<unknown, Row[]> {
  const byKey = new Map<unknown, Row[]>();
  for (const parent of parents) {
    const key = parent[child.keyField];
    if (key === null || key === undefined) continue;
    const same = byKey.get(key);
    if (same) same.push(parent);
    else byKey.set(key, [parent]);
  }
  return byKey;
}

async function readChildren(
  level: Level,
  rows: readonly Row[],
  read: ReadRows,
): Promise<void> {
  for (const child of level.arrays) {
    const byKey = keyed(child, rows);
    if (byKey.size === 0) continue;
    const children = await read(child.sql, [[...byKey.keys()]], {
      arrays: true,
    });
    attach(child, byKey, children);
    await readChildren(child.level, children, read);
  }
}

/** The parts of the combined statement: the resource's rows first, then each array, depth first. */
function partsOf(top: Level): Part[] {
  const parts: Part[] = [{ name: RESOURCE_PART, parent: -1, child: null }];
  const visit = (level: Level, index: number) => {
    for (const child of level.arrays) {
      // Children's column prefixes are unique (`c1_0_`): so are the parts named after them.
      const name = `arr${child.parentAlias.slice(1, -2)}`;
      parts.push({ name, parent: index, child });
      visit(child.level, parts.length - 1);
    }
  };
  visit(top, 0);
  return parts;
}

/**
 * A child array's part: its rows for every key its parents hold, read through the child's index
 * (`= ANY` of the keys, which a B-tree walks in key order) and in the array's order.
 */
function childPart(child: ChildLevel, parent: Part): string {
  return child.sql
    .replace(
      /= ANY\(\$1\)$/m,
      `= ANY(ARRAY(SELECT ${keyAlias(child, parent)} FROM ${parent.name}))`,
    )
    .replace(/\n/g, '\n  ');
}

/** The column alias of the parent's key for the array, in the parent part's rows. */
function keyAlias(child: ChildLevel, parent: Part): string {
  const { keyField } = child;
  if (typeof keyField === 'string') return keyField;
  return parent.child!.level.aliases[keyField];
}

/** A child part's row, read as an object, as the array of its values `readChildren` reads. */
function positional(child: ChildLevel, row: Row): Row {
  const values: unknown[] = child.level.aliases.map((alias) => row[alias]);
  values.push(row[child.parentAlias]);
  return values as unknown as Row;
}

/**
 * The combined statement. Each part is selected with the columns of every part, in one order:
 * its own, and the others' through `LEFT JOIN … ON false` (no rows, but columns of the right
 * types, so that the `UNION ALL` can match them up). The parts come back one after the other and
 * each in its own order (PostgreSQL appends the branches of a `UNION ALL` in turn, and reads a
 * `WITH` part back in the order it was written); the PostgreSQL e2e suite compares whole bodies,
 * children's order included.
 */
function combinedSql(parts: readonly Part[], resourceSql: string): string {
  const withList = parts.map((part, i) =>
    i === 0
      ? `${part.name} AS (\n${resourceSql}\n)`
      : `${part.name} AS (\n  ${childPart(part.child!, parts[part.parent])}\n)`,
  );
  const everyColumn = parts.map((part) => `${part.name}.*`).join(', ');
  const branches = parts.map((part, i) => {
    const others = parts
      .filter((_, j) => j !== i)
      .map((other) => ` LEFT JOIN ${other.name} ON false`)
      .join('');
    return `SELECT ${i} AS k, ${everyColumn}\n  FROM ${part.name}${others}`;
  });
  return `WITH ${withList.join(',\n')}\n${branches.join('\nUNION ALL\n')}`;
}

export function compileJsonWriter(fields: Fields): JsonWriter {
  const top = new LevelCompiler('c', false).compile({
    kind: 'object',
    fields,
  });
  const parts = partsOf(top);
  // A reader sends one item statement, the same text every time: built once.
  let lastSql: string | null = null;
  let lastCombined = '';
  return {
    selectList: top.columns.join(',\n  '),
    withChildren: (statement) => {
      if (parts.length === 1) return statement;
      if (statement.sql !== lastSql) {
        lastSql = statement.sql;
        lastCombined = combinedSql(parts, statement.sql);
      }
      return { sql: lastCombined, params: statement.params };
    },
    resourceRows: (rows) => {
      if (parts.length === 1) return [...rows];
      const byPart: Row[][] = parts.map(() => []);
      for (const row of rows) {
        const part = row.k as number;
        byPart[part].push(
          part === 0 ? row : positional(parts[part].child!, row),
        );
      }
      for (let i = 1; i < parts.length; i++) {
        const child = parts[i].child!;
        attach(child, keyed(child, byPart[parts[i].parent]), byPart[i]);
      }
      return byPart[0];
    },
    readChildren: (rows, read) => readChildren(top, rows, read),
    write: (rows) => rows.map(top.writeRow),
    childStatements: parts.slice(1).map((part) => part.child!.sql),
  };
}
