import type { ReadRows, Row } from '../../../database/row-reader';
import type { Statement } from '../../../database/sql-dialect';
import type {
  Fields,
  JsonArray,
  JsonComputed,
  JsonValue,
} from '../field-table';
import { aliasesRead, checkFieldTable, checkKey } from '../field-table';

/**
 * Compiles a field table into a writer that builds the resource's JSON text in the service from
 * plain columns: the database only selects rows, and the service, which scales by adding
 * instances, does the JSON work. The SQL it writes is PostgreSQL's (SQLite builds the JSON in SQL:
 * see json/sqlite.ts).
 *
 * Two ways to read the children, each the cheaper one for its case
 * (bench/notes/2026-11-23-postgresql-where-the-time-goes.md):
 * - a page: one statement per child array reads that array's rows for the whole page, by parent
 *   key (`= ANY($1)`, through the child's index);
 * - one item: a single statement, the one that selects the item extended to return its children
 *   too (`withChildren`), so that a retrieval is one round trip.
 *
 * The writer is composed once per field table, of one small function per value and the fixed
 * text between them (TextPlan); no code is generated. A mistake in the table (a child reading a
 * parent alias it does not name) stops the application when it starts: see checkFieldTable.
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

/** A value of a row as JSON text. */
type Render = (row: Row) => string;
/**
 * Where a row holds a column's value, known once the level's own columns are all added (a value
 * a child reads from its parent follows them).
 */
type Place = () => Field;

const isNull = (value: unknown) => value === null || value === undefined;
const quote = (value: unknown): string =>
  isNull(value) ? 'null' : JSON.stringify(value);
/** The driver's integer (a number, or a string for a bigint), written as it is. */
const integer = (value: unknown): string =>
  isNull(value) ? 'null' : String(value as number | string);
const stored = (value: unknown): string =>
  isNull(value) ? 'null' : String(value as string);

/**
 * A level's JSON text as fixed texts and rendered values in turn:
 * `texts[0] + values[0](row) + texts[1] + … + texts[n]`, adjacent fixed texts joined. Each value
 * is given as what makes its function, made when the plan is built (when every place is known).
 */
class TextPlan {
  private readonly texts: string[] = [''];
  private readonly makers: (() => Render)[] = [];

  text(text: string) {
    this.texts[this.texts.length - 1] += text;
  }

  value(make: () => Render) {
    this.makers.push(make);
    this.texts.push('');
  }

  build(): Render {
    const { texts } = this;
    const values = this.makers.map((make) => make());
    const count = values.length;
    return (row) => {
      let text = texts[0];
      for (let i = 0; i < count; i++) text += values[i](row) + texts[i + 1];
      return text;
    };
  }
}

/**
 * Builds one level's writer from its field table: the columns its statement selects, and a
 * function of a row read as an object (the resource's own rows: `row.c0`) or as an array (its
 * children's: `row[0]`), made of one small function per value.
 */
class LevelCompiler {
  private readonly columns: string[] = [];
  private readonly aliases: string[] = [];
  private readonly arrays: ChildLevel[] = [];
  private readonly fromParent: Field[] = [];
  private readonly plan = new TextPlan();
  /** Where each SQL expression already selected is held: the same value is read once. */
  private readonly selected = new Map<string, Field>();
  /** Where a value read from the parent starts in a child row: after its own columns and key. */
  private parentStart = 0;

  constructor(
    private readonly prefix: string,
    private readonly positional: boolean,
    private readonly parent?: ParentColumns,
  ) {}

  compile(value: JsonValue): Level {
    this.value(value);
    this.parentStart = this.columns.length + 1;
    return {
      columns: this.columns,
      aliases: this.aliases,
      arrays: this.arrays,
      fromParent: this.fromParent,
      writeRow: this.plan.build(),
    };
  }

  /**
   * Adds a column, or finds the one that already selects the same expression (an order's id is its
   * own value, its tickets' key and its line items' key); returns where the row holds it. Each
   * column is a value the database converts to text and the driver reads back, per row.
   */
  private field(sql: string): Field {
    const known = this.selected.get(sql);
    if (known !== undefined) return known;
    const index = this.columns.length;
    const alias = `${this.prefix}${index}`;
    this.columns.push(`${sql} AS ${alias}`);
    this.aliases.push(alias);
    const field = this.positional ? index : alias;
    this.selected.set(sql, field);
    return field;
  }

  /**
   * Reads a column: the level's own, or (`alias.column` of one of the parent's aliases, as
   * checkFieldTable allows) a value the parent's statement selects and the child row is given.
   */
  private column(sql: string): Place {
    const read = aliasesRead(sql);
    const parentAlias = this.parent?.aliases.find((alias) =>
      read.includes(alias),
    );
    if (this.parent && parentAlias !== undefined) {
      this.fromParent.push(this.parent.field(sql));
      const offset = this.fromParent.length - 1;
      return () => this.parentStart + offset;
    }
    const field = this.field(sql);
    return () => field;
  }

  private value(value: JsonValue) {
    const { plan } = this;
    switch (value.kind) {
      case 'literal':
        return plan.text(value.json);
      case 'string': {
        const place = this.column(value.sql);
        return plan.value(() => {
          const at = place();
          return (row) => quote(row[at]);
        });
      }
      case 'integer': {
        const place = this.column(value.sql);
        return plan.value(() => {
          const at = place();
          return (row) => integer(row[at]);
        });
      }
      case 'id': {
        const place = this.column(value.sql);
        const open = `"${value.prefix}`;
        if (value.nullable) {
          return plan.value(() => {
            const at = place();
            return (row) => {
              const id = row[at];
              return isNull(id) ? 'null' : `${open}${integer(id)}"`;
            };
          });
        }
        plan.text(open);
        plan.value(() => {
          const at = place();
          return (row) => integer(row[at]);
        });
        return plan.text('"');
      }
      case 'flag': {
        const place = this.column(value.sql);
        return plan.value(() => {
          const at = place();
          return (row) => (row[at] ? '"true"' : '"false"');
        });
      }
      case 'stored': {
        const place = this.column(value.sql);
        return plan.value(() => {
          const at = place();
          return (row) => stored(row[at]);
        });
      }
      case 'object':
        plan.text('{');
        value.fields.forEach(([key, field], i) => {
          plan.text(`${i === 0 ? '' : ','}"${checkKey(key)}":`);
          this.value(field);
        });
        return plan.text('}');
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
      sql: childSql(array, level, parentAlias, '$1'),
    });
    const writeChild = level.writeRow;
    this.plan.value(() => (row) => {
      const children = row[childrenAlias] as Row[] | undefined;
      if (children === undefined) return '[]';
      let text = '[';
      for (let i = 0; i < children.length; i++) {
        text += (i === 0 ? '' : ',') + writeChild(children[i]);
      }
      return `${text}]`;
    });
  }

  private computedValue(computed: JsonComputed) {
    const names = Object.keys(computed.columns);
    const places = names.map((name) => this.column(computed.columns[name]));
    this.plan.value(() => {
      const at = places.map((place) => place());
      return (row) => {
        const values: Record<string, unknown> = {};
        names.forEach((name, i) => (values[name] = row[at[i]]));
        return computed.render(values);
      };
    });
  }
}

/**
 * A child array's rows for the parents whose keys `keys` gives: the statement's one parameter
 * (`$1`), or, in the combined statement, the keys its parent part holds.
 */
function childSql(
  array: JsonArray,
  level: Level,
  parentAlias: string,
  keys: string,
): string {
  return [
    `SELECT ${[...level.columns, `${array.link[0]} AS ${parentAlias}`].join(',\n  ')}`,
    `FROM ${array.from}`,
    `WHERE ${array.link[0]} = ANY(${keys})`,
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
  const keys = `ARRAY(SELECT ${keyAlias(child, parent)} FROM ${parent.name})`;
  return childSql(child.array, child.level, child.parentAlias, keys)
    .split('\n')
    .join('\n  ');
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
 * The combined statement, as the text before and after the resource's own statement (which the
 * reader writes per request; the rest depends on the field table only). Each part is selected
 * with the columns of every part, in one order: its own, and the others' through
 * `LEFT JOIN … ON false` (no rows, but columns of the right types, so that the `UNION ALL` can
 * match them up). The parts come back one after the other and each in its own order (PostgreSQL
 * appends the branches of a `UNION ALL` in turn, and reads a `WITH` part back in the order it was
 * written); the PostgreSQL e2e suite compares whole bodies, children's order included.
 */
function combinedSql(parts: readonly Part[]): [before: string, after: string] {
  const children = parts
    .slice(1)
    .map(
      (part) =>
        `${part.name} AS (\n  ${childPart(part.child!, parts[part.parent])}\n)`,
    );
  const everyColumn = parts.map((part) => `${part.name}.*`).join(', ');
  const branches = parts.map((part, i) => {
    const others = parts
      .filter((_, j) => j !== i)
      .map((other) => ` LEFT JOIN ${other.name} ON false`)
      .join('');
    return `SELECT ${i} AS k, ${everyColumn}\n  FROM ${part.name}${others}`;
  });
  return [
    `WITH ${RESOURCE_PART} AS (\n`,
    `\n),\n${children.join(',\n')}\n${branches.join('\nUNION ALL\n')}`,
  ];
}

export function compileJsonWriter(fields: Fields): JsonWriter {
  checkFieldTable(fields);
  const top = new LevelCompiler('c', false).compile({
    kind: 'object',
    fields,
  });
  const parts = partsOf(top);
  const [before, after] = combinedSql(parts);
  return {
    selectList: top.columns.join(',\n  '),
    withChildren: (statement) =>
      parts.length === 1
        ? statement
        : { sql: before + statement.sql + after, params: statement.params },
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
