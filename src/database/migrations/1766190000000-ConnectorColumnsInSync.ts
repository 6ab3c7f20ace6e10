import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The columns migration LineItemSubjects added to what orders show are changes of the order
 * (docs/API.md, "Who keeps updated_at" and "Change entries"): a buyer's first or last name, and
 * what a line item names (its ticket type, product, voucher code or discount) move the order's
 * `updated_at` and write `ORDER.UPDATED`, whoever writes; and an event's venue and series, which
 * its orders' `event_summary` now shows, move those orders' `updated_at` as its name and dates do.
 *
 * The sync triggers as migration StampsPerBoxOffice wrote them, with those columns added, written
 * out; down() puts StampsPerBoxOffice's text back. SQLite's triggers name each column, so the four
 * that list orders' and line items' columns, or the event columns its orders show, are dropped
 * and created again. PostgreSQL's functions compare whole rows, so orders and line items need
 * nothing there; the events function, which names the columns its orders show, is replaced.
 */
const isPostgres = (queryRunner: QueryRunner) =>
  queryRunner.connection.options.type === 'postgres';

/** A SQLite trigger: its name, its text before this migration, and after it. */
interface Rewritten {
  name: string;
  before: string;
  after: string;
}

const SQLITE_TRIGGERS: Rewritten[] = [
  {
    name: 'trg_orders_sync_update',
    before: `CREATE TRIGGER trg_orders_sync_update AFTER UPDATE ON orders
  WHEN ((NEW.box_office_id IS NOT OLD.box_office_id OR NEW.event_id IS NOT OLD.event_id OR NEW.status IS NOT OLD.status OR NEW.status_message IS NOT OLD.status_message OR NEW.currency IS NOT OLD.currency OR NEW.subtotal IS NOT OLD.subtotal OR NEW.tax IS NOT OLD.tax OR NEW.total IS NOT OLD.total OR NEW.refund_amount IS NOT OLD.refund_amount OR NEW.txn_id IS NOT OLD.txn_id OR NEW.created_at IS NOT OLD.created_at OR NEW.buyer_name IS NOT OLD.buyer_name OR NEW.buyer_email IS NOT OLD.buyer_email OR NEW.buyer_email_lookup IS NOT OLD.buyer_email_lookup OR NEW.buyer_phone IS NOT OLD.buyer_phone OR NEW.address_1 IS NOT OLD.address_1 OR NEW.address_2 IS NOT OLD.address_2 OR NEW.address_3 IS NOT OLD.address_3 OR NEW.postal_code IS NOT OLD.postal_code OR NEW.buyer_custom_questions IS NOT OLD.buyer_custom_questions OR NEW.payment_method_type IS NOT OLD.payment_method_type OR NEW.payment_method_id IS NOT OLD.payment_method_id OR NEW.payment_method_external_id IS NOT OLD.payment_method_external_id OR NEW.payment_method_name IS NOT OLD.payment_method_name OR NEW.payment_method_instructions IS NOT OLD.payment_method_instructions) OR NEW.updated_at IS NOT OLD.updated_at)
   AND NOT EXISTS (SELECT 1 FROM sync_import) AND NOT EXISTS (SELECT 1 FROM sync_correcting WHERE row_table = 'orders' AND row_id = NEW.id) BEGIN
  UPDATE orders SET created_at = min(created_at, unixepoch()), updated_at = unixepoch()
   WHERE id = NEW.id AND (updated_at IS NOT unixepoch() OR created_at > unixepoch());
  INSERT INTO change_heads (box_office_id, last_id) SELECT NEW.box_office_id, 1 WHERE (NEW.box_office_id IS NOT OLD.box_office_id OR NEW.event_id IS NOT OLD.event_id OR NEW.status IS NOT OLD.status OR NEW.status_message IS NOT OLD.status_message OR NEW.currency IS NOT OLD.currency OR NEW.subtotal IS NOT OLD.subtotal OR NEW.tax IS NOT OLD.tax OR NEW.total IS NOT OLD.total OR NEW.refund_amount IS NOT OLD.refund_amount OR NEW.txn_id IS NOT OLD.txn_id OR NEW.created_at IS NOT OLD.created_at OR NEW.buyer_name IS NOT OLD.buyer_name OR NEW.buyer_email IS NOT OLD.buyer_email OR NEW.buyer_email_lookup IS NOT OLD.buyer_email_lookup OR NEW.buyer_phone IS NOT OLD.buyer_phone OR NEW.address_1 IS NOT OLD.address_1 OR NEW.address_2 IS NOT OLD.address_2 OR NEW.address_3 IS NOT OLD.address_3 OR NEW.postal_code IS NOT OLD.postal_code OR NEW.buyer_custom_questions IS NOT OLD.buyer_custom_questions OR NEW.payment_method_type IS NOT OLD.payment_method_type OR NEW.payment_method_id IS NOT OLD.payment_method_id OR NEW.payment_method_external_id IS NOT OLD.payment_method_external_id OR NEW.payment_method_name IS NOT OLD.payment_method_name OR NEW.payment_method_instructions IS NOT OLD.payment_method_instructions)
    ON CONFLICT (box_office_id) DO UPDATE SET last_id = last_id + 1;
  INSERT INTO changes (box_office_id, id, type, resource_id, created_at)
    SELECT NEW.box_office_id, (SELECT last_id FROM change_heads WHERE box_office_id = NEW.box_office_id),
           'ORDER.UPDATED', NEW.id, unixepoch() WHERE (NEW.box_office_id IS NOT OLD.box_office_id OR NEW.event_id IS NOT OLD.event_id OR NEW.status IS NOT OLD.status OR NEW.status_message IS NOT OLD.status_message OR NEW.currency IS NOT OLD.currency OR NEW.subtotal IS NOT OLD.subtotal OR NEW.tax IS NOT OLD.tax OR NEW.total IS NOT OLD.total OR NEW.refund_amount IS NOT OLD.refund_amount OR NEW.txn_id IS NOT OLD.txn_id OR NEW.created_at IS NOT OLD.created_at OR NEW.buyer_name IS NOT OLD.buyer_name OR NEW.buyer_email IS NOT OLD.buyer_email OR NEW.buyer_email_lookup IS NOT OLD.buyer_email_lookup OR NEW.buyer_phone IS NOT OLD.buyer_phone OR NEW.address_1 IS NOT OLD.address_1 OR NEW.address_2 IS NOT OLD.address_2 OR NEW.address_3 IS NOT OLD.address_3 OR NEW.postal_code IS NOT OLD.postal_code OR NEW.buyer_custom_questions IS NOT OLD.buyer_custom_questions OR NEW.payment_method_type IS NOT OLD.payment_method_type OR NEW.payment_method_id IS NOT OLD.payment_method_id OR NEW.payment_method_external_id IS NOT OLD.payment_method_external_id OR NEW.payment_method_name IS NOT OLD.payment_method_name OR NEW.payment_method_instructions IS NOT OLD.payment_method_instructions);
  UPDATE issued_tickets SET updated_at = unixepoch()
   WHERE order_id = NEW.id AND updated_at IS NOT unixepoch()
     AND (updated_at > unixepoch() OR NEW.buyer_email IS NOT OLD.buyer_email);
END`,
    after: `CREATE TRIGGER trg_orders_sync_update AFTER UPDATE ON orders
  WHEN ((NEW.box_office_id IS NOT OLD.box_office_id OR NEW.event_id IS NOT OLD.event_id OR NEW.status IS NOT OLD.status OR NEW.status_message IS NOT OLD.status_message OR NEW.currency IS NOT OLD.currency OR NEW.subtotal IS NOT OLD.subtotal OR NEW.tax IS NOT OLD.tax OR NEW.total IS NOT OLD.total OR NEW.refund_amount IS NOT OLD.refund_amount OR NEW.txn_id IS NOT OLD.txn_id OR NEW.created_at IS NOT OLD.created_at OR NEW.buyer_name IS NOT OLD.buyer_name OR NEW.buyer_email IS NOT OLD.buyer_email OR NEW.buyer_email_lookup IS NOT OLD.buyer_email_lookup OR NEW.buyer_phone IS NOT OLD.buyer_phone OR NEW.address_1 IS NOT OLD.address_1 OR NEW.address_2 IS NOT OLD.address_2 OR NEW.address_3 IS NOT OLD.address_3 OR NEW.postal_code IS NOT OLD.postal_code OR NEW.buyer_custom_questions IS NOT OLD.buyer_custom_questions OR NEW.payment_method_type IS NOT OLD.payment_method_type OR NEW.payment_method_id IS NOT OLD.payment_method_id OR NEW.payment_method_external_id IS NOT OLD.payment_method_external_id OR NEW.payment_method_name IS NOT OLD.payment_method_name OR NEW.payment_method_instructions IS NOT OLD.payment_method_instructions OR NEW.buyer_first_name IS NOT OLD.buyer_first_name OR NEW.buyer_last_name IS NOT OLD.buyer_last_name) OR NEW.updated_at IS NOT OLD.updated_at)
   AND NOT EXISTS (SELECT 1 FROM sync_import) AND NOT EXISTS (SELECT 1 FROM sync_correcting WHERE row_table = 'orders' AND row_id = NEW.id) BEGIN
  UPDATE orders SET created_at = min(created_at, unixepoch()), updated_at = unixepoch()
   WHERE id = NEW.id AND (updated_at IS NOT unixepoch() OR created_at > unixepoch());
  INSERT INTO change_heads (box_office_id, last_id) SELECT NEW.box_office_id, 1 WHERE (NEW.box_office_id IS NOT OLD.box_office_id OR NEW.event_id IS NOT OLD.event_id OR NEW.status IS NOT OLD.status OR NEW.status_message IS NOT OLD.status_message OR NEW.currency IS NOT OLD.currency OR NEW.subtotal IS NOT OLD.subtotal OR NEW.tax IS NOT OLD.tax OR NEW.total IS NOT OLD.total OR NEW.refund_amount IS NOT OLD.refund_amount OR NEW.txn_id IS NOT OLD.txn_id OR NEW.created_at IS NOT OLD.created_at OR NEW.buyer_name IS NOT OLD.buyer_name OR NEW.buyer_email IS NOT OLD.buyer_email OR NEW.buyer_email_lookup IS NOT OLD.buyer_email_lookup OR NEW.buyer_phone IS NOT OLD.buyer_phone OR NEW.address_1 IS NOT OLD.address_1 OR NEW.address_2 IS NOT OLD.address_2 OR NEW.address_3 IS NOT OLD.address_3 OR NEW.postal_code IS NOT OLD.postal_code OR NEW.buyer_custom_questions IS NOT OLD.buyer_custom_questions OR NEW.payment_method_type IS NOT OLD.payment_method_type OR NEW.payment_method_id IS NOT OLD.payment_method_id OR NEW.payment_method_external_id IS NOT OLD.payment_method_external_id OR NEW.payment_method_name IS NOT OLD.payment_method_name OR NEW.payment_method_instructions IS NOT OLD.payment_method_instructions OR NEW.buyer_first_name IS NOT OLD.buyer_first_name OR NEW.buyer_last_name IS NOT OLD.buyer_last_name)
    ON CONFLICT (box_office_id) DO UPDATE SET last_id = last_id + 1;
  INSERT INTO changes (box_office_id, id, type, resource_id, created_at)
    SELECT NEW.box_office_id, (SELECT last_id FROM change_heads WHERE box_office_id = NEW.box_office_id),
           'ORDER.UPDATED', NEW.id, unixepoch() WHERE (NEW.box_office_id IS NOT OLD.box_office_id OR NEW.event_id IS NOT OLD.event_id OR NEW.status IS NOT OLD.status OR NEW.status_message IS NOT OLD.status_message OR NEW.currency IS NOT OLD.currency OR NEW.subtotal IS NOT OLD.subtotal OR NEW.tax IS NOT OLD.tax OR NEW.total IS NOT OLD.total OR NEW.refund_amount IS NOT OLD.refund_amount OR NEW.txn_id IS NOT OLD.txn_id OR NEW.created_at IS NOT OLD.created_at OR NEW.buyer_name IS NOT OLD.buyer_name OR NEW.buyer_email IS NOT OLD.buyer_email OR NEW.buyer_email_lookup IS NOT OLD.buyer_email_lookup OR NEW.buyer_phone IS NOT OLD.buyer_phone OR NEW.address_1 IS NOT OLD.address_1 OR NEW.address_2 IS NOT OLD.address_2 OR NEW.address_3 IS NOT OLD.address_3 OR NEW.postal_code IS NOT OLD.postal_code OR NEW.buyer_custom_questions IS NOT OLD.buyer_custom_questions OR NEW.payment_method_type IS NOT OLD.payment_method_type OR NEW.payment_method_id IS NOT OLD.payment_method_id OR NEW.payment_method_external_id IS NOT OLD.payment_method_external_id OR NEW.payment_method_name IS NOT OLD.payment_method_name OR NEW.payment_method_instructions IS NOT OLD.payment_method_instructions OR NEW.buyer_first_name IS NOT OLD.buyer_first_name OR NEW.buyer_last_name IS NOT OLD.buyer_last_name);
  UPDATE issued_tickets SET updated_at = unixepoch()
   WHERE order_id = NEW.id AND updated_at IS NOT unixepoch()
     AND (updated_at > unixepoch() OR NEW.buyer_email IS NOT OLD.buyer_email);
END`,
  },
  {
    name: 'trg_orders_sync_ahead',
    before: `CREATE TRIGGER trg_orders_sync_ahead AFTER UPDATE ON orders
  WHEN NEW.created_at > unixepoch() AND NOT (NEW.box_office_id IS NOT OLD.box_office_id OR NEW.event_id IS NOT OLD.event_id OR NEW.status IS NOT OLD.status OR NEW.status_message IS NOT OLD.status_message OR NEW.currency IS NOT OLD.currency OR NEW.subtotal IS NOT OLD.subtotal OR NEW.tax IS NOT OLD.tax OR NEW.total IS NOT OLD.total OR NEW.refund_amount IS NOT OLD.refund_amount OR NEW.txn_id IS NOT OLD.txn_id OR NEW.created_at IS NOT OLD.created_at OR NEW.buyer_name IS NOT OLD.buyer_name OR NEW.buyer_email IS NOT OLD.buyer_email OR NEW.buyer_email_lookup IS NOT OLD.buyer_email_lookup OR NEW.buyer_phone IS NOT OLD.buyer_phone OR NEW.address_1 IS NOT OLD.address_1 OR NEW.address_2 IS NOT OLD.address_2 OR NEW.address_3 IS NOT OLD.address_3 OR NEW.postal_code IS NOT OLD.postal_code OR NEW.buyer_custom_questions IS NOT OLD.buyer_custom_questions OR NEW.payment_method_type IS NOT OLD.payment_method_type OR NEW.payment_method_id IS NOT OLD.payment_method_id OR NEW.payment_method_external_id IS NOT OLD.payment_method_external_id OR NEW.payment_method_name IS NOT OLD.payment_method_name OR NEW.payment_method_instructions IS NOT OLD.payment_method_instructions) AND NOT EXISTS (SELECT 1 FROM sync_import) BEGIN
  INSERT OR IGNORE INTO sync_correcting (row_table, row_id) SELECT 'orders', NEW.id WHERE true;
  UPDATE orders SET created_at = min(created_at, unixepoch()), updated_at = unixepoch() WHERE id = NEW.id;
  DELETE FROM sync_correcting WHERE row_table = 'orders' AND row_id = NEW.id AND true;
  INSERT INTO change_heads (box_office_id, last_id) SELECT NEW.box_office_id, 1 WHERE true
    ON CONFLICT (box_office_id) DO UPDATE SET last_id = last_id + 1;
  INSERT INTO changes (box_office_id, id, type, resource_id, created_at)
    SELECT NEW.box_office_id, (SELECT last_id FROM change_heads WHERE box_office_id = NEW.box_office_id),
           'ORDER.UPDATED', NEW.id, unixepoch() WHERE true;
  UPDATE issued_tickets SET updated_at = unixepoch()
   WHERE order_id = NEW.id AND updated_at > unixepoch();
END`,
    after: `CREATE TRIGGER trg_orders_sync_ahead AFTER UPDATE ON orders
  WHEN NEW.created_at > unixepoch() AND NOT (NEW.box_office_id IS NOT OLD.box_office_id OR NEW.event_id IS NOT OLD.event_id OR NEW.status IS NOT OLD.status OR NEW.status_message IS NOT OLD.status_message OR NEW.currency IS NOT OLD.currency OR NEW.subtotal IS NOT OLD.subtotal OR NEW.tax IS NOT OLD.tax OR NEW.total IS NOT OLD.total OR NEW.refund_amount IS NOT OLD.refund_amount OR NEW.txn_id IS NOT OLD.txn_id OR NEW.created_at IS NOT OLD.created_at OR NEW.buyer_name IS NOT OLD.buyer_name OR NEW.buyer_email IS NOT OLD.buyer_email OR NEW.buyer_email_lookup IS NOT OLD.buyer_email_lookup OR NEW.buyer_phone IS NOT OLD.buyer_phone OR NEW.address_1 IS NOT OLD.address_1 OR NEW.address_2 IS NOT OLD.address_2 OR NEW.address_3 IS NOT OLD.address_3 OR NEW.postal_code IS NOT OLD.postal_code OR NEW.buyer_custom_questions IS NOT OLD.buyer_custom_questions OR NEW.payment_method_type IS NOT OLD.payment_method_type OR NEW.payment_method_id IS NOT OLD.payment_method_id OR NEW.payment_method_external_id IS NOT OLD.payment_method_external_id OR NEW.payment_method_name IS NOT OLD.payment_method_name OR NEW.payment_method_instructions IS NOT OLD.payment_method_instructions OR NEW.buyer_first_name IS NOT OLD.buyer_first_name OR NEW.buyer_last_name IS NOT OLD.buyer_last_name) AND NOT EXISTS (SELECT 1 FROM sync_import) BEGIN
  INSERT OR IGNORE INTO sync_correcting (row_table, row_id) SELECT 'orders', NEW.id WHERE true;
  UPDATE orders SET created_at = min(created_at, unixepoch()), updated_at = unixepoch() WHERE id = NEW.id;
  DELETE FROM sync_correcting WHERE row_table = 'orders' AND row_id = NEW.id AND true;
  INSERT INTO change_heads (box_office_id, last_id) SELECT NEW.box_office_id, 1 WHERE true
    ON CONFLICT (box_office_id) DO UPDATE SET last_id = last_id + 1;
  INSERT INTO changes (box_office_id, id, type, resource_id, created_at)
    SELECT NEW.box_office_id, (SELECT last_id FROM change_heads WHERE box_office_id = NEW.box_office_id),
           'ORDER.UPDATED', NEW.id, unixepoch() WHERE true;
  UPDATE issued_tickets SET updated_at = unixepoch()
   WHERE order_id = NEW.id AND updated_at > unixepoch();
END`,
  },
  {
    name: 'trg_line_items_sync_update',
    before: `CREATE TRIGGER trg_line_items_sync_update AFTER UPDATE ON line_items
  WHEN (NEW.order_id IS NOT OLD.order_id OR NEW.type IS NOT OLD.type OR NEW.description IS NOT OLD.description OR NEW.quantity IS NOT OLD.quantity OR NEW.value IS NOT OLD.value OR NEW.booking_fee IS NOT OLD.booking_fee OR NEW.total IS NOT OLD.total) AND NOT EXISTS (SELECT 1 FROM sync_import) BEGIN
  INSERT INTO change_heads (box_office_id, last_id) SELECT (SELECT box_office_id FROM orders WHERE id = NEW.order_id), 1 WHERE (SELECT box_office_id FROM orders WHERE id = NEW.order_id) IS NOT NULL
    ON CONFLICT (box_office_id) DO UPDATE SET last_id = last_id + 1;
  INSERT INTO changes (box_office_id, id, type, resource_id, created_at)
    SELECT (SELECT box_office_id FROM orders WHERE id = NEW.order_id), (SELECT last_id FROM change_heads WHERE box_office_id = (SELECT box_office_id FROM orders WHERE id = NEW.order_id)),
           'ORDER.UPDATED', NEW.order_id, unixepoch() WHERE (SELECT box_office_id FROM orders WHERE id = NEW.order_id) IS NOT NULL;
  UPDATE orders SET updated_at = unixepoch()
    WHERE id IN (NEW.order_id) AND updated_at IS NOT unixepoch() AND true;
END`,
    after: `CREATE TRIGGER trg_line_items_sync_update AFTER UPDATE ON line_items
  WHEN (NEW.order_id IS NOT OLD.order_id OR NEW.type IS NOT OLD.type OR NEW.description IS NOT OLD.description OR NEW.quantity IS NOT OLD.quantity OR NEW.value IS NOT OLD.value OR NEW.booking_fee IS NOT OLD.booking_fee OR NEW.total IS NOT OLD.total OR NEW.ticket_type_id IS NOT OLD.ticket_type_id OR NEW.product_id IS NOT OLD.product_id OR NEW.voucher_code_id IS NOT OLD.voucher_code_id OR NEW.discount_id IS NOT OLD.discount_id) AND NOT EXISTS (SELECT 1 FROM sync_import) BEGIN
  INSERT INTO change_heads (box_office_id, last_id) SELECT (SELECT box_office_id FROM orders WHERE id = NEW.order_id), 1 WHERE (SELECT box_office_id FROM orders WHERE id = NEW.order_id) IS NOT NULL
    ON CONFLICT (box_office_id) DO UPDATE SET last_id = last_id + 1;
  INSERT INTO changes (box_office_id, id, type, resource_id, created_at)
    SELECT (SELECT box_office_id FROM orders WHERE id = NEW.order_id), (SELECT last_id FROM change_heads WHERE box_office_id = (SELECT box_office_id FROM orders WHERE id = NEW.order_id)),
           'ORDER.UPDATED', NEW.order_id, unixepoch() WHERE (SELECT box_office_id FROM orders WHERE id = NEW.order_id) IS NOT NULL;
  UPDATE orders SET updated_at = unixepoch()
    WHERE id IN (NEW.order_id) AND updated_at IS NOT unixepoch() AND true;
END`,
  },
  {
    name: 'trg_events_sync_update',
    before: `CREATE TRIGGER trg_events_sync_update AFTER UPDATE ON events
  WHEN (NEW.box_office_id IS NOT OLD.box_office_id OR NEW.name IS NOT OLD.name OR NEW.start_at IS NOT OLD.start_at OR NEW.end_at IS NOT OLD.end_at OR NEW.timezone IS NOT OLD.timezone OR NEW.status IS NOT OLD.status OR NEW.online_event IS NOT OLD.online_event OR NEW.private IS NOT OLD.private OR NEW.description IS NOT OLD.description OR NEW.access_code IS NOT OLD.access_code OR NEW.call_to_action IS NOT OLD.call_to_action OR NEW.url IS NOT OLD.url OR NEW.image_header_url IS NOT OLD.image_header_url OR NEW.image_thumbnail_url IS NOT OLD.image_thumbnail_url OR NEW.venue_name IS NOT OLD.venue_name OR NEW.venue_postal_code IS NOT OLD.venue_postal_code OR NEW.event_series_id IS NOT OLD.event_series_id OR NEW.currency IS NOT OLD.currency OR NEW.created_at IS NOT OLD.created_at) AND NOT EXISTS (SELECT 1 FROM sync_import) BEGIN
  INSERT INTO change_heads (box_office_id, last_id) SELECT NEW.box_office_id, 1 WHERE true
    ON CONFLICT (box_office_id) DO UPDATE SET last_id = last_id + 1;
  INSERT INTO changes (box_office_id, id, type, resource_id, created_at)
    SELECT NEW.box_office_id, (SELECT last_id FROM change_heads WHERE box_office_id = NEW.box_office_id),
           'EVENT.UPDATED', NEW.id, unixepoch() WHERE true;
  UPDATE orders SET updated_at = unixepoch()
   WHERE box_office_id = NEW.box_office_id AND event_id = NEW.id
     AND updated_at IS NOT unixepoch()
     AND (NEW.name IS NOT OLD.name OR NEW.start_at IS NOT OLD.start_at
          OR NEW.end_at IS NOT OLD.end_at OR NEW.timezone IS NOT OLD.timezone);
  UPDATE issued_tickets SET updated_at = unixepoch()
   WHERE event_id = NEW.id AND updated_at IS NOT unixepoch()
     AND NEW.event_series_id IS NOT OLD.event_series_id;
END`,
    after: `CREATE TRIGGER trg_events_sync_update AFTER UPDATE ON events
  WHEN (NEW.box_office_id IS NOT OLD.box_office_id OR NEW.name IS NOT OLD.name OR NEW.start_at IS NOT OLD.start_at OR NEW.end_at IS NOT OLD.end_at OR NEW.timezone IS NOT OLD.timezone OR NEW.status IS NOT OLD.status OR NEW.online_event IS NOT OLD.online_event OR NEW.private IS NOT OLD.private OR NEW.description IS NOT OLD.description OR NEW.access_code IS NOT OLD.access_code OR NEW.call_to_action IS NOT OLD.call_to_action OR NEW.url IS NOT OLD.url OR NEW.image_header_url IS NOT OLD.image_header_url OR NEW.image_thumbnail_url IS NOT OLD.image_thumbnail_url OR NEW.venue_name IS NOT OLD.venue_name OR NEW.venue_postal_code IS NOT OLD.venue_postal_code OR NEW.event_series_id IS NOT OLD.event_series_id OR NEW.currency IS NOT OLD.currency OR NEW.created_at IS NOT OLD.created_at) AND NOT EXISTS (SELECT 1 FROM sync_import) BEGIN
  INSERT INTO change_heads (box_office_id, last_id) SELECT NEW.box_office_id, 1 WHERE true
    ON CONFLICT (box_office_id) DO UPDATE SET last_id = last_id + 1;
  INSERT INTO changes (box_office_id, id, type, resource_id, created_at)
    SELECT NEW.box_office_id, (SELECT last_id FROM change_heads WHERE box_office_id = NEW.box_office_id),
           'EVENT.UPDATED', NEW.id, unixepoch() WHERE true;
  UPDATE orders SET updated_at = unixepoch()
   WHERE box_office_id = NEW.box_office_id AND event_id = NEW.id
     AND updated_at IS NOT unixepoch()
     AND (NEW.name IS NOT OLD.name OR NEW.start_at IS NOT OLD.start_at
          OR NEW.end_at IS NOT OLD.end_at OR NEW.timezone IS NOT OLD.timezone
          OR NEW.venue_name IS NOT OLD.venue_name OR NEW.venue_postal_code IS NOT OLD.venue_postal_code
          OR NEW.event_series_id IS NOT OLD.event_series_id);
  UPDATE issued_tickets SET updated_at = unixepoch()
   WHERE event_id = NEW.id AND updated_at IS NOT unixepoch()
     AND NEW.event_series_id IS NOT OLD.event_series_id;
END`,
  },
];

const pgEventsSyncAfter = (body: string) =>
  `CREATE OR REPLACE FUNCTION events_sync_after() RETURNS trigger LANGUAGE plpgsql AS $$${body}$$`;

const PG_EVENTS_SYNC_AFTER_BEFORE = `
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
        -- Its name, dates and zone are in its orders' event_summary; its series in its tickets.
        stamp := sync_stamp(NEW.box_office_id);
        clock := floor(extract(epoch FROM clock_timestamp()))::bigint;
        IF NEW.name IS DISTINCT FROM OLD.name OR NEW.start_at IS DISTINCT FROM OLD.start_at
           OR NEW.end_at IS DISTINCT FROM OLD.end_at OR NEW.timezone IS DISTINCT FROM OLD.timezone THEN
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
  END `;

const PG_EVENTS_SYNC_AFTER = `
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
  END `;

export class ConnectorColumnsInSync1766190000000 implements MigrationInterface {
  name = 'ConnectorColumnsInSync1766190000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    if (isPostgres(queryRunner)) {
      await queryRunner.query(pgEventsSyncAfter(PG_EVENTS_SYNC_AFTER));
      return;
    }
    for (const { name, after } of SQLITE_TRIGGERS) {
      await queryRunner.query(`DROP TRIGGER ${name}`);
      await queryRunner.query(after);
    }
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    if (isPostgres(queryRunner)) {
      await queryRunner.query(pgEventsSyncAfter(PG_EVENTS_SYNC_AFTER_BEFORE));
      return;
    }
    for (const { name, before } of SQLITE_TRIGGERS) {
      await queryRunner.query(`DROP TRIGGER ${name}`);
      await queryRunner.query(before);
    }
  }
}
