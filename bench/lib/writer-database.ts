import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import Database from 'better-sqlite3';
import { Client } from 'pg';
import { DataSource, type QueryRunner } from 'typeorm';
import { parseDatabaseUrl } from '../../src/config/app-config';
import { buildDataSourceOptions } from '../../src/database/data-source-options';
import { runMigrations } from '../../src/database/migrate';
import { WritesWithoutHotRows1766800000000 } from '../../src/database/migrations/1766800000000-WritesWithoutHotRows';
import { CountsWithoutHotRows1766900000000 } from '../../src/database/migrations/1766900000000-CountsWithoutHotRows';
import { OneLockOrder1766910000000 } from '../../src/database/migrations/1766910000000-OneLockOrder';
import { countsReadIn } from '../../src/database/pending-counts';
import { ROLLUP_TABLES } from '../../src/database/trigger-kept-tables';
import { syncHorizonStatement } from '../../src/sync/sync-horizon';
import {
  SWEEP_MS,
  sweepChanges,
  sweepCounts,
} from '../../src/changes/change-assigner';
import type { SalesTarget, Written } from './sales-writer';

/**
 * The scratch databases of `npm run bench:writer` (bench/writer-cost.ts): migrated, with box
 * offices to sell from, optionally changed for a what-if run; and what the bench reads from them
 * while and after the writers write.
 */

export type WriterDatabase = 'sqlite' | 'postgres';

/** SYNC_LAG_S's default: the SQLite horizon's distance behind the clock. */
const SQLITE_SYNC_LAG_S = 2;

/**
 * What-if changes to the schema as the migrations leave it, made only in the bench's scratch
 * databases, to see which shared row holds writers back. A variant is `as-migrated` or parts
 * joined with `+`.
 */
export const VARIANT_PARTS = {
  /** Every sync trigger dropped: no stamps, no change entries, no counter row (2026-11-25's contrast). */
  'no-feed': { postgres: true, sqlite: true },
  /** Every trigger that keeps a derived count dropped: the overview's hour and day rollups, the event's and the ticket type's counters. */
  'no-rollups': { postgres: true, sqlite: true },
  /** PostgreSQL: record_change numbers entries from one sequence instead of the box office's counter row. */
  'sequence-ids': { postgres: true, sqlite: false },
  /**
   * PostgreSQL: a prototype of applying at commit (bench/notes/2026-11-27-writer-concurrency.md):
   * the rollups, the event's and ticket type's counters and the entries' numbering run as deferred
   * constraint triggers, so a transaction holds the shared rows from its commit's start to its
   * end instead of from its first statement. For measuring, not a design to ship as it is.
   */
  'at-commit': { postgres: true, sqlite: false },
  /**
   * PostgreSQL: the design before migration WritesWithoutHotRows, that migration reverted: each
   * writing transaction numbers its entries from the box office's counter row, held until it
   * ends. The old design beside the new one in one run.
   */
  'counter-row': { postgres: true, sqlite: false },
  /**
   * PostgreSQL: the counts before migrations CountsWithoutHotRows and OneLockOrder, both
   * reverted: every sale updates its event's, its ticket type's and the hour's and day's rows,
   * held until it commits. The old counts beside the deltas in one run (entries are numbered
   * after the commit in both).
   */
  'hot-counters': { postgres: true, sqlite: false },
} as const;
export type VariantPart = keyof typeof VARIANT_PARTS;

export function variantParts(variant: string): VariantPart[] {
  if (variant === 'as-migrated') return [];
  return variant.split('+').map((part) => {
    if (!(part in VARIANT_PARTS)) {
      throw new Error(
        `unknown variant part ${JSON.stringify(part)} (as-migrated, or ${Object.keys(VARIANT_PARTS).join(', ')} joined with +)`,
      );
    }
    return part as VariantPart;
  });
}

export const variantRuns = (variant: string, db: WriterDatabase) =>
  variantParts(variant).every((part) => VARIANT_PARTS[part][db]);

const DERIVED_COUNTS = [
  ...ROLLUP_TABLES,
  'completed_orders_count',
  'completed_revenue',
  'valid_tickets_count',
  'quantity_issued',
];

/** A plain connection for setup and observation: text with the database's own placeholders. */
export interface Reader {
  readonly db: WriterDatabase;
  all(text: string, params?: unknown[]): Promise<Record<string, unknown>[]>;
  close(): Promise<void>;
}

export async function openReader(url: string): Promise<Reader> {
  const target = parseDatabaseUrl(url);
  if (target.type === 'sqlite') {
    const db = new Database(target.database, { fileMustExist: true });
    db.pragma('busy_timeout = 5000');
    return {
      db: 'sqlite',
      all: (text, params = []) => {
        const statement = db.prepare(text);
        return Promise.resolve(
          statement.reader
            ? (statement.all(...params) as Record<string, unknown>[])
            : (statement.run(...params), []),
        );
      },
      close: () => Promise.resolve(void db.close()),
    };
  }
  const client = new Client({ connectionString: target.url });
  client.on('error', () => undefined);
  await client.connect();
  return {
    db: 'postgres',
    all: async (text, params = []) => (await client.query(text, params)).rows,
    close: () => client.end(),
  };
}

export interface ScratchDatabase {
  db: WriterDatabase;
  variant: string;
  url: string;
  /** Box office i + 1's event and ticket type. */
  targets: SalesTarget[];
  drop(): Promise<void>;
}

let made = 0;

/** A fresh database, migrated, changed as `variant` says, with `offices` box offices to sell from. */
export async function scratchDatabase(
  db: WriterDatabase,
  variant: string,
  offices: number,
  server: string,
): Promise<ScratchDatabase> {
  made += 1;
  let url: string;
  let drop: () => Promise<void>;
  if (db === 'sqlite') {
    const dir = mkdtempSync(join(tmpdir(), 'writer-cost-'));
    url = `sqlite:${join(dir, 'db.sqlite')}`;
    drop = () => Promise.resolve(rmSync(dir, { recursive: true, force: true }));
  } else {
    const name = `writer_cost_${process.pid}_${made}`;
    await adminQuery(server, `CREATE DATABASE ${name}`);
    const location = new URL(server);
    location.pathname = `/${name}`;
    url = location.toString();
    drop = () =>
      adminQuery(server, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  }
  try {
    const source = new DataSource(
      buildDataSourceOptions(parseDatabaseUrl(url)),
    );
    await source.initialize();
    try {
      await runMigrations(source);
    } finally {
      await source.destroy();
    }
    const reader = await openReader(url);
    try {
      const targets = await addBoxOffices(reader, offices);
      for (const part of variantParts(variant)) await applyPart(reader, part);
      await reader.all('ANALYZE');
      return { db, variant, url, targets, drop };
    } finally {
      await reader.close();
    }
  } catch (error) {
    await drop();
    throw error;
  }
}

async function adminQuery(server: string, text: string) {
  const admin = new Client({ connectionString: server });
  await admin.connect();
  try {
    await admin.query(text);
  } finally {
    await admin.end();
  }
}

async function addBoxOffices(
  reader: Reader,
  offices: number,
): Promise<SalesTarget[]> {
  const p = (n: number) => (reader.db === 'postgres' ? `$${n}` : '?');
  await reader.all(
    'CREATE TABLE bench_counters (office integer PRIMARY KEY, n bigint NOT NULL DEFAULT 0)',
  );
  const targets: SalesTarget[] = [];
  for (let office = 1; office <= offices; office++) {
    await reader.all(
      `INSERT INTO box_offices (id, name, created_at) VALUES (${p(1)}, ${p(2)}, 1700000000)`,
      [office, `Bench ${office}`],
    );
    const [event] = await reader.all(
      `INSERT INTO events (box_office_id, name, start_at, end_at, timezone)
       VALUES (${p(1)}, 'On sale', 1900000000, 1900003600, 'Europe/London') RETURNING id`,
      [office],
    );
    const [type] = await reader.all(
      `INSERT INTO ticket_types (event_id, name, price, min_per_order, max_per_order, status,
         type, sort_order, quantity_total)
       VALUES (${p(1)}, 'General Admission', 2500, 1, 10, 'available', 'paid', 1, 1000000000)
       RETURNING id`,
      [Number(event.id)],
    );
    await reader.all(`INSERT INTO bench_counters (office) VALUES (${p(1)})`, [
      office,
    ]);
    targets.push({
      office,
      event: Number(event.id),
      ticketType: Number(type.id),
    });
  }
  return targets;
}

async function applyPart(reader: Reader, part: VariantPart) {
  if (!VARIANT_PARTS[part][reader.db])
    throw new Error(`${part} is a PostgreSQL variant`);
  if (part === 'at-commit') {
    await applyAtCommit(reader);
    return;
  }
  if (part === 'hot-counters') {
    // The migrations' own downs, latest first, through a query runner that is only the reader.
    const runner = {
      connection: { options: { type: 'postgres' } },
      query: (text: string) => reader.all(text),
    } as unknown as QueryRunner;
    // In one transaction, as migrations run (the counts' down locks tables).
    await reader.all('BEGIN');
    await new OneLockOrder1766910000000().down(runner);
    await new CountsWithoutHotRows1766900000000().down(runner);
    await reader.all('COMMIT');
    return;
  }
  if (part === 'counter-row') {
    // The migration's own down, through a query runner that is only the reader.
    await new WritesWithoutHotRows1766800000000().down({
      connection: { options: { type: 'postgres' } },
      query: (text: string) => reader.all(text),
    } as unknown as QueryRunner);
    return;
  }
  if (part === 'sequence-ids') {
    // Past the entries made while the box offices were added.
    await reader.all(
      `CREATE SEQUENCE bench_change_ids START WITH ${await nextEntryId(reader)}`,
    );
    await reader.all(`CREATE OR REPLACE FUNCTION record_change(office integer, kind text, resource integer)
      RETURNS void LANGUAGE sql AS $$
        INSERT INTO changes (box_office_id, id, type, resource_id, created_at)
        VALUES (office, nextval('bench_change_ids'), kind, resource, sync_stamp(office))
      $$`);
    return;
  }
  const marks = part === 'no-feed' ? ['_sync_'] : DERIVED_COUNTS;
  const triggers =
    reader.db === 'postgres'
      ? await reader.all(`SELECT t.tgname AS name, c.relname AS tbl FROM pg_trigger t
           JOIN pg_class c ON c.oid = t.tgrelid WHERE NOT t.tgisinternal`)
      : await reader.all(
          `SELECT name, tbl_name AS tbl FROM sqlite_master WHERE type = 'trigger'`,
        );
  for (const { name, tbl } of triggers) {
    if (!marks.some((mark) => String(name).includes(mark))) continue;
    await reader.all(
      reader.db === 'postgres'
        ? `DROP TRIGGER "${String(name)}" ON "${String(tbl)}"`
        : `DROP TRIGGER "${String(name)}"`,
    );
  }
}

async function nextEntryId(reader: Reader) {
  const [row] = await reader.all(
    'SELECT coalesce(max(id), 0) + 1 AS next FROM changes',
  );
  return Number(row.next);
}

async function applyAtCommit(reader: Reader) {
  // The hour and day rollups: the same row triggers, deferred to the commit.
  const rowTriggers =
    await reader.all(`SELECT t.tgname AS name, c.relname AS tbl,
      pg_get_triggerdef(t.oid) AS def FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid
     WHERE NOT t.tgisinternal AND (t.tgtype & 1) = 1`);
  for (const { name, tbl, def } of rowTriggers) {
    if (!ROLLUP_TABLES.some((table) => String(name).includes(table))) continue;
    await reader.all(`DROP TRIGGER "${String(name)}" ON "${String(tbl)}"`);
    await reader.all(
      String(def)
        .replace('CREATE TRIGGER', 'CREATE CONSTRAINT TRIGGER')
        .replace(
          ' FOR EACH ROW',
          ' DEFERRABLE INITIALLY DEFERRED FOR EACH ROW',
        ),
    );
  }
  // The event's and ticket type's counters are statement triggers (transition tables), which
  // cannot be deferred: row triggers doing the same, deferred.
  const statementTriggers =
    await reader.all(`SELECT t.tgname AS name, c.relname AS tbl
      FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid
     WHERE NOT t.tgisinternal AND (t.tgtype & 1) = 0`);
  for (const { name, tbl } of statementTriggers) {
    if (!DERIVED_COUNTS.some((mark) => String(name).includes(mark))) continue;
    await reader.all(`DROP TRIGGER "${String(name)}" ON "${String(tbl)}"`);
  }
  await reader.all(`CREATE FUNCTION bench_order_counts() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF TG_OP <> 'INSERT' AND OLD.status = 'completed' THEN
        UPDATE events SET completed_orders_count = completed_orders_count - 1,
          completed_revenue = completed_revenue - (OLD.total - OLD.refund_amount)
         WHERE id = OLD.event_id;
      END IF;
      IF TG_OP <> 'DELETE' AND NEW.status = 'completed' THEN
        UPDATE events SET completed_orders_count = completed_orders_count + 1,
          completed_revenue = completed_revenue + (NEW.total - NEW.refund_amount)
         WHERE id = NEW.event_id;
      END IF;
      RETURN NULL;
    END $$`);
  await reader.all(`CREATE FUNCTION bench_ticket_counts() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF TG_OP <> 'INSERT' AND OLD.status = 'valid' THEN
        UPDATE events SET valid_tickets_count = valid_tickets_count - 1 WHERE id = OLD.event_id;
        UPDATE ticket_types SET quantity_issued = quantity_issued - 1 WHERE id = OLD.ticket_type_id;
      END IF;
      IF TG_OP <> 'DELETE' AND NEW.status = 'valid' THEN
        UPDATE events SET valid_tickets_count = valid_tickets_count + 1 WHERE id = NEW.event_id;
        UPDATE ticket_types SET quantity_issued = quantity_issued + 1 WHERE id = NEW.ticket_type_id;
      END IF;
      RETURN NULL;
    END $$`);
  // Deferred row triggers on a counted table: its rows entering, leaving or changing within the
  // counted status.
  const counted = async (
    table: string,
    fn: string,
    status: string,
    columns: string[],
  ) => {
    const row = (name: string) => columns.map((c) => `${name}.${c}`).join(', ');
    const events: [string, string][] = [
      ['INSERT', `NEW.status = '${status}'`],
      ['DELETE', `OLD.status = '${status}'`],
      [
        `UPDATE OF ${columns.join(', ')}`,
        `(OLD.status = '${status}' OR NEW.status = '${status}')
           AND (${row('OLD')}) IS DISTINCT FROM (${row('NEW')})`,
      ],
    ];
    for (const [event, when] of events) {
      await reader.all(`CREATE CONSTRAINT TRIGGER ${fn}_${event.split(' ')[0].toLowerCase()}
        AFTER ${event} ON ${table} DEFERRABLE INITIALLY DEFERRED
        FOR EACH ROW WHEN (${when}) EXECUTE FUNCTION ${fn}()`);
    }
  };
  await counted('orders', 'bench_order_counts', 'completed', [
    'status',
    'total',
    'refund_amount',
    'event_id',
  ]);
  await counted('issued_tickets', 'bench_ticket_counts', 'valid', [
    'status',
    'event_id',
    'ticket_type_id',
  ]);
  // Entries get a provisional negative id (invisible to readers until the commit, and numbered
  // by then); at the commit the transaction's last entry of a box office numbers all of them
  // from the counter row: every deferred effect queued before it has run, so the counter row is
  // the last shared row it takes.
  await reader.all('CREATE SEQUENCE bench_provisional_ids');
  await reader.all(`CREATE OR REPLACE FUNCTION record_change(office integer, kind text, resource integer)
    RETURNS void LANGUAGE sql AS $$
      INSERT INTO changes (box_office_id, id, type, resource_id, created_at)
      VALUES (office, -nextval('bench_provisional_ids'), kind, resource, sync_stamp(office))
    $$`);
  await reader.all(`CREATE FUNCTION bench_number_changes() RETURNS trigger LANGUAGE plpgsql AS $$
    DECLARE
      n bigint;
      top bigint;
    BEGIN
      IF NEW.id >= 0 OR EXISTS (SELECT 1 FROM changes
                                 WHERE box_office_id = NEW.box_office_id AND id < NEW.id) THEN
        RETURN NULL;
      END IF;
      SELECT count(*) INTO n FROM changes WHERE box_office_id = NEW.box_office_id AND id < 0;
      INSERT INTO change_heads AS h (box_office_id, last_id) VALUES (NEW.box_office_id, n)
        ON CONFLICT (box_office_id) DO UPDATE SET last_id = h.last_id + n
        RETURNING h.last_id INTO top;
      UPDATE changes c SET id = top - n + p.position
        FROM (SELECT id, row_number() OVER (ORDER BY id DESC) AS position FROM changes
               WHERE box_office_id = NEW.box_office_id AND id < 0) p
       WHERE c.box_office_id = NEW.box_office_id AND c.id = p.id;
      RETURN NULL;
    END $$`);
  await reader.all(`CREATE CONSTRAINT TRIGGER bench_number_changes AFTER INSERT ON changes
    DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION bench_number_changes()`);
}

/** Change entries per box office and type, and each box office's head and id range. */
export interface FeedCensus {
  counts: Map<string, number>;
  /** Box offices whose ids are not exactly 1..head. */
  holes: number[];
}

export async function feedCensus(reader: Reader): Promise<FeedCensus> {
  const counts = new Map<string, number>();
  for (const row of await reader.all(
    'SELECT box_office_id, type, count(*) AS n FROM changes GROUP BY box_office_id, type',
  )) {
    counts.set(
      `${Number(row.box_office_id)} ${String(row.type)}`,
      Number(row.n),
    );
  }
  const holes = (
    await reader.all(`SELECT h.box_office_id FROM change_heads h
        LEFT JOIN (SELECT box_office_id, count(*) AS n, min(id) AS low, max(id) AS high
                     FROM changes GROUP BY box_office_id) c ON c.box_office_id = h.box_office_id
       WHERE c.n IS NULL OR c.n <> h.last_id OR c.low <> 1 OR c.high <> h.last_id`)
  ).map((row) => Number(row.box_office_id));
  return { counts, holes };
}

/**
 * What the entries written during a run should be, from what the writers committed to each box
 * office; a list of the differences (empty when the feed holds exactly what was written).
 */
export function checkEntries(
  db: WriterDatabase,
  before: FeedCensus,
  after: FeedCensus,
  written: Map<number, Written>,
  contiguous: boolean,
): string[] {
  const problems: string[] = [];
  const delta = (office: number, type: string) =>
    (after.counts.get(`${office} ${type}`) ?? 0) -
    (before.counts.get(`${office} ${type}`) ?? 0);
  for (const [office, w] of written) {
    const expected: [string, number][] = [
      ['ORDER.CREATED', w.orders],
      ['ISSUED_TICKET.CREATED', w.tickets],
      ['CHECK_IN.CREATED', w.checkIns],
      ['ISSUED_TICKET.UPDATED', w.voided],
      ['EVENT.UPDATED', w.edits],
      // SQLite cannot tell the creating transaction's line items from later ones: one
      // ORDER.UPDATED per line item written (docs/API.md, "Change entries").
      [
        'ORDER.UPDATED',
        w.refunds + w.cancels + (db === 'sqlite' ? 2 * w.orders : 0),
      ],
    ];
    for (const [type, count] of expected) {
      const found = delta(office, type);
      if (found !== count)
        problems.push(
          `box office ${office}: ${found} ${type} entries for ${count} such changes committed`,
        );
    }
  }
  if (contiguous && after.holes.length > 0)
    problems.push(
      `ids not exactly 1..head in box offices ${after.holes.join(', ')}`,
    );
  return problems;
}

/**
 * The counts the triggers keep, against the rows they count: each event's completed orders,
 * revenue and valid tickets, each ticket type's issued tickets, each box office's hour and day
 * rollups. A list of the differences (a lost or doubled update under concurrency shows here).
 */
export async function checkCounts(reader: Reader): Promise<string[]> {
  // As readers read them: on PostgreSQL with deltas (migration CountsWithoutHotRows), the row
  // plus the deltas not folded yet; in the what-ifs without those tables, the row alone.
  const { pending, asRead } = await countsReadIn(reader.db, (sql) =>
    reader.all(sql),
  );
  const pendingRollup = (column: string) =>
    pending
      ? ` + (SELECT coalesce(sum(${column}), 0) FROM activity_deltas d WHERE d.box_office_id = b.id)`
      : '';
  const checks: [string, string][] = [
    [
      'event counters',
      asRead(`SELECT e.id FROM events e
        WHERE e.completed_orders_count <> (SELECT count(*) FROM orders o
                WHERE o.event_id = e.id AND o.status = 'completed')
           OR e.completed_revenue <> (SELECT coalesce(sum(o.total - o.refund_amount), 0)
                FROM orders o WHERE o.event_id = e.id AND o.status = 'completed')
           OR e.valid_tickets_count <> (SELECT count(*) FROM issued_tickets t
                WHERE t.event_id = e.id AND t.status = 'valid')`),
    ],
    [
      'ticket types issued',
      asRead(`SELECT y.id FROM ticket_types y
        WHERE y.quantity_issued <> (SELECT count(*) FROM issued_tickets t
                WHERE t.ticket_type_id = y.id AND t.status = 'valid')`),
    ],
    ...(['hours', 'days'] as const).map((unit): [string, string] => [
      `${unit} rollups`,
      `SELECT b.id FROM box_offices b
        WHERE (SELECT coalesce(sum(completed_orders), 0) FROM order_${unit} r WHERE r.box_office_id = b.id)${pendingRollup('completed_orders')}
              <> (SELECT count(*) FROM orders o WHERE o.box_office_id = b.id AND o.status = 'completed')
           OR (SELECT coalesce(sum(revenue), 0) FROM revenue_${unit} r WHERE r.box_office_id = b.id)${pendingRollup('revenue')}
              <> (SELECT coalesce(sum(o.total - o.refund_amount), 0) FROM orders o
                   WHERE o.box_office_id = b.id AND o.status = 'completed')
           OR (SELECT coalesce(sum(valid_tickets), 0) FROM ticket_${unit} r WHERE r.box_office_id = b.id)${pendingRollup('valid_tickets')}
              <> (SELECT count(*) FROM issued_tickets t WHERE t.box_office_id = b.id AND t.status = 'valid')`,
    ]),
  ];
  const problems: string[] = [];
  for (const [what, query] of checks) {
    const wrong = await reader.all(query);
    if (wrong.length > 0)
      problems.push(
        `${what} differ from the rows (ids ${wrong.map((r) => Number(r.id)).join(', ')})`,
      );
  }
  return problems;
}

/**
 * A poller of one box office's feed during a run, as a sync client polls: reads the entries past
 * its position and checks that they continue it with no hole (an entry visible before an earlier
 * id would be skipped by a poller that moved past it).
 */
export class FeedWatch {
  polls = 0;
  entries = 0;
  readonly holes: string[] = [];
  private position = 0;

  constructor(
    private readonly reader: Reader,
    private readonly office: number,
  ) {}

  async start() {
    const [head] = await this.reader.all(
      `SELECT coalesce(max(id), 0) AS id FROM changes WHERE box_office_id = ${this.office}`,
    );
    this.position = Number(head.id);
  }

  async poll() {
    const rows = await this.reader.all(
      `SELECT id FROM changes WHERE box_office_id = ${this.office} AND id > ${this.position}
        ORDER BY id LIMIT 1000`,
    );
    this.polls += 1;
    for (const row of rows) {
      const id = Number(row.id);
      if (id !== this.position + 1 && this.holes.length < 5)
        this.holes.push(`saw ${id} after ${this.position}`);
      this.position = id;
      this.entries += 1;
    }
  }
}

/** One sample of what sync clients of two box offices would be told. */
export interface SyncSample {
  at: number;
  /** Database clock − the box office's sync horizon, in seconds (X-Sync-Watermark's age). */
  lag: number[];
  /** The first box office's feed head (X-Change-Head). */
  head: number;
}

export async function sampleSync(
  reader: Reader,
  offices: number[],
): Promise<SyncSample> {
  // Taken before the reads: a sample dated after the hold began read the database after it.
  const at = Date.now();
  const lag: number[] = [];
  for (const office of offices) {
    const horizon = syncHorizonStatement(reader.db, SQLITE_SYNC_LAG_S, office);
    const [h] = await reader.all(horizon.sql, horizon.params);
    const [clock] = await reader.all(
      reader.db === 'postgres'
        ? 'SELECT floor(extract(epoch FROM clock_timestamp()))::bigint AS now'
        : 'SELECT unixepoch() AS now',
    );
    lag.push(Number(clock.now) - Number(h.horizon));
  }
  const [head] = await reader.all(
    `SELECT coalesce(max(last_id), 0) AS head FROM change_heads WHERE box_office_id = ${offices[0]}`,
  );
  return { at, lag, head: Number(head.head) };
}

/**
 * Whether entries are numbered after their commit (PostgreSQL since migration
 * WritesWithoutHotRows): then the bench runs an assigner as the service's instances do.
 */
export const numbersAfterCommit = (db: WriterDatabase, variant: string) =>
  db === 'postgres' &&
  !variantParts(variant).some((part) =>
    ['counter-row', 'sequence-ids', 'at-commit', 'no-feed'].includes(part),
  );

/**
 * The service's assigner (src/changes/change-assigner.ts) on a connection of its own, sweeping
 * every SWEEP_MS until `endAt`, then once more; the longest sweep, for how long an entry can wait
 * to be numbered after its commit (at most a period and a sweep).
 */
export async function runAssigner(
  url: string,
  endAt: number,
): Promise<{ sweeps: number; longestMs: number }> {
  const reader = await openReader(url);
  // And folds the counts' deltas, where the database writes them (migration CountsWithoutHotRows).
  const [deltas] = await reader.all(
    "SELECT to_regclass('activity_deltas') IS NOT NULL AS present",
  );
  const folds = deltas.present === true;
  const read = (text: string, params: unknown[]) => reader.all(text, params);
  let sweeps = 0;
  let longestMs = 0;
  try {
    const sweep = async () => {
      const started = performance.now();
      await sweepChanges(read);
      if (folds) await sweepCounts(read);
      longestMs = Math.max(longestMs, performance.now() - started);
      sweeps += 1;
    };
    await every(SWEEP_MS, endAt, sweep);
    await sweep();
  } finally {
    await reader.close();
  }
  return { sweeps, longestMs };
}

/** Runs `step` every `everyMs` until `endAt` (ms since the epoch). */
export async function every(
  everyMs: number,
  endAt: number,
  step: () => Promise<void>,
) {
  while (Date.now() < endAt) {
    const started = Date.now();
    await step();
    await sleep(Math.max(0, everyMs - (Date.now() - started)));
  }
}
