import type { DataSource } from 'typeorm';
import {
  type Connection,
  type Sql,
  connect,
  sql,
} from '../dev/activity/connection';
import { changeHead, changePage } from '../src/changes/change-feed';
import { MIGRATIONS } from '../src/database/data-source-options';
import { Factory } from './utils/factories';
import {
  durableTestDatabase,
  openWithMigrations,
} from './utils/migrated-database';
import type { TestDatabase } from './utils/test-database';

// docs/API.md, "Who keeps updated_at" and "Change entries" (migration ConnectorColumnsInSync):
// the columns orders gained for the connectors are changes of the order, whoever writes them. A
// buyer's first or last name, and what a line item names, write ORDER.UPDATED and move the
// order's updated_at; an event's venue and series, which its orders' event_summary shows, move
// those orders' updated_at (and write the event's EVENT.UPDATED, as every column of it does).
// The writes are plain SQL through the driver. On SQLite by default, on PostgreSQL under
// `npm run test:e2e:postgres`.

describe('the connectors’ order columns are changes of the order', () => {
  let database: TestDatabase;
  let ds: DataSource;
  let db: Connection;
  let office: number;
  let eventId: number;
  let seen = 0;
  const subjects: Record<string, number> = {};

  /**
   * The entries written since the last call, as `TYPE resource_id`, read as the feed reads them:
   * its head first (on PostgreSQL that numbers the entries committed before it).
   */
  async function newEntries(): Promise<string[]> {
    await changeHead(ds, office);
    const page = await changePage(ds, {
      boxOfficeId: office,
      after: seen,
      limit: 100,
    });
    if (page.length > 0) seen = page.at(-1)!.id;
    return page.map((e) => `${e.type} ${e.resourceId}`);
  }

  const clock = async () =>
    Number(
      (
        await db.query<{ now: unknown }>(
          db.type === 'sqlite'
            ? sql`SELECT unixepoch() AS now`
            : sql`SELECT floor(extract(epoch FROM clock_timestamp()))::bigint AS now`,
        )
      )[0].now,
    );
  const updatedAt = async (orderId: number) =>
    Number(
      (
        await db.query<{ updated_at: unknown }>(
          sql`SELECT updated_at FROM orders WHERE id = ${orderId}`,
        )
      )[0].updated_at,
    );

  /** An order of history (written long ago, in import mode), and its ticket line's id. */
  async function historicOrder() {
    const order = await new Factory(ds).order(office, eventId);
    await newEntries();
    return {
      id: order.id,
      line: order.lineItems!.find((li) => li.type === 'ticket')!.id,
    };
  }

  /** Runs `write` and returns the entries it made and whether the order moved to its stamp. */
  async function afterWrite(orderId: number, write: Sql) {
    const before = await clock();
    expect(await updatedAt(orderId)).toBeLessThan(before);
    await db.query(write);
    return {
      entries: await newEntries(),
      moved: (await updatedAt(orderId)) >= before,
    };
  }

  beforeAll(async () => {
    database = await durableTestDatabase();
    ds = await openWithMigrations(database.url, MIGRATIONS);
    db = await connect(database.url);
    const f = new Factory(ds);
    office = (await f.boxOffice('Columns')).id;
    eventId = (await f.event(office)).id;
    subjects.ticketType = (await f.ticketType(eventId)).id;
    subjects.product = (await f.product(office)).id;
    subjects.code = (await f.voucher(office, {}, { codes: 1 })).codes[0].id;
    subjects.discount = (await f.discount(office)).id;
    subjects.series = (await f.series(office)).id;
    await newEntries();
  });

  afterAll(async () => {
    await db?.close();
    await ds?.destroy();
    await database?.drop();
  });

  it.each(['buyer_first_name', 'buyer_last_name'])(
    'a change of %s is ORDER.UPDATED, stamped',
    async (column) => {
      const order = await historicOrder();
      const write =
        column === 'buyer_first_name'
          ? sql`UPDATE orders SET buyer_first_name = 'Jane' WHERE id = ${order.id}`
          : sql`UPDATE orders SET buyer_last_name = 'Doe' WHERE id = ${order.id}`;
      expect(await afterWrite(order.id, write)).toEqual({
        entries: [`ORDER.UPDATED ${order.id}`],
        moved: true,
      });
    },
  );

  it.each([
    ['ticket_type_id', 'ticketType'],
    ['product_id', 'product'],
    ['voucher_code_id', 'code'],
    ['discount_id', 'discount'],
  ])(
    'a line item naming another %s is its order’s ORDER.UPDATED, stamped',
    async (column, subject) => {
      const order = await historicOrder();
      const id = subjects[subject];
      const writes: Record<string, Sql> = {
        ticket_type_id: sql`UPDATE line_items SET ticket_type_id = ${id} WHERE id = ${order.line}`,
        product_id: sql`UPDATE line_items SET product_id = ${id} WHERE id = ${order.line}`,
        voucher_code_id: sql`UPDATE line_items SET voucher_code_id = ${id} WHERE id = ${order.line}`,
        discount_id: sql`UPDATE line_items SET discount_id = ${id} WHERE id = ${order.line}`,
      };
      expect(await afterWrite(order.id, writes[column])).toEqual({
        entries: [`ORDER.UPDATED ${order.id}`],
        moved: true,
      });
    },
  );

  it.each(['venue_name', 'venue_postal_code', 'event_series_id'])(
    'an event’s new %s is EVENT.UPDATED and moves its orders, which show it',
    async (column) => {
      const order = await historicOrder();
      const writes: Record<string, Sql> = {
        venue_name: sql`UPDATE events SET venue_name = 'The Cellar' WHERE id = ${eventId}`,
        venue_postal_code: sql`UPDATE events SET venue_postal_code = 'SW1Y 4QE' WHERE id = ${eventId}`,
        event_series_id: sql`UPDATE events SET event_series_id = ${subjects.series} WHERE id = ${eventId}`,
      };
      expect(await afterWrite(order.id, writes[column])).toEqual({
        entries: [`EVENT.UPDATED ${eventId}`],
        moved: true,
      });
    },
  );

  it('writes nothing for a column the order does not show (an event’s currency is its own)', async () => {
    const order = await historicOrder();
    expect(
      await afterWrite(
        order.id,
        sql`UPDATE events SET currency = 'eur' WHERE id = ${eventId}`,
      ),
    ).toEqual({ entries: [`EVENT.UPDATED ${eventId}`], moved: false });
  });
});
