import request from 'supertest';
import { type Get, getAs, walk } from './utils/api';
import { type ListApp, createListApp } from './utils/list-app';

// GET /v1/overview (docs/API.md, "Overview"): each number equals what the lists give for the
// same box office and period. On SQLite by default, on PostgreSQL under
// `npm run test:e2e:postgres`.

const KEY = 'sk_test_overview_a';
const OTHER_KEY = 'sk_test_overview_b';
const DAY = 86_400;
const PERIOD = 28 * DAY;

type Item = Record<string, unknown> & { id: string };

async function all(get: Get, start: string): Promise<Item[]> {
  return (await walk<Item>(get, start, 'next')).flatMap((page) => page.data);
}

describe('GET /v1/overview', () => {
  let app: ListApp;
  let get: Get;

  beforeAll(async () => {
    app = await createListApp(KEY, OTHER_KEY);
    const { f, a, b } = app;
    get = app.get;
    const now = Math.floor(Date.now() / 1000);
    const draftSeries = await f.series(a.id, { status: 'draft' });
    const event = await f.event(a.id);
    await f.event(a.id, { status: 'draft', eventSeriesId: draftSeries.id });
    await f.event(a.id, { status: 'sales_closed' });
    const type = await f.ticketType(event.id);
    // In the period: completed (one in another currency, one refunded), pending, cancelled.
    await f.orders(a.id, event.id, [
      { createdAt: now - DAY, ticketType: type },
      { createdAt: now - 10 * DAY, ticketType: type, refundAmount: 1000 },
      { createdAt: now - 3 * DAY, currency: 'eur', total: 5000 },
      { createdAt: now - 2 * DAY, status: 'pending' },
      { createdAt: now - 5 * DAY, status: 'cancelled' },
      // Before it.
      { createdAt: now - PERIOD - 2 * DAY },
      { createdAt: now - 90 * DAY },
    ]);
    // Another box office's sales never count.
    const theirs = await f.event(b.id);
    await f.orders(b.id, theirs.id, [{ createdAt: now - DAY }]);
  });

  afterAll(() => app.t.close());

  it('counts what the lists give for the 28 days before the request', async () => {
    const res = await get('/v1/overview');
    expect(res.status).toBe(200);
    // Computed after the request: nothing here is within seconds of the period's edges.
    const since = Math.floor(Date.now() / 1000) - PERIOD;
    const completed = await all(
      get,
      `/v1/orders?status=completed&created_at.gte=${since}`,
    );
    const tickets = await all(
      get,
      `/v1/issued_tickets?status=valid&created_at.gte=${since}`,
    );
    const series = await all(get, '/v1/event_series');
    const events = await all(get, '/v1/events');
    const count = (items: Item[], status: string) =>
      items.filter((item) => item.status === status).length;
    const revenue = completed
      .filter((order) => (order.currency as { code: string }).code === 'gbp')
      .reduce(
        (sum, o) => sum + (o.total as number) - (o.refund_amount as number),
        0,
      );
    expect(res.body).toEqual({
      object: 'overview',
      box_office_name: 'A',
      currency: { code: 'gbp', symbol: '£' },
      period: 'four weeks',
      revenue,
      orders_received: completed.length,
      total_issued_tickets: tickets.length,
      event_series_published: count(series, 'published'),
      event_series_draft: count(series, 'draft'),
      event_occurrences_published: count(events, 'published'),
      event_occurrences_draft: count(events, 'draft'),
    });
    // The fixture's own numbers, so that the equalities above are not of zeros.
    expect(res.body).toMatchObject({
      revenue: 6240 + 6240 - 1000,
      orders_received: 3,
      total_issued_tickets: 10,
      event_series_published: 2,
      event_series_draft: 1,
      event_occurrences_published: 1,
      event_occurrences_draft: 1,
    });
  });

  it('shows the box office’s own currency and name', async () => {
    await app.t.dataSource.query(
      `UPDATE box_offices SET currency = 'eur' WHERE id = ${app.a.id}`,
    );
    try {
      const { body } = await get('/v1/overview');
      expect(body.currency).toEqual({ code: 'eur', symbol: '€' });
      expect(body.revenue).toBe(5000);
      expect(body.orders_received).toBe(3);
    } finally {
      await app.t.dataSource.query(
        `UPDATE box_offices SET currency = 'gbp' WHERE id = ${app.a.id}`,
      );
    }
  });

  it('is the other box office’s own', async () => {
    const { body } = await getAs(app.t.server, OTHER_KEY)('/v1/overview');
    expect(body).toMatchObject({
      box_office_name: 'B',
      orders_received: 1,
      total_issued_tickets: 2,
      event_series_published: 1,
      event_occurrences_published: 1,
    });
  });

  it('takes no query parameters, and needs a key', async () => {
    const bad = await get('/v1/overview?period=year');
    expect(bad.status).toBe(400);
    expect(bad.body.error_code).toBe('VALIDATION_ERROR');
    const anonymous = await request(app.t.server).get('/v1/overview');
    expect(anonymous.status).toBe(401);
  });
});
