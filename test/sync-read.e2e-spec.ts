import { setTimeout as sleep } from 'node:timers/promises';
import { type Connection, connect, sql } from '../dev/activity/connection';
import { ActivityWriter } from '../dev/activity/writer';
import { deleteExpiredChanges } from '../src/changes/changes-retention';
import { inImportMode } from '../src/sync/import-mode';
import {
  type Get,
  type ListBody,
  errorBody,
  getAs,
  idsOf,
  walk,
} from './utils/api';
import { type TestApp, createTestApp } from './utils/create-test-app';
import { Factory } from './utils/factories';
import { durableTestDatabase } from './utils/migrated-database';
import { waitForWatermark } from './utils/sync-watermark';
import { type TestDatabase, onPostgres } from './utils/test-database';

// Incremental sync and the change feed through HTTP (docs/API.md, "Incremental sync" and "Change
// feed"), with changes made by the development writer as a sales system would make them. On
// SQLite by default, on PostgreSQL under `npm run test:e2e:postgres`.

const KEY = 'sk_test_sync_read_a';
const OTHER_KEY = 'sk_test_sync_read_b';
const LAG = 1;
const itOnPostgres = onPostgres ? it : it.skip;

type Item = { id: string } & Record<string, unknown>;
type Change = {
  object: string;
  id: string;
  type: string;
  resource_id: string;
  resource_url: string;
  created_at: number;
};

describe('incremental sync and the change feed over HTTP', () => {
  let database: TestDatabase;
  let t: TestApp;
  let get: Get;
  let getOther: Get;
  let db: Connection;
  let writer: ActivityWriter;
  let orderIds: number[];
  let ticketIds: number[];
  let otherOrderId: number;

  beforeAll(async () => {
    database = await durableTestDatabase();
    t = await createTestApp({
      DATABASE_URL: database.url,
      SYNC_LAG_S: String(LAG),
      RATE_LIMIT_MAX: '1000000',
    });
    const f = new Factory(t.dataSource);
    const a = await f.boxOffice('A');
    const b = await f.boxOffice('B');
    await f.apiKey(a.id, KEY);
    await f.apiKey(b.id, OTHER_KEY);
    const event = await f.event(a.id);
    await f.ticketType(event.id);
    const orders = await f.orders(
      a.id,
      event.id,
      Array.from({ length: 9 }, (_, i) => ({
        createdAt: 1_750_000_000 + i * 60,
      })),
    );
    orderIds = orders.map((o) => o.id);
    ticketIds = orders.flatMap((o) => o.issuedTickets!.map((it) => it.id));
    [{ id: otherOrderId }] = await f.orders(b.id, (await f.event(b.id)).id, [
      { createdAt: 1_750_000_030 },
    ]);
    get = getAs(t.server, KEY);
    getOther = getAs(t.server, OTHER_KEY);
    db = await connect(database.url);
    writer = new ActivityWriter(db, LAG);
  });

  afterAll(async () => {
    await db?.close();
    await t?.close();
    await database?.drop();
  });

  const pastHorizon = (stamp: number) => waitForWatermark(get, stamp);

  it('every response of the sync lists carries X-Sync-Watermark, below the response’s Date', async () => {
    for (const path of [
      '/v1/orders',
      '/v1/orders?sort=updated_at',
      '/v1/issued_tickets?sort=-updated_at',
      '/v1/issued_tickets?updated_at.gte=0',
    ]) {
      const res = await get(path);
      expect(res.status).toBe(200);
      const watermark = Number(res.headers['x-sync-watermark']);
      expect(Number.isInteger(watermark)).toBe(true);
      expect(watermark * 1000).toBeLessThanOrEqual(
        Date.parse(res.headers.date as string),
      );
    }
    expect(
      (await get('/v1/events')).headers['x-sync-watermark'],
    ).toBeUndefined();
  });

  it('orders carry updated_at: never before created_at nor before any of their tickets', async () => {
    const { data } = (await get('/v1/orders')).body as ListBody<Item>;
    for (const order of data) {
      const tickets = order.issued_tickets as { updated_at: number }[];
      expect(order.updated_at).toBeGreaterThanOrEqual(
        order.created_at as number,
      );
      for (const ticket of tickets) {
        expect(order.updated_at).toBeGreaterThanOrEqual(ticket.updated_at);
      }
    }
  });

  it('the recipe: a void moves its ticket and order, which the next run reads, and the feed tells', async () => {
    // First run: walk everything in updated_at order, keep the largest updated_at seen.
    const first = await walk<Item>(
      get,
      '/v1/orders?sort=updated_at&limit=4',
      'next',
    );
    const kept = Math.max(
      ...first.flatMap((p) => p.data.map((o) => o.updated_at as number)),
    );
    const head = (await get('/v1/changes')).headers['x-change-head'] as string;

    const [printed] = await writer.voidTicket(`it_${ticketIds[3]}`);
    await pastHorizon(printed.stamp);

    const orders = idsOf(
      await walk<Item>(
        get,
        `/v1/orders?sort=updated_at&updated_at.gte=${kept}&limit=4`,
        'next',
      ),
    );
    expect(orders).toContain(`or_${orderIds[1]}`);
    const tickets = (
      await get(`/v1/issued_tickets?sort=updated_at&updated_at.gte=${kept}`)
    ).body as ListBody<Item>;
    const voided = tickets.data.find((it) => it.id === `it_${ticketIds[3]}`)!;
    expect(voided).toMatchObject({ status: 'void', updated_at: printed.stamp });

    const feed = (await get(`/v1/changes?starting_after=${head}`))
      .body as ListBody<Change>;
    expect(feed.data).toEqual([
      {
        object: 'change',
        id: expect.stringMatching(/^chg_[1-9]\d*$/) as string,
        type: 'ISSUED_TICKET.UPDATED',
        resource_id: `it_${ticketIds[3]}`,
        resource_url: `/v1/issued_tickets/it_${ticketIds[3]}`,
        created_at: printed.stamp,
      },
    ]);
  });

  it('holds a fresh change back in sync mode until the horizon passes it, never in the default order', async () => {
    const [printed] = await writer.cancelOrder(`or_${orderIds[5]}`);
    const id = `or_${orderIds[5]}`;
    const res = await get('/v1/orders?sort=updated_at');
    const watermark = Number(res.headers['x-sync-watermark']);
    if (watermark < printed.stamp) {
      expect(idsOf(res.body as ListBody<Item>)).not.toContain(id);
      const filtered = await get(`/v1/orders?updated_at.gte=${printed.stamp}`);
      expect(idsOf(filtered.body as ListBody<Item>)).not.toContain(id);
    }
    // The default newest-first list holds nothing back.
    expect(idsOf((await get('/v1/orders')).body as ListBody<Item>)).toContain(
      id,
    );
    await pastHorizon(printed.stamp);
    const later = await get('/v1/orders?sort=updated_at');
    expect(idsOf(later.body as ListBody<Item>)).toContain(id);
  });

  it('a change made now to an order written ahead of the clock reaches the next run of the recipe, none of its times ahead', async () => {
    const id = orderIds[6];
    const [valid, voided] = [ticketIds[12], ticketIds[13]];
    // History as a seeder wrote it before its dates were capped: a ticket voided, and so its
    // order updated, 19 hours from now.
    const ahead = (await writer.clock()) + 19 * 3600;
    await inImportMode(t.dataSource.manager, async (manager) => {
      await manager.query(
        `UPDATE issued_tickets SET status = 'void', voided_at = ${ahead}, updated_at = ${ahead}
          WHERE id = ${voided}`,
      );
      await manager.query(
        `UPDATE orders SET updated_at = ${ahead} WHERE id = ${id}`,
      );
    });
    const first = idsOf(
      await walk<Item>(get, '/v1/orders?sort=updated_at&limit=4', 'next'),
    );
    expect(first).not.toContain(`or_${id}`);
    const kept = Math.max(
      ...(
        await walk<Item>(get, '/v1/orders?sort=updated_at&limit=4', 'next')
      ).flatMap((p) => p.data.map((o) => o.updated_at as number)),
    );

    const printed = await writer.cancelOrder(`or_${id}`);
    const stamp = printed[0].stamp;
    await pastHorizon(stamp);
    const next = (
      await walk<Item>(
        get,
        `/v1/orders?sort=updated_at&updated_at.gte=${kept}&limit=4`,
        'next',
      )
    ).flatMap((p) => p.data);
    const order = next.find((o) => o.id === `or_${id}`)!;
    expect(order).toMatchObject({ status: 'cancelled', updated_at: stamp });
    const now = await writer.clock();
    expect(order.created_at as number).toBeLessThanOrEqual(stamp);
    const tickets = order.issued_tickets as Item[];
    expect(tickets.map((it) => it.id).sort()).toEqual(
      [`it_${valid}`, `it_${voided}`].sort(),
    );
    for (const ticket of tickets) {
      expect(ticket.status).toBe('void');
      expect(ticket.updated_at as number).toBeLessThanOrEqual(stamp);
      expect(ticket.voided_at as number).toBeLessThanOrEqual(now);
    }
    const ticketRun = idsOf(
      (
        await get(
          `/v1/issued_tickets?sort=updated_at&updated_at.gte=${kept}&limit=100`,
        )
      ).body as ListBody<Item>,
    );
    expect(ticketRun).toEqual(
      expect.arrayContaining([`it_${valid}`, `it_${voided}`]),
    );
  });

  it('the feed: oldest first, links.next past the last entry or the same position, filters, X-Change-Head', async () => {
    await writer.refundOrder(`or_${orderIds[7]}`, 100);
    const all = await get('/v1/changes?limit=100');
    expect(all.status).toBe(200);
    const entries = (all.body as ListBody<Change>).data;
    const numbers = entries.map((c) => Number(c.id.slice(4)));
    expect(numbers).toEqual(numbers.map((_, i) => numbers[0] + i));
    const last = entries[entries.length - 1].id;
    expect(all.headers['x-change-head']).toBe(last);
    expect((all.body as ListBody<Change>).links).toEqual({
      next: `/v1/changes?starting_after=${last}&limit=100`,
      previous: null,
    });
    // An empty page keeps the position.
    const empty = await get(`/v1/changes?starting_after=${last}&type=ORDER.*`);
    expect(empty.body).toEqual({
      data: [],
      links: {
        next: `/v1/changes?starting_after=${last}&type=ORDER.*`,
        previous: null,
      },
    });
    // From the start.
    expect((await get('/v1/changes?limit=1')).body).toMatchObject({
      links: { next: `/v1/changes?starting_after=${entries[0].id}&limit=1` },
    });
    // Filters.
    const orders = (await get('/v1/changes?type=ORDER.*'))
      .body as ListBody<Change>;
    expect(orders.data.map((c) => c.type)).toEqual(
      entries.filter((c) => c.type.startsWith('ORDER.')).map((c) => c.type),
    );
    const one = (await get(`/v1/changes?resource_id=or_${orderIds[7]}`))
      .body as ListBody<Change>;
    expect(one.data.map((c) => c.resource_id)).toEqual([`or_${orderIds[7]}`]);
    expect(one.data[0].resource_url).toBe(`/v1/orders/or_${orderIds[7]}`);
  });

  it('another box office’s feed is its own: its entries, numbered from 1, and its head', async () => {
    const res = await getOther('/v1/changes');
    expect(res.status).toBe(200);
    const { data } = res.body as ListBody<Change>;
    // Its event, made with a series of its own.
    expect(data.map((c) => [c.id, c.type])).toEqual([
      ['chg_1', 'EVENT_SERIES.CREATED'],
      ['chg_2', 'EVENT.CREATED'],
    ]);
    expect(res.headers['x-change-head']).toBe('chg_2');
    const mine = ((await get('/v1/changes')).body as ListBody<Change>).data;
    for (const theirs of data) {
      expect(mine.map((c) => c.resource_id)).not.toContain(theirs.resource_id);
    }
  });

  it.each([
    [
      'chg_x',
      'starting_after must be the id of a change of this box office (chg_<number>)',
    ],
    [
      'or_1',
      'starting_after must be the id of a change of this box office (chg_<number>)',
    ],
    [
      'chg_01',
      'starting_after must be the id of a change of this box office (chg_<number>)',
    ],
  ])('refuses starting_after=%s as INVALID_CURSOR', async (cursor, message) => {
    const res = await get(`/v1/changes?starting_after=${cursor}`);
    expect(res.status).toBe(400);
    expect(res.body).toEqual(errorBody(400, 'INVALID_CURSOR', message));
  });

  it('refuses a position past the head, and unknown parameters and types, each answer with the head', async () => {
    const head = (await get('/v1/changes')).headers['x-change-head'] as string;
    const past = `chg_${Number(head.slice(4)) + 5}`;
    const res = await get(`/v1/changes?starting_after=${past}`);
    expect(res.body).toEqual(
      errorBody(
        400,
        'INVALID_CURSOR',
        `starting_after must be a position of this box office's feed, chg_0 to ${head} (X-Change-Head)`,
      ),
    );
    expect(res.headers['x-change-head']).toBe(head);
    const before = await get('/v1/changes?ending_before=chg_1');
    expect(before.status).toBe(400);
    expect(before.headers['x-change-head']).toBe(head);
    const badType = await get('/v1/changes?type=ORDER.VOIDED');
    expect(badType.status).toBe(400);
    expect(badType.headers['x-change-head']).toBe(head);
    expect(badType.body).toEqual(
      errorBody(
        400,
        'VALIDATION_ERROR',
        expect.stringContaining('type must be a change type') as string,
      ),
    );
    expect((await get('/v1/changes?resource_id=xx_1')).status).toBe(400);
  });

  it('a poller following links.next while a writer writes gets every entry once, in order, and no page goes past its X-Change-Head', async () => {
    const headOf = (res: { headers: Record<string, unknown> }) =>
      Number((res.headers['x-change-head'] as string).slice(4));
    // What the feed's order of reads (the head, then the page up to it) guarantees, checked on
    // a live feed. The race it closes (an entry committed between the two reads) cannot be
    // forced from here; the entries' contiguity and the bound can.
    const start = headOf(await get('/v1/changes?limit=1'));
    let writing = true;
    const writes = (async () => {
      for (let i = 0; i < 12; i++) {
        await writer.refundOrder(`or_${orderIds[i % 6]}`, 1);
      }
      writing = false;
    })();
    const received: number[] = [];
    let heads: number[] = [];
    let next = `/v1/changes?starting_after=chg_${start}&limit=2`;
    for (let polls = 0; polls < 500; polls++) {
      const done = !writing;
      const res = await get(next);
      expect(res.status).toBe(200);
      const body = res.body as ListBody<Change>;
      const ids = body.data.map((c) => Number(c.id.slice(4)));
      const head = headOf(res);
      for (const id of ids) expect(id).toBeLessThanOrEqual(head);
      received.push(...ids);
      heads = [...heads, head];
      next = body.links.next!;
      // The writer had finished before this poll was sent, and the poll found nothing more.
      if (done && ids.length === 0) break;
    }
    await writes;
    const end = headOf(await get('/v1/changes?limit=1'));
    expect(end).toBeGreaterThanOrEqual(start + 12);
    expect(received).toEqual(
      Array.from({ length: end - start }, (_, i) => start + 1 + i),
    );
    expect(heads).toEqual([...heads].sort((a, b) => a - b));
  });

  it('answers 410 CURSOR_EXPIRED for a position older than the feed keeps, never a shorter feed', async () => {
    const head = Number(
      ((await get('/v1/changes')).headers['x-change-head'] as string).slice(4),
    );
    await writer.refundOrder(`or_${orderIds[8]}`, 50);
    // A poll numbers the refund's entry (on PostgreSQL entries are numbered after their commit).
    await get('/v1/changes');
    // Everything up to now expires.
    const removed = await deleteExpiredChanges(
      t.dataSource,
      Number.MAX_SAFE_INTEGER,
    );
    expect(removed).toBeGreaterThan(0);
    const newest = (await get('/v1/changes')).headers[
      'x-change-head'
    ] as string;
    const res = await get('/v1/changes?starting_after=chg_0');
    expect(res.status).toBe(410);
    expect(res.body).toEqual(
      errorBody(
        410,
        'CURSOR_EXPIRED',
        `starting_after chg_0 is older than the feed keeps (positions ${newest} and later): read the lists again, then follow the feed from X-Change-Head`,
      ),
    );
    // The 410 names where to follow from, and carries it.
    expect(res.headers['x-change-head']).toBe(newest);
    expect((await get(`/v1/changes?starting_after=chg_${head}`)).status).toBe(
      410,
    );
    // Without a position, the empty page read every entry kept: its next is the head, not the
    // start (which would be a 410 for a poller that missed nothing).
    const start = await get('/v1/changes?limit=5');
    expect(start.body).toEqual({
      data: [],
      links: {
        next: `/v1/changes?starting_after=${newest}&limit=5`,
        previous: null,
      },
    });
    // The head itself is still a position: nothing after it was lost.
    const fromHead = await get(`/v1/changes?starting_after=${newest}`);
    expect(fromHead.status).toBe(200);
  });

  // docs/DESIGN.md, "The stamp and the sync horizon": a box office's horizon counts only its own
  // open transactions. (On SQLite writers are serialised: there is no other open transaction.)
  itOnPostgres(
    'another box office’s open write transaction neither holds back this one’s watermark nor its rows; its own does',
    async () => {
      const open = await connect(database.url);
      try {
        await open.begin();
        await open.query(
          sql`UPDATE orders SET status_message = ${'held open'} WHERE id = ${orderIds[2]}`,
        );
        const [held] = await open.query<{ updated_at: unknown }>(
          sql`SELECT updated_at FROM orders WHERE id = ${orderIds[2]}`,
        );
        const heldStamp = Number(held.updated_at);
        // Long enough that the clock alone would put the horizon past the held stamp.
        await sleep(2200);
        const printed = await writer.cancelOrder(`or_${otherOrderId}`);
        const stamp = printed[0].stamp;
        expect(stamp).toBeGreaterThan(heldStamp);
        await waitForWatermark(getOther, stamp);
        const theirs = await getOther(
          `/v1/orders?sort=updated_at&updated_at.gte=${stamp}`,
        );
        expect(idsOf(theirs.body as ListBody<Item>)).toEqual([
          `or_${otherOrderId}`,
        ]);
        // Its watermark follows the clock (a second behind), not the other tenant's writer.
        const watermark = Number(theirs.headers['x-sync-watermark']);
        expect(watermark).toBeGreaterThanOrEqual(
          Math.floor(Date.parse(theirs.headers.date as string) / 1000) - 2,
        );
        // The box office whose transaction is open stays below its stamp.
        const mine = await get('/v1/orders?sort=updated_at&limit=1');
        expect(Number(mine.headers['x-sync-watermark'])).toBeLessThan(
          heldStamp,
        );
      } finally {
        await open.rollback();
        await open.close();
      }
    },
    30_000,
  );
});
