import request from 'supertest';
import { type Connection, connect } from '../dev/activity/connection';
import { ActivityWriter } from '../dev/activity/writer';
import { type TestApp, createTestApp } from './utils/create-test-app';
import { Factory } from './utils/factories';
import { durableTestDatabase } from './utils/migrated-database';
import type { TestDatabase } from './utils/test-database';
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

/** The overview now, and what the lists give for its period (read just after it). */
async function overviewAndLists(get: Get) {
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
  return {
    overview: res.body as Record<string, unknown>,
    lists: {
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
    },
  };
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
    const { overview, lists } = await overviewAndLists(get);
    expect(overview).toEqual(lists);
    const res = { body: overview };
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

describe('GET /v1/overview after writes', () => {
  let database: TestDatabase;
  let t: TestApp;
  let f: Factory;
  let get: Get;
  let officeId: number;

  beforeAll(async () => {
    database = await durableTestDatabase();
    t = await createTestApp({
      DATABASE_URL: database.url,
      RATE_LIMIT_MAX: '1000000',
    });
    f = new Factory(t.dataSource);
    const a = await f.boxOffice('A');
    officeId = a.id;
    await f.apiKey(a.id, KEY);
    get = getAs(t.server, KEY);
  });

  afterAll(async () => {
    await t?.close();
    await database?.drop();
  });

  it('still counts what the lists give, whole days, whole hours and the hours at both ends alike', async () => {
    // The period's whole days and hours come from rollups kept by triggers, the parts of an hour
    // at its ends from the rows: orders every ten minutes across its first and last 70 minutes
    // land in both, whatever the minute the test runs at; orders on either side of the first and
    // last whole days' edges land in the daily and the hourly rollups.
    const now = Math.floor(Date.now() / 1000);
    const event = await f.event(officeId);
    const type = await f.ticketType(event.id);
    const firstDay = Math.ceil((now - PERIOD) / DAY) * DAY;
    const lastDay = Math.floor(now / DAY) * DAY;
    const dayEdges = [
      firstDay - 1,
      firstDay,
      firstDay + 3600,
      lastDay - 3600,
      lastDay - 1,
      lastDay,
    ].filter((at) => at > now - PERIOD + 120 && at < now - 120);
    const times = [
      ...Array.from({ length: 7 }, (_, k) => now - PERIOD + 300 + k * 600),
      ...Array.from({ length: 7 }, (_, k) => now - 60 - k * 600),
      ...dayEdges,
    ];
    const orders = await f.orders(
      officeId,
      event.id,
      times.map((createdAt) => ({ createdAt, ticketType: type })),
    );
    const before = await overviewAndLists(get);
    expect(before.overview).toEqual(before.lists);
    expect(before.overview.orders_received).toBe(14 + dayEdges.length);

    // A sales system's writes: each moves a row's share of its hour and its day.
    const db: Connection = await connect(database.url);
    try {
      const writer = new ActivityWriter(db, 1);
      await writer.refundOrder(`or_${orders[1].id}`, 500);
      await writer.cancelOrder(`or_${orders[8].id}`);
      await writer.voidTicket(`it_${orders[9].issuedTickets![0].id}`);
      await writer.deleteOrder(`or_${orders[12].id}`);
      await writer.newOrder(`ev_${event.id}`, { random: () => 0.5 });
    } finally {
      await db.close();
    }
    // A row moved to another hour, and one out of the period.
    await t.dataSource.query(
      `UPDATE orders SET created_at = created_at - 7200 WHERE id = ${orders[10].id}`,
    );
    await t.dataSource.query(
      `UPDATE orders SET created_at = ${now - PERIOD - DAY} WHERE id = ${orders[3].id}`,
    );
    const after = await overviewAndLists(get);
    expect(after.overview).toEqual(after.lists);
    expect(after.overview.orders_received).toBe(14 - 3 + 1 + dayEdges.length);
  });
});
