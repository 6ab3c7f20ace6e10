import Database from 'better-sqlite3';
import { Client } from 'pg';
import type { BenchDb } from './database';
import type { DoorRushTarget } from './door-rush';
import type { WriteRequest } from './load';
import { shuffle } from './random';
import { countsReadIn } from '../../src/database/pending-counts';

/**
 * The ticket writes (bench/README.md, "Ticket writes"; issue #49): a box office issuing
 * complimentary tickets across ten ticket types (`POST /v1/issued_tickets`), and voiding tickets
 * (`POST /v1/issued_tickets/{id}/void`), each request with an Idempotency-Key of its own, flat
 * out. After each run the database is asked whether it holds what the answers said (the check
 * below), then what the run wrote is undone, so that every run, and the next benchmark on the
 * same database, starts from the same tickets and capacity.
 */

/** How many ticket types the issues spread over. */
export const ISSUE_TYPES = 10;
/** Issues a run can send at most (keys unique): more than a run of 10 s at 3,000 issues/s. */
const MAX_ISSUES = 30_000;
/** Voids a run can send at most: more than a run of 10 s at 3,000 voids/s. */
const MAX_VOIDS = 30_000;

/** What a ticket-write run is checked against afterwards (and how it is undone). */
export type TicketWriteCheck =
  | { kind: 'issue'; boxOfficeId: number; ticketTypeIds: number[] }
  | { kind: 'void'; boxOfficeId: number; firstId: number; lastId: number };

export interface TicketWriteLoad {
  requests: WriteRequest[];
  check: TicketWriteCheck;
}

/**
 * Issues across the ten ticket types of box office 1 with the most tickets left, each type asked
 * for as many as it has left, in a shuffled order: a run that sends them all issues every ticket
 * there is; then more of the ten in turn, each with a key of its own, which meet SOLD_OUT (409),
 * as the check expects too. The issues/s the target reads count the 201s only.
 */
export async function issueLoad(
  db: BenchDb,
  boxOfficeId: number,
  random: () => number,
): Promise<TicketWriteLoad> {
  // As the service reads quantity_issued: on PostgreSQL with deltas, the row plus those waiting.
  const { asRead } = await countsReadIn(db.kind, (sql) => db.all(sql));
  const types = await db.all<{ id: unknown; event_id: unknown; left: unknown }>(
    asRead(`SELECT tt.id, tt.event_id,
            tt.quantity_total - tt.quantity_issued - tt.quantity_held AS "left"
       FROM ticket_types tt JOIN events e ON e.id = tt.event_id
      WHERE e.box_office_id = ?
      ORDER BY 3 DESC, tt.id LIMIT ${ISSUE_TYPES}`),
    [boxOfficeId],
  );
  if (types.length < ISSUE_TYPES || Number(types.at(-1)!.left) < 100) {
    throw new Error(
      `box office ${boxOfficeId} has no ${ISSUE_TYPES} ticket types with 100 tickets left to issue`,
    );
  }
  const body = (type: (typeof types)[number], n: number) =>
    JSON.stringify({
      event_id: `ev_${Number(type.event_id)}`,
      ticket_type_id: `tt_${Number(type.id)}`,
      full_name: `Guest ${n + 1} of tt_${Number(type.id)}`,
    });
  const bodies: string[] = [];
  for (const type of types) {
    for (let n = 0; n < Number(type.left); n++) bodies.push(body(type, n));
  }
  const issued = shuffle(bodies, random);
  for (let n = 0; issued.length < MAX_ISSUES; n++)
    issued.push(body(types[n % types.length], n));
  return {
    requests: issued.slice(0, MAX_ISSUES).map((body, i) => ({
      body,
      idempotencyKey: `issue-${i}`,
    })),
    check: {
      kind: 'issue',
      boxOfficeId,
      ticketTypeIds: types.map((t) => Number(t.id)),
    },
  };
}

/**
 * Voids of valid tickets of box office 1 (sold ones, never scanned), the highest ids first (the
 * door rush scans from the lowest), each voided once, in a shuffled order.
 */
export async function voidLoad(
  db: BenchDb,
  boxOfficeId: number,
  random: () => number,
): Promise<TicketWriteLoad> {
  const tickets = await db.all<{ id: unknown }>(
    `SELECT t.id FROM issued_tickets t
      WHERE t.box_office_id = ? AND t.status = 'valid' AND t.order_id IS NOT NULL
        AND NOT EXISTS (SELECT 1 FROM check_ins c WHERE c.issued_ticket_id = t.id)
      ORDER BY t.id DESC LIMIT ?`,
    [boxOfficeId, MAX_VOIDS],
  );
  if (tickets.length < 1_000) {
    throw new Error(
      `box office ${boxOfficeId} has only ${tickets.length} valid tickets never scanned: seed more for the voids`,
    );
  }
  const ids = tickets.map((t) => Number(t.id));
  return {
    requests: shuffle(ids, random).map((id, i) => ({
      path: `/v1/issued_tickets/it_${id}/void`,
      body: '{}',
      idempotencyKey: `void-${i}`,
    })),
    check: {
      kind: 'void',
      boxOfficeId,
      firstId: Math.min(...ids),
      lastId: Math.max(...ids),
    },
  };
}

/** What the database holds after a run, against what the answers said. */
export interface TicketWriteFindings {
  /** Rows the run wrote: tickets issued, or tickets voided since the run began. */
  written: number;
  /** Ticket types whose quantity_issued + quantity_held exceeds quantity_total (must be 0). */
  overCapacity: number;
  /** Ticket types whose quantity_issued is not their valid tickets' count (must be 0). */
  counterDrift: number;
}

/** Write access to the benchmark database for a ticket-write run: mark, check, undo. */
export interface TicketWriteDatabase {
  mark(): Promise<void>;
  findings(): Promise<TicketWriteFindings>;
  /** Undoes the run: the issued tickets deleted, the voided ones valid again, keys removed. */
  reset(): Promise<void>;
  close(): Promise<void>;
}

/**
 * A run's findings as faults: each success the database does not hold, each row written beyond
 * the successes and the requests in flight when the run ended (one a connection: the load
 * generator stops counting answers at the end of the run, while the server commits what it was
 * sent), and each ticket type over capacity or with its counter drifted.
 */
export function writeFaults(
  findings: TicketWriteFindings,
  succeeded: number,
  inFlight: number,
): number {
  return (
    Math.max(0, succeeded - findings.written) +
    Math.max(0, findings.written - succeeded - inFlight) +
    findings.overCapacity +
    findings.counterDrift
  );
}

export async function openTicketWriteDatabase(
  { kind, url }: DoorRushTarget,
  check: TicketWriteCheck,
): Promise<TicketWriteDatabase> {
  let one: (sql: string, params: unknown[]) => Promise<number>;
  let run: (sql: string, params: unknown[]) => Promise<void>;
  let close: () => Promise<void>;
  if (kind === 'sqlite') {
    const db = new Database(url.slice('sqlite:'.length), { timeout: 10_000 });
    one = (sql, params) =>
      Promise.resolve(
        Number((db.prepare(sql).get(...params) as { n: unknown }).n),
      );
    run = (sql, params) => Promise.resolve(void db.prepare(sql).run(...params));
    close = () => Promise.resolve(void db.close());
  } else {
    const client = new Client({ connectionString: url });
    await client.connect();
    const pg = (sql: string) => {
      let n = 0;
      return sql.replace(/\?/g, () => `$${++n}`);
    };
    const { asRead } = await countsReadIn(
      kind,
      async (sql) => (await client.query(sql)).rows,
    );
    one = async (sql, params) =>
      Number(
        (await client.query<{ n: unknown }>(pg(asRead(sql)), params)).rows[0].n,
      );
    run = async (sql, params) => void (await client.query(pg(sql), params));
    close = () => client.end();
  }

  /** The highest ticket id before the run (issues), or the database's clock (voids). */
  let mark = 0;
  const types = check.kind === 'issue' ? check.ticketTypeIds : [];
  const inTypes = types.map(() => '?').join(', ');
  const typeFindings = async () => ({
    overCapacity: await one(
      `SELECT count(*) AS n FROM ticket_types tt
        WHERE tt.id IN (${inTypes}) AND tt.quantity_issued + tt.quantity_held > tt.quantity_total`,
      types,
    ),
    counterDrift: await one(
      `SELECT count(*) AS n FROM ticket_types tt
        WHERE tt.id IN (${inTypes}) AND tt.quantity_issued <>
          (SELECT count(*) FROM issued_tickets t
            WHERE t.ticket_type_id = tt.id AND t.status = 'valid')`,
      types,
    ),
  });
  const now =
    kind === 'sqlite'
      ? "CAST(strftime('%s', 'now') AS INTEGER)"
      : 'floor(extract(epoch FROM now()))::bigint';

  return {
    mark: async () => {
      mark =
        check.kind === 'issue'
          ? await one(
              'SELECT coalesce(max(id), 0) AS n FROM issued_tickets',
              [],
            )
          : await one(`SELECT ${now} AS n`, []);
    },
    findings: async () =>
      check.kind === 'issue'
        ? {
            written: await one(
              `SELECT count(*) AS n FROM issued_tickets
                WHERE id > ? AND box_office_id = ? AND order_id IS NULL`,
              [mark, check.boxOfficeId],
            ),
            ...(await typeFindings()),
          }
        : {
            written: await one(
              `SELECT count(*) AS n FROM issued_tickets
                WHERE box_office_id = ? AND id BETWEEN ? AND ? AND status = 'void'
                  AND voided_at >= ?`,
              [check.boxOfficeId, check.firstId, check.lastId, mark],
            ),
            overCapacity: 0,
            counterDrift: 0,
          },
    reset: async () => {
      if (check.kind === 'issue') {
        await run(
          `DELETE FROM issued_tickets
            WHERE id > ? AND box_office_id = ? AND order_id IS NULL`,
          [mark, check.boxOfficeId],
        );
      } else {
        await run(
          `UPDATE issued_tickets SET status = 'valid', voided_at = NULL
            WHERE box_office_id = ? AND id BETWEEN ? AND ? AND status = 'void'
              AND voided_at >= ?`,
          [check.boxOfficeId, check.firstId, check.lastId, mark],
        );
      }
      await run('DELETE FROM idempotency_keys', []);
    },
    close,
  };
}
