import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { basicAuth } from '../utils/create-test-app';
import { TestDatabase } from '../utils/test-database';
import { DEMO_KEY, freshDatabase, seedDemo } from './databases';
import { ServerProcess, startServer } from './server-process';
import { Sample, sample } from './traffic';

const HOLD_MS = 3_000;

/**
 * Another process that wants the database to itself: `BEGIN EXCLUSIVE` and a write, held for
 * HOLD_MS, then rolled back; with `lockingMode`, first `PRAGMA locking_mode = EXCLUSIVE`, which
 * would keep every other connection out. Prints `locked`, then `released`, or `refused <code>`
 * when it cannot get the lock within a second.
 */
function locker(file: string, lockingMode: boolean) {
  const script = `
    const Database = require(${JSON.stringify(require.resolve('better-sqlite3'))});
    const db = new Database(${JSON.stringify(file)}, { timeout: 1000 });
    try {
      if (${lockingMode}) db.pragma('locking_mode = EXCLUSIVE');
      db.exec('BEGIN EXCLUSIVE');
      db.exec("INSERT INTO box_offices (name, created_at) VALUES ('another process', 0)");
      console.log('locked');
      setTimeout(() => { db.exec('ROLLBACK'); db.close(); console.log('released'); }, ${HOLD_MS});
    } catch (error) {
      console.log('refused ' + error.code);
    }`;
  const child = spawn(process.execPath, ['-e', script], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let output = '';
  const waiters: (() => void)[] = [];
  child.stdout.on('data', (chunk: Buffer) => {
    output += chunk.toString();
    for (const waiter of waiters.splice(0)) waiter();
  });
  return {
    exited: once(child, 'exit'),
    /** The first whole line the locker prints that starts with one of `words`. */
    says: async (...words: string[]): Promise<string> => {
      for (;;) {
        const found = output
          .split('\n')
          .slice(0, -1)
          .find((line) => words.some((word) => line.startsWith(word)));
        if (found !== undefined) return found;
        await new Promise<void>((resolve) => waiters.push(resolve));
      }
    },
  };
}

// docs/DESIGN.md, Database faults: a database that cannot be reached is a 503, never a hang. On
// SQLite in WAL mode (the service's), a reader never waits for a writer, so another process
// holding the write lock does not stop the service from answering: 200 throughout. How fast it
// answers meanwhile is the benchmark's to measure, not this test's.
describe('SQLite held under an exclusive lock by another process', () => {
  let database: TestDatabase;
  let server: ServerProcess;
  let file: string;

  beforeAll(async () => {
    database = await freshDatabase('sqlite');
    file = database.url.slice('sqlite:'.length);
    await seedDemo(database.url, 60);
    server = await startServer({ DATABASE_URL: database.url });
  });

  afterAll(async () => {
    await server?.stop();
    await database?.drop();
  });

  const orders = () =>
    sample(`${server.url}/v1/orders?limit=20`, {
      Authorization: basicAuth(DEMO_KEY),
    });
  const ping = () => sample(`${server.url}/v1/ping`, {});

  it(`keeps answering 200 while another process holds BEGIN EXCLUSIVE for ${HOLD_MS} ms`, async () => {
    const held = locker(file, false);
    expect(await held.says('locked', 'refused')).toBe('locked');
    const during: { orders: Sample; ping: Sample }[] = [];
    const released = held.says('released');
    let done = false;
    void released.then(() => (done = true));
    while (!done) during.push({ orders: await orders(), ping: await ping() });
    await held.exited;

    expect(during.length).toBeGreaterThanOrEqual(5);
    // Every request answered: a read that waited for the lock would have ended, after the 2 s
    // busy timeout, in a 503.
    for (const { orders: o, ping: p } of during) {
      expect([o.status, o.error]).toEqual([200, null]);
      expect(JSON.parse(o.body).data).toHaveLength(20);
      expect([p.status, p.error]).toEqual([200, null]);
    }
    // And after the release.
    const after = await orders();
    expect([after.status, after.error]).toEqual([200, null]);
  });

  it('cannot be locked out by PRAGMA locking_mode = EXCLUSIVE while it has the file open', async () => {
    const held = locker(file, true);
    const attempt = orders();
    expect(await held.says('locked', 'refused')).toBe('refused SQLITE_BUSY');
    await held.exited;
    expect((await attempt).status).toBe(200);
    expect((await orders()).status).toBe(200);
  });
});
