import type { DataSource } from 'typeorm';

/**
 * Every stored time of a database, for the rule that none lies in the future (docs/API.md,
 * "Timestamps"): each `…_at` column of every table, except those that are meant to look ahead
 * (an event's `start_at` and `end_at`, a voucher's `expires_at`), and the rollups' `hour` and `day` buckets (counted as the
 * bucket's first second). Found in the schema rather than listed, so that a time column a later
 * migration adds is checked too.
 */
const LOOKING_AHEAD = new Set([
  'events.start_at',
  'events.end_at',
  'vouchers.expires_at',
]);
const BUCKET_SECONDS: Record<string, number> = { hour: 3600, day: 86_400 };
/** TypeORM's own table: migration timestamps name migrations, they are not data. */
const NOT_DATA = new Set(['migrations']);

export interface StoredTime {
  table: string;
  column: string;
  /** How many seconds one unit of the column is (1 for Unix seconds). */
  unit: number;
}

/** The stored time columns of the database, as described above, sorted by table and column. */
export async function storedTimeColumns(
  dataSource: DataSource,
): Promise<StoredTime[]> {
  const sql =
    dataSource.options.type === 'postgres'
      ? `SELECT table_name AS "table", column_name AS "column"
           FROM information_schema.columns
          WHERE table_schema = current_schema()`
      : `SELECT m.name AS "table", p.name AS "column"
           FROM sqlite_master m JOIN pragma_table_info(m.name) p
          WHERE m.type = 'table' AND m.name NOT LIKE 'sqlite_%'`;
  const rows = await dataSource.query<{ table: string; column: string }[]>(sql);
  return rows
    .filter(({ table, column }) => {
      if (NOT_DATA.has(table) || LOOKING_AHEAD.has(`${table}.${column}`)) {
        return false;
      }
      return column.endsWith('_at') || column in BUCKET_SECONDS;
    })
    .map(({ table, column }) => ({
      table,
      column,
      unit: BUCKET_SECONDS[column] ?? 1,
    }))
    .sort(
      (a, b) =>
        a.table.localeCompare(b.table) || a.column.localeCompare(b.column),
    );
}

export interface LateTime extends StoredTime {
  /** How many of the table's rows hold a time after the moment in this column. */
  rows: number;
  /** The latest such time, in Unix seconds. */
  latest: number;
}

/**
 * The stored times after `moment` (Unix seconds), one entry per column that has any: an empty
 * list when every stored time of every row is at or before it.
 */
export async function storedTimesAfter(
  dataSource: DataSource,
  moment: number,
): Promise<LateTime[]> {
  const late: LateTime[] = [];
  for (const time of await storedTimeColumns(dataSource)) {
    const value = `${time.column} * ${time.unit}`;
    const [row] = await dataSource.query<
      { rows: number | string; latest: number | string | null }[]
    >(
      `SELECT count(*) AS rows, max(${value}) AS latest FROM ${time.table} WHERE ${value} > ${moment}`,
    );
    if (Number(row.rows) > 0) {
      late.push({
        ...time,
        rows: Number(row.rows),
        latest: Number(row.latest),
      });
    }
  }
  return late;
}
