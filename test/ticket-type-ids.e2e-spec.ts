import type { DataSource } from 'typeorm';
import { DEMO_BOX_OFFICES, seedDemoData } from '../seeds/demo-data';
import { TicketTypeIdsApart1765900000000 } from '../src/database/migrations/1765900000000-TicketTypeIdsApart';
import { MIGRATIONS } from '../src/database/data-source-options';
import { type Get, getAs, walk } from './utils/api';
import { type TestApp, createTestApp } from './utils/create-test-app';
import {
  durableTestDatabase,
  openWithMigrations,
} from './utils/migrated-database';

// Ticket types and event series' template ticket types are one `tt_` id space (migration
// TicketTypeIdsApart, docs/API.md, TicketType): every ticket type's quantity_issued is what
// /v1/issued_tickets?ticket_type_id=…&status=valid gives, templates' included. On SQLite by
// default, on PostgreSQL under `npm run test:e2e:postgres`.

type TicketType = { id: string; quantity_issued: number };
type Item = { id: string } & Record<string, unknown>;

async function all(get: Get, start: string): Promise<Item[]> {
  return (await walk<Item>(get, start, 'next')).flatMap((page) => page.data);
}

/**
 * A ticket type of the first event (`ticket_types`) or a template type of the first series
 * (`event_series_ticket_types`), with `id` or the one the database gives.
 */
async function insertType(
  dataSource: DataSource,
  table: 'ticket_types' | 'event_series_ticket_types',
  id?: number,
) {
  const [parent, parentColumn] =
    table === 'ticket_types'
      ? ['events', 'event_id']
      : ['event_series', 'event_series_id'];
  const [row] = await dataSource.query<{ id: number }[]>(
    `SELECT id FROM ${parent} ORDER BY id LIMIT 1`,
  );
  await dataSource.query(
    `INSERT INTO ${table} (${id === undefined ? '' : 'id, '}${parentColumn}, name, price,
       booking_fee, min_per_order, max_per_order, quantity_total, status, type, sort_order)
     VALUES (${id === undefined ? '' : `${id}, `}${row.id}, 'Extra', 1000, 0, 1, 10, 50,
       'on_sale', 'paid', 9)`,
  );
}
const insertTemplateType = (dataSource: DataSource, id?: number) =>
  insertType(dataSource, 'event_series_ticket_types', id);
const insertTicketType = (dataSource: DataSource, id?: number) =>
  insertType(dataSource, 'ticket_types', id);

/** Two rows each way without ids: all four ids past both tables' largest, and no id in both. */
async function expectFreshIdsApart(dataSource: DataSource) {
  const [{ largest }] = await dataSource.query<{ largest: number | string }[]>(
    `SELECT max(id) AS largest FROM (SELECT id FROM ticket_types
       UNION ALL SELECT id FROM event_series_ticket_types) ids`,
  );
  await insertTemplateType(dataSource);
  await insertTicketType(dataSource);
  await insertTemplateType(dataSource);
  await insertTicketType(dataSource);
  const fresh = await dataSource.query<{ id: number }[]>(
    `SELECT id FROM event_series_ticket_types WHERE id > ${Number(largest)}
     UNION ALL SELECT id FROM ticket_types WHERE id > ${Number(largest)}`,
  );
  const ids = fresh.map((row) => Number(row.id));
  expect(ids).toHaveLength(4);
  expect(new Set(ids).size).toBe(4);
  const [overlap] = await dataSource.query<{ n: number | string }[]>(
    'SELECT count(*) AS n FROM event_series_ticket_types s JOIN ticket_types t ON t.id = s.id',
  );
  expect(Number(overlap.n)).toBe(0);
}

describe('ticket type ids, events and templates alike', () => {
  let t: TestApp;
  let get: Get;

  beforeAll(async () => {
    t = await createTestApp({ RATE_LIMIT_MAX: '1000000' });
    await seedDemoData(t.dataSource, { orders: 120, seed: 1, reset: false });
    get = getAs(t.server, DEMO_BOX_OFFICES[0].apiKey);
  });

  afterAll(() => t?.close());

  it("the demo data's: no template type has an event type's id, and each quantity_issued is the filter's count", async () => {
    const eventTypes = (await all(get, '/v1/events?limit=100')).flatMap(
      (event) => event.ticket_types as TicketType[],
    );
    const templateTypes = (
      await all(get, '/v1/event_series?limit=100')
    ).flatMap((series) => series.default_ticket_types as TicketType[]);
    expect(templateTypes.length).toBeGreaterThan(0);
    const ids = [...eventTypes, ...templateTypes].map((type) => type.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const type of [...eventTypes, ...templateTypes]) {
      const issued = await all(
        get,
        `/v1/issued_tickets?ticket_type_id=${type.id}&status=valid&limit=100`,
      );
      expect([type.id, type.quantity_issued]).toEqual([type.id, issued.length]);
    }
  });

  it("a writer's new ids never meet the other table's, and an explicit id the other table holds is refused", async () => {
    const [takenByEvent] = await t.dataSource.query<{ id: number }[]>(
      'SELECT max(id) AS id FROM ticket_types',
    );
    const [takenByTemplate] = await t.dataSource.query<{ id: number }[]>(
      'SELECT max(id) AS id FROM event_series_ticket_types',
    );
    const template = (id?: number) => insertTemplateType(t.dataSource, id);
    const ticketType = (id?: number) => insertTicketType(t.dataSource, id);
    await expect(template(Number(takenByEvent.id))).rejects.toThrow(
      /ticket type ids are shared/,
    );
    await expect(ticketType(Number(takenByTemplate.id))).rejects.toThrow(
      /ticket type ids are shared/,
    );
    // Without ids: each table's next ids are past both tables', and never the other's.
    await expectFreshIdsApart(t.dataSource);
  });
});

describe('migration TicketTypeIdsApart', () => {
  // The seeder writes the current schema (an API key's scope, say): the database is seeded fully
  // migrated, then this migration and every later one are undone.
  const UNDONE =
    MIGRATIONS.length - MIGRATIONS.indexOf(TicketTypeIdsApart1765900000000);

  /**
   * A database seeded, taken back to the schema before the migration (the seeder writes today's
   * schema; the rows of the tables that were there stay), changed by `setUp`, then migrated.
   */
  async function migrated(
    setUp: (dataSource: DataSource) => Promise<void>,
    check: (dataSource: DataSource) => Promise<void>,
  ) {
    const database = await durableTestDatabase();
    let dataSource = await openWithMigrations(database.url, MIGRATIONS);
    try {
      await seedDemoData(dataSource, { orders: 30, seed: 1, reset: false });
      for (let undo = UNDONE; undo > 0; undo--) {
        await dataSource.undoLastMigration({ transaction: 'each' });
      }
      await setUp(dataSource);
      await dataSource.destroy();
      dataSource = await openWithMigrations(database.url, MIGRATIONS);
      await check(dataSource);
    } finally {
      await dataSource.destroy();
      await database.drop();
    }
  }

  it('moves templates that took their dates’ ids past every ticket type; new rows keep apart', async () => {
    let typesBefore: unknown[] = [];
    await migrated(
      async (dataSource) => {
        // As migration EventSeries left them: each template type under its first date's id.
        await dataSource.query(
          `UPDATE event_series_ticket_types SET id = id - (SELECT min(id) FROM event_series_ticket_types)
             + (SELECT min(id) FROM ticket_types) - 100000`,
        );
        await dataSource.query(
          'UPDATE event_series_ticket_types SET id = id + 100000',
        );
        const [overlap] = await dataSource.query<{ n: number | string }[]>(
          'SELECT count(*) AS n FROM event_series_ticket_types s JOIN ticket_types t ON t.id = s.id',
        );
        expect(Number(overlap.n)).toBeGreaterThan(0);
        typesBefore = await dataSource.query(
          'SELECT id FROM ticket_types ORDER BY id',
        );
      },
      async (dataSource) => {
        const [after] = await dataSource.query<{ n: number | string }[]>(
          'SELECT count(*) AS n FROM event_series_ticket_types s JOIN ticket_types t ON t.id = s.id',
        );
        expect(Number(after.n)).toBe(0);
        expect(
          await dataSource.query('SELECT id FROM ticket_types ORDER BY id'),
        ).toEqual(typesBefore);
        await expectFreshIdsApart(dataSource);
      },
    );
  });

  it('keeps a table that never had a template apart from the start', async () => {
    await migrated(async (dataSource) => {
      await dataSource.query('DELETE FROM event_series_ticket_types');
      if (dataSource.options.type !== 'postgres') {
        // As if no template had ever been written: SQLite keeps no counter for the table.
        await dataSource.query(
          "DELETE FROM sqlite_sequence WHERE name = 'event_series_ticket_types'",
        );
      }
    }, expectFreshIdsApart);
  });
});
