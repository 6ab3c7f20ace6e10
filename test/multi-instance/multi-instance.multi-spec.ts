import { randomBytes } from 'node:crypto';
import request from 'supertest';
import { DataSource } from 'typeorm';
import {
  MIGRATIONS,
  buildDataSourceOptions,
} from '../../src/database/data-source-options';
import { MESSAGES } from '../utils/api';
import { basicAuth } from '../utils/create-test-app';
import { Factory } from '../utils/factories';
import { TestDatabase, createTestDatabase } from '../utils/test-database';
import { ServerProcess, startServer } from './server-process';

// Two instances of the built service behind an imaginary load balancer: one PostgreSQL database
// (created for this run), one Redis (a key prefix of this run's own).
const KEY_WALK = 'sk_multi_instance_walk';
const KEY_LIMITED = 'sk_multi_instance_limited';
const LIMIT = 50;
const WINDOW_S = 120;

describe('several instances on one PostgreSQL and one Redis', () => {
  let database: TestDatabase;
  let dataSource: DataSource;
  let servers: ServerProcess[];

  beforeAll(async () => {
    process.env.TEST_DATABASE_URL ??=
      process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
    database = await createTestDatabase();
    const env = {
      DATABASE_URL: database.url,
      REDIS_URL: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
      REDIS_KEY_PREFIX: `test:${randomBytes(6).toString('hex')}:`,
      RATE_LIMIT_MAX: String(LIMIT),
      RATE_LIMIT_WINDOW_S: String(WINDOW_S),
      // 200 requests at once keep each instance's event loop busy for longer than the default
      // 250 ms, and a count that waits longer falls back to the instance's memory, which is not
      // what this suite tests (redis-outage.multi-spec.ts does).
      REDIS_COMMAND_TIMEOUT_MS: '5000',
    };
    // Both start at once against an empty database: the migration lock makes them take turns.
    servers = await Promise.all([startServer(env), startServer(env)]);

    dataSource = await new DataSource(
      buildDataSourceOptions({ type: 'postgres', url: database.url }),
    ).initialize();
    const factory = new Factory(dataSource);
    const office = await factory.boxOffice();
    await factory.apiKey(office.id, KEY_WALK);
    await factory.apiKey(office.id, KEY_LIMITED);
    const events = [
      await factory.event(office.id),
      await factory.event(office.id),
    ];
    for (let i = 0; i < 40; i++) {
      // Bursts of orders in the same second, as when tickets go on sale.
      await factory.order(office.id, events[i % 2].id, {
        createdAt: 1_750_000_000 + Math.floor(i / 4),
      });
    }
  });

  afterAll(async () => {
    await Promise.all((servers ?? []).map((server) => server.stop()));
    await dataSource?.destroy();
    await database?.drop();
  });

  it('migrated the shared database exactly once', async () => {
    const applied = await dataSource.query(
      'SELECT name FROM migrations ORDER BY id',
    );
    expect(applied).toEqual(MIGRATIONS.map(({ name }) => ({ name })));
  });

  async function walk(pick: (page: number) => ServerProcess) {
    const pages: unknown[] = [];
    let link: string | null = '/v1/orders?limit=7';
    while (link) {
      const res: request.Response = await request(pick(pages.length).url)
        .get(link)
        .set('Authorization', basicAuth(KEY_WALK));
      expect(res.status).toBe(200);
      pages.push(res.body);
      link = res.body.links.next;
    }
    return pages;
  }

  it('gives a client that alternates instances exactly the single-instance walk', async () => {
    const alone = await walk(() => servers[0]);
    const alternating = await walk((page) => servers[page % 2]);
    expect(alternating).toEqual(alone);
    const ids = alone.flatMap((page) =>
      (page as { data: { id: string }[] }).data.map((o) => o.id),
    );
    expect(ids).toHaveLength(40);
    expect(new Set(ids).size).toBe(40);
  });

  it('shares one rate-limit budget: 200 concurrent requests across both let exactly the limit through', async () => {
    const responses = await Promise.all(
      Array.from({ length: 200 }, (_, i) =>
        request(servers[i % 2].url)
          .get('/v1/ping')
          .set('Authorization', basicAuth(KEY_LIMITED)),
      ),
    );
    const ok = responses.filter((res) => res.status === 200);
    const refused = responses.filter((res) => res.status === 429);
    expect(ok).toHaveLength(LIMIT);
    expect(refused).toHaveLength(200 - LIMIT);
    for (const res of refused) {
      expect(res.body).toEqual({
        status: 429,
        error_code: 'TOO_MANY_REQUESTS',
        message: MESSAGES.rateLimited(
          LIMIT,
          WINDOW_S,
          res.headers['retry-after'],
        ),
      });
      expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
    }
    const remaining = ok
      .map((res) => Number(res.headers['x-rate-limit-remaining']))
      .sort((a, b) => a - b);
    expect(remaining).toEqual(Array.from({ length: LIMIT }, (_, i) => i));
  });

  it('never reported the healthy Redis as unavailable: each instance connected to it before listening', () => {
    for (const server of servers) {
      expect(server.output()).not.toMatch(/Redis unavailable/);
    }
  });
});
