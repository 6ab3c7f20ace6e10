import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { type Connection, type Sql, sql } from '../../dev/activity/connection';

/**
 * The writes of a sales system, for `npm run bench:writer` (bench/writer-cost.ts): plain SQL
 * through the driver, each change one transaction, the database's triggers doing the stamps,
 * `updated_at`, change entries and rollups (docs/API.md, "Incremental sync and the change feed").
 */

/** The rows a writer sells from: its box office, event and ticket type. */
export interface SalesTarget {
  office: number;
  event: number;
  ticketType: number;
}

export type ChangeKind =
  'order' | 'refund' | 'checkIn' | 'cancel' | 'edit' | 'counter';

/** What committed, to check the change feed's entries against after a run. */
export interface Written {
  orders: number;
  tickets: number;
  refunds: number;
  cancels: number;
  voided: number;
  checkIns: number;
  edits: number;
}

export const noneWritten = (): Written => ({
  orders: 0,
  tickets: 0,
  refunds: 0,
  cancels: 0,
  voided: 0,
  checkIns: 0,
  edits: 0,
});

/** A writer's cycle of ten changes: seven new orders, a check-in, a refund, a cancellation. */
const CYCLE: readonly ChangeKind[] = [
  'order',
  'order',
  'order',
  'checkIn',
  'order',
  'refund',
  'order',
  'order',
  'cancel',
  'order',
];

const TICKETS_PER_ORDER = 2;
const TICKET_PRICE = 2500;

/** Milliseconds since the epoch, finer than Date.now() and comparable across threads. */
const now = () => performance.timeOrigin + performance.now();

/** SQLSTATEs a writer retries: serialization failure, deadlock. SQLite's busy after its timeout. */
const RETRIED = new Set(['40001', '40P01', 'SQLITE_BUSY']);
const MAX_ATTEMPTS = 5;

/** The error's SQLSTATE (PostgreSQL) or result code (SQLite), else its name. */
export function errorCode(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === 'string') return code;
  return error instanceof Error ? error.name : 'unknown';
}

/** Simulated network time: the added delays, as slept. */
export interface RoundTrips {
  count: number;
  totalMs: number;
}

/**
 * The connection as seen from across a network: each statement (BEGIN and COMMIT included)
 * first waits `rttMs`, so that a transaction holds its locks for its round trips as a remote
 * sales system's would. The time actually slept is added to `trips` (timers are coarse).
 */
export function acrossNetwork(
  db: Connection,
  rttMs: number,
  trips: RoundTrips,
): Connection {
  if (rttMs <= 0) return db;
  const trip = async () => {
    const started = performance.now();
    await sleep(rttMs);
    trips.count += 1;
    trips.totalMs += performance.now() - started;
  };
  return {
    type: db.type,
    query: async <T>(statement: Sql) => {
      await trip();
      return db.query<T>(statement);
    },
    begin: async () => {
      await trip();
      await db.begin();
    },
    commit: async () => {
      await trip();
      await db.commit();
    },
    rollback: () => db.rollback(),
    close: () => db.close(),
  };
}

/** How one change went: its kind, when it began and ended (ms), and what failed on the way. */
export interface ChangeOutcome {
  kind: ChangeKind;
  start: number;
  end: number;
  /** null when it committed (perhaps after retries). */
  error: string | null;
  /** Codes of the attempts that failed and were retried. */
  retried: string[];
}

interface OwnOrder {
  id: number;
  tickets: number[];
}

/**
 * One sales system connection's changes to one box office, each its own transaction. Refunds,
 * check-ins and cancellations touch only orders and tickets this writer made, so that writers
 * meet only where the schema makes them meet (the box office's counter row, its rollup rows, the
 * event's and the ticket type's counters), never on each other's orders.
 */
export class SalesWriter {
  readonly written = noneWritten();
  private readonly orders: OwnOrder[] = [];
  private readonly unscanned: number[] = [];
  private step = 0;
  private serial = 0;

  constructor(
    private readonly db: Connection,
    private readonly target: SalesTarget,
    /** Makes barcodes unique across writers. */
    private readonly tag: string,
  ) {}

  /** The next change of the cycle. */
  next(): Promise<ChangeOutcome> {
    let kind = CYCLE[this.step++ % CYCLE.length];
    if (kind === 'checkIn' && this.unscanned.length === 0) kind = 'order';
    if ((kind === 'refund' || kind === 'cancel') && this.orders.length < 2)
      kind = 'order';
    return this.run(kind, () => this.write(kind));
  }

  /** A new order kept open `holdMs` after its first statement, as a stuck or slow writer would. */
  heldOrder(holdMs: number, onLocked: (at: number) => void) {
    return this.run('order', () =>
      this.newOrder(async () => {
        onLocked(now());
        await sleep(holdMs);
      }),
    );
  }

  /** A change of the ticket type's description: an `EVENT.UPDATED` (docs/API.md, "Change entries"). */
  editTicketType() {
    return this.run('edit', async () => {
      this.serial += 1;
      await this.db.query(
        sql`UPDATE ticket_types SET description = ${`Edited ${this.tag} ${this.serial}`}
             WHERE id = ${this.target.ticketType}`,
      );
      return () => {
        this.written.edits += 1;
      };
    });
  }

  /**
   * The floor under any design that keeps one row per box office until the commit: the change is
   * one update of such a row (table bench_counters, made by the bench) and the commit.
   */
  bumpCounter() {
    return this.run('counter', async () => {
      await this.db.query(
        sql`UPDATE bench_counters SET n = n + 1 WHERE office = ${this.target.office}`,
      );
      return () => undefined;
    });
  }

  /** `work` writes and returns what to record once committed; retried on deadlock or serialization. */
  private async run(
    kind: ChangeKind,
    work: () => Promise<() => void>,
  ): Promise<ChangeOutcome> {
    const start = now();
    const retried: string[] = [];
    const outcome = (error: string | null): ChangeOutcome => ({
      kind,
      start,
      end: now(),
      error,
      retried,
    });
    for (let attempt = 1; ; attempt++) {
      try {
        await this.db.begin();
        const committed = await work();
        await this.db.commit();
        committed();
        return outcome(null);
      } catch (error) {
        await this.db.rollback().catch(() => undefined);
        const code = errorCode(error);
        if (!RETRIED.has(code) || attempt === MAX_ATTEMPTS)
          return outcome(code);
        retried.push(code);
      }
    }
  }

  private write(kind: ChangeKind): Promise<() => void> {
    switch (kind) {
      case 'refund':
        return this.refund();
      case 'checkIn':
        return this.checkIn();
      case 'cancel':
        return this.cancel();
      default:
        return this.newOrder();
    }
  }

  /**
   * A completed order: the order, its two line items in one statement, then its tickets one
   * statement each. `afterOrder` runs after the order's insert (its first statement, which takes
   * the box office's counter row).
   */
  private async newOrder(
    afterOrder?: () => Promise<void>,
  ): Promise<() => void> {
    const { office, event, ticketType } = this.target;
    const subtotal = TICKETS_PER_ORDER * TICKET_PRICE;
    const tax = subtotal / 5;
    const now = Math.floor(Date.now() / 1000);
    const [order] = await this.db.query<{ id: unknown }>(
      sql`INSERT INTO orders (box_office_id, event_id, status, currency, subtotal, tax, total,
            refund_amount, txn_id, created_at, updated_at, buyer_name, buyer_email,
            buyer_email_lookup, address_1, buyer_custom_questions, payment_method_type)
          VALUES (${office}, ${event}, 'completed', 'gbp', ${subtotal}, ${tax}, ${subtotal + tax},
            0, ${`ch_${this.tag}`}, ${now}, ${now}, 'Bench Buyer', 'buyer@bench.example',
            'buyer@bench.example', '1 Bench Street', '[]', 'stripe')
          RETURNING id`,
    );
    const id = Number(order.id);
    if (afterOrder) await afterOrder();
    await this.db.query(
      sql`INSERT INTO line_items (order_id, type, description, quantity, value, booking_fee, total)
          VALUES (${id}, 'ticket', 'General Admission', ${TICKETS_PER_ORDER}, ${subtotal}, 0, ${subtotal}),
                 (${id}, 'tax', 'VAT 20%', 1, ${tax}, 0, ${tax})`,
    );
    const tickets: number[] = [];
    for (let k = 1; k <= TICKETS_PER_ORDER; k++) {
      const barcode = `${this.tag}-${id}-${k}`;
      const [ticket] = await this.db.query<{ id: unknown }>(
        sql`INSERT INTO issued_tickets (box_office_id, order_id, event_id, ticket_type_id, status,
              barcode, barcode_url, qr_code_url, description, custom_questions, created_at,
              updated_at)
            VALUES (${office}, ${id}, ${event}, ${ticketType}, 'valid', ${barcode},
              'https://bench.example/b', 'https://bench.example/q', 'General Admission', '[]',
              ${now}, ${now})
            RETURNING id`,
      );
      tickets.push(Number(ticket.id));
    }
    return () => {
      this.written.orders += 1;
      this.written.tickets += tickets.length;
      this.orders.push({ id, tickets });
      this.unscanned.push(...tickets);
    };
  }

  /** 1.00 refunded on the writer's newest order. */
  private async refund(): Promise<() => void> {
    const order = this.orders[this.orders.length - 1];
    await this.db.query(
      sql`UPDATE orders SET refund_amount = refund_amount + 100 WHERE id = ${order.id}`,
    );
    return () => {
      this.written.refunds += 1;
    };
  }

  /** A scan at the door of the writer's oldest ticket not scanned yet. */
  private async checkIn(): Promise<() => void> {
    const ticket = this.unscanned[0];
    const now = Math.floor(Date.now() / 1000);
    await this.db.query(
      sql`INSERT INTO check_ins (box_office_id, issued_ticket_id, event_id, event_series_id,
            quantity, check_in_at, created_at)
          VALUES (${this.target.office}, ${ticket}, ${this.target.event}, 0, 1, ${now}, ${now})`,
    );
    return () => {
      this.written.checkIns += 1;
      this.unscanned.shift();
    };
  }

  /**
   * The writer's oldest order's tickets voided, then the order cancelled: a ticket before its
   * order, the lock order every writer keeps (docs/OPERATIONS.md, "Deadlocks").
   */
  private async cancel(): Promise<() => void> {
    const order = this.orders[0];
    const now = Math.floor(Date.now() / 1000);
    const voided = await this.db.query(
      sql`UPDATE issued_tickets SET status = 'void', voided_at = ${now}
           WHERE order_id = ${order.id} AND status = 'valid' RETURNING id`,
    );
    await this.db.query(
      sql`UPDATE orders SET status = 'cancelled', status_message = 'Cancelled by the box office'
           WHERE id = ${order.id}`,
    );
    return () => {
      this.written.cancels += 1;
      this.written.voided += voided.length;
      this.orders.shift();
      const gone = new Set(order.tickets);
      const left = this.unscanned.filter((t) => !gone.has(t));
      this.unscanned.splice(0, this.unscanned.length, ...left);
    };
  }
}
