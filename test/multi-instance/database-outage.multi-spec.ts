import { Client } from 'pg';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { buildDataSourceOptions } from '../../src/database/data-source-options';
import { MESSAGES, errorBody, expectNothingLeaked, getAs } from '../utils/api';
import { TestApp, basicAuth, createTestApp } from '../utils/create-test-app';
import { Factory } from '../utils/factories';
import { TestDatabase, createTestDatabase } from '../utils/test-database';
import { ServerProcess, freePort, startServer } from './server-process';
import { TcpProxy } from './tcp-proxy';

const KEY = 'sk_database_outage';

// This suite runs against PostgreSQL (local default) for every test app it creates.
process.env.TEST_DATABASE_URL ??=
  process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

// A server process reaches PostgreSQL through a proxy; cutting the proxy makes the database
// unreachable while the process keeps running (503 SERVICE_UNAVAILABLE; the process stays up and
// recovers by itself: docs/API.md, Errors).
describe('when the database cannot be reached', () => {
  let database: TestDatabase;
  let proxy: TcpProxy;
  let server: ServerProcess;

  beforeAll(async () => {
    database = await createTestDatabase();
    const direct = new URL(database.url);
    proxy = new TcpProxy(await freePort(), {
      host: direct.hostname,
      port: Number(direct.port || 5432),
    });
    await proxy.start();
    const viaProxy = new URL(database.url);
    viaProxy.hostname = '127.0.0.1';
    viaProxy.port = String(proxy.port);
    server = await startServer({
      DATABASE_URL: viaProxy.toString(),
      DB_CONNECT_TIMEOUT_MS: '1000',
      AUTH_CACHE_TTL_MS: '0',
    });

    const dataSource = await new DataSource(
      buildDataSourceOptions({ type: 'postgres', url: database.url }),
    ).initialize();
    const factory = new Factory(dataSource);
    const { office, event } = await factory.tenant(KEY);
    await factory.order(office.id, event.id);
    await dataSource.destroy();
  });

  afterAll(async () => {
    await server?.stop();
    await proxy?.cut();
    await database?.drop();
  });

  const orders = () =>
    request(server.url).get('/v1/orders').set('Authorization', basicAuth(KEY));

  it('answers 503 SERVICE_UNAVAILABLE while it is down, stays up, and recovers when it is back', async () => {
    expect((await orders()).status).toBe(200);

    await proxy.cut();
    const down = await orders();
    expect(down.status).toBe(503);
    expect(down.headers['content-type']).toMatch(/^application\/json/);
    expect(down.body).toEqual({
      status: 503,
      error_code: 'SERVICE_UNAVAILABLE',
      message: MESSAGES.databaseUnavailable,
    });
    expect(down.text).not.toMatch(
      /ECONNREFUSED|127\.0\.0\.1|postgres|at .*\.js/i,
    );
    // The process is still up: the liveness check does not touch the database.
    expect((await request(server.url).get('/v1/ping')).status).toBe(200);

    await proxy.start();
    let recovered = 0;
    for (let attempt = 0; attempt < 50 && recovered !== 200; attempt++) {
      recovered = (await orders()).status;
      if (recovered !== 200)
        await new Promise((resolve) => setTimeout(resolve, 200));
    }
    expect(recovered).toBe(200);
  });
});

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
