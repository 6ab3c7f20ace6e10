import { setTimeout as sleep } from 'node:timers/promises';
import { type Connection, sql } from './connection';

/**
 * The development writer (docs/DESIGN.md, "Making changes in development"): each change is one
 * transaction of plain SQL, as a sales system would write it. The database's triggers stamp the
 * rows and write the change entries; the writer only reads back, before committing, the entries
 * its transaction wrote, and reports them once committed.
 */

/** One change entry, as printed: `{"type":"ORDER.UPDATED","resource_id":"or_9","stamp":…}`. */
export interface PrintedChange {
  type: string;
  resource_id: string;
  stamp: number;
}

/** A refused change: bad input or a state that does not allow it. Nothing was written. */
export class ActivityError extends Error {}

export interface ChangeOptions {
  /** Keep the transaction open this long after stamping, before committing. */
  holdMs?: number;
}

/**
 * SQLite: the time a change is given to commit within the stamp's last second of SYNC_LAG_S
 * (docs/DESIGN.md, "The stamp and the sync horizon").
 */
const SQLITE_COMMIT_HEADROOM_MS = 250;

const PREFIXES: Record<string, string> = {
  ORDER: 'or_',
  ISSUED_TICKET: 'it_',
  EVENT: 'ev_',
  EVENT_SERIES: 'es_',
  CHECK_IN: 'ci_',
};

/** The number in `or_9`, checked against the expected prefix. */
export function parseId(value: string | undefined, prefix: string): number {
  const match = new RegExp(`^${prefix}([1-9][0-9]{0,9})$`).exec(value ?? '');
  if (!match) {
    throw new ActivityError(
      `expected an id like ${prefix}5, got ${JSON.stringify(value ?? '')}`,
    );
  }
  return Number(match[1]);
}

export class ActivityWriter {
  /**
   * @param syncLagSeconds SQLite only: a change must commit before the second `stamp +
   *   SYNC_LAG_S` begins (the horizon's bound); a slower one is rolled back.
   */
  constructor(
    private readonly db: Connection,
    private readonly syncLagSeconds = 2,
  ) {}

  /** The database's clock, in Unix seconds. */
  async clock(): Promise<number> {
    const [row] = await this.db.query<{ now: unknown }>(
      this.db.type === 'sqlite'
        ? sql`SELECT unixepoch() AS now`
        : sql`SELECT floor(extract(epoch FROM clock_timestamp()))::bigint AS now`,
    );
    return Number(row.now);
  }

  async voidTicket(ticket: string, options: ChangeOptions = {}) {
    const id = parseId(ticket, 'it_');
    return this.change(options, async () => {
      const row = await this.ticket(id);
      if (row.status !== 'valid') {
        throw new ActivityError(`${ticket} is already void`);
      }
      await this.db.query(
        sql`UPDATE issued_tickets SET status = 'void', voided_at = ${await this.clock()} WHERE id = ${id}`,
      );
      return Number(row.box_office_id);
    });
  }

  /** Cancels the order and voids its valid tickets. */
  async cancelOrder(order: string, options: ChangeOptions = {}) {
    const id = parseId(order, 'or_');
    return this.change(options, async () => {
      const row = await this.order(id);
      if (row.status === 'cancelled') {
        throw new ActivityError(`${order} is already cancelled`);
      }
      // Its tickets before the order: the lock order every writer keeps (docs/OPERATIONS.md,
      // "Deadlocks"), as a scan takes a ticket, then its order.
      await this.db.query(
        sql`UPDATE issued_tickets SET status = 'void', voided_at = ${await this.clock()}
             WHERE order_id = ${id} AND status = 'valid'`,
      );
      await this.db.query(
        sql`UPDATE orders SET status = 'cancelled', status_message = ${'Cancelled by the box office'} WHERE id = ${id}`,
      );
      return Number(row.box_office_id);
    });
  }

  /** Refunds `amount` minor units more; the order's refunds never exceed its total. */
  async refundOrder(
    order: string,
    amount: number,
    options: ChangeOptions = {},
  ) {
    const id = parseId(order, 'or_');
    if (!Number.isSafeInteger(amount) || amount < 1) {
      throw new ActivityError(
        `--amount must be a positive integer of minor units, got ${amount}`,
      );
    }
    return this.change(options, async () => {
      const row = await this.order(id);
      const refunded = Number(row.refund_amount);
      const total = Number(row.total);
      if (refunded + amount > total) {
        throw new ActivityError(
          `${order}: refunds would reach ${refunded + amount}, more than its total ${total} (${refunded} refunded already)`,
        );
      }
      await this.db.query(
        sql`UPDATE orders SET refund_amount = refund_amount + ${amount} WHERE id = ${id}`,
      );
      return Number(row.box_office_id);
    });
  }

  /** A scan at the door, at `at` (default now; earlier: an offline scan uploaded late). */
  async checkIn(ticket: string, at?: number, options: ChangeOptions = {}) {
    return this.scan(ticket, 1, at, options);
  }

  async checkOut(ticket: string, options: ChangeOptions = {}) {
    return this.scan(ticket, -1, undefined, options);
  }

  /** A new completed order of one to three tickets of the event's first ticket type. */
  async newOrder(
    event: string,
    options: ChangeOptions & { random?: () => number } = {},
  ) {
    const eventId = parseId(event, 'ev_');
    const random = options.random ?? Math.random;
    return this.change(options, async () => {
      const [ev] = await this.db.query(
        sql`SELECT id, box_office_id, currency, name FROM events WHERE id = ${eventId}`,
      );
      if (!ev) throw new ActivityError(`${event} does not exist`);
      const [type] = await this.db.query(
        sql`SELECT id, name, price, booking_fee FROM ticket_types
             WHERE event_id = ${eventId} ORDER BY sort_order, id LIMIT 1`,
      );
      const count = 1 + Math.floor(random() * 3);
      const price = type ? Number(type.price) : 2500;
      const fee = type ? Number(type.booking_fee) : 0;
      const subtotal = count * (price + fee);
      const tax = Math.round(subtotal / 5);
      const now = await this.clock();
      const tag = Math.floor(random() * 2 ** 32).toString(36);
      const buyer = `Activity Buyer ${tag}`;
      const email = `buyer.${tag}@activity.example`;
      const [order] = await this.db.query<{ id: unknown }>(
        sql`INSERT INTO orders (box_office_id, event_id, status, status_message, currency,
              subtotal, tax, total, refund_amount, txn_id, created_at, updated_at, buyer_name,
              buyer_first_name, buyer_last_name, buyer_email, buyer_email_lookup, buyer_phone,
              address_1, address_2, address_3, postal_code, buyer_custom_questions,
              payment_method_type, payment_method_id, payment_method_external_id,
              payment_method_name, payment_method_instructions)
            VALUES (${ev.box_office_id}, ${eventId}, 'completed', NULL, ${ev.currency},
              ${subtotal}, ${tax}, ${subtotal + tax}, 0, ${`ch_activity_${tag}`}, ${now}, ${now},
              ${buyer}, 'Activity', ${`Buyer ${tag}`}, ${email}, ${email}, NULL,
              ${'1 Activity Street'}, NULL, NULL, NULL, '[]', 'stripe', NULL, ${`ch_ext_${tag}`},
              'Card', NULL)
            RETURNING id`,
      );
      const orderId = Number(order.id);
      const description = type ? String(type.name) : 'General Admission';
      await this.db.query(
        sql`INSERT INTO line_items (order_id, type, description, quantity, value, booking_fee, total,
              ticket_type_id)
            VALUES (${orderId}, 'ticket', ${description}, ${count}, ${count * price}, ${count * fee}, ${subtotal},
                    ${type ? type.id : null}),
                   (${orderId}, 'tax', 'VAT 20%', 1, ${tax}, 0, ${tax}, NULL)`,
      );
      for (let n = 1; n <= count; n++) {
        const barcode = `ACT${tag}${n}`.toUpperCase();
        await this.db.query(
          sql`INSERT INTO issued_tickets (box_office_id, order_id, event_id, ticket_type_id, status,
                barcode, barcode_url, qr_code_url, description, first_name, last_name, full_name,
                reservation, custom_questions, created_at, updated_at, voided_at)
              VALUES (${ev.box_office_id}, ${orderId}, ${eventId}, ${type ? type.id : null}, 'valid',
                ${barcode}, ${`https://cdn.activity.example/barcodes/${barcode}.png`},
                ${`https://cdn.activity.example/qr/${barcode}.png`}, ${description}, 'Activity',
                ${`Buyer ${tag}`}, ${`Activity Buyer ${tag}`}, NULL, '[]', ${now}, ${now}, NULL)`,
        );
      }
      return Number(ev.box_office_id);
    });
  }

  async editEvent(event: string, name: string, options: ChangeOptions = {}) {
    const id = parseId(event, 'ev_');
    if (name.trim() === '' || name.length > 300) {
      throw new ActivityError('--name must be 1 to 300 characters');
    }
    return this.change(options, async () => {
      const [row] = await this.db.query(
        sql`SELECT box_office_id, name FROM events WHERE id = ${id}`,
      );
      if (!row) throw new ActivityError(`${event} does not exist`);
      if (row.name === name) {
        throw new ActivityError(
          `${event} is already named ${JSON.stringify(name)}`,
        );
      }
      await this.db.query(
        sql`UPDATE events SET name = ${name} WHERE id = ${id}`,
      );
      return Number(row.box_office_id);
    });
  }

  /** Removes the order, its line items, tickets and their check-ins (test orders). */
  async deleteOrder(order: string, options: ChangeOptions = {}) {
    const id = parseId(order, 'or_');
    return this.change(options, async () => {
      const row = await this.order(id);
      await this.db.query(sql`DELETE FROM orders WHERE id = ${id}`);
      return Number(row.box_office_id);
    });
  }

  private async scan(
    ticket: string,
    quantity: 1 | -1,
    at: number | undefined,
    options: ChangeOptions,
  ) {
    const id = parseId(ticket, 'it_');
    if (at !== undefined && (!Number.isSafeInteger(at) || at < 0)) {
      throw new ActivityError(`--at must be Unix seconds, got ${at}`);
    }
    return this.change(options, async () => {
      await this.requireCheckIns();
      const row = await this.ticket(id);
      const [sum] = await this.db.query<{ total: unknown }>(
        sql`SELECT coalesce(sum(quantity), 0) AS total FROM check_ins WHERE issued_ticket_id = ${id}`,
      );
      const inside = Number(sum.total) === 1;
      if (quantity === 1 && row.status !== 'valid') {
        throw new ActivityError(
          `${ticket} is void: a void ticket cannot be checked in`,
        );
      }
      if (quantity === 1 && inside) {
        throw new ActivityError(`${ticket} is already checked in`);
      }
      if (quantity === -1 && !inside) {
        throw new ActivityError(
          `${ticket} is not checked in: nothing to check out`,
        );
      }
      const now = await this.clock();
      if (at !== undefined && at > now) {
        throw new ActivityError(
          `--at ${at} is in the future (the database clock says ${now})`,
        );
      }
      await this.db.query(
        sql`INSERT INTO check_ins (box_office_id, issued_ticket_id, event_id, event_series_id,
              quantity, check_in_at, created_at)
            SELECT t.box_office_id, t.id, t.event_id, e.event_series_id, ${quantity}, ${at ?? now}, ${now}
              FROM issued_tickets t JOIN events e ON e.id = t.event_id WHERE t.id = ${id}`,
      );
      return Number(row.box_office_id);
    });
  }

  private async requireCheckIns() {
    if (!(await this.hasCheckIns())) {
      throw new ActivityError(
        'this database has no check-ins (table check_ins): migrate it first',
      );
    }
  }

  /** Whether the database has check-ins (table check_ins). */
  async hasCheckIns(): Promise<boolean> {
    const [row] = await this.db.query(
      this.db.type === 'sqlite'
        ? sql`SELECT count(*) AS n FROM sqlite_master WHERE type = 'table' AND name = 'check_ins'`
        : sql`SELECT count(*) AS n FROM information_schema.tables
               WHERE table_schema = current_schema() AND table_name = 'check_ins'`,
    );
    return Number(row.n) > 0;
  }

  private async ticket(id: number) {
    const [row] = await this.db.query(
      sql`SELECT id, box_office_id, status FROM issued_tickets WHERE id = ${id}`,
    );
    if (!row) throw new ActivityError(`it_${id} does not exist`);
    return row;
  }

  private async order(id: number) {
    const [row] = await this.db.query(
      sql`SELECT id, box_office_id, status, total, refund_amount FROM orders WHERE id = ${id}`,
    );
    if (!row) throw new ActivityError(`or_${id} does not exist`);
    return row;
  }

  /**
   * One change in one transaction: `work` writes and returns the box office it wrote to. The
   * entries the transaction wrote are read back before the commit (the box office's entries past
   * its head as the transaction found it: the counter row keeps other writers' entries out
   * while this one is open), and returned once committed.
   */
  private async change(
    { holdMs = 0 }: ChangeOptions,
    work: () => Promise<number>,
  ): Promise<PrintedChange[]> {
    if (!Number.isSafeInteger(holdMs) || holdMs < 0) {
      throw new ActivityError(
        `--hold-ms must be a whole number of milliseconds, got ${holdMs}`,
      );
    }
    if (this.db.type === 'sqlite') {
      // Only so long that the commit still comes within SYNC_LAG_S of the stamp: started just
      // after a second begins, the stamp is that second.
      const limit = this.syncLagSeconds * 1000 - SQLITE_COMMIT_HEADROOM_MS;
      if (holdMs > limit) {
        throw new ActivityError(
          `--hold-ms ${holdMs}: on SQLite a writer must commit within SYNC_LAG_S (${this.syncLagSeconds} s) of its stamp, so at most ${limit}`,
        );
      }
      // A change begun in a second's last moments is stamped with that second and may commit in
      // the next: with SYNC_LAG_S = 1 that is too late, so it waits for the next second.
      const left = 1000 - (Date.now() % 1000);
      if (holdMs > 0 || left < SQLITE_COMMIT_HEADROOM_MS) await sleep(left + 5);
    }
    await this.db.begin();
    try {
      const head = await this.heads();
      const office = await work();
      // PostgreSQL writes a check-in's entry at commit (a deferred trigger: migration
      // ScanEntriesAtCommit); write it now, to print it.
      if (this.db.type === 'postgres') {
        await this.db.query(sql`SET CONSTRAINTS ALL IMMEDIATE`);
      }
      const entries = await this.entriesWritten(office, head.get(office) ?? 0);
      if (holdMs > 0) await sleep(holdMs);
      if (this.db.type === 'sqlite' && entries.length > 0) {
        const stamp = Math.min(...entries.map((e) => Number(e.created_at)));
        if ((await this.clock()) >= stamp + this.syncLagSeconds) {
          throw new ActivityError(
            `the change took longer than SYNC_LAG_S (${this.syncLagSeconds} s) to commit; rolled back`,
          );
        }
      }
      await this.db.commit();
      return entries.map((e) => ({
        type: e.type,
        resource_id: `${PREFIXES[e.type.slice(0, e.type.indexOf('.'))]}${Number(e.resource_id)}`,
        stamp: Number(e.created_at),
      }));
    } catch (error) {
      await this.db.rollback();
      throw error;
    }
  }

  /** Each box office's newest entry id, read inside the transaction before it writes. */
  private async heads(): Promise<Map<number, number>> {
    const rows = await this.db.query<{
      box_office_id: unknown;
      last_id: unknown;
    }>(sql`SELECT box_office_id, last_id FROM change_heads`);
    return new Map(
      rows.map((h) => [Number(h.box_office_id), Number(h.last_id)]),
    );
  }

  /**
   * The entries this transaction wrote: past the head it found (on SQLite no other writer runs
   * meanwhile); on PostgreSQL, the unnumbered rows of `change_inbox` this transaction created,
   * in the order they will be numbered (migration WritesWithoutHotRows).
   */
  private entriesWritten(office: number, after: number) {
    type Entry = { type: string; resource_id: unknown; created_at: unknown };
    return this.db.query<Entry>(
      this.db.type === 'postgres'
        ? sql`SELECT type, resource_id, created_at FROM change_inbox
               WHERE box_office_id = ${office}
                 AND xmin = pg_current_xact_id()::xid ORDER BY seq`
        : sql`SELECT type, resource_id, created_at FROM changes
               WHERE box_office_id = ${office} AND id > ${after} ORDER BY id`,
    );
  }
}
