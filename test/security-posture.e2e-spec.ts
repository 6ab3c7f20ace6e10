import { Agent, request as httpRequest } from 'node:http';
import request from 'supertest';
import { generateApiKey } from '../src/auth/api-key-format';
import { IssuedTicket } from '../src/issued-tickets/entities/issued-ticket.entity';
import { MESSAGES, errorBody } from './utils/api';
import { TestApp, basicAuth, createTestApp } from './utils/create-test-app';
import { Factory } from './utils/factories';
import { portOf, raw } from './utils/raw-http';

// The service against the OWASP API Security Top 10 (2023) items it can answer for on its own:
// API1 object-level authorisation, API2 authentication, API3 object properties, API4 resource
// consumption, API8 configuration, API9 inventory (docs/API.md, Tenancy, Headers, Limits,
// Security). Oversized and malformed requests (API4, API8) are in http-limits.e2e-spec.ts,
// secrets in storage and logs (API2) in logs-and-secrets.e2e-spec.ts.

const KEY_A = 'sk_posture_tenant_a_0123456789';
const KEY_B = 'sk_posture_tenant_b_0123456789';
const UUID =
  /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

/** What helmet sets on every response the application answers (docs/API.md, Headers). */
const PROTECTIVE_HEADERS = {
  'strict-transport-security': 'max-age=31536000; includeSubDomains',
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'SAMEORIGIN',
  'referrer-policy': 'no-referrer',
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-resource-policy': 'same-origin',
  'origin-agent-cluster': '?1',
  'x-dns-prefetch-control': 'off',
  'x-download-options': 'noopen',
  'x-permitted-cross-domain-policies': 'none',
  'x-xss-protection': '0',
};

describe('API8 configuration: headers on every response', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({ RATE_LIMIT_MAX: '12' });
    const f = new Factory(t.dataSource);
    await f.tenant(KEY_A);
  });
  afterAll(() => t.close());

  it('sets the protective headers and no X-Powered-By or Server, on 2xx, 3xx and 4xx alike', async () => {
    const auth = basicAuth(KEY_A);
    const ok = await request(t.server)
      .get('/v1/orders')
      .set('Authorization', auth);
    const responses = [
      ok,
      await request(t.server)
        .get('/v1/orders')
        .set('Authorization', auth)
        .set('If-None-Match', ok.headers.etag),
      await request(t.server).get('/v1/ping'),
      await request(t.server)
        .get('/v1/orders?limit=0')
        .set('Authorization', auth),
      await request(t.server).get('/v1/orders'),
      await request(t.server)
        .get('/v1/orders/or_999')
        .set('Authorization', auth),
      await request(t.server).get('/.env'),
      await request(t.server).post('/v1/orders'),
      await request(t.server)
        .options('/v1/orders')
        .set('Origin', 'https://app.example')
        .set('Access-Control-Request-Method', 'GET'),
      await request(t.server).get('/docs-json'),
    ];
    expect(responses.map((r) => r.status)).toEqual([
      200, 304, 200, 400, 401, 404, 404, 405, 204, 200,
    ]);
    // Past RATE_LIMIT_MAX (12 per IP or key): a 429 gets them too.
    let limited;
    do {
      limited = await request(t.server).get('/v1/ping');
    } while (limited.status === 200);
    expect(limited.status).toBe(429);
    for (const res of [...responses, limited]) {
      expect(res.headers).toEqual(expect.objectContaining(PROTECTIVE_HEADERS));
      expect(res.headers['x-powered-by']).toBeUndefined();
      expect(res.headers.server).toBeUndefined();
    }
  });
});

describe('API8 configuration: X-Request-Id', () => {
  let t: TestApp;
  let port: number;
  beforeAll(async () => {
    t = await createTestApp();
    port = await portOf(t.server);
  });
  afterAll(() => t.close());

  it.each([
    'abc',
    'req-123',
    '01J9ZQK3V6M8X4T2R7N5B0C1DE',
    'a1b2c3d4-e5f6-4711-8899-aabbccddeeff',
    'trace.span_42',
    'x'.repeat(64),
  ])('echoes %s (letters, digits, . _ -, at most 64)', async (id) => {
    const res = await raw(port, {
      target: '/v1/ping',
      headers: [['X-Request-Id', id]],
    });
    expect(res.headers['x-request-id']).toBe(id);
  });

  it.each([
    ['empty', ''],
    ['65 characters', 'x'.repeat(65)],
    ['a slash', 'a/b'],
    ['a colon', 'a:b'],
    ['an equals sign', 'a=b'],
    ['markup', '<script>'],
    ['a quote', 'a"b'],
    ['a space', 'a b'],
    ['a tab', 'a\tb'],
    ['a percent escape', 'a%0Ab'],
    ['a latin-1 byte', 'caf\xe9'],
    ['UTF-8 bytes', Buffer.from('идентификатор').toString('latin1')],
  ])('replaces one with %s by a new UUID', async (_, id) => {
    const res = await raw(port, {
      target: '/v1/ping',
      headers: [['X-Request-Id', id]],
    });
    expect(res.status).toBe(200);
    expect(res.headers['x-request-id']).toMatch(UUID);
  });

  it('replaces two ids sent at once (they would be joined with a comma)', async () => {
    const res = await raw(port, {
      target: '/v1/ping',
      headers: [
        ['X-Request-Id', 'one'],
        ['X-Request-Id', 'two'],
      ],
    });
    expect(res.headers['x-request-id']).toMatch(UUID);
  });
});

describe('API9 inventory: the routes are exactly the documented ones', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('registers no route the OpenAPI document does not describe, and the reverse', async () => {
    const document = (await request(t.server).get('/docs-json')).body as {
      paths: Record<string, Record<string, unknown>>;
    };
    const router = (
      t.app.getHttpAdapter().getInstance() as {
        router: {
          stack: {
            route?: { path: string; methods: Record<string, boolean> };
          }[];
        };
      }
    ).router;
    const routes = router.stack
      .map((layer) => layer.route)
      .filter((route) => route && !route.methods._all)
      .flatMap((route) => {
        const { path, methods } = route as {
          path: string;
          methods: Record<string, boolean>;
        };
        return Object.keys(methods).map(
          (method) => `${method} ${path.replace(/:(\w+)/g, '{$1}')}`,
        );
      })
      // Swagger UI's own pages and assets live under /docs.
      .filter((route) => !/^get \/docs(\/|$)/.test(route));
    const operations = Object.entries(document.paths).flatMap(([path, item]) =>
      Object.keys(item).map((method) => `${method} ${path}`),
    );
    // And the operator's endpoints, outside the API (docs/OPERATIONS.md): the load balancer's
    // probes, and /metrics while METRICS_TOKEN is set (it is not here).
    expect(routes.sort()).toEqual(
      [
        ...operations,
        'get /docs-json',
        'get /health/live',
        'get /health/ready',
      ].sort(),
    );
  });

  it.each([
    '/docs-yaml',
    '/docs-json.yaml',
    '/swagger',
    '/api-docs',
    '/openapi.json',
  ])('serves no other description at %s', async (path) => {
    const res = await request(t.server).get(path);
    expect(res.status).toBe(404);
    expect(res.body).toEqual(
      errorBody(404, 'NOT_FOUND', MESSAGES.noResource('GET', path)),
    );
  });
});

describe('API2 authentication: guessing keys from one address', () => {
  const MAX_FAILURES = 20;
  let t: TestApp;
  let lookups: string[];
  let revocableKeyId: number;
  const KEY_C = 'sk_posture_tenant_a_second_key';
  const KEY_D = 'sk_posture_tenant_a_revocable_key';
  const ATTACKER = '203.0.113.7';

  beforeAll(async () => {
    t = await createTestApp({
      AUTH_FAILURE_MAX: String(MAX_FAILURES),
      AUTH_FAILURE_WINDOW_S: '600',
      // No cache of verified keys: every request with a key that is not refused is looked up.
      AUTH_CACHE_TTL_MS: '0',
      RATE_LIMIT_MAX: '1000',
      // One proxy in front: X-Forwarded-For names the client, so tests can speak from several
      // addresses.
      TRUST_PROXY_HOPS: '1',
    });
    const f = new Factory(t.dataSource);
    const { office } = await f.tenant(KEY_A);
    await f.apiKey(office.id, KEY_C);
    revocableKeyId = (await f.apiKey(office.id, KEY_D)).id;
    const original = t.dataSource.query.bind(t.dataSource);
    lookups = [];
    jest
      .spyOn(t.dataSource, 'query')
      .mockImplementation((sql: string, params?: unknown) => {
        if (/\bFROM api_keys\b/.test(sql)) lookups.push(sql);
        return original(sql, params as unknown[]);
      });
  });
  afterAll(() => t.close());

  const from = (address: string, path = '/v1/orders') =>
    request(t.server).get(path).set('X-Forwarded-For', address);

  it('refuses an address with 429 once it has failed AUTH_FAILURE_MAX times, and stops looking keys up for it', async () => {
    // Valid keys used from that address before the flood.
    for (const key of [KEY_A, KEY_D]) {
      expect(
        (await from(ATTACKER).set('Authorization', basicAuth(key))).status,
      ).toBe(200);
    }
    lookups = [];

    const statuses: number[] = [];
    let refused: request.Response | undefined;
    for (let i = 0; i < 2 * MAX_FAILURES; i++) {
      const res = await from(ATTACKER).set(
        'Authorization',
        basicAuth(generateApiKey()),
      );
      statuses.push(res.status);
      if (res.status === 429) refused = res;
    }
    expect(statuses).toEqual([
      ...Array(MAX_FAILURES).fill(401),
      ...Array(MAX_FAILURES).fill(429),
    ]);
    // One indexed lookup per failure up to the one over the limit; none after.
    expect(lookups).toHaveLength(MAX_FAILURES + 1);

    const retryAfter = Number(refused?.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(590);
    expect(retryAfter).toBeLessThanOrEqual(600);
    expect(refused?.headers['content-type']).toMatch(/^application\/json/);
    expect(refused?.body).toEqual(
      errorBody(
        429,
        'TOO_MANY_REQUESTS',
        `Too many failed authentications from this address; retry in ${retryAfter} seconds`,
      ),
    );
  });

  it('refuses malformed credentials from that address too, and a valid key never seen from anywhere, without a lookup', async () => {
    lookups = [];
    for (const authorization of [
      'Basic !!!',
      `Bearer ${KEY_A}`,
      basicAuth(KEY_C),
    ]) {
      const res = await from(ATTACKER).set('Authorization', authorization);
      expect(res.status).toBe(429);
    }
    expect(lookups).toEqual([]);
  });

  it('keeps serving, from that address, a key that worked before (looked up as usual) and requests without credentials', async () => {
    lookups = [];
    expect(
      (await from(ATTACKER).set('Authorization', basicAuth(KEY_A))).status,
    ).toBe(200);
    expect(lookups).toHaveLength(1);
    expect((await from(ATTACKER, '/v1/ping')).status).toBe(200);
  });

  it('stops a key that worked before once it is revoked, then no longer looks it up', async () => {
    await t.dataSource.query(
      `UPDATE api_keys SET revoked_at = 1700000100 WHERE id = ${revocableKeyId}`,
    );
    lookups = [];
    const revoked = await from(ATTACKER).set('Authorization', basicAuth(KEY_D));
    expect(revoked.status).toBe(429);
    expect(lookups).toHaveLength(1);
    const again = await from(ATTACKER).set('Authorization', basicAuth(KEY_D));
    expect(again.status).toBe(429);
    expect(lookups).toHaveLength(1);
  });

  it('leaves other addresses alone', async () => {
    const wrong = await from('198.51.100.20').set(
      'Authorization',
      basicAuth(generateApiKey()),
    );
    expect(wrong.status).toBe(401);
    const right = await from('198.51.100.20').set(
      'Authorization',
      basicAuth(KEY_C),
    );
    expect(right.status).toBe(200);
  });

  it('looks a key up through the unique index on its hash, never a scan', async () => {
    const [sql] = await (async () => {
      lookups = [];
      await from('198.51.100.21').set(
        'Authorization',
        basicAuth(generateApiKey()),
      );
      return lookups;
    })();
    const hash = 'a'.repeat(64);
    if (t.dataSource.options.type === 'postgres') {
      const runner = t.dataSource.createQueryRunner();
      try {
        await runner.query('SET enable_seqscan = off');
        const plan: { 'QUERY PLAN': string }[] = await runner.query(
          `EXPLAIN ${sql}`,
          [hash],
        );
        const text = plan.map((row) => row['QUERY PLAN']).join('\n');
        expect(text).toMatch(
          /Index (Only )?Scan using "?IDX_api_keys_key_hash"?/,
        );
      } finally {
        await runner.query('RESET enable_seqscan');
        await runner.release();
      }
    } else {
      const plan: { detail: string }[] = await t.dataSource.query(
        `EXPLAIN QUERY PLAN ${sql}`,
        [hash],
      );
      expect(plan.map((row) => row.detail)).toEqual([
        expect.stringMatching(
          /^SEARCH k USING INDEX IDX_api_keys_key_hash \(key_hash=\?\)$/,
        ),
      ]);
    }
  });
});

describe('API1 object-level authorisation: another box office’s object is no object', () => {
  let t: TestApp;
  let port: number;
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  /** Per resource: an id of box office B's, and an id nobody has, with as many digits. */
  const pairs: Record<string, { theirs: string; nobodys: string }> = {};

  beforeAll(async () => {
    t = await createTestApp({ RATE_LIMIT_MAX: '100000' });
    const f = new Factory(t.dataSource);
    const a = await f.tenant(KEY_A);
    const b = await f.tenant(KEY_B);
    // Enough rows that B's ids and unused ids of the same length exist: ids 10–19 are B's.
    for (let i = 0; i < 9; i++) await f.event(a.office.id);
    const bEvents = [];
    for (let i = 0; i < 10; i++) bEvents.push(await f.event(b.office.id));
    for (let i = 0; i < 9; i++) await f.order(a.office.id, a.event.id);
    const bOrders = [];
    for (let i = 0; i < 10; i++)
      bOrders.push(await f.order(b.office.id, b.event.id));
    const bTicket = await t.dataSource
      .getRepository(IssuedTicket)
      .findOneByOrFail({ boxOfficeId: b.office.id });
    const unused = (id: number) => String(10 ** String(id).length - 1);
    const order = bOrders[5].id;
    const event = bEvents[5].id;
    pairs.orders = { theirs: `or_${order}`, nobodys: `or_${unused(order)}` };
    pairs.events = { theirs: `ev_${event}`, nobodys: `ev_${unused(event)}` };
    pairs.issued_tickets = {
      theirs: `it_${bTicket.id}`,
      nobodys: `it_${unused(bTicket.id)}`,
    };
    port = await portOf(t.server);
  });
  afterAll(async () => {
    agent.destroy();
    await t.close();
  });

  /** GET (or `method`) as A over one kept-alive connection: status, headers and body. */
  function get(
    path: string,
    extra: Record<string, string> = {},
    method = 'GET',
  ) {
    return new Promise<{
      status: number;
      headers: Record<string, string>;
      body: string;
    }>((resolve, reject) => {
      const req = httpRequest(
        {
          host: '127.0.0.1',
          port,
          path,
          method,
          agent,
          headers: { Authorization: basicAuth(KEY_A), ...extra },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('end', () =>
            resolve({
              status: res.statusCode ?? 0,
              headers: res.headers as Record<string, string>,
              body: Buffer.concat(chunks).toString(),
            }),
          );
        },
      );
      req.on('error', reject);
      req.end();
    });
  }

  /** What may differ between two answers: the id itself, and per-response headers. */
  function comparable(
    res: { status: number; headers: Record<string, string>; body: string },
    id: string,
  ) {
    const {
      'x-request-id': _requestId,
      'x-rate-limit-remaining': _remaining,
      'x-rate-limit-reset': _reset,
      etag: _etag,
      // The clock's, read per request: a second may pass between the two.
      date: _date,
      'x-sync-watermark': _watermark,
      ...headers
    } = res.headers;
    return {
      status: res.status,
      headers,
      body: res.body.split(id).join('<id>'),
    };
  }

  it.each(['orders', 'events', 'issued_tickets'])(
    '/v1/%s/{id}: same status, headers and body as an id nobody has',
    async (resource) => {
      const { theirs, nobodys } = pairs[resource];
      const a = await get(`/v1/${resource}/${theirs}`);
      const b = await get(`/v1/${resource}/${nobodys}`);
      expect(a.status).toBe(404);
      expect(comparable(a, theirs)).toEqual(comparable(b, nobodys));
    },
  );

  it.each([
    ['orders', 'starting_after'],
    ['events', 'ending_before'],
    ['issued_tickets', 'starting_after'],
  ])(
    '/v1/%s?%s=<their id>: the same answer as for an id nobody has',
    async (resource, cursor) => {
      const { theirs, nobodys } = pairs[resource];
      const a = await get(`/v1/${resource}?${cursor}=${theirs}`);
      const b = await get(`/v1/${resource}?${cursor}=${nobodys}`);
      expect(a.status).toBe(400);
      expect(comparable(a, theirs)).toEqual(comparable(b, nobodys));
    },
  );

  it('filters by their order or event: the same empty page as for ids nobody has', async () => {
    for (const [path, resource] of [
      ['/v1/issued_tickets?order_id=', 'orders'],
      ['/v1/orders?event_id=', 'events'],
    ]) {
      const { theirs, nobodys } = pairs[resource];
      const a = await get(`${path}${theirs}`);
      const b = await get(`${path}${nobodys}`);
      expect(a.status).toBe(200);
      expect(JSON.parse(a.body)).toEqual({
        data: [],
        links: { next: null, previous: null },
      });
      expect(comparable(a, theirs)).toEqual(comparable(b, nobodys));
      // Left out of the comparison as the clock's, but sent on both.
      expect([
        a.headers['x-sync-watermark'],
        b.headers['x-sync-watermark'],
      ]).toEqual([
        expect.stringMatching(/^\d+$/),
        expect.stringMatching(/^\d+$/),
      ]);
    }
  });

  it.each(['orders', 'events', 'issued_tickets'])(
    '/v1/%s/{id}: the same Content-Length, and an ETag on both or neither',
    async (resource) => {
      const { theirs, nobodys } = pairs[resource];
      const a = await get(`/v1/${resource}/${theirs}`);
      const b = await get(`/v1/${resource}/${nobodys}`);
      // Same digits, so the same length: nothing in the size tells them apart.
      expect(theirs.length).toBe(nobodys.length);
      expect(a.headers['content-length']).toBe(b.headers['content-length']);
      expect(Buffer.byteLength(a.body)).toBe(Buffer.byteLength(b.body));
      expect('etag' in a.headers).toBe('etag' in b.headers);
    },
  );

  it.each(
    ['orders', 'events', 'issued_tickets'].flatMap((resource) =>
      ['*', '"anything"', 'W/"0-0"'].map((tag) => [resource, tag] as const),
    ),
  )(
    '/v1/%s/{id} with If-None-Match: %s: the same answer for their id as for nobody’s',
    async (resource, tag) => {
      const { theirs, nobodys } = pairs[resource];
      const a = await get(`/v1/${resource}/${theirs}`, {
        'If-None-Match': tag,
      });
      const b = await get(`/v1/${resource}/${nobodys}`, {
        'If-None-Match': tag,
      });
      expect(a.status).toBe(404);
      expect(comparable(a, theirs)).toEqual(comparable(b, nobodys));
    },
  );

  it.each(['orders', 'events', 'issued_tickets'])(
    'HEAD /v1/%s/{id}: the same status and headers for their id as for nobody’s',
    async (resource) => {
      const { theirs, nobodys } = pairs[resource];
      const a = await get(`/v1/${resource}/${theirs}`, {}, 'HEAD');
      const b = await get(`/v1/${resource}/${nobodys}`, {}, 'HEAD');
      expect(a.status).toBe(404);
      expect(comparable(a, theirs)).toEqual(comparable(b, nobodys));
    },
  );
});

describe('API3 object properties: no internal field reaches a response', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
    const f = new Factory(t.dataSource);
    const { office, event } = await f.tenant(KEY_A);
    await f.order(office.id, event.id);
  });
  afterAll(() => t.close());

  it.each([
    '/v1/orders',
    '/v1/orders/or_1',
    '/v1/events',
    '/v1/events/ev_1',
    '/v1/issued_tickets',
    '/v1/issued_tickets/it_1',
  ])('GET %s carries no tenant, key or lookup column', async (path) => {
    const res = await request(t.server)
      .get(path)
      .set('Authorization', basicAuth(KEY_A));
    expect(res.status).toBe(200);
    const keys = new Set<string>();
    const collect = (value: unknown) => {
      if (Array.isArray(value)) value.forEach(collect);
      else if (value && typeof value === 'object') {
        for (const [key, inner] of Object.entries(value)) {
          keys.add(key);
          collect(inner);
        }
      }
    };
    collect(res.body);
    expect(
      [...keys].filter((key) =>
        /box_?office|hash|lookup|api_?key|password|secret|deleted/i.test(key),
      ),
    ).toEqual([]);
  });
});
