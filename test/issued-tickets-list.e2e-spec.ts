import { inImportMode } from '../src/sync/import-mode';
import { IssuedTicket } from '../src/issued-tickets/entities/issued-ticket.entity';
import type { Order } from '../src/orders/entities/order.entity';
import {
  Get,
  ListBody,
  MESSAGES,
  errorBody,
  getAs,
  idsOf,
  listIds,
  walk,
} from './utils/api';
import type { TestApp } from './utils/create-test-app';
import { COMPARISONS, createListApp, expectedIds } from './utils/list-app';
import { expectIssuedTicketShape } from './utils/order-shape';

// GET /v1/issued_tickets: order, paging, filters, cursors, links and errors (docs/API.md,
// GET /v1/issued_tickets and Pagination), checked against an oracle computed here.

const KEY = 'sk_test_tickets_a';
const OTHER_KEY = 'sk_test_tickets_b';
const BASE = 1_750_000_000;
/** Box office A's orders, two tickets each: more tickets than a default page of 100. */
const ORDERS = 60;
const COUNT = 2 * ORDERS;
const STATUSES = [
  'completed',
  'completed',
  'pending',
  'cancelled',
  'completed',
] as const;

type TicketBody = { id: string } & Record<string, unknown>;
type Page = ListBody<TicketBody>;

/** What the oracle knows of each ticket. */
interface Known {
  id: string;
  num: number;
  createdAt: number;
  updatedAt: number;
  voidedAt: number | null;
  status: string;
  eventId: string;
  orderId: string;
  barcode: string;
  email: string;
}

/** The list order: created_at descending, then numeric id descending. */
const newestFirst = (a: Known, b: Known) =>
  b.createdAt - a.createdAt || b.num - a.num;

describe('GET /v1/issued_tickets', () => {
  let t: TestApp;
  let get: Get;
  /** Box office A's tickets, newest first: the oracle. */
  let all: Known[];
  let ids: string[];
  let eventIds: string[];
  let otherOrders: Order[];
  let otherTicketIds: string[];

  const expected = (keep: (k: Known) => boolean) => expectedIds(all, keep);
  const list = (query: string) => listIds(get, `/v1/issued_tickets?${query}`);

  beforeAll(async () => {
    const app = await createListApp(KEY, OTHER_KEY);
    ({ t, get } = app);
    const { f, a, b } = app;
    const events = [
      await f.event(a.id, { name: 'First' }),
      await f.event(a.id, { name: 'Second' }),
      await f.event(a.id, { name: 'Third' }),
    ];
    eventIds = events.map((e) => `ev_${e.id}`);
    const type = await f.ticketType(events[0].id);

    // 20 distinct created_at values, ~3 orders (6 tickets) each, not in id order.
    const orders: Order[] = [];
    for (const [index, event] of events.entries()) {
      const overrides = [];
      for (let i = index; i < ORDERS; i += events.length) {
        const email =
          i % 4 === 0
            ? i % 8 === 0
              ? 'Alice@Example.com'
              : 'ALICE@example.COM'
            : `buyer${i}@example.com`;
        overrides.push({
          createdAt: BASE + ((i * 37) % 20) * 100,
          status: STATUSES[i % STATUSES.length],
          buyerEmail: email,
          buyerEmailLookup: email.toLowerCase(),
          ticketType: index === 0 ? type : undefined,
        });
      }
      orders.push(...(await f.orders(a.id, event.id, overrides)));
    }
    // Changes after purchase: every fifth order's second ticket is voided, every seventh
    // order's first ticket renamed; both move updated_at. Written as history (import mode), so
    // the times are the ones given.
    await inImportMode(t.dataSource.manager, async (manager) => {
      const tickets = manager.getRepository(IssuedTicket);
      for (const [i, order] of orders.entries()) {
        const [first, second] = order.issuedTickets!;
        if (i % 5 === 0) {
          const at = order.createdAt + 3000 + i;
          await tickets.update(second.id, {
            status: 'void',
            voidedAt: at,
            updatedAt: at,
          });
          Object.assign(second, {
            status: 'void',
            voidedAt: at,
            updatedAt: at,
          });
        }
        if (i % 7 === 0) {
          const at = order.createdAt + 2000 + i;
          await tickets.update(first.id, {
            fullName: 'Renamed',
            updatedAt: at,
          });
          first.updatedAt = at;
        }
      }
    });
    all = orders
      .flatMap((order) =>
        order.issuedTickets!.map((ticket): Known => ({
          id: `it_${ticket.id}`,
          num: ticket.id,
          createdAt: ticket.createdAt,
          updatedAt: ticket.updatedAt,
          voidedAt: ticket.voidedAt,
          status: ticket.status,
          eventId: `ev_${order.eventId}`,
          orderId: `or_${order.id}`,
          barcode: ticket.barcode,
          email: order.buyerEmail,
        })),
      )
      .sort(newestFirst);
    ids = all.map((k) => k.id);

    // Box office B's tickets sit between A's in time, for an event of its own.
    const bEvent = await f.event(b.id);
    otherOrders = await f.orders(b.id, bEvent.id, [
      { createdAt: BASE + 550, buyerEmail: 'alice@example.com' },
      { createdAt: BASE + 1000 },
      { createdAt: BASE + 5000 },
    ]);
    otherTicketIds = otherOrders.flatMap((o) =>
      o.issuedTickets!.map((it) => `it_${it.id}`),
    );
  });

  afterAll(() => t.close());

  describe('order and limit', () => {
    it('serves the first 100 tickets newest first, ties broken by id descending', async () => {
      const res = await get('/v1/issued_tickets');
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        data: expect.any(Array),
        links: {
          next: `/v1/issued_tickets?starting_after=${ids[99]}`,
          previous: null,
        },
      });
      expect(idsOf(res.body as Page)).toEqual(ids.slice(0, 100));
      expect(new Set(all.map((k) => k.createdAt)).size).toBe(20);
      for (const ticket of res.body.data) {
        expectIssuedTicketShape(ticket);
      }
      const rest = await get(`/v1/issued_tickets?starting_after=${ids[99]}`);
      expect(idsOf(rest.body as Page)).toEqual(ids.slice(100));
      expect(rest.body.links).toEqual({
        next: null,
        previous: `/v1/issued_tickets?ending_before=${ids[100]}`,
      });
    });

    it('never lists another box office’s tickets', async () => {
      const listed = await list('limit=100');
      expect(listed).toEqual(ids);
      for (const id of otherTicketIds) expect(listed).not.toContain(id);
      const theirs = await listIds(
        getAs(t.server, OTHER_KEY),
        '/v1/issued_tickets',
      );
      expect([...theirs].sort()).toEqual([...otherTicketIds].sort());
    });

    it.each([1, 2, 37, 100])(
      'limit=%i gives that many tickets',
      async (limit) => {
        const res = await get(`/v1/issued_tickets?limit=${limit}`);
        expect(res.status).toBe(200);
        expect(idsOf(res.body as Page)).toEqual(ids.slice(0, limit));
        expect(res.body.links).toEqual({
          next: `/v1/issued_tickets?starting_after=${ids[limit - 1]}&limit=${limit}`,
          previous: null,
        });
      },
    );

    it('next from the first page visits every ticket once, in order; previous walks the same pages back', async () => {
      const forward = await walk<TicketBody>(
        get,
        '/v1/issued_tickets?limit=9',
        'next',
      );
      expect(forward).toHaveLength(Math.ceil(COUNT / 9));
      expect(idsOf(forward)).toEqual(ids);
      const last = forward[forward.length - 1];
      expect(last.links.next).toBeNull();
      const back = await walk<TicketBody>(
        get,
        last.links.previous!,
        'previous',
      );
      expect(back.reverse()).toEqual(forward.slice(0, -1));
    });

    it('answers /v1/issued_tickets/ exactly as /v1/issued_tickets, and links as /v1/issued_tickets', async () => {
      const plain = await get('/v1/issued_tickets?limit=3&status=void');
      const want = expected((k) => k.status === 'void');
      expect(plain.body.links).toEqual({
        next: `/v1/issued_tickets?starting_after=${want[2]}&limit=3&status=void`,
        previous: null,
      });
      const slash = await get('/v1/issued_tickets/?limit=3&status=void');
      expect(slash.status).toBe(200);
      expect(slash.body).toEqual(plain.body);
      // Paths are case-sensitive (docs/API.md, "Paths and versions").
      expect((await get('/V1/Issued_Tickets?limit=3')).status).toBe(404);
    });
  });

  describe('filters', () => {
    it.each(
      COMPARISONS.flatMap(([suffix, op]) => [
        [`created_at${suffix}`, BASE + 1000, op] as const,
        [`created_at${suffix}`, BASE + 1050, op] as const,
      ]),
    )('%s=%i matches the oracle, across pages', async (key, value, op) => {
      expect(await list(`${key}=${value}&limit=20`)).toEqual(
        expected((k) => op(k.createdAt, value)),
      );
    });

    it.each(
      COMPARISONS.flatMap(([suffix, op]) => [
        [`updated_at${suffix}`, BASE + 1000, op] as const,
        [`updated_at${suffix}`, BASE + 3000, op] as const,
        [`updated_at${suffix}`, BASE + 4200, op] as const,
      ]),
    )('%s=%i matches the oracle, across pages', async (key, value, op) => {
      expect(await list(`${key}=${value}&limit=20`)).toEqual(
        expected((k) => op(k.updatedAt, value)),
      );
    });

    it('updated_at.gt serves incremental sync: what changed since, voids included', async () => {
      // A client that last synced once every ticket had been issued.
      const since = Math.max(...all.map((k) => k.createdAt));
      const changed = await list(`updated_at.gt=${since}&limit=10`);
      const want = expected((k) => k.updatedAt > since);
      expect(changed).toEqual(want);
      const voided = expected((k) => k.status === 'void');
      expect(voided.length).toBeGreaterThan(5);
      for (const id of voided) expect(changed).toContain(id);
      // A void ticket has updated_at ≥ voided_at; a valid one has voided_at null.
      const pages = await walk<TicketBody>(
        get,
        '/v1/issued_tickets?limit=100',
        'next',
      );
      for (const ticket of pages.flatMap((p) => p.data)) {
        if (ticket.status === 'void') {
          expect(ticket.updated_at as number).toBeGreaterThanOrEqual(
            ticket.voided_at as number,
          );
        } else {
          expect(ticket.voided_at).toBeNull();
        }
        expect(ticket.updated_at as number).toBeGreaterThanOrEqual(
          ticket.created_at as number,
        );
      }
    });

    it('event_id: one id', async () => {
      for (const eventId of eventIds) {
        const want = expected((k) => k.eventId === eventId);
        expect(want.length).toBeGreaterThan(0);
        expect(await list(`event_id=${eventId}&limit=15`)).toEqual(want);
      }
    });

    it('event_id: a comma list, in any order, duplicates allowed', async () => {
      const pick = [eventIds[2], eventIds[0]];
      const want = expected((k) => pick.includes(k.eventId));
      expect(await list(`event_id=${pick.join(',')}&limit=30`)).toEqual(want);
      expect(
        await list(`event_id=${[...pick].reverse().join(',')},${pick[0]}`),
      ).toEqual(want);
      expect(await list(`event_id=${pick[0]},ev_999999`)).toEqual(
        expected((k) => k.eventId === pick[0]),
      );
    });

    it('event_id: another box office’s event or no event gives an empty page', async () => {
      for (const eventId of [
        `ev_${otherOrders[0].eventId}`,
        'ev_999999',
        'ev_9999999999',
      ]) {
        const res = await get(`/v1/issued_tickets?event_id=${eventId}`);
        expect(res.status).toBe(200);
        expect(res.body).toEqual({
          data: [],
          links: { next: null, previous: null },
        });
      }
    });

    it('order_id: the tickets of that order', async () => {
      for (const orderId of [all[0].orderId, all[57].orderId]) {
        const want = expected((k) => k.orderId === orderId);
        expect(want).toHaveLength(2);
        expect(await list(`order_id=${orderId}`)).toEqual(want);
      }
      expect(await list(`order_id=or_${otherOrders[0].id}`)).toEqual([]);
      expect(await list('order_id=or_999999')).toEqual([]);
    });

    it.each(['valid', 'void'])('status=%s', async (status) => {
      const want = expected((k) => k.status === status);
      expect(want.length).toBeGreaterThan(0);
      expect(await list(`status=${status}&limit=30`)).toEqual(want);
    });

    it('barcode: the ticket with that barcode, exactly', async () => {
      const holder = all[17];
      expect(await list(`barcode=${holder.barcode}`)).toEqual([holder.id]);
      expect(await list(`barcode=${holder.barcode.toLowerCase()}`)).toEqual([]);
      expect(await list(`barcode=${holder.barcode.slice(0, -1)}`)).toEqual([]);
      const theirs = otherOrders[0].issuedTickets![0].barcode;
      expect(await list(`barcode=${theirs}`)).toEqual([]);
    });

    it('email: the order’s e-mail, exact and case-insensitive, this box office only', async () => {
      const want = expected(
        (k) => k.email.toLowerCase() === 'alice@example.com',
      );
      expect(want.length).toBeGreaterThan(10);
      for (const email of [
        'alice@example.com',
        'ALICE%40EXAMPLE.COM',
        'Alice@Example.com',
      ]) {
        expect(await list(`email=${email}&limit=8`)).toEqual(want);
      }
      expect(await list('email=alice@example.co')).toEqual([]);
      expect(await list('email=lice@example.com')).toEqual([]);
      expect(await list('email=buyer1@example.com')).toEqual(
        expected((k) => k.email === 'buyer1@example.com'),
      );
      const res = await get(
        '/v1/issued_tickets?email=Alice%40Example.com&limit=3',
      );
      expect(res.body.links).toEqual({
        next: `/v1/issued_tickets?starting_after=${want[2]}&email=Alice%40Example.com&limit=3`,
        previous: null,
      });
    });

    it('combines every filter with AND', async () => {
      const low = BASE + 500;
      const want = expected(
        (k) =>
          (k.eventId === eventIds[0] || k.eventId === eventIds[1]) &&
          k.status === 'valid' &&
          k.email.toLowerCase() === 'alice@example.com' &&
          k.createdAt >= low &&
          k.updatedAt < BASE + 5000,
      );
      expect(want.length).toBeGreaterThan(2);
      expect(
        await list(
          `event_id=${eventIds[0]},${eventIds[1]}&status=valid&email=alice@example.com&created_at.gte=${low}&updated_at.lt=${BASE + 5000}&limit=2`,
        ),
      ).toEqual(want);
      const one = all.find((k) => k.status === 'valid')!;
      expect(
        await list(
          `order_id=${one.orderId}&barcode=${one.barcode}&event_id=${one.eventId}&status=valid`,
        ),
      ).toEqual([one.id]);
      expect(
        await list(`order_id=${one.orderId}&barcode=${all[0].barcode}`),
      ).toEqual(one.orderId === all[0].orderId ? [all[0].id] : []);
    });

    it('keeps filters when starting from a cursor, both ways', async () => {
      const query = `status=valid&updated_at.gte=${BASE + 300}&limit=3`;
      const want = expected(
        (k) => k.status === 'valid' && k.updatedAt >= BASE + 300,
      );
      const after = await get(
        `/v1/issued_tickets?starting_after=${want[5]}&${query}`,
      );
      expect(after.status).toBe(200);
      expect(idsOf(after.body as Page)).toEqual(want.slice(6, 9));
      expect(after.body.links).toEqual({
        next: `/v1/issued_tickets?starting_after=${want[8]}&${query}`,
        previous: `/v1/issued_tickets?ending_before=${want[6]}&${query}`,
      });
      const before = await get(
        `/v1/issued_tickets?ending_before=${want[5]}&${query}`,
      );
      expect(idsOf(before.body as Page)).toEqual(want.slice(2, 5));
      expect(before.body.links).toEqual({
        next: `/v1/issued_tickets?starting_after=${want[4]}&${query}`,
        previous: `/v1/issued_tickets?ending_before=${want[2]}&${query}`,
      });
    });

    it('takes a cursor ticket that the filters exclude as a position', async () => {
      const index = 40;
      const cursor = all[index];
      const other = cursor.status === 'void' ? 'valid' : 'void';
      const want = all
        .slice(index + 1)
        .filter((k) => k.status === other)
        .map((k) => k.id);
      const res = await get(
        `/v1/issued_tickets?starting_after=${cursor.id}&status=${other}&limit=100`,
      );
      expect(idsOf(res.body as Page)).toEqual(want);
      expect(res.body.links).toEqual({
        next: null,
        previous: `/v1/issued_tickets?ending_before=${want[0]}&status=${other}&limit=100`,
      });
      const newer = await get(
        `/v1/issued_tickets?ending_before=${cursor.id}&created_at.gt=${cursor.createdAt}`,
      );
      expect(idsOf(newer.body as Page)).toEqual(
        expected((k) => k.createdAt > cursor.createdAt),
      );
      expect(newer.body.links.previous).toBeNull();
    });
  });

  describe('cursors and links', () => {
    it('ending_before gives the tickets right before the cursor, newest first', async () => {
      const res = await get(
        `/v1/issued_tickets?ending_before=${ids[10]}&limit=3`,
      );
      expect(idsOf(res.body as Page)).toEqual(ids.slice(7, 10));
      expect(res.body.links).toEqual({
        next: `/v1/issued_tickets?starting_after=${ids[9]}&limit=3`,
        previous: `/v1/issued_tickets?ending_before=${ids[7]}&limit=3`,
      });
    });

    it('uses only ending_before when both cursors are given, even a malformed starting_after', async () => {
      for (const startingAfter of [ids[0], 'it_x']) {
        const res = await get(
          `/v1/issued_tickets?starting_after=${startingAfter}&ending_before=${ids[10]}&limit=3`,
        );
        expect(res.status).toBe(200);
        expect(idsOf(res.body as Page)).toEqual(ids.slice(7, 10));
      }
    });

    it('gives an empty page with both links null past either end, or when nothing matches', async () => {
      const empty = { data: [], links: { next: null, previous: null } };
      for (const query of [
        `starting_after=${ids[COUNT - 1]}`,
        `ending_before=${ids[0]}&limit=4`,
        `created_at.gt=${BASE + 1900}`,
        `starting_after=${ids[3]}&updated_at.gt=${BASE + 99999}`,
      ]) {
        const res = await get(`/v1/issued_tickets?${query}`);
        expect({ query, status: res.status, body: res.body }).toEqual({
          query,
          status: 200,
          body: empty,
        });
      }
    });

    const malformed = [
      'it_abc',
      'it_0',
      'it_01',
      'IT_1',
      'or_1',
      '1',
      'it_',
      '',
      'it_2147483648',
      'it_99999999999',
    ];
    const parameters = ['starting_after', 'ending_before'] as const;

    it.each(
      parameters.flatMap((parameter) =>
        malformed.map((value) => [parameter, value] as const),
      ),
    )(
      'rejects a malformed %s (%s) with 400 INVALID_CURSOR',
      async (parameter, value) => {
        const res = await get(`/v1/issued_tickets?${parameter}=${value}`);
        expect(res.status).toBe(400);
        expect(res.body).toEqual(
          errorBody(
            400,
            'INVALID_CURSOR',
            MESSAGES.issuedTicketCursor(parameter),
          ),
        );
      },
    );

    it.each(parameters)(
      'rejects an unknown ticket, and another box office’s, as %s',
      async (parameter) => {
        for (const id of ['it_999999', ...otherTicketIds.slice(0, 3)]) {
          const res = await get(`/v1/issued_tickets?${parameter}=${id}`);
          expect({ id, status: res.status, body: res.body }).toEqual({
            id,
            status: 400,
            body: errorBody(
              400,
              'INVALID_CURSOR',
              MESSAGES.issuedTicketCursor(parameter),
            ),
          });
        }
      },
    );
  });

  describe('validation errors', () => {
    it.each(['created_at.gtt', 'updated', 'ticket_type', 'txn_id', 'Email'])(
      'rejects the unknown parameter %s, naming it',
      async (name) => {
        const res = await get(`/v1/issued_tickets?${name}=1`);
        expect(res.status).toBe(400);
        expect(res.body).toEqual(
          errorBody(
            400,
            'VALIDATION_ERROR',
            `Unknown query parameter: ${name}`,
          ),
        );
      },
    );

    const EVENT_ID =
      'event_id must be an id (ev_<number>) or a comma list of up to 100';
    it.each([
      ['limit=0', 'limit must be an integer from 1 to 100'],
      ['limit=1.5', 'limit must be an integer from 1 to 100'],
      ['created_at=abc', 'created_at must be an integer (Unix seconds)'],
      [
        'created_at.lte=1e9',
        'created_at.lte must be an integer (Unix seconds)',
      ],
      ['updated_at=', 'updated_at must be an integer (Unix seconds)'],
      ['updated_at.gt=1.5', 'updated_at.gt must be an integer (Unix seconds)'],
      ['updated_at.gte=x', 'updated_at.gte must be an integer (Unix seconds)'],
      ['updated_at.lt=0x1', 'updated_at.lt must be an integer (Unix seconds)'],
      [
        'updated_at.lte=%2B1',
        'updated_at.lte must be an integer (Unix seconds)',
      ],
      ['updated_at.gt=1&updated_at.gt=2', 'updated_at.gt must be given once'],
      ['event_id=1', EVENT_ID],
      ['event_id=ev_0', EVENT_ID],
      ['event_id=ev_1,', EVENT_ID],
      ['event_id=or_1', EVENT_ID],
      ['event_id=', EVENT_ID],
      [
        `event_id=${Array.from({ length: 101 }, (_, i) => `ev_${i + 1}`).join(',')}`,
        EVENT_ID,
      ],
      ['event_id=ev_1&event_id=ev_2', 'event_id must be given once'],
      ['order_id=1', 'order_id must be an id (or_<number>)'],
      ['order_id=or_1,or_2', 'order_id must be an id (or_<number>)'],
      ['order_id=it_1', 'order_id must be an id (or_<number>)'],
      ['order_id=or_1&order_id=or_1', 'order_id must be given once'],
      ['status=valid,void', 'status must be one of valid, void, voided'],
      ['status=Valid', 'status must be one of valid, void, voided'],
      ['status=', 'status must be one of valid, void, voided'],
      ['barcode=', 'barcode must be 1 to 64 characters'],
      [`barcode=${'X'.repeat(65)}`, 'barcode must be 1 to 64 characters'],
      ['barcode=a&barcode=b', 'barcode must be given once'],
      ['email=', 'email must be an e-mail address of at most 320 characters'],
      ['email=not-an-address', 'email must be an e-mail address'],
      ['email=a@b.com&email=a@b.com', 'email must be given once'],
    ])('rejects %s: %s', async (query, message) => {
      const res = await get(`/v1/issued_tickets?${query}`);
      expect(res.status).toBe(400);
      expect(res.body).toEqual(errorBody(400, 'VALIDATION_ERROR', message));
    });

    it('takes a list of exactly 50 event ids', async () => {
      const fifty = [
        ...eventIds,
        ...Array.from({ length: 47 }, (_, i) => `ev_${900_000 + i}`),
      ];
      expect(await list(`event_id=${fifty.join(',')}`)).toEqual(ids);
    });
  });
});
