import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * PostgreSQL: change entries are numbered after their transaction commits, not by it
 * (docs/DESIGN.md, "Change feed design: ids in commit order").
 *
 * Until now `record_change` took the entry's number from the box office's `change_heads` row,
 * which the writing transaction then held until it ended: every writer of a box office waited
 * for the one before it to commit, and a catalogue edit that held a ticket type's or an event's
 * row while its trigger needed the counter deadlocked with a sale or a scan that held the counter
 * (or an order's row) while it needed that row (bench/notes/2026-11-27-writer-concurrency.md).
 *
 * Now the trigger puts the entry into `change_inbox`, unnumbered: a row of its own that no other
 * writer touches, keyed by a global identity (`seq`, the order of the inserts). The assigner,
 * `assign_changes(office, wait)`, numbers a box office's committed entries: under a
 * transaction-level advisory lock of the box office (one assigner of a box office at a time, on
 * any instance), one statement moves every entry its snapshot sees from the inbox to `changes`,
 * numbered after the box office's head in `seq` order, and the head follows. Entries committed
 * after that statement's snapshot are left for the next pass, which numbers after them: so an
 * entry is never numbered before one that was visible earlier, and a reader, who sees the
 * assigner's commits whole, always sees `1..head`. `wait` false gives up at once when another
 * assigner holds the box office (the periodic sweep: that one numbers them); true waits for it
 * (a feed read that must see every entry committed before it).
 *
 * `change_heads` is written by the assigner alone; `changes` and `change_heads` keep their shape,
 * so everything that reads them reads them as before.
 *
 * Existing databases keep their numbering: the heads are untouched and the first entries written
 * after the upgrade are numbered after them. Entries an old writer's transaction numbered while
 * the upgrade ran are in `changes` already.
 *
 * SQLite needs none of it: its writers take turns for the whole database anyway.
 */

/** What the advisory lock of a box office's assigner is keyed by: (this << 32) + box office. */
const ASSIGNER_LOCK_CLASS = 20251127;

/** What StampsPerBoxOffice wrote, character for character (the schema compares it). */
const RECORD_CHANGE_BEFORE = `CREATE OR REPLACE FUNCTION record_change(office integer, kind text, resource integer)
  RETURNS void LANGUAGE sql AS $$
    WITH head AS (
      INSERT INTO change_heads AS h (box_office_id, last_id) VALUES (office, 1)
      ON CONFLICT (box_office_id) DO UPDATE SET last_id = h.last_id + 1
      RETURNING h.last_id)
    INSERT INTO changes (box_office_id, id, type, resource_id, created_at)
    SELECT office, last_id, kind, resource, sync_stamp(office) FROM head $$`;

/**
 * The parts' triggers (line items, ticket types, ticket groups, payment methods) tell a part
 * written with its parent from a later edit by the parent's CREATED entry being a row of the
 * writing transaction (docs/API.md, "Change entries"). That entry is now unnumbered until the
 * transaction commits, so they look for it in the inbox: each function whose body reads
 * `FROM <from> c WHERE` is redefined as it is with `FROM <to> c WHERE`, the rest of it unchanged.
 */
const partsLookIn = (from: string, to: string) => `DO $do$
  DECLARE
    f record;
  BEGIN
    FOR f IN SELECT p.oid FROM pg_proc p
               JOIN pg_namespace n ON n.oid = p.pronamespace AND n.nspname = current_schema()
              WHERE p.prosrc LIKE '%FROM ${from} c WHERE%' LOOP
      EXECUTE replace(pg_get_functiondef(f.oid), 'FROM ${from} c WHERE', 'FROM ${to} c WHERE');
    END LOOP;
  END $do$`;

export class WritesWithoutHotRows1766800000000 implements MigrationInterface {
  name = 'WritesWithoutHotRows1766800000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    if (queryRunner.connection.options.type !== 'postgres') return;
    await queryRunner.query(
      `CREATE TABLE change_inbox (
         seq bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
         box_office_id integer NOT NULL,
         type character varying(32) NOT NULL,
         resource_id integer NOT NULL,
         created_at bigint NOT NULL
       )`,
    );
    await queryRunner.query(
      'CREATE INDEX "IDX_change_inbox_resource" ON change_inbox (box_office_id, resource_id)',
    );
    await queryRunner.query(partsLookIn('changes', 'change_inbox'));
    await queryRunner.query(
      `CREATE OR REPLACE FUNCTION record_change(office integer, kind text, resource integer)
RETURNS void LANGUAGE sql AS $$
  INSERT INTO change_inbox (box_office_id, type, resource_id, created_at)
  VALUES (office, kind, resource, sync_stamp(office))
$$`,
    );
    await queryRunner.query(
      `CREATE FUNCTION assign_changes(office integer, wait boolean) RETURNS integer
LANGUAGE plpgsql AS $$
  -- Numbers the box office's committed entries after its head (migration WritesWithoutHotRows).
  -- Each statement below takes its own snapshot, after the lock: it sees the previous
  -- assigner's head and every entry committed before it.
  DECLARE
    lock_key bigint := (${ASSIGNER_LOCK_CLASS}::bigint << 32) + office;
    head bigint;
    moved integer;
  BEGIN
    IF NOT EXISTS (SELECT 1 FROM change_inbox WHERE box_office_id = office) THEN
      RETURN 0;
    END IF;
    IF wait THEN
      PERFORM pg_advisory_xact_lock(lock_key);
    ELSIF NOT pg_try_advisory_xact_lock(lock_key) THEN
      RETURN 0;
    END IF;
    head := coalesce((SELECT last_id FROM change_heads WHERE box_office_id = office), 0);
    WITH taken AS (
      DELETE FROM change_inbox WHERE box_office_id = office
      RETURNING seq, type, resource_id, created_at)
    INSERT INTO changes (box_office_id, id, type, resource_id, created_at)
    SELECT office, head + row_number() OVER (ORDER BY seq), type, resource_id, created_at
      FROM taken;
    GET DIAGNOSTICS moved = ROW_COUNT;
    IF moved > 0 THEN
      INSERT INTO change_heads AS h (box_office_id, last_id) VALUES (office, head + moved)
      ON CONFLICT (box_office_id) DO UPDATE SET last_id = EXCLUDED.last_id;
    END IF;
    RETURN moved;
  END $$`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    if (queryRunner.connection.options.type !== 'postgres') return;
    // Entries still waiting are numbered first: the old writers number after the heads.
    await queryRunner.query(
      `SELECT assign_changes(box_office_id, true)
         FROM (SELECT DISTINCT box_office_id FROM change_inbox) AS pending`,
    );
    await queryRunner.query(RECORD_CHANGE_BEFORE);
    await queryRunner.query(partsLookIn('change_inbox', 'changes'));
    await queryRunner.query('DROP FUNCTION assign_changes(integer, boolean)');
    await queryRunner.query('DROP TABLE change_inbox');
  }
}
