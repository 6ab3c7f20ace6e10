import request from 'supertest';
import { TestApp, basicAuth, createTestApp } from './utils/create-test-app';
import { Factory } from './utils/factories';

// The OpenAPI document at /docs-json describes exactly the behaviour of docs/API.md: every path,
// parameter, status, header and response field.

const KEY = 'sk_test_openapi';
const AUTH = basicAuth(KEY);

describe('OpenAPI', () => {
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

  interface Schema {
    $ref?: string;
    type?: string;
    allOf?: Schema[];
    items?: Schema;
    properties?: Record<string, Schema>;
    enum?: string[];
    minimum?: number;
    maximum?: number;
    default?: unknown;
  }
  interface Operation {
    parameters?: { name: string; in: string; schema: Schema }[];
    responses: Record<string, { content?: Record<string, { schema: Schema }> }>;
  }
  let doc: {
    openapi: string;
    paths: Record<string, { get?: Operation }>;
    components: { schemas: Record<string, Schema> };
  };

  /** A schema with its $ref (or single allOf) resolved. */
  const resolve = (schema: Schema): Schema => {
    if (schema.$ref) {
      return resolve(
        doc.components.schemas[
          schema.$ref.replace('#/components/schemas/', '')
        ],
      );
    }
    if (schema.allOf?.length === 1) return resolve(schema.allOf[0]);
    return schema;
  };

  /** Every object in `value` has exactly the properties its schema documents, recursively. */
  const expectDocumented = (value: unknown, schema: Schema, where: string) => {
    const s = resolve(schema);
    if (Array.isArray(value)) {
      expect({ where, type: s.type }).toEqual({ where, type: 'array' });
      for (const item of value) expectDocumented(item, s.items!, `${where}[]`);
    } else if (value !== null && typeof value === 'object') {
      expect({ where, keys: Object.keys(s.properties ?? {}).sort() }).toEqual({
        where,
        keys: Object.keys(value).sort(),
      });
      for (const [key, child] of Object.entries(value)) {
        expectDocumented(child, s.properties![key], `${where}.${key}`);
      }
    }
  };

  beforeAll(async () => {
    const res = await request(t.server).get('/docs-json');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    doc = res.body;
  });

  it('is an OpenAPI 3 document with every path', () => {
    expect(doc.openapi).toMatch(/^3\./);
    expect(Object.keys(doc.paths).sort()).toEqual([
      '/v1/events',
      '/v1/events/{event_id}',
      '/v1/issued_tickets',
      '/v1/issued_tickets/{issued_ticket_id}',
      '/v1/orders',
      '/v1/orders/{order_id}',
      '/v1/ping',
    ]);
  });

  it('documents every list parameter, with its literal name', () => {
    const names = (doc.paths['/v1/orders'].get?.parameters ?? [])
      .filter((p) => p.in === 'query')
      .map((p) => p.name)
      .sort();
    expect(names).toEqual(
      [
        'barcode',
        'created_at',
        'created_at.gt',
        'created_at.gte',
        'created_at.lt',
        'created_at.lte',
        'email',
        'ending_before',
        'event_id',
        'limit',
        'starting_after',
        'status',
        'txn_id',
      ].sort(),
    );
  });

  it('documents each list parameter with a plain schema of the right type', () => {
    const params = doc.paths['/v1/orders'].get?.parameters ?? [];
    const types = Object.fromEntries(
      params.map((p) => [
        p.name,
        { type: p.schema.type, ref: p.schema.$ref ?? p.schema.allOf },
      ]),
    );
    expect(types).toEqual({
      limit: { type: 'integer', ref: undefined },
      starting_after: { type: 'string', ref: undefined },
      ending_before: { type: 'string', ref: undefined },
      created_at: { type: 'integer', ref: undefined },
      'created_at.gt': { type: 'integer', ref: undefined },
      'created_at.gte': { type: 'integer', ref: undefined },
      'created_at.lt': { type: 'integer', ref: undefined },
      'created_at.lte': { type: 'integer', ref: undefined },
      event_id: { type: 'string', ref: undefined },
      status: { type: 'string', ref: undefined },
      email: { type: 'string', ref: undefined },
      txn_id: { type: 'string', ref: undefined },
      barcode: { type: 'string', ref: undefined },
    });
    const limit = params.find((p) => p.name === 'limit')!.schema;
    expect([limit.minimum, limit.maximum, limit.default]).toEqual([
      1, 100, 100,
    ]);
    expect(
      params.find((p) => p.name === 'status')!.schema.enum?.sort(),
    ).toEqual(['cancelled', 'canceled', 'completed', 'pending'].sort());
  });

  // Rate limits count every request, so 429 is possible on every operation (docs/API.md, Limits).
  const documented = (path: string) =>
    Object.keys(doc.paths[path].get!.responses);

  it('documents the statuses of GET /v1/ping: 200, 401, 429', () => {
    expect(documented('/v1/ping')).toEqual(
      expect.arrayContaining(['200', '401', '429']),
    );
  });

  it('documents 304, 500 and 503 on every operation, and the headers each response carries', () => {
    for (const path of ['/v1/ping', '/v1/orders', '/v1/orders/{order_id}']) {
      const responses = doc.paths[path].get!.responses as Record<
        string,
        { headers?: Record<string, unknown> }
      >;
      expect(Object.keys(responses)).toEqual(
        expect.arrayContaining(['200', '304', '401', '429', '500', '503']),
      );
      for (const response of Object.values(responses)) {
        expect(Object.keys(response.headers ?? {})).toEqual(
          expect.arrayContaining([
            'X-Request-Id',
            'X-Rate-Limit-Limit',
            'X-Rate-Limit-Remaining',
            'X-Rate-Limit-Reset',
          ]),
        );
      }
      expect(Object.keys(responses['200'].headers!)).toContain('ETag');
      expect(Object.keys(responses['429'].headers!)).toContain('Retry-After');
      expect(Object.keys(responses['401'].headers!)).toContain(
        'WWW-Authenticate',
      );
    }
  });

  it('documents the statuses of GET /v1/orders: 200, 400, 401, 429', () => {
    expect(documented('/v1/orders')).toEqual(
      expect.arrayContaining(['200', '400', '401', '429']),
    );
  });

  it('documents the statuses of GET /v1/orders/{order_id}, including its answer to a query parameter', async () => {
    expect(documented('/v1/orders/{order_id}')).toEqual(
      expect.arrayContaining(['200', '401', '404', '429']),
    );
    const extra = await request(t.server)
      .get(`/v1/orders/${orderId}?foo=1`)
      .set('Authorization', AUTH);
    expect(documented('/v1/orders/{order_id}')).toContain(String(extra.status));
  });

  it('documents exactly the fields that orders, lists, ping and errors carry', async () => {
    const bodyOf = (path: string, status: string) =>
      doc.paths[path].get!.responses[status].content!['application/json']
        .schema;
    const list = await request(t.server)
      .get('/v1/orders?limit=2')
      .set('Authorization', AUTH);
    expectDocumented(list.body, bodyOf('/v1/orders', '200'), 'list');
    const one = await request(t.server)
      .get(`/v1/orders/${orderId}`)
      .set('Authorization', AUTH);
    expectDocumented(one.body, bodyOf('/v1/orders/{order_id}', '200'), 'order');
    const ping = await request(t.server).get('/v1/ping');
    expectDocumented(ping.body, bodyOf('/v1/ping', '200'), 'ping');
    const missing = await request(t.server)
      .get('/v1/orders/or_999999')
      .set('Authorization', AUTH);
    const errorSchema = resolve(bodyOf('/v1/orders/{order_id}', '404'));
    expect(
      Object.keys(missing.body).every((k) => k in errorSchema.properties!),
    ).toBe(true);
  });

  it('documents the order_id path parameter', () => {
    const params = doc.paths['/v1/orders/{order_id}'].get?.parameters ?? [];
    expect(params).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ name: 'order_id', in: 'path' }),
      ]),
    );
  });

  it('serves Swagger UI at /docs', async () => {
    const res = await request(t.server).get('/docs');
    expect([200, 301]).toContain(res.status);
  });
});
