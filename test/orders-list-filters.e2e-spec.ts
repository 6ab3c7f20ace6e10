import { Get, getAs, idsOf, listAll, ListBody } from './utils/api';
import type { TestApp } from './utils/create-test-app';
import type { Factory } from './utils/factories';
import { COMPARISONS, expectedIds } from './utils/list-app';
import { BASE, Known, createOrderList } from './utils/order-list';

// The filters and how they combine with each other and with cursors: docs/API.md, GET /v1/orders.

describe('GET /v1/orders: filters', () => {
  let t: TestApp;
  let f: Factory;
  let get: Get;
  /** Box office A's orders, newest first: the oracle. */
  let all: Known[];
  let ids: string[];
  let eventIds: string[];

  const expected = (keep: (o: Known) => boolean) => expectedIds(all, keep);

  beforeAll(async () => {
    ({ t, f, get, all, ids, eventIds } = await createOrderList());
  });

  afterAll(() => t.close());

  describe('created_at filters', () => {
    // A value that some orders have, and one that none has.
    const present = BASE + 1000;
    const absent = BASE + 1050;
    const cases = COMPARISONS.flatMap(([suffix, op]) => [
      [`created_at${suffix}`, present, op] as const,
      [`created_at${suffix}`, absent, op] as const,
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

    it('takes the ends of the range, 0 and the end of year 9999, on every database', async () => {
      expect(await listAll(get, 'created_at.lt=0')).toEqual([]);
      expect(await listAll(get, 'created_at.gte=253402300799')).toEqual([]);
      expect(
        await listAll(get, 'created_at.lte=253402300799&limit=100'),
      ).toEqual(ids);
      expect(await listAll(get, 'created_at.gte=0&limit=100')).toEqual(ids);
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

    it('event_id: an id no row can have (past 32 bits) matches nothing, on every database', async () => {
      const res = await get('/v1/orders?event_id=ev_9999999999');
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        data: [],
        links: { next: null, previous: null },
      });
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
  });
});
