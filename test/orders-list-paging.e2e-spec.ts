import fc from 'fast-check';
import {
  Get,
  ListBody,
  errorBody,
  getAs,
  idsOf,
  listAll,
  MESSAGES,
  newestFirst,
  walk,
} from './utils/api';
import type { TestApp } from './utils/create-test-app';
import type { Factory } from './utils/factories';
import { expectedIds } from './utils/list-app';
import { BASE, COUNT, Known, createOrderList } from './utils/order-list';
import { expectWellFormedOrder } from './utils/order-shape';

// The list order, page size, walking and cursors: docs/API.md, GET /v1/orders and Pagination.

describe('GET /v1/orders: order, paging and cursors', () => {
  let t: TestApp;
  let f: Factory;
  let get: Get;
  /** Box office A's orders, newest first: the oracle. */
  let all: Known[];
  let ids: string[];
  let otherBoxOfficeOrderIds: string[];

  const expected = (keep: (o: Known) => boolean) => expectedIds(all, keep);

  beforeAll(async () => {
    ({ t, f, get, all, ids, otherBoxOfficeOrderIds } = await createOrderList());
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

    it('serves well-formed orders (every field present, the Order invariants)', async () => {
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
      for (const [parameter, id] of [
        ['starting_after', 'or_99999'],
        ['ending_before', 'or_2147483647'],
      ] as const) {
        const res = await get(`/v1/orders?${parameter}=${id}`);
        expect(res.status).toBe(400);
        expect(res.body).toEqual(
          errorBody(400, 'INVALID_CURSOR', MESSAGES.orderCursor(parameter)),
        );
      }
    });

    it('rejects another box office’s order as a cursor, as an unknown one', async () => {
      const foreign = otherBoxOfficeOrderIds[1];
      const unknown = await get('/v1/orders?starting_after=or_99999');
      const res = await get(`/v1/orders?starting_after=${foreign}`);
      expect(res.status).toBe(400);
      expect(res.body).toEqual(unknown.body);
      expect(res.body).toEqual(
        errorBody(
          400,
          'INVALID_CURSOR',
          MESSAGES.orderCursor('starting_after'),
        ),
      );
    });

    it('rejects a repeated cursor', async () => {
      const res = await get(
        `/v1/orders?starting_after=${ids[1]}&starting_after=${ids[2]}`,
      );
      expect(res.status).toBe(400);
      expect(res.body).toEqual(
        errorBody(
          400,
          'INVALID_CURSOR',
          MESSAGES.orderCursor('starting_after'),
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
