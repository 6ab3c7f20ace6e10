import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * An event's attendance from counts the writers keep (docs/API.md, "GET
 * /v1/events/{event_id}/attendance"; docs/DESIGN.md, "Attendance counts"; issue #47, item 3).
 *
 * Until now attendance read every ticket of the event from an index (migration
 * IssuedTicketSearch): 15k index entries for the biggest event at 200k orders, 75k at 1M, about
 * 160 requests a second where a door's counter needs 1,000. Now `attendance_counts` holds, per
 * event and ticket type (0: none, its type deleted), the tickets valid and void and the valid ones
 * inside now and ever entered, and the request reads a handful of rows.
 *
 * Who keeps them is whoever writes a ticket, through the triggers here:
 * - `issued_tickets.entered` is new: true exactly when the ticket has a check-in (of either
 *   direction), kept beside `checked_in` by the check-ins' trigger (migration CheckIns), in the
 *   same statement. It is what `entered` counts; until now it was computed as "inside, or out with
 *   a check-out", which is the same for every ticket whose check-ins obey the door's rules.
 * - SQLite: row triggers on `issued_tickets` add a ticket's contribution to its (event, type) row
 *   when it is written, take it away when it is deleted, and move it when its status, check-in,
 *   event or type changes (a type's deletion sets it to null: SQLite fires the update trigger for
 *   the foreign key's action). SQLite's writers take turns anyway.
 * - PostgreSQL: a row every scan of an event would update is what issue #48 removed from the
 *   write path (migration CountsWithoutHotRows), so statement triggers insert deltas into
 *   `attendance_deltas` instead, `fold_attendance` folds them beside `fold_counts` (in the same
 *   sweep, under the same advisory lock of the box office), and a reader adds the waiting deltas
 *   in the same statement: exact in every snapshot.
 *
 * The attendance indexes of IssuedTicketSearch go: every scan rewrote the tickets' entry (its
 * `checked_in` is in it). An instance of the previous release still reads attendance from the
 * tickets during a rolling deploy, more slowly (OPERATIONS.md, "Upgrade notes").
 *
 * The backfill runs with the tickets' sync triggers off (a new column is no change a client
 * should see) and the tables locked against writers, so the counts start exact.
 */

const isPostgres = (queryRunner: QueryRunner) =>
  queryRunner.connection.options.type === 'postgres';

/** What a ticket adds to its (event, type) row, column by column, for a row `r` and a sign. */
const CONTRIBUTION = {
  tickets_valid: (r: string) => `${r}.status = 'valid'`,
  tickets_void: (r: string) => `${r}.status <> 'valid'`,
  checked_in: (r: string) => `${r}.status = 'valid' AND ${r}.checked_in`,
  entered: (r: string) => `${r}.status = 'valid' AND ${r}.entered`,
} as const;
const COUNTS = Object.keys(CONTRIBUTION) as (keyof typeof CONTRIBUTION)[];
const COLUMNS = `box_office_id, event_id, ticket_type_id, ${COUNTS.join(', ')}`;

/**
 * The ticket's `checked_in` and `entered`, from its check-ins; without `entered`, as migration
 * CheckIns wrote it (white space included: `down` must give its text back).
 */
const recompute = (ticket: string, withEntered: boolean) =>
  withEntered
    ? `UPDATE issued_tickets SET (checked_in, entered) = (
     SELECT coalesce(sum(c.quantity), 0) = 1, count(*) > 0 FROM check_ins c WHERE c.issued_ticket_id = ${ticket})
   WHERE id = ${ticket}`
    : `UPDATE issued_tickets SET checked_in = (
     SELECT coalesce(sum(c.quantity), 0) = 1 FROM check_ins c WHERE c.issued_ticket_id = ${ticket})
   WHERE id = ${ticket}`;

const sqliteCheckInTriggers = (withEntered: boolean) => [
  `CREATE TRIGGER trg_check_ins_checked_in_insert AFTER INSERT ON check_ins
       BEGIN ${recompute('NEW.issued_ticket_id', withEntered)}; END`,
  `CREATE TRIGGER trg_check_ins_checked_in_delete AFTER DELETE ON check_ins
       BEGIN ${recompute('OLD.issued_ticket_id', withEntered)}; END`,
];

const postgresCheckInFunction = (withEntered: boolean) =>
  `CREATE OR REPLACE FUNCTION check_ins_checked_in() RETURNS trigger LANGUAGE plpgsql AS $$
     BEGIN
       IF TG_OP = 'DELETE' THEN ${recompute('OLD.issued_ticket_id', withEntered)};
       ELSE ${recompute('NEW.issued_ticket_id', withEntered)}; END IF;
       RETURN NULL;
     END $$`;

/** SQLite: adds (sign '') or takes away (sign '-') row `r`'s contribution. */
const sqliteAdd = (r: 'NEW' | 'OLD', sign: '' | '-') =>
  `INSERT INTO attendance_counts (${COLUMNS})
     VALUES (${r}.box_office_id, ${r}.event_id, coalesce(${r}.ticket_type_id, 0), ${COUNTS.map(
       (column) => `${sign}(${CONTRIBUTION[column](r)})`,
     ).join(', ')})
     ON CONFLICT (event_id, ticket_type_id) DO UPDATE SET ${COUNTS.map(
       (column) => `${column} = ${column} + excluded.${column}`,
     ).join(', ')}`;

const SQLITE_TRIGGERS = [
  `CREATE TRIGGER trg_issued_tickets_attendance_insert AFTER INSERT ON issued_tickets
     BEGIN ${sqliteAdd('NEW', '')}; END`,
  `CREATE TRIGGER trg_issued_tickets_attendance_delete AFTER DELETE ON issued_tickets
     BEGIN ${sqliteAdd('OLD', '-')}; END`,
  `CREATE TRIGGER trg_issued_tickets_attendance_update
     AFTER UPDATE OF status, checked_in, entered, event_id, ticket_type_id ON issued_tickets
     WHEN NEW.status IS NOT OLD.status OR NEW.checked_in IS NOT OLD.checked_in
       OR NEW.entered IS NOT OLD.entered OR NEW.event_id IS NOT OLD.event_id
       OR NEW.ticket_type_id IS NOT OLD.ticket_type_id
     BEGIN ${sqliteAdd('OLD', '-')}; ${sqliteAdd('NEW', '')}; END`,
];
const SQLITE_TRIGGER_NAMES = ['insert', 'delete', 'update'].map(
  (op) => `trg_issued_tickets_attendance_${op}`,
);

/** A statement's rows, signed: +1 those it wrote (`new_rows`), −1 those it replaced (`old_rows`). */
const SIGNED_ROWS = {
  insert: 'SELECT 1 AS sign, r.* FROM new_rows r',
  update:
    'SELECT -1 AS sign, r.* FROM old_rows r UNION ALL SELECT 1 AS sign, r.* FROM new_rows r',
  delete: 'SELECT -1 AS sign, r.* FROM old_rows r',
} as const;
type Operation = keyof typeof SIGNED_ROWS;
const OPERATIONS: readonly Operation[] = ['insert', 'update', 'delete'];
const TRANSITION_TABLES: Record<Operation, string> = {
  insert: 'REFERENCING NEW TABLE AS new_rows',
  update: 'REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows',
  delete: 'REFERENCING OLD TABLE AS old_rows',
};

const postgresDeltas = (op: Operation) =>
  `CREATE FUNCTION issued_tickets_attendance_on_${op}()
RETURNS trigger LANGUAGE plpgsql AS $$
  -- What a statement on issued_tickets changed in its events' attendance (migration
  -- AttendanceCounts); a ticket changed in none of it (its holder, its time) adds nothing.
  BEGIN
    INSERT INTO attendance_deltas (${COLUMNS})
    SELECT r.box_office_id, r.event_id, coalesce(r.ticket_type_id, 0), ${COUNTS.map(
      (column) =>
        `sum(CASE WHEN ${CONTRIBUTION[column]('r')} THEN r.sign ELSE 0 END)`,
    ).join(',\n           ')}
      FROM (${SIGNED_ROWS[op]}) r
     GROUP BY r.box_office_id, r.event_id, coalesce(r.ticket_type_id, 0)
    HAVING ${COUNTS.map(
      (column) =>
        `sum(CASE WHEN ${CONTRIBUTION[column]('r')} THEN r.sign ELSE 0 END) <> 0`,
    ).join('\n        OR ')};
    RETURN NULL;
  END $$`;

/** What the advisory lock of a box office's folder is keyed by (migration CountsWithoutHotRows). */
const FOLDER_LOCK_CLASS = 20251207;

const FOLD_ATTENDANCE = `CREATE FUNCTION fold_attendance(office integer) RETURNS integer
LANGUAGE plpgsql AS $$
  -- Moves the box office's attendance deltas into its counts (migration AttendanceCounts), under
  -- the lock of fold_counts' folder of the box office (the sweep calls both in one transaction).
  -- The counts' rows are written by folds alone, so nothing waits for a writer.
  DECLARE
    n integer;
  BEGIN
    IF NOT pg_try_advisory_xact_lock((${FOLDER_LOCK_CLASS}::bigint << 32) + office) THEN
      RETURN 0;
    END IF;
    WITH taken AS (
      DELETE FROM attendance_deltas d WHERE d.box_office_id = office
      RETURNING d.*),
    folded AS (
      INSERT INTO attendance_counts AS a (${COLUMNS})
      SELECT office, event_id, ticket_type_id, ${COUNTS.map((column) => `sum(${column})`).join(', ')}
        FROM taken GROUP BY event_id, ticket_type_id
      ON CONFLICT (event_id, ticket_type_id)
      DO UPDATE SET ${COUNTS.map((column) => `${column} = a.${column} + excluded.${column}`).join(',\n                    ')}
      RETURNING 1)
    SELECT count(*) INTO n FROM folded;
    RETURN n;
  END $$`;

/** What the migrations before left of the tickets' change trigger, character for character. */
const TICKETS_SYNC_AFTER_BEFORE = `CREATE OR REPLACE FUNCTION public.issued_tickets_sync_after()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
  DECLARE
    shown issued_tickets;
    importing boolean := sync_importing();
    clock bigint := floor(extract(epoch FROM clock_timestamp()))::bigint;
    stamp bigint;
  BEGIN
    -- An order is never older than any of its tickets, whoever moved the ticket's time (import
    -- mode included); outside import mode it is never ahead of the clock either.
    IF TG_OP <> 'DELETE' THEN
      UPDATE orders SET updated_at = NEW.updated_at
       WHERE id = NEW.order_id
         AND (updated_at < NEW.updated_at OR (NOT importing AND updated_at > clock));
    END IF;
    IF importing THEN RETURN NULL; END IF;
    IF TG_OP = 'INSERT' THEN
      PERFORM record_change(NEW.box_office_id, 'ISSUED_TICKET.CREATED', NEW.id);
    ELSIF TG_OP = 'UPDATE' THEN
      -- Its own time and checked_in (the check-in is the entry) aside.
      shown := NEW;
      shown.updated_at := OLD.updated_at;
      shown.checked_in := OLD.checked_in;
      IF shown IS DISTINCT FROM OLD THEN
        PERFORM record_change(NEW.box_office_id, 'ISSUED_TICKET.UPDATED', NEW.id);
      END IF;
      IF NEW.order_id IS DISTINCT FROM OLD.order_id THEN
        stamp := sync_stamp(OLD.box_office_id);
        UPDATE orders SET updated_at = stamp
         WHERE id = OLD.order_id AND (updated_at < stamp OR updated_at > clock);
      END IF;
    ELSE
      PERFORM record_change(OLD.box_office_id, 'ISSUED_TICKET.DELETED', OLD.id);
      stamp := sync_stamp(OLD.box_office_id);
      UPDATE orders SET updated_at = stamp
       WHERE id = OLD.order_id AND (updated_at < stamp OR updated_at > clock);
    END IF;
    RETURN NULL;
  END $function$`;

/** The same, with `entered` (kept with `checked_in`, no change a client sees) set aside too. */
const TICKETS_SYNC_AFTER = TICKETS_SYNC_AFTER_BEFORE.replace(
  '-- Its own time and checked_in (the check-in is the entry) aside.',
  '-- Its own time, checked_in and entered (the check-in is the entry) aside.',
).replace(
  '      shown.checked_in := OLD.checked_in;\n',
  '      shown.checked_in := OLD.checked_in;\n      shown.entered := OLD.entered;\n',
);

/** IssuedTicketSearch's indexes for attendance, as it made them (`down` puts them back). */
const ATTENDANCE_INDEXES = [
  'CREATE INDEX "IDX_issued_tickets_attendance" ON issued_tickets (box_office_id, event_id, ticket_type_id, status, checked_in, id)',
  'CREATE INDEX "IDX_check_ins_check_outs" ON check_ins (box_office_id, event_id, issued_ticket_id) WHERE quantity = -1',
];

const countsTable = (name: string, keyed: boolean) =>
  `CREATE TABLE ${name} (
     box_office_id integer NOT NULL,
     event_id integer NOT NULL,
     ticket_type_id integer NOT NULL,
     ${COUNTS.map((column) => `${column} integer DEFAULT 0 NOT NULL`).join(',\n     ')}${
       keyed ? ',\n     PRIMARY KEY (event_id, ticket_type_id)' : ''
     }
   )`;

export class AttendanceCounts1766920000000 implements MigrationInterface {
  name = 'AttendanceCounts1766920000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    const postgres = isPostgres(queryRunner);
    if (postgres) {
      // The backfill reads every ticket: no request's statement timeout applies, and no writer
      // moves a ticket or a check-in between the counts and their triggers.
      await queryRunner.query('SET LOCAL statement_timeout = 0');
      await queryRunner.query(
        'LOCK TABLE issued_tickets IN ACCESS EXCLUSIVE MODE',
      );
      await queryRunner.query(
        'LOCK TABLE check_ins IN SHARE ROW EXCLUSIVE MODE',
      );
    }
    await queryRunner.query(
      `ALTER TABLE issued_tickets ADD COLUMN entered boolean NOT NULL DEFAULT ${postgres ? 'false' : '0'}`,
    );
    if (postgres) {
      await queryRunner.query(TICKETS_SYNC_AFTER);
      await queryRunner.query(
        'ALTER TABLE issued_tickets DISABLE TRIGGER trg_issued_tickets_sync_before',
      );
      await queryRunner.query(
        'ALTER TABLE issued_tickets DISABLE TRIGGER trg_issued_tickets_sync_after',
      );
    }
    await queryRunner.query(
      `UPDATE issued_tickets SET entered = ${postgres ? 'true' : '1'}
        WHERE id IN (SELECT issued_ticket_id FROM check_ins)`,
    );
    if (postgres) {
      await queryRunner.query(
        'ALTER TABLE issued_tickets ENABLE TRIGGER trg_issued_tickets_sync_before',
      );
      await queryRunner.query(
        'ALTER TABLE issued_tickets ENABLE TRIGGER trg_issued_tickets_sync_after',
      );
      await queryRunner.query(postgresCheckInFunction(true));
    } else {
      await queryRunner.query('DROP TRIGGER trg_check_ins_checked_in_insert');
      await queryRunner.query('DROP TRIGGER trg_check_ins_checked_in_delete');
      for (const trigger of sqliteCheckInTriggers(true)) {
        await queryRunner.query(trigger);
      }
    }
    await queryRunner.query(countsTable('attendance_counts', true));
    await queryRunner.query(
      `INSERT INTO attendance_counts (${COLUMNS})
       SELECT t.box_office_id, t.event_id, coalesce(t.ticket_type_id, 0), ${COUNTS.map(
         (column) =>
           `sum(CASE WHEN ${CONTRIBUTION[column]('t')} THEN 1 ELSE 0 END)`,
       ).join(', ')}
         FROM issued_tickets t
        GROUP BY t.box_office_id, t.event_id, coalesce(t.ticket_type_id, 0)`,
    );
    await queryRunner.query('DROP INDEX "IDX_issued_tickets_attendance"');
    await queryRunner.query('DROP INDEX "IDX_check_ins_check_outs"');
    if (!postgres) {
      for (const trigger of SQLITE_TRIGGERS) await queryRunner.query(trigger);
      return;
    }
    await queryRunner.query(countsTable('attendance_deltas', false));
    // A reader's look-up by event; a fold's and the sweep's by box office.
    await queryRunner.query(
      'CREATE INDEX "IDX_attendance_deltas_event" ON attendance_deltas (event_id)',
    );
    await queryRunner.query(
      'CREATE INDEX "IDX_attendance_deltas_box_office" ON attendance_deltas (box_office_id)',
    );
    for (const op of OPERATIONS) {
      await queryRunner.query(postgresDeltas(op));
      await queryRunner.query(
        `CREATE TRIGGER trg_issued_tickets_attendance_${op}
           AFTER ${op.toUpperCase()} ON issued_tickets ${TRANSITION_TABLES[op]}
           FOR EACH STATEMENT EXECUTE FUNCTION issued_tickets_attendance_on_${op}()`,
      );
    }
    await queryRunner.query(FOLD_ATTENDANCE);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    const postgres = isPostgres(queryRunner);
    if (postgres) {
      await queryRunner.query('DROP FUNCTION fold_attendance(integer)');
      for (const op of OPERATIONS) {
        await queryRunner.query(
          `DROP TRIGGER trg_issued_tickets_attendance_${op} ON issued_tickets`,
        );
        await queryRunner.query(
          `DROP FUNCTION issued_tickets_attendance_on_${op}()`,
        );
      }
      await queryRunner.query('DROP TABLE attendance_deltas');
      await queryRunner.query(postgresCheckInFunction(false));
      await queryRunner.query(TICKETS_SYNC_AFTER_BEFORE);
    } else {
      for (const trigger of SQLITE_TRIGGER_NAMES) {
        await queryRunner.query(`DROP TRIGGER ${trigger}`);
      }
      await queryRunner.query('DROP TRIGGER trg_check_ins_checked_in_insert');
      await queryRunner.query('DROP TRIGGER trg_check_ins_checked_in_delete');
      for (const trigger of sqliteCheckInTriggers(false)) {
        await queryRunner.query(trigger);
      }
    }
    await queryRunner.query('DROP TABLE attendance_counts');
    await queryRunner.query('ALTER TABLE issued_tickets DROP COLUMN entered');
    for (const index of ATTENDANCE_INDEXES) await queryRunner.query(index);
  }
}
