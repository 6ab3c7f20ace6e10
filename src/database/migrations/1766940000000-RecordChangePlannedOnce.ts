import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * PostgreSQL: `record_change`, which every change trigger calls to put an entry into
 * `change_inbox`, becomes a PL/pgSQL function. As a SQL function it was parsed and planned again
 * at every call (PostgreSQL 15 keeps no plan of a SQL function's body between the statements that
 * call it): 6% of the database's CPU under a load of ticket issues, about 30 µs an entry
 * (EXPLAIN ANALYZE of an issue's INSERT: the tickets' change trigger 68-73 µs before, 36-45 µs
 * after; bench/notes/2026-12-07-issues-on-postgresql.md). PL/pgSQL plans its INSERT once a
 * connection. Nothing else changes: the same entry, with the same stamp, for every caller.
 *
 * SQLite has no such function: its triggers write their entries themselves.
 */

/** What WritesWithoutHotRows left, character for character (the schema compares it). */
const RECORD_CHANGE_BEFORE = `CREATE OR REPLACE FUNCTION public.record_change(office integer, kind text, resource integer)
 RETURNS void
 LANGUAGE sql
AS $function$
  INSERT INTO change_inbox (box_office_id, type, resource_id, created_at)
  VALUES (office, kind, resource, sync_stamp(office))
$function$`;

export class RecordChangePlannedOnce1766940000000 implements MigrationInterface {
  name = 'RecordChangePlannedOnce1766940000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    if (queryRunner.connection.options.type !== 'postgres') return;
    await queryRunner.query(`CREATE OR REPLACE FUNCTION public.record_change(office integer, kind text, resource integer)
 RETURNS void
 LANGUAGE plpgsql
AS $function$
  -- One entry of the change feed, unnumbered (migration WritesWithoutHotRows), stamped with the
  -- transaction's stamp of the box office. PL/pgSQL, so that the INSERT is planned once a
  -- connection (migration RecordChangePlannedOnce).
  BEGIN
    INSERT INTO change_inbox (box_office_id, type, resource_id, created_at)
    VALUES (office, kind, resource, sync_stamp(office));
  END
$function$`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    if (queryRunner.connection.options.type !== 'postgres') return;
    await queryRunner.query(RECORD_CHANGE_BEFORE);
  }
}
