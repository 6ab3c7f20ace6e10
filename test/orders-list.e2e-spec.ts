import fc from 'fast-check';
import type { Order } from '../src/orders/entities/order.entity';
import {
  Get,
  ListBody,
  errorBody,
  getAs,
  idsOf,
  listAll,
  newestFirst,
  walk,
} from './utils/api';
import { TestApp, createTestApp } from './utils/create-test-app';
import { Factory } from './utils/factories';
import { expectWellFormedOrder } from './utils/order-shape';

// Contract §3: GET /v1/orders.

const KEY = 'sk_test_list_a';
const OTHER_KEY = 'sk_test_list_b';
const BASE = 1_750_000_000;
const COUNT = 130;
const STATUSES = [
  'completed',
  'completed',
  'pending',
  'cancelled',
  'completed',
] as const;

/** What the oracle knows of each order. */
interface Known {
  id: string;
  num: number;
  createdAt: number;
  eventId: string;
  status: string;
  email: string;
  txnId: string | null;
  barcodes: string[];
}

const known = (o: Order): Known => ({
  id: `or_${o.id}`,
  num: o.id,
  createdAt: o.createdAt,
  eventId: `ev_${o.eventId}`,
  status: o.status,
  email: o.buyerEmail,
  txnId: o.txnId,
  barcodes: (o.issuedTickets ?? []).map((t) => t.barcode),
});

describe('GET /v1/orders (contract §3)', () => {
  let t: TestApp;
  let f: Factory;
  let get: Get;
  /** Box office A's orders, newest first: the oracle. */
  let all: Known[];
  let ids: string[];
  let eventIds: string[];
  let otherBoxOfficeOrderIds: string[];

  const expected = (keep: (o: Known) => boolean) =>
    all.filter(keep).map((o) => o.id);

  beforeAll(async () => {
    t = await createTestApp({ RATE_LIMIT_MAX: '1000000' });
    f = new Factory(t.dataSource);
    const a = await f.boxOffice('A');
    const b = await f.boxOffice('B');
    await f.apiKey(a.id, KEY);
    await f.apiKey(b.id, OTHER_KEY);
    const events = [
      await f.event(a.id),
      await f.event(a.id, { name: 'Second' }),
      await f.event(a.id, { name: 'Third' }),
    ];
    eventIds = events.map((e) => `ev_${e.id}`);
    const bEvent = await f.event(b.id);

    // 20 distinct created_at values, ~6–7 orders each, spread so that ids and created_at do not
    // rise together: ties and the id tie-break matter on every page.
    const saved: Order[] = [];
    for (const [index, event] of events.entries()) {
      const overrides = [];
      for (let i = index; i < COUNT; i += events.length) {
        overrides.push({
          createdAt: BASE + ((i * 37) % 20) * 100,
          status: STATUSES[i % STATUSES.length],
          buyerEmail:
            i % 4 === 0
              ? i % 8 === 0
                ? 'Alice@Example.com'
                : 'ALICE@example.COM'
              : `buyer${i}@example.com`,
          buyerEmailLookup:
            i % 4 === 0 ? 'alice@example.com' : `buyer${i}@example.com`,
          txnId:
            i % 10 === 0
              ? null
              : i === 6 || i === 7
                ? 'txn_shared'
                : `txn_${i}`,
        });
      }
      saved.push(...(await f.orders(a.id, event.id, overrides)));
    }
    all = saved
      .map(known)
      .sort((x, y) =>
        newestFirst(
          { id: x.num, createdAt: x.createdAt },
          { id: y.num, createdAt: y.createdAt },
        ),
      );
    ids = all.map((o) => o.id);

    // Box office B's orders sit between A's in time; A must never see them.
    const bOrders = await f.orders(b.id, bEvent.id, [
      { createdAt: BASE + 550 },
      { createdAt: BASE + 1000 },
      { createdAt: BASE + 5000 },
    ]);
    otherBoxOfficeOrderIds = bOrders.map((o) => `or_${o.id}`);
    get = getAs(t.server, KEY);
  });

  afterAll(() => t.close());

  describe('order and default page', () => {
    it('serves the first 100 orders newest first, ties broken by id descending', async () => {
      const res = await get('/v1/orders');
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        data: expect.any(Array),
        links: {
          next: `/v1/orders?starting_after=${ids[99]}`,
          previous: null,
        },
      });
      expect(idsOf(res.body as ListBody)).toEqual(ids.slice(0, 100));
      // The oracle really has ties to break.
      expect(new Set(all.map((o) => o.createdAt)).size).toBe(20);
    });

    it('serves well-formed orders (every field of spec 2.1–2.6, invariants of §5)', async () => {
      const res = await get('/v1/orders?limit=10');
      expect(res.status).toBe(200);
      expect(res.body.data).toHaveLength(10);
      for (const order of res.body.data) expectWellFormedOrder(order);
    });

    it('serves the remaining orders on the next page', async () => {
      const res = await get(`/v1/orders?starting_after=${ids[99]}`);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        data: expect.any(Array),
        links: { next: null, previous: `/v1/orders?ending_before=${ids[100]}` },
      });
      expect(idsOf(res.body as ListBody)).toEqual(ids.slice(100));
    });

    it('never lists another box office’s orders', async () => {
      const listed = await listAll(get, 'limit=100');
      expect(listed).toEqual(ids);
      for (const id of otherBoxOfficeOrderIds) expect(listed).not.toContain(id);
    });

    it('answers /v1/orders/ exactly as /v1/orders', async () => {
      const plain = await get(
        '/v1/orders?limit=5&created_at.gte=' + (BASE + 300),
      );
      const slash = await get(
        '/v1/orders/?limit=5&created_at.gte=' + (BASE + 300),
      );
      expect(slash.status).toBe(200);
      expect(slash.body).toEqual(plain.body);
      expect(plain.body.links.next).toMatch(/^\/v1\/orders\?starting_after=/);
    });
  });

  describe('limit', () => {
    it.each([1, 2, 37, 100])(
      'limit=%i gives that many orders',
      async (limit) => {
        const res = await get(`/v1/orders?limit=${limit}`);
        expect(res.status).toBe(200);
        expect(idsOf(res.body as ListBody)).toEqual(ids.slice(0, limit));
        expect(res.body.links).toEqual({
          next: `/v1/orders?starting_after=${ids[limit - 1]}&limit=${limit}`,
          previous: null,
        });
      },
    );

    it.each([
      ['0', 'limit=0'],
      ['101', 'limit=101'],
      ['-1', 'limit=-1'],
      ['abc', 'limit=abc'],
      ['1.5', 'limit=1.5'],
      ['empty', 'limit='],
      ['repeated', 'limit=1&limit=2'],
      ['hex', 'limit=0x10'],
      ['exponent', 'limit=1e1'],
      ['leading space', 'limit=%201'],
      ['trailing space', 'limit=1%20'],
      ['plus sign', 'limit=%2B1'],
      ['huge', 'limit=99999999999999999999'],
    ])(
      'rejects limit %s with 400 VALIDATION_ERROR naming limit',
      async (_, query) => {
        const res = await get(`/v1/orders?${query}`);
        expect(res.status).toBe(400);
        expect(res.headers['content-type']).toMatch(/^application\/json/);
        expect(res.body).toEqual(
          errorBody(400, 'VALIDATION_ERROR', expect.stringContaining('limit')),
        );
      },
    );

    it('says what limit must be', async () => {
      const res = await get('/v1/orders?limit=0');
      expect(res.body).toEqual(
        errorBody(
          400,
          'VALIDATION_ERROR',
          'limit must be an integer from 1 to 100',
        ),
      );
    });
  });

  describe('created_at filters', () => {
    // A value that some orders have, and one that none has.
    const present = BASE + 1000;
    const absent = BASE + 1050;
    const ops: [string, (a: number, b: number) => boolean][] = [
      ['created_at', (a, b) => a === b],
      ['created_at.gt', (a, b) => a > b],
      ['created_at.gte', (a, b) => a >= b],
      ['created_at.lt', (a, b) => a < b],
      ['created_at.lte', (a, b) => a <= b],
    ];
    const cases = ops.flatMap(([key, op]) => [
      [key, present, op] as const,
      [key, absent, op] as const,
    ]);

    it.each(cases)(
      '%s=%i matches the oracle, across pages',
      async (key, value, op) => {
        const want = expected((o) => op(o.createdAt, value));
        const got = await listAll(get, `${key}=${value}&limit=7`);
        expect(got).toEqual(want);
        if (key === 'created_at' && value === present)
          expect(want.length).toBeGreaterThan(0);
      },
    );

    it('takes values far outside the data (negative, 16 digits) on every database', async () => {
      expect(await listAll(get, 'created_at.lt=-1')).toEqual([]);
      expect(await listAll(get, 'created_at.gte=9999999999999999')).toEqual([]);
      expect(
        await listAll(get, 'created_at.lte=9999999999999999&limit=100'),
      ).toEqual(ids);
      expect(
        await listAll(get, 'created_at.gt=-9999999999999999&limit=100'),
      ).toEqual(ids);
    });

    it('combines filters with AND', async () => {
      const low = BASE + 300;
      const high = BASE + 1500;
      expect(
        await listAll(
          get,
          `created_at.gte=${low}&created_at.lt=${high}&limit=4`,
        ),
      ).toEqual(expected((o) => o.createdAt >= low && o.createdAt < high));
      expect(
        await listAll(
          get,
          `created_at.gt=${low}&created_at.lte=${high}&limit=4`,
        ),
      ).toEqual(expected((o) => o.createdAt > low && o.createdAt <= high));
      expect(
        await listAll(get, `created_at=${present}&created_at.lt=${present}`),
      ).toEqual([]);
    });

    it('keeps filters when starting from a cursor, both ways', async () => {
      const low = BASE + 300;
      const high = BASE + 1500;
      const want = expected((o) => o.createdAt >= low && o.createdAt < high);
      const cursor = want[5];
      const after = await get(
        `/v1/orders?starting_after=${cursor}&created_at.gte=${low}&created_at.lt=${high}&limit=3`,
      );
      expect(after.status).toBe(200);
      expect(after.body).toEqual({
        data: expect.any(Array),
        links: {
          next: `/v1/orders?starting_after=${want[8]}&created_at.gte=${low}&created_at.lt=${high}&limit=3`,
          previous: `/v1/orders?ending_before=${want[6]}&created_at.gte=${low}&created_at.lt=${high}&limit=3`,
        },
      });
      expect(idsOf(after.body as ListBody)).toEqual(want.slice(6, 9));

      const before = await get(
        `/v1/orders?ending_before=${cursor}&created_at.gte=${low}&created_at.lt=${high}&limit=3`,
      );
      expect(before.status).toBe(200);
      expect(idsOf(before.body as ListBody)).toEqual(want.slice(2, 5));
      expect(before.body.links).toEqual({
        next: `/v1/orders?starting_after=${want[4]}&created_at.gte=${low}&created_at.lt=${high}&limit=3`,
        previous: `/v1/orders?ending_before=${want[2]}&created_at.gte=${low}&created_at.lt=${high}&limit=3`,
      });
    });

    it('takes a cursor order that the filters exclude as a position', async () => {
      const cut = BASE + 1000;
      const cursor = all.find((o) => o.createdAt === cut + 100)!;
      // Newer than every match: starting after it gives the matches from the top.
      const after = await get(
        `/v1/orders?starting_after=${cursor.id}&created_at.lte=${cut}&limit=100`,
      );
      expect(after.status).toBe(200);
      expect(after.body).toEqual({
        data: expect.any(Array),
        links: { next: null, previous: null },
      });
      expect(idsOf(after.body as ListBody)).toEqual(
        expected((o) => o.createdAt <= cut),
      );

      // Ending before an excluded order in the middle of the list.
      const middle = all.find((o) => o.createdAt === cut)!;
      const lowCut = BASE + 1500;
      const want = all
        .slice(0, ids.indexOf(middle.id))
        .filter((o) => o.createdAt >= lowCut)
        .map((o) => o.id);
      const before = await get(
        `/v1/orders?ending_before=${middle.id}&created_at.gte=${lowCut}&limit=100`,
      );
      expect(before.status).toBe(200);
      expect(idsOf(before.body as ListBody)).toEqual(want);
      expect(before.body.links).toEqual({ next: null, previous: null });
    });

    it('takes a cursor order that the other filters exclude as a position too', async () => {
      const cursorIndex = 40;
      const cursor = all[cursorIndex];
      const other = cursor.status === 'pending' ? 'completed' : 'pending';
      const want = all
        .slice(cursorIndex + 1)
        .filter((o) => o.status === other)
        .map((o) => o.id);
      const res = await get(
        `/v1/orders?starting_after=${cursor.id}&status=${other}&limit=100`,
      );
      expect(res.status).toBe(200);
      expect(idsOf(res.body as ListBody)).toEqual(want);
      expect(res.body.links).toEqual({
        next: null,
        previous: `/v1/orders?ending_before=${want[0]}&status=${other}&limit=100`,
      });
    });

    it.each([
      ['created_at=abc', 'created_at'],
      ['created_at=', 'created_at'],
      ['created_at=1.5', 'created_at'],
      ['created_at.gt=1e9', 'created_at.gt'],
      ['created_at.gte=0x10', 'created_at.gte'],
      ['created_at.lt=%201750000000', 'created_at.lt'],
      ['created_at.lte=2026-01-01', 'created_at.lte'],
      ['created_at=1&created_at=2', 'created_at'],
      ['created_at.gt=1&created_at.gt=1', 'created_at.gt'],
      ['created_at.lte=1&created_at.lte=2', 'created_at.lte'],
    ])('rejects %s with 400 naming %s', async (query, name) => {
      const res = await get(`/v1/orders?${query}`);
      expect(res.status).toBe(400);
      expect(res.body).toEqual(
        errorBody(400, 'VALIDATION_ERROR', expect.stringContaining(name)),
      );
    });
  });

  describe('Ticket Tailor filters', () => {
    it('event_id: one id', async () => {
      const want = expected((o) => o.eventId === eventIds[1]);
      expect(want.length).toBeGreaterThan(0);
      expect(await listAll(get, `event_id=${eventIds[1]}&limit=20`)).toEqual(
        want,
      );
    });

    it('event_id: a comma list', async () => {
      const pick = [eventIds[0], eventIds[2]];
      const want = expected((o) => pick.includes(o.eventId));
      expect(await listAll(get, `event_id=${pick.join(',')}&limit=30`)).toEqual(
        want,
      );
      // Order does not matter, duplicates neither.
      expect(
        await listAll(
          get,
          `event_id=${[...pick].reverse().join(',')},${pick[0]}&limit=100`,
        ),
      ).toEqual(want);
    });

    it('event_id: an event with no orders of this box office gives an empty page', async () => {
      const res = await get('/v1/orders?event_id=ev_999999');
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        data: [],
        links: { next: null, previous: null },
      });
    });

    it.each(['completed', 'pending', 'cancelled'])(
      'status=%s',
      async (status) => {
        const want = expected((o) => o.status === status);
        expect(want.length).toBeGreaterThan(0);
        expect(await listAll(get, `status=${status}&limit=30`)).toEqual(want);
      },
    );

    it('status=canceled is cancelled, and its links keep the caller’s spelling', async () => {
      const want = expected((o) => o.status === 'cancelled');
      const first = await get('/v1/orders?status=canceled&limit=5');
      expect(first.status).toBe(200);
      expect(first.body.links).toEqual({
        next: `/v1/orders?starting_after=${want[4]}&status=canceled&limit=5`,
        previous: null,
      });
      expect(await listAll(get, 'status=canceled&limit=5')).toEqual(want);
    });

    it('email: exact and case-insensitive', async () => {
      const want = expected(
        (o) => o.email.toLowerCase() === 'alice@example.com',
      );
      expect(want.length).toBeGreaterThan(0);
      expect(await listAll(get, 'email=alice@example.com&limit=10')).toEqual(
        want,
      );
      expect(await listAll(get, 'email=ALICE%40EXAMPLE.COM&limit=10')).toEqual(
        want,
      );
      // Exact: neither a prefix nor a substring matches.
      expect(await listAll(get, 'email=alice@example.co')).toEqual([]);
      expect(await listAll(get, 'email=lice@example.com')).toEqual([]);
      expect(await listAll(get, 'email=buyer1@example.com')).toEqual(
        expected((o) => o.email === 'buyer1@example.com'),
      );
    });

    it('email: links keep the address, encoded', async () => {
      const want = expected(
        (o) => o.email.toLowerCase() === 'alice@example.com',
      );
      const res = await get('/v1/orders?email=Alice%40Example.com&limit=3');
      expect(res.body.links).toEqual({
        next: `/v1/orders?starting_after=${want[2]}&email=Alice%40Example.com&limit=3`,
        previous: null,
      });
    });

    it('txn_id: exact', async () => {
      expect(await listAll(get, 'txn_id=txn_shared')).toEqual(
        expected((o) => o.txnId === 'txn_shared'),
      );
      expect(expected((o) => o.txnId === 'txn_shared')).toHaveLength(2);
      expect(await listAll(get, 'txn_id=txn_13')).toEqual(
        expected((o) => o.txnId === 'txn_13'),
      );
      expect(await listAll(get, 'txn_id=txn_1')).toEqual(
        expected((o) => o.txnId === 'txn_1'),
      );
      expect(await listAll(get, 'txn_id=TXN_13')).toEqual([]);
    });

    it('barcode: the order holding a ticket with that barcode', async () => {
      const holder = all[17];
      expect(await listAll(get, `barcode=${holder.barcodes[1]}`)).toEqual([
        holder.id,
      ]);
      expect(await listAll(get, 'barcode=NO_SUCH_BARCODE')).toEqual([]);
    });

    it('combines every filter with AND', async () => {
      const low = BASE + 500;
      const want = expected(
        (o) =>
          o.eventId === eventIds[0] &&
          o.status === 'completed' &&
          o.email.toLowerCase() === 'alice@example.com' &&
          o.createdAt >= low,
      );
      expect(want.length).toBeGreaterThan(0);
      expect(
        await listAll(
          get,
          `event_id=${eventIds[0]}&status=completed&email=alice@example.com&created_at.gte=${low}&limit=2`,
        ),
      ).toEqual(want);
    });

    it.each([
      ['event_id=1', 'event_id'],
      ['event_id=ev_0', 'event_id'],
      ['event_id=ev_01', 'event_id'],
      ['event_id=ev_abc', 'event_id'],
      ['event_id=or_1', 'event_id'],
      ['event_id=ev_1,', 'event_id'],
      ['event_id=ev_1,,ev_2', 'event_id'],
      ['event_id=ev_1%20,ev_2', 'event_id'],
      ['event_id=', 'event_id'],
      ['event_id=ev_1&event_id=ev_2', 'event_id'],
      ['status=done', 'status'],
      ['status=Completed', 'status'],
      ['status=', 'status'],
      ['status=completed&status=pending', 'status'],
      ['email=', 'email'],
      ['email=a@example.com&email=b@example.com', 'email'],
      ['txn_id=', 'txn_id'],
      ['txn_id=a&txn_id=b', 'txn_id'],
      ['barcode=', 'barcode'],
      [`barcode=${'X'.repeat(65)}`, 'barcode'],
      ['barcode=a&barcode=b', 'barcode'],
    ])('rejects %s with 400 naming %s', async (query, name) => {
      const res = await get(`/v1/orders?${query}`);
      expect(res.status).toBe(400);
      expect(res.body).toEqual(
        errorBody(400, 'VALIDATION_ERROR', expect.stringContaining(name)),
      );
    });

    it('event_id: an id no row can have (past 32 bits) matches nothing, on every database', async () => {
      const res = await get('/v1/orders?event_id=ev_9999999999');
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        data: [],
        links: { next: null, previous: null },
      });
    });

    it.each([
      ['txn_id', `txn_id=${'t'.repeat(256)}`],
      ['email', `email=${'e'.repeat(310)}@example.com`],
    ])('rejects a %s that is too long', async (name, query) => {
      const res = await get(`/v1/orders?${query}`);
      expect(res.status).toBe(400);
      expect(res.body).toEqual(
        errorBody(400, 'VALIDATION_ERROR', expect.stringContaining(name)),
      );
    });

    it('email: case-insensitive beyond ASCII', async () => {
      const office = await f.boxOffice();
      await f.apiKey(office.id, 'sk_test_list_unicode');
      const event = await f.event(office.id);
      const [elodie] = await f.orders(office.id, event.id, [
        { buyerEmail: 'Élodie@Exemple.fr' },
        { buyerEmail: 'elodie@exemple.fr' },
      ]);
      const as = getAs(t.server, 'sk_test_list_unicode');
      for (const email of ['élodie@exemple.fr', 'ÉLODIE@EXEMPLE.FR']) {
        expect(await listAll(as, `email=${encodeURIComponent(email)}`)).toEqual(
          [`or_${elodie.id}`],
        );
      }
    });

    it('rejects an event_id list of more than 50 ids', async () => {
      const list = Array.from({ length: 51 }, (_, i) => `ev_${i + 1}`).join(
        ',',
      );
      const res = await get(`/v1/orders?event_id=${list}`);
      expect(res.status).toBe(400);
      expect(res.body).toEqual(
        errorBody(400, 'VALIDATION_ERROR', expect.stringContaining('event_id')),
      );
    });

    it('rejects an email filter that is not an e-mail address', async () => {
      const res = await get('/v1/orders?email=not-an-email');
      expect(res.status).toBe(400);
      expect(res.body).toEqual(
        errorBody(400, 'VALIDATION_ERROR', expect.stringContaining('email')),
      );
    });
  });

  describe('unknown parameters', () => {
    it.each([
      'created_at.gtt',
      'foo',
      '__proto__',
      'constructor',
      'hasOwnProperty',
      'toString',
      'Limit',
      'limit[]',
      'created_at[gt]',
      'page',
      'order_by',
    ])('rejects %s with 400 naming it', async (name) => {
      const res = await get(`/v1/orders?${encodeURIComponent(name)}=1`);
      expect(res.status).toBe(400);
      expect(res.body).toEqual(
        errorBody(400, 'VALIDATION_ERROR', expect.stringContaining(name)),
      );
    });

    it('rejects an unknown parameter even beside valid ones', async () => {
      const res = await get('/v1/orders?limit=2&created_at.gtt=1');
      expect(res.body).toEqual(
        errorBody(
          400,
          'VALIDATION_ERROR',
          expect.stringContaining('created_at.gtt'),
        ),
      );
    });
  });

  describe('links', () => {
    it('keeps the request’s other parameters after the cursor, in their order', async () => {
      const gte = BASE + 200;
      const want = expected((o) => o.createdAt >= gte);
      const res = await get(`/v1/orders?limit=2&created_at.gte=${gte}`);
      expect(res.body.links).toEqual({
        next: `/v1/orders?starting_after=${want[1]}&limit=2&created_at.gte=${gte}`,
        previous: null,
      });
    });

    it('writes links as /v1/orders whatever the spelling of the request path', async () => {
      for (const path of ['/v1/orders/', '/V1/ORDERS', '/v1/Orders']) {
        const res = await get(`${path}?limit=2`);
        expect(res.status).toBe(200);
        expect(res.body.links).toEqual({
          next: `/v1/orders?starting_after=${ids[1]}&limit=2`,
          previous: null,
        });
      }
    });

    it('replaces the request’s cursor rather than repeating it', async () => {
      const res = await get(`/v1/orders?starting_after=${ids[3]}&limit=2`);
      expect(res.body).toEqual({
        data: expect.any(Array),
        links: {
          next: `/v1/orders?starting_after=${ids[5]}&limit=2`,
          previous: `/v1/orders?ending_before=${ids[4]}&limit=2`,
        },
      });
      expect(idsOf(res.body as ListBody)).toEqual(ids.slice(4, 6));
    });

    it('has no parameters besides the cursor when the request had none', async () => {
      const res = await get(`/v1/orders?starting_after=${ids[0]}`);
      expect(res.body.links).toEqual({
        next: `/v1/orders?starting_after=${ids[100]}`,
        previous: `/v1/orders?ending_before=${ids[1]}`,
      });
      const back = await get(`/v1/orders?ending_before=${ids[120]}`);
      expect(back.body.links).toEqual({
        next: `/v1/orders?starting_after=${ids[119]}`,
        previous: `/v1/orders?ending_before=${ids[20]}`,
      });
      expect(idsOf(back.body as ListBody)).toEqual(ids.slice(20, 120));
    });

    it('ending_before gives the orders adjacent to the cursor, newest first', async () => {
      const res = await get(`/v1/orders?ending_before=${ids[10]}&limit=3`);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        data: expect.any(Array),
        links: {
          next: `/v1/orders?starting_after=${ids[9]}&limit=3`,
          previous: `/v1/orders?ending_before=${ids[7]}&limit=3`,
        },
      });
      expect(idsOf(res.body as ListBody)).toEqual(ids.slice(7, 10));
    });

    it('ending_before near the top gives a short page with previous null', async () => {
      const res = await get(`/v1/orders?ending_before=${ids[2]}&limit=5`);
      expect(idsOf(res.body as ListBody)).toEqual(ids.slice(0, 2));
      expect(res.body.links).toEqual({
        next: `/v1/orders?starting_after=${ids[1]}&limit=5`,
        previous: null,
      });
    });

    it('uses only ending_before when both cursors are given', async () => {
      const res = await get(
        `/v1/orders?starting_after=${ids[0]}&ending_before=${ids[10]}&limit=3`,
      );
      expect(res.status).toBe(200);
      expect(idsOf(res.body as ListBody)).toEqual(ids.slice(7, 10));
      expect(res.body.links).toEqual({
        next: `/v1/orders?starting_after=${ids[9]}&limit=3`,
        previous: `/v1/orders?ending_before=${ids[7]}&limit=3`,
      });
    });

    it('ignores starting_after entirely when ending_before is given, even a malformed one', async () => {
      const res = await get(
        `/v1/orders?starting_after=or_x&ending_before=${ids[10]}&limit=3`,
      );
      expect(res.status).toBe(200);
      expect(idsOf(res.body as ListBody)).toEqual(ids.slice(7, 10));
    });

    it('gives an empty page with both links null past the last order', async () => {
      const res = await get(`/v1/orders?starting_after=${ids[COUNT - 1]}`);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        data: [],
        links: { next: null, previous: null },
      });
    });

    it('gives an empty page with both links null before the first order', async () => {
      const res = await get(`/v1/orders?ending_before=${ids[0]}&limit=10`);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        data: [],
        links: { next: null, previous: null },
      });
    });

    it('gives an empty page with both links null when no order matches', async () => {
      const res = await get(`/v1/orders?created_at.gt=${BASE + 1900}`);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        data: [],
        links: { next: null, previous: null },
      });
    });

    it('has no next link when exactly the default 100 remain, and no previous when exactly 100 precede', async () => {
      const after = await get(`/v1/orders?starting_after=${ids[COUNT - 101]}`);
      expect(idsOf(after.body as ListBody)).toEqual(ids.slice(COUNT - 100));
      expect(after.body.links).toEqual({
        next: null,
        previous: `/v1/orders?ending_before=${ids[COUNT - 100]}`,
      });
      const before = await get(`/v1/orders?ending_before=${ids[100]}`);
      expect(idsOf(before.body as ListBody)).toEqual(ids.slice(0, 100));
      expect(before.body.links).toEqual({
        next: `/v1/orders?starting_after=${ids[99]}`,
        previous: null,
      });
    });

    it('ends with next null on a last page that is exactly full', async () => {
      const res = await get(
        `/v1/orders?starting_after=${ids[COUNT - 11]}&limit=10`,
      );
      expect(idsOf(res.body as ListBody)).toEqual(ids.slice(COUNT - 10));
      expect(res.body.links).toEqual({
        next: null,
        previous: `/v1/orders?ending_before=${ids[COUNT - 10]}&limit=10`,
      });
    });
  });

  describe('walking', () => {
    it('next from the first page visits every order once, in order; previous walks the same pages back', async () => {
      const forward = await walk(get, '/v1/orders?limit=3', 'next');
      expect(forward).toHaveLength(Math.ceil(COUNT / 3));
      expect(idsOf(forward)).toEqual(ids);
      for (const page of forward.slice(0, -1))
        expect(page.data).toHaveLength(3);
      expect(forward[0].links.previous).toBeNull();

      const last = forward[forward.length - 1];
      expect(last.links.next).toBeNull();
      const back = await walk(get, last.links.previous!, 'previous');
      expect(back.reverse()).toEqual(forward.slice(0, -1));
    });

    it('walks a filtered list the same way', async () => {
      const forward = await walk(
        get,
        `/v1/orders?status=completed&limit=4&created_at.lt=${BASE + 1700}`,
        'next',
      );
      const completed = expected(
        (o) => o.status === 'completed' && o.createdAt < BASE + 1700,
      );
      expect(idsOf(forward)).toEqual(completed);
      expect(forward.length).toBeGreaterThan(2);
      const back = await walk(
        get,
        forward[forward.length - 1].links.previous!,
        'previous',
      );
      expect(back.reverse()).toEqual(forward.slice(0, -1));
    });
  });

  describe('cursors', () => {
    const malformed = [
      ['or_abc', 'or_abc'],
      ['ev_1', 'ev_1'],
      ['or_0', 'or_0'],
      ['or_01', 'or_01'],
      ['or_-1', 'or_-1'],
      ['or_1.0', 'or_1.0'],
      ['OR_1', 'OR_1'],
      ['1', '1'],
      ['or_', 'or_'],
      ['empty', ''],
      ['leading space', '%20or_1'],
      ['too large', 'or_99999999999'],
      ['past 32 bits', 'or_2147483648'],
    ];

    it.each(malformed)(
      'rejects a malformed starting_after (%s) with 400 INVALID_CURSOR',
      async (_, value) => {
        const res = await get(`/v1/orders?starting_after=${value}`);
        expect(res.status).toBe(400);
        expect(res.body).toEqual(
          errorBody(
            400,
            'INVALID_CURSOR',
            expect.stringContaining('starting_after'),
          ),
        );
      },
    );

    it.each(malformed)(
      'rejects a malformed ending_before (%s) with 400 INVALID_CURSOR',
      async (_, value) => {
        const res = await get(`/v1/orders?ending_before=${value}`);
        expect(res.status).toBe(400);
        expect(res.body).toEqual(
          errorBody(
            400,
            'INVALID_CURSOR',
            expect.stringContaining('ending_before'),
          ),
        );
      },
    );

    it('rejects a cursor naming no order with 400 INVALID_CURSOR', async () => {
      for (const query of [
        'starting_after=or_99999',
        'ending_before=or_2147483647',
      ]) {
        const res = await get(`/v1/orders?${query}`);
        expect(res.status).toBe(400);
        expect(res.body).toEqual(errorBody(400, 'INVALID_CURSOR'));
      }
    });

    it('rejects another box office’s order as a cursor, as an unknown one', async () => {
      const foreign = otherBoxOfficeOrderIds[1];
      const unknown = await get('/v1/orders?starting_after=or_99999');
      const res = await get(`/v1/orders?starting_after=${foreign}`);
      expect(res.status).toBe(400);
      expect(res.body).toEqual(unknown.body);
      expect(res.body).toEqual(errorBody(400, 'INVALID_CURSOR'));
    });

    it('rejects a repeated cursor', async () => {
      const res = await get(
        `/v1/orders?starting_after=${ids[1]}&starting_after=${ids[2]}`,
      );
      expect(res.status).toBe(400);
      expect(res.body).toEqual(
        errorBody(
          400,
          expect.stringMatching(/^(INVALID_CURSOR|VALIDATION_ERROR)$/),
        ),
      );
    });

    it('rejects a malformed ending_before even when starting_after is good', async () => {
      const res = await get(
        `/v1/orders?starting_after=${ids[1]}&ending_before=or_x`,
      );
      expect(res.status).toBe(400);
      expect(res.body).toEqual(
        errorBody(
          400,
          'INVALID_CURSOR',
          expect.stringContaining('ending_before'),
        ),
      );
    });
  });

  describe('property: walks match the oracle', () => {
    let run = 0;

    it('for random created_at distributions, limits and ranges', async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.array(fc.integer({ min: 0, max: 6 }), { maxLength: 16 }),
          fc.integer({ min: 1, max: 6 }),
          fc.option(
            fc.record({
              gte: fc.integer({ min: 0, max: 6 }),
              lt: fc.integer({ min: 0, max: 7 }),
            }),
            { nil: undefined },
          ),
          async (offsets, limit, range) => {
            const key = `sk_test_property_${++run}`;
            const office = await f.boxOffice();
            await f.apiKey(office.id, key);
            const event = await f.event(office.id);
            const saved = await f.orders(
              office.id,
              event.id,
              offsets.map((offset) => ({ createdAt: BASE + offset })),
            );
            const want = saved
              .filter(
                (o) =>
                  !range ||
                  (o.createdAt >= BASE + range.gte &&
                    o.createdAt < BASE + range.lt),
              )
              .sort(newestFirst)
              .map((o) => `or_${o.id}`);
            const query =
              `limit=${limit}` +
              (range
                ? `&created_at.gte=${BASE + range.gte}&created_at.lt=${BASE + range.lt}`
                : '');
            const as = getAs(t.server, key);

            const forward = await walk(as, `/v1/orders?${query}`, 'next');
            expect(idsOf(forward)).toEqual(want);
            if (want.length === 0) {
              expect(forward).toEqual([
                { data: [], links: { next: null, previous: null } },
              ]);
              return;
            }
            expect(forward).toHaveLength(Math.ceil(want.length / limit));
            expect(forward[0].links.previous).toBeNull();
            for (const page of forward.slice(0, -1))
              expect(page.data).toHaveLength(limit);
            const last = forward[forward.length - 1];
            const back = last.links.previous
              ? await walk(as, last.links.previous, 'previous')
              : [];
            expect(back.reverse()).toEqual(forward.slice(0, -1));
          },
        ),
        { numRuns: 15, seed: 20260620 },
      );
    });
  });
});
