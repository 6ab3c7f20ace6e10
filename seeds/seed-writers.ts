import type Database from 'better-sqlite3';
import type { DataSource, QueryRunner } from 'typeorm';
import {
  BOX_OFFICES_WITH_DELTAS,
  COUNT_DELTA_TABLES,
  FOLD_BOX_OFFICE,
} from '../src/database/pending-counts';
import { postgresDialect } from '../src/database/sql-dialect';
import {
  ATTENDANCE_COUNTS,
  ROLLUP_TABLES,
  SHARED_ID_TABLES,
} from '../src/database/trigger-kept-tables';
import { SEARCH_BY_EVENT_INSERT_TRIGGER } from '../src/database/migrations/1766850000000-TicketSearchByEvent';
import { IMPORT_MODE } from '../src/sync/import-mode';

/**
 * Bulk row writers for the seeder, one per database. A million orders come with some four million
 * child rows: TypeORM entities and repositories would spend many minutes building and diffing
 * objects, so rows are plain column → value records written with multi-row INSERTs through the
 * driver. Ids are assigned by the generator, so children need no lookups of their parents' ids.
 */

export type Value = string | number | null;
export type Row = Record<string, Value>;

/**
 * The seeded tables and their columns, parents before children. Counters (events' orders and
 * tickets, products sold, codes spent, discounts used) are not among them: the database's
 * triggers keep those as the rows are inserted.
 */
export const SEED_TABLES = {
  box_offices: ['id', 'name', 'created_at'],
  api_keys: [
    'id',
    'box_office_id',
    'name',
    'key_hash',
    'key_prefix',
    'scope',
    'created_at',
    'revoked_at',
  ],
  event_series: [
    'id',
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
  ],
  event_series_ticket_groups: [
    'id',
    'event_series_id',
    'name',
    'max_per_order',
    'sort_order',
  ],
  event_series_ticket_types: [
    'id',
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
  event_series_payment_methods: [
    'id',
    'event_series_id',
    'type',
    'payment_method_id',
    'external_id',
    'name',
    'instructions',
  ],
  events: [
    'id',
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
  ],
  ticket_groups: ['id', 'event_id', 'name', 'max_per_order', 'sort_order'],
  ticket_types: [
    'id',
    'event_id',
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
  event_payment_methods: [
    'id',
    'event_id',
    'type',
    'payment_method_id',
    'external_id',
    'name',
    'instructions',
  ],
  products: [
    'id',
    'box_office_id',
    'name',
    'description',
    'price',
    'currency',
    'status',
    'fulfilment_type',
    'created_at',
    'updated_at',
  ],
  product_event_series: ['id', 'product_id', 'event_series_id'],
  vouchers: [
    'id',
    'box_office_id',
    'name',
    'type',
    'value',
    'currency',
    'expires_at',
    'partial_redemption',
    'created_at',
  ],
  voucher_event_series: ['id', 'voucher_id', 'event_series_id'],
  voucher_codes: ['id', 'box_office_id', 'voucher_id', 'code', 'created_at'],
  discounts: [
    'id',
    'box_office_id',
    'name',
    'code',
    'type',
    'face_value_amount',
    'booking_fee_amount',
    'created_at',
  ],
  discount_ticket_types: ['id', 'discount_id', 'ticket_type_id'],
  discount_products: ['id', 'discount_id', 'product_id'],
  orders: [
    'id',
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
    'updated_at',
    'buyer_name',
    'buyer_first_name',
    'buyer_last_name',
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
  ],
  line_items: [
    'id',
    'order_id',
    'type',
    'description',
    'quantity',
    'value',
    'booking_fee',
    'total',
    'ticket_type_id',
    'product_id',
    'voucher_code_id',
    'discount_id',
  ],
  issued_tickets: [
    'id',
    'box_office_id',
    'order_id',
    'event_id',
    'ticket_type_id',
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
    'updated_at',
    'voided_at',
  ],
  check_ins: [
    'id',
    'box_office_id',
    'issued_ticket_id',
    'event_id',
    'event_series_id',
    'quantity',
    'check_in_at',
    'created_at',
  ],
  waitlist_signups: [
    'id',
    'box_office_id',
    'event_series_id',
    'event_id',
    'email',
    'created_at',
  ],
} as const;

export type SeedTable = keyof typeof SEED_TABLES;

/** Columns the seeder sets on rows it wrote earlier, found by id. */
export const SEED_UPDATES = {
  ticket_types: ['quantity_total', 'status'],
} as const;

export type SeedUpdateTable = keyof typeof SEED_UPDATES;
const TABLE_NAMES = Object.keys(SEED_TABLES) as SeedTable[];
const CHILDREN_FIRST = [...TABLE_NAMES].reverse();

/** Tables whose ids are one space (migration TicketTypeIdsApart). */
const SHARED_IDS: readonly SeedTable[] = SHARED_ID_TABLES;

/** Rows for several tables, written in the order given (parents first). */
export type RowBatch = readonly (readonly [SeedTable, readonly Row[]])[];

export interface SeedWriter {
  /** Whether the database holds no box office, read inside the seed's transaction. */
  isEmpty(): Promise<boolean>;
  /** Deletes every row of the seeded tables and restarts their id sequences. */
  clear(): Promise<void>;
  insert(batch: RowBatch): Promise<void>;
  /** Sets the SEED_UPDATES columns of the rows with these ids. */
  update(table: SeedUpdateTable, rows: readonly Row[]): Promise<void>;
}

/**
 * Every table's statistics, gathered at the end of a seed (docs/DESIGN.md, "Upgrading"; measured in
 * bench/notes/2026-11-27-statistics-after-seeding.md).
 */
const ANALYZE = 'ANALYZE';

/** A row when the database holds any box office (seeded data), none when it is empty. */
export const ANY_BOX_OFFICE = 'SELECT 1 FROM box_offices LIMIT 1';

/**
 * Runs `work` with a writer inside one transaction: a seed either lands whole or not at all (a
 * failed `--reset` leaves the old data in place). On commit the database's own id generation is
 * moved past the ids the seeder assigned. Seeds of one database take turns, whole transaction
 * after whole transaction, so what `work` reads (isEmpty) stays true until it commits: on
 * PostgreSQL under an advisory lock, on SQLite under its write lock (BEGIN IMMEDIATE), with
 * calls on one connection queued in this process.
 */
export async function withSeedWriter<T>(
  dataSource: DataSource,
  work: (writer: SeedWriter) => Promise<T>,
): Promise<T> {
  const type = dataSource.options.type;
  if (type === 'better-sqlite3') {
    const driver = dataSource.driver as unknown as {
      databaseConnection: Database.Database;
    };
    const db = driver.databaseConnection;
    return inTurn(db, () => new SqliteSeedWriter(db).run(work));
  }
  if (type === 'postgres') {
    const runner = dataSource.createQueryRunner();
    await runner.connect();
    try {
      return await new PostgresSeedWriter(runner).run(work);
    } finally {
      await runner.release();
    }
  }
  throw new Error(`The seeder does not support ${type} databases`);
}

/**
 * The seed in progress on each better-sqlite3 connection. A connection holds one transaction at a
 * time, so a second seed on it waits for the first to finish (the write lock only keeps other
 * connections out).
 */
const sqliteSeeds = new WeakMap<Database.Database, Promise<unknown>>();

function inTurn<T>(db: Database.Database, run: () => Promise<T>): Promise<T> {
  const result = (sqliteSeeds.get(db) ?? Promise.resolve()).then(run);
  sqliteSeeds.set(
    db,
    result.catch(() => undefined),
  );
  return result;
}

/** The tables that take millions of rows; on SQLite their indexes are built after the load. */
const BULK_TABLES: readonly SeedTable[] = [
  'orders',
  'line_items',
  'issued_tickets',
];
/** FTS5's merge settings (https://sqlite.org/fts5.html#the_automerge_configuration_option). */
const FTS5_DEFAULT_AUTOMERGE = 4;
const FTS5_DEFAULT_CRISISMERGE = 16;
// The most segments FTS5 lets a level hold before it must merge them (FTS5_MAX_SEGMENT − 1).
const FTS5_MAX_CRISISMERGE = 1_999;
/** The seeding connection's page cache: 1 GiB, as a negative cache_size counts KiB. */
const SEED_CACHE_KIB = -1_048_576;
/** Rows per multi-row INSERT (SQLite allows 32,766 parameters; orders have 27 columns). */
const SQLITE_ROWS_PER_INSERT = 50;

/**
 * The tickets' search tables' insert triggers (SQLite's FTS5 tables of migrations
 * IssuedTicketSearch, kept for the previous release, and TicketSearchByEvent), which the seeder
 * drops for a bulk load and replaces by one fill each.
 */
const SEARCH_INSERT_TRIGGERS = [
  'trg_issued_tickets_search_insert',
  SEARCH_BY_EVENT_INSERT_TRIGGER,
];

interface SearchInsertTrigger {
  table: string;
  /** The trigger's definition, to create it again. */
  sql: string;
  /** Every ticket's row, in key order. */
  fill: string;
}

/**
 * A search insert trigger's fill: its one `INSERT INTO table (columns) VALUES (expressions)` of
 * NEW, as `INSERT … SELECT` of every ticket in the order of its first column, the FTS5 key (rows
 * given in key order build one segment). Derived from the trigger so that the fill writes exactly
 * what the trigger would; a trigger of another shape fails the seed rather than being guessed.
 */
export function searchFillOf(sql: string): SearchInsertTrigger {
  const match =
    /\bBEGIN\s+INSERT INTO (\w+) (\([^)]*\)) VALUES \(([\s\S]*)\);\s*END$/.exec(
      sql.trim(),
    );
  if (match === null) {
    throw new Error(`not a search insert trigger the seeder can fill: ${sql}`);
  }
  const [, table, columns, values] = match;
  return {
    table,
    sql,
    fill: `INSERT INTO ${table} ${columns} SELECT ${values.replace(/\bNEW\./g, 't.')} FROM issued_tickets t ORDER BY 1`,
  };
}

/**
 * better-sqlite3 is synchronous and in-process. The whole seed is one transaction of 50-row
 * INSERTs, and the eight secondary indexes are dropped for the load and recreated from their
 * stored definitions afterwards (one sort each): most are in random key order, and updated row by
 * row they outgrow the page cache, which made seeding slow and erratic (timings:
 * bench/notes/2026-11-26-seeding-times.md). DDL is transactional in SQLite, so a failed seed
 * rolls the indexes back with the data.
 */
class SqliteSeedWriter implements SeedWriter {
  private readonly statements = new Map<string, Database.Statement>();
  /** Dropped at the first write (a seed that finds data and stops drops none); rebuilt before commit. */
  private droppedIndexes: { name: string; sql: string }[] | null = null;
  /** The search tables' insert triggers dropped for the load, with their fills. */
  private droppedSearchTriggers: SearchInsertTrigger[] = [];

  constructor(private readonly db: Database.Database) {}

  async run<T>(work: (writer: SeedWriter) => Promise<T>): Promise<T> {
    // The whole seed is one transaction, so every page it writes stays in the WAL until the
    // commit, and a page the connection's cache (2 MiB by default) has let go is looked up
    // through the WAL's index, frame table after frame table: a 1M seed's search fills, merging
    // FTS5 segments of a 2 GB WAL, crawled (more than 20 minutes). A cache of up to 1 GiB for
    // the load, taken as pages are used, keeps what it rereads; the connection's own is put back.
    const cacheSize = this.db.pragma('cache_size', { simple: true }) as number;
    this.db.pragma(`cache_size = ${SEED_CACHE_KIB}`);
    try {
      return await this.inTransaction(work);
    } finally {
      this.db.pragma(`cache_size = ${cacheSize}`);
    }
  }

  private async inTransaction<T>(
    work: (writer: SeedWriter) => Promise<T>,
  ): Promise<T> {
    this.db.exec('BEGIN IMMEDIATE');
    try {
      // Seeded rows are history: they keep their times and make no change entries.
      this.db.exec(IMPORT_MODE.sqlite.on);
      const result = await work(this);
      this.db.exec(IMPORT_MODE.sqlite.off);
      for (const { sql } of this.droppedIndexes ?? []) this.db.exec(sql);
      for (const trigger of this.droppedSearchTriggers) {
        // Each search table's rows written in key order in one pass, as its insert trigger would
        // have written them row by row: FTS5 writes what it holds as a segment at every
        // statement of a trigger (a savepoint) and whenever a key comes below the last, and
        // merged those segments ever more slowly as the table grew (a 1M seed slowed from 65 s
        // for its first 100,000 orders to 580 s for its third). Emptied first: updates kept rows
        // of their own.
        const command = (name: string, value?: number) =>
          this.db.exec(
            `INSERT INTO ${trigger.table} (${trigger.table}${value === undefined ? '' : ', rank'}) VALUES ('${name}'${value === undefined ? '' : `, ${value}`})`,
          );
        command('delete-all');
        // No merging while it fills (FTS5 merged its segments level by level as they came, 1.7
        // times the work at 300,000 rows, more the more rows): merged once below.
        command('automerge', 0);
        command('crisismerge', FTS5_MAX_CRISISMERGE);
        this.db.exec(trigger.fill);
        // Written out and merged into one segment now, not at commit, so that ANALYZE below
        // sees the table's index rows; then FTS5's defaults again, for the triggers' writes.
        command('optimize');
        command('automerge', FTS5_DEFAULT_AUTOMERGE);
        command('crisismerge', FTS5_DEFAULT_CRISISMERGE);
        this.db.exec(trigger.sql);
      }
      // The planner's statistics, committed with the rows they describe (SQLite gathers none
      // by itself).
      this.db.exec(ANALYZE);
      // AUTOINCREMENT moves each sequence past explicitly inserted ids by itself.
      this.db.exec('COMMIT');
      return result;
    } catch (error) {
      if (this.db.inTransaction) this.db.exec('ROLLBACK');
      throw error;
    }
  }

  isEmpty(): Promise<boolean> {
    return Promise.resolve(this.db.prepare(ANY_BOX_OFFICE).get() === undefined);
  }

  clear(): Promise<void> {
    this.droppedIndexes ??= this.dropIndexes();
    for (const table of CHILDREN_FIRST) this.db.exec(`DELETE FROM ${table}`);
    // The rows' delete triggers brought every rollup and attendance count to zero; drop the
    // empty rows too.
    for (const table of [...ROLLUP_TABLES, ATTENDANCE_COUNTS]) {
      this.db.exec(`DELETE FROM ${table}`);
    }
    // The feed described the data cleared. Its counters stay, so a poller's old position is
    // older than the oldest entry kept: it is told to read the lists again (410).
    this.db.exec('DELETE FROM changes');
    // AUTOINCREMENT tables keep their high-water mark here; forget it so ids restart at 1.
    const hasSequences = this.db
      .prepare(
        "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'sqlite_sequence'",
      )
      .get();
    if (hasSequences) {
      this.db
        .prepare(
          `DELETE FROM sqlite_sequence WHERE name IN (${TABLE_NAMES.map(() => '?').join(', ')})`,
        )
        .run(...TABLE_NAMES);
    }
    return Promise.resolve();
  }

  insert(batch: RowBatch): Promise<void> {
    this.droppedIndexes ??= this.dropIndexes();
    for (const [table, rows] of batch) {
      let from = 0;
      for (
        ;
        from + SQLITE_ROWS_PER_INSERT <= rows.length;
        from += SQLITE_ROWS_PER_INSERT
      ) {
        const chunk = rows.slice(from, from + SQLITE_ROWS_PER_INSERT);
        this.statement(table, chunk.length).run(flatValues(table, chunk));
      }
      // The remainder row by row, so that only two statements per table are ever prepared.
      for (; from < rows.length; from++) {
        this.statement(table, 1).run(flatValues(table, [rows[from]]));
      }
    }
    return Promise.resolve();
  }

  update(table: SeedUpdateTable, rows: readonly Row[]): Promise<void> {
    const columns = SEED_UPDATES[table];
    const statement = this.db.prepare(
      `UPDATE ${table} SET ${columns.map((c) => `${c} = ?`).join(', ')} WHERE id = ?`,
    );
    for (const row of rows) {
      statement.run(...columns.map((c) => row[c]), row.id);
    }
    return Promise.resolve();
  }

  /**
   * Drops the bulk tables' secondary indexes and returns their definitions, and drops the
   * tickets' search tables' insert triggers (their rows are written in one pass before commit).
   */
  private dropIndexes(): { name: string; sql: string }[] {
    const indexes = this.db
      .prepare(
        `SELECT name, sql FROM sqlite_master
         WHERE type = 'index' AND sql IS NOT NULL AND tbl_name IN (${BULK_TABLES.map(() => '?').join(', ')})
         ORDER BY name`,
      )
      .all(...BULK_TABLES) as { name: string; sql: string }[];
    for (const { name } of indexes) this.db.exec(`DROP INDEX "${name}"`);
    const triggers = this.db
      .prepare(
        `SELECT name, sql FROM sqlite_master
          WHERE type = 'trigger' AND name IN (${SEARCH_INSERT_TRIGGERS.map(() => '?').join(', ')})`,
      )
      .all(...SEARCH_INSERT_TRIGGERS) as { name: string; sql: string }[];
    for (const { name, sql } of triggers) {
      this.db.exec(`DROP TRIGGER "${name}"`);
      this.droppedSearchTriggers.push(searchFillOf(sql));
    }
    return indexes;
  }

  private statement(table: SeedTable, rowCount: number): Database.Statement {
    const key = `${table}:${rowCount}`;
    let statement = this.statements.get(key);
    if (!statement) {
      statement = this.db.prepare(insertSql(table, rowCount));
      this.statements.set(key, statement);
    }
    return statement;
  }
}

/** Arbitrary constant naming "seeding" among PostgreSQL advisory locks (migrate.ts has its own). */
const SEED_LOCK_KEY = 7_311_500_422;

/**
 * Each table's rows of a batch go in as one `INSERT … SELECT * FROM unnest(<one array per column>)`:
 * a parameter per column whatever the number of rows, one round trip per table and batch. It also
 * fires the statement-level triggers that keep the events' counters once per batch rather than
 * once per few hundred rows: each firing updates the events concerned, and within the seed's one
 * transaction every such update leaves a dead version of the event row that later statements must
 * step over, so their number is what makes large seeds slow.
 */
class PostgresSeedWriter implements SeedWriter {
  /** Per table, its columns' element types (`int4`, `varchar`, …) for the array parameters. */
  private readonly columnTypes = new Map<string, Map<string, string>>();
  private readonly sqlCache = new Map<string, string>();

  constructor(private readonly runner: QueryRunner) {}

  async run<T>(work: (writer: SeedWriter) => Promise<T>): Promise<T> {
    await this.runner.startTransaction();
    try {
      // Held until commit or rollback, so a concurrent seed waits here and then reads the
      // committed result. On the transaction's own connection: nothing to release separately.
      await this.runner.query('SELECT pg_advisory_xact_lock($1)', [
        SEED_LOCK_KEY,
      ]);
      // Seeded rows are history: they keep their times and make no change entries.
      await this.runner.query(IMPORT_MODE.postgres.on);
      const result = await work(this);
      await this.runner.query(IMPORT_MODE.postgres.off);
      await this.moveSequences();
      // The counts' deltas the load wrote go into their rows now, with it (nothing else holds
      // those rows while the seed lock is held): readers would add them up until the first sweep.
      const pending = (await this.runner.query(BOX_OFFICES_WITH_DELTAS)) as {
        box_office_id: number;
      }[];
      for (const { box_office_id } of pending) {
        await this.runner.query(FOLD_BOX_OFFICE, [box_office_id]);
      }
      // The planner's statistics, committed with the rows they describe: autovacuum would take
      // a while to get to a bulk load, and until then the planner guesses.
      await this.runner.query(ANALYZE);
      await this.runner.commitTransaction();
      return result;
    } catch (error) {
      await this.runner.rollbackTransaction();
      throw error;
    }
  }

  async isEmpty(): Promise<boolean> {
    const rows: unknown[] = await this.runner.query(ANY_BOX_OFFICE);
    return rows.length === 0;
  }

  async clear(): Promise<void> {
    // TRUNCATE fires no row trigger: the overview's rollups, the attendance counts and the counts'
    // pending deltas (migrations CountsWithoutHotRows, AttendanceCounts) go with the rows they
    // count (left alone, they would go on counting the data removed).
    await this.runner.query(
      `TRUNCATE TABLE ${[...CHILDREN_FIRST, ...ROLLUP_TABLES, ATTENDANCE_COUNTS, ...COUNT_DELTA_TABLES].join(', ')} RESTART IDENTITY CASCADE`,
    );
    // The feed described the data cleared. Its counters stay, so a poller's old position is
    // older than the oldest entry kept: it is told to read the lists again (410). Entries not yet
    // numbered (migration WritesWithoutHotRows) go too.
    await this.runner.query('TRUNCATE TABLE changes, change_inbox');
  }

  async insert(batch: RowBatch): Promise<void> {
    for (const [table, rows] of batch) {
      if (rows.length === 0) continue;
      const columns = SEED_TABLES[table];
      let sql = this.sqlCache.get(table);
      if (!sql) {
        const arrays = await this.arrayParameters(table, columns);
        sql = `INSERT INTO ${table} (${columns.join(', ')}) SELECT * FROM unnest(${arrays.join(', ')})`;
        this.sqlCache.set(table, sql);
      }
      await this.runner.query(sql, columnArrays(columns, rows));
    }
  }

  /** One statement for all the rows, joined to them by id, likewise from arrays. */
  async update(table: SeedUpdateTable, rows: readonly Row[]): Promise<void> {
    if (rows.length === 0) return;
    const columns = ['id', ...SEED_UPDATES[table]];
    const arrays = await this.arrayParameters(table, columns);
    const set = SEED_UPDATES[table].map((c) => `${c} = v.${c}`);
    await this.runner.query(
      `UPDATE ${table} AS t SET ${set.join(', ')}
         FROM unnest(${arrays.join(', ')}) AS v(${columns.join(', ')})
        WHERE t.id = v.id`,
      columnArrays(columns, rows),
    );
  }

  /** `$1::int4[]`, `$2::varchar[]`, …: the columns' types as the database has them. */
  private async arrayParameters(
    table: string,
    columns: readonly string[],
  ): Promise<string[]> {
    let types = this.columnTypes.get(table);
    if (!types) {
      const rows: { column_name: string; udt_name: string }[] =
        await this.runner.query(
          `SELECT column_name, udt_name FROM information_schema.columns
            WHERE table_schema = current_schema() AND table_name = $1`,
          [table],
        );
      types = new Map(rows.map((r) => [r.column_name, r.udt_name]));
      this.columnTypes.set(table, types);
    }
    return columns.map((column, i) => {
      const type = types.get(column);
      if (!type) {
        throw new Error(`The database has no column ${table}.${column}`);
      }
      return `${postgresDialect.placeholder(i + 1)}::${type}[]`;
    });
  }

  /**
   * Explicit ids leave the SERIAL sequences behind; move each to the first value it would give
   * past its table's largest id. Ticket types and templates share one id space, their sequences
   * stepping by 2 through odd and even ids (migration TicketTypeIdsApart): past both tables.
   */
  private async moveSequences(): Promise<void> {
    for (const table of TABLE_NAMES) {
      const tables = SHARED_IDS.includes(table) ? SHARED_IDS : [table];
      const largest = tables
        .map((t) => `(SELECT COALESCE(MAX(id), 0) FROM ${t})`)
        .join(', ');
      // The first start + k × increment above the largest id.
      await this.runner.query(
        `SELECT setval(s.name, s.start + (floor((GREATEST(${largest}) - s.start)::numeric / s.step)::bigint + 1) * s.step, false)
         FROM (SELECT q.seqrelid::regclass AS name, q.seqstart AS start, q.seqincrement AS step
               FROM pg_sequence q WHERE q.seqrelid = pg_get_serial_sequence('${table}', 'id')::regclass) s`,
      );
    }
  }
}

/** The rows' values as one array per column. */
function columnArrays(
  columns: readonly string[],
  rows: readonly Row[],
): Value[][] {
  return columns.map((column) => rows.map((row) => row[column]));
}

/** `INSERT INTO table (columns) VALUES (?, …), (?, …)` for `rowCount` rows. */
function insertSql(table: SeedTable, rowCount: number): string {
  const columns = SEED_TABLES[table];
  const tuple = `(${columns.map(() => '?').join(', ')})`;
  const tuples = Array.from({ length: rowCount }, () => tuple);
  return `INSERT INTO ${table} (${columns.join(', ')}) VALUES ${tuples.join(', ')}`;
}

/** The rows' values, row after row, in the table's column order. */
function flatValues(table: SeedTable, rows: readonly Row[]): Value[] {
  const columns = SEED_TABLES[table];
  const values: Value[] = [];
  for (const row of rows) {
    for (const column of columns) values.push(row[column]);
  }
  return values;
}
