import { ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import Redis from 'ioredis';
import { basicAuth } from '../utils/create-test-app';
import { TestDatabase } from '../utils/test-database';
import { DEMO_KEY, freshDatabase, seedDemo, sleep } from './databases';
import { ServerProcess, freePort, startServer } from './server-process';
import { sample } from './traffic';

const UNAVAILABLE =
  /Redis unavailable \(.*\): counting rate limits per instance until it is back/g;
const BACK = 'Redis is answering again: rate limits are shared again';

/**
 * A Redis server of this test's own (`redis-server` from PATH; the suite's may be shared),
 * stopped for the outage and started again on the same port.
 */
class PrivateRedis {
  private process: ChildProcess | null = null;
  constructor(readonly port: number) {}

  async start() {
    this.process = spawn(
      'redis-server',
      [
        '--port',
        String(this.port),
        '--bind',
        '127.0.0.1',
        '--save',
        '',
        '--appendonly',
        'no',
      ],
      { stdio: 'ignore' },
    );
    // Bounded: a redis-server that cannot start (port taken) would have this poll forever.
    const deadline = Date.now() + 10_000;
    for (;;) {
      if (this.process.exitCode !== null || Date.now() > deadline) {
        throw new Error(`redis-server did not start on port ${this.port}`);
      }
      const probe = new Redis(this.port, '127.0.0.1', {
        lazyConnect: true,
        maxRetriesPerRequest: 0,
        retryStrategy: () => null,
      });
      probe.on('error', () => undefined);
      try {
        await probe.connect();
        if ((await probe.ping()) === 'PONG') return;
      } catch {
        await sleep(50);
      } finally {
        probe.disconnect();
      }
    }
  }

  async stop() {
    const child = this.process;
    this.process = null;
    if (!child || child.exitCode !== null) return;
    child.kill('SIGKILL');
    await once(child, 'exit');
  }
}

// docs/DESIGN.md, Database faults: with Redis down, requests are still served (rate limits are
// then counted per instance), with one warning per outage.
describe('Redis unreachable: rate limiting fails open', () => {
  let database: TestDatabase;
  let redis: PrivateRedis;
  let server: ServerProcess;
  const prefix = `test:redis-outage:${randomBytes(6).toString('hex')}:`;

  beforeAll(async () => {
    database = await freshDatabase('sqlite');
    await seedDemo(database.url, 20);
    redis = new PrivateRedis(await freePort());
    await redis.start();
    server = await startServer({
      DATABASE_URL: database.url,
      REDIS_URL: `redis://127.0.0.1:${redis.port}`,
      REDIS_KEY_PREFIX: prefix,
      RATE_LIMIT_MAX: '1000',
      // The recovery line is logged at info.
      LOG_LEVEL: 'info',
    });
  });

  afterAll(async () => {
    await server?.stop();
    await redis?.stop();
    await database?.drop();
  });

  const orders = () =>
    sample(`${server.url}/v1/orders?limit=5`, {
      Authorization: basicAuth(DEMO_KEY),
    });
  const remaining = (s: { headers: Headers | null }) =>
    Number(s.headers?.get('x-rate-limit-remaining'));
  const warnings = () => server.output().match(UNAVAILABLE)?.length ?? 0;
  const recoveries = () => server.output().split(BACK).length - 1;

  it('answers 200 throughout an outage, warns once, and shares counts again once Redis is back', async () => {
    for (let i = 0; i < 3; i++) expect((await orders()).status).toBe(200);
    // Relative counts: a request that reaches the store before its first connection to Redis is
    // ready is counted in memory with a warning, and the next one logs the recovery.
    const warnedBefore = warnings();
    const recoveredBefore = recoveries();

    await redis.stop();
    const during = [];
    for (let i = 0; i < 20; i++) during.push(await orders());
    for (const s of during) {
      expect([s.status, s.error]).toEqual([200, null]);
      expect(s.ms).toBeLessThan(1_000);
      expect(s.headers?.get('x-rate-limit-limit')).toBe('1000');
    }
    expect(warnings() - warnedBefore).toBe(1);

    await redis.start();
    const after = [];
    for (let i = 0; i < 100 && recoveries() === recoveredBefore; i++) {
      after.push(await orders());
      await sleep(50);
    }
    expect(recoveries() - recoveredBefore).toBe(1);
    for (const s of after) expect(s.status).toBe(200);
    // Counted in Redis again (a new Redis: the count starts over there): its counter for demo
    // key 1 is what the response reports.
    const shared = await orders();
    expect(shared.status).toBe(200);
    const client = new Redis(redis.port, '127.0.0.1');
    try {
      expect(Number(await client.get(`${prefix}key:1`))).toBe(
        1000 - remaining(shared),
      );
    } finally {
      client.disconnect();
    }
  });
});

describe('Redis unreachable from the start', () => {
  let database: TestDatabase;
  let server: ServerProcess;

  beforeAll(async () => {
    database = await freshDatabase('sqlite');
    await seedDemo(database.url, 20);
    server = await startServer({
      DATABASE_URL: database.url,
      // Nothing listens there.
      REDIS_URL: `redis://127.0.0.1:${await freePort()}`,
    });
  });

  afterAll(async () => {
    await server?.stop();
    await database?.drop();
  });

  it('starts, serves 200 with a logged warning, and still limits per instance', async () => {
    const responses = [];
    for (let i = 0; i < 5; i++) {
      responses.push(
        await sample(`${server.url}/v1/orders?limit=5`, {
          Authorization: basicAuth(DEMO_KEY),
        }),
      );
    }
    expect(responses.map((s) => s.status)).toEqual([200, 200, 200, 200, 200]);
    expect(
      responses.map((s) => Number(s.headers?.get('x-rate-limit-remaining'))),
    ).toEqual([4999, 4998, 4997, 4996, 4995]);
    expect(server.output().match(UNAVAILABLE)).toHaveLength(1);
  });
});
