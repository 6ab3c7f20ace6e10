import type { ReadRows, Row } from '../../database/row-reader';
import type { SqlDialect, Statement } from '../../database/sql-dialect';
import { compileJsonInSql, joinSegments } from './json/sqlite';
import type { Fields } from './field-table';
import { compileJsonWriter } from './json/postgres';

/**
 * A resource's field table compiled for one database: the columns the statement that reads the
 * resource selects, and how its rows become JSON texts. The dialect decides where the JSON is
 * built (SqlDialect.jsonBuiltBy); both ways give the same bytes for the same data.
 */
export interface ResourceJson {
  /** Columns for `SELECT … FROM <the resource's table and joins>`, aliased. */
  readonly selectList: string;
  /**
   * The statement to send for one that selects an item: the same one when the SQL builds the
   * JSON, else one that returns the item's children too (see json/postgres.ts).
   */
  withChildren(statement: Statement): Statement;
  /** The resource's rows among what that statement returned, in order. */
  resourceRows(rows: readonly Row[]): Row[];
  /** Reads what `render` needs besides the rows of a page (their children), if anything. */
  readChildren(rows: readonly Row[], read: ReadRows): Promise<void>;
  /** Each resource row's JSON text, in row order. */
  render(rows: readonly Row[]): string[];
  /** Statements `readChildren` sends, for the golden SQL files. */
  readonly childStatements: readonly string[];
}

export function compileResourceJson(
  fields: Fields,
  dialect: SqlDialect,
): ResourceJson {
  if (dialect.jsonBuiltBy === 'service') {
    const writer = compileJsonWriter(fields);
    return {
      selectList: writer.selectList,
      withChildren: writer.withChildren,
      resourceRows: writer.resourceRows,
      readChildren: writer.readChildren,
      render: writer.write,
      childStatements: writer.childStatements,
    };
  }
  const { segments, computed } = compileJsonInSql(fields);
  const segmentAliases = segments.map((_, i) => `j${i}`);
  const computedColumns = computed.map((value, i) =>
    Object.entries(value.columns).map(([name, sql]) => ({
      name,
      sql,
      alias: `k${i}_${name}`,
    })),
  );
  const renderRow = (row: Row): string =>
    joinSegments(
      segmentAliases.map((alias) => row[alias] as string),
      computed.map((value, i) => {
        const values: Record<string, unknown> = {};
        for (const column of computedColumns[i]) {
          values[column.name] = row[column.alias];
        }
        return value.render(values);
      }),
    );
  return {
    selectList: [
      ...computedColumns
        .flat()
        .map((column) => `${column.sql} AS ${column.alias}`),
      ...segments.map((sql, i) => `${sql} AS ${segmentAliases[i]}`),
    ].join(',\n  '),
    withChildren: (statement) => statement,
    resourceRows: (rows) => [...rows],
    readChildren: () => Promise.resolve(),
    render: (rows) => rows.map(renderRow),
    childStatements: [],
  };
}
