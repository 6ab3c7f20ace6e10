import {
  type Fields,
  type RowAggregate,
  mapFieldSql,
} from '../common/resources/field-table';
import type { SqlDialect } from './sql-dialect';
import { ATTENDANCE_COUNTS } from './trigger-kept-tables';

/**
 * How a count the triggers keep is read (docs/DESIGN.md, "Counts without a hot row").
 *
 * SQLite: the column of the row it counts for, updated by the writing transaction's triggers.
 *
 * PostgreSQL (migration CountsWithoutHotRows): the triggers insert deltas instead, which the
 * sweep folds into the row later (`fold_counts`), so the count is the row's column plus the
 * deltas not folded yet, read in the same statement: a fold commits the deltas' removal and the
 * row's new value together, so every snapshot gives the same, exact number (§8a:
 * `quantity_issued` always equals the list).
 *
 * The counted columns are named nowhere else: an event's `completed_orders_count`,
 * `valid_tickets_count` and `completed_revenue` and a ticket type's `quantity_issued`.
 */
const COUNTED = {
  completed_orders_count: {
    deltas: 'event_count_deltas',
    key: 'event_id',
    type: 'integer',
  },
  valid_tickets_count: {
    deltas: 'event_count_deltas',
    key: 'event_id',
    type: 'integer',
  },
  completed_revenue: {
    deltas: 'event_count_deltas',
    key: 'event_id',
    type: 'bigint',
  },
  quantity_issued: {
    deltas: 'ticket_type_count_deltas',
    key: 'ticket_type_id',
    type: 'integer',
  },
} as const;

/** PostgreSQL's tables of deltas (a loader that empties the counted tables empties these too). */
export const COUNT_DELTA_TABLES = [
  'event_count_deltas',
  'ticket_type_count_deltas',
  'activity_deltas',
  'attendance_deltas',
] as const;

/**
 * Where an event's attendance is counted (migration AttendanceCounts): its rows per event and
 * ticket type, and on PostgreSQL the deltas not folded into them yet, to be added up together.
 */
export function attendanceCountTables(dialect: SqlDialect): string[] {
  return dialect.countsPending
    ? [ATTENDANCE_COUNTS, 'attendance_deltas']
    : [ATTENDANCE_COUNTS];
}

/**
 * Folds one box office's deltas (parameter 1) into what they count, returning how many rows
 * moved: the rows' counts (`fold_counts`, migration CountsWithoutHotRows) and the attendance
 * (`fold_attendance`, AttendanceCounts). One statement, so one transaction: the first takes the
 * box office's folder lock and the second finds it held by its own transaction.
 */
export const FOLD_BOX_OFFICE =
  'SELECT fold_counts($1) + fold_attendance($1) AS folded';

/**
 * The box offices with rows in one of the sweep's queues (`change_inbox`, a table of deltas), one
 * row each (`box_office_id`), read from the table's index that starts with `box_office_id`: a
 * skip scan, one probe of the index a box office, which finds the next one above the last. A
 * queue holds a few live rows and, between two vacuums, every row taken since: a scan of the
 * table (`SELECT DISTINCT`) read all of those, ten times a second on every instance (about 12 ms
 * for the four tables of deltas after ten minutes of ticket writes with autovacuum off:
 * bench/notes/2026-12-07-issues-on-postgresql.md); the index's entries of rows no snapshot sees
 * are marked dead by the first probe that meets them, and skipped after.
 */
export function boxOfficesIn(table: string): string {
  return `WITH RECURSIVE o AS (
      (SELECT box_office_id FROM ${table} ORDER BY box_office_id LIMIT 1)
      UNION ALL
      SELECT (SELECT q.box_office_id FROM ${table} q WHERE q.box_office_id > o.box_office_id
              ORDER BY q.box_office_id LIMIT 1)
        FROM o WHERE o.box_office_id IS NOT NULL)
    SELECT box_office_id FROM o WHERE box_office_id IS NOT NULL`;
}

/** The box offices with deltas waiting, one row each (`box_office_id`). */
export const BOX_OFFICES_WITH_DELTAS = COUNT_DELTA_TABLES.map(
  (table) => `SELECT box_office_id FROM (${boxOfficesIn(table)}) ${table}`,
).join('\nUNION ');

type CountedColumn = keyof typeof COUNTED;

const REFERENCE = new RegExp(
  `\\b(\\w+)\\.(${Object.keys(COUNTED).join('|')})\\b`,
  'g',
);

/** `<alias>.<column>` as PostgreSQL must read it: the row's value plus its pending deltas. */
export function pendingCount(alias: string, column: CountedColumn): string {
  const { deltas, key, type } = COUNTED[column];
  return `(${alias}.${column} + coalesce((SELECT sum(pd.${column}) FROM ${deltas} pd WHERE pd.${key} = ${alias}.id), 0))::${type}`;
}

/** The SQL with every `<alias>.<counted column>` read as its row plus its pending deltas. */
export function withPendingCounts(sql: string): string {
  return sql.replace(REFERENCE, (_, alias: string, column: CountedColumn) =>
    pendingCount(alias, column),
  );
}

/** How a database's counts are read by code that does not know its schema (countsReadIn). */
export interface CountsRead {
  /** Whether the database keeps deltas: PostgreSQL since migration CountsWithoutHotRows. */
  pending: boolean;
  /** The SQL with every counted column read as the service reads it (withPendingCounts, or as is). */
  asRead: (sql: string) => string;
}

/**
 * How to read the counts of a database whose migrations may be older than CountsWithoutHotRows,
 * as the service reads them: with its deltas on PostgreSQL once `event_count_deltas` is there (the
 * migration creates every table of deltas together), else the row alone. For the code that reads
 * a database beside the service (the benchmark's checks, its what-ifs of an earlier schema
 * included, and tests of built instances); the service reads by its dialect
 * (`SqlDialect.countsPending`), its schema being its own. `query` runs one statement.
 */
export async function countsReadIn(
  database: 'sqlite' | 'postgres',
  query: (sql: string) => Promise<readonly Record<string, unknown>[]>,
): Promise<CountsRead> {
  const pending =
    database === 'postgres' &&
    (
      await query(
        "SELECT to_regclass('event_count_deltas') IS NOT NULL AS present",
      )
    )[0]?.present === true;
  return { pending, asRead: pending ? withPendingCounts : (sql) => sql };
}

/** A resource's fields (and row aggregate) as the dialect reads counts; SQLite's unchanged. */
export function countsAsRead(
  dialect: SqlDialect,
  fields: Fields,
  aggregate?: RowAggregate,
): { fields: Fields; aggregate?: RowAggregate } {
  if (!dialect.countsPending) return { fields, aggregate };
  return {
    fields: mapFieldSql(fields, withPendingCounts),
    aggregate: aggregate && {
      ...aggregate,
      columns: Object.fromEntries(
        Object.entries(aggregate.columns).map(([name, sql]) => [
          name,
          withPendingCounts(sql),
        ]),
      ),
    },
  };
}
