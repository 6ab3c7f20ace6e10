import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The columns migration LineItemSubjects added to what orders show are changes of the order
 * (docs/API.md, "Who keeps updated_at" and "Change entries"): a buyer's first or last name, and
 * what a line item names (its ticket type, product, voucher code or discount) move the order's
 * `updated_at` and write `ORDER.UPDATED`, whoever writes; and an event's venue and series, which
 * its orders' `event_summary` now shows, move those orders' `updated_at` as its name and dates do.
 *
 * Migration SyncAndChanges wrote the sync triggers with each table's own columns as the schema
 * had them then; this one writes the triggers that list them again, with the new columns, as
 * SyncAndChanges' text has them (and down() puts that text back as it was). On SQLite the
 * triggers are dropped and created again; on PostgreSQL their functions are replaced.
 */
const isPostgres = (queryRunner: QueryRunner) =>
  queryRunner.connection.options.type === 'postgres';

/** The columns of orders whose change is a change of the order, as SyncAndChanges listed them. */
const ORDER_OWN = [
  'box_office_id',
  'event_id',
  'status',
  'status_message',
  'currency',
  'subtotal',
  'tax',
  'total',
  'refund_amount',
  'txn_id',
  'created_at',
  'buyer_name',
  'buyer_email',
  'buyer_email_lookup',
  'buyer_phone',
  'address_1',
  'address_2',
  'address_3',
  'postal_code',
  'buyer_custom_questions',
  'payment_method_type',
  'payment_method_id',
  'payment_method_external_id',
  'payment_method_name',
  'payment_method_instructions',
];
const ORDER_ADDED = ['buyer_first_name', 'buyer_last_name'];

/** A line item's columns whose change is a change of its order. */
const LINE_ITEM_OWN = [
  'order_id',
  'type',
  'description',
  'quantity',
  'value',
  'booking_fee',
  'total',
];
const LINE_ITEM_ADDED = [
  'ticket_type_id',
  'product_id',
  'voucher_code_id',
  'discount_id',
];

/** An event's own columns (its EVENT.UPDATED), unchanged by this migration. */
const EVENT_OWN = [
  'box_office_id',
  'name',
  'start_at',
  'end_at',
  'timezone',
  'status',
  'online_event',
  'private',
  'description',
  'access_code',
  'call_to_action',
  'url',
  'image_header_url',
  'image_thumbnail_url',
  'venue_name',
  'venue_postal_code',
  'event_series_id',
  'currency',
  'created_at',
];
/**
 * What the triggers are written from: the columns before this migration, or with its own. The
 * event's columns its orders' event_summary shows are given as each database's condition, the
 * earlier one as SyncAndChanges wrote it.
 */
interface Columns {
  order: string[];
  lineItem: string[];
  sqliteSummary: string;
  postgresSummary: string;
}
const BEFORE: Columns = {
  order: ORDER_OWN,
  lineItem: LINE_ITEM_OWN,
  sqliteSummary: `(NEW.name IS NOT OLD.name OR NEW.start_at IS NOT OLD.start_at
                  OR NEW.end_at IS NOT OLD.end_at OR NEW.timezone IS NOT OLD.timezone)`,
  postgresSummary: `NEW.name IS DISTINCT FROM OLD.name OR NEW.start_at IS DISTINCT FROM OLD.start_at
     OR NEW.end_at IS DISTINCT FROM OLD.end_at OR NEW.timezone IS DISTINCT FROM OLD.timezone`,
};
const AFTER: Columns = {
  order: [...ORDER_OWN, ...ORDER_ADDED],
  lineItem: [...LINE_ITEM_OWN, ...LINE_ITEM_ADDED],
  sqliteSummary: `(NEW.name IS NOT OLD.name OR NEW.start_at IS NOT OLD.start_at
                  OR NEW.end_at IS NOT OLD.end_at OR NEW.timezone IS NOT OLD.timezone
                  OR NEW.venue_name IS NOT OLD.venue_name
                  OR NEW.venue_postal_code IS NOT OLD.venue_postal_code
                  OR NEW.event_series_id IS NOT OLD.event_series_id)`,
  postgresSummary: `NEW.name IS DISTINCT FROM OLD.name OR NEW.start_at IS DISTINCT FROM OLD.start_at
     OR NEW.end_at IS DISTINCT FROM OLD.end_at OR NEW.timezone IS DISTINCT FROM OLD.timezone
     OR NEW.venue_name IS DISTINCT FROM OLD.venue_name
     OR NEW.venue_postal_code IS DISTINCT FROM OLD.venue_postal_code
     OR NEW.event_series_id IS DISTINCT FROM OLD.event_series_id`,
};

const changed = (columns: string[], distinct: string) =>
  columns.length === 0
    ? 'false'
    : `(${columns.map((c) => `NEW.${c} ${distinct} OLD.${c}`).join(' OR ')})`;

// ---------------------------------------------------------------------------------------------
// SQLite: as migration SyncAndChanges writes them.
// ---------------------------------------------------------------------------------------------

const SQLITE_STAMP = 'unixepoch()';
const SQLITE_WRITING = 'NOT EXISTS (SELECT 1 FROM sync_import)';

function sqliteRecord(
  office: string,
  type: string,
  resource: string,
  guard = 'true',
): string {
  return `INSERT INTO change_heads (box_office_id, last_id) SELECT ${office}, 1 WHERE ${guard}
            ON CONFLICT (box_office_id) DO UPDATE SET last_id = last_id + 1;
          INSERT INTO changes (box_office_id, id, type, resource_id, created_at)
            SELECT ${office}, (SELECT last_id FROM change_heads WHERE box_office_id = ${office}),
                   '${type}', ${resource}, ${SQLITE_STAMP} WHERE ${guard};`;
}

const sqliteStampOrder = (id: string) =>
  `UPDATE orders SET updated_at = ${SQLITE_STAMP} WHERE id = ${id} AND updated_at < ${SQLITE_STAMP};`;

/** A line item's change: its order's ORDER.UPDATED (unless being created), and its stamp. */
function sqliteLineItemChange(id: string): string {
  const office = `(SELECT box_office_id FROM orders WHERE id = ${id})`;
  const guard = `${office} IS NOT NULL AND NOT EXISTS (SELECT 1 FROM changes c
        WHERE c.box_office_id = ${office} AND c.resource_id = ${id}
          AND c.type = 'ORDER.CREATED' AND c.created_at = ${SQLITE_STAMP})`;
  return `${sqliteRecord(office, 'ORDER.UPDATED', id, guard)}
            ${sqliteStampOrder(id)}`;
}

/** The triggers this migration rewrites, by name, written from `columns`. */
function sqliteTriggers(columns: Columns): [name: string, sql: string][] {
  const orderOwn = changed(columns.order, 'IS NOT');
  return [
    [
      'trg_orders_sync_update',
      `CREATE TRIGGER trg_orders_sync_update AFTER UPDATE ON orders
       WHEN ${orderOwn} AND ${SQLITE_WRITING} BEGIN
       UPDATE orders
          SET updated_at = max(NEW.updated_at, OLD.updated_at, NEW.created_at, ${SQLITE_STAMP})
        WHERE id = NEW.id;
       ${sqliteRecord('NEW.box_office_id', 'ORDER.UPDATED', 'NEW.id')}
       UPDATE issued_tickets SET updated_at = ${SQLITE_STAMP}
        WHERE order_id = NEW.id AND NEW.buyer_email IS NOT OLD.buyer_email
          AND updated_at < ${SQLITE_STAMP};
     END`,
    ],
    [
      'trg_orders_sync_stamp',
      `CREATE TRIGGER trg_orders_sync_stamp AFTER UPDATE OF updated_at ON orders
       WHEN NOT ${orderOwn} AND ${SQLITE_WRITING}
        AND NEW.updated_at < max(OLD.updated_at, ${SQLITE_STAMP}) BEGIN
       UPDATE orders SET updated_at = max(OLD.updated_at, ${SQLITE_STAMP}) WHERE id = NEW.id;
     END`,
    ],
    [
      'trg_line_items_sync_update',
      `CREATE TRIGGER trg_line_items_sync_update AFTER UPDATE ON line_items
         WHEN ${changed(columns.lineItem, 'IS NOT')} AND ${SQLITE_WRITING} BEGIN
         ${sqliteLineItemChange('NEW.order_id')}
       END`,
    ],
    [
      'trg_events_sync_update',
      `CREATE TRIGGER trg_events_sync_update AFTER UPDATE ON events
         WHEN ${changed(EVENT_OWN, 'IS NOT')} AND ${SQLITE_WRITING} BEGIN
         ${sqliteRecord('NEW.box_office_id', 'EVENT.UPDATED', 'NEW.id')}
         ${sqliteEventBumps(columns.sqliteSummary)}
       END`,
    ],
  ];
}

/** An event's summary columns are in its orders' event_summary; its series in its tickets. */
function sqliteEventBumps(summary: string): string {
  return `UPDATE orders SET updated_at = ${SQLITE_STAMP}
           WHERE box_office_id = NEW.box_office_id AND event_id = NEW.id
             AND updated_at < ${SQLITE_STAMP}
             AND ${summary};
          UPDATE issued_tickets SET updated_at = ${SQLITE_STAMP}
           WHERE event_id = NEW.id AND updated_at < ${SQLITE_STAMP}
             AND NEW.event_series_id IS NOT OLD.event_series_id;`;
}

// ---------------------------------------------------------------------------------------------
// PostgreSQL: the functions the triggers call, replaced.
// ---------------------------------------------------------------------------------------------

const plpgsql = (name: string, body: string, declare = '') =>
  `CREATE OR REPLACE FUNCTION ${name}() RETURNS trigger LANGUAGE plpgsql AS $$
   ${declare ? `DECLARE ${declare}` : ''}
   BEGIN ${body} END $$`;
const pgStampOrder = (id: string) =>
  `UPDATE orders SET updated_at = sync_stamp() WHERE id = ${id} AND updated_at < sync_stamp();`;

const pgStampBefore = (changedCondition: string, also = '') =>
  `IF sync_importing() THEN RETURN NEW; END IF;
   IF TG_OP = 'INSERT' THEN
     NEW.updated_at := greatest(NEW.updated_at, NEW.created_at, ${also} sync_stamp());
   ELSIF ${changedCondition} OR NEW.updated_at IS DISTINCT FROM OLD.updated_at THEN
     NEW.updated_at := greatest(NEW.updated_at, OLD.updated_at, NEW.created_at, ${also}
                                sync_stamp());
   END IF;
   RETURN NEW;`;

function postgresFunctions(columns: Columns): string[] {
  const orderOwn = changed(columns.order, 'IS DISTINCT FROM');
  return [
    plpgsql('orders_sync_before', pgStampBefore(orderOwn)),
    plpgsql(
      'orders_sync_after',
      `IF sync_importing() THEN RETURN NULL; END IF;
       IF TG_OP = 'INSERT' THEN
         PERFORM record_change(NEW.box_office_id, 'ORDER.CREATED', NEW.id);
       ELSIF TG_OP = 'UPDATE' THEN
         IF ${orderOwn} THEN
           PERFORM record_change(NEW.box_office_id, 'ORDER.UPDATED', NEW.id);
         END IF;
         IF NEW.buyer_email IS DISTINCT FROM OLD.buyer_email THEN
           UPDATE issued_tickets SET updated_at = sync_stamp()
            WHERE order_id = NEW.id AND updated_at < sync_stamp();
         END IF;
       ELSE
         PERFORM record_change(OLD.box_office_id, 'ORDER.DELETED', OLD.id);
       END IF;
       RETURN NULL;`,
    ),
    plpgsql(
      'line_items_sync_after',
      `IF sync_importing() THEN RETURN NULL; END IF;
         IF TG_OP = 'UPDATE' THEN
           IF NOT ${changed(columns.lineItem, 'IS DISTINCT FROM')} THEN RETURN NULL; END IF;
         END IF;
         IF TG_OP = 'DELETE' THEN item := OLD.order_id; ELSE item := NEW.order_id; END IF;
         SELECT p.box_office_id INTO office FROM orders p WHERE p.id = item;
         IF office IS NULL THEN RETURN NULL; END IF;
         IF NOT EXISTS (SELECT 1 FROM changes c WHERE c.box_office_id = office
                          AND c.resource_id = item AND c.type = 'ORDER.CREATED'
                          AND c.created_at = sync_stamp()) THEN
           PERFORM record_change(office, 'ORDER.UPDATED', item);
         END IF;
         ${pgStampOrder('item')}
         RETURN NULL;`,
      'item integer; office integer;',
    ),
    plpgsql(
      'events_sync_after',
      `IF sync_importing() THEN RETURN NULL; END IF;
         IF TG_OP = 'INSERT' THEN
           PERFORM record_change(NEW.box_office_id, 'EVENT.CREATED', NEW.id);
         ELSIF TG_OP = 'UPDATE' THEN
           IF ${changed(EVENT_OWN, 'IS DISTINCT FROM')} THEN
             PERFORM record_change(NEW.box_office_id, 'EVENT.UPDATED', NEW.id);
             ${postgresEventBumps(columns.postgresSummary)}
           END IF;
         ELSE
           PERFORM record_change(OLD.box_office_id, 'EVENT.DELETED', OLD.id);
         END IF;
         RETURN NULL;`,
    ),
  ];
}

/** An event's summary columns are in its orders' event_summary; its series in its tickets. */
function postgresEventBumps(summary: string): string {
  return `
  IF ${summary} THEN
    UPDATE orders SET updated_at = sync_stamp()
     WHERE box_office_id = NEW.box_office_id AND event_id = NEW.id AND updated_at < sync_stamp();
  END IF;
  IF NEW.event_series_id IS DISTINCT FROM OLD.event_series_id THEN
    UPDATE issued_tickets SET updated_at = sync_stamp()
     WHERE event_id = NEW.id AND updated_at < sync_stamp();
  END IF;`;
}

async function rewrite(queryRunner: QueryRunner, columns: Columns) {
  if (isPostgres(queryRunner)) {
    for (const statement of postgresFunctions(columns)) {
      await queryRunner.query(statement);
    }
    return;
  }
  for (const [name, sql] of sqliteTriggers(columns)) {
    await queryRunner.query(`DROP TRIGGER ${name}`);
    await queryRunner.query(sql);
  }
}

export class ConnectorColumnsInSync1766190000000 implements MigrationInterface {
  name = 'ConnectorColumnsInSync1766190000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await rewrite(queryRunner, AFTER);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await rewrite(queryRunner, BEFORE);
  }
}
