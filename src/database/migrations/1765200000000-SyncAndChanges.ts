import {
  type MigrationInterface,
  type QueryRunner,
  Table,
  TableIndex,
} from 'typeorm';

/**
 * What incremental sync and the change feed need from the database (docs/API.md, "Incremental
 * sync" and "Change feed"), enforced where every writer passes, so a sales system writing SQL
 * directly keeps the same guarantees as this code:
 *
 * - `orders.updated_at` is backfilled to the latest of the order's own times and its tickets'
 *   `updated_at`, and indexed for the `updated_at` sorts.
 * - Triggers keep `updated_at` of orders and issued tickets: any change to anything an order's or
 *   a ticket's JSON shows moves it to at least the change's stamp, never backwards, and an
 *   order's is never below any of its tickets'.
 * - Table `changes`: one entry per change of a resource's own fields, written by the same
 *   triggers in the writing transaction. Ids are per box office, handed out from a counter row
 *   (`change_heads`) that the writing transaction holds until it commits, so ids become visible
 *   in commit order with no gaps.
 *
 * The stamp: on SQLite the database clock of the writing statement (writers are serialised and
 * commit within SYNC_LAG_S); on PostgreSQL one value per transaction, taken at its first stamped
 * write after announcing a lower bound of it in a shared advisory lock that the sync horizon reads
 * (src/sync/sync-horizon.ts). Bulk loads of history (the seeder, test fixtures) may run in import
 * mode (src/sync/import-mode.ts): times are kept as written and no entries are made.
 *
 * The tables and columns go through TypeORM's schema API; the triggers are written per database.
 * Which columns count as a resource's own is read from the schema when this runs: a later
 * migration that adds a served column recreates the triggers.
 */
const isPostgres = (queryRunner: QueryRunner) =>
  queryRunner.connection.options.type === 'postgres';

/**
 * Class key of the advisory locks that announce open stamped transactions (the second key is the
 * stamp's lower bound). Arbitrary; must equal SYNC_LOCK_CLASS in src/sync/sync-horizon.ts.
 */
const SYNC_LOCK_CLASS = 20_251_125;

const ORDERS_UPDATED_INDEX = new TableIndex({
  name: 'IDX_orders_updated',
  columnNames: ['box_office_id', 'updated_at', 'id'],
});

/** Columns that are counters derived from other rows: their changes are not changes. */
const DERIVED =
  /(_count|_revenue|^quantity_issued|^quantity_held|^quantity_in_baskets)$/;

/** What each tracked table's triggers need to know. */
interface Tracked {
  table: string;
  kind: string;
  /** Columns whose change is a change of the resource's own fields. */
  own: string[];
}

/**
 * A table whose rows are part of another resource's JSON (line items of an order; ticket types,
 * groups and payment methods of an event or of a series' template): a change of one is a change
 * of the parent.
 */
interface Part {
  table: string;
  parent: 'orders' | 'events' | 'event_series';
  link: string;
  kind: 'ORDER' | 'EVENT' | 'EVENT_SERIES';
  own: string[];
}

type Dialect = 'sqlite' | 'postgres';

export class SyncAndChanges1765200000000 implements MigrationInterface {
  name = 'SyncAndChanges1765200000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    const dialect: Dialect = isPostgres(queryRunner) ? 'postgres' : 'sqlite';
    const greatest = dialect === 'postgres' ? 'greatest' : 'max';

    await queryRunner.query(
      `UPDATE orders SET updated_at = ${greatest}(updated_at, created_at,
         coalesce((SELECT max(t.updated_at) FROM issued_tickets t WHERE t.order_id = orders.id), 0))
       WHERE updated_at < created_at OR EXISTS (SELECT 1 FROM issued_tickets t
         WHERE t.order_id = orders.id AND t.updated_at > orders.updated_at)`,
    );
    await queryRunner.createIndex('orders', ORDERS_UPDATED_INDEX);

    await queryRunner.createTable(
      new Table({
        name: 'change_heads',
        columns: [
          { name: 'box_office_id', type: 'integer', isPrimary: true },
          { name: 'last_id', type: 'bigint' },
        ],
      }),
    );
    await queryRunner.createTable(
      new Table({
        name: 'changes',
        columns: [
          { name: 'box_office_id', type: 'integer', isPrimary: true },
          { name: 'id', type: 'bigint', isPrimary: true },
          { name: 'type', type: 'varchar', length: '32' },
          { name: 'resource_id', type: 'integer' },
          { name: 'created_at', type: 'bigint' },
        ],
        // The primary key serves the feed and retention (which removes a prefix of each box
        // office's entries); this index the `resource_id` filter and the line-item check.
        indices: [
          new TableIndex({
            name: 'IDX_changes_resource',
            columnNames: ['box_office_id', 'resource_id', 'id'],
          }),
        ],
      }),
    );
    if (dialect === 'sqlite') {
      await queryRunner.createTable(
        new Table({
          name: 'sync_import',
          columns: [{ name: 'id', type: 'integer', isPrimary: true }],
        }),
      );
    }

    const tracked = await trackedTables(queryRunner);
    const checkedIn = await hasColumn(
      queryRunner,
      'issued_tickets',
      'checked_in',
    );
    const parts = await partTables(queryRunner);
    const statements =
      dialect === 'postgres'
        ? postgresTriggers(tracked, parts, checkedIn)
        : sqliteTriggers(tracked, parts, checkedIn);
    for (const statement of statements) await queryRunner.query(statement);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    const tracked = await trackedTables(queryRunner);
    const parts = await partTables(queryRunner);
    for (const statement of dropTriggers(
      tracked,
      parts,
      isPostgres(queryRunner),
    )) {
      await queryRunner.query(statement);
    }
    if (!isPostgres(queryRunner)) await queryRunner.dropTable('sync_import');
    await queryRunner.dropTable('changes');
    await queryRunner.dropTable('change_heads');
    await queryRunner.dropIndex('orders', ORDERS_UPDATED_INDEX.name!);
  }
}

async function hasColumn(
  queryRunner: QueryRunner,
  table: string,
  column: string,
): Promise<boolean> {
  return (
    (await queryRunner.getTable(table))?.findColumnByName(column) !== undefined
  );
}

/**
 * The tables whose rows are resources of the feed, with their own columns as the schema has them
 * now. Event series and check-ins are tracked when their tables exist (their migrations come
 * first in the merged history).
 */
async function trackedTables(queryRunner: QueryRunner): Promise<Tracked[]> {
  const plan = [
    { table: 'orders', kind: 'ORDER', skip: ['id', 'updated_at'] },
    {
      table: 'issued_tickets',
      kind: 'ISSUED_TICKET',
      skip: ['id', 'updated_at', 'checked_in'],
    },
    { table: 'events', kind: 'EVENT', skip: ['id'] },
    { table: 'event_series', kind: 'EVENT_SERIES', skip: ['id'] },
    { table: 'check_ins', kind: 'CHECK_IN', skip: ['id'] },
  ];
  const tracked: Tracked[] = [];
  for (const { table, kind, skip } of plan) {
    const schema = await queryRunner.getTable(table);
    if (!schema) continue;
    const own = schema.columns
      .map((column) => column.name)
      .filter((name) => !skip.includes(name) && !DERIVED.test(name));
    tracked.push({ table, kind, own });
  }
  return tracked;
}

/**
 * The parts, with their own columns as the schema has them now. A ticket type's counters of
 * sales (DERIVED) are not changes of the event; its capacity is.
 */
async function partTables(queryRunner: QueryRunner): Promise<Part[]> {
  const plan: Omit<Part, 'own'>[] = [
    { table: 'line_items', parent: 'orders', link: 'order_id', kind: 'ORDER' },
    {
      table: 'ticket_types',
      parent: 'events',
      link: 'event_id',
      kind: 'EVENT',
    },
    {
      table: 'ticket_groups',
      parent: 'events',
      link: 'event_id',
      kind: 'EVENT',
    },
    {
      table: 'event_payment_methods',
      parent: 'events',
      link: 'event_id',
      kind: 'EVENT',
    },
    ...[
      'event_series_ticket_types',
      'event_series_ticket_groups',
      'event_series_payment_methods',
    ].map((table): Omit<Part, 'own'> => ({
      table,
      parent: 'event_series',
      link: 'event_series_id',
      kind: 'EVENT_SERIES',
    })),
  ];
  const parts: Part[] = [];
  for (const part of plan) {
    const schema = await queryRunner.getTable(part.table);
    if (!schema) continue;
    const own = schema.columns
      .map((column) => column.name)
      .filter((name) => name !== 'id' && !DERIVED.test(name));
    parts.push({ ...part, own });
  }
  return parts;
}

/** The SQLite triggers each table gets (named trg_<table>_sync_<name>). */
const SQLITE_TRIGGERS: Record<string, string[]> = {
  orders: ['insert', 'update', 'stamp', 'delete'],
  issued_tickets: ['insert', 'update', 'stamp', 'bump', 'delete'],
  line_items: ['insert', 'update', 'delete'],
  ticket_types: ['insert', 'update', 'delete'],
  ticket_groups: ['insert', 'update', 'delete'],
  event_payment_methods: ['insert', 'update', 'delete'],
  event_series_ticket_types: ['insert', 'update', 'delete'],
  event_series_ticket_groups: ['insert', 'update', 'delete'],
  event_series_payment_methods: ['insert', 'update', 'delete'],
  events: ['insert', 'update', 'delete'],
  event_series: ['insert', 'update', 'delete'],
  check_ins: ['insert', 'bump'],
};

function dropTriggers(
  tracked: Tracked[],
  parts: Part[],
  postgres: boolean,
): string[] {
  const tables = [...tracked, ...parts].map((t) => t.table);
  if (!postgres) {
    return tables.flatMap((table) =>
      SQLITE_TRIGGERS[table].map(
        (name) => `DROP TRIGGER IF EXISTS trg_${table}_sync_${name}`,
      ),
    );
  }
  return [
    ...tables.flatMap((table) => [
      `DROP TRIGGER IF EXISTS trg_${table}_sync_before ON ${table}`,
      `DROP TRIGGER IF EXISTS trg_${table}_sync_after ON ${table}`,
      `DROP FUNCTION IF EXISTS ${table}_sync_before()`,
      `DROP FUNCTION IF EXISTS ${table}_sync_after()`,
    ]),
    'DROP FUNCTION IF EXISTS record_change(integer, text, integer)',
    'DROP FUNCTION IF EXISTS sync_stamp()',
    'DROP FUNCTION IF EXISTS sync_importing()',
  ];
}

const changed = (columns: string[], distinct: string) =>
  columns.length === 0
    ? 'false'
    : `(${columns.map((c) => `NEW.${c} ${distinct} OLD.${c}`).join(' OR ')})`;

// ---------------------------------------------------------------------------------------------
// SQLite: row triggers only, and a trigger cannot assign NEW, so stamping is an UPDATE of the row
// just written. A trigger never fires itself again (recursive_triggers is off), and every stamping
// UPDATE sets a value the other triggers' conditions accept, so each chain ends after one step.
// SQLite has no IF in a trigger: a statement that applies only sometimes says so in its WHERE.
// ---------------------------------------------------------------------------------------------

const SQLITE_STAMP = 'unixepoch()';
const SQLITE_WRITING = 'NOT EXISTS (SELECT 1 FROM sync_import)';

/** One entry for the resource, numbered from the box office's counter row, when `guard` holds. */
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

function sqliteTriggers(
  tracked: Tracked[],
  parts: Part[],
  ticketsCheckedIn: boolean,
): string[] {
  const own = (table: string) => tracked.find((t) => t.table === table)!.own;
  const orderOwn = changed(own('orders'), 'IS NOT');
  const ticketOwn = changed(own('issued_tickets'), 'IS NOT');
  const ticketChanged = ticketsCheckedIn
    ? `(${ticketOwn} OR NEW.checked_in IS NOT OLD.checked_in)`
    : ticketOwn;
  // A part's change is a change of its parent, except while the parent is being created (its
  // CREATED entry has the same stamp); an order also moves to the stamp. When the parent itself
  // is being deleted it is gone already, and nothing is written.
  const partChange = ({ parent, kind }: Part, id: string) => {
    const office = `(SELECT box_office_id FROM ${parent} WHERE id = ${id})`;
    const guard = `${office} IS NOT NULL AND NOT EXISTS (SELECT 1 FROM changes c
        WHERE c.box_office_id = ${office} AND c.resource_id = ${id}
          AND c.type = '${kind}.CREATED' AND c.created_at = ${SQLITE_STAMP})`;
    return `${sqliteRecord(office, `${kind}.UPDATED`, id, guard)}
            ${parent === 'orders' ? sqliteStampOrder(id) : ''}`;
  };

  const statements = [
    `CREATE TRIGGER trg_orders_sync_insert AFTER INSERT ON orders WHEN ${SQLITE_WRITING} BEGIN
       UPDATE orders SET updated_at = max(NEW.updated_at, NEW.created_at, ${SQLITE_STAMP})
        WHERE id = NEW.id;
       ${sqliteRecord('NEW.box_office_id', 'ORDER.CREATED', 'NEW.id')}
     END`,
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
    // Only updated_at written (a bump, or a writer setting it): never backwards, never below
    // the stamp.
    `CREATE TRIGGER trg_orders_sync_stamp AFTER UPDATE OF updated_at ON orders
       WHEN NOT ${orderOwn} AND ${SQLITE_WRITING}
        AND NEW.updated_at < max(OLD.updated_at, ${SQLITE_STAMP}) BEGIN
       UPDATE orders SET updated_at = max(OLD.updated_at, ${SQLITE_STAMP}) WHERE id = NEW.id;
     END`,
    `CREATE TRIGGER trg_orders_sync_delete AFTER DELETE ON orders WHEN ${SQLITE_WRITING} BEGIN
       ${sqliteRecord('OLD.box_office_id', 'ORDER.DELETED', 'OLD.id')}
     END`,

    // The stamping UPDATE moves the order through trg_issued_tickets_sync_bump; in import mode
    // the order is moved to the time as written.
    `CREATE TRIGGER trg_issued_tickets_sync_insert AFTER INSERT ON issued_tickets BEGIN
       UPDATE issued_tickets
          SET updated_at = max(NEW.updated_at, NEW.created_at, coalesce(NEW.voided_at, 0), ${SQLITE_STAMP})
        WHERE id = NEW.id AND ${SQLITE_WRITING};
       UPDATE orders SET updated_at = NEW.updated_at
        WHERE id = NEW.order_id AND updated_at < NEW.updated_at;
       ${sqliteRecord('NEW.box_office_id', 'ISSUED_TICKET.CREATED', 'NEW.id', SQLITE_WRITING)}
     END`,
    `CREATE TRIGGER trg_issued_tickets_sync_update AFTER UPDATE ON issued_tickets
       WHEN ${ticketChanged} AND ${SQLITE_WRITING} BEGIN
       UPDATE issued_tickets
          SET updated_at = max(NEW.updated_at, OLD.updated_at, NEW.created_at,
                               coalesce(NEW.voided_at, 0), ${SQLITE_STAMP})
        WHERE id = NEW.id;
       ${sqliteRecord('NEW.box_office_id', 'ISSUED_TICKET.UPDATED', 'NEW.id', ticketOwn)}
       ${sqliteStampOrder('OLD.order_id')}
     END`,
    `CREATE TRIGGER trg_issued_tickets_sync_stamp AFTER UPDATE OF updated_at ON issued_tickets
       WHEN NOT ${ticketChanged} AND ${SQLITE_WRITING}
        AND NEW.updated_at < max(OLD.updated_at, ${SQLITE_STAMP}) BEGIN
       UPDATE issued_tickets SET updated_at = max(OLD.updated_at, ${SQLITE_STAMP}) WHERE id = NEW.id;
     END`,
    // An order is never older than any of its tickets, whoever moved the ticket's time.
    `CREATE TRIGGER trg_issued_tickets_sync_bump AFTER UPDATE OF updated_at ON issued_tickets BEGIN
       UPDATE orders SET updated_at = NEW.updated_at
        WHERE id = NEW.order_id AND updated_at < NEW.updated_at;
     END`,
    `CREATE TRIGGER trg_issued_tickets_sync_delete AFTER DELETE ON issued_tickets
       WHEN ${SQLITE_WRITING} BEGIN
       ${sqliteRecord('OLD.box_office_id', 'ISSUED_TICKET.DELETED', 'OLD.id')}
       ${sqliteStampOrder('OLD.order_id')}
     END`,
  ];

  for (const part of parts) {
    const { table, link } = part;
    statements.push(
      `CREATE TRIGGER trg_${table}_sync_insert AFTER INSERT ON ${table}
         WHEN ${SQLITE_WRITING} BEGIN ${partChange(part, `NEW.${link}`)} END`,
      `CREATE TRIGGER trg_${table}_sync_update AFTER UPDATE ON ${table}
         WHEN ${changed(part.own, 'IS NOT')} AND ${SQLITE_WRITING} BEGIN
         ${partChange(part, `NEW.${link}`)}
       END`,
      `CREATE TRIGGER trg_${table}_sync_delete AFTER DELETE ON ${table}
         WHEN ${SQLITE_WRITING} BEGIN ${partChange(part, `OLD.${link}`)} END`,
    );
  }

  for (const { table, kind, own } of tracked) {
    if (table === 'orders' || table === 'issued_tickets') continue;
    if (table === 'check_ins') {
      // A check-in is recorded at its stamp, and moves its ticket (and so its order).
      statements.push(
        `CREATE TRIGGER trg_check_ins_sync_insert AFTER INSERT ON check_ins
           WHEN ${SQLITE_WRITING} BEGIN
           UPDATE check_ins SET created_at = max(NEW.created_at, ${SQLITE_STAMP}) WHERE id = NEW.id;
           ${sqliteRecord('NEW.box_office_id', 'CHECK_IN.CREATED', 'NEW.id')}
           UPDATE issued_tickets SET updated_at = ${SQLITE_STAMP}
            WHERE id = NEW.issued_ticket_id AND updated_at < ${SQLITE_STAMP};
         END`,
        // A ticket is never older than its check-ins, imported ones included.
        `CREATE TRIGGER trg_check_ins_sync_bump AFTER INSERT ON check_ins BEGIN
           UPDATE issued_tickets SET updated_at = NEW.created_at
            WHERE id = NEW.issued_ticket_id AND updated_at < NEW.created_at;
         END`,
      );
      continue;
    }
    statements.push(
      `CREATE TRIGGER trg_${table}_sync_insert AFTER INSERT ON ${table}
         WHEN ${SQLITE_WRITING} BEGIN
         ${sqliteRecord('NEW.box_office_id', `${kind}.CREATED`, 'NEW.id')}
       END`,
      `CREATE TRIGGER trg_${table}_sync_update AFTER UPDATE ON ${table}
         WHEN ${changed(own, 'IS NOT')} AND ${SQLITE_WRITING} BEGIN
         ${sqliteRecord('NEW.box_office_id', `${kind}.UPDATED`, 'NEW.id')}
         ${table === 'events' ? sqliteEventBumps() : ''}
       END`,
      `CREATE TRIGGER trg_${table}_sync_delete AFTER DELETE ON ${table}
         WHEN ${SQLITE_WRITING} BEGIN
         ${sqliteRecord('OLD.box_office_id', `${kind}.DELETED`, 'OLD.id')}
       END`,
    );
  }
  return statements;
}

/** An event's name, dates and zone are in its orders' event_summary; its series in its tickets. */
function sqliteEventBumps(): string {
  return `UPDATE orders SET updated_at = ${SQLITE_STAMP}
           WHERE box_office_id = NEW.box_office_id AND event_id = NEW.id
             AND updated_at < ${SQLITE_STAMP}
             AND (NEW.name IS NOT OLD.name OR NEW.start_at IS NOT OLD.start_at
                  OR NEW.end_at IS NOT OLD.end_at OR NEW.timezone IS NOT OLD.timezone);
          UPDATE issued_tickets SET updated_at = ${SQLITE_STAMP}
           WHERE event_id = NEW.id AND updated_at < ${SQLITE_STAMP}
             AND NEW.event_series_id IS NOT OLD.event_series_id;`;
}

// ---------------------------------------------------------------------------------------------
// PostgreSQL: a BEFORE row trigger assigns the stamp to NEW; an AFTER row trigger writes the
// entry and moves what depends on the row.
// ---------------------------------------------------------------------------------------------

const plpgsql = (name: string, body: string, declare = '') =>
  `CREATE FUNCTION ${name}() RETURNS trigger LANGUAGE plpgsql AS $$
   ${declare ? `DECLARE ${declare}` : ''}
   BEGIN ${body} END $$`;
const rowTrigger = (table: string, when: 'before' | 'after', ops: string) =>
  `CREATE TRIGGER trg_${table}_sync_${when} ${when.toUpperCase()} ${ops} ON ${table}
   FOR EACH ROW EXECUTE FUNCTION ${table}_sync_${when}()`;
const pgStampOrder = (id: string) =>
  `UPDATE orders SET updated_at = sync_stamp() WHERE id = ${id} AND updated_at < sync_stamp();`;

/**
 * Whether the transaction writes in import mode (src/sync/import-mode.ts); migration
 * ImportGeneration replaces it, and its down() restores this text.
 */
const PG_SYNC_IMPORTING = `CREATE FUNCTION sync_importing() RETURNS boolean LANGUAGE sql STABLE AS $$
       SELECT coalesce(current_setting('boxoffice.sync_import', true), '') = 'on' $$`;

/**
 * The stamp of a row written, or rewritten, outside import mode: never backwards, never before
 * the row's own times (`also`: a ticket's voided_at).
 */
const pgStampBefore = (changedCondition: string, also = '') =>
  `IF sync_importing() THEN RETURN NEW; END IF;
   IF TG_OP = 'INSERT' THEN
     NEW.updated_at := greatest(NEW.updated_at, NEW.created_at, ${also} sync_stamp());
   ELSIF ${changedCondition} OR NEW.updated_at IS DISTINCT FROM OLD.updated_at THEN
     NEW.updated_at := greatest(NEW.updated_at, OLD.updated_at, NEW.created_at, ${also}
                                sync_stamp());
   END IF;
   RETURN NEW;`;

function postgresTriggers(
  tracked: Tracked[],
  parts: Part[],
  ticketsCheckedIn: boolean,
): string[] {
  const own = (table: string) => tracked.find((t) => t.table === table)!.own;
  const orderOwn = changed(own('orders'), 'IS DISTINCT FROM');
  const ticketOwn = changed(own('issued_tickets'), 'IS DISTINCT FROM');
  const ticketChanged = ticketsCheckedIn
    ? `(${ticketOwn} OR NEW.checked_in IS DISTINCT FROM OLD.checked_in)`
    : ticketOwn;

  const statements = [
    PG_SYNC_IMPORTING,
    // The transaction's stamp, taken once. First a lower bound of it is announced in a shared
    // advisory lock held until the transaction ends: the horizon stays below every announced
    // bound, and a stamp taken after its announcement is above any horizon read before it.
    `CREATE FUNCTION sync_stamp() RETURNS bigint LANGUAGE plpgsql AS $$
     DECLARE
       kept text := current_setting('boxoffice.sync_stamp', true);
       announced bigint;
       stamp bigint;
     BEGIN
       IF kept IS NOT NULL AND kept <> '' THEN RETURN kept::bigint; END IF;
       announced := floor(extract(epoch FROM clock_timestamp()))::bigint;
       PERFORM pg_advisory_xact_lock_shared(${SYNC_LOCK_CLASS},
         (announced - CASE WHEN announced >= 2147483648 THEN 4294967296 ELSE 0 END)::integer);
       stamp := greatest(announced, floor(extract(epoch FROM clock_timestamp()))::bigint);
       PERFORM set_config('boxoffice.sync_stamp', stamp::text, true);
       RETURN stamp;
     END $$`,
    // The box office's counter row stays locked by the writing transaction until it ends, so a
    // later id is handed out only after the earlier one committed (or rolled back, giving it
    // back).
    `CREATE FUNCTION record_change(office integer, kind text, resource integer)
     RETURNS void LANGUAGE sql AS $$
       WITH head AS (
         INSERT INTO change_heads AS h (box_office_id, last_id) VALUES (office, 1)
         ON CONFLICT (box_office_id) DO UPDATE SET last_id = h.last_id + 1
         RETURNING h.last_id)
       INSERT INTO changes (box_office_id, id, type, resource_id, created_at)
       SELECT office, last_id, kind, resource, sync_stamp() FROM head $$`,

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
    rowTrigger('orders', 'before', 'INSERT OR UPDATE'),
    rowTrigger('orders', 'after', 'INSERT OR UPDATE OR DELETE'),

    plpgsql(
      'issued_tickets_sync_before',
      pgStampBefore(ticketChanged, 'coalesce(NEW.voided_at, 0),'),
    ),
    // An order is never older than any of its tickets, whoever moved the ticket's time (import
    // mode included).
    plpgsql(
      'issued_tickets_sync_after',
      `IF TG_OP <> 'DELETE' THEN
         UPDATE orders SET updated_at = NEW.updated_at
          WHERE id = NEW.order_id AND updated_at < NEW.updated_at;
       END IF;
       IF sync_importing() THEN RETURN NULL; END IF;
       IF TG_OP = 'INSERT' THEN
         PERFORM record_change(NEW.box_office_id, 'ISSUED_TICKET.CREATED', NEW.id);
       ELSIF TG_OP = 'UPDATE' THEN
         IF ${ticketOwn} THEN
           PERFORM record_change(NEW.box_office_id, 'ISSUED_TICKET.UPDATED', NEW.id);
         END IF;
         IF NEW.order_id IS DISTINCT FROM OLD.order_id THEN ${pgStampOrder('OLD.order_id')} END IF;
       ELSE
         PERFORM record_change(OLD.box_office_id, 'ISSUED_TICKET.DELETED', OLD.id);
         ${pgStampOrder('OLD.order_id')}
       END IF;
       RETURN NULL;`,
    ),
    rowTrigger('issued_tickets', 'before', 'INSERT OR UPDATE'),
    rowTrigger('issued_tickets', 'after', 'INSERT OR UPDATE OR DELETE'),
  ];

  // A part's change is a change of its parent, except while the parent is being created (its
  // CREATED entry has the same stamp); an order also moves to the stamp. When the parent itself
  // is being deleted it is gone already, and nothing is written.
  for (const { table, parent, link, kind, own } of parts) {
    statements.push(
      plpgsql(
        `${table}_sync_after`,
        `IF sync_importing() THEN RETURN NULL; END IF;
         IF TG_OP = 'UPDATE' THEN
           IF NOT ${changed(own, 'IS DISTINCT FROM')} THEN RETURN NULL; END IF;
         END IF;
         IF TG_OP = 'DELETE' THEN item := OLD.${link}; ELSE item := NEW.${link}; END IF;
         SELECT p.box_office_id INTO office FROM ${parent} p WHERE p.id = item;
         IF office IS NULL THEN RETURN NULL; END IF;
         IF NOT EXISTS (SELECT 1 FROM changes c WHERE c.box_office_id = office
                          AND c.resource_id = item AND c.type = '${kind}.CREATED'
                          AND c.created_at = sync_stamp()) THEN
           PERFORM record_change(office, '${kind}.UPDATED', item);
         END IF;
         ${parent === 'orders' ? pgStampOrder('item') : ''}
         RETURN NULL;`,
        'item integer; office integer;',
      ),
      rowTrigger(table, 'after', 'INSERT OR UPDATE OR DELETE'),
    );
  }

  for (const { table, kind, own } of tracked) {
    if (table === 'orders' || table === 'issued_tickets') continue;
    if (table === 'check_ins') {
      // A check-in is recorded at its stamp, and moves its ticket (and so its order).
      statements.push(
        plpgsql(
          'check_ins_sync_before',
          `IF NOT sync_importing() THEN
             NEW.created_at := greatest(NEW.created_at, sync_stamp());
           END IF;
           RETURN NEW;`,
        ),
        rowTrigger('check_ins', 'before', 'INSERT'),
        plpgsql(
          'check_ins_sync_after',
          `-- A ticket is never older than its check-ins, imported ones included (outside import
           -- mode created_at is the stamp).
           UPDATE issued_tickets SET updated_at = NEW.created_at
            WHERE id = NEW.issued_ticket_id AND updated_at < NEW.created_at;
           IF sync_importing() THEN RETURN NULL; END IF;
           PERFORM record_change(NEW.box_office_id, 'CHECK_IN.CREATED', NEW.id);
           RETURN NULL;`,
        ),
        rowTrigger('check_ins', 'after', 'INSERT'),
      );
      continue;
    }
    statements.push(
      plpgsql(
        `${table}_sync_after`,
        `IF sync_importing() THEN RETURN NULL; END IF;
         IF TG_OP = 'INSERT' THEN
           PERFORM record_change(NEW.box_office_id, '${kind}.CREATED', NEW.id);
         ELSIF TG_OP = 'UPDATE' THEN
           IF ${changed(own, 'IS DISTINCT FROM')} THEN
             PERFORM record_change(NEW.box_office_id, '${kind}.UPDATED', NEW.id);
             ${table === 'events' ? POSTGRES_EVENT_BUMPS : ''}
           END IF;
         ELSE
           PERFORM record_change(OLD.box_office_id, '${kind}.DELETED', OLD.id);
         END IF;
         RETURN NULL;`,
      ),
      rowTrigger(table, 'after', 'INSERT OR UPDATE OR DELETE'),
    );
  }
  return statements;
}

/** An event's name, dates and zone are in its orders' event_summary; its series in its tickets. */
const POSTGRES_EVENT_BUMPS = `
  IF NEW.name IS DISTINCT FROM OLD.name OR NEW.start_at IS DISTINCT FROM OLD.start_at
     OR NEW.end_at IS DISTINCT FROM OLD.end_at OR NEW.timezone IS DISTINCT FROM OLD.timezone THEN
    UPDATE orders SET updated_at = sync_stamp()
     WHERE box_office_id = NEW.box_office_id AND event_id = NEW.id AND updated_at < sync_stamp();
  END IF;
  IF NEW.event_series_id IS DISTINCT FROM OLD.event_series_id THEN
    UPDATE issued_tickets SET updated_at = sync_stamp()
     WHERE event_id = NEW.id AND updated_at < sync_stamp();
  END IF;`;
