import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The door's look-up and numbers (docs/API.md, "Searching issued tickets" and "GET /v1/events/{event_id}/attendance").
 *
 * `search` on /v1/issued_tickets matches a holder's name or e-mail anywhere in it and a barcode
 * from its start, all in the search fold (migration SearchFold). Each database gets a trigram
 * index of the folded texts, so that a search across a box office reads its matches rather than
 * every ticket (bench/README.md measures both):
 *
 * - PostgreSQL: pg_trgm (PostgreSQL's contrib) GIN indexes on the folded name and barcode of a
 *   ticket and the folded e-mail of an order (a ticket of an order shows its order's); they
 *   serve `LIKE '%…%'` and `LIKE '…%'` with the pattern known only when the statement runs.
 * - SQLite: an FTS5 table with the trigram tokenizer, issued_ticket_search, whose row for each
 *   ticket (rowid: the ticket's id) holds its folded name and barcode and its order's folded
 *   e-mail; contentless (the texts are the tickets' and orders'), kept by triggers on both
 *   tables, which fold with the `search_fold` function every connection of the service defines
 *   (data-source-options.ts). A ticket without an order has no e-mail there: its own is searched
 *   on its row.
 *
 * Attendance counts an event's tickets by type, status and check-in in one pass: the index on
 * (box office, event, type, status, checked_in, id) holds everything it reads of a ticket, so
 * neither database visits the table; and it finds the tickets that went out again through an
 * index of the check-outs alone, a small part of the check-ins.
 */
const isPostgres = (queryRunner: QueryRunner) =>
  queryRunner.connection.options.type === 'postgres';

/**
 * A ticket's row of issued_ticket_search, from `row` (NEW or a table alias) and its order's
 * e-mail (a ticket without an order has none here).
 */
const searchRow = (row: string, email: string) =>
  `${row}.id, search_fold(coalesce(${row}.full_name, '')), search_fold(coalesce(${email}, '')), search_fold(${row}.barcode)`;

/** The e-mail of the order of the ticket `row`. */
const orderEmail = (row: string) =>
  `(SELECT o.buyer_email FROM orders o WHERE o.id = ${row}.order_id)`;

const INSERT_SEARCH =
  'INSERT INTO issued_ticket_search (rowid, name, email, barcode)';

const SQLITE_TRIGGERS = [
  'trg_issued_tickets_search_insert',
  'trg_issued_tickets_search_update',
  'trg_issued_tickets_search_delete',
  'trg_orders_search_email',
] as const;

async function createSqliteSearch(queryRunner: QueryRunner): Promise<void> {
  await queryRunner.query(
    `CREATE VIRTUAL TABLE issued_ticket_search USING fts5(name, email, barcode, tokenize = 'trigram', content = '', contentless_delete = 1)`,
  );
  await queryRunner.query(
    `${INSERT_SEARCH} SELECT ${searchRow('t', orderEmail('t'))} FROM issued_tickets t`,
  );
  await queryRunner.query(
    `CREATE TRIGGER trg_issued_tickets_search_insert AFTER INSERT ON issued_tickets
      BEGIN ${INSERT_SEARCH} VALUES (${searchRow('NEW', orderEmail('NEW'))}); END`,
  );
  await queryRunner.query(
    `CREATE TRIGGER trg_issued_tickets_search_update AFTER UPDATE OF full_name, barcode, order_id ON issued_tickets
      BEGIN DELETE FROM issued_ticket_search WHERE rowid = OLD.id;
      ${INSERT_SEARCH} VALUES (${searchRow('NEW', orderEmail('NEW'))}); END`,
  );
  await queryRunner.query(
    `CREATE TRIGGER trg_issued_tickets_search_delete AFTER DELETE ON issued_tickets
      BEGIN DELETE FROM issued_ticket_search WHERE rowid = OLD.id; END`,
  );
  await queryRunner.query(
    `CREATE TRIGGER trg_orders_search_email AFTER UPDATE OF buyer_email ON orders
      BEGIN DELETE FROM issued_ticket_search WHERE rowid IN (SELECT id FROM issued_tickets WHERE order_id = NEW.id);
      ${INSERT_SEARCH} SELECT ${searchRow('t', 'NEW.buyer_email')} FROM issued_tickets t WHERE t.order_id = NEW.id; END`,
  );
}

export class IssuedTicketSearch1766500000000 implements MigrationInterface {
  name = 'IssuedTicketSearch1766500000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    if (isPostgres(queryRunner)) {
      // Each index is built by reading its whole table; the service's statement timeout
      // (DB_STATEMENT_TIMEOUT_MS) is for requests, and must not fail the migration of a large
      // box office. LOCAL: for this migration's transaction alone.
      await queryRunner.query('SET LOCAL statement_timeout = 0');
    }
    await queryRunner.query(
      'CREATE INDEX "IDX_issued_tickets_attendance" ON issued_tickets (box_office_id, event_id, ticket_type_id, status, checked_in, id)',
    );
    await queryRunner.query(
      'CREATE INDEX "IDX_check_ins_check_outs" ON check_ins (box_office_id, event_id, issued_ticket_id) WHERE quantity = -1',
    );
    if (!isPostgres(queryRunner)) {
      await createSqliteSearch(queryRunner);
      return;
    }
    await queryRunner.query('CREATE EXTENSION IF NOT EXISTS pg_trgm');
    await queryRunner.query(
      'CREATE INDEX "IDX_issued_tickets_search_name" ON issued_tickets USING gin (search_fold(full_name) gin_trgm_ops)',
    );
    await queryRunner.query(
      'CREATE INDEX "IDX_issued_tickets_search_barcode" ON issued_tickets USING gin (search_fold(barcode) gin_trgm_ops)',
    );
    await queryRunner.query(
      'CREATE INDEX "IDX_orders_search_email" ON orders USING gin (search_fold(buyer_email) gin_trgm_ops)',
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    if (isPostgres(queryRunner)) {
      await queryRunner.query('DROP INDEX "IDX_orders_search_email"');
      await queryRunner.query('DROP INDEX "IDX_issued_tickets_search_barcode"');
      await queryRunner.query('DROP INDEX "IDX_issued_tickets_search_name"');
      await queryRunner.query('DROP EXTENSION IF EXISTS pg_trgm');
    } else {
      for (const trigger of SQLITE_TRIGGERS) {
        await queryRunner.query(`DROP TRIGGER "${trigger}"`);
      }
      await queryRunner.query('DROP TABLE issued_ticket_search');
    }
    await queryRunner.query('DROP INDEX "IDX_check_ins_check_outs"');
    await queryRunner.query('DROP INDEX "IDX_issued_tickets_attendance"');
  }
}
