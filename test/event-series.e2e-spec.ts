import type { Event } from '../src/events/entities/event.entity';
import {
  EventSeriesPaymentMethod,
  EventSeriesTicketGroup,
  EventSeriesTicketType,
} from '../src/event-series/entities/event-series-template.entity';
import type { EventSeries } from '../src/event-series/entities/event-series.entity';
import { dateObjectJson } from '../src/events/event-dates';
import {
  type Get,
  type ListBody,
  errorBody,
  getAs,
  idsOf,
  walk,
} from './utils/api';
import { type ListApp, createListApp } from './utils/list-app';

// GET /v1/event_series[/{id}], /v1/event_series/{id}/events[/{event_id}], and the ticket-type
// counters (docs/API.md, "Event series" and "Ticket type counters"). Every count is checked
// against what the lists return. On SQLite by default, on PostgreSQL under
// `npm run test:e2e:postgres`.

const KEY = 'sk_test_event_series_a';
const OTHER_KEY = 'sk_test_event_series_b';
const DAY = 86_400;
/** Far from now either way, so that "upcoming" does not depend on when the suite runs. */
const PAST = Math.floor(Date.now() / 1000) - 400 * DAY;
const FUTURE = Math.floor(Date.now() / 1000) + 400 * DAY;

type Item = { id: string } & Record<string, unknown>;

/** Every item of a list, following links.next. */
async function all(get: Get, start: string): Promise<Item[]> {
  return (await walk<Item>(get, start, 'next')).flatMap((page) => page.data);
}

describe('event series', () => {
  let app: ListApp;
  let get: Get;
  let getOther: Get;
  let club: EventSeries;
  let clubDates: Event[];
  let tour: EventSeries;
  let draft: EventSeries;
  let theirs: EventSeries;
  let theirEvent: Event;

  beforeAll(async () => {
    app = await createListApp(KEY, OTHER_KEY);
    const { f, a, b, t } = app;
    get = app.get;
    getOther = getAs(t.server, OTHER_KEY);

    club = await f.series(a.id, {
      name: 'Friday Club Night',
      createdAt: 1_700_000_100,
      venueName: 'The Warehouse',
    });
    tour = await f.series(a.id, {
      name: 'Comedy Tour',
      createdAt: 1_700_000_300,
      venueName: 'Royal Hall',
      currency: 'eur',
      timezone: 'Europe/Paris',
    });
    draft = await f.series(a.id, {
      name: 'Winter Gala',
      status: 'draft',
      createdAt: 1_700_000_200,
    });
    theirs = await f.series(b.id, {
      name: 'Friday Club Night',
      createdAt: 1_700_000_150,
    });

    // Six weekly dates: four over, two to come; one cancelled.
    clubDates = [];
    for (let week = -4; week < 2; week++) {
      const start = (week < 0 ? PAST : FUTURE) + week * 7 * DAY;
      clubDates.push(
        await f.event(a.id, {
          name: 'Friday Club Night',
          eventSeriesId: club.id,
          startAt: start,
          endAt: start + 5 * 3600,
          status: week === -2 ? 'cancelled' : 'published',
        }),
      );
    }
    const types = await Promise.all(
      clubDates.map((date) => f.ticketType(date.id, { quantityTotal: 50 })),
    );
    // Orders of the club's dates: completed ones with refunds, and one cancelled.
    for (const [i, date] of clubDates.entries()) {
      await f.order(a.id, date.id, {
        ticketType: types[i],
        refundAmount: i * 100,
      });
      if (i % 2 === 0) {
        await f.order(a.id, date.id, { ticketType: types[i], total: 1000 });
      }
    }
    await f.order(a.id, clubDates[1].id, {
      ticketType: types[1],
      status: 'cancelled',
    });
    // A voided ticket counts nowhere.
    await t.dataSource.query(
      `UPDATE issued_tickets SET status = 'void', voided_at = created_at
        WHERE id = (SELECT min(id) FROM issued_tickets WHERE event_id = ${clubDates[0].id})`,
    );

    await f.event(a.id, {
      name: 'Comedy Tour: Paris',
      eventSeriesId: tour.id,
      startAt: FUTURE,
      endAt: FUTURE + 7200,
      currency: 'eur',
      timezone: 'Europe/Paris',
    });
    await f.event(a.id, {
      name: 'Winter Gala',
      eventSeriesId: draft.id,
      status: 'draft',
      startAt: FUTURE + DAY,
      endAt: FUTURE + DAY + 7200,
    });
    theirEvent = await f.event(b.id, {
      eventSeriesId: theirs.id,
      startAt: FUTURE,
      endAt: FUTURE + 3600,
    });
    await f.order(b.id, theirEvent.id);

    // The club's template: two types in one group, and the methods a new date accepts.
    const repo = t.dataSource;
    const group = await repo.getRepository(EventSeriesTicketGroup).save({
      seriesId: club.id,
      name: 'Entry',
      maxPerOrder: 6,
      sortOrder: 1,
    });
    for (const [name, sortOrder, status] of [
      ['Early entry', 2, 'sold_out'],
      ['Entry', 1, 'on_sale'],
    ] as const) {
      await repo.getRepository(EventSeriesTicketType).save({
        seriesId: club.id,
        groupId: group.id,
        name,
        description: null,
        price: 1200,
        bookingFee: 100,
        minPerOrder: 1,
        maxPerOrder: 6,
        quantityTotal: 300,
        status,
        type: 'paid',
        sortOrder,
        accessCode: null,
      });
    }
    await repo.getRepository(EventSeriesPaymentMethod).save({
      seriesId: club.id,
      type: 'stripe',
      paymentMethodId: null,
      externalId: 'acct_1',
      name: 'Stripe',
      instructions: null,
    });
  });

  afterAll(() => app.t.close());

  const ids = (...series: EventSeries[]) => series.map((s) => `es_${s.id}`);

  describe('GET /v1/event_series', () => {
    it('lists the box office’s series newest first, never another’s', async () => {
      const res = await get('/v1/event_series');
      expect(res.status).toBe(200);
      expect(idsOf(res.body as ListBody<Item>)).toEqual(ids(tour, draft, club));
      const other = await getOther('/v1/event_series');
      expect(idsOf(other.body as ListBody<Item>)).toEqual(ids(theirs));
    });

    it.each([
      ['status=draft', () => ids(draft)],
      ['status=published,draft', () => ids(tour, draft, club)],
      ['name=club', () => ids(club)],
      ['name=TOUR', () => ids(tour)],
      ['venue=hall', () => ids(tour)],
      ['venue=%25', () => []],
      ['created_at.gt=1700000100', () => ids(tour, draft)],
      ['created_at.lte=1700000200', () => ids(draft, club)],
      ['created_at=1700000300', () => ids(tour)],
    ])('filters: %s', async (query, want) => {
      const res = await get(`/v1/event_series?${query}`);
      expect(res.status).toBe(200);
      expect(idsOf(res.body as ListBody<Item>)).toEqual(want());
    });

    it('pages with es_ cursors both ways, links keeping the filters', async () => {
      const pages = await walk<Item>(
        get,
        '/v1/event_series?limit=1&status=published,draft',
        'next',
      );
      expect(idsOf(pages)).toEqual(ids(tour, draft, club));
      expect(pages[0].links.next).toBe(
        `/v1/event_series?starting_after=es_${tour.id}&limit=1&status=published%2Cdraft`,
      );
      const back = await walk<Item>(
        get,
        `/v1/event_series?ending_before=es_${club.id}&limit=1`,
        'previous',
      );
      expect(idsOf(back.reverse())).toEqual(ids(tour, draft));
      const foreign = await get(
        `/v1/event_series?starting_after=es_${theirs.id}`,
      );
      expect(foreign.status).toBe(400);
      expect(foreign.body.error_code).toBe('INVALID_CURSOR');
    });

    it.each([
      ['status=open', 'status'],
      ['name=', 'name'],
      ['event_id=ev_1', 'event_id'],
      ['created_at.gt=soon', 'created_at.gt'],
    ])('refuses %s', async (query, word) => {
      const res = await get(`/v1/event_series?${query}`);
      expect(res.status).toBe(400);
      expect(res.body.error_code).toBe('VALIDATION_ERROR');
      expect(res.body.message).toContain(word);
    });
  });

  describe('GET /v1/event_series/{id}', () => {
    it('is the list’s object, with counts that equal what the lists return', async () => {
      const res = await get(`/v1/event_series/es_${club.id}`);
      expect(res.status).toBe(200);
      const listed = (await all(get, '/v1/event_series')).find(
        (s) => s.id === `es_${club.id}`,
      );
      expect(res.body).toEqual(listed);

      const events = await all(get, `/v1/events?event_series_id=es_${club.id}`);
      const now = Math.floor(Date.now() / 1000);
      const upcoming = events.filter(
        (e) => (e.end as { unix: number }).unix > now,
      );
      const tickets = await all(
        get,
        `/v1/issued_tickets?event_series_id=es_${club.id}&status=valid`,
      );
      const orders = await all(
        get,
        `/v1/orders?event_series_id=es_${club.id}&status=completed`,
      );
      const revenue = orders.reduce(
        (sum, o) => sum + (o.total as number) - (o.refund_amount as number),
        0,
      );
      expect(res.body).toMatchObject({
        object: 'event_series',
        id: `es_${club.id}`,
        name: 'Friday Club Night',
        status: 'published',
        total_occurrences: events.length,
        upcoming_occurrences: upcoming.length,
        total_issued_tickets: tickets.length,
        revenue,
        voucher_ids: [],
        default_max_tickets_sold_per_occurrence: null,
      });
      expect(events).toHaveLength(6);
      expect(upcoming).toHaveLength(2);
      // Two per order (the cancelled one's too), less the voided one.
      expect(tickets.length).toBe(2 * 6 + 2 * 3 + 2 - 1);
      expect(revenue).toBeGreaterThan(0);
      expect(res.body.next_occurrence_date).toEqual(upcoming[0].start);
    });

    it('shows its template: types in sort order with capacities, groups naming them', async () => {
      const { body } = await get(`/v1/event_series/es_${club.id}`);
      const types = body.default_ticket_types as Record<string, unknown>[];
      expect(types.map((type) => type.name)).toEqual(['Entry', 'Early entry']);
      expect(types[0]).toMatchObject({
        object: 'ticket_type',
        quantity: 300,
        quantity_total: 300,
        quantity_issued: 0,
        quantity_held: 0,
        quantity_in_baskets: 0,
      });
      expect(types[1]).toMatchObject({ status: 'sold_out', quantity: 0 });
      expect(body.default_ticket_groups).toEqual([
        {
          id: expect.stringMatching(/^tg_\d+$/),
          max_per_order: 6,
          name: 'Entry',
          sort_order: 1,
          ticket_ids: types.map((type) => type.id),
        },
      ]);
      expect(body.payment_methods).toEqual([
        {
          external_id: 'acct_1',
          id: null,
          type: 'stripe',
          name: 'Stripe',
          instructions: null,
        },
      ]);
    });

    it('has no next date when none is left, and counts a draft series’ dates', async () => {
      const { body } = await get(`/v1/event_series/es_${draft.id}`);
      expect(body).toMatchObject({
        status: 'draft',
        total_occurrences: 1,
        upcoming_occurrences: 1,
        total_issued_tickets: 0,
        revenue: 0,
      });
      const tourBody = (await get(`/v1/event_series/es_${tour.id}`)).body;
      expect(tourBody.next_occurrence_date).toEqual(
        JSON.parse(dateObjectJson(FUTURE, 'Europe/Paris')),
      );
      const empty = await app.f.series(app.a.id, { name: 'Not yet dated' });
      const none = (await get(`/v1/event_series/es_${empty.id}`)).body;
      expect(none).toMatchObject({
        next_occurrence_date: null,
        upcoming_occurrences: 0,
        total_occurrences: 0,
      });
    });

    it.each([
      ['es_0'],
      ['es_abc'],
      ['ev_1'],
      ['es_99999999'],
      ['another box office’s'],
    ])('%s → 404', async (which) => {
      const id = which.startsWith('another') ? `es_${theirs.id}` : which;
      const res = await get(`/v1/event_series/${id}`);
      expect(res.status).toBe(404);
      expect(res.body).toEqual(
        errorBody(404, 'NOT_FOUND', expect.stringContaining('event series')),
      );
    });
  });

  describe('GET /v1/event_series/{id}/events', () => {
    it('walks exactly what /v1/events?event_series_id= gives, links under the nested path', async () => {
      for (const query of ['', '&status=published', '&end_at.gt=0']) {
        const nested = await walk<Item>(
          get,
          `/v1/event_series/es_${club.id}/events?limit=2${query}`,
          'next',
        );
        const flat = await all(
          get,
          `/v1/events?event_series_id=es_${club.id}${query}`,
        );
        expect(nested.flatMap((page) => page.data)).toEqual(flat);
        for (const page of nested.slice(0, -1)) {
          expect(page.links.next).toMatch(
            new RegExp(
              `^/v1/event_series/es_${club.id}/events\\?starting_after=ev_\\d+&limit=2`,
            ),
          );
        }
      }
      const back = await walk<Item>(
        get,
        `/v1/event_series/es_${club.id}/events?ending_before=ev_${clubDates[5].id}&limit=2`,
        'previous',
      );
      expect(
        back.reverse().flatMap((page) => page.data.map((e) => e.id)),
      ).toEqual(clubDates.slice(0, 5).map((e) => `ev_${e.id}`));
    });

    it('gives an empty page for any override_id: no date has one', async () => {
      const res = await get(
        `/v1/event_series/es_${club.id}/events?override_id=ov_1`,
      );
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        data: [],
        links: { next: null, previous: null },
      });
    });

    it('refuses a cursor naming an event outside the series', async () => {
      const tourEvent = (await get(`/v1/event_series/es_${tour.id}/events`))
        .body.data[0].id as string;
      for (const cursor of [tourEvent, `ev_${theirEvent.id}`]) {
        const res = await get(
          `/v1/event_series/es_${club.id}/events?starting_after=${cursor}`,
        );
        expect(res.status).toBe(400);
        expect(res.body.error_code).toBe('INVALID_CURSOR');
        expect(res.body.message).toContain(`event series es_${club.id}`);
      }
    });

    it('is 404 for an unknown or another box office’s series, not an empty page', async () => {
      for (const id of ['es_99999999', 'es_x', `es_${theirs.id}`]) {
        const res = await get(`/v1/event_series/${id}/events`);
        expect(res.status).toBe(404);
        expect(res.body.error_code).toBe('NOT_FOUND');
      }
    });

    it('refuses event_series_id: the path names the series', async () => {
      const res = await get(
        `/v1/event_series/es_${club.id}/events?event_series_id=es_${club.id}`,
      );
      expect(res.status).toBe(400);
      expect(res.body.error_code).toBe('VALIDATION_ERROR');
    });

    it('retrieves an event of the series as /v1/events does, and 404s any other', async () => {
      const id = `ev_${clubDates[3].id}`;
      const nested = await get(`/v1/event_series/es_${club.id}/events/${id}`);
      expect(nested.status).toBe(200);
      expect(nested.body).toEqual((await get(`/v1/events/${id}`)).body);
      for (const path of [
        `/v1/event_series/es_${tour.id}/events/${id}`,
        `/v1/event_series/es_${theirs.id}/events/ev_${theirEvent.id}`,
        `/v1/event_series/es_${club.id}/events/ev_abc`,
      ]) {
        const res = await get(path);
        expect(res.status).toBe(404);
        expect(res.body.error_code).toBe('NOT_FOUND');
      }
    });
  });

  describe('ticket type counters', () => {
    it('quantity_issued is the type’s valid tickets; quantity what is left', async () => {
      const events = await all(get, `/v1/events?event_series_id=es_${club.id}`);
      for (const event of events) {
        for (const type of event.ticket_types as Record<string, number>[]) {
          const valid = await all(
            get,
            `/v1/issued_tickets?ticket_type_id=${type.id}&status=valid`,
          );
          expect([type.id, type.quantity_issued]).toEqual([
            type.id,
            valid.length,
          ]);
          expect(type.quantity).toBe(
            type.quantity_total -
              type.quantity_issued -
              type.quantity_held -
              type.quantity_in_baskets,
          );
        }
      }
    });

    it('follow a ticket voided and restored at once', async () => {
      const event = `ev_${clubDates[4].id}`;
      const typeOf = async () =>
        (
          (await get(`/v1/events/${event}`)).body.ticket_types as Record<
            string,
            number
          >[]
        )[0];
      const before = await typeOf();
      const sql = (status: string) =>
        app.t.dataSource.query(
          `UPDATE issued_tickets SET status = '${status}'
            WHERE id = (SELECT min(id) FROM issued_tickets WHERE event_id = ${clubDates[4].id})`,
        );
      await sql('void');
      expect(await typeOf()).toMatchObject({
        quantity_issued: before.quantity_issued - 1,
        quantity: before.quantity + 1,
      });
      await sql('valid');
      expect(await typeOf()).toEqual(before);
    });
  });
});

/** Airbyte's connector: check with GET /v1/event_series, then each series' dates. */
describe('event series: an Airbyte sync of many series and dates', () => {
  let app: ListApp;

  beforeAll(async () => {
    app = await createListApp('sk_test_airbyte_a', 'sk_test_airbyte_b');
    const { f, a, t } = app;
    const repo = t.dataSource.getRepository<Event>('Event');
    // 120 series: one nightly with 130 dates, the others one date each.
    const nightly = await f.series(a.id, { name: 'Nightly', createdAt: 1 });
    const rows: Partial<Event>[] = [];
    for (let n = 0; n < 130; n++) {
      rows.push(eventRow(a.id, nightly.id, `Nightly ${n}`, PAST + n * DAY));
    }
    for (let s = 0; s < 119; s++) {
      const series = await f.series(a.id, {
        name: `One-off ${s}`,
        createdAt: 1000 + s,
      });
      rows.push(eventRow(a.id, series.id, `One-off ${s}`, FUTURE + s * 3600));
    }
    await repo.save(rows, { chunk: 50 });
  });

  afterAll(() => app.t.close());

  it('reaches every series and every date, each count equal to its walk', async () => {
    const series = await all(app.get, '/v1/event_series');
    expect(series).toHaveLength(120);
    let dates = 0;
    for (const one of series) {
      const events = await all(app.get, `/v1/event_series/${one.id}/events`);
      expect([one.id, events.length]).toEqual([one.id, one.total_occurrences]);
      expect(events.every((e) => e.event_series_id === one.id)).toBe(true);
      dates += events.length;
    }
    expect(dates).toBe(130 + 119);
    const allEvents = await all(app.get, '/v1/events');
    expect(allEvents).toHaveLength(dates);
  });
});

function eventRow(
  boxOfficeId: number,
  eventSeriesId: number,
  name: string,
  startAt: number,
): Partial<Event> {
  return {
    boxOfficeId,
    eventSeriesId,
    name,
    startAt,
    endAt: startAt + 3 * 3600,
    timezone: 'Europe/London',
    createdAt: 1_700_000_000,
    url: 'https://tickets.boxoffice.example/e/1',
    imageHeaderUrl: 'https://cdn.boxoffice.example/e/1/header.jpg',
    imageThumbnailUrl: 'https://cdn.boxoffice.example/e/1/thumbnail.jpg',
  };
}
