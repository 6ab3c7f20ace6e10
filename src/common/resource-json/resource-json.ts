import type { SqlDialect } from '../../database/sql-dialect';
import { compileJsonInSql, joinSegments } from './json-in-sql';
import type { Fields } from './json-shape';
import {
  type ReadRows,
  type Row,
  childStatements,
  compileJsonWriter,
} from './json-writer';

export type { ReadRows, Row } from './json-writer';

/**
 * A resource's field table compiled for one database: the columns the statement that reads the
 * resource selects, and how those rows become JSON texts. The dialect decides where the JSON is
 * built (SqlDialect.jsonBuiltBy); both ways give the same bytes for the same data.
 */
export interface ResourceJson {
  /** Columns for `SELECT … FROM <the resource's table and joins>`, aliased. */
  readonly selectList: string;
  /** Each row's JSON text, in row order (may read the rows' children first). */
  render(rows: Row[], read: ReadRows): Promise<string[]>;
  /** Statements `render` sends besides the caller's, for the golden SQL files. */
  readonly childStatements: readonly string[];
}

export function compileResourceJson(
  fields: Fields,
  dialect: SqlDialect,
): ResourceJson {
  if (dialect.jsonBuiltBy === 'service') {
    const writer = compileJsonWriter(fields, dialect);
    return {
      selectList: writer.selectList,
      render: (rows, read) => writer.write(rows, read),
      childStatements: childStatements(fields, dialect),
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
    render: (rows) => Promise.resolve(rows.map(renderRow)),
    childStatements: [],
  };
}
