import {
  type MigrationInterface,
  type QueryRunner,
  Table,
  type TableColumnOptions,
  TableForeignKey,
  TableIndex,
} from 'typeorm';

/**
 * Event series as a table of their own, and the counters Ticket Tailor's clients read
 * (docs/API.md, "Event series" and "Ticket type counters"):
 *
 * - `event_series`, with the template its dates are made from: default ticket groups, ticket
 *   types (prices and capacities) and payment methods, each in a table of its own.
 * - Existing events already carry a series number (the first date's event id). Each number
 *   becomes a series, made from its first event: name, texts, venue, images, currency, zone,
 *   flags, and copies of that event's groups, types and payment methods as the template (their
 *   ids kept, in the template tables' own id space). Its status is `published` when any of its
 *   events is, else that event's; its created time its earliest event's.
 * - Ticket types get `quantity_total` (capacity), `quantity_issued` (valid issued tickets, kept by
 *   triggers), `quantity_held` and `quantity_in_baskets` (0: nothing here holds tickets). What is
 *   left is served as their difference, so the stored `quantity` goes: capacity = what was left
 *   + what was issued, and every existing type shows the same `quantity` as before.
 * - Events get `completed_revenue`, Σ (total − refund_amount) over their completed orders, kept
 *   by triggers like their other counters, so a series' revenue is a sum over its events.
 *
 * Columns are added with plain ALTER TABLE: TypeORM's addColumns rebuilds a SQLite table, which
 * would drop its triggers. Triggers are written per database.
 */
const isPostgres = (queryRunner: QueryRunner) =>
  queryRunner.connection.options.type === 'postgres';

const id: TableColumnOptions = {
  name: 'id',
  type: 'integer',
  isPrimary: true,
  isGenerated: true,
  generationStrategy: 'increment',
};
const int = (
  name: string,
  extra: Partial<TableColumnOptions> = {},
): TableColumnOptions => ({ name, type: 'integer', ...extra });
const text = (
  name: string,
  length: number,
  extra: Partial<TableColumnOptions> = {},
): TableColumnOptions => ({
  name,
  type: 'varchar',
  length: String(length),
  ...extra,
});
const nullableText = (name: string, length: number) =>
  text(name, length, { isNullable: true });
const fk = (columnName: string, table: string, onDelete: string) =>
  new TableForeignKey({
    columnNames: [columnName],
    referencedTableName: table,
    referencedColumnNames: ['id'],
    onDelete,
  });
const index = (name: string, columnNames: string[]) =>
  new TableIndex({ name, columnNames });

const flag = (name: string, queryRunner: QueryRunner): TableColumnOptions => ({
  name,
  type: 'boolean',
  default: isPostgres(queryRunner) ? 'false' : '0',
});

/** The template tables, child before parent for dropping. */
const TEMPLATE_TABLES = [
  'event_series_payment_methods',
  'event_series_ticket_types',
  'event_series_ticket_groups',
];

const TICKET_TYPE_COUNTERS = [
  'quantity_total',
  'quantity_issued',
  'quantity_held',
  'quantity_in_baskets',
];

/** A value kept by triggers on an event or a ticket type: which rows, summing what. */
interface Counter {
  name: string;
  /** The rows counted, their link to the counting row, and what each adds (when it counts). */
  rows: 'orders' | 'issued_tickets';
  link: string;
  target: 'events' | 'ticket_types';
  column: string;
  status: string;
  amount: (alias: string) => string;
  /** The columns whose change moves the value. */
  watched: string[];
}

const COUNTERS: Counter[] = [
  {
    name: 'orders_completed_revenue',
    rows: 'orders',
    link: 'event_id',
    target: 'events',
    column: 'completed_revenue',
    status: 'completed',
    amount: (alias) => `(${alias}.total - ${alias}.refund_amount)`,
    watched: ['status', 'event_id', 'total', 'refund_amount'],
  },
  {
    name: 'issued_tickets_quantity_issued',
    rows: 'issued_tickets',
    link: 'ticket_type_id',
    target: 'ticket_types',
    column: 'quantity_issued',
    status: 'valid',
    amount: () => '1',
    watched: ['status', 'ticket_type_id'],
  },
];

export class EventSeries1765000000000 implements MigrationInterface {
  name = 'EventSeries1765000000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await this.createTables(queryRunner);

    // Ticket type counters, then the stored quantity goes (see above).
    for (const column of TICKET_TYPE_COUNTERS) {
      await queryRunner.query(
        `ALTER TABLE ticket_types ADD COLUMN ${column} integer NOT NULL DEFAULT 0`,
      );
    }
    await queryRunner.query(
      `UPDATE ticket_types SET quantity_issued = (SELECT count(*) FROM issued_tickets t
         WHERE t.ticket_type_id = ticket_types.id AND t.status = 'valid')`,
    );
    await queryRunner.query(
      'UPDATE ticket_types SET quantity_total = quantity + quantity_issued',
    );
    await queryRunner.query('ALTER TABLE ticket_types DROP COLUMN quantity');

    await queryRunner.query(
      'ALTER TABLE events ADD COLUMN completed_revenue bigint NOT NULL DEFAULT 0',
    );
    await queryRunner.query(
      `UPDATE events SET completed_revenue = coalesce((SELECT sum(o.total - o.refund_amount)
         FROM orders o WHERE o.event_id = events.id AND o.status = 'completed'), 0)`,
    );

    await this.seriesFromEvents(queryRunner);

    for (const statement of counterTriggers(isPostgres(queryRunner))) {
      await queryRunner.query(statement);
    }
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    for (const statement of dropCounterTriggers(isPostgres(queryRunner))) {
      await queryRunner.query(statement);
    }
    await queryRunner.query('ALTER TABLE events DROP COLUMN completed_revenue');
    await queryRunner.query(
      'ALTER TABLE ticket_types ADD COLUMN quantity integer NOT NULL DEFAULT 0',
    );
    await queryRunner.query(
      `UPDATE ticket_types SET quantity = CASE WHEN status = 'sold_out' THEN 0
         ELSE quantity_total - quantity_issued - quantity_held - quantity_in_baskets END`,
    );
    for (const column of TICKET_TYPE_COUNTERS) {
      await queryRunner.query(`ALTER TABLE ticket_types DROP COLUMN ${column}`);
    }
    for (const table of TEMPLATE_TABLES) await queryRunner.dropTable(table);
    await queryRunner.dropTable('event_series');
  }

  private async createTables(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.createTable(
      new Table({
        name: 'event_series',
        columns: [
          id,
          int('box_office_id'),
          text('name', 300),
          { name: 'description', type: 'text', isNullable: true },
          text('status', 16, { default: "'published'" }),
          { name: 'created_at', type: 'bigint' },
          text('currency', 3),
          text('timezone', 64),
          nullableText('venue_name', 300),
          nullableText('venue_postal_code', 32),
          text('url', 500),
          text('image_header_url', 500),
          text('image_thumbnail_url', 500),
          flag('online_event', queryRunner),
          flag('private', queryRunner),
          nullableText('access_code', 64),
          text('call_to_action', 100, { default: "'Buy tickets'" }),
          int('max_tickets_sold_per_occurrence', { isNullable: true }),
        ],
        foreignKeys: [fk('box_office_id', 'box_offices', 'CASCADE')],
        indices: [
          index('IDX_event_series_list', ['box_office_id', 'created_at', 'id']),
          index('IDX_event_series_status', [
            'box_office_id',
            'status',
            'created_at',
            'id',
          ]),
        ],
      }),
    );
    await queryRunner.createTable(
      new Table({
        name: 'event_series_ticket_groups',
        columns: [
          id,
          int('event_series_id'),
          text('name', 200),
          int('max_per_order', { isNullable: true }),
          int('sort_order'),
        ],
        foreignKeys: [fk('event_series_id', 'event_series', 'CASCADE')],
        indices: [
          index('IDX_event_series_ticket_groups_series', [
            'event_series_id',
            'sort_order',
            'id',
          ]),
        ],
      }),
    );
    await queryRunner.createTable(
      new Table({
        name: 'event_series_ticket_types',
        columns: [
          id,
          int('event_series_id'),
          int('group_id', { isNullable: true }),
          text('name', 200),
          { name: 'description', type: 'text', isNullable: true },
          int('price'),
          int('booking_fee', { default: 0 }),
          int('min_per_order', { default: 1 }),
          int('max_per_order'),
          int('quantity_total'),
          text('status', 16),
          text('type', 16),
          int('sort_order'),
          nullableText('access_code', 64),
        ],
        foreignKeys: [
          fk('event_series_id', 'event_series', 'CASCADE'),
          fk('group_id', 'event_series_ticket_groups', 'SET NULL'),
        ],
        indices: [
          index('IDX_event_series_ticket_types_series', [
            'event_series_id',
            'sort_order',
            'id',
          ]),
          index('IDX_event_series_ticket_types_group', [
            'group_id',
            'sort_order',
            'id',
          ]),
        ],
      }),
    );
    await queryRunner.createTable(
      new Table({
        name: 'event_series_payment_methods',
        columns: [
          id,
          int('event_series_id'),
          text('type', 16),
          int('payment_method_id', { isNullable: true }),
          nullableText('external_id', 255),
          nullableText('name', 200),
          nullableText('instructions', 2000),
        ],
        foreignKeys: [fk('event_series_id', 'event_series', 'CASCADE')],
        indices: [
          index('IDX_event_series_payment_methods_series', [
            'event_series_id',
            'id',
          ]),
        ],
      }),
    );
  }

  /** One series per series number the events carry, made from its first event (see above). */
  private async seriesFromEvents(queryRunner: QueryRunner): Promise<void> {
    // A series number of 0 (a writer that set none) becomes the event's own.
    await queryRunner.query(
      'UPDATE events SET event_series_id = id WHERE event_series_id = 0',
    );
    const firstEvent = `ev.id = (SELECT min(x.id) FROM events x
        WHERE x.event_series_id = ev.event_series_id)`;
    await queryRunner.query(
      `INSERT INTO event_series (id, box_office_id, name, description, status, created_at,
         currency, timezone, venue_name, venue_postal_code, url, image_header_url,
         image_thumbnail_url, online_event, private, access_code, call_to_action)
       SELECT ev.event_series_id, ev.box_office_id, ev.name, ev.description,
         CASE WHEN EXISTS (SELECT 1 FROM events p WHERE p.event_series_id = ev.event_series_id
                             AND p.status = 'published') THEN 'published' ELSE ev.status END,
         (SELECT min(x.created_at) FROM events x WHERE x.event_series_id = ev.event_series_id),
         ev.currency, ev.timezone, ev.venue_name, ev.venue_postal_code, ev.url,
         ev.image_header_url, ev.image_thumbnail_url, ev.online_event, ev.private,
         ev.access_code, ev.call_to_action
       FROM events ev WHERE ${firstEvent}`,
    );
    await queryRunner.query(
      `INSERT INTO event_series_ticket_groups (id, event_series_id, name, max_per_order, sort_order)
       SELECT tg.id, ev.event_series_id, tg.name, tg.max_per_order, tg.sort_order
       FROM ticket_groups tg JOIN events ev ON ev.id = tg.event_id WHERE ${firstEvent}`,
    );
    await queryRunner.query(
      `INSERT INTO event_series_ticket_types (id, event_series_id, group_id, name, description,
         price, booking_fee, min_per_order, max_per_order, quantity_total, status, type,
         sort_order, access_code)
       SELECT tt.id, ev.event_series_id, tt.group_id, tt.name, tt.description, tt.price,
         tt.booking_fee, tt.min_per_order, tt.max_per_order, tt.quantity_total, tt.status,
         tt.type, tt.sort_order, tt.access_code
       FROM ticket_types tt JOIN events ev ON ev.id = tt.event_id WHERE ${firstEvent}`,
    );
    await queryRunner.query(
      `INSERT INTO event_series_payment_methods (id, event_series_id, type, payment_method_id,
         external_id, name, instructions)
       SELECT pm.id, ev.event_series_id, pm.type, pm.payment_method_id, pm.external_id, pm.name,
         pm.instructions
       FROM event_payment_methods pm JOIN events ev ON ev.id = pm.event_id WHERE ${firstEvent}`,
    );
    if (isPostgres(queryRunner)) {
      // Rows written with their ids: the sequences continue after them.
      for (const table of ['event_series', ...TEMPLATE_TABLES]) {
        await queryRunner.query(
          `SELECT setval(pg_get_serial_sequence('${table}', 'id'),
             coalesce((SELECT max(id) FROM ${table}), 0) + 1, false)`,
        );
      }
    }
  }
}

/**
 * Triggers that keep each counter equal to its sum over the rows that count: on insert, on
 * delete, and on an update of a watched column. SQLite has row triggers only; on PostgreSQL one
 * statement-level trigger per operation updates each counting row once per statement, so that a
 * bulk insert does not update it once per row.
 */
function counterTriggers(postgres: boolean): string[] {
  return COUNTERS.flatMap((counter) => {
    const { name, rows, link, target, column, status, amount } = counter;
    if (!postgres) {
      const change = (alias: string, sign: string) =>
        `UPDATE ${target} SET ${column} = ${column} ${sign} ${amount(alias)}
          WHERE id = ${alias}.${link} AND ${alias}.status = '${status}';`;
      return [
        `CREATE TRIGGER trg_${name}_insert AFTER INSERT ON ${rows}
         BEGIN ${change('NEW', '+')} END`,
        `CREATE TRIGGER trg_${name}_delete AFTER DELETE ON ${rows}
         BEGIN ${change('OLD', '-')} END`,
        `CREATE TRIGGER trg_${name}_update AFTER UPDATE OF ${counter.watched.join(', ')}
         ON ${rows} BEGIN ${change('OLD', '-')} ${change('NEW', '+')} END`,
      ];
    }
    const apply = (table: string, sign: string) =>
      `UPDATE ${target} c SET ${column} = c.${column} ${sign} s.n
         FROM (SELECT r.${link} AS id, sum(${amount('r')}) AS n FROM ${table} r
               WHERE r.status = '${status}' AND r.${link} IS NOT NULL GROUP BY r.${link}) s
        WHERE c.id = s.id;`;
    return [
      `CREATE FUNCTION ${name}_on_insert() RETURNS trigger LANGUAGE plpgsql AS $$
       BEGIN ${apply('new_rows', '+')} RETURN NULL; END $$`,
      `CREATE FUNCTION ${name}_on_delete() RETURNS trigger LANGUAGE plpgsql AS $$
       BEGIN ${apply('old_rows', '-')} RETURN NULL; END $$`,
      `CREATE FUNCTION ${name}_on_update() RETURNS trigger LANGUAGE plpgsql AS $$
       BEGIN ${apply('old_rows', '-')} ${apply('new_rows', '+')} RETURN NULL; END $$`,
      `CREATE TRIGGER trg_${name}_insert AFTER INSERT ON ${rows}
       REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION ${name}_on_insert()`,
      `CREATE TRIGGER trg_${name}_delete AFTER DELETE ON ${rows}
       REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION ${name}_on_delete()`,
      `CREATE TRIGGER trg_${name}_update AFTER UPDATE ON ${rows}
       REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
       FOR EACH STATEMENT EXECUTE FUNCTION ${name}_on_update()`,
    ];
  });
}

function dropCounterTriggers(postgres: boolean): string[] {
  return COUNTERS.flatMap(({ name, rows }) => {
    const operations = ['insert', 'delete', 'update'];
    if (!postgres) {
      return operations.map((op) => `DROP TRIGGER trg_${name}_${op}`);
    }
    return operations.flatMap((op) => [
      `DROP TRIGGER trg_${name}_${op} ON ${rows}`,
      `DROP FUNCTION ${name}_on_${op}()`,
    ]);
  });
}
