import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The door's look-up keyed by event (docs/API.md, "Searching issued tickets"; docs/OPERATIONS.md,
 * "Upgrade notes"; bench/notes/2026-12-07-search-keyed-by-scope.md measures it).
 *
 * SQLite: issued_ticket_search (migration IssuedTicketSearch) keys each ticket's row by the
 * ticket's id, so a search within one event matched every event's tickets, of every box office,
 * before the join kept the event's. issued_ticket_search_by_event holds the same texts keyed by
 * `event_id * 2^31 + id` (ids are below 2^31 on both databases): an event's rows are one range of
 * rowids, and FTS5 reads a range of each trigram's list by its doclist index, so a search within
 * an event reads that event's matches only. The ticket's id is the key modulo 2^31. The same
 * triggers keep it, folding with `search_fold` as before.
 *
 * issued_ticket_search and its triggers stay in this release: during a rolling deploy the
 * previous release's instances still search through it (its writers need nothing of either: the
 * triggers are the database's). A later release drops them.
 *
 * PostgreSQL: the folded holder's name and buyer's e-mail get trigram indexes led by the event
 * (btree_gin, PostgreSQL's contrib, indexes the event's id in a GIN), so a search within an event
 * reads the entries of that event's tickets among the text's, where it read the whole box
 * office's matches and ANDed them with every ticket of the event. Built CONCURRENTLY: the
 * tables take writes while the indexes are built, so this migration runs outside a transaction.
 * The indexes of migration IssuedTicketSearch stay: a search across the box office reads them.
 */

/** 2^31: ids are PostgreSQL integers on both databases, below it. */
export const EVENT_KEY_SCALE = 2_147_483_648;

const searchKey = (row: string) =>
  `${row}.event_id * ${EVENT_KEY_SCALE} + ${row}.id`;

/**
 * A ticket's row of issued_ticket_search_by_event, from `row` (NEW or a table alias) and its
 * order's e-mail (a ticket without an order has none here).
 */
const searchRow = (row: string, email: string) =>
  `${searchKey(row)}, search_fold(coalesce(${row}.full_name, '')), search_fold(coalesce(${email}, '')), search_fold(${row}.barcode)`;

/** The e-mail of the order of the ticket `row`. */
const orderEmail = (row: string) =>
  `(SELECT o.buyer_email FROM orders o WHERE o.id = ${row}.order_id)`;

const INSERT_SEARCH =
  'INSERT INTO issued_ticket_search_by_event (rowid, name, email, barcode)';

/**
 * Every ticket's row, in key order: FTS5 writes what it holds as a new segment whenever a key
 * comes below the last (and at each commit), so rows given in key order build one segment.
 * The seeder fills the table with it after a bulk load (seeds/seed-writers.ts).
 */
export const FILL_SEARCH_BY_EVENT = `${INSERT_SEARCH} SELECT ${searchRow('t', orderEmail('t'))} FROM issued_tickets t ORDER BY t.event_id, t.id`;

/** The trigger that adds a new ticket's row (the seeder drops it for a bulk load). */
export const SEARCH_BY_EVENT_INSERT_TRIGGER =
  'trg_issued_tickets_search_by_event_insert';

const TRIGGERS = [
  'trg_issued_tickets_search_by_event_insert',
  'trg_issued_tickets_search_by_event_update',
  'trg_issued_tickets_search_by_event_delete',
  'trg_orders_search_by_event_email',
] as const;

/** PostgreSQL's indexes: name, table, the folded column. */
const POSTGRES_INDEXES = [
  ['IDX_issued_tickets_search_event_name', 'issued_tickets', 'full_name'],
  ['IDX_orders_search_event_email', 'orders', 'buyer_email'],
] as const;

const isPostgres = (queryRunner: QueryRunner) =>
  queryRunner.connection.options.type === 'postgres';

async function createPostgresIndexes(queryRunner: QueryRunner): Promise<void> {
  await queryRunner.query('CREATE EXTENSION IF NOT EXISTS btree_gin');
  // Each index reads its whole table; the service's statement timeout (DB_STATEMENT_TIMEOUT_MS)
  // is for requests. For this session until the migration ends (no transaction to be LOCAL to).
  await queryRunner.query('SET statement_timeout = 0');
  try {
    for (const [index, table, column] of POSTGRES_INDEXES) {
      // A build that failed half-way (an interrupted deploy) leaves an invalid index behind,
      // which IF NOT EXISTS would keep: dropped first, then built again.
      const [invalid] = (await queryRunner.query(
        `SELECT 1 FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid WHERE c.relname = $1 AND NOT i.indisvalid`,
        [index],
      )) as unknown[];
      if (invalid !== undefined) {
        await queryRunner.query(`DROP INDEX CONCURRENTLY "${index}"`);
      }
      await queryRunner.query(
        `CREATE INDEX CONCURRENTLY IF NOT EXISTS "${index}" ON ${table} USING gin (event_id, search_fold(${column}) gin_trgm_ops)`,
      );
    }
  } finally {
    await queryRunner.query('RESET statement_timeout');
  }
}

export class TicketSearchByEvent1766850000000 implements MigrationInterface {
  name = 'TicketSearchByEvent1766850000000';

  /** CREATE INDEX CONCURRENTLY cannot run in a transaction (SQLite's run is one regardless). */
  transaction = false;

  public async up(queryRunner: QueryRunner): Promise<void> {
    if (isPostgres(queryRunner)) {
      await createPostgresIndexes(queryRunner);
      return;
    }
    await queryRunner.query(
      `CREATE VIRTUAL TABLE issued_ticket_search_by_event USING fts5(name, email, barcode, tokenize = 'trigram', content = '', contentless_delete = 1)`,
    );
    await queryRunner.query(FILL_SEARCH_BY_EVENT);
    await queryRunner.query(
      `INSERT INTO issued_ticket_search_by_event (issued_ticket_search_by_event) VALUES ('optimize')`,
    );
    await queryRunner.query(
      `CREATE TRIGGER trg_issued_tickets_search_by_event_insert AFTER INSERT ON issued_tickets
      BEGIN ${INSERT_SEARCH} VALUES (${searchRow('NEW', orderEmail('NEW'))}); END`,
    );
    await queryRunner.query(
      `CREATE TRIGGER trg_issued_tickets_search_by_event_update AFTER UPDATE OF full_name, barcode, order_id, event_id ON issued_tickets
      BEGIN DELETE FROM issued_ticket_search_by_event WHERE rowid = ${searchKey('OLD')};
      ${INSERT_SEARCH} VALUES (${searchRow('NEW', orderEmail('NEW'))}); END`,
    );
    await queryRunner.query(
      `CREATE TRIGGER trg_issued_tickets_search_by_event_delete AFTER DELETE ON issued_tickets
      BEGIN DELETE FROM issued_ticket_search_by_event WHERE rowid = ${searchKey('OLD')}; END`,
    );
    await queryRunner.query(
      `CREATE TRIGGER trg_orders_search_by_event_email AFTER UPDATE OF buyer_email ON orders
      BEGIN DELETE FROM issued_ticket_search_by_event WHERE rowid IN (SELECT ${searchKey('t')} FROM issued_tickets t WHERE t.order_id = NEW.id);
      ${INSERT_SEARCH} SELECT ${searchRow('t', 'NEW.buyer_email')} FROM issued_tickets t WHERE t.order_id = NEW.id; END`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    if (isPostgres(queryRunner)) {
      // Not CONCURRENTLY: TypeORM reverts a migration in a transaction whatever it declares.
      for (const [index] of POSTGRES_INDEXES) {
        await queryRunner.query(`DROP INDEX IF EXISTS "${index}"`);
      }
      await queryRunner.query('DROP EXTENSION IF EXISTS btree_gin');
      return;
    }
    for (const trigger of TRIGGERS) {
      await queryRunner.query(`DROP TRIGGER "${trigger}"`);
    }
    await queryRunner.query('DROP TABLE issued_ticket_search_by_event');
  }
}
