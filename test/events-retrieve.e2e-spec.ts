import request from 'supertest';
import type { Event } from '../src/events/entities/event.entity';
import type { TicketGroup } from '../src/events/entities/ticket-group.entity';
import type { TicketType } from '../src/events/entities/ticket-type.entity';
import type { EventPaymentMethod } from '../src/events/entities/event-payment-method.entity';
import { IssuedTicket } from '../src/issued-tickets/entities/issued-ticket.entity';
import { Get, MESSAGES, errorBody, getAs, walk } from './utils/api';
import { TestApp, basicAuth, createTestApp } from './utils/create-test-app';
import { EventBody, expectWellFormedEvent } from './utils/event-shape';
import { Factory } from './utils/factories';
import { itAnswersNotFound, itServesHeadAndETag } from './utils/retrieve-cases';

// GET /v1/events/{event_id} and the Event resource: docs/API.md, GET /v1/events/{event_id} and
// Resources: Event, TicketGroup, TicketType, PaymentMethod.

const KEY = 'sk_test_event_retrieve';
const OTHER_KEY = 'sk_test_event_retrieve_other';

describe('GET /v1/events/{event_id}', () => {
  let t: TestApp;
  let f: Factory;
  let get: Get;
  let officeId: number;
  let full: Event;
  let groups: Record<'seating' | 'packages' | 'boxes', TicketGroup>;
  let types: Record<
    'stalls' | 'circle' | 'free' | 'donation' | 'vip',
    TicketType
  >;
  let methods: EventPaymentMethod[];
  let minimal: Event;
  let foreign: Event;
  const routes = { collection: '/v1/events', key: KEY, server: () => t.server };

  beforeAll(async () => {
    t = await createTestApp();
    f = new Factory(t.dataSource);
    const office = await f.boxOffice('Known');
    const other = await f.boxOffice('Other');
    officeId = office.id;
    await f.apiKey(office.id, KEY);
    await f.apiKey(other.id, OTHER_KEY);

    // Every field set, none at its default.
    full = await f.event(office.id, {
      name: 'Summer Jazz Night',
      startAt: 1_781_980_200, // 2026-06-20 19:30 BST
      endAt: 1_781_991_000, // 22:30
      timezone: 'Europe/London',
      status: 'sales_closed',
      onlineEvent: true,
      private: true,
      description: 'An evening of "jazz" & blues',
      accessCode: 'JAZZ2026',
      callToAction: 'Get tickets',
      url: 'https://tickets.boxoffice.example/jazz',
      imageHeaderUrl: 'https://cdn.boxoffice.example/jazz/header.jpg',
      imageThumbnailUrl: 'https://cdn.boxoffice.example/jazz/thumb.jpg',
      venueName: 'Royal Albert Hall',
      venuePostalCode: 'SW7 2AP',
      eventSeriesId: 42,
      currency: 'eur',
      createdAt: 1_745_000_000,
    });
    // Written out of their sort order, with ties broken by id.
    const packages = await f.ticketGroup(full.id, {
      name: 'Packages',
      sortOrder: 2,
      maxPerOrder: null,
    });
    const seating = await f.ticketGroup(full.id, {
      name: 'Seating',
      sortOrder: 1,
      maxPerOrder: 6,
    });
    const boxes = await f.ticketGroup(full.id, {
      name: 'Boxes',
      sortOrder: 1,
      maxPerOrder: 4,
    });
    groups = { seating, packages, boxes };
    types = {
      stalls: await f.ticketType(full.id, {
        name: 'Stalls',
        groupId: seating.id,
        sortOrder: 3,
        price: 3500,
        bookingFee: 175,
        quantityTotal: 40,
      }),
      circle: await f.ticketType(full.id, {
        name: 'Circle',
        groupId: seating.id,
        sortOrder: 1,
        status: 'sold_out',
        quantityTotal: 0,
      }),
      free: await f.ticketType(full.id, {
        name: 'Free standing',
        sortOrder: 2,
        type: 'free',
        price: 0,
        bookingFee: 0,
        status: 'unavailable',
        quantityTotal: 12,
      }),
      donation: await f.ticketType(full.id, {
        name: 'Pay what you can',
        groupId: packages.id,
        sortOrder: 1,
        type: 'donation',
        price: 500,
        bookingFee: 0,
        status: 'hidden',
        accessCode: 'FRIENDS',
        minPerOrder: 1,
        maxPerOrder: 1,
        quantityTotal: 20,
      }),
      vip: await f.ticketType(full.id, {
        name: 'VIP package',
        description: 'With a glass of champagne',
        groupId: packages.id,
        sortOrder: 0,
        price: 12000,
        bookingFee: 600,
        minPerOrder: 2,
        maxPerOrder: 4,
        quantityTotal: 6,
      }),
    };
    methods = [
      await f.paymentMethod(full.id, {
        type: 'offline',
        paymentMethodId: 7,
        externalId: null,
        name: 'Bank transfer',
        instructions: 'Pay within 7 days',
      }),
      await f.paymentMethod(full.id),
    ];
    // Counted: two completed orders (one ticket voided later) and a pending one; not counted:
    // a cancelled order, whose tickets are void.
    const [first] = await f.orders(office.id, full.id, [
      { ticketType: types.stalls, createdAt: 1_750_000_000 },
      { ticketType: types.vip, createdAt: 1_750_000_100 },
      { status: 'pending', createdAt: 1_750_000_200 },
    ]);
    await f.order(office.id, full.id, {
      status: 'cancelled',
      createdAt: 1_750_000_300,
      issuedTickets: [
        {
          eventId: full.id,
          status: 'void',
          barcode: 'VOIDED1',
          barcodeUrl: 'https://cdn.boxoffice.example/b/VOIDED1.png',
          qrCodeUrl: 'https://cdn.boxoffice.example/q/VOIDED1.png',
          description: 'Stalls',
          firstName: null,
          lastName: null,
          fullName: null,
          reservation: null,
          customQuestions: [],
          createdAt: 1_750_000_300,
          updatedAt: 1_750_000_400,
          voidedAt: 1_750_000_400,
        },
      ],
    });
    await t.dataSource
      .getRepository(IssuedTicket)
      .update(first.issuedTickets![0].id, {
        status: 'void',
        voidedAt: 1_750_000_900,
        updatedAt: 1_750_000_900,
      });

    minimal = await f.event(office.id, {
      name: 'New Year Taiko',
      startAt: 1_798_729_200, // 2027-01-01 00:00 in Tokyo
      endAt: 1_798_740_000,
      timezone: 'Asia/Tokyo',
    });
    foreign = await f.event(other.id, { name: 'Not yours' });
    get = getAs(t.server, KEY);
  });

  afterAll(() => t.close());

  it('returns the whole Event resource, every field set', async () => {
    const res = await get(`/v1/events/ev_${full.id}`);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    const { seating, packages, boxes } = groups;
    const tt = (type: TicketType) => `tt_${type.id}`;
    expect(res.body).toEqual({
      object: 'event',
      id: `ev_${full.id}`,
      access_code: 'JAZZ2026',
      call_to_action: 'Get tickets',
      created_at: 1_745_000_000,
      currency: 'eur',
      description: 'An evening of "jazz" & blues',
      end: {
        date: '2026-06-20',
        formatted: 'Sat 20 Jun 2026 10:30 PM',
        iso: '2026-06-20T22:30:00+01:00',
        time: '22:30',
        timezone: '+01:00',
        unix: 1_781_991_000,
      },
      event_series_id: 'es_42',
      images: {
        header: 'https://cdn.boxoffice.example/jazz/header.jpg',
        thumbnail: 'https://cdn.boxoffice.example/jazz/thumb.jpg',
      },
      name: 'Summer Jazz Night',
      online_event: 'true',
      payment_methods: [
        {
          external_id: null,
          id: 'pm_7',
          type: 'offline',
          name: 'Bank transfer',
          instructions: 'Pay within 7 days',
        },
        {
          external_id: 'acct_ext_1',
          id: null,
          type: 'stripe',
          name: 'Card',
          instructions: null,
        },
      ],
      private: 'true',
      start: {
        date: '2026-06-20',
        formatted: 'Sat 20 Jun 2026 7:30 PM',
        iso: '2026-06-20T19:30:00+01:00',
        time: '19:30',
        timezone: '+01:00',
        unix: 1_781_980_200,
      },
      status: 'sales_closed',
      // sort_order 1 (by id: Seating, then Boxes), then 2.
      ticket_groups: [
        {
          id: `tg_${seating.id}`,
          max_per_order: 6,
          name: 'Seating',
          sort_order: 1,
          ticket_ids: [tt(types.circle), tt(types.stalls)],
        },
        {
          id: `tg_${boxes.id}`,
          max_per_order: 4,
          name: 'Boxes',
          sort_order: 1,
          ticket_ids: [],
        },
        {
          id: `tg_${packages.id}`,
          max_per_order: null,
          name: 'Packages',
          sort_order: 2,
          ticket_ids: [tt(types.vip), tt(types.donation)],
        },
      ],
      // sort_order 0, 1 (by id: Circle, then Pay what you can), 2, 3.
      ticket_types: [
        {
          object: 'ticket_type',
          id: tt(types.vip),
          access_code: null,
          booking_fee: 600,
          description: 'With a glass of champagne',
          group_id: `tg_${packages.id}`,
          max_per_order: 4,
          min_per_order: 2,
          name: 'VIP package',
          price: 12000,
          status: 'on_sale',
          sort_order: 0,
          type: 'paid',
          quantity: 4,
          quantity_total: 6,
          quantity_issued: 2,
          quantity_held: 0,
          quantity_in_baskets: 0,
        },
        {
          object: 'ticket_type',
          id: tt(types.circle),
          access_code: null,
          booking_fee: 150,
          description: null,
          group_id: `tg_${seating.id}`,
          max_per_order: 10,
          min_per_order: 1,
          name: 'Circle',
          price: 2500,
          status: 'sold_out',
          sort_order: 1,
          type: 'paid',
          quantity: 0,
          quantity_total: 0,
          quantity_issued: 0,
          quantity_held: 0,
          quantity_in_baskets: 0,
        },
        {
          object: 'ticket_type',
          id: tt(types.donation),
          access_code: 'FRIENDS',
          booking_fee: 0,
          description: null,
          group_id: `tg_${packages.id}`,
          max_per_order: 1,
          min_per_order: 1,
          name: 'Pay what you can',
          price: 500,
          status: 'hidden',
          sort_order: 1,
          type: 'donation',
          quantity: 20,
          quantity_total: 20,
          quantity_issued: 0,
          quantity_held: 0,
          quantity_in_baskets: 0,
        },
        {
          object: 'ticket_type',
          id: tt(types.free),
          access_code: null,
          booking_fee: 0,
          description: null,
          group_id: null,
          max_per_order: 10,
          min_per_order: 1,
          name: 'Free standing',
          price: 0,
          status: 'unavailable',
          sort_order: 2,
          type: 'free',
          quantity: 12,
          quantity_total: 12,
          quantity_issued: 0,
          quantity_held: 0,
          quantity_in_baskets: 0,
        },
        {
          object: 'ticket_type',
          id: tt(types.stalls),
          access_code: null,
          booking_fee: 175,
          description: null,
          group_id: `tg_${seating.id}`,
          max_per_order: 10,
          min_per_order: 1,
          name: 'Stalls',
          price: 3500,
          status: 'on_sale',
          sort_order: 3,
          type: 'paid',
          quantity: 39,
          quantity_total: 40,
          quantity_issued: 1,
          quantity_held: 0,
          quantity_in_baskets: 0,
        },
      ],
      tickets_available: 'true',
      timezone: 'Europe/London',
      // 2 + 2 + 2 valid tickets, one of them voided since; the cancelled order's is void.
      total_issued_tickets: 5,
      total_orders: 2,
      url: 'https://tickets.boxoffice.example/jazz',
      venue: { name: 'Royal Albert Hall', postal_code: 'SW7 2AP' },
    });
    expectWellFormedEvent(res.body);
    expect(methods).toHaveLength(2);
  });

  it('returns a minimal event: nulls, empty arrays, "false" flags, defaults, its own zone', async () => {
    const res = await get(`/v1/events/ev_${minimal.id}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      object: 'event',
      id: `ev_${minimal.id}`,
      access_code: null,
      call_to_action: 'Buy tickets',
      created_at: 1_700_000_000,
      currency: 'gbp',
      description: null,
      end: {
        date: '2027-01-01',
        formatted: 'Fri 1 Jan 2027 3:00 AM',
        iso: '2027-01-01T03:00:00+09:00',
        time: '03:00',
        timezone: '+09:00',
        unix: 1_798_740_000,
      },
      event_series_id: `es_${minimal.eventSeriesId}`,
      images: {
        header: minimal.imageHeaderUrl,
        thumbnail: minimal.imageThumbnailUrl,
      },
      name: 'New Year Taiko',
      online_event: 'false',
      payment_methods: [],
      private: 'false',
      start: {
        date: '2027-01-01',
        formatted: 'Fri 1 Jan 2027 12:00 AM',
        iso: '2027-01-01T00:00:00+09:00',
        time: '00:00',
        timezone: '+09:00',
        unix: 1_798_729_200,
      },
      status: 'published',
      ticket_groups: [],
      ticket_types: [],
      tickets_available: 'false',
      timezone: 'Asia/Tokyo',
      total_issued_tickets: 0,
      total_orders: 0,
      url: minimal.url,
      venue: { name: null, postal_code: null },
    });
    expectWellFormedEvent(res.body);
  });

  describe('tickets_available', () => {
    // "true" exactly when some ticket type is on_sale with quantity > 0.
    const cases: [string, 'true' | 'false', [string, number][]][] = [
      ['no ticket types', 'false', []],
      ['one on sale with tickets left', 'true', [['on_sale', 1]]],
      ['on sale but none left', 'false', [['on_sale', 0]]],
      ['sold out', 'false', [['sold_out', 0]]],
      ['unavailable, with tickets', 'false', [['unavailable', 50]]],
      ['hidden, with tickets', 'false', [['hidden', 50]]],
      [
        'every status, but none on sale with tickets left',
        'false',
        [
          ['sold_out', 0],
          ['unavailable', 9],
          ['hidden', 9],
          ['on_sale', 0],
        ],
      ],
      [
        'one on sale among the others',
        'true',
        [
          ['sold_out', 0],
          ['hidden', 9],
          ['on_sale', 3],
        ],
      ],
    ];

    it.each(cases)('%s → "%s"', async (_name, want, typeList) => {
      const event = await f.event(officeId);
      for (const [status, quantity] of typeList) {
        await f.ticketType(event.id, {
          status: status as TicketType['status'],
          quantityTotal: quantity,
        });
      }
      const res = await get(`/v1/events/ev_${event.id}`);
      expect(res.status).toBe(200);
      expect(res.body.tickets_available).toBe(want);
      expectWellFormedEvent(res.body);
    });

    it('follows a change of a ticket type at once', async () => {
      const event = await f.event(officeId);
      const type = await f.ticketType(event.id, { quantityTotal: 1 });
      const available = async () =>
        (await get(`/v1/events/ev_${event.id}`)).body.tickets_available;
      expect(await available()).toBe('true');
      const repo = t.dataSource.getRepository<TicketType>('TicketType');
      await repo.update(type.id, { status: 'sold_out', quantityTotal: 0 });
      expect(await available()).toBe('false');
      await repo.update(type.id, { status: 'on_sale', quantityTotal: 5 });
      expect(await available()).toBe('true');
    });
  });

  it.each([
    ['America/New_York', 1_783_209_600, '2026-07-04T20:00:00-04:00'],
    ['Australia/Sydney', 1_767_996_000, '2026-01-10T09:00:00+11:00'],
    ['Asia/Kolkata', 1_783_674_000, '2026-07-10T14:30:00+05:30'],
    ['UTC', 1_772_304_330, '2026-02-28T18:45:30+00:00'],
  ])(
    'writes start and end in the event’s zone (%s), as its orders’ event_summary does',
    async (timezone, startAt, iso) => {
      const event = await f.event(officeId, {
        timezone,
        startAt,
        endAt: startAt + 7200,
      });
      const order = await f.order(officeId, event.id);
      const res = await get(`/v1/events/ev_${event.id}`);
      expect(res.status).toBe(200);
      expect(res.body.start.iso).toBe(iso);
      expect(res.body.timezone).toBe(timezone);
      expectWellFormedEvent(res.body);
      const summary = (await get(`/v1/orders/or_${order.id}`)).body
        .event_summary;
      expect(summary).toEqual({
        id: `ev_${event.id}`,
        event_series_id: res.body.event_series_id,
        name: res.body.name,
        start_date: res.body.start,
        end_date: res.body.end,
        venue: res.body.venue,
      });
    },
  );

  it('keeps ticket_ids and group_id consistent when types move between groups', async () => {
    const event = await f.event(officeId);
    const a = await f.ticketGroup(event.id, { name: 'A', sortOrder: 0 });
    const b = await f.ticketGroup(event.id, { name: 'B', sortOrder: 0 });
    const x = await f.ticketType(event.id, { groupId: a.id, sortOrder: 5 });
    const y = await f.ticketType(event.id, { groupId: a.id, sortOrder: 5 });
    const z = await f.ticketType(event.id, { groupId: null, sortOrder: 4 });
    const repo = t.dataSource.getRepository<TicketType>('TicketType');
    const read = async () => {
      const res = await get(`/v1/events/ev_${event.id}`);
      expect(res.status).toBe(200);
      expectWellFormedEvent(res.body);
      return (res.body as EventBody).ticket_groups.map((g) => [
        g.id,
        g.ticket_ids,
      ]);
    };
    expect(await read()).toEqual([
      [`tg_${a.id}`, [`tt_${x.id}`, `tt_${y.id}`]],
      [`tg_${b.id}`, []],
    ]);
    await repo.update(y.id, { groupId: b.id });
    await repo.update(z.id, { groupId: b.id });
    expect(await read()).toEqual([
      [`tg_${a.id}`, [`tt_${x.id}`]],
      [`tg_${b.id}`, [`tt_${z.id}`, `tt_${y.id}`]],
    ]);
    // Deleting a group leaves its types ungrouped.
    await t.dataSource.getRepository<TicketGroup>('TicketGroup').delete(b.id);
    const res = await get(`/v1/events/ev_${event.id}`);
    expect(
      (res.body as EventBody).ticket_types.map((type) => [
        type.id,
        type.group_id,
      ]),
    ).toEqual([
      [`tt_${z.id}`, null],
      [`tt_${x.id}`, `tg_${a.id}`],
      [`tt_${y.id}`, null],
    ]);
  });

  it('returns exactly the object the list shows, for every event', async () => {
    const pages = await walk<EventBody>(get, '/v1/events?limit=4', 'next');
    const listed = pages.flatMap((p) => p.data);
    expect(listed.length).toBeGreaterThan(10);
    for (const event of listed) {
      expectWellFormedEvent(event);
      const res = await get(`/v1/events/${event.id}`);
      expect(res.status).toBe(200);
      expect(res.body).toEqual(event);
    }
  });

  // Not an event id at all: the message says what ids look like. A well-formed id that names no
  // event: the message repeats it.
  itAnswersNotFound(routes, [
    ['abc', MESSAGES.noSuchEvent],
    ['ev_', MESSAGES.noSuchEvent],
    ['ev_0', MESSAGES.noSuchEvent],
    ['ev_01', MESSAGES.noSuchEvent],
    ['ev_1x', MESSAGES.noSuchEvent],
    ['ev_-1', MESSAGES.noSuchEvent],
    ['EV_1', MESSAGES.noSuchEvent],
    ['or_1', MESSAGES.noSuchEvent],
    ['1', MESSAGES.noSuchEvent],
    ['ev_2147483648', MESSAGES.noSuchEvent],
    ['ev_99999999999', MESSAGES.noSuchEvent],
    ['ev_999999', MESSAGES.noEvent('ev_999999')],
    ['ev_2147483647', MESSAGES.noEvent('ev_2147483647')],
  ]);

  it('answers another box office’s event exactly as an unknown one', async () => {
    const res = await get(`/v1/events/ev_${foreign.id}`);
    expect(res.status).toBe(404);
    expect(res.body).toEqual(
      errorBody(404, 'NOT_FOUND', MESSAGES.noEvent(`ev_${foreign.id}`)),
    );
    const owner = await getAs(
      t.server,
      OTHER_KEY,
    )(`/v1/events/ev_${foreign.id}`);
    expect(owner.status).toBe(200);
    expect(owner.body.name).toBe('Not yours');
  });

  it('takes no query parameters: one is a 400 naming it', async () => {
    const res = await get(`/v1/events/ev_${full.id}?expand=ticket_types`);
    expect(res.status).toBe(400);
    expect(res.body).toEqual(
      errorBody(400, 'VALIDATION_ERROR', 'Unknown query parameter: expand'),
    );
  });

  it('needs a key', async () => {
    const res = await request(t.server).get(`/v1/events/ev_${full.id}`);
    expect(res.status).toBe(401);
    expect(res.body).toEqual(
      errorBody(401, 'UNAUTHORIZED', MESSAGES.unauthorized),
    );
  });

  describe('HEAD and ETag', () => {
    itServesHeadAndETag(routes, () => `ev_${full.id}`);

    it('HEAD answers 404 for an unknown event and 401 without a key', async () => {
      const missing = await request(t.server)
        .head('/v1/events/ev_999999')
        .set('Authorization', basicAuth(KEY));
      expect(missing.status).toBe(404);
      expect((await request(t.server).head('/v1/events')).status).toBe(401);
    });

    it('gives a changed event a new ETag', async () => {
      const event = await f.event(officeId, { name: 'Before' });
      const path = `/v1/events/ev_${event.id}`;
      const before = await get(path);
      await f.ticketType(event.id);
      const after = await get(path);
      expect(after.headers.etag).not.toBe(before.headers.etag);
      const revalidated = await get(path).set(
        'If-None-Match',
        before.headers.etag,
      );
      expect(revalidated.status).toBe(200);
    });
  });
});
