import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { MIGRATIONS } from '../../src/database/data-source-options';
import { basicAuth } from '../utils/create-test-app';
import { databaseOutage } from '../utils/database-outage';
import { openWithMigrations } from '../utils/migrated-database';
import { TestDatabase } from '../utils/test-database';
import { DEMO_KEY, Kind, freshDatabase, seedDemo, sleep } from './databases';
import { Hold, lockHold, redisHold } from './holds';
import { RawConnection, refusesConnections } from './raw-http';
import { ServerProcess, startServer } from './server-process';

// What a load balancer sees of /health/ready in the built server (docs/OPERATIONS.md, Health
// checks): 503 from the first moment of a SIGTERM drain until the process exits, while the
// database cannot be read, and while a deploy step has still to migrate. The same answers in
// process, and their bodies: test/health.e2e-spec.ts.

const notReady = (reason: string) => ({
  status: 503,
  error_code: 'SERVICE_UNAVAILABLE',
  message: `Not ready: ${reason}`,
});

const statusOf = async (url: string) => (await fetch(url)).status;

/** Probes `url` every 100 ms until it answers `status` (else fails after `timeoutMs`). */
async function until(url: string, status: number, timeoutMs = 10_000) {
  const deadline = Date.now() + timeoutMs;
  let last = await statusOf(url);
  while (last !== status && Date.now() < deadline) {
    await sleep(100);
    last = await statusOf(url);
  }
  expect(last).toBe(status);
}

describe.each<Kind>(['sqlite', 'postgres'])('readiness on %s', (kind) => {
  let database: TestDatabase;
  let hold: Hold;
  let server: ServerProcess;

  beforeAll(async () => {
    database = await freshDatabase(kind);
    // Seeded and closed: on SQLite every page is then in the file (database-outage.ts).
    await seedDemo(database.url, 20);
    hold = kind === 'postgres' ? lockHold(database, 1) : await redisHold();
    server = await startServer({
      DATABASE_URL: database.url,
      LOG_LEVEL: 'info',
      ...hold.env,
    });
  });

  afterAll(async () => {
    await hold?.close();
    await server?.stop();
    await database?.drop();
  });

  const outage = databaseOutage(kind, () => database);

  it(`answers 503 while ${outage.name}, liveness 200, and 200 again once it is over`, async () => {
    const ready = `${server.url}/health/ready`;
    expect(await statusOf(ready)).toBe(200);
    await outage.begin();
    try {
      const res = await fetch(ready);
      expect([res.status, await res.json()]).toEqual([
        503,
        notReady('the database does not answer'),
      ]);
      expect(await statusOf(`${server.url}/health/live`)).toBe(200);
    } finally {
      await outage.end();
    }
    await until(ready, 200);
  });

  it('answers 503 from the first moment of a SIGTERM drain until the process exits, liveness 200 meanwhile', async () => {
    // The load balancer's probes, begun before the signal (their headers not finished: an idle
    // keep-alive connection is closed when the drain begins), and a request the drain waits for.
    const probes = await RawConnection.open(server.port);
    const liveness = await RawConnection.open(server.port);
    const api = await RawConnection.open(server.port);
    probes.send('GET /health/ready HTTP/1.1\r\nHost: localhost\r\n');
    liveness.send('GET /health/live HTTP/1.1\r\nHost: localhost\r\n');
    await hold.start();
    api.get('/v1/orders?limit=5', { Authorization: basicAuth(DEMO_KEY) });
    const served = api.response();
    await hold.waiting(1);

    server.child.kill('SIGTERM');
    await server.waitForOutput(/SIGTERM: no new connections/);
    // A probe on a new connection finds no listener.
    expect(await refusesConnections(server.port)).toBe('ECONNREFUSED');
    probes.send('\r\n');
    const refused = await probes.response();
    expect([refused.status, JSON.parse(refused.body.toString())]).toEqual([
      503,
      notReady('this instance is shutting down'),
    ]);
    expect(refused.headers.connection).toBe('close');
    await probes.closed();
    // The process still serves what it has taken: liveness too.
    liveness.send('\r\n');
    expect((await liveness.response()).status).toBe(200);

    await hold.release();
    expect((await served).status).toBe(200);
    expect(await server.exited()).toEqual({ code: 0, signal: null });
  });
});

describe.each<Kind>(['sqlite', 'postgres'])(
  'readiness through a deploy that migrates in a step of its own (MIGRATIONS_RUN=false) on %s',
  (kind) => {
    let database: TestDatabase;
    let server: ServerProcess;

    beforeAll(async () => {
      database = await freshDatabase(kind);
      // The release before: every migration but the last.
      await (
        await openWithMigrations(database.url, MIGRATIONS.slice(0, -1))
      ).destroy();
      server = await startServer({
        DATABASE_URL: database.url,
        MIGRATIONS_RUN: 'false',
      });
    });

    afterAll(async () => {
      await server?.stop();
      await database?.drop();
    });

    it('answers 503 until the deploy step has migrated, then 200', async () => {
      const ready = `${server.url}/health/ready`;
      const res = await fetch(ready);
      expect([res.status, await res.json()]).toEqual([
        503,
        notReady(`1 of ${MIGRATIONS.length} migrations are not applied yet`),
      ]);
      expect(await statusOf(`${server.url}/health/live`)).toBe(200);

      // The deploy step, as a production install runs it.
      await promisify(execFile)(
        process.execPath,
        [join(__dirname, '../../dist/src/database/migrate.cli.js')],
        { env: { ...process.env, DATABASE_URL: database.url } },
      );
      await until(ready, 200);
    });
  },
);
