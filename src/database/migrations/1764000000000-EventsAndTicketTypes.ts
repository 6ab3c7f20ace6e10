import {
  type MigrationInterface,
  type QueryRunner,
  Table,
  TableColumn,
  type TableColumnOptions,
  TableForeignKey,
  TableIndex,
} from 'typeorm';

/**
 * What the Event resource and the issued-ticket list need beyond the first schema: the event's
 * own fields, its ticket groups, ticket types and payment methods; on issued tickets the box
 * office (for an index of their own list) and the ticket type; and two counters on events that
 * triggers keep exact (completed orders, valid issued tickets).
 *
 * Existing rows are filled in so that every pre-existing order is served byte for byte as before:
 * events get `published`, a series of their own, the currency of their orders, the box office's
 * creation time, their counts, and placeholder page and image URLs (docs/DESIGN.md, "Upgrading").
 * Columns and tables go through TypeORM's schema API, which runs on SQLite and PostgreSQL alike;
 * the triggers are the one part written per database.
 */
const isPostgres = (queryRunner: QueryRunner) =>
  queryRunner.connection.options.type === 'postgres';

const PLACEHOLDER_SITE = 'https://tickets.invalid';

const column = (options: TableColumnOptions) => new TableColumn(options);
const text = (
  name: string,
  length: number,
  extra: Partial<TableColumnOptions> = {},
) => column({ name, type: 'varchar', length: String(length), ...extra });
const int = (name: string, extra: Partial<TableColumnOptions> = {}) =>
  column({ name, type: 'integer', ...extra });
const id: TableColumnOptions = {
  name: 'id',
  type: 'integer',
  isPrimary: true,
  isGenerated: true,
  generationStrategy: 'increment',
};
const fk = (columnName: string, table: string, onDelete: string) =>
  new TableForeignKey({
    columnNames: [columnName],
    referencedTableName: table,
    referencedColumnNames: ['id'],
    onDelete,
  });
const index = (name: string, columnNames: string[]) =>
  new TableIndex({ name, columnNames });

/** A boolean column defaulting to false, spelled as each database's entity metadata spells it. */
const flag = (name: string, queryRunner: QueryRunner) =>
  column({
    name,
    type: 'boolean',
    default: isPostgres(queryRunner) ? 'false' : '0',
  });

const eventColumns = (queryRunner: QueryRunner) => [
  text('status', 16, { default: "'published'" }),
  flag('online_event', queryRunner),
  flag('private', queryRunner),
  column({ name: 'description', type: 'text', isNullable: true }),
  text('access_code', 64, { isNullable: true }),
  text('call_to_action', 100, { default: "'Buy tickets'" }),
  text('url', 500, { default: "''" }),
  text('image_header_url', 500, { default: "''" }),
  text('image_thumbnail_url', 500, { default: "''" }),
  text('venue_name', 300, { isNullable: true }),
  text('venue_postal_code', 32, { isNullable: true }),
  int('event_series_id', { default: 0 }),
  text('currency', 3, { default: "'gbp'" }),
  column({ name: 'created_at', type: 'bigint', default: 0 }),
  int('completed_orders_count', { default: 0 }),
  int('valid_tickets_count', { default: 0 }),
];

const EVENT_INDEXES = [
  index('IDX_events_list', ['box_office_id', 'start_at', 'id']),
  index('IDX_events_status', ['box_office_id', 'status', 'start_at', 'id']),
  index('IDX_events_series', [
    'box_office_id',
    'event_series_id',
    'start_at',
    'id',
  ]),
];

const TICKET_INDEXES = [
  index('IDX_issued_tickets_list', ['box_office_id', 'created_at', 'id']),
  index('IDX_issued_tickets_event_list', [
    'box_office_id',
    'event_id',
    'created_at',
    'id',
  ]),
  index('IDX_issued_tickets_status', [
    'box_office_id',
    'status',
    'created_at',
    'id',
  ]),
  index('IDX_issued_tickets_updated', ['box_office_id', 'updated_at', 'id']),
  index('IDX_issued_tickets_order_list', [
    'box_office_id',
    'order_id',
    'created_at',
    'id',
  ]),
  index('IDX_issued_tickets_barcode_list', [
    'box_office_id',
    'barcode',
    'created_at',
    'id',
  ]),
  index('IDX_issued_tickets_ticket_type', ['ticket_type_id']),
];

/** The two counters: which rows count, on which event. */
const COUNTERS = [
  {
    table: 'orders',
    status: 'completed',
    counter: 'completed_orders_count',
  },
  {
    table: 'issued_tickets',
    status: 'valid',
    counter: 'valid_tickets_count',
  },
] as const;

export class EventsAndTicketTypes1764000000000 implements MigrationInterface {
  name = 'EventsAndTicketTypes1764000000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.addColumns('events', eventColumns(queryRunner));
    await queryRunner.query(
      `UPDATE events SET
         url = concat('${PLACEHOLDER_SITE}/events/ev_', id),
         image_header_url = concat('${PLACEHOLDER_SITE}/images/ev_', id, '-header.jpg'),
         image_thumbnail_url = concat('${PLACEHOLDER_SITE}/images/ev_', id, '-thumbnail.jpg'),
         event_series_id = id,
         currency = coalesce(
           (SELECT min(o.currency) FROM orders o WHERE o.event_id = events.id), 'gbp'),
         created_at = (SELECT b.created_at FROM box_offices b WHERE b.id = events.box_office_id),
         completed_orders_count = (SELECT count(*) FROM orders o
           WHERE o.event_id = events.id AND o.status = 'completed'),
         valid_tickets_count = (SELECT count(*) FROM issued_tickets t
           WHERE t.event_id = events.id AND t.status = 'valid')`,
    );
    await queryRunner.createIndices('events', EVENT_INDEXES);

    await queryRunner.createTable(
      new Table({
        name: 'ticket_groups',
        columns: [
          id,
          int('event_id'),
          text('name', 200),
          int('max_per_order', { isNullable: true }),
          int('sort_order'),
        ],
        foreignKeys: [fk('event_id', 'events', 'CASCADE')],
        indices: [
          index('IDX_ticket_groups_event', ['event_id', 'sort_order', 'id']),
        ],
      }),
    );
    await queryRunner.createTable(
      new Table({
        name: 'ticket_types',
        columns: [
          id,
          int('event_id'),
          int('group_id', { isNullable: true }),
          text('name', 200),
          { name: 'description', type: 'text', isNullable: true },
          int('price'),
          int('booking_fee', { default: 0 }),
          int('min_per_order', { default: 1 }),
          int('max_per_order'),
          int('quantity'),
          text('status', 16),
          text('type', 16),
          int('sort_order'),
          text('access_code', 64, { isNullable: true }),
        ],
        foreignKeys: [
          fk('event_id', 'events', 'CASCADE'),
          fk('group_id', 'ticket_groups', 'SET NULL'),
        ],
        indices: [
          index('IDX_ticket_types_event', ['event_id', 'sort_order', 'id']),
          index('IDX_ticket_types_group', ['group_id', 'sort_order', 'id']),
        ],
      }),
    );
    await queryRunner.createTable(
      new Table({
        name: 'event_payment_methods',
        columns: [
          id,
          int('event_id'),
          text('type', 16),
          int('payment_method_id', { isNullable: true }),
          text('external_id', 255, { isNullable: true }),
          text('name', 200, { isNullable: true }),
          text('instructions', 2000, { isNullable: true }),
        ],
        foreignKeys: [fk('event_id', 'events', 'CASCADE')],
        indices: [index('IDX_event_payment_methods_event', ['event_id', 'id'])],
      }),
    );

    // The box office is added with a stand-in default, filled from the order, then made plain.
    await queryRunner.addColumns('issued_tickets', [
      int('box_office_id', { default: 0 }),
      int('ticket_type_id', { isNullable: true }),
    ]);
    await queryRunner.query(
      `UPDATE issued_tickets SET box_office_id =
         (SELECT o.box_office_id FROM orders o WHERE o.id = issued_tickets.order_id)`,
    );
    await queryRunner.changeColumn(
      'issued_tickets',
      'box_office_id',
      int('box_office_id'),
    );
    await queryRunner.createForeignKeys('issued_tickets', [
      fk('box_office_id', 'box_offices', 'CASCADE'),
      fk('ticket_type_id', 'ticket_types', 'SET NULL'),
    ]);
    await queryRunner.createIndices('issued_tickets', TICKET_INDEXES);

    for (const statement of counterTriggers(isPostgres(queryRunner))) {
      await queryRunner.query(statement);
    }
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    for (const statement of dropCounterTriggers(queryRunner)) {
      await queryRunner.query(statement);
    }
    const tickets = await queryRunner.getTable('issued_tickets');
    for (const foreignKey of tickets?.foreignKeys ?? []) {
      if (
        foreignKey.columnNames[0] === 'box_office_id' ||
        foreignKey.columnNames[0] === 'ticket_type_id'
      ) {
        await queryRunner.dropForeignKey('issued_tickets', foreignKey);
      }
    }
    for (const dropped of TICKET_INDEXES) {
      await queryRunner.dropIndex('issued_tickets', dropped.name!);
    }
    await queryRunner.dropColumns('issued_tickets', [
      'box_office_id',
      'ticket_type_id',
    ]);
    await queryRunner.dropTable('event_payment_methods');
    await queryRunner.dropTable('ticket_types');
    await queryRunner.dropTable('ticket_groups');
    for (const dropped of EVENT_INDEXES) {
      await queryRunner.dropIndex('events', dropped.name!);
    }
    await queryRunner.dropColumns(
      'events',
      eventColumns(queryRunner).map((dropped) => dropped.name),
    );
  }
}

/**
 * Triggers that keep each counter equal to the number of rows with its status: on insert, on
 * delete, and on an update of the status or the event. SQLite has row triggers only; on
 * PostgreSQL one statement-level trigger per operation updates each event once per statement,
 * so that a bulk insert does not update an event once per row.
 */
function counterTriggers(postgres: boolean): string[] {
  return COUNTERS.flatMap(({ table, status, counter }) => {
    const name = `${table}_${counter}`;
    const change = (alias: string, sign: string) =>
      `UPDATE events SET ${counter} = ${counter} ${sign} 1 WHERE id = ${alias}.event_id AND ${alias}.status = '${status}'`;
    if (!postgres) {
      return [
        `CREATE TRIGGER trg_${name}_insert AFTER INSERT ON ${table}
         BEGIN ${change('NEW', '+')}; END`,
        `CREATE TRIGGER trg_${name}_delete AFTER DELETE ON ${table}
         BEGIN ${change('OLD', '-')}; END`,
        `CREATE TRIGGER trg_${name}_update AFTER UPDATE OF status, event_id ON ${table}
         BEGIN ${change('OLD', '-')}; ${change('NEW', '+')}; END`,
      ];
    }
    const apply = (rows: string, sign: string) =>
      `UPDATE events e SET ${counter} = e.${counter} ${sign} c.n
         FROM (SELECT event_id, count(*) AS n FROM ${rows}
               WHERE status = '${status}' GROUP BY event_id) c
        WHERE e.id = c.event_id;`;
    return [
      `CREATE FUNCTION ${name}_on_insert() RETURNS trigger LANGUAGE plpgsql AS $$
       BEGIN ${apply('new_rows', '+')} RETURN NULL; END $$`,
      `CREATE FUNCTION ${name}_on_delete() RETURNS trigger LANGUAGE plpgsql AS $$
       BEGIN ${apply('old_rows', '-')} RETURN NULL; END $$`,
      `CREATE FUNCTION ${name}_on_update() RETURNS trigger LANGUAGE plpgsql AS $$
       BEGIN ${apply('old_rows', '-')} ${apply('new_rows', '+')} RETURN NULL; END $$`,
      `CREATE TRIGGER trg_${name}_insert AFTER INSERT ON ${table}
       REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION ${name}_on_insert()`,
      `CREATE TRIGGER trg_${name}_delete AFTER DELETE ON ${table}
       REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION ${name}_on_delete()`,
      `CREATE TRIGGER trg_${name}_update AFTER UPDATE ON ${table}
       REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
       FOR EACH STATEMENT EXECUTE FUNCTION ${name}_on_update()`,
    ];
  });
}

function dropCounterTriggers(queryRunner: QueryRunner): string[] {
  return COUNTERS.flatMap(({ table, counter }) => {
    const name = `${table}_${counter}`;
    const operations = ['insert', 'delete', 'update'];
    if (!isPostgres(queryRunner)) {
      return operations.map((op) => `DROP TRIGGER trg_${name}_${op}`);
    }
    return operations.flatMap((op) => [
      `DROP TRIGGER trg_${name}_${op} ON ${table}`,
      `DROP FUNCTION ${name}_on_${op}()`,
    ]);
  });
}
