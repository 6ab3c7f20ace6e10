import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { TestDatabase } from '../utils/test-database';
import { Kind, freshDatabase, openDatabase } from './databases';

const run = promisify(execFile);

/** seed-demo-once.ts in a process of its own; its result line. */
async function seedInProcess(url: string): Promise<unknown> {
  const { stdout } = await run(
    process.execPath,
    [
      '-r',
      'ts-node/register/transpile-only',
      join(__dirname, 'seed-demo-once.ts'),
    ],
    {
      cwd: join(__dirname, '../..'),
      env: { ...process.env, DATABASE_URL: url },
    },
  );
  return JSON.parse(stdout.trim());
}

// The demo server seeds an empty database at start; two started at once on one empty database
// (two processes, each with its own connections) must seed it once: test/demo-seed.e2e-spec.ts
// has the same within one process.
describe.each<Kind>(['sqlite', 'postgres'])(
  'two demo servers starting at once on one empty %s database',
  (kind) => {
    let database: TestDatabase;

    beforeAll(async () => {
      database = await freshDatabase(kind);
    });
    afterAll(() => database?.drop());

    it('seed it once', async () => {
      const results = await Promise.all([
        seedInProcess(database.url),
        seedInProcess(database.url),
      ]);
      expect(results.filter((result) => result !== null)).toEqual([
        { orders: 40, boxOffices: 2 },
      ]);
      const dataSource = await openDatabase(database.url);
      try {
        const [row] = await dataSource.query<{ n: number | string }[]>(
          'SELECT count(*) AS n FROM orders',
        );
        expect(Number(row.n)).toBe(40);
      } finally {
        await dataSource.destroy();
      }
    });
  },
);
