import request from 'supertest';
import { MESSAGES, errorBody, expectNothingLeaked } from './utils/api';
import { TestApp, basicAuth, createTestApp } from './utils/create-test-app';
import { Factory } from './utils/factories';

// Errors and HTTP headers: docs/API.md, Errors and Headers (rate limits are covered elsewhere, the
// OpenAPI document in openapi.e2e-spec.ts).

const KEY = 'sk_test_http';
const AUTH = basicAuth(KEY);
const JSON_TYPE = /^application\/json(; charset=utf-8)?$/;

describe('errors and HTTP behaviour', () => {
  let t: TestApp;
  let orderId: string;

  beforeAll(async () => {
    t = await createTestApp();
    const f = new Factory(t.dataSource);
    const { office, event } = await f.tenant(KEY);
    for (let i = 0; i < 8; i++) {
      orderId = `or_${(await f.order(office.id, event.id, { createdAt: 1_750_000_000 + i })).id}`;
    }
  });

  afterAll(() => t.close());

  describe('404 for unknown paths', () => {
    it.each([
      '/v1/nope',
      '/',
      '/v2/orders',
      '/v1',
      '/orders',
      '/v1/orders/or_1/tickets',
      '/v1/ping/extra',
    ])('GET %s → 404 NOT_FOUND, JSON', async (path) => {
      const res = await request(t.server).get(path).set('Authorization', AUTH);
      expect(res.status).toBe(404);
      expect(res.headers['content-type']).toMatch(JSON_TYPE);
      expect(res.body).toEqual(
        errorBody(404, 'NOT_FOUND', MESSAGES.noResource('GET', path)),
      );
    });

    it('answers 404 for an unknown path without a key too', async () => {
      const res = await request(t.server).get('/v1/nope');
      expect(res.status).toBe(404);
      expect(res.body).toEqual(
        errorBody(404, 'NOT_FOUND', MESSAGES.noResource('GET', '/v1/nope')),
      );
    });
  });

  describe('405 for other methods on known paths', () => {
    const paths = ['/v1/orders', '/v1/orders/', '/v1/orders/or_1', '/v1/ping'];
    const methods = ['post', 'put', 'delete', 'patch'] as const;
    const cases = paths.flatMap((path) =>
      methods.map((m) => [m, path] as const),
    );

    it.each(cases)(
      '%s %s → 405 METHOD_NOT_ALLOWED with Allow',
      async (method, path) => {
        const res = await request(t.server)
          [method](path)
          .set('Authorization', AUTH);
        expect(res.status).toBe(405);
        expect(res.headers['content-type']).toMatch(JSON_TYPE);
        expect(res.body).toEqual(
          errorBody(
            405,
            'METHOD_NOT_ALLOWED',
            expect.stringContaining(method.toUpperCase()),
          ),
        );
        const allow = String(res.headers.allow).split(/,\s*/);
        expect(allow).toEqual(expect.arrayContaining(['GET', 'HEAD']));
        expect(allow).not.toContain(method.toUpperCase());
      },
    );

    it('answers 405 with a body sent, and without a key', async () => {
      const res = await request(t.server)
        .post('/v1/orders')
        .set('Content-Type', 'application/json')
        .send('{"limit": 1}');
      expect(res.status).toBe(405);
      expect(res.body).toEqual(
        errorBody(
          405,
          'METHOD_NOT_ALLOWED',
          MESSAGES.notAllowed('POST', '/v1/orders'),
        ),
      );
      expect(res.headers.allow).toContain('GET');
    });
  });

  describe('every error is the one JSON body', () => {
    it.each([
      [
        '400',
        '/v1/orders?limit=0',
        AUTH,
        400,
        'VALIDATION_ERROR',
        'limit must be an integer from 1 to 100',
      ],
      [
        '400 cursor',
        '/v1/orders?starting_after=or_x',
        AUTH,
        400,
        'INVALID_CURSOR',
        MESSAGES.orderCursor('starting_after'),
      ],
      [
        '401',
        '/v1/orders',
        undefined,
        401,
        'UNAUTHORIZED',
        MESSAGES.unauthorized,
      ],
      [
        '404 order',
        '/v1/orders/or_999999',
        AUTH,
        404,
        'NOT_FOUND',
        MESSAGES.noOrder('or_999999'),
      ],
      [
        '404 path',
        '/v1/x',
        AUTH,
        404,
        'NOT_FOUND',
        MESSAGES.noResource('GET', '/v1/x'),
      ],
    ] as const)(
      '%s: Content-Type application/json, exactly status/error_code/message',
      async (_, path, auth, status, code, message) => {
        const req = request(t.server).get(path);
        const res = await (auth ? req.set('Authorization', auth) : req);
        expect(res.status).toBe(status);
        expect(res.headers['content-type']).toMatch(JSON_TYPE);
        expect(JSON.parse(res.text)).toEqual(errorBody(status, code, message));
        expect(Object.keys(JSON.parse(res.text))).toEqual([
          'status',
          'error_code',
          'message',
        ]);
        expectNothingLeaked(res.body.message);
      },
    );

    it('answers JSON even to a client that asks for HTML', async () => {
      const res = await request(t.server)
        .get('/v1/nope')
        .set('Accept', 'text/html');
      expect(res.status).toBe(404);
      expect(res.headers['content-type']).toMatch(JSON_TYPE);
      expect(res.body).toEqual(
        errorBody(404, 'NOT_FOUND', MESSAGES.noResource('GET', '/v1/nope')),
      );
    });

    it('answers a URL that cannot be decoded with 404 in JSON, not HTML', async () => {
      for (const [path, message] of [
        // A route matched, and its parameter cannot be decoded.
        ['/v1/orders/%E0%A4%A', MESSAGES.undecodablePath],
        // No route matched: an unknown path, not repeated (it is not plain text).
        ['/v1/%', MESSAGES.noResource('GET', 'this path')],
      ]) {
        const res = await request(t.server)
          .get(path)
          .set('Authorization', AUTH);
        expect(res.status).toBe(404);
        expect(res.headers['content-type']).toMatch(JSON_TYPE);
        expect(res.body).toEqual(errorBody(404, 'NOT_FOUND', message));
        expectNothingLeaked(res.text);
      }
    });

    it.each([
      ["/v1/orders/or_1' OR 1=1 --", 404, 'NOT_FOUND', MESSAGES.noSuchOrder],
      [
        '/v1/orders/or_1%20UNION%20SELECT%20secret',
        404,
        'NOT_FOUND',
        MESSAGES.noSuchOrder,
      ],
      [
        '/v1/orders?email=%27%3B%20DROP%20TABLE%20orders%3B--',
        400,
        'VALIDATION_ERROR',
        'email must be an e-mail address',
      ],
      [
        '/v1/orders?created_at=%27%20OR%201%3D1',
        400,
        'VALIDATION_ERROR',
        'created_at must be an integer (Unix seconds)',
      ],
      [
        '/v1/orders?starting_after=%27%20OR%201%3D1',
        400,
        'INVALID_CURSOR',
        MESSAGES.orderCursor('starting_after'),
      ],
      [
        '/v1/orders?%27%20OR%201%3D1=1',
        400,
        'VALIDATION_ERROR',
        'Unknown query parameter: (a name that is not valid)',
      ],
      [
        "/v1/x' UNION SELECT 1",
        404,
        'NOT_FOUND',
        MESSAGES.noResource('GET', 'this path'),
      ],
    ])(
      'leaks nothing and echoes nothing of hostile input: %s',
      async (path, status, code, message) => {
        const res = await request(t.server)
          .get(path)
          .set('Authorization', AUTH);
        expect(res.status).toBe(status);
        expect(res.headers['content-type']).toMatch(JSON_TYPE);
        expect(res.body).toEqual(errorBody(status, code, message));
        expectNothingLeaked(res.text);
        expect(res.text).not.toMatch(/OR 1=1|UNION|DROP|'/);
      },
    );
  });

  describe('X-Request-Id', () => {
    it('is on every response: 200, 304, 400, 401, 404, 405, preflight', async () => {
      const ok = await request(t.server).get('/v1/ping');
      const responses = [
        ok,
        await request(t.server)
          .get('/v1/ping')
          .set('If-None-Match', ok.headers.etag),
        await request(t.server)
          .get('/v1/orders?limit=0')
          .set('Authorization', AUTH),
        await request(t.server).get('/v1/orders'),
        await request(t.server).get('/v1/nope'),
        await request(t.server).delete('/v1/orders'),
        await request(t.server)
          .options('/v1/orders')
          .set('Origin', 'https://app.example')
          .set('Access-Control-Request-Method', 'GET'),
      ];
      expect(responses.map((r) => r.status)).toEqual([
        200, 304, 400, 401, 404, 405, 204,
      ]);
      for (const res of responses) {
        expect(res.headers['x-request-id']).toMatch(/^[A-Za-z0-9._-]{1,64}$/);
      }
      // Generated ids are distinct.
      expect(
        new Set(responses.map((r) => r.headers['x-request-id'])).size,
      ).toBe(responses.length);
    });

    it('echoes a sane incoming id', async () => {
      for (const id of [
        'req-123',
        'a1b2c3d4-e5f6-4711-8899-aabbccddeeff',
        'x'.repeat(64),
        'trace.span_42',
      ]) {
        const res = await request(t.server)
          .get('/v1/ping')
          .set('X-Request-Id', id);
        expect(res.headers['x-request-id']).toBe(id);
      }
      const error = await request(t.server)
        .get('/v1/orders')
        .set('X-Request-Id', 'err-42');
      expect(error.status).toBe(401);
      expect(error.headers['x-request-id']).toBe('err-42');
    });

    it.each([
      ['too long', 'x'.repeat(65)],
      ['with spaces', 'two words'],
      ['with a tab', 'a\tb'],
      ['with non-ASCII characters', 'idé'],
      ['with braces', '{0f8fad5b-d9cb-469f-a165-70867728950e}'],
      ['with quotes and a semicolon', 'abc~1;trace="x"'],
    ])('replaces an insane incoming id (%s)', async (_, id) => {
      const res = await request(t.server)
        .get('/v1/ping')
        .set('X-Request-Id', id);
      expect(res.status).toBe(200);
      expect(res.headers['x-request-id']).not.toBe(id);
      expect(res.headers['x-request-id']).toMatch(
        /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/,
      );
    });
  });

  describe('HEAD', () => {
    it.each(['/v1/ping', '/v1/orders?limit=2', '/v1/orders/'])(
      'HEAD %s works as GET does, with no body',
      async (path) => {
        const get = await request(t.server)
          .get(path)
          .set('Authorization', AUTH);
        const head = await request(t.server)
          .head(path)
          .set('Authorization', AUTH);
        expect(head.status).toBe(200);
        expect(head.text ?? '').toBe('');
        expect(head.headers['content-type']).toBe(get.headers['content-type']);
        expect(head.headers.etag).toBe(get.headers.etag);
      },
    );

    it('HEAD /v1/orders/{id} works as GET does', async () => {
      const head = await request(t.server)
        .head(`/v1/orders/${orderId}`)
        .set('Authorization', AUTH);
      expect(head.status).toBe(200);
      expect(head.text ?? '').toBe('');
      const missing = await request(t.server)
        .head('/v1/orders/or_999999')
        .set('Authorization', AUTH);
      expect(missing.status).toBe(404);
      const noKey = await request(t.server).head('/v1/orders');
      expect(noKey.status).toBe(401);
    });
  });

  describe('ETag', () => {
    it.each(['/v1/ping', '/v1/orders?limit=3', `/v1/orders/${'{id}'}`])(
      '%s carries an ETag; If-None-Match with it → 304',
      async (template) => {
        const path = template.replace('{id}', orderId);
        const first = await request(t.server)
          .get(path)
          .set('Authorization', AUTH);
        expect(first.status).toBe(200);
        const etag = first.headers.etag;
        expect(etag).toMatch(/^(W\/)?"[^"]+"$/);
        const again = await request(t.server)
          .get(path)
          .set('Authorization', AUTH);
        expect(again.headers.etag).toBe(etag);

        const cached = await request(t.server)
          .get(path)
          .set('Authorization', AUTH)
          .set('If-None-Match', etag);
        expect(cached.status).toBe(304);
        expect(cached.text ?? '').toBe('');

        const stale = await request(t.server)
          .get(path)
          .set('Authorization', AUTH)
          .set('If-None-Match', '"stale"');
        expect(stale.status).toBe(200);
      },
    );

    it('differs between different bodies', async () => {
      const a = await request(t.server)
        .get('/v1/orders?limit=1')
        .set('Authorization', AUTH);
      const b = await request(t.server)
        .get('/v1/orders?limit=2')
        .set('Authorization', AUTH);
      expect(a.headers.etag).not.toBe(b.headers.etag);
    });
  });

  describe('compression', () => {
    it('gzips a list when the client accepts gzip', async () => {
      const res = await request(t.server)
        .get('/v1/orders')
        .set('Authorization', AUTH)
        .set('Accept-Encoding', 'gzip');
      expect(res.status).toBe(200);
      expect(res.headers['content-encoding']).toBe('gzip');
      expect(res.body.data).toHaveLength(8);
    });

    it('uses brotli when the client prefers it', async () => {
      const res = await request(t.server)
        .get('/v1/orders')
        .set('Authorization', AUTH)
        .set('Accept-Encoding', 'br');
      expect(res.status).toBe(200);
      expect(res.headers['content-encoding']).toBe('br');
      const plain = await request(t.server)
        .get('/v1/orders')
        .set('Authorization', AUTH)
        .set('Accept-Encoding', 'identity');
      expect(res.body).toEqual(plain.body);
    });

    it('compresses small JSON bodies too: ping, an empty page, an error', async () => {
      for (const path of ['/v1/ping', '/v1/orders?created_at=1', '/v1/nope']) {
        const res = await request(t.server)
          .get(path)
          .set('Authorization', AUTH)
          .set('Accept-Encoding', 'gzip');
        expect(res.headers['content-encoding']).toBe('gzip');
        expect(res.headers['content-type']).toMatch(JSON_TYPE);
      }
    });

    it('sends identity when the client accepts no compression', async () => {
      const res = await request(t.server)
        .get('/v1/orders')
        .set('Authorization', AUTH)
        .set('Accept-Encoding', 'identity');
      expect(res.status).toBe(200);
      expect(res.headers['content-encoding']).toBeUndefined();
      expect(res.body.data).toHaveLength(8);
    });
  });

  describe('CORS and security headers', () => {
    it('allows any origin by default', async () => {
      const res = await request(t.server)
        .get('/v1/orders?limit=1')
        .set('Origin', 'https://app.example')
        .set('Authorization', AUTH);
      expect(res.status).toBe(200);
      expect(res.headers['access-control-allow-origin']).toBe('*');
    });

    it('answers a preflight that asks for Authorization', async () => {
      const res = await request(t.server)
        .options('/v1/orders')
        .set('Origin', 'https://app.example')
        .set('Access-Control-Request-Method', 'GET')
        .set('Access-Control-Request-Headers', 'authorization');
      expect(res.status).toBe(204);
      expect(res.headers['access-control-allow-origin']).toBe('*');
      expect(
        res.headers['access-control-allow-headers'].toLowerCase(),
      ).toContain('authorization');
      expect(res.headers['access-control-allow-methods']).toContain('GET');
    });

    it('counts a preflight (per IP: it carries no key) and answers it with the rate-limit headers', async () => {
      const res = await request(t.server)
        .options('/v1/orders/or_1')
        .set('Origin', 'https://app.example')
        .set('Access-Control-Request-Method', 'GET');
      expect(res.status).toBe(204);
      expect(res.text).toBe('');
      expect(res.headers['x-rate-limit-limit']).toMatch(/^\d+$/);
      expect(res.headers['x-rate-limit-remaining']).toMatch(/^\d+$/);
      expect(res.headers['x-rate-limit-reset']).toMatch(/^\d+$/);
      expect(res.headers['x-request-id']).toBeDefined();
    });

    it('counts the OpenAPI document and Swagger UI like any request', async () => {
      for (const path of ['/docs-json', '/docs']) {
        const first = await request(t.server).get(path);
        const second = await request(t.server).get(path);
        expect(first.status).toBe(200);
        expect(first.headers['x-rate-limit-limit']).toMatch(/^\d+$/);
        expect(Number(second.headers['x-rate-limit-remaining'])).toBe(
          Number(first.headers['x-rate-limit-remaining']) - 1,
        );
      }
    });

    it('sends no X-Powered-By', async () => {
      for (const path of ['/v1/ping', '/v1/nope', '/v1/orders']) {
        const res = await request(t.server).get(path);
        expect(res.headers['x-powered-by']).toBeUndefined();
      }
    });
  });
});

describe('CORS_ORIGINS', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({
      CORS_ORIGINS: 'https://a.example, https://b.example',
    });
  });

  afterAll(() => t.close());

  it('allows a listed origin', async () => {
    const res = await request(t.server)
      .options('/v1/orders')
      .set('Origin', 'https://b.example')
      .set('Access-Control-Request-Method', 'GET')
      .set('Access-Control-Request-Headers', 'Authorization');
    expect(res.headers['access-control-allow-origin']).toBe(
      'https://b.example',
    );
    expect(res.headers['access-control-allow-headers'].toLowerCase()).toContain(
      'authorization',
    );
  });

  it('does not allow another origin', async () => {
    const res = await request(t.server)
      .get('/v1/ping')
      .set('Origin', 'https://evil.example');
    expect(res.status).toBe(200);
    expect(res.headers['access-control-allow-origin']).toBeUndefined();
  });
});

describe('500 when something unexpected fails', () => {
  let t: TestApp;
  let orderId: string;

  beforeAll(async () => {
    t = await createTestApp();
    const f = new Factory(t.dataSource);
    const { office, event } = await f.tenant(KEY);
    await f.apiKey(office.id, 'sk_test_http_unused');
    orderId = `or_${(await f.order(office.id, event.id)).id}`;
    // On PostgreSQL the check-ins' foreign key would refuse the drop: CASCADE removes the key.
    await t.dataSource.query(
      `DROP TABLE issued_tickets${t.dataSource.options.type === 'postgres' ? ' CASCADE' : ''}`,
    );
  });

  afterAll(() => t.close());

  it.each(['/v1/orders', '/v1/orders?limit=1&created_at.gte=1', '{order}'])(
    'GET %s → 500 INTERNAL_SERVER_ERROR, nothing leaked',
    async (template) => {
      const path = template === '{order}' ? `/v1/orders/${orderId}` : template;
      const res = await request(t.server)
        .get(path)
        .set('Authorization', AUTH)
        .set('X-Request-Id', 'boom-1');
      expect(res.status).toBe(500);
      expect(res.headers['content-type']).toMatch(JSON_TYPE);
      expect(res.headers['x-request-id']).toBe('boom-1');
      expect(res.body).toEqual(
        errorBody(500, 'INTERNAL_SERVER_ERROR', MESSAGES.internal),
      );
      expectNothingLeaked(res.text);
    },
  );

  it('keeps serving what does not need the broken table', async () => {
    const res = await request(t.server)
      .get('/v1/ping')
      .set('Authorization', AUTH);
    expect(res.status).toBe(200);
    const bad = await request(t.server)
      .get('/v1/orders?limit=0')
      .set('Authorization', AUTH);
    expect(bad.status).toBe(400);
  });

  it('answers a failure inside the auth middleware with the same 500 body', async () => {
    // The kept Idempotency-Key answers refer to the keys (PostgreSQL drops that reference too).
    await t.dataSource.query(
      `DROP TABLE api_keys${t.dataSource.options.type === 'postgres' ? ' CASCADE' : ''}`,
    );
    // A key never used before, so that no cached verification hides the failure.
    const res = await request(t.server)
      .get('/v1/orders')
      .set('Authorization', basicAuth('sk_test_http_unused'))
      .set('X-Request-Id', 'boom-2');
    expect(res.status).toBe(500);
    expect(res.headers['content-type']).toMatch(JSON_TYPE);
    expect(res.headers['x-request-id']).toBe('boom-2');
    expect(res.body).toEqual(
      errorBody(500, 'INTERNAL_SERVER_ERROR', MESSAGES.internal),
    );
    expectNothingLeaked(res.text);
    // Without a key there is nothing to look up: ping still answers.
    expect((await request(t.server).get('/v1/ping')).status).toBe(200);
  });
});

describe('messages never repeat unsafe client text', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
    const f = new Factory(t.dataSource);
    await f.apiKey((await f.boxOffice()).id, KEY);
  });
  afterAll(() => t.close());

  it('names a plain unknown parameter, not an unsafe one', async () => {
    const plain = await request(t.server)
      .get('/v1/orders?colour=red')
      .set('Authorization', AUTH);
    expect(plain.body).toEqual(
      errorBody(400, 'VALIDATION_ERROR', 'Unknown query parameter: colour'),
    );
    const unsafe = await request(t.server)
      .get('/v1/orders?%3Cscript%3E=1')
      .set('Authorization', AUTH);
    expect(unsafe.body).toEqual(
      errorBody(
        400,
        'VALIDATION_ERROR',
        'Unknown query parameter: (a name that is not valid)',
      ),
    );
  });

  it('repeats a plain unknown path, not an unsafe one', async () => {
    const plain = await request(t.server).get('/v1/nothing-here');
    expect(plain.body).toEqual(
      errorBody(404, 'NOT_FOUND', 'No resource at GET /v1/nothing-here'),
    );
    const unsafe = await request(t.server).get('/v1/%3Cscript%3E');
    expect(unsafe.body).toEqual(
      errorBody(404, 'NOT_FOUND', 'No resource at GET this path'),
    );
    const notAllowed = await request(t.server).delete(
      '/v1/orders/or_1%20OR%201',
    );
    expect(notAllowed.status).toBe(405);
    expect(notAllowed.body.message).not.toContain('OR 1');
  });
});
