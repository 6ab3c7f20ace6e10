import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { Client } from 'pg';
import { MESSAGES, errorBody, expectNothingLeaked, getAs } from '../utils/api';
import { TestApp, basicAuth, createTestApp } from '../utils/create-test-app';
import { Factory } from '../utils/factories';
import { TestDatabase, createTestDatabase } from '../utils/test-database';
import { DEMO_KEY, seedDemo, sleep } from './databases';
import { ServerProcess, freePort, startServer } from './server-process';
import { TcpProxy } from './tcp-proxy';
import { Sample, sample, startTraffic } from './traffic';

const KEY = 'sk_database_outage';

// This suite runs against PostgreSQL (local default) for every test app it creates. A database
// that cannot be reached, or does not answer in time, is a 503 SERVICE_UNAVAILABLE; the process
// stays up and recovers by itself (docs/DESIGN.md, Database faults).
process.env.TEST_DATABASE_URL ??=
  process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

describe('PostgreSQL connections dropped (503, then recovery by itself)', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp();
    const f = new Factory(t.dataSource);
    const { office, event } = await f.tenant(KEY);
    await f.order(office.id, event.id);
  });

  afterAll(() => t.close());

  it('answers 503 SERVICE_UNAVAILABLE or 200 while reconnecting, never 500, and recovers', async () => {
    const get = getAs(t.server, KEY);
    expect((await get('/v1/orders?limit=1')).status).toBe(200);
    const database = new URL(
      (t.dataSource.options as { url: string }).url,
    ).pathname.slice(1);
    const admin = new Client({
      connectionString: process.env.TEST_DATABASE_URL,
    });
    await admin.connect();
    try {
      const killed = await admin.query(
        'SELECT pg_terminate_backend(pid) AS killed FROM pg_stat_activity WHERE datname = $1',
        [database],
      );
      expect(killed.rows.length).toBeGreaterThan(0);
    } finally {
      await admin.end();
    }
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 10; attempt++) {
      const res = await get('/v1/orders?limit=1');
      statuses.push(res.status);
      if (res.status === 200) break;
      expect(res.status).toBe(503);
      expect(res.headers['retry-after']).toMatch(/^\d+$/);
      expect(res.body).toEqual(
        errorBody(503, 'SERVICE_UNAVAILABLE', MESSAGES.databaseUnavailable),
      );
      expectNothingLeaked(res.text);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(statuses[statuses.length - 1]).toBe(200);
  });
});

/**
 * `TEST_RESTART_POSTGRES="<version> <cluster>"` (set by .ci/run, which runs as root on a machine
 * of its own): stop and start that PostgreSQL cluster itself with pg_ctlcluster. Unset (the
 * default: the server may be shared), the proxy stands in: it resets live connections and refuses
 * new ones, as a stopped server does.
 */
const REAL_CLUSTER = process.env.TEST_RESTART_POSTGRES?.split(' ');

/** Asynchronous, so that the traffic goes on (and is timed rightly) while it runs. */
async function pgCtlCluster(action: 'stop' | 'start') {
  const [version, cluster] = REAL_CLUSTER!;
  await promisify(execFile)('pg_ctlcluster', [
    '--skip-systemctl-redirect',
    version,
    cluster,
    action,
  ]);
}

/** A 503 of the database being down: the whole envelope, with Retry-After. */
function expectUnavailable(s: Sample) {
  expect(s.status).toBe(503);
  expect(s.headers?.get('content-type')).toMatch(/^application\/json/);
  expect(s.headers?.get('retry-after')).toBe('5');
  expect(JSON.parse(s.body)).toEqual(
    errorBody(503, 'SERVICE_UNAVAILABLE', MESSAGES.databaseUnavailable),
  );
  expectNothingLeaked(s.body);
}

describe(`PostgreSQL stopped during traffic (${REAL_CLUSTER ? `pg_ctlcluster ${REAL_CLUSTER.join(' ')}` : 'a proxy that resets and refuses connections'})`, () => {
  let database: TestDatabase;
  let proxy: TcpProxy | null = null;
  let server: ServerProcess;

  beforeAll(async () => {
    database = await createTestDatabase();
    await seedDemo(database.url, 60);
    let url = database.url;
    if (!REAL_CLUSTER) {
      const direct = new URL(database.url);
      proxy = new TcpProxy(await freePort(), {
        host: direct.hostname,
        port: Number(direct.port || 5432),
      });
      await proxy.start();
      const viaProxy = new URL(database.url);
      viaProxy.hostname = '127.0.0.1';
      viaProxy.port = String(proxy.port);
      url = viaProxy.toString();
    }
    server = await startServer({
      DATABASE_URL: url,
      DB_CONNECT_TIMEOUT_MS: '1000',
    });
  });

  let stopped = false;

  afterAll(async () => {
    // Whatever happened, the shared server is left running.
    if (stopped) await start();
    await server?.stop();
    await proxy?.cut();
    await database?.drop();
  });

  const stop = async () => {
    stopped = true;
    if (proxy) await proxy.cut();
    else await pgCtlCluster('stop');
  };
  const start = async () => {
    if (proxy) await proxy.start();
    else await pgCtlCluster('start');
    stopped = false;
  };

  it('answers 503 within 1.5 s while it is down (no hang, no crash), then 200 within 2 s of its return', async () => {
    const traffic = startTraffic(
      `${server.url}/v1/orders?limit=10`,
      { Authorization: basicAuth(DEMO_KEY) },
      { loops: 4, timeoutMs: 5_000 },
    );
    await sleep(500);
    await stop();
    const down = Date.now();
    await sleep(2_000);
    const ping = await sample(`${server.url}/v1/ping`, {});
    // Down until start() is called; back (for the 2 s allowance) once it has returned.
    const restarting = Date.now();
    await start();
    const up = Date.now();
    await sleep(3_000);
    await traffic.stop();

    const { samples } = traffic;
    // No request hung or lost its connection, whenever it was sent (any that did is listed, with
    // when it was sent).
    expect(
      samples
        .filter((s) => s.error !== null || s.ms >= 1_500)
        .map((s) => ({
          sentAfterStop: s.sentAt - down,
          sentAfterRestart: s.sentAt - up,
          ms: s.ms,
          status: s.status,
          error: s.error,
        })),
    ).toEqual([]);
    for (const s of samples) if (s.status !== 200) expectUnavailable(s);
    expect(samples.filter((s) => s.sentAt < down)[0].status).toBe(200);
    // Sent after the stop and answered before the restart began (one sent just before the
    // restart may reach the database once it is back).
    const whileDown = samples.filter(
      (s) => s.sentAt >= down && s.sentAt + s.ms < restarting,
    );
    expect(whileDown.length).toBeGreaterThan(4);
    // Every one of them is a 503 (any other is listed, with when it was sent).
    expect(
      whileDown
        .filter((s) => s.status !== 503)
        .map((s) => ({
          sentAfterStop: s.sentAt - down,
          ms: s.ms,
          status: s.status,
        })),
    ).toEqual([]);
    const settled = samples.filter((s) => s.sentAt >= up + 2_000);
    expect(settled.length).toBeGreaterThan(4);
    for (const s of settled) expect(s.status).toBe(200);
    // The process stayed up all along, its liveness check untouched by the database.
    expect(ping.status).toBe(200);
    expect(server.child.exitCode).toBeNull();
  });
});

describe('a statement over the statement timeout', () => {
  const POOL = 3;
  let database: TestDatabase;
  let server: ServerProcess;
  let locker: Client;

  beforeAll(async () => {
    database = await createTestDatabase();
    await seedDemo(database.url, 60);
    server = await startServer({
      DATABASE_URL: database.url,
      DB_STATEMENT_TIMEOUT_MS: '300',
      DB_POOL_SIZE: String(POOL),
    });
    locker = new Client({ connectionString: database.url });
    await locker.connect();
  });

  afterAll(async () => {
    await locker?.end();
    await server?.stop();
    await database?.drop();
  });

  const get = (path: string) =>
    sample(`${server.url}${path}`, { Authorization: basicAuth(DEMO_KEY) });

  it('is cancelled with a 503, and the pool is not exhausted: other requests succeed meanwhile and all do after', async () => {
    // Another session holds the orders table: every order query waits, until the timeout.
    await locker.query('BEGIN');
    await locker.query('LOCK TABLE orders IN ACCESS EXCLUSIVE MODE');
    try {
      // Three times as many as the pool has connections.
      const blocked = await Promise.all(
        Array.from({ length: POOL * 3 }, () => get('/v1/orders?limit=10')),
      );
      for (const s of blocked) {
        expectUnavailable(s);
        expect(s.ms).toBeLessThan(3_000);
      }
      // The connections came back to the pool: a request on other tables goes through.
      const events = await get('/v1/events?limit=5');
      expect(events.status).toBe(200);
    } finally {
      await locker.query('ROLLBACK');
    }
    const after = await Promise.all(
      Array.from({ length: POOL * 3 }, () => get('/v1/orders?limit=10')),
    );
    expect(after.map((s) => s.status)).toEqual(Array(POOL * 3).fill(200));
    // No statement of the service is left running.
    const { rows } = await locker.query<{ n: string }>(
      "SELECT count(*) AS n FROM pg_stat_activity WHERE datname = current_database() AND state = 'active' AND pid <> pg_backend_pid()",
    );
    expect(Number(rows[0].n)).toBe(0);
  });
});
