import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { MESSAGES, errorBody, expectNothingLeaked } from '../utils/api';
import { basicAuth } from '../utils/create-test-app';
import { DEMO_KEY, POSTGRES_URL, seedDemo, sleep } from './databases';
import { ServerProcess, freePort, startServer } from './server-process';
import { TcpProxy } from './tcp-proxy';
import { Sample, sample } from './traffic';

/**
 * PostgreSQL refusing connections rather than vanishing (docs/DESIGN.md, Database faults): a database
 * closed to connections, renamed, at its connection limit, a session ended by an administrator,
 * a server starting up, shutting down or recovering from a crash, a connection exception. Each is
 * answered 503 SERVICE_UNAVAILABLE with Retry-After, logged as an outage (a warning, never an
 * unhandled error), and the server recovers by itself when the database does.
 *
 * The refusals PostgreSQL makes of one database are made for real, on a database and a role of
 * this file's own (a role that is not a superuser: connection limits do not apply to superusers).
 * The ones only a whole server makes (starting up, crash recovery, a connection exception) come
 * from a proxy that answers the server's startup message in PostgreSQL's place, with the
 * ErrorResponse PostgreSQL sends: the shared server is never stopped or reconfigured.
 */

const ORDERS = '/v1/orders?limit=5';
const auth = { Authorization: basicAuth(DEMO_KEY) };

/** PostgreSQL's ErrorResponse message (severity FATAL), as a server refusing a connection sends it. */
function errorResponse(sqlstate: string, message: string): Buffer {
  const fields = Buffer.concat([
    ...[
      ['S', 'FATAL'],
      ['V', 'FATAL'],
      ['C', sqlstate],
      ['M', message],
    ].map(([type, value]) => Buffer.from(`${type}${value}\0`, 'utf8')),
    Buffer.from([0]),
  ]);
  const header = Buffer.alloc(5);
  header.write('E', 0, 'latin1');
  header.writeInt32BE(4 + fields.length, 1);
  return Buffer.concat([header, fields]);
}

/** A 503 of a database refusing: the whole envelope, with Retry-After. */
function expectUnavailable(s: Sample) {
  expect({ status: s.status, error: s.error }).toEqual({
    status: 503,
    error: null,
  });
  expect(s.headers?.get('content-type')).toMatch(/^application\/json/);
  expect(s.headers?.get('retry-after')).toBe('5');
  expect(JSON.parse(s.body)).toEqual(
    errorBody(503, 'SERVICE_UNAVAILABLE', MESSAGES.databaseUnavailable),
  );
  expectNothingLeaked(s.body);
}

/** The refusal was logged as an outage: a warning, and no unhandled error with a stack. */
function expectLoggedAsOutage(server: ServerProcess) {
  const output = server.output();
  expect(output).toMatch(/database unavailable/);
  expect(output).not.toMatch(/unhandled error/);
  expect(output).not.toMatch(/\n\s+at .+:\d+:\d+/);
}

/** Requests until one is answered 200 (within `ms`); every answer before it must be a 503. */
async function expectRecovery(server: ServerProcess, ms = 5_000) {
  const deadline = Date.now() + ms;
  for (;;) {
    const s = await sample(`${server.url}${ORDERS}`, auth);
    if (s.status === 200) return;
    expectUnavailable(s);
    if (Date.now() > deadline) throw new Error(`not recovered within ${ms} ms`);
    await sleep(100);
  }
}

describe('PostgreSQL refusing connections: 503 SERVICE_UNAVAILABLE, logged as an outage, then recovery by itself', () => {
  const suffix = randomBytes(4).toString('hex');
  const role = `boxoffice_refusals_${suffix}`;
  let name = `boxoffice_refusals_${suffix}`;
  let admin: Client;
  let databaseUrl: string;
  let server: ServerProcess;

  const quoted = () => `"${name}"`;

  /** Ends every session on the test database but the admin's (it is connected elsewhere). */
  async function endSessions() {
    await admin.query(
      'SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1',
      [name],
    );
  }

  beforeAll(async () => {
    admin = new Client({ connectionString: POSTGRES_URL });
    await admin.connect();
    // With a password, for a server whose local connections are not trusted.
    const password = randomBytes(12).toString('hex');
    await admin.query(`CREATE ROLE ${role} LOGIN PASSWORD '${password}'`);
    await admin.query(`CREATE DATABASE ${quoted()} OWNER ${role}`);
    const url = new URL(POSTGRES_URL);
    url.username = role;
    url.password = password;
    url.pathname = `/${name}`;
    databaseUrl = url.toString();
    await seedDemo(databaseUrl, 30);
  });

  afterEach(async () => {
    await server?.stop();
  });

  afterAll(async () => {
    if (!admin) return;
    await admin.query(`DROP DATABASE IF EXISTS ${quoted()} WITH (FORCE)`);
    await admin.query(`DROP ROLE IF EXISTS ${role}`);
    await admin.end();
  });

  const start = (url = databaseUrl) =>
    startServer({ DATABASE_URL: url, DB_CONNECT_TIMEOUT_MS: '2000' });

  /** Refuses, checks the answers while refused, restores, checks recovery and the log. */
  async function whileRefused(
    refuse: () => Promise<void>,
    restore: () => Promise<void>,
  ) {
    expect((await sample(`${server.url}${ORDERS}`, auth)).status).toBe(200);
    await refuse();
    try {
      // Every request, not just the first: the pool tries a new connection each time.
      for (let i = 0; i < 3; i++) {
        expectUnavailable(await sample(`${server.url}${ORDERS}`, auth));
      }
      // The process stays up and its liveness check does not need the database.
      expect((await sample(`${server.url}/v1/ping`, {})).status).toBe(200);
    } finally {
      await restore();
    }
    await expectRecovery(server);
    expectLoggedAsOutage(server);
  }

  it('a database closed to connections (ALLOW_CONNECTIONS false, its sessions ended: 55000 at connect)', async () => {
    server = await start();
    await whileRefused(
      async () => {
        await admin.query(`ALTER DATABASE ${quoted()} ALLOW_CONNECTIONS false`);
        await endSessions();
      },
      () =>
        admin
          .query(`ALTER DATABASE ${quoted()} ALLOW_CONNECTIONS true`)
          .then(() => undefined),
    );
  });

  it('a database renamed away (3D000: no such database)', async () => {
    server = await start();
    const away = `${name}_away`;
    await whileRefused(
      async () => {
        await admin.query(`ALTER DATABASE ${quoted()} ALLOW_CONNECTIONS false`);
        // A session just ended may still be leaving: the rename waits until none is left.
        for (let attempt = 0; ; attempt++) {
          await endSessions();
          try {
            await admin.query(`ALTER DATABASE ${quoted()} RENAME TO "${away}"`);
            break;
          } catch (error) {
            if (attempt === 50) throw error;
            await sleep(100);
          }
        }
        name = away;
        await admin.query(`ALTER DATABASE ${quoted()} ALLOW_CONNECTIONS true`);
      },
      async () => {
        const original = away.slice(0, -'_away'.length);
        await admin.query(`ALTER DATABASE ${quoted()} RENAME TO "${original}"`);
        name = original;
      },
    );
  });

  it('a database at its connection limit (CONNECTION LIMIT 0: 53300 too many connections)', async () => {
    server = await start();
    await whileRefused(
      async () => {
        await admin.query(`ALTER DATABASE ${quoted()} CONNECTION LIMIT 0`);
        await endSessions();
      },
      () =>
        admin
          .query(`ALTER DATABASE ${quoted()} CONNECTION LIMIT -1`)
          .then(() => undefined),
    );
  });

  it("a session ended by an administrator while its statement runs (57P01 to the request's query)", async () => {
    server = await start();
    expect((await sample(`${server.url}${ORDERS}`, auth)).status).toBe(200);
    const locker = new Client({ connectionString: databaseUrl });
    await locker.connect();
    try {
      await locker.query('BEGIN');
      await locker.query('LOCK TABLE orders IN ACCESS EXCLUSIVE MODE');
      const waiting = sample(`${server.url}${ORDERS}`, auth);
      let ended = 0;
      for (const deadline = Date.now() + 5_000; ended === 0;) {
        if (Date.now() > deadline) throw new Error('no request waits');
        // pg_locks, not pg_stat_activity: that one is a snapshot frozen for the transaction.
        const { rows } = await locker.query<{ pid: number }>(
          "SELECT pid FROM pg_locks WHERE relation = 'orders'::regclass AND NOT granted",
        );
        for (const { pid } of rows) {
          await admin.query('SELECT pg_terminate_backend($1)', [pid]);
          ended += 1;
        }
        await sleep(20);
      }
      expectUnavailable(await waiting);
    } finally {
      await locker.query('ROLLBACK').catch(() => undefined);
      await locker.end();
    }
    await expectRecovery(server);
    expectLoggedAsOutage(server);
  });

  // What only a whole server refuses, from a proxy answering in its place (never the real one).
  describe.each([
    ['57P03', 'the database system is starting up'],
    ['57P03', 'the database system is shutting down'],
    [
      '57P02',
      'terminating connection because of crash of another server process',
    ],
    ['08004', 'server rejected the establishment of the connection'],
    ['08006', 'connection failure'],
  ])('a server answering %s (%s)', (sqlstate, message) => {
    let proxy: TcpProxy;

    beforeEach(async () => {
      const direct = new URL(databaseUrl);
      proxy = new TcpProxy(await freePort(), {
        host: direct.hostname,
        port: Number(direct.port || 5432),
      });
      await proxy.start();
    });

    afterEach(() => proxy?.cut());

    it('is answered 503, logged as an outage, and recovered from', async () => {
      const viaProxy = new URL(databaseUrl);
      viaProxy.hostname = '127.0.0.1';
      viaProxy.port = String(proxy.port);
      server = await start(viaProxy.toString());
      await whileRefused(
        () => Promise.resolve(proxy.refuse(errorResponse(sqlstate, message))),
        () => Promise.resolve(proxy.accept()),
      );
    });
  });
});
