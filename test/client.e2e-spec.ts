import type { AddressInfo } from 'node:net';
import {
  BoxOfficeApiError,
  type CachedResponse,
  basicAuthorization,
  changesSince,
  createBoxOfficeClient,
  listAll,
} from '../client/src/index';
import { DEMO_BOX_OFFICES, seedDemoData } from '../seeds/demo-data';
import { TestApp, createTestApp } from './utils/create-test-app';
import { onPostgres } from './utils/test-database';

// The typed client in client/ against the running server (over HTTP, with Node's fetch): its
// list iterator visits every item of a list exactly once, in the list's order (docs/API.md,
// Walking), on the demo data.

const DEMO_ORDERS = 250;

describe('Typed client (client/)', () => {
  let t: TestApp;
  let baseUrl: string;

  beforeAll(async () => {
    t = await createTestApp();
    await seedDemoData(t.dataSource, {
      orders: DEMO_ORDERS,
      seed: 1,
      reset: false,
    });
    await t.app.listen(0, '127.0.0.1');
    baseUrl = `http://127.0.0.1:${(t.server.address() as AddressInfo).port}`;
  });

  afterAll(() => t.close());

  /** Ids in the lists' documented orders, read from the database. */
  const idsInDatabase = async (sql: string, params: unknown[] = []) => {
    const rows: { id: number | string }[] = await t.dataSource.query(
      sql,
      params,
    );
    return rows.map((row) => Number(row.id));
  };
  const ordersOf = (boxOfficeId: number) =>
    idsInDatabase(
      `SELECT id FROM orders WHERE box_office_id = ${boxOfficeId} ORDER BY created_at DESC, id DESC`,
    );
  const eventsOf = (boxOfficeId: number) =>
    idsInDatabase(
      `SELECT id FROM events WHERE box_office_id = ${boxOfficeId} ORDER BY start_at ASC, id ASC`,
    );

  const collect = async <T>(items: AsyncIterable<T>): Promise<T[]> => {
    const all: T[] = [];
    for await (const item of items) all.push(item);
    return all;
  };

  it.each(DEMO_BOX_OFFICES)(
    'walks all orders and events of box office $id, page after page, in list order',
    async ({ id, apiKey }) => {
      const client = createBoxOfficeClient({ baseUrl, apiKey });
      const orderIds = (await ordersOf(id)).map((n) => `or_${n}`);
      const eventIds = (await eventsOf(id)).map((n) => `ev_${n}`);
      expect(orderIds.length).toBeGreaterThan(1);
      expect(eventIds.length).toBeGreaterThan(1);

      // Default pages (100) and pages of 7, so that most walks cross many links.
      for (const query of [{}, { limit: 7 }]) {
        const orders = await collect(listAll(client, '/v1/orders', { query }));
        expect(orders.map((order) => order.id)).toEqual(orderIds);
        expect(orders.every((order) => order.object === 'order')).toBe(true);

        const events = await collect(listAll(client, '/v1/events', { query }));
        expect(events.map((event) => event.id)).toEqual(eventIds);
        expect(events.every((event) => event.object === 'event')).toBe(true);
      }
    },
  );

  it('sees every demo order across the two box offices', async () => {
    let walked = 0;
    for (const { apiKey } of DEMO_BOX_OFFICES) {
      const client = createBoxOfficeClient({ baseUrl, apiKey });
      for await (const order of listAll(client, '/v1/orders', {
        query: { limit: 100 },
      })) {
        expect(order.id).toMatch(/^or_\d+$/);
        walked += 1;
      }
    }
    expect(walked).toBe(DEMO_ORDERS);
  });

  it('keeps the filters on every page (the links carry them)', async () => {
    const [{ id, apiKey }] = DEMO_BOX_OFFICES;
    const client = createBoxOfficeClient({ baseUrl, apiKey });
    const completed = await idsInDatabase(
      `SELECT id FROM orders WHERE box_office_id = ${id} AND status = 'completed' ORDER BY created_at DESC, id DESC`,
    );
    expect(completed.length).toBeGreaterThan(10);

    const orders = await collect(
      listAll(client, '/v1/orders', {
        query: { limit: 10, status: 'completed' },
      }),
    );
    expect(orders.map((order) => order.id)).toEqual(
      completed.map((n) => `or_${n}`),
    );
  });

  it('requests no further page once a for-await loop breaks', async () => {
    const requested: string[] = [];
    const client = createBoxOfficeClient({
      baseUrl,
      apiKey: DEMO_BOX_OFFICES[0].apiKey,
      fetch: (request) => {
        requested.push(new URL(request.url).search);
        return fetch(request);
      },
    });
    const firstThree: string[] = [];
    for await (const event of listAll(client, '/v1/events', {
      query: { limit: 2 },
    })) {
      firstThree.push(event.id);
      if (firstThree.length === 3) break;
    }
    const eventIds = (await eventsOf(1)).slice(0, 3).map((n) => `ev_${n}`);
    expect(firstThree).toEqual(eventIds);
    expect(requested).toEqual([
      '?limit=2',
      `?starting_after=${eventIds[1]}&limit=2`,
    ]);
  });

  it('throws the API error body on a non-2xx answer', async () => {
    const client = createBoxOfficeClient({ baseUrl, apiKey: 'sk_not_a_key' });
    const walk = collect(listAll(client, '/v1/orders'));
    await expect(walk).rejects.toBeInstanceOf(BoxOfficeApiError);
    await expect(walk).rejects.toMatchObject({
      status: 401,
      body: { status: 401, error_code: 'UNAUTHORIZED' },
    });
  });

  it('follows the change feed from a stored position with changesSince, and resumes from it', async () => {
    const client = createBoxOfficeClient({
      baseUrl,
      apiKey: DEMO_BOX_OFFICES[0].apiKey,
    });
    const [first, second] = await ordersOf(DEMO_BOX_OFFICES[0].id);
    const start = (
      await fetch(`${baseUrl}/v1/changes`, {
        headers: {
          Authorization: basicAuthorization(DEMO_BOX_OFFICES[0].apiKey),
        },
      })
    ).headers.get('X-Change-Head')!;
    // A sales system's writes, straight into the database.
    await t.dataSource.query(
      `UPDATE orders SET status_message = 'Called the buyer' WHERE id = ${first}`,
    );
    const run1 = await collect(changesSince(client, start));
    expect(run1.map(({ change }) => [change.type, change.resource_id])).toEqual(
      [['ORDER.UPDATED', `or_${first}`]],
    );
    const stored = run1[run1.length - 1].position;
    await t.dataSource.query(
      `UPDATE orders SET status_message = 'Refund promised' WHERE id = ${second}`,
    );
    const run2 = await collect(changesSince(client, stored));
    expect(run2.map(({ change }) => change.resource_url)).toEqual([
      `/v1/orders/or_${second}`,
    ]);
    expect(await collect(changesSince(client, run2[0].position))).toEqual([]);
  });

  it('records a door scan with checkIn: recorded, refused with the deciding check-in, replayed', async () => {
    const client = createBoxOfficeClient({
      baseUrl,
      apiKey: DEMO_BOX_OFFICES[0].apiKey,
    });
    // A ticket of an upcoming event: never scanned.
    const [{ id, barcode }] = await t.dataSource.query<
      { id: number; barcode: string }[]
    >(
      `SELECT t.id, t.barcode FROM issued_tickets t JOIN events e ON e.id = t.event_id
        WHERE t.box_office_id = 1 AND t.status = 'valid' AND t.checked_in = ${onPostgres ? 'false' : '0'}
          AND NOT EXISTS (SELECT 1 FROM check_ins c WHERE c.issued_ticket_id = t.id)
        ORDER BY e.start_at DESC, t.id LIMIT 1`,
    );
    const recorded = await client.checkIn(
      { barcode },
      { idempotencyKey: 'client-door-1' },
    );
    expect(recorded).toEqual({
      outcome: 'recorded',
      checkIn: expect.objectContaining({
        issued_ticket_id: `it_${id}`,
        quantity: 1,
      }) as object,
      issuedTicket: null,
      replayed: false,
    });
    const again = await client.checkIn(
      { barcode },
      { idempotencyKey: 'client-door-1' },
    );
    expect(again).toEqual({ ...recorded, replayed: true });
    const second = await client.checkIn(
      { issuedTicketId: `it_${id}` },
      { idempotencyKey: 'client-door-2' },
    );
    expect(second).toEqual({
      outcome: 'refused',
      reason: 'ALREADY_CHECKED_IN',
      message: expect.stringContaining('is already checked in') as string,
      checkIn: recorded.outcome === 'recorded' ? recorded.checkIn : null,
      issuedTicket: expect.objectContaining({
        id: `it_${id}`,
        barcode,
        checked_in: 'true',
      }) as object,
      replayed: false,
    });
    const out = await client.checkIn(
      { issuedTicketId: `it_${id}` },
      { idempotencyKey: 'client-door-3', quantity: -1 },
    );
    expect(out).toMatchObject({
      outcome: 'recorded',
      checkIn: { quantity: -1 },
      issuedTicket: null,
    });
    // With the ticket: who came in, as GET /v1/issued_tickets/{id} shows it after the scan.
    const back = await client.checkIn(
      { issuedTicketId: `it_${id}` },
      { idempotencyKey: 'client-door-5', expandIssuedTicket: true },
    );
    expect(back).toMatchObject({
      outcome: 'recorded',
      checkIn: { quantity: 1 },
      issuedTicket: { id: `it_${id}`, barcode, checked_in: 'true' },
    });
    // A key that may only read: the API's error, thrown.
    const reader = createBoxOfficeClient({
      baseUrl,
      apiKey: DEMO_BOX_OFFICES[1].apiKey,
    });
    await expect(
      reader.checkIn({ barcode }, { idempotencyKey: 'client-door-4' }),
    ).rejects.toMatchObject({
      status: 403,
      body: { status: 403, error_code: 'FORBIDDEN' },
    });
  });

  it('sends Basic auth with the key as user name and an empty password', async () => {
    const [{ id, apiKey }] = DEMO_BOX_OFFICES.slice(1);
    const [orderId] = await ordersOf(id);
    let authorization: string | null = null;
    const client = createBoxOfficeClient({
      baseUrl,
      apiKey,
      fetch: (request) => {
        authorization = request.headers.get('Authorization');
        return fetch(request);
      },
    });
    const { data } = await client.GET('/v1/orders/{order_id}', {
      params: { path: { order_id: `or_${orderId}` } },
    });
    expect(authorization).toBe(
      `Basic ${Buffer.from(`${apiKey}:`).toString('base64')}`,
    );
    expect(data?.id).toBe(`or_${orderId}`);
  });

  describe('conditional requests (cache option)', () => {
    // The server's side of If-None-Match is covered by the ETag tests; here the server is a
    // stand-in, so that the client's handling of a 304 is tested on its own.
    const page = JSON.stringify({
      data: [{ id: 'or_1', object: 'order' }],
      links: { next: null, previous: null },
    });
    const sent: (string | null)[] = [];
    const cacheModes: RequestCache[] = [];
    const standIn = (request: Request): Promise<Response> => {
      const ifNoneMatch = request.headers.get('If-None-Match');
      sent.push(ifNoneMatch);
      cacheModes.push(request.cache);
      const headers = { 'X-Rate-Limit-Remaining': String(100 - sent.length) };
      return Promise.resolve(
        ifNoneMatch === '"v1"'
          ? new Response(null, { status: 304, headers })
          : new Response(page, {
              status: 200,
              headers: {
                ...headers,
                'Content-Type': 'application/json',
                ETag: '"v1"',
              },
            }),
      );
    };

    it('sends the stored ETag and answers a 304 with the stored body and the new headers', async () => {
      const cache = new Map<string, CachedResponse>();
      const client = createBoxOfficeClient({
        baseUrl: 'http://api.test',
        apiKey: 'sk_x',
        cache,
        fetch: standIn,
      });
      const first = await client.GET('/v1/orders', {
        params: { query: { limit: 1 } },
      });
      expect(first.response.status).toBe(200);
      expect(cache.get('http://api.test/v1/orders?limit=1')).toEqual({
        etag: '"v1"',
        body: page,
      });

      const second = await client.GET('/v1/orders', {
        params: { query: { limit: 1 } },
      });
      expect(sent).toEqual([null, '"v1"']);
      // The store is the cache: a browser's own HTTP cache stays out of it.
      expect(cacheModes).toEqual(['no-store', 'no-store']);
      expect(second.response.status).toBe(200);
      expect(second.data).toEqual(first.data);
      expect(second.response.headers.get('X-Rate-Limit-Remaining')).toBe('98');
    });
  });
});
