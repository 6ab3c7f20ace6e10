import { setTimeout as sleep } from 'node:timers/promises';
import { Client } from 'pg';
import type { DataSource } from 'typeorm';
import { type Connection, connect, sql } from '../dev/activity/connection';
import { runActivity } from '../dev/activity/run';
import {
  ActivityError,
  ActivityWriter,
  type PrintedChange,
} from '../dev/activity/writer';
import {
  type ChangePageQuery,
  changeHead,
  changePage,
  isChangePositionExpired,
  oldestKeptChange,
} from '../src/changes/change-feed';
import { sweepChanges } from '../src/changes/change-assigner';
import { deleteExpiredChanges } from '../src/changes/changes-retention';
import { MIGRATIONS } from '../src/database/data-source-options';
import { rowReader } from '../src/database/row-reader';
import { EventSeries1765000000000 } from '../src/database/migrations/1765000000000-EventSeries';
import { CheckIns1765100000000 } from '../src/database/migrations/1765100000000-CheckIns';
import { EventsAndTicketTypes1764000000000 } from '../src/database/migrations/1764000000000-EventsAndTicketTypes';
import { InitialSchema1763800000000 } from '../src/database/migrations/1763800000000-InitialSchema';
import { WritesWithoutHotRows1766800000000 } from '../src/database/migrations/1766800000000-WritesWithoutHotRows';
import { RecordChangePlannedOnce1766940000000 } from '../src/database/migrations/1766940000000-RecordChangePlannedOnce';
import {
  readSyncHorizon,
  syncHorizonStatement,
} from '../src/sync/sync-horizon';
import { Factory } from './utils/factories';
import {
  durableTestDatabase,
  openWithMigrations,
} from './utils/migrated-database';
import { onPostgres, type TestDatabase } from './utils/test-database';

const LAG = 2;
const itOnPostgres = onPostgres ? it : it.skip;
const itOnSqlite = onPostgres ? it.skip : it;

// docs/API.md, "Incremental sync" (the horizon) and "Change feed" (commit order, retention), and
// the development writer. On SQLite by default, on PostgreSQL under `npm run test:e2e:postgres`.
describe('sync horizon, change feed and the development writer', () => {
  let database: TestDatabase;
  let ds: DataSource;
  let db: Connection;
  let writer: ActivityWriter;
  let office: number;
  let eventId: number;
  let postgres: boolean;

  const horizon = (boxOfficeId = office) =>
    readSyncHorizon(
      rowReader(ds),
      syncHorizonStatement(ds.options.type, LAG, boxOfficeId),
    );

  async function clock() {
    return writer.clock();
  }

  /**
   * A page as GET /v1/changes reads it: the head first (on PostgreSQL that numbers the entries
   * committed before it: src/changes/change-assigner.ts), then the entries after `after`.
   */
  async function feedPage(query: ChangePageQuery) {
    await changeHead(ds, query.boxOfficeId);
    return changePage(ds, query);
  }

  async function historicOrder() {
    const order = await new Factory(ds).order(office, eventId, {
      createdAt: 1_750_000_000,
    });
    return {
      id: order.id,
      tickets: order.issuedTickets!.map((t) => t.id),
    };
  }

  beforeAll(async () => {
    database = await durableTestDatabase();
    ds = await openWithMigrations(database.url, MIGRATIONS);
    postgres = ds.options.type === 'postgres';
    db = await connect(database.url);
    writer = new ActivityWriter(db, LAG);
    const f = new Factory(ds);
    office = (await f.boxOffice('Sync')).id;
    eventId = (await f.event(office)).id;
    await f.ticketType(eventId);
  });

  afterAll(async () => {
    await db?.close();
    await ds?.destroy();
    await database?.drop();
  });

  describe('the sync horizon', () => {
    it('is an integer below the database clock', async () => {
      const now = await clock();
      const h = await horizon();
      expect(Number.isInteger(h)).toBe(true);
      expect(h).toBeLessThan(now);
      expect(h).toBeGreaterThanOrEqual(now - (postgres ? 2 : LAG + 1));
    });

    it('stays below a held change until it commits; the change is invisible until then, then appears above every horizon read meanwhile', async () => {
      const order = await historicOrder();
      const holdMs = postgres ? 2500 : 1000;
      let settled = false;
      const held = writer
        .voidTicket(`it_${order.tickets[0]}`, { holdMs })
        .finally(() => (settled = true));
      // A horizon read counts when the change was still invisible after it: it was read before
      // the commit.
      const seenDuringHold: number[] = [];
      while (!settled) {
        const h = await horizon();
        const [ticket] = await ds.query<{ status: string }[]>(
          `SELECT status FROM issued_tickets WHERE id = ${order.tickets[0]}`,
        );
        if (ticket.status === 'valid') seenDuringHold.push(h);
        await sleep(100);
      }
      const printed = await held;
      expect(printed).toEqual([
        {
          type: 'ISSUED_TICKET.UPDATED',
          resource_id: `it_${order.tickets[0]}`,
          stamp: expect.any(Number) as number,
        },
      ]);
      const stamp = printed[0].stamp;
      expect(seenDuringHold.length).toBeGreaterThan(2);
      expect(Math.max(...seenDuringHold)).toBeLessThan(stamp);
      // Committed: the rows carry the stamp, and the horizon passes it soon after.
      const [ticket] = await ds.query<{ updated_at: unknown }[]>(
        `SELECT updated_at FROM issued_tickets WHERE id = ${order.tickets[0]}`,
      );
      expect(Number(ticket.updated_at)).toBe(stamp);
      let after = await horizon();
      for (let i = 0; i < 40 && after < stamp; i++) {
        await sleep(100);
        after = await horizon();
      }
      expect(after).toBeGreaterThanOrEqual(stamp);
    });

    // pg_locks is readable by every role: the horizon needs no privilege, and sees a writer of
    // another role.
    itOnPostgres(
      'works for a role without privileges, below an open stamped transaction of another role',
      async () => {
        const role = `sync_reader_${process.pid}_${Date.now()}`;
        await ds.query(`CREATE ROLE ${role} LOGIN`);
        const url = new URL(database.url);
        url.username = role;
        const reader = new Client({ connectionString: url.toString() });
        await reader.connect();
        try {
          const order = await historicOrder();
          const held = writer.voidTicket(`it_${order.tickets[0]}`, {
            holdMs: 3000,
          });
          // Long enough that the clock alone would put the horizon past the stamp.
          await sleep(2200);
          const statement = syncHorizonStatement('postgres', LAG, office);
          const { rows } = await reader.query<{ horizon: string }>(
            statement.sql,
            statement.params,
          );
          const [{ stamp }] = await held;
          expect(Number(rows[0].horizon)).toBeLessThan(stamp);
        } finally {
          await reader.end();
          await ds.query(`DROP ROLE ${role}`);
        }
      },
    );

    // docs/DESIGN.md, "The stamp and the sync horizon": one stamp per box office a transaction
    // writes, announced for that box office when it first writes it.
    itOnPostgres(
      'is per box office: held by its own open transaction only; a transaction that writes a second box office later stamps it above that one’s horizon meanwhile',
      async () => {
        const f = new Factory(ds);
        const other = (await f.boxOffice('Other')).id;
        const theirs = await f.order(other, (await f.event(other)).id, {
          createdAt: 1_750_000_000,
        });
        const mine = await historicOrder();
        const open = await connect(database.url);
        try {
          await open.begin();
          await open.query(
            sql`UPDATE orders SET status_message = 'held' WHERE id = ${mine.id}`,
          );
          const [held] = await open.query<{ updated_at: unknown }>(
            sql`SELECT updated_at FROM orders WHERE id = ${mine.id}`,
          );
          const heldStamp = Number(held.updated_at);
          // Long enough that the clock alone would put either horizon past the held stamp.
          await sleep(2200);
          expect(await horizon(office)).toBeLessThan(heldStamp);
          const before = await horizon(other);
          expect(before).toBeGreaterThanOrEqual(heldStamp);
          await open.query(
            sql`UPDATE orders SET status_message = 'later' WHERE id = ${theirs.id}`,
          );
          await open.commit();
          const [entry] = await feedPage({
            boxOfficeId: other,
            after: 0,
            limit: 10,
            resource: { family: 'ORDER', id: theirs.id },
          });
          expect(entry.createdAt).toBeGreaterThan(before);
          const [row] = await ds.query<{ updated_at: unknown }[]>(
            `SELECT updated_at FROM orders WHERE id = ${theirs.id}`,
          );
          expect(Number(row.updated_at)).toBe(entry.createdAt);
        } finally {
          await open.rollback();
          await open.close();
        }
      },
      20_000,
    );

    itOnSqlite(
      'on SQLite refuses a hold the lag does not allow, and writes nothing',
      async () => {
        const order = await historicOrder();
        const head = await changeHead(ds, office);
        await expect(
          writer.voidTicket(`it_${order.tickets[0]}`, { holdMs: LAG * 1000 }),
        ).rejects.toThrow(
          new ActivityError(
            `--hold-ms ${LAG * 1000}: on SQLite a writer must commit within SYNC_LAG_S (${LAG} s) of its stamp, so at most ${LAG * 1000 - 250}`,
          ),
        );
        expect(await changeHead(ds, office)).toBe(head);
      },
    );
  });

  describe('change ids in commit order', () => {
    // On SQLite writers take turns whole (BEGIN IMMEDIATE): there is no concurrent writer.
    itOnPostgres(
      'writers of the same box office do not wait for each other; entries are numbered in the order they became visible; a poller never sees a later id first',
      async () => {
        const order = await historicOrder();
        const other = await historicOrder();
        const second = await connect(database.url);
        try {
          const head = await changeHead(ds, office);
          await db.begin();
          await db.query(sql`UPDATE orders SET tax = 1 WHERE id = ${order.id}`);
          await second.begin();
          // Unnumbered (migration WritesWithoutHotRows): nothing of the first holds the second.
          await second.query(
            sql`UPDATE issued_tickets SET full_name = 'Later' WHERE id = ${other.tickets[1]}`,
          );
          expect(
            await feedPage({ boxOfficeId: office, after: head, limit: 10 }),
          ).toEqual([]);
          // The later writer commits first: its entry is visible first, so it is numbered first.
          await second.commit();
          expect(
            (
              await feedPage({ boxOfficeId: office, after: head, limit: 10 })
            ).map((e) => [e.id, e.type]),
          ).toEqual([[head + 1, 'ISSUED_TICKET.UPDATED']]);
          await db.commit();
          expect(
            (
              await feedPage({ boxOfficeId: office, after: head, limit: 10 })
            ).map((e) => [e.id, e.type]),
          ).toEqual([
            [head + 1, 'ISSUED_TICKET.UPDATED'],
            [head + 2, 'ORDER.UPDATED'],
          ]);
          expect(await changeHead(ds, office)).toBe(head + 2);
        } finally {
          await db.rollback().catch(() => undefined);
          await second.rollback().catch(() => undefined);
          await second.close();
        }
      },
    );

    itOnPostgres(
      'the periodic sweep numbers committed entries without a reader; a box office another assigner holds is skipped, not waited for',
      async () => {
        const order = await historicOrder();
        const head = await changeHead(ds, office);
        await writer.refundOrder(`or_${order.id}`, 1);
        const [{ waiting }] = await ds.query<{ waiting: string }[]>(
          `SELECT count(*) AS waiting FROM change_inbox WHERE box_office_id = ${office}`,
        );
        expect(Number(waiting)).toBe(1);
        const holder = await connect(database.url);
        try {
          await holder.begin();
          await holder.query(
            sql`SELECT pg_advisory_xact_lock((20251127::bigint << 32) + ${office})`,
          );
          expect(await sweepChanges(rowReader(ds))).toBe(0);
          await holder.commit();
          expect(await sweepChanges(rowReader(ds))).toBe(1);
        } finally {
          await holder.rollback().catch(() => undefined);
          await holder.close();
        }
        const [numbered] = await ds.query<{ last_id: string }[]>(
          `SELECT last_id FROM change_heads WHERE box_office_id = ${office}`,
        );
        expect(Number(numbered.last_id)).toBe(head + 1);
      },
    );
  });

  describe('the feed reads', () => {
    it('pages after a position, filtered by type, resource and time', async () => {
      const order = await historicOrder();
      const head = await changeHead(ds, office);
      await writer.refundOrder(`or_${order.id}`, 100);
      await writer.voidTicket(`it_${order.tickets[0]}`);
      const all = await feedPage({
        boxOfficeId: office,
        after: head,
        limit: 100,
      });
      expect(all.map((e) => [e.id, e.type, e.resourceId])).toEqual([
        [head + 1, 'ORDER.UPDATED', order.id],
        [head + 2, 'ISSUED_TICKET.UPDATED', order.tickets[0]],
      ]);
      expect(
        await feedPage({
          boxOfficeId: office,
          after: head,
          limit: 100,
          types: ['ISSUED_TICKET.UPDATED'],
        }),
      ).toEqual([all[1]]);
      expect(
        await feedPage({
          boxOfficeId: office,
          after: 0,
          limit: 100,
          resource: { family: 'ISSUED_TICKET', id: order.tickets[0] },
        }),
      ).toEqual([all[1]]);
      expect(
        await feedPage({
          boxOfficeId: office,
          after: head,
          limit: 1,
          createdAt: { gte: all[0].createdAt },
        }),
      ).toEqual([all[0]]);
      expect(
        await feedPage({
          boxOfficeId: office,
          after: head,
          limit: 100,
          createdAt: { lt: all[0].createdAt },
        }),
      ).toEqual([]);
    });

    it('retention removes a prefix in batches, and a position before it is expired', async () => {
      const head = await changeHead(ds, office);
      expect(head).toBeGreaterThan(2);
      expect(await isChangePositionExpired(ds, office, 0)).toBe(false);
      // Everything older than now + 1 s: every entry, three at a time.
      const removed = await deleteExpiredChanges(ds, (await clock()) + 1, 3);
      expect(removed).toBeGreaterThanOrEqual(head);
      expect(await oldestKeptChange(ds, office)).toBeNull();
      expect(await changeHead(ds, office)).toBe(head);
      expect(await isChangePositionExpired(ds, office, head - 1)).toBe(true);
      expect(await isChangePositionExpired(ds, office, head)).toBe(false);

      const order = await historicOrder();
      await writer.refundOrder(`or_${order.id}`, 50);
      // Read as the feed reads: its head first (which numbers the refund's entry on PostgreSQL).
      expect(await changeHead(ds, office)).toBe(head + 1);
      expect(await oldestKeptChange(ds, office)).toBe(head + 1);
      expect(await isChangePositionExpired(ds, office, head)).toBe(false);
      expect(await isChangePositionExpired(ds, office, head - 1)).toBe(true);
      // Entries younger than the cutoff stay.
      expect(await deleteExpiredChanges(ds, (await clock()) - 60)).toBe(0);
      expect(await oldestKeptChange(ds, office)).toBe(head + 1);
    });
  });

  describe('the development writer', () => {
    it('refuses what the data does not allow, with a clear error, and writes nothing', async () => {
      const order = await historicOrder();
      const head = await changeHead(ds, office);
      await writer.voidTicket(`it_${order.tickets[0]}`);
      const after = await changeHead(ds, office);
      await expect(writer.voidTicket(`it_${order.tickets[0]}`)).rejects.toThrow(
        `it_${order.tickets[0]} is already void`,
      );
      await expect(writer.refundOrder(`or_${order.id}`, 6241)).rejects.toThrow(
        `or_${order.id}: refunds would reach 6241, more than its total 6240 (0 refunded already)`,
      );
      await expect(writer.cancelOrder('or_999999')).rejects.toThrow(
        'or_999999 does not exist',
      );
      await expect(writer.voidTicket('or_5')).rejects.toThrow(
        'expected an id like it_5, got "or_5"',
      );
      expect(after).toBe(head + 1);
      expect(await changeHead(ds, office)).toBe(after);
    });

    it('writes a new order as the connectors read it: its buyer’s names, its ticket line’s type', async () => {
      const [created] = await writer.newOrder(`ev_${eventId}`, {
        random: () => 0.25,
      });
      const id = Number(created.resource_id.replace('or_', ''));
      const [order] = await ds.query<Record<string, unknown>[]>(
        `SELECT buyer_name, buyer_first_name, buyer_last_name FROM orders WHERE id = ${id}`,
      );
      expect(order.buyer_name).toBe(
        `${String(order.buyer_first_name)} ${String(order.buyer_last_name)}`,
      );
      const lines = await ds.query<{ type: string; ticket_type_id: unknown }[]>(
        `SELECT type, ticket_type_id FROM line_items WHERE order_id = ${id} ORDER BY id`,
      );
      const [type] = await ds.query<{ id: unknown }[]>(
        `SELECT id FROM ticket_types WHERE event_id = ${eventId} ORDER BY sort_order, id LIMIT 1`,
      );
      expect(
        lines.map((li) => [
          li.type,
          li.ticket_type_id === null ? null : Number(li.ticket_type_id),
        ]),
      ).toEqual([
        ['ticket', type === undefined ? null : Number(type.id)],
        ['tax', null],
      ]);
    });

    it('prints, per change, exactly the entries it wrote: a new order, a cancellation, an edit, a deletion', async () => {
      const created = await writer.newOrder(`ev_${eventId}`, {
        random: () => 0.5,
      });
      // Its two line items are part of the creation; on SQLite, which cannot tell one
      // transaction from the next in a trigger, entries of the order all the same.
      expect(created.map((c) => c.type)).toEqual([
        'ORDER.CREATED',
        ...(postgres ? [] : ['ORDER.UPDATED', 'ORDER.UPDATED']),
        'ISSUED_TICKET.CREATED',
        'ISSUED_TICKET.CREATED',
      ]);
      const orderId = created[0].resource_id;
      const tickets = created
        .filter((c) => c.type === 'ISSUED_TICKET.CREATED')
        .map((c) => c.resource_id);
      // Its tickets first, then the order (the lock order: docs/OPERATIONS.md, "Deadlocks").
      const cancelled = await writer.cancelOrder(orderId);
      expect(cancelled.map((c) => `${c.type} ${c.resource_id}`)).toEqual([
        `ISSUED_TICKET.UPDATED ${tickets[0]}`,
        `ISSUED_TICKET.UPDATED ${tickets[1]}`,
        `ORDER.UPDATED ${orderId}`,
      ]);
      expect(
        (await writer.editEvent(`ev_${eventId}`, 'Edited by activity')).map(
          (c) => `${c.type} ${c.resource_id}`,
        ),
      ).toEqual([`EVENT.UPDATED ev_${eventId}`]);
      const deleted = await writer.deleteOrder(orderId);
      expect(deleted.map((c) => `${c.type} ${c.resource_id}`).sort()).toEqual(
        [
          `ORDER.DELETED ${orderId}`,
          `ISSUED_TICKET.DELETED ${tickets[0]}`,
          `ISSUED_TICKET.DELETED ${tickets[1]}`,
        ].sort(),
      );
      for (const change of [...created, ...cancelled, ...deleted]) {
        expect(change.stamp).toBeGreaterThan(1_700_000_000);
      }
    });

    it('a run prints every entry the feed then holds, type for type', async () => {
      const head = await changeHead(ds, office);
      const printed: PrintedChange[] = [];
      const summary = await runActivity(
        writer,
        db,
        { boxOfficeId: office, durationS: 2, rate: 10, seed: 7 },
        (entries) => printed.push(...entries),
      );
      expect(summary.changes).toBeGreaterThan(5);
      expect(summary.entries).toBe(printed.length);
      const feed = await feedPage({
        boxOfficeId: office,
        after: head,
        limit: 1000,
      });
      expect(feed.map((e) => e.id)).toEqual(feed.map((_, i) => head + 1 + i));
      const key = (type: string, id: string | number, stamp: number) =>
        `${type} ${String(id).replace(/^[a-z]+_/, '')} ${stamp}`;
      expect(feed.map((e) => key(e.type, e.resourceId, e.createdAt))).toEqual(
        printed.map((p) => key(p.type, p.resource_id, p.stamp)),
      );
    });
  });
});

// docs/DESIGN.md, "Upgrading": the migration fills orders.updated_at from the order's own times and
// its tickets'.
describe('upgrading: orders.updated_at is backfilled', () => {
  let database: TestDatabase;
  afterAll(() => database?.drop());

  it('to the latest of the order’s updated_at and created_at and its tickets’ updated_at', async () => {
    database = await durableTestDatabase();
    const before = await openWithMigrations(database.url, [
      InitialSchema1763800000000,
      EventsAndTicketTypes1764000000000,
      EventSeries1765000000000,
      CheckIns1765100000000,
    ]);
    const f = new Factory(before);
    // The box office as the schema of that release has it (without later columns).
    const [{ id: office }] = await before.query<{ id: number }[]>(
      "INSERT INTO box_offices (name, created_at) VALUES ('Upgrade', 1700000000) RETURNING id",
    );
    const event = (await f.event(office)).id;
    // Orders and tickets as that release's writers wrote them: its columns only, plain SQL.
    const order = async (barcode: string) => {
      const [{ id }] = await before.query<{ id: number }[]>(
        `INSERT INTO orders (box_office_id, event_id, status, currency, subtotal, tax, total,
           refund_amount, created_at, updated_at, buyer_name, buyer_email, buyer_email_lookup,
           address_1, buyer_custom_questions, payment_method_type)
         VALUES (${office}, ${event}, 'completed', 'gbp', 5200, 1040, 6240, 0, 1750000000,
           1750000060, 'Jane Doe', 'jane@example.com', 'jane@example.com', '12 High Street',
           '[]', 'stripe') RETURNING id`,
      );
      for (const n of [1, 2]) {
        await before.query(
          `INSERT INTO issued_tickets (box_office_id, order_id, event_id, status, barcode,
             barcode_url, qr_code_url, description, custom_questions, created_at, updated_at)
           VALUES (${office}, ${id}, ${event}, 'valid', '${barcode}${n}',
             'https://cdn.boxoffice.example/b.png', 'https://cdn.boxoffice.example/q.png',
             'General Admission', '[]', 1750000000, 1750000000)`,
        );
      }
      return { id: Number(id) };
    };
    const behind = await order('BEHIND');
    const ahead = await order('AHEAD');
    await before.query(
      `UPDATE issued_tickets SET updated_at = 1750009999 WHERE order_id = ${behind.id}`,
    );
    await before.destroy();

    const after = await openWithMigrations(database.url, MIGRATIONS);
    try {
      const times = await after.query<{ id: number; updated_at: unknown }[]>(
        'SELECT id, updated_at FROM orders ORDER BY id',
      );
      expect(times.map((t) => [Number(t.id), Number(t.updated_at)])).toEqual([
        [behind.id, 1_750_009_999],
        [ahead.id, 1_750_000_060],
      ]);
      expect(await after.query('SELECT * FROM changes')).toEqual([]);
    } finally {
      await after.destroy();
    }
  });
});

// docs/DESIGN.md, "Change feed design": migration WritesWithoutHotRows moves PostgreSQL's numbering
// after the commit, in place: each box office goes on from its head, and reverting it numbers
// what is waiting first.
describe('upgrading: entries numbered after the commit', () => {
  let database: TestDatabase;
  afterAll(() => database?.drop());

  const itOnPostgresAlone = onPostgres ? it : it.skip;
  itOnPostgresAlone(
    'keeps every box office’s numbering: entries written after the upgrade follow its head, 1..head with no hole, and back again',
    async () => {
      database = await durableTestDatabase();
      // RecordChangePlannedOnce rewrites the record_change WritesWithoutHotRows made (into the
      // inbox): it is left out on both sides, so that the upgrade is WritesWithoutHotRows alone.
      const upgraded = MIGRATIONS.filter(
        (m) => m !== RecordChangePlannedOnce1766940000000,
      );
      const earlier = upgraded.filter(
        (m) => m !== WritesWithoutHotRows1766800000000,
      );
      const before = await openWithMigrations(database.url, earlier);
      const f = new Factory(before);
      const office = (await f.boxOffice('Upgraded')).id;
      const other = (await f.boxOffice('Other')).id;
      await f.event(office);
      await f.series(office, { name: 'Before' });
      await f.event(other);
      const heads = async (ds: DataSource) =>
        (
          await ds.query<{ box_office_id: number; last_id: string }[]>(
            'SELECT box_office_id, last_id FROM change_heads ORDER BY box_office_id',
          )
        ).map((h) => [Number(h.box_office_id), Number(h.last_id)]);
      const headsBefore = await heads(before);
      expect(headsBefore.length).toBe(2);
      const [[, head]] = headsBefore.filter(([o]) => o === office);
      await before.destroy();

      const after = await openWithMigrations(database.url, upgraded);
      try {
        expect(await heads(after)).toEqual(headsBefore);
        await new Factory(after).series(office, { name: 'After' });
        expect(await changeHead(after, office)).toBe(head + 1);
        const ids = await after.query<{ id: string; type: string }[]>(
          `SELECT id, type FROM changes WHERE box_office_id = ${office} ORDER BY id`,
        );
        expect(ids.map((e) => Number(e.id))).toEqual(
          Array.from({ length: head + 1 }, (_, i) => i + 1),
        );
        expect(ids.at(-1)!.type).toBe('EVENT_SERIES.CREATED');
        // Reverted with an entry still waiting: it is numbered, then writers number again.
        await new Factory(after).series(office, { name: 'Waiting' });
        await after.undoLastMigration({ transaction: 'each' });
        expect(await heads(after)).toContainEqual([office, head + 2]);
        await new Factory(after).series(office, { name: 'Reverted' });
        expect(await heads(after)).toContainEqual([office, head + 3]);
      } finally {
        await after.destroy();
      }
    },
  );
});
