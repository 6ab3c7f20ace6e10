import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { METHODS, request as httpRequest } from 'node:http';
import { type AddressInfo, connect } from 'node:net';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { catchUpChanges } from '../src/changes/change-assigner';
import { MIGRATIONS } from '../src/database/data-source-options';
import { errorBody } from './utils/api';
import { TestApp, basicAuth, createTestApp } from './utils/create-test-app';
import { databaseOutage } from './utils/database-outage';
import { Factory } from './utils/factories';
import {
  durableTestDatabase,
  openWithMigrations,
} from './utils/migrated-database';
import { TestDatabase, onPostgres } from './utils/test-database';

// GET /metrics (docs/OPERATIONS.md, Metrics): Prometheus's text format behind METRICS_TOKEN, an
// unknown path without it; labels that never carry an id, a key or a path as sent.

const TOKEN = randomBytes(32).toString('hex');
const KEY = 'sk_metrics_e2e_key_0123456789abcdef';
const DOOR_KEY = 'sk_metrics_e2e_door_0123456789abcdef';
const BEARER = `Bearer ${TOKEN}`;
const PROMETHEUS_TEXT = 'text/plain; version=0.0.4; charset=utf-8';
const DATABASE = onPostgres ? 'postgres' : 'sqlite';

/** One sample of a scrape: its metric name, labels and value. */
interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

function samples(text: string): Sample[] {
  return text
    .split('\n')
    .filter((line) => line !== '' && !line.startsWith('#'))
    .map((line) => {
      const match = /^([A-Za-z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
      if (!match) throw new Error(`not a sample line: ${line}`);
      const labels = Object.fromEntries(
        [...(match[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map(
          ([, name, value]) => [name, value],
        ),
      );
      return { name: match[1], labels, value: Number(match[3]) };
    });
}

/** The value of the one sample named `name` whose labels include `labels` (undefined: none). */
function valueOf(
  all: Sample[],
  name: string,
  labels: Record<string, string> = {},
): number | undefined {
  const found = all.filter(
    (s) =>
      s.name === name &&
      Object.entries(labels).every(([key, value]) => s.labels[key] === value),
  );
  if (found.length > 1) throw new Error(`${name} matches several samples`);
  return found[0]?.value;
}

const scrape = async (t: TestApp) => {
  const res = await request(t.server)
    .get('/metrics')
    .set('Authorization', BEARER);
  expect(res.status).toBe(200);
  return res.text;
};

describe('GET /metrics with METRICS_TOKEN unset', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp();
  });

  afterAll(() => t.close());

  /** What a client sees of a response, the path it asked for written as PATH. */
  const seen = (res: request.Response, path: string) => ({
    status: res.status,
    body: (res.text ?? '').split(path).join('PATH'),
    type: res.headers['content-type'],
    cacheControl: res.headers['cache-control'],
    allow: res.headers.allow,
    authenticate: res.headers['www-authenticate'],
    rateLimit: res.headers['x-rate-limit-limit'],
    counted: 'x-rate-limit-remaining' in res.headers,
  });

  it.each([
    ['GET', 'no credentials', undefined],
    ['GET', 'a bearer token', BEARER],
    ['GET', 'a wrong API key', basicAuth('sk_not_a_key')],
    ['HEAD', 'no credentials', undefined],
    ['POST', 'no credentials', undefined],
    ['DELETE', 'a bearer token', BEARER],
  ])(
    'answers %s with %s exactly as an unknown path',
    async (method, _credentials, authorization) => {
      const send = (path: string) => {
        const req = request(t.server)[
          method.toLowerCase() as 'get' | 'head' | 'post' | 'delete'
        ](path);
        return authorization === undefined
          ? req
          : req.set('Authorization', authorization);
      };
      const metrics = await send('/metrics');
      expect(metrics.status).toBe(404);
      expect(seen(metrics, '/metrics')).toEqual(
        seen(await send('/metricz'), '/metricz'),
      );
    },
  );
});

describe('GET /metrics with METRICS_TOKEN set', () => {
  let t: TestApp;
  let orderId: number;
  let ticketIds: number[];

  beforeAll(async () => {
    t = await createTestApp({
      METRICS_TOKEN: TOKEN,
      RATE_LIMIT_MAX: '30',
      AUTH_FAILURE_MAX: '2',
    });
    const f = new Factory(t.dataSource);
    const { office, event } = await f.tenant(KEY);
    await f.apiKey(office.id, DOOR_KEY, false, 'check_in');
    const order = await f.order(office.id, event.id);
    orderId = order.id;
    ticketIds = order.issuedTickets!.map((ticket) => ticket.id);
  });

  afterAll(() => t.close());

  const unauthorized = errorBody(
    401,
    'UNAUTHORIZED',
    'Send the metrics token: Authorization: Bearer <METRICS_TOKEN>',
  );

  it.each([
    ['no Authorization', undefined],
    ['another token', `Bearer ${TOKEN.slice(1)}x`],
    ['the token as HTTP Basic', `Basic ${TOKEN}`],
    ['an API key as the token', `Bearer ${KEY}`],
    ['an API key, as the API takes it', basicAuth(KEY)],
  ])('answers 401 to %s', async (_case, authorization) => {
    const req = request(t.server).get('/metrics');
    const res = await (authorization === undefined
      ? req
      : req.set('Authorization', authorization));
    expect([res.status, res.body]).toEqual([401, unauthorized]);
    expect(res.headers['www-authenticate']).toBe('Bearer realm="metrics"');
    expect(res.headers['cache-control']).toBe('no-store');
  });

  it('answers the token with Prometheus text, uncached, the scheme in any case', async () => {
    for (const scheme of ['Bearer', 'bearer', 'BEARER']) {
      const res = await request(t.server)
        .get('/metrics')
        .set('Authorization', `${scheme} ${TOKEN}`);
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toBe(PROMETHEUS_TEXT);
      expect(res.headers['cache-control']).toBe('no-store');
      expect(res.text).toMatch(/^# HELP /);
    }
  });

  it('is neither rate limited nor a failed authentication: the token is never looked up as a key', async () => {
    for (let i = 0; i < 40; i++) {
      const res = await request(t.server)
        .get('/metrics')
        .set('Authorization', i % 2 === 0 ? BEARER : 'Bearer wrong');
      expect(res.status).toBe(i % 2 === 0 ? 200 : 401);
      expect(res.headers['x-rate-limit-limit']).toBeUndefined();
    }
  });

  it('times each request by route template, method and status, with no id, key or path as sent in any label', async () => {
    const before = samples(await scrape(t));
    const count = (all: Sample[], labels: Record<string, string>) =>
      valueOf(all, 'boxoffice_http_request_duration_seconds_count', labels) ??
      0;
    const asKey = (path: string) =>
      request(t.server).get(path).set('Authorization', basicAuth(KEY));

    expect((await asKey(`/v1/orders/or_${orderId}`)).status).toBe(200);
    expect((await asKey('/v1/orders/or_987654321')).status).toBe(404);
    expect(
      (await asKey('/v1/orders?limit=1&buyer=leak@example.com')).status,
    ).toBe(400);
    expect((await asKey('/v1/events/ev_424242')).status).toBe(404);
    expect((await request(t.server).post('/v1/orders/or_868686')).status).toBe(
      405,
    );
    expect(
      (
        await request(t.server)
          .options('/v1/orders/or_777777')
          .set('Origin', 'https://door.example')
          .set('Access-Control-Request-Method', 'GET')
      ).status,
    ).toBe(204);
    const unknown = [
      '/admin/sk_leaked_key_31337',
      `/v1/orders/or_${orderId}/extra`,
      '/v1/ORDERS',
      '/v1/orders/or_1/../../etc/passwd',
      '/%E0%A4%A',
      '/v1/orders/%E0%A4%A',
      '/?key=sk_query_leak_5150',
    ];
    for (const path of unknown) {
      expect((await asKey(path)).status).toBe(404);
    }
    // The key over its rate limit: refused before routing, labelled with the route at the path.
    let refused = 0;
    for (let i = 0; i < 40; i++) {
      if ((await asKey(`/v1/orders/or_${orderId}`)).status === 429) refused++;
    }
    expect(refused).toBeGreaterThan(0);

    const text = await scrape(t);
    const after = samples(text);
    const routes = new Set(
      after.flatMap((s) =>
        s.labels.route === undefined ? [] : [s.labels.route],
      ),
    );
    const templates = routeTemplates(t);
    // Every name and label of the scrape (its values are numbers that may hold any digits).
    const labelled = [
      ...text.split('\n').filter((line) => line.startsWith('#')),
      ...after.map((s) => `${s.name} ${JSON.stringify(s.labels)}`),
    ].join('\n');
    expect([...routes].filter((route) => !templates.has(route))).toEqual([
      'unmatched',
    ]);
    for (const leak of [
      `or_${orderId}`,
      '987654321',
      '424242',
      '868686',
      '777777',
      '31337',
      '5150',
      'leak@example.com',
      'passwd',
      'ORDERS',
      '%E0',
      'sk_',
      KEY,
      TOKEN,
    ]) {
      expect({ leak, found: labelled.includes(leak) }).toEqual({
        leak,
        found: false,
      });
    }

    const grew = (labels: Record<string, string>) =>
      count(after, labels) - count(before, labels);
    const order = { route: '/v1/orders/:order_id', method: 'GET' };
    expect(grew({ ...order, status: '200' })).toBeGreaterThanOrEqual(1);
    expect(grew({ ...order, status: '404' })).toBe(1);
    expect(grew({ ...order, status: '429' })).toBe(refused);
    expect(grew({ route: '/v1/orders', method: 'GET', status: '400' })).toBe(1);
    expect(
      grew({ route: '/v1/orders/:order_id', method: 'POST', status: '405' }),
    ).toBe(1);
    expect(
      grew({ route: '/v1/orders/:order_id', method: 'OPTIONS', status: '204' }),
    ).toBe(1);
    expect(grew({ route: 'unmatched', method: 'GET', status: '404' })).toBe(
      unknown.length,
    );
    expect(
      (valueOf(after, 'boxoffice_rate_limit_refusals_total', {
        reason: 'rate_limit',
      }) ?? 0) -
        (valueOf(before, 'boxoffice_rate_limit_refusals_total', {
          reason: 'rate_limit',
        }) ?? 0),
    ).toBe(refused);
    expect(
      valueOf(after, 'boxoffice_rate_limit_refusals_total', {
        reason: 'auth_failures',
      }),
    ).toBe(0);
  });

  it('times a request whose client went away before its answer, once', async () => {
    const scans = (all: Sample[]) =>
      all
        .filter(
          (s) =>
            s.name === 'boxoffice_http_request_duration_seconds_count' &&
            s.labels.route === '/v1/check_ins' &&
            s.labels.method === 'POST',
        )
        .reduce((sum, s) => sum + s.value, 0);
    const before = scans(samples(await scrape(t)));
    if (t.server.address() === null) {
      await new Promise<void>((listening) =>
        t.server.listen(0, '127.0.0.1', listening),
      );
    }
    const { port } = t.server.address() as AddressInfo;
    // A scan whose body never arrives in full: the request is held until its connection goes.
    const socket = connect(port, '127.0.0.1');
    await new Promise<void>((connected) => socket.once('connect', connected));
    socket.write(
      [
        'POST /v1/check_ins HTTP/1.1',
        'Host: 127.0.0.1',
        `Authorization: ${basicAuth(DOOR_KEY)}`,
        'Content-Type: application/json',
        'Content-Length: 64',
        '',
        '{"barcode":',
      ].join('\r\n'),
    );
    await new Promise((held) => setTimeout(held, 100));
    expect(scans(samples(await scrape(t)))).toBe(before);
    socket.destroy();

    let after = before;
    for (let i = 0; i < 50 && after === before; i++) {
      await new Promise((later) => setTimeout(later, 20));
      after = scans(samples(await scrape(t)));
    }
    expect(after - before).toBe(1);
  });

  it(`times every statement, labelled ${DATABASE}`, async () => {
    const statements = async () =>
      valueOf(
        samples(await scrape(t)),
        'boxoffice_db_statement_duration_seconds_count',
        { database: DATABASE },
      ) ?? 0;
    const before = await statements();
    expect(before).toBeGreaterThan(0);
    // A page of the change feed: its head through the readers, its entries through TypeORM.
    const res = await request(t.server)
      .get('/v1/changes')
      .set('Authorization', basicAuth(KEY));
    expect([429, 200]).toContain(res.status);
    expect(await statements()).toBeGreaterThan(before);
  });

  it(
    onPostgres
      ? 'reads the PostgreSQL pool at each scrape: connections in use and idle, statements waiting, its size'
      : 'has no pool gauges on SQLite (one connection, statements on the event loop)',
    async () => {
      const all = samples(await scrape(t));
      const pool = all
        .filter((s) => s.name.startsWith('boxoffice_db_pool_'))
        .map((s) => s.name)
        .sort();
      if (!onPostgres) {
        expect(pool).toEqual([]);
        return;
      }
      expect(pool).toEqual([
        'boxoffice_db_pool_connections_idle',
        'boxoffice_db_pool_connections_in_use',
        'boxoffice_db_pool_max_connections',
        'boxoffice_db_pool_waiting',
      ]);
      expect(valueOf(all, 'boxoffice_db_pool_max_connections')).toBe(10);
      expect(valueOf(all, 'boxoffice_db_pool_waiting')).toBe(0);
      expect(
        valueOf(all, 'boxoffice_db_pool_connections_idle'),
      ).toBeGreaterThan(0);
    },
  );

  it('reads the sync horizon lag and the change-feed head at each scrape', async () => {
    // Every box office's head, once the entries waiting are numbered (on PostgreSQL entries are
    // numbered after their commit: src/changes/change-assigner.ts).
    const heads = async () => {
      const waiting = onPostgres
        ? await t.dataSource.query<{ box_office_id: number }[]>(
            'SELECT DISTINCT box_office_id FROM change_inbox',
          )
        : [];
      for (const { box_office_id } of waiting) {
        await catchUpChanges(t.dataSource, Number(box_office_id));
      }
      return Number(
        (
          await t.dataSource.query<{ total: unknown }[]>(
            'SELECT coalesce(sum(last_id), 0) AS total FROM change_heads',
          )
        )[0].total,
      );
    };
    let all = samples(await scrape(t));
    const lag = valueOf(all, 'boxoffice_sync_horizon_lag_seconds')!;
    // SQLite: SYNC_LAG_S (2 by default). PostgreSQL: 1 with no write transaction open.
    if (onPostgres) expect([1, 2]).toContain(lag);
    else expect(lag).toBe(2);
    expect(valueOf(all, 'boxoffice_change_feed_head')).toBe(await heads());

    // A write as any writer makes one: the triggers number a change entry.
    await t.dataSource.query(
      `UPDATE orders SET status_message = 'Called the buyer' WHERE id = ${orderId}`,
    );
    const total = await heads();
    expect(total).toBeGreaterThan(0);
    all = samples(await scrape(t));
    expect(valueOf(all, 'boxoffice_change_feed_head')).toBe(total);
  });

  it('counts door scans recorded, refused by reason, and answered again from their Idempotency-Key', async () => {
    const counts = async () => {
      const all = samples(await scrape(t));
      return {
        recorded: valueOf(all, 'boxoffice_scans_recorded_total'),
        replayed: valueOf(all, 'boxoffice_scans_replayed_total'),
        already: valueOf(all, 'boxoffice_scans_refused_total', {
          reason: 'ALREADY_CHECKED_IN',
        }),
        notIn: valueOf(all, 'boxoffice_scans_refused_total', {
          reason: 'NOT_CHECKED_IN',
        }),
        void: valueOf(all, 'boxoffice_scans_refused_total', {
          reason: 'TICKET_VOID',
        }),
        wrongEvent: valueOf(all, 'boxoffice_scans_refused_total', {
          reason: 'WRONG_EVENT',
        }),
      };
    };
    // Every series is there before the first scan, at 0.
    expect(await counts()).toEqual({
      recorded: 0,
      replayed: 0,
      already: 0,
      notIn: 0,
      void: 0,
      wrongEvent: 0,
    });
    const scan = (body: object, idempotencyKey?: string) => {
      const req = request(t.server)
        .post('/v1/check_ins')
        .set('Authorization', basicAuth(DOOR_KEY))
        .send(body);
      return idempotencyKey ? req.set('Idempotency-Key', idempotencyKey) : req;
    };
    const [first, second] = ticketIds.map((id) => `it_${id}`);
    expect((await scan({ issued_ticket_id: first }, 'gate-1-a')).status).toBe(
      201,
    );
    expect((await scan({ issued_ticket_id: first }, 'gate-1-a')).status).toBe(
      201,
    ); // replayed
    expect((await scan({ issued_ticket_id: first })).status).toBe(409);
    expect(
      (await scan({ issued_ticket_id: second, quantity: -1 })).status,
    ).toBe(409);
    expect((await scan({ issued_ticket_id: second })).status).toBe(201);
    expect(
      (await scan({ issued_ticket_id: second, event_id: 'ev_999999' })).status,
    ).toBe(409);
    expect(await counts()).toEqual({
      recorded: 2,
      replayed: 1,
      already: 1,
      notIn: 1,
      void: 0,
      wrongEvent: 1,
    });
  });

  it("carries the process's own: memory, CPU, event-loop lag, GC", async () => {
    const names = new Set(samples(await scrape(t)).map((s) => s.name));
    for (const name of [
      'process_resident_memory_bytes',
      'process_cpu_seconds_total',
      'nodejs_heap_size_used_bytes',
      'nodejs_eventloop_lag_p99_seconds',
      'nodejs_gc_duration_seconds_count',
    ]) {
      expect({ name, present: names.has(name) }).toEqual({
        name,
        present: true,
      });
    }
  });

  // CI installs Prometheus's promtool (.ci/run); a machine without it skips this check only.
  const promtool = spawnSync('promtool', ['--version']).status === 0;
  if (!promtool && process.env.CI) {
    throw new Error('promtool is missing: .ci/run installs it (prometheus)');
  }
  (promtool ? it : it.skip)(
    'passes `promtool check metrics` (the metrics linter of Prometheus)',
    async () => {
      const check = spawnSync('promtool', ['check', 'metrics'], {
        input: await scrape(t),
        encoding: 'utf8',
      });
      expect({
        status: check.status,
        output: `${check.stdout}${check.stderr}`,
      }).toEqual({ status: 0, output: '' });
    },
  );

  (promtool ? it : it.skip)(
    "gives docs/OPERATIONS.md's scrape config and alert rules to promtool, which takes them",
    () => {
      const [scrapeConfig, rules] = [
        ...readFileSync(
          join(__dirname, '../docs/OPERATIONS.md'),
          'utf8',
        ).matchAll(/```yaml\n([\s\S]*?)```/g),
      ].map((block) => block[1]);
      const dir = mkdtempSync(join(tmpdir(), 'boxoffice-promtool-'));
      try {
        // The token file the config names must exist for promtool: one of our own stands in.
        writeFileSync(join(dir, 'token'), TOKEN);
        writeFileSync(
          join(dir, 'prometheus.yml'),
          scrapeConfig.replace(
            /credentials_file: \S+/,
            `credentials_file: ${join(dir, 'token')}`,
          ),
        );
        writeFileSync(join(dir, 'rules.yml'), rules);
        for (const args of [
          ['check', 'config', join(dir, 'prometheus.yml')],
          ['check', 'rules', join(dir, 'rules.yml')],
        ]) {
          const check = spawnSync('promtool', args, { encoding: 'utf8' });
          expect({ args, status: check.status, output: check.stdout }).toEqual({
            args,
            status: 0,
            output: expect.stringMatching(/SUCCESS/),
          });
        }
        expect(rules.match(/- alert: /g)).toHaveLength(6);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  );
});

describe('GET /metrics under requests of every method', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({ METRICS_TOKEN: TOKEN });
    if (t.server.address() === null) {
      await new Promise<void>((listening) =>
        t.server.listen(0, '127.0.0.1', listening),
      );
    }
  });

  afterAll(() => t.close());

  /** One request of any method, answered or cut off: its status, or 0 when none came. */
  const send = (method: string, path: string) =>
    new Promise<number>((answered) => {
      const { port } = t.server.address() as AddressInfo;
      const req = httpRequest(
        { host: '127.0.0.1', port, method, path },
        (res) => {
          res.resume();
          res.on('end', () => answered(res.statusCode ?? 0));
        },
      );
      req.on('error', () => answered(0));
      req.end();
    });

  const requestSeries = (text: string) =>
    samples(text).filter(
      (s) => s.name === 'boxoffice_http_request_duration_seconds_count',
    );

  it('labels a method no route serves `other`: 34 methods on unknown paths add a fixed number of series', async () => {
    // Every method Node parses but CONNECT, which asks for a tunnel, not a resource.
    const methods = METHODS.filter((method) => method !== 'CONNECT');
    expect(methods).toHaveLength(34);
    const round = async (n: number) => {
      for (const method of methods) {
        for (const path of [
          `/x${n}/${method}`,
          `/v1/orders/or_${n}/${method}`,
        ]) {
          expect([method, await send(method, path)]).not.toEqual([method, 0]);
        }
      }
      return requestSeries(await scrape(t));
    };
    // The scrape's own request is timed too: once there, its series stays.
    await scrape(t);
    const first = await round(1);
    const second = await round(2);
    const third = await round(3);
    // A round of new paths and the same methods adds no series: each label has a fixed set.
    expect(second.length).toBe(first.length);
    expect(third.length).toBe(first.length);
    const served = new Set(
      (
        t.app.getHttpAdapter().getInstance() as {
          router: { stack: { route?: { methods: Record<string, boolean> } }[] };
        }
      ).router.stack.flatMap((layer) =>
        Object.keys(layer.route?.methods ?? {})
          .filter((method) => method !== '_all')
          .map((method) => method.toUpperCase()),
      ),
    );
    const labels = new Set(third.map((s) => s.labels.method));
    expect(labels).toContain('other');
    for (const method of labels) {
      expect([
        method,
        served.has(method) || ['HEAD', 'OPTIONS', 'other'].includes(method),
      ]).toEqual([method, true]);
    }
    for (const unserved of ['PROPFIND', 'MKCOL', 'M-SEARCH', 'PURGE']) {
      expect(labels.has(unserved)).toBe(false);
    }
    expect(new Set(third.map((s) => s.labels.route))).toEqual(
      new Set(['unmatched', '/metrics']),
    );
    // The statuses: what the service answers (404 and 405, 400 for a body it will not read, …).
    for (const status of new Set(third.map((s) => s.labels.status))) {
      expect(status).toMatch(/^[1-5]\d\d$/);
    }
  });
});

describe('GET /metrics while the database cannot be read', () => {
  let database: TestDatabase;
  let t: TestApp;
  const outage = databaseOutage(
    onPostgres ? 'postgres' : 'sqlite',
    () => database,
  );

  beforeAll(async () => {
    database = await durableTestDatabase();
    // Migrated and closed first: on SQLite every page is then in the file (database-outage.ts).
    await (await openWithMigrations(database.url, MIGRATIONS)).destroy();
    t = await createTestApp({
      DATABASE_URL: database.url,
      METRICS_TOKEN: TOKEN,
    });
  });

  afterAll(async () => {
    await t?.close();
    await database?.drop();
  });

  it(`still answers while ${outage.name}, without the values read from it, and has them again after`, async () => {
    // SQLite's horizon is the clock less SYNC_LAG_S: its lag reads no table, and stays.
    const read = [
      ...(onPostgres ? ['boxoffice_sync_horizon_lag_seconds'] : []),
      'boxoffice_change_feed_head',
    ];
    const present = async () => {
      const names = new Set(samples(await scrape(t)).map((s) => s.name));
      return read.filter((name) => names.has(name));
    };
    expect(await present()).toEqual(read);
    await outage.begin();
    try {
      const started = Date.now();
      expect(await present()).toEqual([]);
      // Within the read's time limit (1 s), however the database fails.
      expect(Date.now() - started).toBeLessThan(5_000);
    } finally {
      await outage.end();
    }
    let again = await present();
    for (let i = 0; i < 50 && again.length < read.length; i++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      again = await present();
    }
    expect(again).toEqual(read);
  });
});

/** Every route template the app serves (Express's router, as the metrics read it). */
function routeTemplates(t: TestApp): Set<string> {
  const router = (
    t.app.getHttpAdapter().getInstance() as {
      router: { stack: { route?: { path: unknown } }[] };
    }
  ).router;
  return new Set(
    router.stack.flatMap((layer) =>
      typeof layer.route?.path === 'string' ? [layer.route.path] : [],
    ),
  );
}
