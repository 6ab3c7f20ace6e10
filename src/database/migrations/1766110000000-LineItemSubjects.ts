import {
  type MigrationInterface,
  type QueryRunner,
  TableColumn,
  TableForeignKey,
} from 'typeorm';

/**
 * What an order's line items and buyer carry for Ticket Tailor's connectors (docs/API.md,
 * "LineItem" and "Order"):
 *
 * - each line item names what it sold or spent, in the column its type reads: `ticket_type_id`
 *   (`ticket` and `void` lines), `product_id` (`product` lines, a seventh type), and
 *   `voucher_code_id` or `discount_id` (`gift_card` lines), served as its `item_id`. A discount
 *   applies to an order once: a unique index refuses a second line naming it in one order.
 * - the buyer's first and last names, beside the name they make.
 *
 * Existing rows: a `ticket` line names the ticket type of its order's event whose name is the
 * line's description, when exactly one type has it (the seeder and the development writer
 * describe ticket lines by their type's name); every other line, and every existing buyer's
 * names, stay null: the data cannot say. Nothing served changes but the fields added.
 *
 * The foreign keys are added by TypeORM, which names them as the entities do; on SQLite that
 * rebuilds line_items, whose triggers are put back as they were.
 */
const isPostgres = (queryRunner: QueryRunner) =>
  queryRunner.connection.options.type === 'postgres';

/** The subject columns, the table each names, and their index. */
const SUBJECTS = [
  ['ticket_type_id', 'ticket_types', 'IDX_line_items_ticket_type'],
  ['product_id', 'products', 'IDX_line_items_product'],
  ['voucher_code_id', 'voucher_codes', 'IDX_line_items_voucher_code'],
  ['discount_id', 'discounts', 'IDX_line_items_discount'],
] as const;

/**
 * Partial indexes (most lines name none of these): the cascades from a deleted ticket type,
 * product, code or discount, and, for discounts, one line per order.
 */
const INDEXES = [
  'CREATE INDEX "IDX_line_items_ticket_type" ON line_items (ticket_type_id) WHERE ticket_type_id IS NOT NULL',
  'CREATE INDEX "IDX_line_items_product" ON line_items (product_id) WHERE product_id IS NOT NULL',
  'CREATE INDEX "IDX_line_items_voucher_code" ON line_items (voucher_code_id) WHERE voucher_code_id IS NOT NULL',
  'CREATE UNIQUE INDEX "IDX_line_items_discount" ON line_items (discount_id, order_id) WHERE discount_id IS NOT NULL',
];

const BUYER_NAMES = ['buyer_first_name', 'buyer_last_name'];

/** A ticket line's type: the one ticket type of its order's event named as the line is. */
const TICKET_LINES_BACKFILL = `UPDATE line_items SET ticket_type_id = (
    SELECT CASE WHEN count(*) = 1 THEN min(tt.id) END
      FROM orders o JOIN ticket_types tt ON tt.event_id = o.event_id
     WHERE o.id = line_items.order_id AND tt.name = line_items.description)
  WHERE type = 'ticket'`;

/** The line_items triggers as SQLite keeps them (its table rebuilds drop them). */
async function lineItemTriggers(queryRunner: QueryRunner): Promise<string[]> {
  const rows = (await queryRunner.query(
    "SELECT sql FROM sqlite_master WHERE type = 'trigger' AND tbl_name = 'line_items' ORDER BY name",
  )) as { sql: string }[];
  return rows.map((row) => row.sql);
}

const subjectForeignKeys = () =>
  SUBJECTS.map(
    ([column, table]) =>
      new TableForeignKey({
        columnNames: [column],
        referencedTableName: table,
        referencedColumnNames: ['id'],
        onDelete: 'SET NULL',
      }),
  );

export class LineItemSubjects1766110000000 implements MigrationInterface {
  name = 'LineItemSubjects1766110000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    for (const column of BUYER_NAMES) {
      await queryRunner.query(
        `ALTER TABLE orders ADD COLUMN ${column} varchar(200)`,
      );
    }
    if (isPostgres(queryRunner)) {
      for (const [column] of SUBJECTS) {
        await queryRunner.query(
          `ALTER TABLE line_items ADD COLUMN ${column} integer`,
        );
      }
      await queryRunner.createForeignKeys('line_items', subjectForeignKeys());
    } else {
      // SQLite adds a named foreign key (as the entities name it) only by rebuilding the table,
      // which drops the table's triggers: they are put back as they were.
      const triggers = await lineItemTriggers(queryRunner);
      await queryRunner.addColumns(
        'line_items',
        SUBJECTS.map(
          ([column]) =>
            new TableColumn({
              name: column,
              type: 'integer',
              isNullable: true,
            }),
        ),
      );
      await queryRunner.createForeignKeys('line_items', subjectForeignKeys());
      for (const sql of triggers) await queryRunner.query(sql);
    }
    await queryRunner.query(TICKET_LINES_BACKFILL);
    for (const statement of INDEXES) await queryRunner.query(statement);
    await queryRunner.query('ANALYZE line_items');
    await queryRunner.query('ANALYZE orders');
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    for (const [, , name] of SUBJECTS) {
      await queryRunner.query(`DROP INDEX "${name}"`);
    }
    if (isPostgres(queryRunner)) {
      for (const [column] of SUBJECTS) {
        await queryRunner.query(`ALTER TABLE line_items DROP COLUMN ${column}`);
      }
    } else {
      const triggers = await lineItemTriggers(queryRunner);
      await queryRunner.dropColumns(
        'line_items',
        SUBJECTS.map(([column]) => column),
      );
      for (const sql of triggers) await queryRunner.query(sql);
    }
    for (const column of BUYER_NAMES) {
      await queryRunner.query(`ALTER TABLE orders DROP COLUMN ${column}`);
    }
  }
}
