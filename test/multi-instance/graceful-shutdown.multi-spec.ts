import { existsSync } from 'node:fs';
import { Client } from 'pg';
import { basicAuth } from '../utils/create-test-app';
import { TestDatabase } from '../utils/test-database';
import { DEMO_KEY, Kind, freshDatabase, seedDemo, sleep } from './databases';
import { Hold, lockHold, redisHold } from './holds';
import { RawConnection, RawResponse, refusesConnections } from './raw-http';
import { ServerProcess, startServer } from './server-process';

const IN_FLIGHT = 20;
const SHUTTING_DOWN = {
  status: 503,
  error_code: 'SERVICE_UNAVAILABLE',
  message: 'This instance is shutting down; retry shortly',
};

/** The server's connections to PostgreSQL carry this application_name. */
const SERVER_APPLICATION = 'boxoffice-shutdown-test';

function serverDatabaseUrl(database: TestDatabase): string {
  if (!database.url.startsWith('postgres')) return database.url;
  const url = new URL(database.url);
  url.searchParams.set('application_name', SERVER_APPLICATION);
  return url.toString();
}

async function serverConnections(database: TestDatabase): Promise<number> {
  const admin = new Client({ connectionString: database.url });
  await admin.connect();
  try {
    const { rows } = await admin.query<{ n: string }>(
      'SELECT count(*) AS n FROM pg_stat_activity WHERE application_name = $1',
      [SERVER_APPLICATION],
    );
    return Number(rows[0].n);
  } finally {
    await admin.end();
  }
}

// SIGTERM while requests are in flight on keep-alive connections (docs/API.md, Shutdown).
describe.each<Kind>(['sqlite', 'postgres'])(
  'SIGTERM with %s: requests in flight finish, later ones are refused, the database closes last',
  (kind) => {
    let database: TestDatabase;
    let hold: Hold;
    let server: ServerProcess;

    beforeAll(async () => {
      database = await freshDatabase(kind);
      await seedDemo(database.url, 150);
      hold =
        kind === 'postgres' ? lockHold(database, IN_FLIGHT) : await redisHold();
      server = await startServer({
        DATABASE_URL: serverDatabaseUrl(database),
        LOG_LEVEL: 'info',
        ...hold.env,
      });
    });

    afterAll(async () => {
      await hold?.close();
      await server?.stop();
      await database?.drop();
    });

    it(`serves the ${IN_FLIGHT} requests in flight, answers later ones 503 or refuses them, and exits 0`, async () => {
      const auth = { Authorization: basicAuth(DEMO_KEY) };
      // Keep-alive connections, each used once already.
      const connections = await Promise.all(
        Array.from({ length: IN_FLIGHT + 1 }, () =>
          RawConnection.open(server.port),
        ),
      );
      for (const connection of connections) {
        connection.get('/v1/ping');
        const res = await connection.response();
        expect(res.status).toBe(200);
        expect(res.headers.connection).toBe('keep-alive');
      }
      const late = connections.pop()!;

      await hold.start();
      // A request that has begun to arrive (its headers are not finished) keeps its connection
      // open through the shutdown; it is finished after the signal.
      late.send('GET /v1/orders?limit=1 HTTP/1.1\r\nHost: localhost\r\n');
      const responses = connections.map((connection) => {
        connection.get('/v1/orders?limit=100', auth);
        return connection.response();
      });
      await hold.waiting(IN_FLIGHT);

      const signalled = Date.now();
      server.child.kill('SIGTERM');
      await server.waitForOutput(
        new RegExp(
          `SIGTERM: no new connections; waiting for ${IN_FLIGHT} request\\(s\\) in flight`,
        ),
      );

      // Later requests: a new connection is refused; one on an open connection gets the 503 body.
      expect(await refusesConnections(server.port)).toBe('ECONNREFUSED');
      late.send('\r\n');
      const refused = await late.response();
      expect(refused.status).toBe(503);
      expect(refused.headers['content-type']).toMatch(/^application\/json/);
      expect(refused.headers.connection).toBe('close');
      expect(refused.headers['retry-after']).toBe('1');
      expect(JSON.parse(refused.body.toString())).toEqual(SHUTTING_DOWN);
      await late.closed();

      // The service waits for the requests in flight, and keeps its database for them. (On
      // SQLite they wait at most the rate limiter's Redis timeout, then read the database: after
      // the signal.)
      if (kind === 'postgres') {
        await sleep(300);
        expect(server.child.exitCode).toBeNull();
        expect(await serverConnections(database)).toBeGreaterThan(0);
      }
      await hold.release();

      const served: RawResponse[] = await Promise.all(responses);
      for (const res of served) {
        expect(res.status).toBe(200);
        expect(JSON.parse(res.body.toString()).data).toHaveLength(100);
      }
      const exit = await server.exited();
      expect(exit).toEqual({ code: 0, signal: null });
      expect(Date.now() - signalled).toBeLessThan(10_000);

      // HTTP closed first, then the database: no connection left open (PostgreSQL), the
      // write-ahead log folded into the file by a clean close (SQLite).
      const output = server.output();
      expect(output.indexOf('HTTP server and database closed')).toBeGreaterThan(
        output.indexOf('SIGTERM: no new connections'),
      );
      if (kind === 'postgres') {
        expect(await serverConnections(database)).toBe(0);
      } else {
        expect(existsSync(`${database.url.slice('sqlite:'.length)}-wal`)).toBe(
          false,
        );
      }
    });
  },
);
