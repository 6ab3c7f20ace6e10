import type { Event } from '../src/events/entities/event.entity';
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
import { EventBody, expectWellFormedEvent } from './utils/event-shape';
import { COMPARISONS, createListApp, expectedIds } from './utils/list-app';

// GET /v1/events: order, paging, filters, cursors, links and errors (docs/API.md, GET /v1/events
// and Pagination). Every answer is checked against an oracle computed here from the factory data.

const KEY = 'sk_test_events_a';
const OTHER_KEY = 'sk_test_events_b';
/** The earliest start of box office A's events (2026-06-01 00:00 UTC). */
const BASE = 1_780_272_000;
const HOUR = 3600;
/** Box office A's event count. */
const COUNT = 23;
const STATUSES = ['published', 'draft', 'sales_closed', 'cancelled'] as const;

interface Known {
  id: string;
  num: number;
  startAt: number;
  endAt: number;
  status: string;
  series: string;
  name: string;
  venue: string | null;
}

const known = (e: Event): Known => ({
  id: `ev_${e.id}`,
  num: e.id,
  startAt: e.startAt,
  endAt: e.endAt,
  status: e.status,
  series: `es_${e.eventSeriesId}`,
  name: e.name,
  venue: e.venueName,
});

/** The list order: start ascending, then numeric id ascending. */
const nextFirst = (a: Known, b: Known) =>
  a.startAt - b.startAt || a.num - b.num;

describe('GET /v1/events', () => {
  let t: TestApp;
  let get: Get;
  /** Box office A's events in list order: the oracle. */
  let all: Known[];
  let ids: string[];
  let otherIds: string[];

  const expected = (keep: (e: Known) => boolean) => expectedIds(all, keep);
  const list = (query: string) => listIds(get, `/v1/events?${query}`);

  beforeAll(async () => {
    const app = await createListApp(KEY, OTHER_KEY);
    ({ t, get } = app);
    const { f, a, b } = app;
    // Ten distinct starts over 23 events, not in id order: ties and the id tie-break matter.
    // Ends tie across different starts; three series; every status.
    const saved: Event[] = [];
    for (let i = 0; i < COUNT; i++) {
      const startAt = BASE + ((i * 7) % 10) * HOUR;
      saved.push(
        await f.event(a.id, {
          // Mixed case, letters beyond ASCII and the LIKE wildcards, so that the text filters
          // are tested on each.
          name: i % 4 === 0 ? `Jazz_Night ${i}` : `jazz night ${i}`,
          venueName: [null, 'The 100% Club', 'Town Hall Södermalm'][i % 3],
          startAt,
          endAt: startAt + (1 + (i % 3)) * HOUR,
          status: STATUSES[i % STATUSES.length],
          eventSeriesId: 101 + Math.floor(i / 8),
        }),
      );
      if (i % 7 === 3) await f.ticketType(saved[i].id, { quantityTotal: i });
    }
    all = saved.map(known).sort(nextFirst);
    ids = all.map((e) => e.id);
    // Box office B's events sit between A's, in A's series numbers too.
    otherIds = [];
    for (const offset of [0, 2.5, 5, 9]) {
      const other = await f.event(b.id, {
        startAt: BASE + offset * HOUR,
        endAt: BASE + (offset + 1) * HOUR,
        eventSeriesId: 101,
      });
      otherIds.push(`ev_${other.id}`);
    }
  });

  afterAll(() => t.close());

  describe('order and limit', () => {
    it('lists every event, the next to start first, ties broken by id ascending', async () => {
      const res = await get('/v1/events');
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        data: expect.any(Array),
        links: { next: null, previous: null },
      });
      expect(idsOf(res.body as ListBody<EventBody>)).toEqual(ids);
      // The oracle really has ties to break, and ids that do not rise with the start.
      expect(new Set(all.map((e) => e.startAt)).size).toBe(10);
      expect(
        [...ids].sort((x, y) => Number(x.slice(3)) - Number(y.slice(3))),
      ).not.toEqual(ids);
      for (const event of res.body.data) expectWellFormedEvent(event);
    });

    it('never lists another box office’s events', async () => {
      const listed = await list('limit=5');
      expect(listed).toEqual(ids);
      for (const id of otherIds) expect(listed).not.toContain(id);
      expect(await listIds(getAs(t.server, OTHER_KEY), '/v1/events')).toEqual(
        otherIds,
      );
    });

    it.each([1, 2, 7, 22, 23, 100])(
      'limit=%i gives that many events',
      async (limit) => {
        const res = await get(`/v1/events?limit=${limit}`);
        expect(res.status).toBe(200);
        expect(idsOf(res.body as ListBody<EventBody>)).toEqual(
          ids.slice(0, limit),
        );
        expect(res.body.links).toEqual({
          next:
            limit < COUNT
              ? `/v1/events?starting_after=${ids[limit - 1]}&limit=${limit}`
              : null,
          previous: null,
        });
      },
    );

    it('next from the first page visits every event once, in order; previous walks the same pages back', async () => {
      const forward = await walk<EventBody>(get, '/v1/events?limit=4', 'next');
      expect(forward).toHaveLength(Math.ceil(COUNT / 4));
      expect(idsOf(forward)).toEqual(ids);
      expect(forward[0].links.previous).toBeNull();
      const last = forward[forward.length - 1];
      expect(last.links.next).toBeNull();
      const back = await walk<EventBody>(get, last.links.previous!, 'previous');
      expect(back.reverse()).toEqual(forward.slice(0, -1));
    });

    it('answers /v1/events/ exactly as /v1/events, and links as /v1/events', async () => {
      const plain = await get(`/v1/events?limit=3&status=published`);
      const slash = await get(`/v1/events/?limit=3&status=published`);
      expect(slash.status).toBe(200);
      expect(slash.body).toEqual(plain.body);
      // Paths are case-sensitive (docs/API.md, "Paths and versions").
      expect((await get('/V1/EVENTS?limit=3')).status).toBe(404);
      const published = expected((e) => e.status === 'published');
      expect(plain.body.links).toEqual({
        next: `/v1/events?starting_after=${published[2]}&limit=3&status=published`,
        previous: null,
      });
    });
  });

  describe('filters', () => {
    // A start that some events have and one that none has; likewise an end.
    const startCases = COMPARISONS.flatMap(([suffix, op]) => [
      [`start_at${suffix}`, BASE + 4 * HOUR, op] as const,
      [`start_at${suffix}`, BASE + 4 * HOUR + 1, op] as const,
    ]);
    const endCases = COMPARISONS.flatMap(([suffix, op]) => [
      [`end_at${suffix}`, BASE + 6 * HOUR, op] as const,
      [`end_at${suffix}`, BASE + 6 * HOUR - 1, op] as const,
    ]);

    it.each(startCases)(
      '%s=%i matches start.unix as the oracle does, across pages',
      async (key, value, op) => {
        const want = expected((e) => op(e.startAt, value));
        expect(await list(`${key}=${value}&limit=3`)).toEqual(want);
      },
    );

    it.each(endCases)(
      '%s=%i matches end.unix as the oracle does, across pages',
      async (key, value, op) => {
        const want = expected((e) => op(e.endAt, value));
        expect(await list(`${key}=${value}&limit=3`)).toEqual(want);
      },
    );

    it('has events at the values the equality cases use', () => {
      expect(
        expected((e) => e.startAt === BASE + 4 * HOUR).length,
      ).toBeGreaterThan(1);
      expect(
        expected((e) => e.endAt === BASE + 6 * HOUR).length,
      ).toBeGreaterThan(1);
      // An end that several starts share, so that end_at is not start_at in disguise.
      expect(
        new Set(
          all.filter((e) => e.endAt === BASE + 6 * HOUR).map((e) => e.startAt),
        ).size,
      ).toBeGreaterThan(1);
    });

    it('combines start_at and end_at bounds with AND', async () => {
      const low = BASE + 2 * HOUR;
      const high = BASE + 8 * HOUR;
      expect(
        await list(`start_at.gte=${low}&start_at.lt=${high}&limit=4`),
      ).toEqual(expected((e) => e.startAt >= low && e.startAt < high));
      expect(
        await list(`start_at.gt=${low}&end_at.lte=${high}&limit=4`),
      ).toEqual(expected((e) => e.startAt > low && e.endAt <= high));
      expect(await list(`start_at=${low}&start_at.lt=${low}`)).toEqual([]);
      expect(await list('start_at.lt=0')).toEqual([]);
      expect(await list('end_at.lte=253402300799&limit=100')).toEqual(ids);
    });

    it.each(STATUSES)('status=%s', async (status) => {
      const want = expected((e) => e.status === status);
      expect(want.length).toBeGreaterThan(0);
      expect(await list(`status=${status}&limit=2`)).toEqual(want);
    });

    it('status: a comma list, in any order, duplicates allowed', async () => {
      const want = expected(
        (e) => e.status === 'draft' || e.status === 'cancelled',
      );
      expect(await list('status=draft,cancelled&limit=3')).toEqual(want);
      expect(await list('status=cancelled,draft,cancelled&limit=100')).toEqual(
        want,
      );
      expect(
        await list('status=draft,published,sales_closed,cancelled'),
      ).toEqual(ids);
    });

    it('status: links keep the comma list, encoded', async () => {
      const want = expected(
        (e) => e.status === 'draft' || e.status === 'cancelled',
      );
      const res = await get('/v1/events?status=draft,cancelled&limit=2');
      expect(res.body.links).toEqual({
        next: `/v1/events?starting_after=${want[1]}&status=draft%2Ccancelled&limit=2`,
        previous: null,
      });
    });

    it('name and venue: a substring, case ignored in any script, % and _ taken literally', async () => {
      const named = expected((e) => e.name.toLowerCase().includes('jazz_'));
      expect(named.length).toBeGreaterThan(0);
      expect(await list('name=JAZZ_&limit=3')).toEqual(named);
      // `_` is no wildcard: "jazz night" does not match "jazz_".
      expect(named.length).toBeLessThan(ids.length);
      expect(await list('name=Night&limit=4')).toEqual(ids);
      const club = expected((e) => e.venue === 'The 100% Club');
      expect(club.length).toBeGreaterThan(0);
      expect(await list('venue=0%25%20c&limit=3')).toEqual(club);
      // `%` is no wildcard: "100%" is not "1%0".
      expect(await list('venue=1%250')).toEqual([]);
      // Case is ignored beyond ASCII too: SÖDERMALM finds Södermalm, on both databases.
      const hall = expected((e) => e.venue === 'Town Hall Södermalm');
      expect(hall.length).toBeGreaterThan(0);
      expect(
        await list(`venue=${encodeURIComponent('SÖDERMALM')}&limit=3`),
      ).toEqual(hall);
      expect(await list(`venue=${encodeURIComponent('södermalm')}`)).toEqual(
        hall,
      );
      // A NUL would end SQLite's pattern early (`a%00b` searching for `a`): refused instead.
      const nul = await get('/v1/events?name=a%00b');
      expect(nul.status).toBe(400);
      expect(nul.body).toEqual(
        errorBody(
          400,
          'VALIDATION_ERROR',
          'name must not contain a NUL character (%00)',
        ),
      );
      expect(await list('venue=town&name=jazz_')).toEqual(
        expected(
          (e) =>
            e.venue === 'Town Hall Södermalm' &&
            e.name.toLowerCase().includes('jazz_'),
        ),
      );
    });

    it('event_series_id: the events of that series', async () => {
      for (const series of ['es_101', 'es_102', 'es_103']) {
        const want = expected((e) => e.series === series);
        expect(want.length).toBeGreaterThan(0);
        expect(await list(`event_series_id=${series}&limit=3`)).toEqual(want);
      }
      expect(await list('event_series_id=es_999')).toEqual([]);
      expect(await list('event_series_id=es_9999999999')).toEqual([]);
    });

    it('combines every filter with AND', async () => {
      const want = expected(
        (e) =>
          (e.status === 'published' || e.status === 'draft') &&
          e.series === 'es_101' &&
          e.startAt >= BASE + HOUR &&
          e.endAt < BASE + 10 * HOUR,
      );
      expect(want.length).toBeGreaterThan(1);
      expect(
        await list(
          `status=published,draft&event_series_id=es_101&start_at.gte=${BASE + HOUR}&end_at.lt=${BASE + 10 * HOUR}&limit=1`,
        ),
      ).toEqual(want);
    });

    it('keeps filters when starting from a cursor, both ways', async () => {
      const low = BASE + HOUR;
      const query = `start_at.gte=${low}&status=published,draft,sales_closed&limit=3`;
      const encoded = `start_at.gte=${low}&status=published%2Cdraft%2Csales_closed&limit=3`;
      const want = expected(
        (e) => e.startAt >= low && e.status !== 'cancelled',
      );
      expect(want.length).toBeGreaterThan(10);
      const after = await get(`/v1/events?starting_after=${want[4]}&${query}`);
      expect(after.status).toBe(200);
      expect(idsOf(after.body as ListBody<EventBody>)).toEqual(
        want.slice(5, 8),
      );
      expect(after.body.links).toEqual({
        next: `/v1/events?starting_after=${want[7]}&${encoded}`,
        previous: `/v1/events?ending_before=${want[5]}&${encoded}`,
      });
      const before = await get(`/v1/events?ending_before=${want[4]}&${query}`);
      expect(before.status).toBe(200);
      expect(idsOf(before.body as ListBody<EventBody>)).toEqual(
        want.slice(1, 4),
      );
      expect(before.body.links).toEqual({
        next: `/v1/events?starting_after=${want[3]}&${encoded}`,
        previous: `/v1/events?ending_before=${want[1]}&${encoded}`,
      });
    });

    it('takes a cursor event that the filters exclude as a position', async () => {
      const index = 11;
      const cursor = all[index];
      const other = cursor.status === 'draft' ? 'published' : 'draft';
      const after = all
        .slice(index + 1)
        .filter((e) => e.status === other)
        .map((e) => e.id);
      const res = await get(
        `/v1/events?starting_after=${cursor.id}&status=${other}`,
      );
      expect(res.status).toBe(200);
      expect(idsOf(res.body as ListBody<EventBody>)).toEqual(after);
      expect(res.body.links).toEqual({
        next: null,
        previous: `/v1/events?ending_before=${after[0]}&status=${other}`,
      });
      // A start range that excludes the cursor, on the far side of it.
      const before = await get(
        `/v1/events?ending_before=${cursor.id}&start_at.lt=${cursor.startAt - HOUR}`,
      );
      expect(idsOf(before.body as ListBody<EventBody>)).toEqual(
        expected((e) => e.startAt < cursor.startAt - HOUR),
      );
      expect(before.body.links.previous).toBeNull();
    });
  });

  describe('cursors and links', () => {
    it('starting_after gives the events after the cursor; links replace the cursor', async () => {
      const res = await get(`/v1/events?starting_after=${ids[3]}&limit=2`);
      expect(res.status).toBe(200);
      expect(idsOf(res.body as ListBody<EventBody>)).toEqual(ids.slice(4, 6));
      expect(res.body.links).toEqual({
        next: `/v1/events?starting_after=${ids[5]}&limit=2`,
        previous: `/v1/events?ending_before=${ids[4]}&limit=2`,
      });
    });

    it('ending_before gives the events right before the cursor, in list order', async () => {
      const res = await get(`/v1/events?ending_before=${ids[10]}&limit=3`);
      expect(idsOf(res.body as ListBody<EventBody>)).toEqual(ids.slice(7, 10));
      expect(res.body.links).toEqual({
        next: `/v1/events?starting_after=${ids[9]}&limit=3`,
        previous: `/v1/events?ending_before=${ids[7]}&limit=3`,
      });
      const top = await get(`/v1/events?ending_before=${ids[2]}&limit=5`);
      expect(idsOf(top.body as ListBody<EventBody>)).toEqual(ids.slice(0, 2));
      expect(top.body.links).toEqual({
        next: `/v1/events?starting_after=${ids[1]}&limit=5`,
        previous: null,
      });
    });

    it('uses only ending_before when both cursors are given, even a malformed starting_after', async () => {
      for (const startingAfter of [ids[0], 'ev_x']) {
        const res = await get(
          `/v1/events?starting_after=${startingAfter}&ending_before=${ids[10]}&limit=3`,
        );
        expect(res.status).toBe(200);
        expect(idsOf(res.body as ListBody<EventBody>)).toEqual(
          ids.slice(7, 10),
        );
        expect(res.body.links).toEqual({
          next: `/v1/events?starting_after=${ids[9]}&limit=3`,
          previous: `/v1/events?ending_before=${ids[7]}&limit=3`,
        });
      }
    });

    it('gives an empty page with both links null past either end, or when nothing matches', async () => {
      const empty = { data: [], links: { next: null, previous: null } };
      for (const query of [
        `starting_after=${ids[COUNT - 1]}`,
        `ending_before=${ids[0]}&limit=4`,
        `start_at.gt=${BASE + 100 * HOUR}`,
        `starting_after=${ids[2]}&start_at.lt=${BASE}`,
      ]) {
        const res = await get(`/v1/events?${query}`);
        expect({ query, status: res.status, body: res.body }).toEqual({
          query,
          status: 200,
          body: empty,
        });
      }
    });

    it('ends with next null on a last page that is exactly full', async () => {
      const res = await get(
        `/v1/events?starting_after=${ids[COUNT - 6]}&limit=5`,
      );
      expect(idsOf(res.body as ListBody<EventBody>)).toEqual(
        ids.slice(COUNT - 5),
      );
      expect(res.body.links).toEqual({
        next: null,
        previous: `/v1/events?ending_before=${ids[COUNT - 5]}&limit=5`,
      });
    });

    const malformed = [
      'ev_abc',
      'ev_0',
      'ev_01',
      'ev_-1',
      'EV_1',
      'or_1',
      '1',
      'ev_',
      '',
      'ev_2147483648',
      'ev_99999999999',
    ];
    const parameters = ['starting_after', 'ending_before'] as const;

    it.each(
      parameters.flatMap((parameter) =>
        malformed.map((value) => [parameter, value] as const),
      ),
    )(
      'rejects a malformed %s (%s) with 400 INVALID_CURSOR',
      async (parameter, value) => {
        const res = await get(`/v1/events?${parameter}=${value}`);
        expect(res.status).toBe(400);
        expect(res.body).toEqual(
          errorBody(400, 'INVALID_CURSOR', MESSAGES.eventCursor(parameter)),
        );
      },
    );

    it.each(parameters)(
      'rejects an unknown event, and another box office’s, as %s',
      async (parameter) => {
        for (const id of ['ev_999999', 'ev_2147483647', ...otherIds]) {
          const res = await get(`/v1/events?${parameter}=${id}`);
          expect({ id, status: res.status, body: res.body }).toEqual({
            id,
            status: 400,
            body: errorBody(
              400,
              'INVALID_CURSOR',
              MESSAGES.eventCursor(parameter),
            ),
          });
        }
      },
    );

    it('rejects a repeated cursor, and an order id, with the event message', async () => {
      const repeated = await get(
        `/v1/events?starting_after=${ids[1]}&starting_after=${ids[2]}`,
      );
      expect(repeated.body).toEqual(
        errorBody(
          400,
          'INVALID_CURSOR',
          MESSAGES.eventCursor('starting_after'),
        ),
      );
    });
  });

  describe('validation errors', () => {
    it.each([
      'created_at',
      'start_at.gtt',
      'end',
      'event_id',
      'series_id',
      'Status',
      'page',
    ])('rejects the unknown parameter %s, naming it', async (name) => {
      const res = await get(`/v1/events?${name}=1`);
      expect(res.status).toBe(400);
      expect(res.body).toEqual(
        errorBody(400, 'VALIDATION_ERROR', `Unknown query parameter: ${name}`),
      );
    });

    const STATUS_MESSAGE =
      'status must be one of draft, published, sales_closed, cancelled, or a comma list of them';
    it.each([
      ['limit=0', 'limit must be an integer from 1 to 100'],
      ['limit=101', 'limit must be an integer from 1 to 100'],
      ['limit=abc', 'limit must be an integer from 1 to 100'],
      ['limit=1&limit=2', 'limit must be given once'],
      ['start_at=abc', 'start_at must be an integer (Unix seconds)'],
      ['start_at.gt=1.5', 'start_at.gt must be an integer (Unix seconds)'],
      ['start_at.gte=', 'start_at.gte must be an integer (Unix seconds)'],
      ['start_at.lt=1e9', 'start_at.lt must be an integer (Unix seconds)'],
      ['start_at.lte=0x10', 'start_at.lte must be an integer (Unix seconds)'],
      ['end_at=2026-06-01', 'end_at must be an integer (Unix seconds)'],
      ['end_at.gt=%201', 'end_at.gt must be an integer (Unix seconds)'],
      ['end_at.gte=abc', 'end_at.gte must be an integer (Unix seconds)'],
      ['end_at.lt=-', 'end_at.lt must be an integer (Unix seconds)'],
      ['end_at.lte=1.0', 'end_at.lte must be an integer (Unix seconds)'],
      ['start_at=1&start_at=2', 'start_at must be given once'],
      ['end_at.lt=1&end_at.lt=2', 'end_at.lt must be given once'],
      ['status=done', STATUS_MESSAGE],
      ['status=Published', STATUS_MESSAGE],
      ['status=', STATUS_MESSAGE],
      ['status=draft,', STATUS_MESSAGE],
      ['status=draft,,published', STATUS_MESSAGE],
      ['status=draft%20,published', STATUS_MESSAGE],
      ['status=draft&status=published', 'status must be given once'],
      ['event_series_id=101', 'event_series_id must be an id (es_<number>)'],
      ['event_series_id=es_0', 'event_series_id must be an id (es_<number>)'],
      ['event_series_id=ev_1', 'event_series_id must be an id (es_<number>)'],
      [
        'event_series_id=es_1,es_2',
        'event_series_id must be an id (es_<number>)',
      ],
      ['event_series_id=', 'event_series_id must be an id (es_<number>)'],
      [
        'event_series_id=es_1&event_series_id=es_1',
        'event_series_id must be given once',
      ],
    ])('rejects %s: %s', async (query, message) => {
      const res = await get(`/v1/events?${query}`);
      expect(res.status).toBe(400);
      expect(res.body).toEqual(errorBody(400, 'VALIDATION_ERROR', message));
    });
  });
});
