import { setTimeout as sleep } from 'node:timers/promises';
import type { DataSource } from 'typeorm';
import { type Connection, connect, sql } from '../dev/activity/connection';
import { ActivityWriter } from '../dev/activity/writer';
import { changeHead, changePage } from '../src/changes/change-feed';
import { MIGRATIONS } from '../src/database/data-source-options';
import { inImportMode } from '../src/sync/import-mode';
import { Factory } from './utils/factories';
import {
  durableTestDatabase,
  openWithMigrations,
} from './utils/migrated-database';
import type { TestDatabase } from './utils/test-database';

// docs/API.md, "Incremental sync" and "Change feed": the rules the database's triggers keep for
// every writer. The writes here are plain SQL through the driver, as a sales system's would be.
// On SQLite by default, on PostgreSQL under `npm run test:e2e:postgres`.
describe('sync triggers: every writer stamps updated_at and writes change entries', () => {
  let database: TestDatabase;
  let ds: DataSource;
  let db: Connection;
  let office: number;
  let otherOffice: number;
  let eventId: number;
  let seen = 0;

  /**
   * The entries written since the last call, as `TYPE resource_id`, and their stamps; read as the
   * feed reads them, its head first (on PostgreSQL that numbers the entries committed before it).
   */
  async function newEntries(boxOfficeId = office) {
    await changeHead(ds, boxOfficeId);
    const page = await changePage(ds, {
      boxOfficeId,
      after: boxOfficeId === office ? seen : 0,
      limit: 100,
    });
    if (boxOfficeId === office && page.length > 0) seen = page.at(-1)!.id;
    return {
      entries: page.map((e) => `${e.type} ${e.resourceId}`),
      stamps: [...new Set(page.map((e) => e.createdAt))],
      ids: page.map((e) => e.id),
    };
  }

  async function row(table: 'orders' | 'issued_tickets', id: number) {
    const [found] = await db.query<Record<string, unknown>>(
      table === 'orders'
        ? sql`SELECT updated_at, created_at FROM orders WHERE id = ${id}`
        : sql`SELECT updated_at, created_at, voided_at, order_id FROM issued_tickets WHERE id = ${id}`,
    );
    return {
      updatedAt: Number(found.updated_at),
      createdAt: Number(found.created_at),
    };
  }

  /** An order of history (two tickets, created long ago), as the seeder writes them. */
  async function historicOrder(createdAt = 1_750_000_000) {
    const order = await new Factory(ds).order(office, eventId, { createdAt });
    return {
      id: order.id,
      tickets: order.issuedTickets!.map((t) => t.id),
    };
  }

  /** The database clock. */
  async function clock() {
    const [now] = await db.query<{ now: unknown }>(
      db.type === 'sqlite'
        ? sql`SELECT unixepoch() AS now`
        : sql`SELECT floor(extract(epoch FROM clock_timestamp()))::bigint AS now`,
    );
    return Number(now.now);
  }

  beforeAll(async () => {
    database = await durableTestDatabase();
    ds = await openWithMigrations(database.url, MIGRATIONS);
    db = await connect(database.url);
    const f = new Factory(ds);
    office = (await f.boxOffice('Sync')).id;
    otherOffice = (await f.boxOffice('Other')).id;
    eventId = (await f.event(office)).id;
    await newEntries();
  });

  afterAll(async () => {
    await db?.close();
    await ds?.destroy();
    await database?.drop();
  });

  it('a new order, with its line items and tickets, is ORDER.CREATED and ISSUED_TICKET.CREATED, stamped now', async () => {
    const before = await clock();
    await db.begin();
    const [order] = await db.query<{ id: unknown }>(
      sql`INSERT INTO orders (box_office_id, event_id, status, currency, subtotal, tax, total,
            refund_amount, created_at, updated_at, buyer_name, buyer_email, buyer_email_lookup,
            address_1, buyer_custom_questions, payment_method_type)
          VALUES (${office}, ${eventId}, 'completed', 'gbp', 100, 20, 120, 0, 1700000000,
            1700000000, 'Direct Writer', 'd@example.com', 'd@example.com', '1 Street', '[]',
            'stripe') RETURNING id`,
    );
    const id = Number(order.id);
    await db.query(
      sql`INSERT INTO line_items (order_id, type, description, quantity, value, booking_fee, total)
          VALUES (${id}, 'ticket', 'GA', 1, 100, 0, 100)`,
    );
    const [ticket] = await db.query<{ id: unknown }>(
      sql`INSERT INTO issued_tickets (box_office_id, order_id, event_id, status, barcode,
            barcode_url, qr_code_url, description, custom_questions, created_at, updated_at)
          VALUES (${office}, ${id}, ${eventId}, 'valid', 'DIRECT1', 'https://x.example/b',
            'https://x.example/q', 'GA', '[]', 1700000000, 1700000000) RETURNING id`,
    );
    await db.commit();
    const { entries, stamps } = await newEntries();
    // The line item is part of the creation; SQLite, which cannot tell one transaction from the
    // next in a trigger, makes it an entry of its order all the same (docs/API.md, "Change
    // entries").
    expect(entries).toEqual([
      `ORDER.CREATED ${id}`,
      ...(db.type === 'sqlite' ? [`ORDER.UPDATED ${id}`] : []),
      `ISSUED_TICKET.CREATED ${Number(ticket.id)}`,
    ]);
    expect(stamps).toHaveLength(1);
    expect(stamps[0]).toBeGreaterThanOrEqual(before);
    // The writer's own times do not stand: the row became visible now.
    expect((await row('orders', id)).updatedAt).toBe(stamps[0]);
    expect((await row('issued_tickets', Number(ticket.id))).updatedAt).toBe(
      stamps[0],
    );
    expect((await row('orders', id)).createdAt).toBe(1_700_000_000);
  });

  it('voiding a ticket moves the ticket and its order to the stamp: ISSUED_TICKET.UPDATED only', async () => {
    const order = await historicOrder();
    await newEntries();
    await db.query(
      sql`UPDATE issued_tickets SET status = 'void', voided_at = 1750000500 WHERE id = ${order.tickets[0]}`,
    );
    const { entries, stamps } = await newEntries();
    expect(entries).toEqual([`ISSUED_TICKET.UPDATED ${order.tickets[0]}`]);
    expect((await row('issued_tickets', order.tickets[0])).updatedAt).toBe(
      stamps[0],
    );
    expect((await row('orders', order.id)).updatedAt).toBe(stamps[0]);
    // The other ticket did not change.
    expect((await row('issued_tickets', order.tickets[1])).updatedAt).toBe(
      1_750_000_000,
    );
  });

  it('a refund, a status message or buyer details are ORDER.UPDATED; the e-mail, shown in every ticket, moves them too', async () => {
    const order = await historicOrder();
    await newEntries();
    await db.query(
      sql`UPDATE orders SET refund_amount = 100, status_message = 'Partly refunded' WHERE id = ${order.id}`,
    );
    let { entries, stamps } = await newEntries();
    expect(entries).toEqual([`ORDER.UPDATED ${order.id}`]);
    expect((await row('orders', order.id)).updatedAt).toBe(stamps[0]);
    expect((await row('issued_tickets', order.tickets[0])).updatedAt).toBe(
      1_750_000_000,
    );

    await db.query(
      sql`UPDATE orders SET buyer_email = 'new@example.com', buyer_email_lookup = 'new@example.com' WHERE id = ${order.id}`,
    );
    ({ entries, stamps } = await newEntries());
    expect(entries).toEqual([`ORDER.UPDATED ${order.id}`]);
    for (const ticket of order.tickets) {
      expect((await row('issued_tickets', ticket)).updatedAt).toBe(stamps[0]);
    }
  });

  it('updated_at never goes backwards, whatever a writer sets, and an order is never older than its tickets', async () => {
    const order = await historicOrder();
    await db.query(
      sql`UPDATE issued_tickets SET full_name = 'Renamed' WHERE id = ${order.tickets[0]}`,
    );
    const stamped = (await row('issued_tickets', order.tickets[0])).updatedAt;
    await newEntries();
    await db.query(
      sql`UPDATE orders SET updated_at = 1 WHERE id = ${order.id}`,
    );
    await db.query(
      sql`UPDATE issued_tickets SET updated_at = 1 WHERE id = ${order.tickets[0]}`,
    );
    expect((await newEntries()).entries).toEqual([]);
    expect(
      (await row('issued_tickets', order.tickets[0])).updatedAt,
    ).toBeGreaterThanOrEqual(stamped);
    const orderTime = (await row('orders', order.id)).updatedAt;
    expect(orderTime).toBeGreaterThanOrEqual(stamped);
    for (const ticket of order.tickets) {
      expect(orderTime).toBeGreaterThanOrEqual(
        (await row('issued_tickets', ticket)).updatedAt,
      );
    }
  });

  it('a line item added after the order was created is ORDER.UPDATED', async () => {
    const order = await historicOrder();
    await newEntries();
    await db.query(
      sql`INSERT INTO line_items (order_id, type, description, quantity, value, booking_fee, total)
          VALUES (${order.id}, 'fee', 'Postage', 1, 200, 0, 200)`,
    );
    const { entries, stamps } = await newEntries();
    expect(entries).toEqual([`ORDER.UPDATED ${order.id}`]);
    expect((await row('orders', order.id)).updatedAt).toBe(stamps[0]);
  });

  it('a part moved to another parent is a change of both: the parent it left and the one it joined', async () => {
    const from = await historicOrder();
    const to = await historicOrder();
    const [line] = await db.query<{ id: unknown }>(
      sql`SELECT id FROM line_items WHERE order_id = ${from.id} ORDER BY id LIMIT 1`,
    );
    await newEntries();
    await db.query(
      sql`UPDATE line_items SET order_id = ${to.id} WHERE id = ${Number(line.id)}`,
    );
    const moved = await newEntries();
    expect(moved.entries.sort()).toEqual(
      [`ORDER.UPDATED ${from.id}`, `ORDER.UPDATED ${to.id}`].sort(),
    );
    expect((await row('orders', from.id)).updatedAt).toBe(moved.stamps[0]);
    expect((await row('orders', to.id)).updatedAt).toBe(moved.stamps[0]);

    const f = new Factory(ds);
    const [left, joined] = [await f.event(office), await f.event(office)];
    const type = await f.ticketType(left.id);
    const series = [await f.series(office), await f.series(office)];
    await db.query(
      sql`INSERT INTO event_series_ticket_types (event_series_id, name, price, max_per_order,
            quantity_total, status, type, sort_order)
          VALUES (${series[0].id}, 'Entry', 1000, 10, 100, 'on_sale', 'paid', 1)`,
    );
    await newEntries();
    await db.query(
      sql`UPDATE ticket_types SET event_id = ${joined.id} WHERE id = ${type.id}`,
    );
    await db.query(
      sql`UPDATE event_series_ticket_types SET event_series_id = ${series[1].id}
           WHERE event_series_id = ${series[0].id}`,
    );
    expect((await newEntries()).entries.sort()).toEqual(
      [
        `EVENT.UPDATED ${left.id}`,
        `EVENT.UPDATED ${joined.id}`,
        `EVENT_SERIES.UPDATED ${series[0].id}`,
        `EVENT_SERIES.UPDATED ${series[1].id}`,
      ].sort(),
    );
  });

  it('an order status change moves the event counter but writes no EVENT entry (counters are not changes)', async () => {
    const order = await historicOrder();
    await newEntries();
    await db.query(
      sql`UPDATE orders SET status = 'cancelled' WHERE id = ${order.id}`,
    );
    expect((await newEntries()).entries).toEqual([`ORDER.UPDATED ${order.id}`]);
    await db.query(
      sql`UPDATE events SET completed_orders_count = completed_orders_count + 5,
            valid_tickets_count = valid_tickets_count + 1 WHERE id = ${eventId}`,
    );
    expect((await newEntries()).entries).toEqual([]);
  });

  it('renaming an event is EVENT.UPDATED and moves its orders (their event_summary), with no ORDER entry', async () => {
    const order = await historicOrder();
    await newEntries();
    await db.query(
      sql`UPDATE events SET name = 'Renamed Night' WHERE id = ${eventId}`,
    );
    const { entries, stamps } = await newEntries();
    expect(entries).toEqual([`EVENT.UPDATED ${eventId}`]);
    expect((await row('orders', order.id)).updatedAt).toBe(stamps[0]);
    // A ticket does not show the event's name.
    expect((await row('issued_tickets', order.tickets[0])).updatedAt).toBe(
      1_750_000_000,
    );
  });

  it('deleting an order is ORDER.DELETED and ISSUED_TICKET.DELETED for each of its tickets', async () => {
    const order = await historicOrder();
    await newEntries();
    await db.query(sql`DELETE FROM orders WHERE id = ${order.id}`);
    const { entries } = await newEntries();
    expect([...entries].sort()).toEqual(
      [
        `ORDER.DELETED ${order.id}`,
        ...order.tickets.map((t) => `ISSUED_TICKET.DELETED ${t}`),
      ].sort(),
    );
  });

  it('events are EVENT.CREATED and EVENT.DELETED', async () => {
    const created = await new Factory(ds).event(office);
    expect((await newEntries()).entries).toEqual([
      `EVENT_SERIES.CREATED ${created.eventSeriesId}`,
      `EVENT.CREATED ${created.id}`,
    ]);
    await db.query(sql`DELETE FROM events WHERE id = ${created.id}`);
    expect((await newEntries()).entries).toEqual([
      `EVENT.DELETED ${created.id}`,
    ]);
  });

  it("an event's ticket types, groups and payment methods are part of it: EVENT.UPDATED, except the counters of sales", async () => {
    const f = new Factory(ds);
    const created = await f.event(office);
    const type = await f.ticketType(created.id);
    // Written by a transaction of its own, though in the second the event was created in: a
    // change of the event.
    expect((await newEntries()).entries).toEqual([
      `EVENT_SERIES.CREATED ${created.eventSeriesId}`,
      `EVENT.CREATED ${created.id}`,
      `EVENT.UPDATED ${created.id}`,
    ]);
    await db.query(
      sql`UPDATE ticket_types SET quantity_issued = quantity_issued + 2, quantity_held = 1
           WHERE id = ${type.id}`,
    );
    expect((await newEntries()).entries).toEqual([]);
    await sleep(1100);
    await db.query(
      sql`UPDATE ticket_types SET price = 3000 WHERE id = ${type.id}`,
    );
    await f.paymentMethod(created.id);
    await db.query(sql`DELETE FROM ticket_types WHERE id = ${type.id}`);
    expect((await newEntries()).entries).toEqual([
      `EVENT.UPDATED ${created.id}`,
      `EVENT.UPDATED ${created.id}`,
      `EVENT.UPDATED ${created.id}`,
    ]);
  });

  it('ids are per box office, with no gap when a transaction rolls back', async () => {
    const order = await historicOrder();
    await newEntries();
    const head = await changeHead(ds, office);
    await db.begin();
    await db.query(sql`UPDATE orders SET tax = 21 WHERE id = ${order.id}`);
    await db.rollback();
    await db.query(sql`UPDATE orders SET tax = 22 WHERE id = ${order.id}`);
    expect((await newEntries()).ids).toEqual([head + 1]);

    const otherEvent = await new Factory(ds).event(otherOffice);
    const other = await newEntries(otherOffice);
    expect(other.entries).toEqual([
      `EVENT_SERIES.CREATED ${otherEvent.eventSeriesId}`,
      `EVENT.CREATED ${otherEvent.id}`,
    ]);
    expect(other.ids).toEqual([1, 2]);
  });

  it("a series and its template's types, groups and payment methods: EVENT_SERIES.*", async () => {
    const f = new Factory(ds);
    const series = await f.series(office);
    expect((await newEntries()).entries).toEqual([
      `EVENT_SERIES.CREATED ${series.id}`,
    ]);
    await sleep(1100);
    await db.query(
      sql`INSERT INTO event_series_ticket_types (event_series_id, name, price, max_per_order,
            quantity_total, status, type, sort_order)
          VALUES (${series.id}, 'Entry', 1000, 10, 100, 'on_sale', 'paid', 1)`,
    );
    await db.query(
      sql`UPDATE event_series SET name = 'Renamed' WHERE id = ${series.id}`,
    );
    expect((await newEntries()).entries).toEqual([
      `EVENT_SERIES.UPDATED ${series.id}`,
      `EVENT_SERIES.UPDATED ${series.id}`,
    ]);
    // Its events' counters (revenue, tickets) are not changes of it, nor of the events.
    const event = await f.event(office, { eventSeriesId: series.id });
    const order = await f.order(office, event.id);
    await newEntries();
    await db.query(
      sql`UPDATE orders SET status = 'cancelled', refund_amount = total WHERE id = ${order.id}`,
    );
    expect((await newEntries()).entries).toEqual([`ORDER.UPDATED ${order.id}`]);
    await db.query(sql`DELETE FROM event_series WHERE id = ${series.id}`);
    expect((await newEntries()).entries).toEqual([
      `EVENT_SERIES.DELETED ${series.id}`,
    ]);
  });

  it('in import mode rows keep their times and make no entries', async () => {
    const order = await historicOrder(1_600_000_000);
    expect((await newEntries()).entries).toEqual([]);
    expect(await row('orders', order.id)).toEqual({
      createdAt: 1_600_000_000,
      updatedAt: 1_600_000_060,
    });
  });

  it('a line item changed by a later transaction in the second its order was created in is ORDER.UPDATED', async () => {
    const writer = new ActivityWriter(db, 2);
    for (let attempt = 1; ; attempt++) {
      // Both transactions in one second: the first begins just after a second does.
      await sleep(1000 - (Date.now() % 1000) + 20);
      const created = await writer.newOrder(`ev_${eventId}`, {
        random: () => 0.5,
      });
      const id = Number(created[0].resource_id.slice(3));
      await db.query(
        sql`UPDATE line_items SET description = 'Edited' WHERE order_id = ${id} AND type = 'ticket'`,
      );
      const { entries, stamps } = await newEntries();
      if (stamps.length > 1 && attempt < 5) continue; // a second began in between
      expect(stamps).toHaveLength(1);
      expect(entries).toEqual([
        ...created.map((c) => `${c.type} ${c.resource_id.slice(3)}`),
        `ORDER.UPDATED ${id}`,
      ]);
      // The creating transaction's own line items are part of the creation (on PostgreSQL;
      // docs/API.md, "Change entries").
      if (db.type === 'postgres') {
        expect(created.map((c) => c.type)).toEqual([
          'ORDER.CREATED',
          'ISSUED_TICKET.CREATED',
          'ISSUED_TICKET.CREATED',
        ]);
      }
      return;
    }
  });

  it('outside import mode no time is stored ahead of the clock: a new order, ticket and check-in dated ahead are stamped now, one entry each', async () => {
    const ahead = (await clock()) + 3600;
    await db.begin();
    const [order] = await db.query<{ id: unknown }>(
      sql`INSERT INTO orders (box_office_id, event_id, status, currency, subtotal, tax, total,
            refund_amount, created_at, updated_at, buyer_name, buyer_email, buyer_email_lookup,
            address_1, buyer_custom_questions, payment_method_type)
          VALUES (${office}, ${eventId}, 'completed', 'gbp', 100, 20, 120, 0, ${ahead}, ${ahead},
            'Ahead Writer', 'a@example.com', 'a@example.com', '1 Street', '[]', 'stripe')
          RETURNING id`,
    );
    const id = Number(order.id);
    const tickets: number[] = [];
    for (const [status, voidedAt] of [
      ['valid', null],
      ['void', ahead],
    ] as const) {
      const [ticket] = await db.query<{ id: unknown }>(
        sql`INSERT INTO issued_tickets (box_office_id, order_id, event_id, status, barcode,
              barcode_url, qr_code_url, description, custom_questions, created_at, updated_at,
              voided_at)
            VALUES (${office}, ${id}, ${eventId}, ${status}, ${`AHEAD${status}`},
              'https://x.example/b', 'https://x.example/q', 'GA', '[]', ${ahead}, ${ahead},
              ${voidedAt}) RETURNING id`,
      );
      tickets.push(Number(ticket.id));
    }
    await db.query(
      sql`INSERT INTO check_ins (box_office_id, issued_ticket_id, event_id, event_series_id,
            quantity, check_in_at, created_at)
          SELECT t.box_office_id, t.id, t.event_id, e.event_series_id, 1, ${ahead}, ${ahead}
            FROM issued_tickets t JOIN events e ON e.id = t.event_id WHERE t.id = ${tickets[0]}`,
    );
    await db.commit();
    const now = await clock();
    const { entries, stamps } = await newEntries();
    expect(entries.slice(0, 3)).toEqual([
      `ORDER.CREATED ${id}`,
      `ISSUED_TICKET.CREATED ${tickets[0]}`,
      `ISSUED_TICKET.CREATED ${tickets[1]}`,
    ]);
    expect(entries.slice(3).map((e) => e.split(' ')[0])).toEqual([
      'CHECK_IN.CREATED',
    ]);
    expect(stamps).toHaveLength(1);
    const [stamp] = stamps;
    expect(stamp).toBeLessThanOrEqual(now);
    const [o] = await db.query<Record<string, unknown>>(
      sql`SELECT created_at, updated_at FROM orders WHERE id = ${id}`,
    );
    expect([Number(o.created_at), Number(o.updated_at)]).toEqual([
      stamp,
      stamp,
    ]);
    const rows = await db.query<Record<string, unknown>>(
      sql`SELECT created_at, updated_at, voided_at FROM issued_tickets WHERE order_id = ${id} ORDER BY id`,
    );
    expect(
      rows.map((t) =>
        [t.created_at, t.updated_at, t.voided_at].map((v) =>
          v === null ? null : Number(v),
        ),
      ),
    ).toEqual([
      [stamp, stamp, null],
      [stamp, stamp, stamp],
    ]);
    const [checkIn] = await db.query<Record<string, unknown>>(
      sql`SELECT check_in_at, created_at FROM check_ins WHERE issued_ticket_id = ${tickets[0]}`,
    );
    expect([Number(checkIn.check_in_at), Number(checkIn.created_at)]).toEqual([
      stamp,
      stamp,
    ]);
  });

  it('a change to an order written ahead of the clock (history, in import mode) stamps it now and brings its tickets back with it', async () => {
    const order = await historicOrder();
    const ahead = (await clock()) + 19 * 3600;
    await inImportMode(ds.manager, async (manager) => {
      await manager.query(
        `UPDATE issued_tickets SET status = 'void', voided_at = ${ahead}, updated_at = ${ahead}
          WHERE id = ${order.tickets[1]}`,
      );
      await manager.query(
        `UPDATE orders SET updated_at = ${ahead} WHERE id = ${order.id}`,
      );
    });
    await newEntries();
    await db.query(
      sql`UPDATE issued_tickets SET status = 'void', voided_at = ${await clock()}
           WHERE id = ${order.tickets[0]}`,
    );
    const now = await clock();
    const { entries, stamps } = await newEntries();
    // The void, and the other ticket's voided_at, which was ahead and is not any more.
    expect([...entries].sort()).toEqual(
      order.tickets.map((t) => `ISSUED_TICKET.UPDATED ${t}`).sort(),
    );
    expect(stamps).toHaveLength(1);
    const times = await db.query<Record<string, unknown>>(
      sql`SELECT o.created_at AS order_created, o.updated_at AS order_updated,
                 t.updated_at, t.voided_at
            FROM orders o JOIN issued_tickets t ON t.order_id = o.id
           WHERE o.id = ${order.id}`,
    );
    for (const t of times) {
      expect(Number(t.order_updated)).toBe(stamps[0]);
      expect(Number(t.order_created)).toBeLessThanOrEqual(
        Number(t.order_updated),
      );
      expect(Number(t.updated_at)).toBe(stamps[0]);
      expect(Number(t.voided_at)).toBeLessThanOrEqual(now);
    }
  });

  it('a change in a later second than its order was created in is an entry of its own', async () => {
    const order = await historicOrder();
    await db.query(
      sql`UPDATE orders SET status_message = 'first' WHERE id = ${order.id}`,
    );
    await sleep(1100);
    await db.query(
      sql`UPDATE orders SET status_message = 'second' WHERE id = ${order.id}`,
    );
    const { entries, stamps } = await newEntries();
    expect(entries).toEqual([
      `ORDER.UPDATED ${order.id}`,
      `ORDER.UPDATED ${order.id}`,
    ]);
    expect(stamps).toHaveLength(2);
    expect((await row('orders', order.id)).updatedAt).toBe(stamps[1]);
  });
});
