import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * PostgreSQL: a check-in's `CHECK_IN.CREATED` entry is numbered when its transaction commits,
 * not when the row is inserted (docs/DESIGN.md, "Change feed design"; bench/README.md, "The door
 * rush").
 *
 * An entry's number comes from its box office's `change_heads` row, and that row stays locked
 * from the moment the number is taken until the transaction ends, which is what makes numbers
 * visible in commit order. Taken at the insert, a door scan held the row while it read the
 * check-in back, kept its Idempotency-Key answer and committed: every scan of a box office
 * waited for the previous one's round trips, on every instance. Taken by a deferred trigger, it
 * is held only while the commit itself runs.
 *
 * The entry is written for the same rows as before: the trigger's WHEN runs at the insert, as
 * the function's own import-mode check did; only the numbering moves. The ticket's `updated_at`
 * still moves at the insert (check_ins_sync_after, now without the entry).
 *
 * SQLite needs nothing: its writers take turns for the whole transaction anyway.
 */

const PG_CLOCK = 'floor(extract(epoch FROM clock_timestamp()))::bigint';

/** What StampsPerBoxOffice wrote, character for character (the schema compares it). */
const SYNC_AFTER_BEFORE = `CREATE OR REPLACE FUNCTION check_ins_sync_after() RETURNS trigger LANGUAGE plpgsql AS $$
  DECLARE
    importing boolean := sync_importing();
  BEGIN
    -- A ticket is never older than its check-ins, imported ones included (outside import mode
    -- created_at is the stamp), nor, outside import mode, ahead of the clock.
    UPDATE issued_tickets SET updated_at = NEW.created_at
     WHERE id = NEW.issued_ticket_id
       AND (updated_at < NEW.created_at OR (NOT importing AND updated_at > ${PG_CLOCK}));
    IF importing THEN RETURN NULL; END IF;
    PERFORM record_change(NEW.box_office_id, 'CHECK_IN.CREATED', NEW.id);
    RETURN NULL;
  END $$`;

export class ScanEntriesAtCommit1766400000000 implements MigrationInterface {
  name = 'ScanEntriesAtCommit1766400000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    if (queryRunner.connection.options.type !== 'postgres') return;
    await queryRunner.query(
      `CREATE OR REPLACE FUNCTION check_ins_sync_after() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN
    -- A ticket is never older than its check-ins, imported ones included (outside import mode
    -- created_at is the stamp), nor, outside import mode, ahead of the clock. The entry is
    -- check_ins_announced's, at commit.
    UPDATE issued_tickets SET updated_at = NEW.created_at
     WHERE id = NEW.issued_ticket_id
       AND (updated_at < NEW.created_at OR (NOT sync_importing() AND updated_at > ${PG_CLOCK}));
    RETURN NULL;
  END $$`,
    );
    await queryRunner.query(
      `CREATE FUNCTION check_ins_announced() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN
    PERFORM record_change(NEW.box_office_id, 'CHECK_IN.CREATED', NEW.id);
    RETURN NULL;
  END $$`,
    );
    // Deferred: it runs as the transaction commits. Its WHEN runs at the insert.
    await queryRunner.query(
      `CREATE CONSTRAINT TRIGGER trg_check_ins_announced AFTER INSERT ON check_ins
         DEFERRABLE INITIALLY DEFERRED
         FOR EACH ROW WHEN (NOT sync_importing())
         EXECUTE FUNCTION check_ins_announced()`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    if (queryRunner.connection.options.type !== 'postgres') return;
    await queryRunner.query(
      'DROP TRIGGER trg_check_ins_announced ON check_ins',
    );
    await queryRunner.query('DROP FUNCTION check_ins_announced()');
    await queryRunner.query(SYNC_AFTER_BEFORE);
  }
}
