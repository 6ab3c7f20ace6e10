import {
  MigrationInterface,
  QueryRunner,
  Table,
  TableColumnOptions,
  TableForeignKey,
  TableIndex,
} from 'typeorm';

// Written with TypeORM's schema API rather than raw DDL so that the same migration runs on SQLite
// and PostgreSQL. BIGINT for Unix seconds (past 2038), INTEGER for ids and money.
const id: TableColumnOptions = {
  name: 'id',
  type: 'integer',
  isPrimary: true,
  isGenerated: true,
  generationStrategy: 'increment',
};
const int = (name: string, extra: Partial<TableColumnOptions> = {}) => ({
  name,
  type: 'integer',
  ...extra,
});
const unix = (name: string, isNullable = false) => ({
  name,
  type: 'bigint',
  isNullable,
});
const text = (name: string, length: number, isNullable = false) => ({
  name,
  type: 'varchar',
  length: String(length),
  isNullable,
});
const fk = (column: string, table: string, onDelete: string) =>
  new TableForeignKey({
    columnNames: [column],
    referencedTableName: table,
    referencedColumnNames: ['id'],
    onDelete,
  });
const index = (name: string, columnNames: string[], isUnique = false) =>
  new TableIndex({ name, columnNames, isUnique });

export class InitialSchema1763800000000 implements MigrationInterface {
  name = 'InitialSchema1763800000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.createTable(
      new Table({
        name: 'box_offices',
        columns: [id, text('name', 200), unix('created_at')],
      }),
    );

    await queryRunner.createTable(
      new Table({
        name: 'api_keys',
        columns: [
          id,
          int('box_office_id'),
          text('name', 200, true),
          text('key_hash', 64),
          text('key_prefix', 16),
          unix('created_at'),
          unix('revoked_at', true),
        ],
        foreignKeys: [fk('box_office_id', 'box_offices', 'CASCADE')],
        indices: [
          index('IDX_api_keys_key_hash', ['key_hash'], true),
          index('IDX_api_keys_box_office', ['box_office_id']),
        ],
      }),
    );

    await queryRunner.createTable(
      new Table({
        name: 'events',
        columns: [
          id,
          int('box_office_id'),
          text('name', 300),
          unix('start_at'),
          unix('end_at'),
          text('timezone', 64),
        ],
        foreignKeys: [fk('box_office_id', 'box_offices', 'CASCADE')],
        indices: [index('IDX_events_box_office', ['box_office_id'])],
      }),
    );

    await queryRunner.createTable(
      new Table({
        name: 'orders',
        columns: [
          id,
          int('box_office_id'),
          int('event_id'),
          text('status', 16),
          text('status_message', 500, true),
          text('currency', 3),
          int('subtotal'),
          int('tax'),
          int('total'),
          int('refund_amount', { default: 0 }),
          text('txn_id', 255, true),
          unix('created_at'),
          unix('updated_at'),
          text('buyer_name', 300),
          text('buyer_email', 320),
          text('buyer_email_lookup', 320),
          text('buyer_phone', 64, true),
          text('address_1', 300),
          text('address_2', 300, true),
          text('address_3', 300, true),
          text('postal_code', 32, true),
          { name: 'buyer_custom_questions', type: 'text' },
          text('payment_method_type', 16),
          int('payment_method_id', { isNullable: true }),
          text('payment_method_external_id', 255, true),
          text('payment_method_name', 200, true),
          text('payment_method_instructions', 2000, true),
        ],
        foreignKeys: [
          fk('box_office_id', 'box_offices', 'CASCADE'),
          fk('event_id', 'events', 'RESTRICT'),
        ],
        indices: [
          // The list: one box office, newest first, id as tie-break. Every filter index ends in
          // (created_at, id) too, so each filtered list is read in order with no sort step.
          index('IDX_orders_list', ['box_office_id', 'created_at', 'id']),
          index('IDX_orders_event', [
            'box_office_id',
            'event_id',
            'created_at',
            'id',
          ]),
          index('IDX_orders_status', [
            'box_office_id',
            'status',
            'created_at',
            'id',
          ]),
          index('IDX_orders_email', [
            'box_office_id',
            'buyer_email_lookup',
            'created_at',
            'id',
          ]),
          index('IDX_orders_txn', [
            'box_office_id',
            'txn_id',
            'created_at',
            'id',
          ]),
        ],
      }),
    );

    await queryRunner.createTable(
      new Table({
        name: 'line_items',
        columns: [
          id,
          int('order_id'),
          text('type', 24),
          text('description', 500),
          int('quantity'),
          int('value'),
          int('booking_fee', { default: 0 }),
          int('total'),
        ],
        foreignKeys: [fk('order_id', 'orders', 'CASCADE')],
        indices: [index('IDX_line_items_order', ['order_id', 'id'])],
      }),
    );

    await queryRunner.createTable(
      new Table({
        name: 'issued_tickets',
        columns: [
          id,
          int('order_id'),
          int('event_id'),
          text('status', 8),
          text('barcode', 64),
          text('barcode_url', 500),
          text('qr_code_url', 500),
          text('description', 500),
          text('first_name', 200, true),
          text('last_name', 200, true),
          text('full_name', 400, true),
          text('reservation', 100, true),
          { name: 'custom_questions', type: 'text' },
          unix('created_at'),
          unix('updated_at'),
          unix('voided_at', true),
        ],
        foreignKeys: [
          fk('order_id', 'orders', 'CASCADE'),
          fk('event_id', 'events', 'RESTRICT'),
        ],
        indices: [
          index('IDX_issued_tickets_order', ['order_id', 'id']),
          index('IDX_issued_tickets_event', ['event_id']),
          index('IDX_issued_tickets_barcode', ['barcode']),
        ],
      }),
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    for (const table of [
      'issued_tickets',
      'line_items',
      'orders',
      'events',
      'api_keys',
      'box_offices',
    ]) {
      await queryRunner.dropTable(table);
    }
  }
}
