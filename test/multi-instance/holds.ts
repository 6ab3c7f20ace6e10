import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { TestDatabase } from '../utils/test-database';
import { REDIS_URL, sleep } from './databases';
import { freePort } from './server-process';
import { TcpProxy } from './tcp-proxy';

/**
 * Keeps requests in flight for as long as a test says, by real waiting rather than a test hook:
 * on PostgreSQL they wait for a lock on the orders table; on SQLite (whose queries never wait)
 * for Redis, which the rate limiter asks first and whose traffic a proxy holds back. What a
 * drain waits for (SIGTERM: docs/DESIGN.md, Shutdown).
 */
export interface Hold {
  /** The server's settings it needs. */
  env: Record<string, string>;
  start(): Promise<void>;
  /** Resolves once `n` requests are known to be waiting. */
  waiting(n: number): Promise<void>;
  release(): Promise<void>;
  close(): Promise<void>;
}

/**
 * PostgreSQL: requests for orders wait on a lock of the orders table; `inFlight` at most. Its
 * connection is opened when it starts (a test may end the database's sessions before).
 */
export function lockHold(database: TestDatabase, inFlight: number): Hold {
  let locker: Client | undefined;
  const connection = () => {
    if (!locker) throw new Error('the hold has not started');
    return locker;
  };
  return {
    // A connection for each request, so that every one of them waits on the lock itself.
    env: { DB_POOL_SIZE: String(inFlight + 5) },
    start: async () => {
      locker = new Client({ connectionString: database.url });
      await locker.connect();
      await locker.query('BEGIN');
      await locker.query('LOCK TABLE orders IN ACCESS EXCLUSIVE MODE');
    },
    waiting: async (n) => {
      for (const deadline = Date.now() + 10_000; Date.now() < deadline;) {
        // pg_locks, not pg_stat_activity: that one is a snapshot frozen for the transaction.
        const { rows } = await connection().query<{ n: string }>(
          "SELECT count(*) AS n FROM pg_locks WHERE relation = 'orders'::regclass AND NOT granted",
        );
        if (Number(rows[0].n) >= n) return;
        await sleep(20);
      }
      throw new Error(`fewer than ${n} requests wait on the lock`);
    },
    release: async () => void (await connection().query('ROLLBACK')),
    close: async () => {
      await locker?.end();
    },
  };
}

/** Any database: keyed requests wait for Redis, whose traffic a proxy holds back. */
export async function redisHold(): Promise<Hold> {
  const redis = new URL(REDIS_URL);
  const proxy = new TcpProxy(await freePort(), {
    host: redis.hostname,
    port: Number(redis.port || 6379),
  });
  await proxy.start();
  const prefix = `test:shutdown:${randomBytes(6).toString('hex')}:`;
  return {
    env: {
      REDIS_URL: `redis://127.0.0.1:${proxy.port}`,
      REDIS_KEY_PREFIX: prefix,
    },
    start: () => Promise.resolve(proxy.hold()),
    waiting: async (n) => {
      // Each request's rate-limit hit names its counter's key once.
      for (const deadline = Date.now() + 10_000; Date.now() < deadline;) {
        if (proxy.heldText().split(prefix).length - 1 >= n) return;
        await sleep(5);
      }
      throw new Error(`fewer than ${n} requests reached Redis`);
    },
    release: () => Promise.resolve(proxy.release()),
    close: () => proxy.cut(),
  };
}
