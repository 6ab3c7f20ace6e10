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

/** A request for a whole page of orders (box office 1 has over 100), as a raw connection sends it. */
const PAGE_REQUEST = `GET /v1/orders?limit=100 HTTP/1.1\r\nHost: localhost\r\nAuthorization: ${basicAuth(DEMO_KEY)}\r\n\r\n`;

/** Reads `count` answers from `connection`: each must be a whole page of orders. */
async function readPages(connection: RawConnection, count: number) {
  const answers: RawResponse[] = [];
  try {
    while (answers.length < count) answers.push(await connection.response());
  } catch (error) {
    throw new Error(
      `${answers.length} of ${count} answers, then: ${String(error)}`,
    );
  }
  for (const res of answers) {
    expect(res.status).toBe(200);
    expect(JSON.parse(res.body.toString()).data).toHaveLength(100);
  }
}

/**
 * For the describe block it is called in: a database of `kind` with the demo data, a Hold on it,
 * and a server process (logging at info) that the hold can keep requests waiting in.
 */
function heldServer(kind: Kind, env: Record<string, string> = {}) {
  const context = {} as {
    database: TestDatabase;
    hold: Hold;
    server: ServerProcess;
  };
  beforeAll(async () => {
    context.database = await freshDatabase(kind);
    await seedDemo(context.database.url, 150);
    context.hold =
      kind === 'postgres'
        ? lockHold(context.database, IN_FLIGHT)
        : await redisHold();
    context.server = await startServer({
      DATABASE_URL: serverDatabaseUrl(context.database),
      LOG_LEVEL: 'info',
      ...env,
      ...context.hold.env,
    });
  });
  afterAll(async () => {
    await context.hold?.close();
    await context.server?.stop();
    await context.database?.drop();
  });
  return context;
}

// SIGTERM while requests are in flight on keep-alive connections (docs/DESIGN.md, Shutdown).
describe.each<Kind>(['sqlite', 'postgres'])(
  'SIGTERM with %s: requests in flight finish, later ones are refused, the database closes last',
  (kind) => {
    const context = heldServer(kind);

    it(`serves the ${IN_FLIGHT} requests in flight, answers later ones 503 or refuses them, and exits 0`, async () => {
      const { database, hold, server } = context;
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

// Pipelined requests that all wait (on the database, or on Redis) when the signal comes: each is
// answered, not only the first (an answer marked `Connection: close` would end the connection
// with it, and drop the ones queued behind).
describe.each<Kind>(['sqlite', 'postgres'])(
  'SIGTERM with %s while pipelined requests on one connection wait for their answers',
  (kind) => {
    const PIPELINED = 5;
    const context = heldServer(kind, {
      HTTP_MAX_PIPELINED: String(PIPELINED),
      // On SQLite the requests wait on Redis: for as long as the test holds it.
      REDIS_COMMAND_TIMEOUT_MS: '10000',
    });

    it(`answers all ${PIPELINED}, then closes the connection, and exits 0`, async () => {
      const { hold, server } = context;
      const connection = await RawConnection.open(server.port);
      await hold.start();
      connection.send(PAGE_REQUEST.repeat(PIPELINED));
      await hold.waiting(PIPELINED);
      server.child.kill('SIGTERM');
      await server.waitForOutput(
        new RegExp(
          `SIGTERM: no new connections; waiting for ${PIPELINED} request\\(s\\) in flight`,
        ),
      );
      await hold.release();

      await readPages(connection, PIPELINED);
      await connection.closed();
      expect(await server.exited()).toEqual({ code: 0, signal: null });
    });
  },
);

// Pipelined requests (sent one after the other without waiting for answers) on a connection whose
// client reads slowly: at the signal, some answers are built and wait to be written, and some
// requests have not even been read, since Node stops reading a connection whose answers back up.
// Every request that reached the server before the signal is answered in full.
describe('SIGTERM while a slow reader has pipelined requests waiting', () => {
  const PIPELINED = 50;
  const FIRST = 10;
  const GRACE_MS = 8_000;
  let database: TestDatabase;
  let server: ServerProcess;

  beforeAll(async () => {
    database = await freshDatabase('sqlite');
    // Over 100 orders in box office 1: every page is a whole page.
    await seedDemo(database.url, 150);
  });

  afterEach(() => server?.stop());
  afterAll(() => database?.drop());

  /**
   * Sends PIPELINED requests for a 100-order page on one connection without reading: FIRST at
   * once, then, once their answers fill the buffers, the rest one by one (Node no longer reads
   * them). Then `beforeReading` (the signal), then reads the answers slowly.
   */
  async function pipelinedBurst(beforeReading: () => void) {
    server = await startServer({
      DATABASE_URL: database.url,
      HTTP_MAX_PIPELINED: '100',
      SHUTDOWN_GRACE_MS: String(GRACE_MS),
    });
    const connection = await RawConnection.open(server.port);
    connection.pause();
    connection.send(PAGE_REQUEST.repeat(FIRST));
    await sleep(500);
    for (let i = FIRST; i < PIPELINED; i++) {
      connection.send(PAGE_REQUEST);
      await sleep(5);
    }
    await sleep(300);
    beforeReading();
    connection.readSlowly(5);
    await readPages(connection, PIPELINED);
    return connection;
  }

  it(`answers all ${PIPELINED} without a signal (the slow reader is served)`, async () => {
    const connection = await pipelinedBurst(() => undefined);
    connection.destroy();
  });

  it(`with a SIGTERM before reading: answers all ${PIPELINED} in full within the grace period, then closes the connection and exits 0`, async () => {
    let signalled = 0;
    const connection = await pipelinedBurst(() => {
      signalled = Date.now();
      server.child.kill('SIGTERM');
    });
    expect(Date.now() - signalled).toBeLessThan(GRACE_MS);
    await connection.closed();
    expect(await server.exited()).toEqual({ code: 0, signal: null });
  });
});
