import { statSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { TestApp, createTestApp } from './utils/create-test-app';
import { durableTestDatabase } from './utils/migrated-database';
import { TestDatabase, onPostgres } from './utils/test-database';

// SQLite's checkpoints run on a worker thread of their own, not inside a request's commit
// (src/database/wal-checkpoints.ts; docs/OPERATIONS.md, "Running in production").
(onPostgres ? describe.skip : describe)('SQLite checkpoints', () => {
  let database: TestDatabase;
  let t: TestApp;
  let file: string;

  beforeAll(async () => {
    database = await durableTestDatabase();
    file = database.url.slice('sqlite:'.length);
    t = await createTestApp({ DATABASE_URL: database.url });
  });

  afterAll(async () => {
    await t?.close();
    await database?.drop();
  });

  it("leaves the log to the worker: the service's commits checkpoint only past 10,000 pages", async () => {
    expect(await t.dataSource.query('PRAGMA wal_autocheckpoint')).toEqual([
      { wal_autocheckpoint: 10_000 },
    ]);
  });

  it('copies what a commit wrote into the database file within moments, far below the backstop', async () => {
    await t.dataSource.query('CREATE TABLE ballast (b blob)');
    await sleep(500);
    const before = statSync(file).size;
    // About 500 pages: half of what would make SQLite's own default checkpoint in a commit.
    await t.dataSource.query(
      `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 500)
       INSERT INTO ballast SELECT randomblob(3500) FROM n`,
    );
    for (let waited = 0; waited < 3_000; waited += 50) {
      if (statSync(file).size > before + 1_500_000) break;
      await sleep(50);
    }
    expect(statSync(file).size).toBeGreaterThan(before + 1_500_000);
  });
});
