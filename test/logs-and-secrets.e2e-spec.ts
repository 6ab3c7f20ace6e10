import { Writable } from 'node:stream';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { seedDemoData } from '../seeds/demo-data';
import { ApiKeysService } from '../src/auth/api-keys.service';
import { TestApp, basicAuth, createTestApp } from './utils/create-test-app';
import { portOf, sendRaw } from './utils/raw-http';

// Observability and secrets (docs/OPERATIONS.md, Logs; docs/API.md, Authentication): one JSON
// access-log line per request at LOG_LEVEL=info, each 5xx logged once with its stack, and no API
// key in clear anywhere, neither in the database nor in the log output.
//
// One application per file: nestjs-pino keeps the first application's logger for the process.

const DEMO_KEY = 'sk_demo_boxoffice_1';
const BUYER_EMAIL = 'Secret.Buyer@Example.com';

interface LogLine {
  level: number;
  msg: string;
  [field: string]: unknown;
}

describe('request logs and stored secrets', () => {
  let t: TestApp;
  let output: string;
  let freshKey: string;

  const lines = (): LogLine[] =>
    output
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as LogLine);
  const accessLines = () => lines().filter((line) => 'route' in line);
  /** The lines that name this request id (request ids here are letters and dashes). */
  const linesOf = (requestId: string) =>
    lines().filter((line) =>
      new RegExp(`(?<![\\w-])${requestId}(?![\\w-])`).test(
        JSON.stringify(line),
      ),
    );

  beforeAll(async () => {
    output = '';
    const destination = new Writable({
      write(chunk: Buffer, _encoding, done) {
        output += chunk.toString();
        done();
      },
    });
    t = await createTestApp(
      { LOG_LEVEL: 'info' },
      { logDestination: destination },
    );
    await seedDemoData(t.dataSource, { orders: 30, seed: 7, reset: false });
    ({ secret: freshKey } = await t.app
      .get(ApiKeysService)
      .create(1, 'logs test key'));
    // An order whose buyer e-mail is then searched for.
    await t.dataSource.query(
      `UPDATE orders SET buyer_email = $1, buyer_email_lookup = $2 WHERE id = (SELECT MIN(id) FROM orders WHERE box_office_id = 1)`.replace(
        /\$\d/g,
        t.dataSource.options.type === 'postgres' ? (m) => m : () => '?',
      ),
      [BUYER_EMAIL, BUYER_EMAIL.toLowerCase()],
    );
  });
  afterAll(() => t.close());

  const get = (path: string, requestId: string, key?: string) => {
    const req = request(t.server).get(path).set('X-Request-Id', requestId);
    return key ? req.set('Authorization', basicAuth(key)) : req;
  };

  it('writes one JSON line per request: method, route template, status, duration, request id, box office', async () => {
    const first = (await get('/v1/orders?limit=1', 'log-list', DEMO_KEY)).body
      .data[0].id as string;
    const cases: [string, string, string | undefined, object][] = [
      [
        `/v1/orders/${first}`,
        'log-retrieve',
        freshKey,
        { route: '/v1/orders/:order_id', status: 200, box_office_id: 1 },
      ],
      [
        '/v1/events?limit=2',
        'log-events',
        DEMO_KEY,
        { route: '/v1/events', status: 200, box_office_id: 1 },
      ],
      [
        '/v1/issued_tickets/it_999999',
        'log-ticket-404',
        'sk_demo_boxoffice_2',
        {
          route: '/v1/issued_tickets/:issued_ticket_id',
          status: 404,
          box_office_id: 2,
        },
      ],
      [
        '/v1/ping',
        'log-ping',
        undefined,
        { route: '/v1/ping', status: 200, box_office_id: null },
      ],
      [
        '/v1/orders',
        'log-wrong-key',
        'sk_not_a_key_at_all',
        { route: '/v1/orders', status: 401, box_office_id: null },
      ],
      [
        '/v1/orders/secret-path',
        'log-404',
        DEMO_KEY,
        { route: '/v1/orders/:order_id', status: 404, box_office_id: 1 },
      ],
      [
        '/nothing/here',
        'log-no-route',
        DEMO_KEY,
        { route: null, status: 404, box_office_id: 1 },
      ],
    ];
    for (const [path, requestId, key] of cases) {
      await get(path, requestId, key);
    }
    const list = linesOf('log-list');
    expect(list).toEqual([
      {
        level: 30,
        time: expect.any(Number),
        pid: expect.any(Number),
        hostname: expect.any(String),
        method: 'GET',
        route: '/v1/orders',
        status: 200,
        duration_ms: expect.any(Number),
        request_id: 'log-list',
        box_office_id: 1,
        msg: expect.stringMatching(/^GET \/v1\/orders 200 [\d.]+ms log-list$/),
      },
    ]);
    expect(list[0].duration_ms).toBeGreaterThanOrEqual(0);
    for (const [, requestId, , fields] of cases) {
      const own = linesOf(requestId);
      expect(own).toHaveLength(1);
      expect(own[0]).toEqual(
        expect.objectContaining({
          level: 30,
          method: 'GET',
          request_id: requestId,
          ...fields,
        }),
      );
    }
  });

  it('never logs a key, the Authorization header, the query or the path as sent', async () => {
    await get(
      `/v1/orders?email=${encodeURIComponent(BUYER_EMAIL)}`,
      'log-email',
      DEMO_KEY,
    );
    await get(
      `/v1/issued_tickets?email=${encodeURIComponent(BUYER_EMAIL.toUpperCase())}`,
      'log-email-2',
      freshKey,
    );
    // A key pasted into the path or the query by mistake.
    await get(`/v1/orders/${freshKey}`, 'log-key-in-path', freshKey);
    await get(`/v1/orders?key=${freshKey}`, 'log-key-in-query', DEMO_KEY);
    expect(linesOf('log-email')).toHaveLength(1);
    const email = await get(
      `/v1/orders?email=${encodeURIComponent(BUYER_EMAIL)}`,
      'log-email-3',
      DEMO_KEY,
    );
    expect(email.body.data).toHaveLength(1);
    for (const secret of [
      DEMO_KEY,
      freshKey,
      basicAuth(DEMO_KEY),
      basicAuth(freshKey),
      Buffer.from(`${DEMO_KEY}:`).toString('base64'),
      BUYER_EMAIL,
      BUYER_EMAIL.toLowerCase(),
      encodeURIComponent(BUYER_EMAIL),
    ]) {
      expect(output).not.toContain(secret);
    }
    expect(output).not.toMatch(/authorization/i);
    expect(output).not.toMatch(/email=/i);
  });

  it('stores no key in clear: a dump of every table holds neither the demo key nor a new one', async () => {
    const dump = JSON.stringify(await dumpDatabase(t.dataSource));
    expect(dump).toContain('api_keys');
    expect(dump).toMatch(/"key_hash":"[0-9a-f]{64}"/);
    for (const secret of [
      DEMO_KEY,
      freshKey,
      freshKey.slice(3),
      Buffer.from(`${DEMO_KEY}:`).toString('base64'),
    ]) {
      expect(dump).not.toContain(secret);
    }
  });

  it('cannot be made to write a line of the client’s through request ids or paths (CR LF, ANSI escapes, quotes)', async () => {
    const port = await portOf(t.server);
    const before = output.length;
    const INJECTED = '{"level":60,"msg":"injected"}';
    // Targets and request ids a client controls, each trying to end the line, start another,
    // break out of the JSON string or drive a terminal.
    const targets = [
      `/v1/orders/or_1%0D%0A${encodeURIComponent(INJECTED)}`,
      `/v1/orders%0A${encodeURIComponent(INJECTED)}`,
      '/v1/orders/%1B%5B31mred%1B%5B0m',
      '/v1/orders/%22%7D%0A%7B%22level%22%3A60',
      '/v1/orders/\\u000a',
      `/v1/orders?limit=1%0D%0A${encodeURIComponent(INJECTED)}`,
      `/v1/nope/${encodeURIComponent(INJECTED)}`,
    ];
    const requestIds = [
      INJECTED,
      '"},{"level":60',
      'a\x1b[2Jb',
      'a\u2028b',
      'id%0D%0Ainjected',
    ];
    const sent: string[] = [];
    for (const target of targets) {
      for (const requestId of requestIds) {
        const bytes = Buffer.concat([
          Buffer.from(
            `GET ${target} HTTP/1.1\r\nHost: x\r\nAuthorization: ${basicAuth(DEMO_KEY)}\r\nX-Request-Id: `,
            'latin1',
          ),
          Buffer.from(requestId, 'utf8'),
          Buffer.from('\r\nConnection: close\r\n\r\n', 'latin1'),
        ]);
        const res = await sendRaw(port, bytes);
        expect(res.status).toBeLessThan(500);
        sent.push(res.headers['x-request-id']);
      }
    }
    const written = output.slice(before).split('\n').filter(Boolean);
    // One JSON line per request (Node refuses some before the API sees them: those get one line
    // too), each a whole JSON object; none is the client's, none holds an escape or a bare CR.
    expect(written).toHaveLength(targets.length * requestIds.length);
    for (const line of written) {
      const parsed = JSON.parse(line) as LogLine;
      expect(parsed.msg).not.toBe('injected');
      // No control character, DEL or line separator written raw (JSON escapes them).
      const controls = Array.from({ length: line.length }, (_, i) =>
        line.charCodeAt(i),
      ).filter(
        (code) =>
          code < 0x20 || code === 0x7f || code === 0x2028 || code === 0x2029,
      );
      expect(controls).toEqual([]);
    }
    // The request ids the client chose were replaced (outside the safe alphabet), never logged.
    for (const id of sent) expect(id).toMatch(/^[A-Za-z0-9._-]{1,64}$/);
    expect(output.slice(before)).not.toContain('injected');
  });

  it('logs a 5xx once with its stack and request id, beside its access line', async () => {
    await t.dataSource.query('DROP TABLE line_items');
    const res = await get('/v1/orders?limit=1', 'log-boom', DEMO_KEY);
    expect(res.status).toBe(500);
    const own = linesOf('log-boom');
    const withStack = own.filter((line) =>
      /\n\s+at /.test(JSON.stringify(line).replace(/\\n/g, '\n')),
    );
    expect(withStack).toHaveLength(1);
    expect(withStack[0].level).toBe(50);
    expect(withStack[0].msg).toContain('log-boom');
    const access = own.filter((line) => 'route' in line);
    expect(access).toEqual([
      expect.objectContaining({ status: 500, route: '/v1/orders', level: 30 }),
    ]);
    expect(own).toHaveLength(2);
  });

  it('writes its access lines at info, never above it', () => {
    expect(new Set(accessLines().map((line) => line.level))).toEqual(
      new Set([30]),
    );
  });
});

/** Every row of every table, as JSON-ready objects. */
async function dumpDatabase(
  dataSource: DataSource,
): Promise<Record<string, unknown[]>> {
  const tables: { name: string }[] =
    dataSource.options.type === 'postgres'
      ? await dataSource.query(
          "SELECT tablename AS name FROM pg_tables WHERE schemaname = 'public'",
        )
      : await dataSource.query(
          "SELECT name FROM sqlite_master WHERE type = 'table'",
        );
  const dump: Record<string, unknown[]> = {};
  for (const { name } of tables) {
    dump[name] = await dataSource.query(`SELECT * FROM "${name}"`);
  }
  return dump;
}
