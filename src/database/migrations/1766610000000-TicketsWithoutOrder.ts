import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Tickets issued on their own (docs/API.md, "POST /v1/issued_tickets"): a complimentary ticket
 * belongs to no order, as Ticket Tailor's do, so `issued_tickets.order_id` may be null; such a
 * ticket keeps the e-mail it was issued with in `issued_tickets.email` (a ticket of an order shows
 * its order's, and leaves the column null). Existing rows keep their order and are unchanged.
 *
 * The triggers that stamp tickets, count them and write their change entries already pass over
 * a null order (`WHERE id = NEW.order_id` matches no order).
 *
 * On SQLite a column's NOT NULL goes only with the table: issued_tickets is rebuilt with the same
 * columns, constraints and rows, and every index and trigger it had is made again from the text
 * SQLite kept of it, so none is lost or changed; the table's AUTOINCREMENT counter is kept, so a
 * deleted ticket's id is never handed out again. The triggers of other tables that name
 * issued_tickets are left as they are. Foreign keys are off during migrations
 * (migrate.ts), so rebuilding cascades nothing.
 */

/** issued_tickets on SQLite as the migrations before this one leave it, but for order_id and email. */
const sqliteTickets = (
  table: string,
  withoutOrder: boolean,
) => `CREATE TABLE "${table}" (
  "id" integer PRIMARY KEY AUTOINCREMENT NOT NULL,
  "order_id" integer${withoutOrder ? '' : ' NOT NULL'},
  "event_id" integer NOT NULL,
  "status" varchar(8) NOT NULL,
  "barcode" varchar(64) NOT NULL,
  "barcode_url" varchar(500) NOT NULL,
  "qr_code_url" varchar(500) NOT NULL,
  "description" varchar(500) NOT NULL,
  "first_name" varchar(200),
  "last_name" varchar(200),
  "full_name" varchar(400),
  "reservation" varchar(100),
  "custom_questions" text NOT NULL,
  "created_at" bigint NOT NULL,
  "updated_at" bigint NOT NULL,
  "voided_at" bigint,
  "box_office_id" integer NOT NULL,
  "ticket_type_id" integer,
  checked_in boolean NOT NULL DEFAULT 0,${withoutOrder ? '\n  email varchar(320),' : ''}
  CONSTRAINT "FK_0f8f29d51967340a911bc6ec28a" FOREIGN KEY ("event_id") REFERENCES "events" ("id") ON DELETE RESTRICT ON UPDATE NO ACTION,
  CONSTRAINT "FK_8d1eedb3ba673486d815852623a" FOREIGN KEY ("order_id") REFERENCES "orders" ("id") ON DELETE CASCADE ON UPDATE NO ACTION,
  CONSTRAINT "FK_1952dfe44dbd05737eb1beb1239" FOREIGN KEY ("box_office_id") REFERENCES "box_offices" ("id") ON DELETE CASCADE,
  CONSTRAINT "FK_975245a079aab3283d20b898948" FOREIGN KEY ("ticket_type_id") REFERENCES "ticket_types" ("id") ON DELETE SET NULL
)`;

/** The columns both forms of the table have. */
const COLUMNS = `"id", "order_id", "event_id", "status", "barcode", "barcode_url", "qr_code_url",
  "description", "first_name", "last_name", "full_name", "reservation", "custom_questions",
  "created_at", "updated_at", "voided_at", "box_office_id", "ticket_type_id", checked_in`;

/** Rebuilds issued_tickets on SQLite, keeping its rows, indexes, triggers and id counter. */
async function rebuildSqliteTickets(
  queryRunner: QueryRunner,
  withoutOrder: boolean,
): Promise<void> {
  // In the catalog's order, which TypeORM's later rebuilds of the table follow.
  const kept = (await queryRunner.query(
    `SELECT sql FROM sqlite_master
      WHERE tbl_name = 'issued_tickets' AND type IN ('index', 'trigger') AND sql IS NOT NULL
      ORDER BY rowid`,
  )) as { sql: string }[];
  const [counter] = (await queryRunner.query(
    "SELECT seq FROM sqlite_sequence WHERE name = 'issued_tickets'",
  )) as { seq: number }[];
  await queryRunner.query(
    sqliteTickets('temporary_issued_tickets', withoutOrder),
  );
  await queryRunner.query(
    `INSERT INTO "temporary_issued_tickets" (${COLUMNS}) SELECT ${COLUMNS} FROM "issued_tickets"`,
  );
  await queryRunner.query('DROP TABLE "issued_tickets"');
  // The triggers of other tables (check_ins, orders) name issued_tickets, which does not exist
  // until this rename: SQLite's legacy rename leaves their text alone instead of refusing it.
  await queryRunner.query('PRAGMA legacy_alter_table = ON');
  await queryRunner.query(
    'ALTER TABLE "temporary_issued_tickets" RENAME TO "issued_tickets"',
  );
  await queryRunner.query('PRAGMA legacy_alter_table = OFF');
  for (const { sql } of kept) await queryRunner.query(sql);
  if (counter !== undefined) {
    await queryRunner.query(
      "UPDATE sqlite_sequence SET seq = ? WHERE name = 'issued_tickets'",
      [counter.seq],
    );
  }
}

const isPostgres = (queryRunner: QueryRunner) =>
  queryRunner.connection.options.type === 'postgres';

export class TicketsWithoutOrder1766610000000 implements MigrationInterface {
  name = 'TicketsWithoutOrder1766610000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    if (isPostgres(queryRunner)) {
      await queryRunner.query(
        'ALTER TABLE issued_tickets ALTER COLUMN order_id DROP NOT NULL',
      );
      await queryRunner.query(
        'ALTER TABLE issued_tickets ADD COLUMN email varchar(320)',
      );
    } else {
      await rebuildSqliteTickets(queryRunner, true);
    }
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    // The earlier schema has no place for a ticket without an order.
    await queryRunner.query(
      'DELETE FROM issued_tickets WHERE order_id IS NULL',
    );
    if (isPostgres(queryRunner)) {
      await queryRunner.query('ALTER TABLE issued_tickets DROP COLUMN email');
      await queryRunner.query(
        'ALTER TABLE issued_tickets ALTER COLUMN order_id SET NOT NULL',
      );
    } else {
      await rebuildSqliteTickets(queryRunner, false);
    }
  }
}
