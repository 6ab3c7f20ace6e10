import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The sync triggers of migration SyncAndChanges, rewritten for three rules (docs/API.md,
 * "Incremental sync" and "Change feed"):
 *
 * 1. **The horizon is per box office** (PostgreSQL). A transaction takes one stamp per box office
 *    it writes, `sync_stamp(office)`, when it first stamps something of that box office, after
 *    announcing its lower bound in a shared advisory lock whose first key carries the box office
 *    (`20251125 + office`, the bound second). The horizon of a box office reads only its own
 *    announcements (src/sync/sync-horizon.ts), so another tenant's open transaction neither holds
 *    it back nor shows in it. One stamp per transaction could not stay correct: a transaction that
 *    first writes a second box office later would stamp it with a time that box office's horizon,
 *    which did not wait for it, may already have passed.
 * 2. **No stored time is ahead of the clock** (both databases). Outside import mode, a created_at,
 *    updated_at, voided_at or check_in_at that a writer put, or finds, later than the database
 *    clock is brought back to the clock when the row is written (on SQLite the clock is the
 *    stamp); so a change made now is stamped now, even on a row written ahead, and an order comes
 *    back with its tickets (never older than they are).
 * 3. **Every change of a part is an entry**, even in its parent's creation second. A part (a line
 *    item; a ticket type, group or payment method of an event or series template) written by the
 *    transaction that created its parent is part of the creation on PostgreSQL (the CREATED entry
 *    is a row of this transaction: its xmin); one written by any later transaction is an UPDATED
 *    entry. SQLite has no way to tell one transaction from the next inside a trigger, so there
 *    every part write outside import mode is an entry of its parent (the creating transaction's
 *    included: never an entry missing, sometimes one more).
 *
 * Recreating these triggers in a later migration (DEVELOPMENT.md, "Sync triggers"): the
 * PostgreSQL functions compare whole rows (`NEW IS DISTINCT FROM OLD`, the derived counters named
 * and set aside), so a new column of a table is a change of it with no function recreated; only a
 * new derived counter needs its table's function recreated. SQLite's triggers name the columns
 * that count: a new column of a tracked table or part needs `trg_<table>_sync_update` recreated
 * with it, and for orders and issued tickets `trg_<table>_sync_ahead` too (the lists below are
 * this migration's, written out).
 *
 * SQLite cannot assign NEW, so the triggers correct a row (its stamp, a time ahead of the clock)
 * with an UPDATE of it; while a trigger corrects a row it names it in `sync_correcting`, so that
 * the correction makes no entry of its own (as on PostgreSQL, where a BEFORE trigger corrects NEW).
 * down() restores migration SyncAndChanges' functions and triggers, text for text.
 */
const isPostgres = (queryRunner: QueryRunner) =>
  queryRunner.connection.options.type === 'postgres';

// ---------------------------------------------------------------------------------------------
// The columns SQLite's triggers compare, as the schema had them when this ran (the own columns of
// migration SyncAndChanges: every column but the id, the resource's own time and the counters
// derived from other rows).
// ---------------------------------------------------------------------------------------------

const ORDER_COLUMNS = [
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
const TICKET_COLUMNS = [
  'order_id',
  'event_id',
  'status',
  'barcode',
  'barcode_url',
  'qr_code_url',
  'description',
  'first_name',
  'last_name',
  'full_name',
  'reservation',
  'custom_questions',
  'created_at',
  'voided_at',
  'box_office_id',
  'ticket_type_id',
];
const EVENT_COLUMNS = [
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
/** Event series: PostgreSQL compared them before this migration (SQLite's trigger is kept). */
const SERIES_COLUMNS = [
  'box_office_id',
  'name',
  'description',
  'status',
  'created_at',
  'currency',
  'timezone',
  'venue_name',
  'venue_postal_code',
  'url',
  'image_header_url',
  'image_thumbnail_url',
  'online_event',
  'private',
  'access_code',
  'call_to_action',
  'max_tickets_sold_per_occurrence',
];
const PAYMENT_METHOD_COLUMNS = [
  'type',
  'payment_method_id',
  'external_id',
  'name',
  'instructions',
];
const GROUP_COLUMNS = ['name', 'max_per_order', 'sort_order'];

/** A table whose rows are part of another resource's JSON: a change of one is one of its parent. */
interface Part {
  table: string;
  parent: 'orders' | 'events' | 'event_series';
  link: string;
  kind: 'ORDER' | 'EVENT' | 'EVENT_SERIES';
  /** The columns whose change is a change of the parent (SQLite's lists). */
  own: string[];
  /** Counters of sales kept in the row: never a change (PostgreSQL sets them aside). */
  derived: string[];
}

const PARTS: Part[] = [
  {
    table: 'line_items',
    parent: 'orders',
    link: 'order_id',
    kind: 'ORDER',
    own: [
      'order_id',
      'type',
      'description',
      'quantity',
      'value',
      'booking_fee',
      'total',
    ],
    derived: [],
  },
  {
    table: 'ticket_types',
    parent: 'events',
    link: 'event_id',
    kind: 'EVENT',
    own: [
      'event_id',
      'group_id',
      'name',
      'description',
      'price',
      'booking_fee',
      'min_per_order',
      'max_per_order',
      'status',
      'type',
      'sort_order',
      'access_code',
      'quantity_total',
    ],
    derived: ['quantity_issued', 'quantity_held', 'quantity_in_baskets'],
  },
  {
    table: 'ticket_groups',
    parent: 'events',
    link: 'event_id',
    kind: 'EVENT',
    own: ['event_id', ...GROUP_COLUMNS],
    derived: [],
  },
  {
    table: 'event_payment_methods',
    parent: 'events',
    link: 'event_id',
    kind: 'EVENT',
    own: ['event_id', ...PAYMENT_METHOD_COLUMNS],
    derived: [],
  },
  {
    table: 'event_series_ticket_types',
    parent: 'event_series',
    link: 'event_series_id',
    kind: 'EVENT_SERIES',
    own: [
      'event_series_id',
      'group_id',
      'name',
      'description',
      'price',
      'booking_fee',
      'min_per_order',
      'max_per_order',
      'quantity_total',
      'status',
      'type',
      'sort_order',
      'access_code',
    ],
    derived: [],
  },
  {
    table: 'event_series_ticket_groups',
    parent: 'event_series',
    link: 'event_series_id',
    kind: 'EVENT_SERIES',
    own: ['event_series_id', ...GROUP_COLUMNS],
    derived: [],
  },
  {
    table: 'event_series_payment_methods',
    parent: 'event_series',
    link: 'event_series_id',
    kind: 'EVENT_SERIES',
    own: ['event_series_id', ...PAYMENT_METHOD_COLUMNS],
    derived: [],
  },
];

/** The name in `CREATE TRIGGER <name> …`. */
const triggerName = (sql: string) => /^CREATE TRIGGER (\w+)/.exec(sql)![1];

const changed = (columns: string[], distinct: string) =>
  `(${columns.map((c) => `NEW.${c} ${distinct} OLD.${c}`).join(' OR ')})`;

// ---------------------------------------------------------------------------------------------
// PostgreSQL, as this migration leaves it.
// ---------------------------------------------------------------------------------------------

/** The database clock, in whole seconds (plpgsql). */
const PG_CLOCK = 'floor(extract(epoch FROM clock_timestamp()))::bigint';

const PG_SYNC_STAMP = `CREATE FUNCTION sync_stamp(office integer) RETURNS bigint
  LANGUAGE plpgsql AS $$
  -- The transaction's stamp for the box office, taken once: first a lower bound of it is
  -- announced in a shared advisory lock (20251125 + office, bound) held until the transaction
  -- ends. The box office's horizon stays below every bound announced for it, and a stamp taken
  -- after its announcement is above any of its horizons read before it. The stamps taken so far
  -- are kept in the transaction-local setting boxoffice.sync_stamps as |office:stamp|office:stamp.
  DECLARE
    kept text := coalesce(current_setting('boxoffice.sync_stamps', true), '');
    entry text := '|' || office || ':';
    pos integer := position(entry IN kept);
    class bigint := 20251125 + office;
    announced bigint;
    stamp bigint;
  BEGIN
    IF pos > 0 THEN
      RETURN split_part(substr(kept, pos + length(entry)), '|', 1)::bigint;
    END IF;
    IF office IS NULL THEN
      RAISE EXCEPTION 'sync_stamp needs a box office';
    END IF;
    announced := ${PG_CLOCK};
    PERFORM pg_advisory_xact_lock_shared(
      (class - CASE WHEN class >= 2147483648 THEN 4294967296 ELSE 0 END)::integer,
      (announced - CASE WHEN announced >= 2147483648 THEN 4294967296 ELSE 0 END)::integer);
    stamp := greatest(announced, ${PG_CLOCK});
    PERFORM set_config('boxoffice.sync_stamps', kept || entry || stamp, true);
    RETURN stamp;
  END $$`;

// The box office's counter row stays locked by the writing transaction until it ends, so a later
// id is handed out only after the earlier one committed (or rolled back, giving it back).
const PG_RECORD_CHANGE = `CREATE OR REPLACE FUNCTION record_change(office integer, kind text, resource integer)
  RETURNS void LANGUAGE sql AS $$
    WITH head AS (
      INSERT INTO change_heads AS h (box_office_id, last_id) VALUES (office, 1)
      ON CONFLICT (box_office_id) DO UPDATE SET last_id = h.last_id + 1
      RETURNING h.last_id)
    INSERT INTO changes (box_office_id, id, type, resource_id, created_at)
    SELECT office, last_id, kind, resource, sync_stamp(office) FROM head $$`;

/**
 * The stamp of an order or ticket written, or rewritten, outside import mode: never backwards,
 * never before the row's own times, and none of them ahead of the clock (`voided`: a ticket's
 * voided_at too).
 */
const pgStampBefore = (voided: boolean) => `
  DECLARE
    stamp bigint;
    clock bigint;
  BEGIN
    IF sync_importing() THEN RETURN NEW; END IF;
    IF TG_OP = 'UPDATE' AND NEW IS NOT DISTINCT FROM OLD THEN RETURN NEW; END IF;
    stamp := sync_stamp(NEW.box_office_id);
    clock := ${PG_CLOCK};
    IF NEW.created_at > clock THEN NEW.created_at := clock; END IF;${
      voided
        ? `
    IF NEW.voided_at > clock THEN NEW.voided_at := clock; END IF;`
        : ''
    }
    NEW.updated_at := greatest(stamp, NEW.created_at,${voided ? ' NEW.voided_at,' : ''} least(NEW.updated_at, clock));
    IF TG_OP = 'UPDATE' THEN
      NEW.updated_at := greatest(NEW.updated_at, least(OLD.updated_at, clock));
    END IF;
    RETURN NEW;
  END`;

const pgFunction = (name: string, body: string) =>
  `CREATE OR REPLACE FUNCTION ${name}() RETURNS trigger LANGUAGE plpgsql AS $$${body} $$`;

/** The parent's entry and, for an order, its stamp; none while the parent is being created. */
function pgPartAfter({ table, parent, link, kind, derived }: Part): string {
  const unchanged =
    derived.length === 0
      ? 'NEW IS NOT DISTINCT FROM OLD'
      : 'shown IS NOT DISTINCT FROM OLD';
  return pgFunction(
    `${table}_sync_after`,
    `
  DECLARE${derived.length === 0 ? '' : `\n    shown ${table};`}
    item integer;
    office integer;
    stamp bigint;
  BEGIN
    IF sync_importing() THEN RETURN NULL; END IF;
    IF TG_OP = 'UPDATE' THEN${derived.length === 0 ? '' : `\n      shown := NEW;${derived.map((c) => `\n      shown.${c} := OLD.${c};`).join('')}`}
      IF ${unchanged} THEN RETURN NULL; END IF;
    END IF;
    IF TG_OP = 'DELETE' THEN item := OLD.${link}; ELSE item := NEW.${link}; END IF;
    SELECT p.box_office_id INTO office FROM ${parent} p WHERE p.id = item;
    IF office IS NULL THEN RETURN NULL; END IF;
    stamp := sync_stamp(office);
    -- Written by the transaction that created the parent (whose CREATED entry is a row of this
    -- transaction): part of the creation.
    IF NOT EXISTS (SELECT 1 FROM changes c WHERE c.box_office_id = office
                     AND c.resource_id = item AND c.type = '${kind}.CREATED'
                     AND c.created_at = stamp AND c.xmin = pg_current_xact_id()::xid) THEN
      PERFORM record_change(office, '${kind}.UPDATED', item);
    END IF;${
      parent === 'orders'
        ? `
    UPDATE orders SET updated_at = stamp
     WHERE id = item AND (updated_at < stamp OR updated_at > ${PG_CLOCK});`
        : ''
    }
    RETURN NULL;
  END`,
  );
}

const PG_FUNCTIONS: string[] = [
  PG_RECORD_CHANGE,
  pgFunction('orders_sync_before', pgStampBefore(false)),
  pgFunction(
    'orders_sync_after',
    `
  DECLARE
    shown orders;
  BEGIN
    IF sync_importing() THEN RETURN NULL; END IF;
    IF TG_OP = 'INSERT' THEN
      PERFORM record_change(NEW.box_office_id, 'ORDER.CREATED', NEW.id);
    ELSIF TG_OP = 'UPDATE' THEN
      -- A change of anything but its own time is a change of the order.
      shown := NEW;
      shown.updated_at := OLD.updated_at;
      IF shown IS DISTINCT FROM OLD THEN
        PERFORM record_change(NEW.box_office_id, 'ORDER.UPDATED', NEW.id);
      END IF;
      -- Its tickets show the buyer's e-mail; and none is later than the order (one that was ahead
      -- of the clock comes back with it).
      IF NEW.buyer_email IS DISTINCT FROM OLD.buyer_email OR NEW.updated_at < OLD.updated_at THEN
        UPDATE issued_tickets SET updated_at = NEW.updated_at
         WHERE order_id = NEW.id AND updated_at <> NEW.updated_at
           AND (updated_at > NEW.updated_at OR NEW.buyer_email IS DISTINCT FROM OLD.buyer_email);
      END IF;
    ELSE
      PERFORM record_change(OLD.box_office_id, 'ORDER.DELETED', OLD.id);
    END IF;
    RETURN NULL;
  END`,
  ),
  pgFunction('issued_tickets_sync_before', pgStampBefore(true)),
  pgFunction(
    'issued_tickets_sync_after',
    `
  DECLARE
    shown issued_tickets;
    importing boolean := sync_importing();
    clock bigint := ${PG_CLOCK};
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
  END`,
  ),
  ...PARTS.map(pgPartAfter),
  pgFunction(
    'events_sync_after',
    `
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
        clock := ${PG_CLOCK};
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
  END`,
  ),
  pgFunction(
    'event_series_sync_after',
    `
  BEGIN
    IF sync_importing() THEN RETURN NULL; END IF;
    IF TG_OP = 'INSERT' THEN
      PERFORM record_change(NEW.box_office_id, 'EVENT_SERIES.CREATED', NEW.id);
    ELSIF TG_OP = 'UPDATE' THEN
      IF NEW IS DISTINCT FROM OLD THEN
        PERFORM record_change(NEW.box_office_id, 'EVENT_SERIES.UPDATED', NEW.id);
      END IF;
    ELSE
      PERFORM record_change(OLD.box_office_id, 'EVENT_SERIES.DELETED', OLD.id);
    END IF;
    RETURN NULL;
  END`,
  ),
  // A check-in is recorded at its stamp (and scanned no later than the clock).
  pgFunction(
    'check_ins_sync_before',
    `
  DECLARE
    clock bigint;
  BEGIN
    IF NOT sync_importing() THEN
      clock := ${PG_CLOCK};
      IF NEW.check_in_at > clock THEN NEW.check_in_at := clock; END IF;
      NEW.created_at := greatest(least(NEW.created_at, clock), sync_stamp(NEW.box_office_id));
    END IF;
    RETURN NEW;
  END`,
  ),
  pgFunction(
    'check_ins_sync_after',
    `
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
  END`,
  ),
];

// ---------------------------------------------------------------------------------------------
// SQLite, as this migration leaves it. Row triggers only; stamping is an UPDATE of the row just
// written, and a trigger never fires while it is already running (recursive_triggers is off). The
// stamp is the clock of the writing statement, unixepoch().
//
// An order's or ticket's triggers: `_insert` (the stamp, the CREATED entry), `_update` (a change:
// the stamp, the UPDATED entry when one of its columns changed, what depends on it) and `_ahead`
// (a row found with its own created_at or voided_at ahead of the clock by a statement that
// changed none of its columns: brought back, and an UPDATED entry, since that changes what it
// shows). `_ahead` is a trigger of its own so that it fires for the tickets an order's `_update`
// brings back even while a ticket's `_update` is running (which stamped that order).
// ---------------------------------------------------------------------------------------------

const WRITING = 'NOT EXISTS (SELECT 1 FROM sync_import)';
const IMPORTING = 'EXISTS (SELECT 1 FROM sync_import)';
const uncorrected = (table: string) =>
  `NOT EXISTS (SELECT 1 FROM sync_correcting WHERE row_table = '${table}' AND row_id = NEW.id)`;

/** One entry for the resource, numbered from the box office's counter row, when `guard` holds. */
const entry = (
  office: string,
  type: string,
  resource: string,
  guard = 'true',
) =>
  `INSERT INTO change_heads (box_office_id, last_id) SELECT ${office}, 1 WHERE ${guard}
    ON CONFLICT (box_office_id) DO UPDATE SET last_id = last_id + 1;
  INSERT INTO changes (box_office_id, id, type, resource_id, created_at)
    SELECT ${office}, (SELECT last_id FROM change_heads WHERE box_office_id = ${office}),
           '${type}', ${resource}, unixepoch() WHERE ${guard};`;

/** Orders moved to the stamp (from below, or from ahead of the clock). */
const stampOrders = (ids: string, guard = 'true') =>
  `UPDATE orders SET updated_at = unixepoch()
    WHERE id IN (${ids}) AND updated_at IS NOT unixepoch() AND ${guard};`;

/** The triggers' own correction of NEW's row (`update`), which is no change of it: no entry. */
const corrected = (table: string, update: string, guard = 'true') =>
  `INSERT OR IGNORE INTO sync_correcting (row_table, row_id) SELECT '${table}', NEW.id WHERE ${guard};
  ${update}
  DELETE FROM sync_correcting WHERE row_table = '${table}' AND row_id = NEW.id AND ${guard};`;

const ORDER_CHANGED = changed(ORDER_COLUMNS, 'IS NOT');
const TICKET_CHANGED = changed(TICKET_COLUMNS, 'IS NOT');

/** The order's own times brought back to the clock, and the stamp. */
const ORDER_STAMP = `UPDATE orders SET created_at = min(created_at, unixepoch()), updated_at = unixepoch()`;
/** The ticket's own times brought back to the clock, and the stamp. */
const TICKET_STAMP = `UPDATE issued_tickets
     SET created_at = min(created_at, unixepoch()), voided_at = min(voided_at, unixepoch()),
         updated_at = unixepoch()`;

function sqlitePartTriggers({ table, parent, link, kind, own }: Part) {
  const change = (row: 'NEW' | 'OLD') => {
    const office = `(SELECT box_office_id FROM ${parent} WHERE id = ${row}.${link})`;
    return `${entry(office, `${kind}.UPDATED`, `${row}.${link}`, `${office} IS NOT NULL`)}${
      parent === 'orders' ? `\n  ${stampOrders(`${row}.${link}`)}` : ''
    }`;
  };
  return [
    `CREATE TRIGGER trg_${table}_sync_insert AFTER INSERT ON ${table}
  WHEN ${WRITING} BEGIN
  ${change('NEW')}
END`,
    `CREATE TRIGGER trg_${table}_sync_update AFTER UPDATE ON ${table}
  WHEN ${changed(own, 'IS NOT')} AND ${WRITING} BEGIN
  ${change('NEW')}
END`,
    `CREATE TRIGGER trg_${table}_sync_delete AFTER DELETE ON ${table}
  WHEN ${WRITING} BEGIN
  ${change('OLD')}
END`,
  ];
}

const SQLITE_TRIGGERS: string[] = [
  `CREATE TRIGGER trg_orders_sync_insert AFTER INSERT ON orders WHEN ${WRITING} BEGIN
  ${corrected('orders', `${ORDER_STAMP} WHERE id = NEW.id;`)}
  ${entry('NEW.box_office_id', 'ORDER.CREATED', 'NEW.id')}
END`,
  // Any change, or its time written (a bump, or a writer setting it): the stamp, and none of its
  // tickets later than it (those ahead of the clock come back with it).
  `CREATE TRIGGER trg_orders_sync_update AFTER UPDATE ON orders
  WHEN (${ORDER_CHANGED} OR NEW.updated_at IS NOT OLD.updated_at)
   AND ${WRITING} AND ${uncorrected('orders')} BEGIN
  ${ORDER_STAMP}
   WHERE id = NEW.id AND (updated_at IS NOT unixepoch() OR created_at > unixepoch());
  ${entry('NEW.box_office_id', 'ORDER.UPDATED', 'NEW.id', ORDER_CHANGED)}
  UPDATE issued_tickets SET updated_at = unixepoch()
   WHERE order_id = NEW.id AND updated_at IS NOT unixepoch()
     AND (updated_at > unixepoch() OR NEW.buyer_email IS NOT OLD.buyer_email);
END`,
  `CREATE TRIGGER trg_orders_sync_ahead AFTER UPDATE ON orders
  WHEN NEW.created_at > unixepoch() AND NOT ${ORDER_CHANGED} AND ${WRITING} BEGIN
  ${corrected('orders', `${ORDER_STAMP} WHERE id = NEW.id;`)}
  ${entry('NEW.box_office_id', 'ORDER.UPDATED', 'NEW.id')}
  UPDATE issued_tickets SET updated_at = unixepoch()
   WHERE order_id = NEW.id AND updated_at > unixepoch();
END`,
  // In import mode the order moves to the ticket's time as written.
  `CREATE TRIGGER trg_issued_tickets_sync_insert AFTER INSERT ON issued_tickets BEGIN
  ${corrected('issued_tickets', `${TICKET_STAMP} WHERE id = NEW.id AND ${WRITING};`, WRITING)}
  UPDATE orders SET updated_at = NEW.updated_at
   WHERE id = NEW.order_id AND updated_at < NEW.updated_at AND ${IMPORTING};
  ${stampOrders('NEW.order_id', WRITING)}
  ${entry('NEW.box_office_id', 'ISSUED_TICKET.CREATED', 'NEW.id', WRITING)}
END`,
  `CREATE TRIGGER trg_issued_tickets_sync_update AFTER UPDATE ON issued_tickets
  WHEN (${TICKET_CHANGED} OR NEW.checked_in IS NOT OLD.checked_in
        OR NEW.updated_at IS NOT OLD.updated_at)
   AND ${WRITING} AND ${uncorrected('issued_tickets')} BEGIN
  ${TICKET_STAMP}
   WHERE id = NEW.id
     AND (updated_at IS NOT unixepoch() OR created_at > unixepoch() OR voided_at > unixepoch());
  ${entry('NEW.box_office_id', 'ISSUED_TICKET.UPDATED', 'NEW.id', TICKET_CHANGED)}
  ${stampOrders('OLD.order_id, NEW.order_id')}
END`,
  `CREATE TRIGGER trg_issued_tickets_sync_ahead AFTER UPDATE ON issued_tickets
  WHEN (NEW.created_at > unixepoch() OR NEW.voided_at > unixepoch())
   AND NOT ${TICKET_CHANGED} AND ${WRITING} BEGIN
  ${corrected('issued_tickets', `${TICKET_STAMP} WHERE id = NEW.id;`)}
  ${entry('NEW.box_office_id', 'ISSUED_TICKET.UPDATED', 'NEW.id')}
  ${stampOrders('NEW.order_id')}
END`,
  `CREATE TRIGGER trg_issued_tickets_sync_delete AFTER DELETE ON issued_tickets
  WHEN ${WRITING} BEGIN
  ${entry('OLD.box_office_id', 'ISSUED_TICKET.DELETED', 'OLD.id')}
  ${stampOrders('OLD.order_id')}
END`,
  ...PARTS.flatMap(sqlitePartTriggers),
  `CREATE TRIGGER trg_events_sync_update AFTER UPDATE ON events
  WHEN ${changed(EVENT_COLUMNS, 'IS NOT')} AND ${WRITING} BEGIN
  ${entry('NEW.box_office_id', 'EVENT.UPDATED', 'NEW.id')}
  UPDATE orders SET updated_at = unixepoch()
   WHERE box_office_id = NEW.box_office_id AND event_id = NEW.id
     AND updated_at IS NOT unixepoch()
     AND (NEW.name IS NOT OLD.name OR NEW.start_at IS NOT OLD.start_at
          OR NEW.end_at IS NOT OLD.end_at OR NEW.timezone IS NOT OLD.timezone);
  UPDATE issued_tickets SET updated_at = unixepoch()
   WHERE event_id = NEW.id AND updated_at IS NOT unixepoch()
     AND NEW.event_series_id IS NOT OLD.event_series_id;
END`,
  // A check-in is recorded at its stamp, scanned no later than the clock, and moves its ticket
  // (and so its order).
  `CREATE TRIGGER trg_check_ins_sync_insert AFTER INSERT ON check_ins
  WHEN ${WRITING} BEGIN
  UPDATE check_ins SET check_in_at = min(check_in_at, unixepoch()), created_at = unixepoch()
   WHERE id = NEW.id;
  ${entry('NEW.box_office_id', 'CHECK_IN.CREATED', 'NEW.id')}
  UPDATE issued_tickets SET updated_at = unixepoch()
   WHERE id = NEW.issued_ticket_id AND updated_at IS NOT unixepoch();
END`,
  // In import mode a ticket is never older than its check-ins.
  `CREATE TRIGGER trg_check_ins_sync_bump AFTER INSERT ON check_ins WHEN ${IMPORTING} BEGIN
  UPDATE issued_tickets SET updated_at = NEW.created_at
   WHERE id = NEW.issued_ticket_id AND updated_at < NEW.created_at;
END`,
];

// ---------------------------------------------------------------------------------------------
// What migration SyncAndChanges left, restored by down(), as that migration wrote it (its text
// shaped as it was, character for character: the schema compares trigger and function text).
// ---------------------------------------------------------------------------------------------

const BEFORE_STAMP = 'unixepoch()';

function recordBefore(
  office: string,
  type: string,
  resource: string,
  guard = 'true',
): string {
  return `INSERT INTO change_heads (box_office_id, last_id) SELECT ${office}, 1 WHERE ${guard}
            ON CONFLICT (box_office_id) DO UPDATE SET last_id = last_id + 1;
          INSERT INTO changes (box_office_id, id, type, resource_id, created_at)
            SELECT ${office}, (SELECT last_id FROM change_heads WHERE box_office_id = ${office}),
                   '${type}', ${resource}, ${BEFORE_STAMP} WHERE ${guard};`;
}

const stampOrderBefore = (id: string) =>
  `UPDATE orders SET updated_at = ${BEFORE_STAMP} WHERE id = ${id} AND updated_at < ${BEFORE_STAMP};`;

const ORDER_OWN_BEFORE = changed(ORDER_COLUMNS, 'IS NOT');
const TICKET_OWN_BEFORE = changed(TICKET_COLUMNS, 'IS NOT');
const TICKET_CHANGED_BEFORE = `(${TICKET_OWN_BEFORE} OR NEW.checked_in IS NOT OLD.checked_in)`;

function partTriggersBefore({ table, parent, link, kind, own }: Part) {
  const partChange = (id: string) => {
    const office = `(SELECT box_office_id FROM ${parent} WHERE id = ${id})`;
    const guard = `${office} IS NOT NULL AND NOT EXISTS (SELECT 1 FROM changes c
        WHERE c.box_office_id = ${office} AND c.resource_id = ${id}
          AND c.type = '${kind}.CREATED' AND c.created_at = ${BEFORE_STAMP})`;
    return `${recordBefore(office, `${kind}.UPDATED`, id, guard)}
            ${parent === 'orders' ? stampOrderBefore(id) : ''}`;
  };
  return [
    `CREATE TRIGGER trg_${table}_sync_insert AFTER INSERT ON ${table}
         WHEN ${WRITING} BEGIN ${partChange(`NEW.${link}`)} END`,
    `CREATE TRIGGER trg_${table}_sync_update AFTER UPDATE ON ${table}
         WHEN ${changed(own, 'IS NOT')} AND ${WRITING} BEGIN
         ${partChange(`NEW.${link}`)}
       END`,
    `CREATE TRIGGER trg_${table}_sync_delete AFTER DELETE ON ${table}
         WHEN ${WRITING} BEGIN ${partChange(`OLD.${link}`)} END`,
  ];
}

const SQLITE_TRIGGERS_BEFORE: string[] = [
  `CREATE TRIGGER trg_orders_sync_insert AFTER INSERT ON orders WHEN ${WRITING} BEGIN
       UPDATE orders SET updated_at = max(NEW.updated_at, NEW.created_at, ${BEFORE_STAMP})
        WHERE id = NEW.id;
       ${recordBefore('NEW.box_office_id', 'ORDER.CREATED', 'NEW.id')}
     END`,
  `CREATE TRIGGER trg_orders_sync_update AFTER UPDATE ON orders
       WHEN ${ORDER_OWN_BEFORE} AND ${WRITING} BEGIN
       UPDATE orders
          SET updated_at = max(NEW.updated_at, OLD.updated_at, NEW.created_at, ${BEFORE_STAMP})
        WHERE id = NEW.id;
       ${recordBefore('NEW.box_office_id', 'ORDER.UPDATED', 'NEW.id')}
       UPDATE issued_tickets SET updated_at = ${BEFORE_STAMP}
        WHERE order_id = NEW.id AND NEW.buyer_email IS NOT OLD.buyer_email
          AND updated_at < ${BEFORE_STAMP};
     END`,
  `CREATE TRIGGER trg_orders_sync_stamp AFTER UPDATE OF updated_at ON orders
       WHEN NOT ${ORDER_OWN_BEFORE} AND ${WRITING}
        AND NEW.updated_at < max(OLD.updated_at, ${BEFORE_STAMP}) BEGIN
       UPDATE orders SET updated_at = max(OLD.updated_at, ${BEFORE_STAMP}) WHERE id = NEW.id;
     END`,
  `CREATE TRIGGER trg_issued_tickets_sync_insert AFTER INSERT ON issued_tickets BEGIN
       UPDATE issued_tickets
          SET updated_at = max(NEW.updated_at, NEW.created_at, coalesce(NEW.voided_at, 0), ${BEFORE_STAMP})
        WHERE id = NEW.id AND ${WRITING};
       UPDATE orders SET updated_at = NEW.updated_at
        WHERE id = NEW.order_id AND updated_at < NEW.updated_at;
       ${recordBefore('NEW.box_office_id', 'ISSUED_TICKET.CREATED', 'NEW.id', WRITING)}
     END`,
  `CREATE TRIGGER trg_issued_tickets_sync_update AFTER UPDATE ON issued_tickets
       WHEN ${TICKET_CHANGED_BEFORE} AND ${WRITING} BEGIN
       UPDATE issued_tickets
          SET updated_at = max(NEW.updated_at, OLD.updated_at, NEW.created_at,
                               coalesce(NEW.voided_at, 0), ${BEFORE_STAMP})
        WHERE id = NEW.id;
       ${recordBefore('NEW.box_office_id', 'ISSUED_TICKET.UPDATED', 'NEW.id', TICKET_OWN_BEFORE)}
       ${stampOrderBefore('OLD.order_id')}
     END`,
  `CREATE TRIGGER trg_issued_tickets_sync_stamp AFTER UPDATE OF updated_at ON issued_tickets
       WHEN NOT ${TICKET_CHANGED_BEFORE} AND ${WRITING}
        AND NEW.updated_at < max(OLD.updated_at, ${BEFORE_STAMP}) BEGIN
       UPDATE issued_tickets SET updated_at = max(OLD.updated_at, ${BEFORE_STAMP}) WHERE id = NEW.id;
     END`,
  `CREATE TRIGGER trg_issued_tickets_sync_delete AFTER DELETE ON issued_tickets
       WHEN ${WRITING} BEGIN
       ${recordBefore('OLD.box_office_id', 'ISSUED_TICKET.DELETED', 'OLD.id')}
       ${stampOrderBefore('OLD.order_id')}
     END`,
  ...PARTS.flatMap(partTriggersBefore),
  `CREATE TRIGGER trg_events_sync_update AFTER UPDATE ON events
         WHEN ${changed(EVENT_COLUMNS, 'IS NOT')} AND ${WRITING} BEGIN
         ${recordBefore('NEW.box_office_id', 'EVENT.UPDATED', 'NEW.id')}
         UPDATE orders SET updated_at = ${BEFORE_STAMP}
           WHERE box_office_id = NEW.box_office_id AND event_id = NEW.id
             AND updated_at < ${BEFORE_STAMP}
             AND (NEW.name IS NOT OLD.name OR NEW.start_at IS NOT OLD.start_at
                  OR NEW.end_at IS NOT OLD.end_at OR NEW.timezone IS NOT OLD.timezone);
          UPDATE issued_tickets SET updated_at = ${BEFORE_STAMP}
           WHERE event_id = NEW.id AND updated_at < ${BEFORE_STAMP}
             AND NEW.event_series_id IS NOT OLD.event_series_id;
       END`,
  `CREATE TRIGGER trg_check_ins_sync_insert AFTER INSERT ON check_ins
           WHEN ${WRITING} BEGIN
           UPDATE check_ins SET created_at = max(NEW.created_at, ${BEFORE_STAMP}) WHERE id = NEW.id;
           ${recordBefore('NEW.box_office_id', 'CHECK_IN.CREATED', 'NEW.id')}
           UPDATE issued_tickets SET updated_at = ${BEFORE_STAMP}
            WHERE id = NEW.issued_ticket_id AND updated_at < ${BEFORE_STAMP};
         END`,
  `CREATE TRIGGER trg_check_ins_sync_bump AFTER INSERT ON check_ins BEGIN
           UPDATE issued_tickets SET updated_at = NEW.created_at
            WHERE id = NEW.issued_ticket_id AND updated_at < NEW.created_at;
         END`,
];

/** The SQLite triggers up() drops: those it replaces, and the two it folds into others. */
const SQLITE_REPLACED = SQLITE_TRIGGERS_BEFORE.map(triggerName);

const PG_SYNC_STAMP_BEFORE = `CREATE FUNCTION sync_stamp() RETURNS bigint LANGUAGE plpgsql AS $$
     DECLARE
       kept text := current_setting('boxoffice.sync_stamp', true);
       announced bigint;
       stamp bigint;
     BEGIN
       IF kept IS NOT NULL AND kept <> '' THEN RETURN kept::bigint; END IF;
       announced := floor(extract(epoch FROM clock_timestamp()))::bigint;
       PERFORM pg_advisory_xact_lock_shared(20251125,
         (announced - CASE WHEN announced >= 2147483648 THEN 4294967296 ELSE 0 END)::integer);
       stamp := greatest(announced, floor(extract(epoch FROM clock_timestamp()))::bigint);
       PERFORM set_config('boxoffice.sync_stamp', stamp::text, true);
       RETURN stamp;
     END $$`;

const plpgsqlBefore = (name: string, body: string, declare = '') =>
  `CREATE OR REPLACE FUNCTION ${name}() RETURNS trigger LANGUAGE plpgsql AS $$
   ${declare ? `DECLARE ${declare}` : ''}
   BEGIN ${body} END $$`;
const pgStampOrderBefore = (id: string) =>
  `UPDATE orders SET updated_at = sync_stamp() WHERE id = ${id} AND updated_at < sync_stamp();`;
const pgStampBeforeBefore = (changedCondition: string, also = '') =>
  `IF sync_importing() THEN RETURN NEW; END IF;
   IF TG_OP = 'INSERT' THEN
     NEW.updated_at := greatest(NEW.updated_at, NEW.created_at, ${also} sync_stamp());
   ELSIF ${changedCondition} OR NEW.updated_at IS DISTINCT FROM OLD.updated_at THEN
     NEW.updated_at := greatest(NEW.updated_at, OLD.updated_at, NEW.created_at, ${also}
                                sync_stamp());
   END IF;
   RETURN NEW;`;

const PG_ORDER_OWN_BEFORE = changed(ORDER_COLUMNS, 'IS DISTINCT FROM');
const PG_TICKET_OWN_BEFORE = changed(TICKET_COLUMNS, 'IS DISTINCT FROM');

const PG_FUNCTIONS_BEFORE: string[] = [
  `CREATE OR REPLACE FUNCTION record_change(office integer, kind text, resource integer)
     RETURNS void LANGUAGE sql AS $$
       WITH head AS (
         INSERT INTO change_heads AS h (box_office_id, last_id) VALUES (office, 1)
         ON CONFLICT (box_office_id) DO UPDATE SET last_id = h.last_id + 1
         RETURNING h.last_id)
       INSERT INTO changes (box_office_id, id, type, resource_id, created_at)
       SELECT office, last_id, kind, resource, sync_stamp() FROM head $$`,
  plpgsqlBefore('orders_sync_before', pgStampBeforeBefore(PG_ORDER_OWN_BEFORE)),
  plpgsqlBefore(
    'orders_sync_after',
    `IF sync_importing() THEN RETURN NULL; END IF;
       IF TG_OP = 'INSERT' THEN
         PERFORM record_change(NEW.box_office_id, 'ORDER.CREATED', NEW.id);
       ELSIF TG_OP = 'UPDATE' THEN
         IF ${PG_ORDER_OWN_BEFORE} THEN
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
  plpgsqlBefore(
    'issued_tickets_sync_before',
    pgStampBeforeBefore(
      `(${PG_TICKET_OWN_BEFORE} OR NEW.checked_in IS DISTINCT FROM OLD.checked_in)`,
      'coalesce(NEW.voided_at, 0),',
    ),
  ),
  plpgsqlBefore(
    'issued_tickets_sync_after',
    `IF TG_OP <> 'DELETE' THEN
         UPDATE orders SET updated_at = NEW.updated_at
          WHERE id = NEW.order_id AND updated_at < NEW.updated_at;
       END IF;
       IF sync_importing() THEN RETURN NULL; END IF;
       IF TG_OP = 'INSERT' THEN
         PERFORM record_change(NEW.box_office_id, 'ISSUED_TICKET.CREATED', NEW.id);
       ELSIF TG_OP = 'UPDATE' THEN
         IF ${PG_TICKET_OWN_BEFORE} THEN
           PERFORM record_change(NEW.box_office_id, 'ISSUED_TICKET.UPDATED', NEW.id);
         END IF;
         IF NEW.order_id IS DISTINCT FROM OLD.order_id THEN ${pgStampOrderBefore('OLD.order_id')} END IF;
       ELSE
         PERFORM record_change(OLD.box_office_id, 'ISSUED_TICKET.DELETED', OLD.id);
         ${pgStampOrderBefore('OLD.order_id')}
       END IF;
       RETURN NULL;`,
  ),
  ...PARTS.map((part) =>
    plpgsqlBefore(
      `${part.table}_sync_after`,
      `IF sync_importing() THEN RETURN NULL; END IF;
         IF TG_OP = 'UPDATE' THEN
           IF NOT ${changed(part.own, 'IS DISTINCT FROM')} THEN RETURN NULL; END IF;
         END IF;
         IF TG_OP = 'DELETE' THEN item := OLD.${part.link}; ELSE item := NEW.${part.link}; END IF;
         SELECT p.box_office_id INTO office FROM ${part.parent} p WHERE p.id = item;
         IF office IS NULL THEN RETURN NULL; END IF;
         IF NOT EXISTS (SELECT 1 FROM changes c WHERE c.box_office_id = office
                          AND c.resource_id = item AND c.type = '${part.kind}.CREATED'
                          AND c.created_at = sync_stamp()) THEN
           PERFORM record_change(office, '${part.kind}.UPDATED', item);
         END IF;
         ${part.parent === 'orders' ? pgStampOrderBefore('item') : ''}
         RETURN NULL;`,
      'item integer; office integer;',
    ),
  ),
  plpgsqlBefore(
    'events_sync_after',
    `IF sync_importing() THEN RETURN NULL; END IF;
         IF TG_OP = 'INSERT' THEN
           PERFORM record_change(NEW.box_office_id, 'EVENT.CREATED', NEW.id);
         ELSIF TG_OP = 'UPDATE' THEN
           IF ${changed(EVENT_COLUMNS, 'IS DISTINCT FROM')} THEN
             PERFORM record_change(NEW.box_office_id, 'EVENT.UPDATED', NEW.id);
             
  IF NEW.name IS DISTINCT FROM OLD.name OR NEW.start_at IS DISTINCT FROM OLD.start_at
     OR NEW.end_at IS DISTINCT FROM OLD.end_at OR NEW.timezone IS DISTINCT FROM OLD.timezone THEN
    UPDATE orders SET updated_at = sync_stamp()
     WHERE box_office_id = NEW.box_office_id AND event_id = NEW.id AND updated_at < sync_stamp();
  END IF;
  IF NEW.event_series_id IS DISTINCT FROM OLD.event_series_id THEN
    UPDATE issued_tickets SET updated_at = sync_stamp()
     WHERE event_id = NEW.id AND updated_at < sync_stamp();
  END IF;
           END IF;
         ELSE
           PERFORM record_change(OLD.box_office_id, 'EVENT.DELETED', OLD.id);
         END IF;
         RETURN NULL;`,
  ),
  plpgsqlBefore(
    'event_series_sync_after',
    `IF sync_importing() THEN RETURN NULL; END IF;
         IF TG_OP = 'INSERT' THEN
           PERFORM record_change(NEW.box_office_id, 'EVENT_SERIES.CREATED', NEW.id);
         ELSIF TG_OP = 'UPDATE' THEN
           IF ${changed(SERIES_COLUMNS, 'IS DISTINCT FROM')} THEN
             PERFORM record_change(NEW.box_office_id, 'EVENT_SERIES.UPDATED', NEW.id);
             
           END IF;
         ELSE
           PERFORM record_change(OLD.box_office_id, 'EVENT_SERIES.DELETED', OLD.id);
         END IF;
         RETURN NULL;`,
  ),
  plpgsqlBefore(
    'check_ins_sync_before',
    `IF NOT sync_importing() THEN
             NEW.created_at := greatest(NEW.created_at, sync_stamp());
           END IF;
           RETURN NEW;`,
  ),
  plpgsqlBefore(
    'check_ins_sync_after',
    `-- A ticket is never older than its check-ins, imported ones included (outside import
           -- mode created_at is the stamp).
           UPDATE issued_tickets SET updated_at = NEW.created_at
            WHERE id = NEW.issued_ticket_id AND updated_at < NEW.created_at;
           IF sync_importing() THEN RETURN NULL; END IF;
           PERFORM record_change(NEW.box_office_id, 'CHECK_IN.CREATED', NEW.id);
           RETURN NULL;`,
  ),
];

export class StampsPerBoxOffice1766000000000 implements MigrationInterface {
  name = 'StampsPerBoxOffice1766000000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    if (isPostgres(queryRunner)) {
      await queryRunner.query(PG_SYNC_STAMP);
      for (const sql of PG_FUNCTIONS) await queryRunner.query(sql);
      await queryRunner.query('DROP FUNCTION sync_stamp()');
      return;
    }
    await queryRunner.query(
      `CREATE TABLE sync_correcting (row_table varchar(32) NOT NULL, row_id integer NOT NULL,
         PRIMARY KEY (row_table, row_id))`,
    );
    for (const name of SQLITE_REPLACED) {
      await queryRunner.query(`DROP TRIGGER ${name}`);
    }
    for (const sql of SQLITE_TRIGGERS) await queryRunner.query(sql);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    if (isPostgres(queryRunner)) {
      await queryRunner.query(PG_SYNC_STAMP_BEFORE);
      for (const sql of PG_FUNCTIONS_BEFORE) await queryRunner.query(sql);
      await queryRunner.query('DROP FUNCTION sync_stamp(integer)');
      return;
    }
    for (const sql of SQLITE_TRIGGERS) {
      await queryRunner.query(`DROP TRIGGER ${triggerName(sql)}`);
    }
    for (const sql of SQLITE_TRIGGERS_BEFORE) await queryRunner.query(sql);
    await queryRunner.query('DROP TABLE sync_correcting');
  }
}
