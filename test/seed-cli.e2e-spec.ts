import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { DemoCalendar } from '../seeds/demo-calendar';
import { demoDataDay, isDatabaseEmpty } from '../seeds/demo-data';
import {
  durableTestDatabase,
  openWithMigrations,
} from './utils/migrated-database';
import { MIGRATIONS } from '../src/database/data-source-options';
import type { TestDatabase } from './utils/test-database';

/** `npm run seed -- <args>` against `url`, as a developer runs it. */
function seed(url: string, ...args: string[]) {
  return spawnSync(
    process.execPath,
    [
      join(__dirname, '../node_modules/ts-node/dist/bin.js'),
      '--transpile-only',
      join(__dirname, '../seeds/seed.cli.ts'),
      ...args,
    ],
    {
      cwd: join(__dirname, '..'),
      env: { ...process.env, DATABASE_URL: url },
      encoding: 'utf8',
      timeout: 60_000,
    },
  );
}

// docs/DEVELOPMENT.md, "The demo data": the seeding day is --today, a day as YYYY-MM-DD.
describe('npm run seed -- --today', () => {
  let database: TestDatabase;

  beforeAll(async () => {
    database = await durableTestDatabase();
  });
  afterAll(() => database.drop());

  /** A seed for `today` is refused with `message` and the usage, and writes nothing. */
  async function expectRefused(today: string, message: string) {
    const result = seed(database.url, '--today', today);
    expect(result.status).toBe(2);
    expect(result.stderr).toContain(message);
    expect(result.stderr).toMatch(/Usage: npm run seed/);
    const dataSource = await openWithMigrations(database.url, MIGRATIONS);
    try {
      await expect(isDatabaseEmpty(dataSource)).resolves.toBe(true);
    } finally {
      await dataSource.destroy();
    }
  }

  it('refuses a day that is not a date, with the usage, and writes nothing', async () => {
    await expectRefused(
      '2026-02-30',
      '--today must be a day as YYYY-MM-DD, got "2026-02-30"',
    );
  });

  it('refuses a day after the current one (UTC), with the usage, and writes nothing', async () => {
    const tomorrow = DemoCalendar.of(new Date(Date.now() + 86_400_000)).today;
    await expectRefused(
      tomorrow,
      `--today must be no later than the current day (UTC), ${DemoCalendar.of().today}, got "${tomorrow}"`,
    );
  });

  it('dates the data around the day it is given', async () => {
    const result = seed(
      database.url,
      '--orders',
      '20',
      '--today',
      '2025-11-17',
    );
    expect(result.stderr).not.toMatch(/Error/);
    expect(result.status).toBe(0);
    expect(result.stdout).toMatch(/dated around 2025-11-17/);
    const dataSource = await openWithMigrations(database.url, MIGRATIONS);
    try {
      await expect(demoDataDay(dataSource)).resolves.toBe('2025-11-17');
    } finally {
      await dataSource.destroy();
    }
  }, 60_000);
});

// A reseed must leave nothing of the data it replaced, including what triggers derived from it.
describe('npm run seed -- --reset', () => {
  let database: TestDatabase;

  beforeAll(async () => {
    database = await durableTestDatabase();
  });
  afterAll(() => database.drop());

  /**
   * Each rollup, hourly and daily (migrations ActivityHours, ActivityDays), against the rows it
   * sums, as two lists.
   */
  const ROLLUPS = (
    [
      ['hour', 3600],
      ['day', 86_400],
    ] as const
  ).flatMap(([bucket, seconds]) => [
    [
      `SELECT box_office_id, ${bucket}, completed_orders AS n FROM order_${bucket}s WHERE completed_orders <> 0`,
      `SELECT box_office_id, created_at / ${seconds} AS ${bucket}, count(*) AS n FROM orders WHERE status = 'completed' GROUP BY 1, 2`,
    ],
    [
      `SELECT box_office_id, currency, ${bucket}, revenue AS n FROM revenue_${bucket}s WHERE revenue <> 0`,
      `SELECT box_office_id, currency, created_at / ${seconds} AS ${bucket}, sum(total - refund_amount) AS n FROM orders WHERE status = 'completed' GROUP BY 1, 2, 3 HAVING sum(total - refund_amount) <> 0`,
    ],
    [
      `SELECT box_office_id, ${bucket}, valid_tickets AS n FROM ticket_${bucket}s WHERE valid_tickets <> 0`,
      `SELECT box_office_id, created_at / ${seconds} AS ${bucket}, count(*) AS n FROM issued_tickets WHERE status = 'valid' GROUP BY 1, 2`,
    ],
  ]);

  it("starts the overview's rollups again from the new rows", async () => {
    for (const args of [
      ['--orders', '40'],
      ['--orders', '15', '--seed', '7', '--reset'],
    ]) {
      const result = seed(database.url, ...args);
      expect(result.stderr).not.toMatch(/Error/);
      expect(result.status).toBe(0);
    }
    const dataSource = await openWithMigrations(database.url, MIGRATIONS);
    try {
      const sorted = async (sql: string) =>
        (await dataSource.query<Record<string, unknown>[]>(sql))
          .map((row) => Object.values(row).map(Number).join(' '))
          .sort();
      for (const [rollup, rows] of ROLLUPS) {
        const expected = await sorted(rows);
        expect(expected.length).toBeGreaterThan(0);
        expect(await sorted(rollup)).toEqual(expected);
      }
    } finally {
      await dataSource.destroy();
    }
  }, 120_000);
});
