import { DataSource } from 'typeorm';
import { parseDatabaseUrl } from '../src/config/app-config';
import { buildDataSourceOptions } from '../src/database/data-source-options';
import { runMigrations } from '../src/database/migrate';
import { seedDemoData } from '../seeds/demo-data';
import { CATALOGUE_CALENDAR } from '../seeds/demo-calendar';
import { SEED_TABLES } from '../seeds/seed-writers';
import { tablesWithoutStatistics } from './utils/planner-statistics';
import { storedTimesAfter } from './utils/stored-times';
import { createTestDatabase, type TestDatabase } from './utils/test-database';

// The seeder writes through a writer per database; the same seed must give the same rows on each,
// the events' counters (kept by each database's own triggers) included. Under
// `npm run test:e2e:postgres` this compares PostgreSQL with SQLite.
const ORDERS = 300;
const SEED = 11;

async function open(url: string): Promise<DataSource> {
  const dataSource = new DataSource(
    buildDataSourceOptions(parseDatabaseUrl(url)),
  );
  await dataSource.initialize();
  await runMigrations(dataSource);
  return dataSource;
}

/**
 * Every seeded table, rows by id, with values as SQLite returns them: PostgreSQL gives bigints as
 * strings and booleans as booleans.
 */
async function dump(dataSource: DataSource) {
  const tables: Record<string, unknown[]> = {};
  for (const table of Object.keys(SEED_TABLES)) {
    const rows: Record<string, unknown>[] = await dataSource.query(
      `SELECT * FROM ${table} ORDER BY id`,
    );
    tables[table] = rows.map((row) =>
      Object.fromEntries(
        Object.entries(row).map(([column, value]) => [
          column,
          typeof value === 'boolean'
            ? Number(value)
            : typeof value === 'string' &&
                /^((created|updated|voided|revoked|start|end|check_in|expires)_at|completed_revenue)$/.test(
                  column,
                )
              ? Number(value)
              : value,
        ]),
      ),
    );
  }
  return tables;
}

describe('seedDemoData on the test database', () => {
  let database: TestDatabase;
  let target: DataSource;
  let reference: DataSource;

  beforeAll(async () => {
    database = await createTestDatabase();
    target = await open(database.url);
    reference = await open('sqlite::memory:');
  });

  afterAll(async () => {
    await target?.destroy();
    await reference?.destroy();
    await database?.drop();
  });

  it('writes the same rows as on SQLite, counters included', async () => {
    await seedDemoData(target, { orders: ORDERS, seed: SEED, reset: false });
    await seedDemoData(reference, { orders: ORDERS, seed: SEED, reset: false });
    const seeded = await dump(target);
    expect(seeded).toEqual(await dump(reference));
    expect(seeded.orders).toHaveLength(ORDERS);
    // Nothing the seeder or the database's triggers stored lies after the seed's moment.
    expect(await storedTimesAfter(target, CATALOGUE_CALENDAR.now)).toEqual([]);
  });

  it('leaves the planner statistics of every table with rows', async () => {
    expect(await tablesWithoutStatistics(target)).toEqual([]);
    expect(await tablesWithoutStatistics(reference)).toEqual([]);
  });

  it('reseeds over existing data with reset, ids starting again at 1', async () => {
    await seedDemoData(target, { orders: 20, seed: 3, reset: true });
    const orders: { id: number | string }[] = await target.query(
      'SELECT id FROM orders ORDER BY id',
    );
    expect(orders.map((o) => Number(o.id))).toEqual(
      Array.from({ length: 20 }, (_, i) => i + 1),
    );
    const counters: { id: number; wrong: number | string }[] =
      await target.query(
        `SELECT e.id, (SELECT count(*) FROM orders o
                        WHERE o.event_id = e.id AND o.status = 'completed')
                      - e.completed_orders_count AS wrong
           FROM events e`,
      );
    expect(counters.filter((c) => Number(c.wrong) !== 0)).toEqual([]);
  });
});
