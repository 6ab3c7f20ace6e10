import Database from 'better-sqlite3';
import { Client } from 'pg';
import type { BenchDb } from './database';
import type { WriteRequest } from './load';
import { createHash } from 'node:crypto';
import type { DbKind } from './options';
import { shuffle } from './random';

/**
 * The door rush's key: box office 1's, of scope check_in, as a door is given; added once to the
 * benchmark database and kept (DOOR_KEY_ROW). The demo key is of scope write, which builds before
 * scope write (--before) refuse a scan.
 */
export const DOOR_KEY = 'sk_bench_door_1';

/**
 * The door rush (bench/README.md, "Door rush"): the doors open and every scanner scans the
 * tickets of the people in its queue, `POST /v1/check_ins` by barcode with an Idempotency-Key,
 * as a door app sends them. Each scanner (a connection) scans distinct tickets; a few percent of
 * the scans are a ticket scanned a second time a moment later, at another gate, which must be
 * refused (409 ALREADY_CHECKED_IN). The tickets are valid ones of the demo box office that were
 * never scanned; after each run the check-ins and keys it wrote are removed, so that every run
 * (and the next benchmark on the same database) starts from the same tickets, and before that the
 * database is asked whether any ticket got in twice.
 */

/** Share of the scans that scan a ticket again. */
const DOUBLE_SCANS = 0.03;
/** How many scans later the second scan of a ticket comes (another gate, moments after). */
const DOUBLE_SCAN_LAG = 40;
/** Tickets scanned per run at most: more than a run of 10 s at 5,000 scans/s. */
const MAX_TICKETS = 60_000;

/** One scan as sent: its JSON body and its Idempotency-Key. */
export type DoorScan = WriteRequest;

/**
 * The scans of a run, in the order they are sent: each never-scanned ticket once, and after some
 * of them, a little later, the same ticket again. Keys are unique per scan (a run that cycles
 * past the end sends them again: retries, answered from the first answer).
 */
export async function doorRushScans(
  db: BenchDb,
  boxOfficeId: number,
  random: () => number,
): Promise<DoorScan[]> {
  const tickets = await db.all<{ barcode: string }>(
    `SELECT t.barcode FROM issued_tickets t
      WHERE t.box_office_id = ? AND t.status = 'valid'
        AND NOT EXISTS (SELECT 1 FROM check_ins c WHERE c.issued_ticket_id = t.id)
      ORDER BY t.id LIMIT ?`,
    [boxOfficeId, MAX_TICKETS],
  );
  if (tickets.length < 1_000) {
    throw new Error(
      `box office 1 has only ${tickets.length} tickets never scanned: seed more for the door rush`,
    );
  }
  const barcodes = shuffle(
    tickets.map((t) => t.barcode),
    random,
  );
  const order: string[] = [];
  const again: { at: number; barcode: string }[] = [];
  for (const barcode of barcodes) {
    order.push(barcode);
    if (random() < DOUBLE_SCANS) {
      again.push({ at: order.length + DOUBLE_SCAN_LAG, barcode });
    }
    while (again.length > 0 && again[0].at <= order.length) {
      order.push(again.shift()!.barcode);
    }
  }
  return order.map((barcode, i) => ({
    body: JSON.stringify({ barcode }),
    idempotencyKey: `door-rush-${i}`,
  }));
}

/**
 * Write access to the benchmark database for the door rush: where a run starts, whether any
 * ticket got in twice, and removing what the run wrote.
 */
export interface DoorRushDatabase {
  /** Notes where the check-ins stand: what follows is the run's. */
  mark(): Promise<void>;
  /**
   * Check-ins of the run's tickets after which the ticket's running sum of quantity, in the
   * order scans happened, is not 0 or 1: a ticket let in twice (must be 0).
   */
  doubleEntries(): Promise<number>;
  /** Removes the run's check-ins and every Idempotency-Key answer kept. */
  reset(): Promise<void>;
  close(): Promise<void>;
}

const DOUBLE_ENTRIES = `SELECT count(*) AS n FROM (
    SELECT sum(quantity) OVER (PARTITION BY issued_ticket_id
             ORDER BY check_in_at, created_at, id) AS running
      FROM check_ins
     WHERE issued_ticket_id IN (SELECT issued_ticket_id FROM check_ins WHERE id > ?)
  ) scans WHERE running NOT IN (0, 1)`;

/** The benchmark database, which a door scenario writes to, checks and resets. */
export interface DoorRushTarget {
  kind: DbKind;
  url: string;
}

/** The door's key (DOOR_KEY), unless the database has it. */
const DOOR_KEY_ROW = `INSERT INTO api_keys (id, box_office_id, name, key_hash, key_prefix, created_at, scope)
  SELECT (SELECT max(id) + 1 FROM api_keys), 1, 'benchmark door rush', ?, 'sk_benc', 1746748800, 'check_in'
  WHERE NOT EXISTS (SELECT 1 FROM api_keys WHERE key_hash = ?)`;
const doorKeyHash = () =>
  createHash('sha256').update(DOOR_KEY, 'utf8').digest('hex');

export async function openDoorRushDatabase({
  kind,
  url,
}: DoorRushTarget): Promise<DoorRushDatabase> {
  let mark = 0;
  if (kind === 'sqlite') {
    const db = new Database(url.slice('sqlite:'.length), { timeout: 10_000 });
    db.prepare(DOOR_KEY_ROW).run(doorKeyHash(), doorKeyHash());
    const one = (sql: string, ...params: unknown[]) =>
      Number((db.prepare(sql).get(...params) as { n: unknown }).n);
    return {
      mark: () =>
        Promise.resolve(
          void (mark = one('SELECT coalesce(max(id), 0) AS n FROM check_ins')),
        ),
      doubleEntries: () => Promise.resolve(one(DOUBLE_ENTRIES, mark)),
      reset: () => {
        db.prepare('DELETE FROM check_ins WHERE id > ?').run(mark);
        db.prepare('DELETE FROM idempotency_keys').run();
        return Promise.resolve();
      },
      close: () => Promise.resolve(void db.close()),
    };
  }
  const client = new Client({ connectionString: url });
  await client.connect();
  await client.query(DOOR_KEY_ROW.replace('?', '$1').replace('?', '$2'), [
    doorKeyHash(),
    doorKeyHash(),
  ]);
  const one = async (sql: string, params: unknown[] = []) =>
    Number((await client.query<{ n: unknown }>(sql, params)).rows[0].n);
  return {
    mark: async () => {
      mark = await one('SELECT coalesce(max(id), 0) AS n FROM check_ins');
    },
    doubleEntries: () => one(DOUBLE_ENTRIES.replace('?', '$1'), [mark]),
    reset: async () => {
      await client.query('DELETE FROM check_ins WHERE id > $1', [mark]);
      await client.query('DELETE FROM idempotency_keys');
    },
    close: () => client.end(),
  };
}
