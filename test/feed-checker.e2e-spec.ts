import { setTimeout as sleep } from 'node:timers/promises';
import type { DataSource } from 'typeorm';
import { type Connection, connect, sql } from '../dev/activity/connection';
import { sweepChanges, sweepCounts } from '../src/changes/change-assigner';
import { changeHead, changePage } from '../src/changes/change-feed';
import { MIGRATIONS } from '../src/database/data-source-options';
import {
  BOX_OFFICES_WITH_DELTAS,
  attendanceCountTables,
  withPendingCounts,
} from '../src/database/pending-counts';
import { dialectFor } from '../src/database/sql-dialect';
import { rowReader } from '../src/database/row-reader';
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

// docs/DESIGN.md, "Change feed design: ids in commit order": 16 writers of two box offices write
// orders and tickets at once, with random pauses inside their transactions and one in eight
// rolled back, while a poller follows each box office's feed as GET /v1/changes reads it (the
// head, then the page after its position) and the sync recipe as the lists read it (the rows at or
// above its kept time, below the horizon), and on PostgreSQL an assigner sweeps as every instance
// does. Afterwards: every box office's ids are 1..head, no poll saw an id out of turn, the feed has
// exactly one CREATED entry per order and ticket committed and none of a rolled-back one, the
// recipe saw every order committed and none rolled back, and the counts the triggers keep equal
// their rows, as the API reads them, at every poll (on PostgreSQL while the sweep folds their
// deltas) and afterwards. FEED_CHECKER_WRITES sets the number of transactions (bench notes: 100,000).

/** SQLite's writers take turns for the whole database, and in one process would wait out each
 * other's busy timeout: one writer there. */
const WRITERS = onPostgres ? 16 : 1;
const WRITES = Number(process.env.FEED_CHECKER_WRITES ?? 480);
const LAG = 1;

describe(`the change feed and the sync recipe under ${WRITERS} concurrent writers`, () => {
  let database: TestDatabase;
  let ds: DataSource;
  const offices: { id: number; event: number; ticketType: number }[] = [];

  beforeAll(async () => {
    database = await durableTestDatabase();
    ds = await openWithMigrations(database.url, MIGRATIONS);
    const f = new Factory(ds);
    for (const name of ['Checked A', 'Checked B']) {
      const id = (await f.boxOffice(name)).id;
      const event = (await f.event(id)).id;
      const ticketType = (await f.ticketType(event)).id;
      offices.push({ id, event, ticketType });
    }
  });

  afterAll(async () => {
    await ds?.destroy();
    await database?.drop();
  });

  it(
    `${WRITES} transactions: ids contiguous and in turn, nothing missed or doubled, counts exact`,
    async () => {
      const postgres = ds.options.type === 'postgres';
      const read = rowReader(ds);
      /** Per box office: committed order ids and ticket ids, rolled-back ones. */
      const committed = offices.map(() => ({
        orders: new Set<number>(),
        tickets: new Set<number>(),
      }));
      const rolledBack = offices.map(() => new Set<string>());
      let left = WRITES;
      let commits = 0;
      let rollbacks = 0;
      let done = false;

      async function writer(n: number) {
        const db: Connection = await connect(database.url);
        try {
          while (left > 0) {
            left -= 1;
            const which = Math.floor(Math.random() * offices.length);
            const { id: office, event, ticketType } = offices[which];
            const keep = Math.random() >= 1 / 8;
            try {
              await db.begin();
              const now = Math.floor(Date.now() / 1000);
              const [order] = await db.query<{ id: unknown }>(
                sql`INSERT INTO orders (box_office_id, event_id, status, currency, subtotal, tax,
                    total, refund_amount, created_at, updated_at, buyer_name, buyer_email,
                    buyer_email_lookup, address_1, buyer_custom_questions, payment_method_type)
                  VALUES (${office}, ${event}, 'completed', 'gbp', 2500, 0, 2500, 0, ${now},
                    ${now}, 'Checker', 'c@example.com', 'c@example.com', '1 St', '[]', 'stripe')
                  RETURNING id`,
              );
              const orderId = Number(order.id);
              if (postgres) await sleep(Math.random() * 4);
              const [ticket] = await db.query<{ id: unknown }>(
                sql`INSERT INTO issued_tickets (box_office_id, order_id, event_id, ticket_type_id,
                    status, barcode, barcode_url, qr_code_url, description, custom_questions,
                    created_at, updated_at)
                  VALUES (${office}, ${orderId}, ${event}, ${ticketType}, 'valid',
                    ${`CHK${n}x${left}x${orderId}`}, 'u', 'q', 'GA', '[]', ${now}, ${now})
                  RETURNING id`,
              );
              if (postgres) await sleep(Math.random() * 4);
              if (keep) {
                await db.commit();
                commits += 1;
                committed[which].orders.add(orderId);
                committed[which].tickets.add(Number(ticket.id));
              } else {
                await db.rollback();
                rollbacks += 1;
                rolledBack[which].add(`ORDER.CREATED ${orderId}`);
                rolledBack[which].add(
                  `ISSUED_TICKET.CREATED ${Number(ticket.id)}`,
                );
              }
            } catch (error) {
              await db.rollback().catch(() => undefined);
              throw error;
            }
            // Between transactions too, so that writers interleave differently each run.
            if (Math.random() < 0.3) await sleep(Math.random() * 3);
          }
        } finally {
          await db.close();
        }
      }

      /** The feed as a poller follows it: positions, entries seen, ids seen out of turn. */
      const feeds = offices.map(() => ({
        position: 0,
        seen: new Map<string, number>(),
        outOfTurn: [] as string[],
        polls: 0,
      }));
      async function pollFeed(i: number) {
        const feed = feeds[i];
        const office = offices[i].id;
        const head = await changeHead(ds, office, read);
        while (feed.position < head) {
          const page = await changePage(ds, {
            boxOfficeId: office,
            after: feed.position,
            limit: 500,
          });
          for (const entry of page) {
            if (entry.id !== feed.position + 1 && feed.outOfTurn.length < 5) {
              feed.outOfTurn.push(`${entry.id} after ${feed.position}`);
            }
            feed.position = entry.id;
            const key = `${entry.type} ${entry.resourceId}`;
            feed.seen.set(key, (feed.seen.get(key) ?? 0) + 1);
          }
          if (page.length === 0) break;
        }
        feed.polls += 1;
      }

      /** The sync recipe on the orders: the rows at or above the kept time, up to the horizon. */
      const recipes = offices.map(() => ({ kept: 0, seen: new Set<number>() }));
      async function pollRecipe(i: number) {
        const recipe = recipes[i];
        const office = offices[i].id;
        const horizon = await readSyncHorizon(
          read,
          syncHorizonStatement(ds.options.type, LAG, office),
        );
        const p = postgres ? ['$1', '$2', '$3'] : ['?', '?', '?'];
        const rows = await read(
          `SELECT id, updated_at FROM orders WHERE box_office_id = ${p[0]}
           AND updated_at >= ${p[1]} AND updated_at <= ${p[2]}`,
          [office, recipe.kept, horizon],
        );
        for (const row of rows) {
          recipe.seen.add(Number(row.id));
          recipe.kept = Math.max(recipe.kept, Number(row.updated_at));
        }
      }

      /**
       * Events, ticket types and box offices whose counts, as the API reads them (on PostgreSQL
       * the row plus the deltas not folded yet: src/database/pending-counts.ts), differ from
       * their rows: one statement, so one snapshot, exact whatever is being written or folded.
       */
      const pendingRollup = (column: string) =>
        postgres
          ? ` + (SELECT coalesce(sum(${column}), 0) FROM activity_deltas d
                 WHERE d.box_office_id = b.id)`
          : '';
      // An event's attendance (migration AttendanceCounts): its counts (and deltas) against its
      // tickets, figure by figure.
      const attendanceRows = attendanceCountTables(dialectFor(ds.options.type))
        .map((table) => `SELECT a.* FROM ${table} a WHERE a.event_id = e.id`)
        .join(' UNION ALL ');
      const attendanceChecks = Object.entries({
        tickets_valid: "t.status = 'valid'",
        tickets_void: "t.status <> 'valid'",
        checked_in: "t.status = 'valid' AND t.checked_in",
        entered: "t.status = 'valid' AND t.entered",
      }).map(
        ([column, counted]) =>
          `(SELECT coalesce(sum(a.${column}), 0) FROM (${attendanceRows}) a)
              <> (SELECT count(*) FROM issued_tickets t WHERE t.event_id = e.id AND ${counted})`,
      );
      const countsSql = `SELECT 'tt' AS what, y.id FROM ticket_types y
        WHERE y.quantity_issued <> (SELECT count(*) FROM issued_tickets t
                WHERE t.ticket_type_id = y.id AND t.status = 'valid')
       UNION ALL
       SELECT 'ev', e.id FROM events e
        WHERE e.completed_orders_count <> (SELECT count(*) FROM orders o
                WHERE o.event_id = e.id AND o.status = 'completed')
           OR e.completed_revenue <> (SELECT coalesce(sum(o.total - o.refund_amount), 0)
                FROM orders o WHERE o.event_id = e.id AND o.status = 'completed')
           OR e.valid_tickets_count <> (SELECT count(*) FROM issued_tickets t
                WHERE t.event_id = e.id AND t.status = 'valid')
       UNION ALL
       SELECT 'bo', b.id FROM box_offices b
        WHERE (SELECT coalesce(sum(completed_orders), 0) FROM order_hours r
                WHERE r.box_office_id = b.id)${pendingRollup('completed_orders')}
              <> (SELECT count(*) FROM orders o WHERE o.box_office_id = b.id
                    AND o.status = 'completed')
           OR (SELECT coalesce(sum(revenue), 0) FROM revenue_days r
                WHERE r.box_office_id = b.id)${pendingRollup('revenue')}
              <> (SELECT coalesce(sum(o.total - o.refund_amount), 0) FROM orders o
                   WHERE o.box_office_id = b.id AND o.status = 'completed')
           OR (SELECT coalesce(sum(valid_tickets), 0) FROM ticket_days r
                WHERE r.box_office_id = b.id)${pendingRollup('valid_tickets')}
              <> (SELECT count(*) FROM issued_tickets t WHERE t.box_office_id = b.id
                    AND t.status = 'valid')
       UNION ALL
       SELECT 'at', e.id FROM events e
        WHERE ${attendanceChecks.join('\n           OR ')}`;
      const countsAsRead = postgres ? withPendingCounts(countsSql) : countsSql;
      const wrongCounts = async () =>
        (await read(countsAsRead, [])).map(
          (row) => `${String(row.what)}_${Number(row.id)}`,
        );
      const countsWrong: string[] = [];
      let countChecks = 0;

      // The setup's entries (the events, their series) are before the run.
      for (let i = 0; i < offices.length; i++) {
        feeds[i].position = await changeHead(ds, offices[i].id, read);
      }
      const pollers = (async () => {
        while (!done) {
          for (let i = 0; i < offices.length; i++) {
            await pollFeed(i);
            await pollRecipe(i);
          }
          if (postgres) {
            await sweepChanges(read);
            await sweepCounts(read);
          }
          if (countsWrong.length < 5)
            countsWrong.push(...(await wrongCounts()));
          countChecks += 1;
          await sleep(5);
        }
      })();
      try {
        await Promise.all(Array.from({ length: WRITERS }, (_, n) => writer(n)));
      } finally {
        done = true;
        await pollers;
      }
      // Once the horizon is past every write, a last poll of each.
      await sleep((LAG + 1.2) * 1000);
      for (let i = 0; i < offices.length; i++) {
        await pollFeed(i);
        await pollRecipe(i);
      }

      for (let i = 0; i < offices.length; i++) {
        const office = offices[i].id;
        const feed = feeds[i];
        expect(feed.outOfTurn).toEqual([]);
        const [ids] = await ds.query<
          { n: string; low: string; high: string }[]
        >(
          `SELECT count(*) AS n, min(id) AS low, max(id) AS high FROM changes
          WHERE box_office_id = ${office}`,
        );
        const head = await changeHead(ds, office);
        expect([Number(ids.n), Number(ids.low), Number(ids.high)]).toEqual([
          head,
          1,
          head,
        ]);
        expect(feed.position).toBe(head);
        const expected = new Map<string, number>();
        for (const id of committed[i].orders) {
          expected.set(`ORDER.CREATED ${id}`, 1);
        }
        for (const id of committed[i].tickets) {
          expected.set(`ISSUED_TICKET.CREATED ${id}`, 1);
        }
        // Nothing missed, nothing doubled, nothing of a rolled-back transaction.
        expect(feed.seen).toEqual(expected);
        // (SQLite gives a rolled-back row's id to the next insert: only ids never committed.)
        expect(
          [...rolledBack[i]].filter(
            (k) => feed.seen.has(k) && !expected.has(k),
          ),
        ).toEqual([]);
        expect([...recipes[i].seen].sort((a, b) => a - b)).toEqual(
          [...committed[i].orders].sort((a, b) => a - b),
        );
      }
      expect(commits + rollbacks).toBe(WRITES);
      expect(committed.reduce((n, c) => n + c.orders.size, 0)).toBe(commits);

      // The counts, as readers read them, against their rows, after the last fold and with
      // deltas still waiting (they were compared in every poll too, above).
      expect(countsWrong).toEqual([]);
      expect(countChecks).toBeGreaterThan(0);
      expect(await wrongCounts()).toEqual([]);
      if (postgres) {
        await sweepCounts(read);
        expect(await wrongCounts()).toEqual([]);
        expect(await read(BOX_OFFICES_WITH_DELTAS, [])).toEqual([]);
      }
    },
    Math.max(600_000, WRITES * 30),
  );
});
