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
import { type TestDatabase, onPostgres } from './utils/test-database';

// docs/API.md, "Incremental sync" and "Change feed": check-ins and event series. On SQLite by
// default, on PostgreSQL under `npm run test:e2e:postgres`.
describe('sync triggers on check-ins and event series', () => {
  let database: TestDatabase;
  let ds: DataSource;
  let db: Connection;
  let writer: ActivityWriter;
  let office: number;
  let order: { id: number; tickets: number[] };

  /** The entries after `after`, read as the feed reads them: its head first. */
  const entries = async (after: number) => {
    await changeHead(ds, office);
    return (
      await changePage(ds, { boxOfficeId: office, after, limit: 100 })
    ).map((e) => ({ entry: `${e.type} ${e.resourceId}`, stamp: e.createdAt }));
  };
  const updatedAt = async (table: 'orders' | 'issued_tickets', id: number) =>
    Number(
      (
        await ds.query<{ updated_at: unknown }[]>(
          `SELECT updated_at FROM ${table} WHERE id = ${id}`,
        )
      )[0].updated_at,
    );

  beforeAll(async () => {
    database = await durableTestDatabase();
    ds = await openWithMigrations(database.url, MIGRATIONS);
    db = await connect(database.url);
    writer = new ActivityWriter(db, 2);
    const f = new Factory(ds);
    office = (await f.boxOffice('Door')).id;
    const event = await f.event(office);
    const saved = await f.order(office, event.id, { createdAt: 1_750_000_000 });
    order = { id: saved.id, tickets: saved.issuedTickets!.map((t) => t.id) };
  });

  afterAll(async () => {
    await db?.close();
    await ds?.destroy();
    await database?.drop();
  });

  it('a check-in is CHECK_IN.CREATED, recorded at its stamp, and moves its ticket and order to it', async () => {
    const head = await changeHead(ds, office);
    const [printed] = await writer.checkIn(
      `it_${order.tickets[0]}`,
      1_750_000_100,
    );
    const written = await entries(head);
    expect(written).toEqual([
      {
        entry: `CHECK_IN.CREATED ${printed.resource_id.slice(3)}`,
        stamp: printed.stamp,
      },
    ]);
    expect(printed.type).toBe('CHECK_IN.CREATED');
    const [row] = await ds.query<
      { check_in_at: unknown; created_at: unknown }[]
    >(
      `SELECT check_in_at, created_at FROM check_ins WHERE id = ${printed.resource_id.slice(3)}`,
    );
    expect(Number(row.check_in_at)).toBe(1_750_000_100);
    expect(Number(row.created_at)).toBe(printed.stamp);
    expect(await updatedAt('issued_tickets', order.tickets[0])).toBe(
      printed.stamp,
    );
    expect(await updatedAt('orders', order.id)).toBe(printed.stamp);
    expect(await updatedAt('issued_tickets', order.tickets[1])).toBe(
      1_750_000_000,
    );
  });

  it('check-out needs a check-in; a void ticket cannot be checked in', async () => {
    await expect(writer.checkIn(`it_${order.tickets[0]}`)).rejects.toThrow(
      `it_${order.tickets[0]} is already checked in`,
    );
    expect(
      (await writer.checkOut(`it_${order.tickets[0]}`)).map((p) => p.type),
    ).toEqual(['CHECK_IN.CREATED']);
    await expect(writer.checkOut(`it_${order.tickets[0]}`)).rejects.toThrow(
      `it_${order.tickets[0]} is not checked in: nothing to check out`,
    );
    await writer.voidTicket(`it_${order.tickets[1]}`);
    await expect(writer.checkIn(`it_${order.tickets[1]}`)).rejects.toThrow(
      `it_${order.tickets[1]} is void: a void ticket cannot be checked in`,
    );
  });

  it("a ticket's checked_in flag, kept from its check-ins, moves the ticket but is no entry of its own", async () => {
    const f = new Factory(ds);
    const fresh = await f.order(office, (await f.event(office)).id, {
      createdAt: 1_750_000_000,
    });
    const ticket = fresh.issuedTickets![0].id;
    const head = await changeHead(ds, office);
    await db.query(
      sql`UPDATE issued_tickets SET checked_in = ${true} WHERE id = ${ticket}`,
    );
    expect(await entries(head)).toEqual([]);
    const [now] = await db.query<{ now: unknown }>(
      db.type === 'sqlite'
        ? sql`SELECT unixepoch() AS now`
        : sql`SELECT floor(extract(epoch FROM clock_timestamp()))::bigint AS now`,
    );
    expect(
      await updatedAt('issued_tickets', order.tickets[0]),
    ).toBeGreaterThanOrEqual(Number(now.now) - 1);
  });

  // A scan's transaction reads its check-in back and keeps its Idempotency-Key answer before it
  // commits; holding the box office's change head for all that would make every writer of the
  // box office wait (docs/DESIGN.md, "Change feed design").
  (onPostgres ? it : it.skip)(
    "numbers a check-in's entry as its transaction commits: until then it holds no other writer of its box office back",
    async () => {
      const f = new Factory(ds);
      const event = (await f.event(office)).id;
      const scanned = await f.order(office, event, {
        createdAt: 1_750_000_000,
      });
      const other = await f.order(office, event, { createdAt: 1_750_000_000 });
      const ticket = scanned.issuedTickets![0].id;
      const head = await changeHead(ds, office);
      await db.begin();
      const [checkIn] = await db.query<{ id: unknown }>(
        sql`INSERT INTO check_ins (box_office_id, issued_ticket_id, event_id, event_series_id,
              quantity, check_in_at, created_at)
            SELECT t.box_office_id, t.id, t.event_id, e.event_series_id, 1, 1750000100, 1750000100
              FROM issued_tickets t JOIN events e ON e.id = t.event_id WHERE t.id = ${ticket}
            RETURNING id`,
      );
      try {
        // Another writer of the box office, meanwhile: before, it waited for the scan's commit.
        await ds.transaction(async (manager) => {
          await manager.query(`SET LOCAL lock_timeout = '2s'`);
          await manager.query(
            `UPDATE orders SET buyer_name = 'Another Writer' WHERE id = ${other.id}`,
          );
        });
      } finally {
        await db.commit();
      }
      expect((await entries(head)).map((e) => e.entry)).toEqual([
        `ORDER.UPDATED ${other.id}`,
        `CHECK_IN.CREATED ${Number(checkIn.id)}`,
      ]);
    },
  );

  it('an imported check-in keeps its times, makes no entry, and its ticket and order are never older than it', async () => {
    const f = new Factory(ds);
    const fresh = await f.order(office, (await f.event(office)).id, {
      createdAt: 1_750_000_000,
    });
    const ticket = fresh.issuedTickets![0].id;
    const head = await changeHead(ds, office);
    await inImportMode(ds.manager, (manager) =>
      manager.query(
        `INSERT INTO check_ins (box_office_id, issued_ticket_id, event_id, event_series_id,
           quantity, check_in_at, created_at)
         SELECT box_office_id, id, event_id, 1, 1, 1750000500, 1750000600
           FROM issued_tickets WHERE id = ${ticket}`,
      ),
    );
    expect(await entries(head)).toEqual([]);
    expect(await updatedAt('issued_tickets', ticket)).toBe(1_750_000_600);
    expect(await updatedAt('orders', fresh.id)).toBe(1_750_000_600);
  });

  it('event series are EVENT_SERIES.CREATED, UPDATED and DELETED', async () => {
    const head = await changeHead(ds, office);
    const [series] = await db.query<{ id: unknown }>(
      sql`INSERT INTO event_series (box_office_id, name, created_at, currency, timezone, url,
            image_header_url, image_thumbnail_url)
          VALUES (${office}, 'Comedy', 1, 'gbp', 'Europe/London', 'https://s.example/1',
            'https://s.example/1/h.jpg', 'https://s.example/1/t.jpg') RETURNING id`,
    );
    const id = Number(series.id);
    await db.query(
      sql`UPDATE event_series SET name = 'Comedy Night' WHERE id = ${id}`,
    );
    await db.query(sql`DELETE FROM event_series WHERE id = ${id}`);
    expect((await entries(head)).map((e) => e.entry)).toEqual([
      `EVENT_SERIES.CREATED ${id}`,
      `EVENT_SERIES.UPDATED ${id}`,
      `EVENT_SERIES.DELETED ${id}`,
    ]);
  });

  it('reverting the migration removes every sync trigger and function, these tables’ too', async () => {
    // Reverted from the newest down to SyncAndChanges itself.
    const since = MIGRATIONS.findIndex(
      (migration) => migration.name === 'SyncAndChanges1765200000000',
    );
    for (let i = since; i < MIGRATIONS.length; i++) {
      await ds.undoLastMigration({ transaction: 'each' });
    }
    const left = await ds.query<{ name: string }[]>(
      ds.options.type === 'postgres'
        ? `SELECT tgname AS name FROM pg_trigger WHERE NOT tgisinternal AND tgname LIKE '%sync%'
           UNION ALL SELECT proname FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
            WHERE n.nspname = 'public' AND (proname LIKE '%sync%' OR proname = 'record_change')`
        : `SELECT name FROM sqlite_master WHERE name LIKE '%sync%' OR name IN ('changes', 'change_heads')`,
    );
    expect(left).toEqual([]);
  });
});
