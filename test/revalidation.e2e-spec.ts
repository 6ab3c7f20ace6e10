import request from 'supertest';
import { type Connection, connect } from '../dev/activity/connection';
import { ActivityWriter } from '../dev/activity/writer';
import { changeHead } from '../src/changes/change-feed';
import { bodyPartOf, versionPartOf } from '../src/common/http/etag';
import { ResourceReader } from '../src/common/resources/resource-reader';
import { inImportMode } from '../src/sync/import-mode';
import {
  type TestApp,
  basicAuth,
  createTestApp,
} from './utils/create-test-app';
import { Factory } from './utils/factories';
import { durableTestDatabase } from './utils/migrated-database';
import type { TestDatabase } from './utils/test-database';

// Conditional requests answered from the data version (docs/API.md, "ETag and If-None-Match"):
// orders, issued tickets, check-ins and events answer a revalidation with an unchanged version
// without reading a row; any write, through the development writer or in import mode, moves the
// version, and a ticket type's held or in-basket quantity (written by a sales system without a
// change entry) moves the events' stock version; responses that depend on the clock are compared
// by their bytes, and their tags change with them. SQLite by default, PostgreSQL under
// `npm run test:e2e:postgres`.

const KEY = 'sk_test_revalidation_a';
const OTHER_KEY = 'sk_test_revalidation_b';
const LAG = 1;
/** The headers the Fetch standard adds to a request that carries If-None-Match. */
const AS_FETCH_SENDS = { 'Cache-Control': 'no-cache', Pragma: 'no-cache' };

describe('revalidation from the data version', () => {
  let database: TestDatabase;
  let t: TestApp;
  let db: Connection;
  let writer: ActivityWriter;
  let f: Factory;
  let officeId: number;
  let eventId: number;
  let seriesId: number;
  let orderIds: number[];
  let ticketIds: number[];
  let checkInId: number;
  /** Every resource reader's reads (a list's page, one item), counted. */
  let reads: jest.SpyInstance[];

  beforeAll(async () => {
    database = await durableTestDatabase();
    t = await createTestApp({
      DATABASE_URL: database.url,
      SYNC_LAG_S: String(LAG),
      RATE_LIMIT_MAX: '1000000',
    });
    f = new Factory(t.dataSource);
    const a = await f.boxOffice('A');
    const b = await f.boxOffice('B');
    officeId = a.id;
    await f.apiKey(a.id, KEY);
    await f.apiKey(b.id, OTHER_KEY);
    const event = await f.event(a.id);
    eventId = event.id;
    seriesId = event.eventSeriesId;
    const orders = await f.orders(
      a.id,
      event.id,
      Array.from({ length: 4 }, (_, i) => ({
        createdAt: 1_750_000_000 + i * 60,
      })),
    );
    orderIds = orders.map((o) => o.id);
    ticketIds = orders.flatMap((o) => o.issuedTickets!.map((it) => it.id));
    // Box office B has an order too, so its pages are not empty.
    await f.orders(b.id, (await f.event(b.id)).id, [
      { createdAt: 1_750_000_030 },
    ]);
    db = await connect(database.url);
    writer = new ActivityWriter(db, LAG);
    await writer.checkIn(`it_${ticketIds[0]}`);
    const [row] = await t.dataSource.query<{ id: number }[]>(
      `SELECT max(id) AS id FROM check_ins`,
    );
    checkInId = Number(row.id);
  });

  beforeEach(() => {
    reads = [
      jest.spyOn(ResourceReader.prototype, 'page'),
      jest.spyOn(ResourceReader.prototype, 'one'),
    ];
  });

  afterEach(() => jest.restoreAllMocks());

  afterAll(async () => {
    await db?.close();
    await t?.close();
    await database?.drop();
  });

  const rowsRead = () =>
    reads.reduce((sum, spy) => sum + spy.mock.calls.length, 0);

  const get = (path: string, ifNoneMatch?: string, key = KEY) => {
    const req = request(t.server)
      .get(path)
      .set('Authorization', basicAuth(key));
    return ifNoneMatch === undefined
      ? req
      : req.set('If-None-Match', ifNoneMatch).set(AS_FETCH_SENDS);
  };

  /** The versioned tag of a path: its first 200's tag, revalidated once. */
  async function versionedTag(path: string, key = KEY): Promise<string> {
    const first = await get(path, undefined, key);
    expect(first.status).toBe(200);
    const again = await get(path, first.headers.etag as string, key);
    expect(again.status).toBe(304);
    const tag = again.headers.etag as string;
    expect(bodyPartOf(tag)).toBe(bodyPartOf(first.headers.etag as string));
    expect(versionPartOf(tag)).toMatch(/^[\w-]{22}$/);
    return tag;
  }

  const PATHS: [string, () => string][] = [
    ['the orders list', () => '/v1/orders?limit=2'],
    ['an order', () => `/v1/orders/or_${orderIds[1]}`],
    ['the issued tickets list', () => '/v1/issued_tickets'],
    ['an issued ticket', () => `/v1/issued_tickets/it_${ticketIds[2]}`],
    ['the check-ins list', () => '/v1/check_ins'],
    ['a check-in', () => `/v1/check_ins/ci_${checkInId}`],
    ['the events list', () => '/v1/events'],
    ['an event', () => `/v1/events/ev_${eventId}`],
    ["a series' events", () => `/v1/event_series/es_${seriesId}/events`],
    [
      'an event of a series',
      () => `/v1/event_series/es_${seriesId}/events/ev_${eventId}`,
    ],
  ];

  describe.each(PATHS)('%s', (_, pathOf) => {
    it('answers a revalidation at an unchanged version with 304 without reading a row', async () => {
      const path = pathOf();
      const tag = await versionedTag(path);
      reads.forEach((spy) => spy.mockClear());

      for (const method of ['get', 'head'] as const) {
        const res = await request(t.server)
          [method](path)
          .set('Authorization', basicAuth(KEY))
          .set('If-None-Match', `"other", W/${tag}`)
          .set(AS_FETCH_SENDS);
        expect(res.status).toBe(304);
        expect(res.text ?? '').toBe('');
        expect(res.headers.etag).toBe(tag);
        expect(res.headers['cache-control']).toBe('private, no-cache');
        expect(res.headers['x-rate-limit-remaining']).toBeDefined();
      }
      expect(rowsRead()).toBe(0);
    });

    it('reads the rows again once anything in the box office changed, and answers 200 or 304 by the bytes', async () => {
      const path = pathOf();
      const tag = await versionedTag(path);
      const before = await get(path);
      // A change elsewhere in the box office: a new order of the event.
      await writer.newOrder(`ev_${eventId}`, { random: () => 0.5 });
      reads.forEach((spy) => spy.mockClear());

      const res = await get(path, tag);
      expect(rowsRead()).toBeGreaterThan(0);
      const now = await get(path);
      const same = now.text === before.text;
      expect(res.status).toBe(same ? 304 : 200);
      expect(res.headers.etag).not.toBe(tag);
      expect(bodyPartOf(res.headers.etag as string)).toBe(
        bodyPartOf(now.headers.etag as string),
      );
      // The new tag is answered from the new version.
      reads.forEach((spy) => spy.mockClear());
      expect((await get(path, res.headers.etag as string)).status).toBe(304);
      expect(rowsRead()).toBe(0);
    });
  });

  it.each(['/v1/orders', '/v1/issued_tickets', '/v1/check_ins'])(
    "carries the sync watermark on a list's 304 (%s), as on every response of the list",
    async (path) => {
      const tag = await versionedTag(path);
      const res = await get(path, tag);
      expect(res.status).toBe(304);
      const watermark = Number(res.headers['x-sync-watermark']);
      expect(Number.isSafeInteger(watermark)).toBe(true);
      expect(watermark).toBeLessThanOrEqual(
        Date.parse(res.headers.date as string) / 1000,
      );
      expect(watermark).toBeGreaterThan(Date.now() / 1000 - 60);
    },
  );

  it('moves the version with a change the list shows: a void answers 200 with the void in it', async () => {
    const path = `/v1/issued_tickets/it_${ticketIds[3]}`;
    const tag = await versionedTag(path);
    await writer.voidTicket(`it_${ticketIds[3]}`);
    const res = await get(path, tag);
    expect(res.status).toBe(200);
    expect(res.body.status).toBe('void');
  });

  it('moves the version with a write in import mode, which makes no change entry', async () => {
    const path = `/v1/orders/or_${orderIds[0]}`;
    const tag = await versionedTag(path);
    await inImportMode(t.dataSource.manager, (manager) =>
      manager.query(
        `UPDATE orders SET status_message = 'Imported note' WHERE id = ${orderIds[0]}`,
      ),
    );
    const res = await get(path, tag);
    expect(res.status).toBe(200);
    expect(res.body.status_message).toBe('Imported note');
  });

  it("never answers another box office's request from a tag of this one", async () => {
    const path = '/v1/orders';
    const tag = await versionedTag(path);
    reads.forEach((spy) => spy.mockClear());
    const res = await get(path, tag, OTHER_KEY);
    expect(res.status).toBe(200);
    expect(rowsRead()).toBeGreaterThan(0);
    expect(res.body.data.map((o: { id: string }) => o.id)).not.toContain(
      `or_${orderIds[0]}`,
    );
  });

  it('binds the tag to the URL: another page of the same list is read', async () => {
    const tag = await versionedTag('/v1/orders?limit=1');
    reads.forEach((spy) => spy.mockClear());
    const res = await get('/v1/orders?limit=2', tag);
    expect(res.status).toBe(200);
    expect(rowsRead()).toBeGreaterThan(0);
  });

  it.each([
    '/v1/orders?sort=updated_at',
    '/v1/orders?updated_at.gte=0',
    '/v1/issued_tickets?sort=-updated_at',
    '/v1/check_ins?sort=created_at',
  ])(
    'reads the rows of a sync-mode page (%s), which moves with the horizon, and tags its bytes alone',
    async (path) => {
      // The page may change between two requests (a row passes the horizon), so only the path
      // the revalidation takes is checked: rows read, and a tag without a version part.
      const first = await get(path);
      reads.forEach((spy) => spy.mockClear());
      const again = await get(path, first.headers.etag as string);
      expect(rowsRead()).toBeGreaterThan(0);
      expect([200, 304]).toContain(again.status);
      expect(versionPartOf(again.headers.etag as string)).toBeNull();
    },
  );

  it("moves the events' version, and theirs alone, when a ticket type counter written without a change entry moves", async () => {
    const type = await f.ticketType(eventId, { name: 'Counted' });
    const path = `/v1/events/ev_${eventId}`;
    const tag = await versionedTag(path);
    const orderPath = `/v1/orders/or_${orderIds[2]}`;
    const orderTag = await versionedTag(orderPath);
    // A sales system puts tickets in a basket: an UPDATE, no change entry.
    // The feed's head as a poller reads it (on PostgreSQL, entries waiting are numbered first).
    const head = await changeHead(t.dataSource, officeId);
    await t.dataSource.query(
      `UPDATE ticket_types SET quantity_in_baskets = 3 WHERE id = ${type.id}`,
    );
    expect(await changeHead(t.dataSource, officeId)).toBe(head);
    reads.forEach((spy) => spy.mockClear());

    const res = await get(path, tag);
    expect(res.status).toBe(200);
    expect(rowsRead()).toBeGreaterThan(0);
    const counted = (res.body as { ticket_types: Record<string, unknown>[] })
      .ticket_types;
    expect(counted.find((tt) => tt.id === `tt_${type.id}`)).toMatchObject({
      quantity_in_baskets: 3,
    });
    expect(res.headers.etag).not.toBe(tag);
    // The same value written again moves nothing: the next revalidation is a 304 unread.
    await t.dataSource.query(
      `UPDATE ticket_types SET quantity_in_baskets = 3 WHERE id = ${type.id}`,
    );
    reads.forEach((spy) => spy.mockClear());
    expect((await get(path, res.headers.etag as string)).status).toBe(304);
    // An order shows no stock: its tag stands.
    expect((await get(orderPath, orderTag)).status).toBe(304);
    expect(rowsRead()).toBe(0);
  });

  describe('bodies that depend on the clock', () => {
    const moveClockTo = (seconds: number) =>
      jest.spyOn(Date, 'now').mockReturnValue(seconds * 1000);

    it("changes a series' tag when one of its dates ends", async () => {
      const series = await f.series(officeId, { name: 'Clocked' });
      const now = Math.floor(Date.now() / 1000);
      await f.event(officeId, {
        eventSeriesId: series.id,
        startAt: now + 3_600,
        endAt: now + 7_200,
      });
      const path = `/v1/event_series/es_${series.id}`;
      const first = await get(path);
      expect(first.body.upcoming_occurrences).toBe(1);
      expect((await get(path, first.headers.etag as string)).status).toBe(304);

      moveClockTo(now + 7_201);
      const later = await get(path, first.headers.etag as string);
      expect(later.status).toBe(200);
      expect(later.body.upcoming_occurrences).toBe(0);
      expect(later.headers.etag).not.toBe(first.headers.etag);
    });

    it("changes the overview's tag when an order leaves its four weeks", async () => {
      const now = Math.floor(Date.now() / 1000);
      await f.order(officeId, eventId, { createdAt: now - 27 * 86_400 });
      const first = await get('/v1/overview');
      expect(
        (await get('/v1/overview', first.headers.etag as string)).status,
      ).toBe(304);

      moveClockTo(now + 2 * 86_400);
      const later = await get('/v1/overview', first.headers.etag as string);
      expect(later.status).toBe(200);
      expect(later.body.orders_received).toBe(first.body.orders_received - 1);
    });
  });
});
