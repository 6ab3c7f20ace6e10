import { DataSource } from 'typeorm';
import { parseDatabaseUrl } from '../src/config/app-config';
import { buildDataSourceOptions } from '../src/database/data-source-options';
import { runMigrations } from '../src/database/migrate';
import { seedDemoDataIfEmpty } from '../seeds/demo-data';
import { TestDatabase, createTestDatabase } from './utils/test-database';

const ORDERS = 40;

async function open(url: string): Promise<DataSource> {
  const dataSource = new DataSource(
    buildDataSourceOptions(parseDatabaseUrl(url)),
  );
  await dataSource.initialize();
  await runMigrations(dataSource);
  return dataSource;
}

async function count(dataSource: DataSource, table: string): Promise<number> {
  const [row] = await dataSource.query<{ n: number | string }[]>(
    `SELECT COUNT(*) AS n FROM ${table}`,
  );
  return Number(row.n);
}

describe('seedDemoDataIfEmpty (what the demo server runs at start)', () => {
  let database: TestDatabase;
  let first: DataSource;
  let second: DataSource;

  beforeEach(async () => {
    database = await createTestDatabase();
    first = await open(database.url);
    // On PostgreSQL a connection pool of its own, as a second server has. An in-memory SQLite
    // database lives on its one connection, so there the two seeds share it.
    second = database.url.startsWith('sqlite:')
      ? first
      : await open(database.url);
  });

  afterEach(async () => {
    if (second !== first) await second.destroy();
    await first.destroy();
    await database.drop();
  });

  it('seeds an empty database once when two servers start together', async () => {
    const results = await Promise.all([
      seedDemoDataIfEmpty(first, { orders: ORDERS, seed: 1 }),
      seedDemoDataIfEmpty(second, { orders: ORDERS, seed: 1 }),
    ]);

    expect(results.filter((result) => result !== null)).toEqual([
      { orders: ORDERS, boxOffices: 2 },
    ]);
    expect(await count(first, 'box_offices')).toBe(2);
    expect(await count(first, 'api_keys')).toBe(2);
    expect(await count(first, 'orders')).toBe(ORDERS);
  });

  it('leaves a database with data as it is', async () => {
    await seedDemoDataIfEmpty(first, { orders: ORDERS, seed: 1 });
    const orders = await first.query<unknown[]>(
      'SELECT * FROM orders ORDER BY id',
    );

    await expect(
      seedDemoDataIfEmpty(second, { orders: 5, seed: 2 }),
    ).resolves.toBeNull();
    expect(await second.query('SELECT * FROM orders ORDER BY id')).toEqual(
      orders,
    );
  });
});
