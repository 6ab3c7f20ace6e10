import type { AddressInfo } from 'node:net';
import request from 'supertest';
import { TestApp, basicAuth, createTestApp } from './utils/create-test-app';
import { bodyPartOf } from '../src/common/http/etag';
import { Factory } from './utils/factories';

// Conditional requests and caching: docs/API.md, Headers ("ETag and If-None-Match",
// "Cache-Control", "CORS"). Requests are sent as browsers and Node's fetch send a revalidation:
// with If-None-Match, Cache-Control: no-cache and Pragma: no-cache.

const KEY = 'sk_test_conditional';
const AUTH = basicAuth(KEY);
const PRIVATE = 'private, no-cache';

/**
 * The part of a tag that stands for the bytes: a revalidated order, ticket or check-in adds the
 * data version it was read at (`"<bytes>.<version>"`, test/revalidation.e2e-spec.ts).
 */
const bytesOf = (tag: unknown) => bodyPartOf(String(tag));

/** The headers the Fetch standard adds to a request that carries If-None-Match. */
const AS_FETCH_SENDS = { 'Cache-Control': 'no-cache', Pragma: 'no-cache' };

describe('conditional requests', () => {
  let t: TestApp;
  const paths: Record<string, string> = {};

  beforeAll(async () => {
    t = await createTestApp();
    const f = new Factory(t.dataSource);
    const office = await f.boxOffice();
    await f.apiKey(office.id, KEY);
    // Every field as the contract has it (the factory's defaults leave the series and URLs unset).
    const event = await f.event(office.id, {
      eventSeriesId: 1,
      createdAt: 1_700_000_000,
      url: 'https://tickets.boxoffice.example/events/1',
      imageHeaderUrl: 'https://cdn.boxoffice.example/events/1/header.jpg',
      imageThumbnailUrl: 'https://cdn.boxoffice.example/events/1/thumb.jpg',
    });
    const order = await f.order(office.id, event.id);
    const tickets = await t.dataSource.query<{ id: number }[]>(
      `SELECT id FROM issued_tickets WHERE order_id = ${order.id} ORDER BY id`,
    );
    Object.assign(paths, {
      listOrders: '/v1/orders',
      retrieveOrder: `/v1/orders/or_${order.id}`,
      listEvents: '/v1/events',
      retrieveEvent: `/v1/events/ev_${event.id}`,
      listIssuedTickets: '/v1/issued_tickets?limit=1',
      retrieveIssuedTicket: `/v1/issued_tickets/it_${tickets[0].id}`,
    });
  });

  afterAll(() => t.close());

  const get = (path: string, key = true) => {
    const req = request(t.server).get(path);
    return key ? req.set('Authorization', AUTH) : req;
  };

  const OPERATIONS = [
    'listOrders',
    'retrieveOrder',
    'listEvents',
    'retrieveEvent',
    'listIssuedTickets',
    'retrieveIssuedTicket',
  ];

  describe.each(OPERATIONS)('%s', (operation) => {
    it('answers 304 with no body to If-None-Match with its ETag, sent as fetch sends it', async () => {
      const path = paths[operation];
      const first = await get(path);
      expect(first.status).toBe(200);
      expect(first.headers['cache-control']).toBe(PRIVATE);
      const etag = first.headers.etag as string;
      expect(etag).toMatch(/^"[0-9a-z]+-[0-9a-z]+"$/);

      for (const method of ['get', 'head'] as const) {
        const again = await request(t.server)
          [method](path)
          .set('Authorization', AUTH)
          .set('If-None-Match', etag)
          .set(AS_FETCH_SENDS);
        expect(again.status).toBe(304);
        expect(again.text ?? '').toBe('');
        expect(again.headers['content-length']).toBeUndefined();
        expect(bytesOf(again.headers.etag)).toBe(bytesOf(etag));
        expect(again.headers['cache-control']).toBe(PRIVATE);
      }
    });

    it('answers the whole body when the tag does not match', async () => {
      const path = paths[operation];
      const first = await get(path);
      const stale = await get(path)
        .set('If-None-Match', '"0-stale"')
        .set(AS_FETCH_SENDS);
      expect(stale.status).toBe(200);
      expect(stale.text).toBe(first.text);
      expect(bytesOf(stale.headers.etag)).toBe(bytesOf(first.headers.etag));
    });
  });

  describe('If-None-Match forms (RFC 9110, 13.1.2)', () => {
    let etag: string;
    beforeAll(async () => {
      etag = (await get(paths.listOrders)).headers.etag as string;
    });

    it.each([
      ['the weak form of the tag', () => `W/${etag}`],
      ['a list that holds the tag', () => `"0-other", ${etag}`],
      ['a list that holds its weak form', () => `W/"0-other",W/${etag}`],
      ['*', () => '*'],
    ])('%s → 304', async (_, value) => {
      const res = await get(paths.listOrders)
        .set('If-None-Match', value())
        .set(AS_FETCH_SENDS);
      expect(res.status).toBe(304);
    });

    it.each([
      ['a list without the tag', () => '"0-a", "0-b"'],
      ['the tag without its quotes', () => etag.slice(1, -1)],
      ['a malformed list', () => `${etag} "0-b"`],
    ])('%s → 200', async (_, value) => {
      const res = await get(paths.listOrders).set('If-None-Match', value());
      expect(res.status).toBe(200);
    });

    it('is decided by If-None-Match alone: If-Modified-Since does not give 304', async () => {
      const res = await get(paths.listOrders).set(
        'If-Modified-Since',
        new Date().toUTCString(),
      );
      expect(res.status).toBe(200);
    });

    it('never turns an error into a 304', async () => {
      const missing = await get('/v1/orders/or_999999');
      expect(missing.status).toBe(404);
      for (const value of ['*', missing.headers.etag as string]) {
        const res = await get('/v1/orders/or_999999').set(
          'If-None-Match',
          value,
        );
        expect(res.status).toBe(404);
        expect(res.body.error_code).toBe('NOT_FOUND');
      }
      const noKey = await get('/v1/orders', false).set('If-None-Match', '*');
      expect(noKey.status).toBe(401);
    });
  });

  describe('GET /v1/ping', () => {
    it('is no-cache without a key and private with one, and answers 304 either way', async () => {
      const open = await get('/v1/ping', false);
      expect(open.headers['cache-control']).toBe('no-cache');
      const keyed = await get('/v1/ping');
      expect(keyed.headers['cache-control']).toBe(PRIVATE);
      expect(keyed.headers.etag).toBe(open.headers.etag);
      for (const key of [false, true]) {
        const res = await get('/v1/ping', key)
          .set('If-None-Match', open.headers.etag as string)
          .set(AS_FETCH_SENDS);
        expect(res.status).toBe(304);
        expect(res.headers['cache-control']).toBe(key ? PRIVATE : 'no-cache');
      }
    });
  });

  describe('Cache-Control of errors and preflights', () => {
    it.each([
      ['400', () => get('/v1/orders?limit=0')],
      ['401', () => get('/v1/orders', false)],
      [
        '401 on ping with a wrong key',
        () =>
          request(t.server)
            .get('/v1/ping')
            .set('Authorization', basicAuth('sk_wrong')),
      ],
      ['404', () => get('/v1/nope')],
      ['405', () => request(t.server).post('/v1/orders')],
    ])('%s is no-store', async (_, send) => {
      const res = await send();
      expect(res.status).toBeGreaterThanOrEqual(400);
      expect(res.headers['cache-control']).toBe('no-store');
    });

    it('a preflight carries none, and allows If-None-Match', async () => {
      const res = await request(t.server)
        .options('/v1/orders')
        .set('Origin', 'https://app.example')
        .set('Access-Control-Request-Method', 'GET')
        .set('Access-Control-Request-Headers', 'authorization,if-none-match');
      expect(res.status).toBe(204);
      expect(res.headers['cache-control']).toBeUndefined();
      expect(res.headers['access-control-allow-headers']).toMatch(
        /(^|,)If-None-Match(,|$)/,
      );
    });

    it('a cross-origin script can read the ETag', async () => {
      const res = await get('/v1/orders').set('Origin', 'https://app.example');
      expect(res.headers['access-control-allow-origin']).toBe('*');
      expect(
        (res.headers['access-control-expose-headers'] as string).split(','),
      ).toContain('ETag');
    });
  });

  describe("Node's fetch against a listening server", () => {
    let base: string;
    const received: Record<string, string | string[] | undefined>[] = [];
    const remember = (req: {
      headers: Record<string, string | string[] | undefined>;
    }) => received.push(req.headers);

    beforeAll(async () => {
      await t.app.listen(0, '127.0.0.1');
      const { port } = t.server.address() as AddressInfo;
      base = `http://127.0.0.1:${port}`;
      t.server.on('request', remember);
    });

    afterAll(() => {
      t.server.off('request', remember);
    });

    it('revalidates with the ETag and gets 304, although fetch adds Cache-Control: no-cache', async () => {
      for (const path of [paths.listOrders, paths.retrieveEvent, '/v1/ping']) {
        const headers = { authorization: AUTH };
        const first = await fetch(`${base}${path}`, { headers });
        expect(first.status).toBe(200);
        await first.arrayBuffer();
        const etag = first.headers.get('etag');
        expect(etag).toMatch(/^"[0-9a-z]+-[0-9a-z]+"$/);

        received.length = 0;
        const again = await fetch(`${base}${path}`, {
          headers: { ...headers, 'if-none-match': etag! },
        });
        expect(again.status).toBe(304);
        expect(await again.text()).toBe('');
        expect(bytesOf(again.headers.get('etag'))).toBe(bytesOf(etag));
        // What fetch really sent: the headers this test is about.
        expect(received).toEqual([
          expect.objectContaining({
            'if-none-match': etag,
            'cache-control': 'no-cache',
            pragma: 'no-cache',
          }),
        ]);
      }
    });
  });
});
