import { Writable } from 'node:stream';
import request from 'supertest';
import { DrainState } from '../src/common/http/drain-state';
import { MIGRATIONS } from '../src/database/data-source-options';
import { runMigrations } from '../src/database/migrate';
import { errorBody } from './utils/api';
import { TestApp, basicAuth, createTestApp } from './utils/create-test-app';
import { databaseOutage } from './utils/database-outage';
import {
  durableTestDatabase,
  openWithMigrations,
} from './utils/migrated-database';
import { TestDatabase, onPostgres } from './utils/test-database';

// The load balancer's probes (docs/OPERATIONS.md, Health checks): liveness never reads the
// database; readiness reads a real table and answers 503 while it cannot, while migrations are
// pending, and from the first moment of a drain. The SIGTERM that begins a drain in a real process:
// test/multi-instance/readiness.multi-spec.ts.

const LIVE = { status: 'ok', info: {}, error: {}, details: {} };
const READY_INDICATORS = {
  database: { status: 'up' },
  migrations: { status: 'up', applied: MIGRATIONS.length },
};
const READY = {
  status: 'ok',
  info: READY_INDICATORS,
  error: {},
  details: READY_INDICATORS,
};
const notReady = (reason: string) =>
  errorBody(503, 'SERVICE_UNAVAILABLE', `Not ready: ${reason}`);
const DATABASE_DOWN = notReady('the database does not answer');
const PROBE_CACHE_CONTROL = 'no-cache, no-store, must-revalidate';

interface LogLine {
  level: number;
  context?: string;
  msg: string;
}

/** An app on a database of its own that outlives a connection, its log lines kept. */
async function appOn(database: TestDatabase, settings = {}) {
  let output = '';
  const destination = new Writable({
    write(chunk: Buffer, _encoding, done) {
      output += chunk.toString();
      done();
    },
  });
  const t = await createTestApp(
    { DATABASE_URL: database.url, LOG_LEVEL: 'info', ...settings },
    { logDestination: destination },
  );
  /** What Readiness logged, in order. */
  const readinessLog = () =>
    output
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as LogLine)
      .filter((line) => line.context === 'Readiness')
      .map((line) => line.msg);
  return { t, readinessLog };
}

const probe = (t: TestApp, path: string) => request(t.server).get(path);

describe('GET /health/live and GET /health/ready', () => {
  let database: TestDatabase;
  let t: TestApp;
  let readinessLog: () => string[];

  beforeAll(async () => {
    database = await durableTestDatabase();
    // Migrated and closed first, so that on SQLite every page is in the file (a clean close folds
    // the write-ahead log into it) and the app writes nothing: its reads go to the file.
    await (await openWithMigrations(database.url, MIGRATIONS)).destroy();
    ({ t, readinessLog } = await appOn(database, {
      RATE_LIMIT_MAX: '5',
      AUTH_FAILURE_MAX: '1',
    }));
  });

  afterAll(async () => {
    await t?.close();
    await database?.drop();
  });

  it('answer 200 without a key, unversioned, with Terminus’s body and no caching', async () => {
    const live = await probe(t, '/health/live');
    expect([live.status, live.body]).toEqual([200, LIVE]);
    const ready = await probe(t, '/health/ready');
    expect([ready.status, ready.body]).toEqual([200, READY]);
    for (const res of [live, ready]) {
      expect(res.headers['cache-control']).toBe(PROBE_CACHE_CONTROL);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      expect(res.headers['x-request-id']).toBeDefined();
    }
    expect((await probe(t, '/health/ready/')).status).toBe(200);
    expect((await request(t.server).head('/health/ready')).status).toBe(200);
    expect((await probe(t, '/v1/health/ready')).status).toBe(404);
  });

  it('neither look a sent key up nor count against the rate limit or the failed authentications', async () => {
    const before = await request(t.server).get('/v1/ping');
    const remaining = Number(before.headers['x-rate-limit-remaining']);
    for (let i = 0; i < 6; i++) {
      for (const path of ['/health/live', '/health/ready']) {
        const res = await probe(t, path).set(
          'Authorization',
          basicAuth('sk_not_a_key_at_all'),
        );
        expect(res.status).toBe(200);
        expect(res.headers['x-rate-limit-limit']).toBeUndefined();
      }
    }
    // The address's next counted request, and its first failed authentication (AUTH_FAILURE_MAX
    // is 1: one more would be 429).
    const ping = await request(t.server).get('/v1/ping');
    expect(ping.status).toBe(200);
    expect(ping.headers['x-rate-limit-remaining']).toBe(String(remaining - 1));
    const wrongKey = await request(t.server)
      .get('/v1/ping')
      .set('Authorization', basicAuth('sk_not_a_key_at_all'));
    expect(wrongKey.status).toBe(401);
  });

  // A `SELECT 1` would go on answering through either outage.
  const outage = databaseOutage(
    onPostgres ? 'postgres' : 'sqlite',
    () => database,
  );

  it(`answers 503 while ${outage.name}, liveness 200, and is ready again once it is over, logging each change once`, async () => {
    expect((await probe(t, '/health/ready')).status).toBe(200);
    await outage.begin();
    try {
      for (let i = 0; i < 3; i++) {
        const ready = await probe(t, '/health/ready');
        expect([ready.status, ready.body]).toEqual([503, DATABASE_DOWN]);
        expect(ready.headers['content-type']).toMatch(/^application\/json/);
        expect(ready.headers['cache-control']).toBe('no-store');
        expect(ready.headers['retry-after']).toBe('5');
        const live = await probe(t, '/health/live');
        expect([live.status, live.body]).toEqual([200, LIVE]);
      }
    } finally {
      await outage.end();
    }
    // PostgreSQL: the pool's next connection succeeds at once; allow for a slow machine.
    let ready = await probe(t, '/health/ready');
    for (let i = 0; i < 50 && ready.status !== 200; i++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      ready = await probe(t, '/health/ready');
    }
    expect([ready.status, ready.body]).toEqual([200, READY]);
    expect(readinessLog()).toEqual([
      expect.stringMatching(
        /^not ready: database: the database does not answer \(.+\)$/,
      ),
      expect.stringMatching(
        /^ready again \(was: database: the database does not answer\)$/,
      ),
    ]);
  });
});

describe('GET /health/ready while migrations are pending (MIGRATIONS_RUN=false)', () => {
  let database: TestDatabase;
  let t: TestApp;

  afterEach(async () => {
    await t?.close();
    await database?.drop();
  });

  it('answers 503 until the last migration is applied, liveness 200 meanwhile', async () => {
    database = await durableTestDatabase();
    const older = await openWithMigrations(
      database.url,
      MIGRATIONS.slice(0, -1),
    );
    await older.destroy();
    ({ t } = await appOn(database, { MIGRATIONS_RUN: 'false' }));

    const ready = await probe(t, '/health/ready');
    expect([ready.status, ready.body]).toEqual([
      503,
      notReady(`1 of ${MIGRATIONS.length} migrations are not applied yet`),
    ]);
    expect(ready.headers['retry-after']).toBe('5');
    expect(ready.headers['cache-control']).toBe('no-store');
    expect((await probe(t, '/health/live')).status).toBe(200);

    // The deploy step (npm run migration:run) against the same database.
    expect(await runMigrations(t.dataSource)).toHaveLength(1);
    const after = await probe(t, '/health/ready');
    expect([after.status, after.body]).toEqual([200, READY]);
  });

  it('counts every migration pending on a database nothing has migrated', async () => {
    database = await durableTestDatabase();
    ({ t } = await appOn(database, { MIGRATIONS_RUN: 'false' }));
    const ready = await probe(t, '/health/ready');
    expect([ready.status, ready.body]).toEqual([
      503,
      notReady(
        `${MIGRATIONS.length} of ${MIGRATIONS.length} migrations are not applied yet`,
      ),
    ]);
  });

  it('stays ready with a migration applied that this release does not know (a newer one, in a rolling deploy)', async () => {
    database = await durableTestDatabase();
    ({ t } = await appOn(database));
    await t.dataSource.query(
      `INSERT INTO migrations (timestamp, name) VALUES (1999999999999, 'FromANewerRelease1999999999999')`,
    );
    const ready = await probe(t, '/health/ready');
    expect([ready.status, ready.body]).toEqual([200, READY]);
  });
});

describe('GET /health/ready once the drain has begun', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp();
  });

  afterAll(() => t.close());

  it('answers 503 with Connection: close, while liveness answers 200 and the API is refused', async () => {
    expect((await probe(t, '/health/ready')).status).toBe(200);
    // What GracefulShutdown does first on SIGTERM.
    t.app.get(DrainState).begin();

    const ready = await probe(t, '/health/ready');
    expect([ready.status, ready.body]).toEqual([
      503,
      notReady('this instance is shutting down'),
    ]);
    expect(ready.headers.connection).toBe('close');
    expect(ready.headers['retry-after']).toBe('5');
    expect(ready.headers['cache-control']).toBe('no-store');
    const live = await probe(t, '/health/live');
    expect([live.status, live.body]).toEqual([200, LIVE]);
    const ping = await request(t.server).get('/v1/ping');
    expect([ping.status, ping.body]).toEqual([
      503,
      errorBody(
        503,
        'SERVICE_UNAVAILABLE',
        'This instance is shutting down; retry shortly',
      ),
    ]);
  });
});
