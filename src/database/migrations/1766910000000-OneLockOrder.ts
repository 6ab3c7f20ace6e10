import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * PostgreSQL: one lock order for an event's edit and a door scan (docs/OPERATIONS.md,
 * "Deadlocks"; issue #48, item 3).
 *
 * An edit of an event's series stamps its orders and then its tickets (`events_sync_after`),
 * while a scan, a void or a cancellation takes a ticket and then its order (the ticket's trigger
 * keeps the order no older than it): each could hold what the other needed next, a deadlock that
 * PostgreSQL broke after `deadlock_timeout` by aborting one. Now the edit takes the event's
 * tickets first, in id order, then its orders: every writer takes a ticket before its order.
 * Nothing else changes: the same rows get the same stamps.
 *
 * (The other cycle, a refund or cancellation holding its order while it needed the event's row
 * for its counters, went with migration CountsWithoutHotRows: counts are deltas now.)
 *
 * SQLite needs nothing: its writers take turns for the whole database.
 */

/** What ConnectorColumnsInSync left, character for character (the schema compares it). */
const EVENTS_SYNC_AFTER_BEFORE = `CREATE OR REPLACE FUNCTION public.events_sync_after()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
  DECLARE
    shown events;
    stamp bigint;
    clock bigint;
  BEGIN
    IF sync_importing() THEN RETURN NULL; END IF;
    IF TG_OP = 'INSERT' THEN
      PERFORM record_change(NEW.box_office_id, 'EVENT.CREATED', NEW.id);
    ELSIF TG_OP = 'UPDATE' THEN
      -- Its counters of sales are not changes of the event.
      shown := NEW;
      shown.completed_orders_count := OLD.completed_orders_count;
      shown.valid_tickets_count := OLD.valid_tickets_count;
      shown.completed_revenue := OLD.completed_revenue;
      IF shown IS DISTINCT FROM OLD THEN
        PERFORM record_change(NEW.box_office_id, 'EVENT.UPDATED', NEW.id);
        -- Its name, dates, zone, venue and series are in its orders' event_summary; its series
        -- in its tickets.
        stamp := sync_stamp(NEW.box_office_id);
        clock := floor(extract(epoch FROM clock_timestamp()))::bigint;
        IF NEW.name IS DISTINCT FROM OLD.name OR NEW.start_at IS DISTINCT FROM OLD.start_at
           OR NEW.end_at IS DISTINCT FROM OLD.end_at OR NEW.timezone IS DISTINCT FROM OLD.timezone
           OR NEW.venue_name IS DISTINCT FROM OLD.venue_name
           OR NEW.venue_postal_code IS DISTINCT FROM OLD.venue_postal_code
           OR NEW.event_series_id IS DISTINCT FROM OLD.event_series_id THEN
          UPDATE orders SET updated_at = stamp
           WHERE box_office_id = NEW.box_office_id AND event_id = NEW.id
             AND (updated_at < stamp OR updated_at > clock);
        END IF;
        IF NEW.event_series_id IS DISTINCT FROM OLD.event_series_id THEN
          UPDATE issued_tickets SET updated_at = stamp
           WHERE event_id = NEW.id AND (updated_at < stamp OR updated_at > clock);
        END IF;
      END IF;
    ELSE
      PERFORM record_change(OLD.box_office_id, 'EVENT.DELETED', OLD.id);
    END IF;
    RETURN NULL;
  END $function$`;

export class OneLockOrder1766910000000 implements MigrationInterface {
  name = 'OneLockOrder1766910000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    if (queryRunner.connection.options.type !== 'postgres') return;
    await queryRunner.query(`CREATE OR REPLACE FUNCTION public.events_sync_after()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
  DECLARE
    shown events;
    stamp bigint;
    clock bigint;
  BEGIN
    IF sync_importing() THEN RETURN NULL; END IF;
    IF TG_OP = 'INSERT' THEN
      PERFORM record_change(NEW.box_office_id, 'EVENT.CREATED', NEW.id);
    ELSIF TG_OP = 'UPDATE' THEN
      -- Its counters of sales are not changes of the event.
      shown := NEW;
      shown.completed_orders_count := OLD.completed_orders_count;
      shown.valid_tickets_count := OLD.valid_tickets_count;
      shown.completed_revenue := OLD.completed_revenue;
      IF shown IS DISTINCT FROM OLD THEN
        PERFORM record_change(NEW.box_office_id, 'EVENT.UPDATED', NEW.id);
        -- Its name, dates, zone, venue and series are in its orders' event_summary; its series
        -- in its tickets.
        stamp := sync_stamp(NEW.box_office_id);
        clock := floor(extract(epoch FROM clock_timestamp()))::bigint;
        -- One lock order (docs/OPERATIONS.md, "Deadlocks"): the event, its tickets (in id
        -- order), then its orders, as a scan, a void or a cancellation takes a ticket before its
        -- order (migration OneLockOrder).
        IF NEW.event_series_id IS DISTINCT FROM OLD.event_series_id THEN
          PERFORM 1 FROM issued_tickets WHERE event_id = NEW.id ORDER BY id FOR NO KEY UPDATE;
          UPDATE issued_tickets SET updated_at = stamp
           WHERE event_id = NEW.id AND (updated_at < stamp OR updated_at > clock);
        END IF;
        IF NEW.name IS DISTINCT FROM OLD.name OR NEW.start_at IS DISTINCT FROM OLD.start_at
           OR NEW.end_at IS DISTINCT FROM OLD.end_at OR NEW.timezone IS DISTINCT FROM OLD.timezone
           OR NEW.venue_name IS DISTINCT FROM OLD.venue_name
           OR NEW.venue_postal_code IS DISTINCT FROM OLD.venue_postal_code
           OR NEW.event_series_id IS DISTINCT FROM OLD.event_series_id THEN
          UPDATE orders SET updated_at = stamp
           WHERE box_office_id = NEW.box_office_id AND event_id = NEW.id
             AND (updated_at < stamp OR updated_at > clock);
        END IF;
      END IF;
    ELSE
      PERFORM record_change(OLD.box_office_id, 'EVENT.DELETED', OLD.id);
    END IF;
    RETURN NULL;
  END $function$`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    if (queryRunner.connection.options.type !== 'postgres') return;
    await queryRunner.query(EVENTS_SYNC_AFTER_BEFORE);
  }
}
