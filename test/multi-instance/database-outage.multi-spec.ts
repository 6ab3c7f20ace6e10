import request from 'supertest';
import { DataSource } from 'typeorm';
import { buildDataSourceOptions } from '../../src/database/data-source-options';
import { basicAuth } from '../utils/create-test-app';
import { Factory } from '../utils/factories';
import { TestDatabase, createTestDatabase } from '../utils/test-database';
import { ServerProcess, freePort, startServer } from './server-process';
import { TcpProxy } from './tcp-proxy';

const KEY = 'sk_database_outage';

// A server process reaches PostgreSQL through a proxy; cutting the proxy makes the database
// unreachable while the process keeps running (contract §6: 503, stays up, recovers by itself).
describe('when the database cannot be reached', () => {
  let database: TestDatabase;
  let proxy: TcpProxy;
  let server: ServerProcess;

  beforeAll(async () => {
    process.env.TEST_DATABASE_URL ??=
      process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
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
    const office = await factory.boxOffice();
    await factory.apiKey(office.id, KEY);
    await factory.order(office.id, (await factory.event(office.id)).id);
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
      message: expect.any(String),
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
