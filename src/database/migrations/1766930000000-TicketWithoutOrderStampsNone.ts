import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * PostgreSQL: the tickets' change trigger (`issued_tickets_sync_after`) no longer runs the UPDATE
 * that keeps a ticket's order no older than it for a ticket that has no order (one issued on its
 * own, `POST /v1/issued_tickets`): that UPDATE matched no row, but its executor opened `orders`
 * with its indexes and triggers all the same, about 80 µs of the database's CPU for every issue
 * and every write of such a ticket (bench/notes/2026-12-07-issues-on-postgresql.md). Nothing else
 * changes: the same rows get the same stamps and the same change entries.
 *
 * SQLite is left as it is (its triggers' statements run in the service's process).
 */

/** What AttendanceCounts left, character for character (the schema compares it). */
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
      -- Its own time, checked_in and entered (the check-in is the entry) aside.
      shown := NEW;
      shown.updated_at := OLD.updated_at;
      shown.checked_in := OLD.checked_in;
      shown.entered := OLD.entered;
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

export class TicketWithoutOrderStampsNone1766930000000 implements MigrationInterface {
  name = 'TicketWithoutOrderStampsNone1766930000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    if (queryRunner.connection.options.type !== 'postgres') return;
    await queryRunner.query(`CREATE OR REPLACE FUNCTION public.issued_tickets_sync_after()
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
    -- mode included); outside import mode it is never ahead of the clock either. A ticket issued
    -- on its own has no order: no UPDATE is run for it (migration TicketWithoutOrderStampsNone).
    IF TG_OP <> 'DELETE' AND NEW.order_id IS NOT NULL THEN
      UPDATE orders SET updated_at = NEW.updated_at
       WHERE id = NEW.order_id
         AND (updated_at < NEW.updated_at OR (NOT importing AND updated_at > clock));
    END IF;
    IF importing THEN RETURN NULL; END IF;
    IF TG_OP = 'INSERT' THEN
      PERFORM record_change(NEW.box_office_id, 'ISSUED_TICKET.CREATED', NEW.id);
    ELSIF TG_OP = 'UPDATE' THEN
      -- Its own time, checked_in and entered (the check-in is the entry) aside.
      shown := NEW;
      shown.updated_at := OLD.updated_at;
      shown.checked_in := OLD.checked_in;
      shown.entered := OLD.entered;
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
  END $function$`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    if (queryRunner.connection.options.type !== 'postgres') return;
    await queryRunner.query(TICKETS_SYNC_AFTER_BEFORE);
  }
}
