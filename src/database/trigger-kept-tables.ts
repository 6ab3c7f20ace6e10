/**
 * Tables whose contents the database's triggers keep, named for code that writes around those
 * triggers (the seeder: PostgreSQL's TRUNCATE fires no row trigger, and rows it writes with their
 * ids move no sequence). The migrations that made them write the names out for themselves, since a
 * shipped migration imports nothing; src/database/schema/constants-match-schema.spec.ts checks
 * these lists against the schema the migrations leave.
 */

/** The overview's rollups, per hour (migration ActivityHours) and per UTC day (ActivityDays). */
export const ROLLUP_TABLES = [
  'order_hours',
  'revenue_hours',
  'ticket_hours',
  'order_days',
  'revenue_days',
  'ticket_days',
] as const;

/**
 * Ticket types and event series' template ticket types: one `tt_` id space (migration
 * TicketTypeIdsApart), so their sequences move together.
 */
export const SHARED_ID_TABLES = [
  'ticket_types',
  'event_series_ticket_types',
] as const;

/**
 * An event's attendance per ticket type (migration AttendanceCounts): written by triggers on
 * SQLite, by fold_counts on PostgreSQL.
 */
export const ATTENDANCE_COUNTS = 'attendance_counts';
