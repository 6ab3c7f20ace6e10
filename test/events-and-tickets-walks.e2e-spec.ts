import type { Event } from '../src/events/entities/event.entity';
import fc from 'fast-check';
import { Get, getAs, idsOf, walk } from './utils/api';
import { TestApp, createTestApp } from './utils/create-test-app';
import { Factory } from './utils/factories';

// Walking the event and issued-ticket lists (docs/API.md, Pagination: Walking): for random data,
// limits and filters, `next` from the first page visits every matching item once, in list order;
// `previous` from the last page returns the same pages; and from any item as a cursor, the walks
// either way give exactly the matches on either side of it.

const BASE = 1_780_000_000;
const EVENT_STATUSES = ['draft', 'published', 'sales_closed', 'cancelled'];

describe('property: walks of /v1/events and /v1/issued_tickets match the oracle', () => {
  let t: TestApp;
  let f: Factory;
  let run = 0;

  beforeAll(async () => {
    t = await createTestApp({ RATE_LIMIT_MAX: '1000000' });
    f = new Factory(t.dataSource);
  });

  afterAll(() => t.close());

  /** A fresh box office with a key, so that each run sees only its own data. */
  async function freshOffice(): Promise<{ id: number; get: Get }> {
    const key = `sk_test_walks_${++run}`;
    const office = await f.boxOffice();
    await f.apiKey(office.id, key);
    return { id: office.id, get: getAs(t.server, key) };
  }

  /**
   * Checks the walks of `path?query` against `want` (the matching ids in list order) for a page
   * size of `limit`; `cursors` are ids of the list (matching or not) with the matches before and
   * after each.
   */
  async function expectWalks(
    get: Get,
    path: string,
    query: string,
    limit: number,
    want: string[],
    cursors: { id: string; before: string[]; after: string[] }[],
  ) {
    const forward = await walk(get, `${path}?${query}`, 'next');
    expect(idsOf(forward)).toEqual(want);
    if (want.length === 0) {
      expect(forward).toEqual([
        { data: [], links: { next: null, previous: null } },
      ]);
    } else {
      expect(forward).toHaveLength(Math.ceil(want.length / limit));
      expect(forward[0].links.previous).toBeNull();
      for (const page of forward.slice(0, -1))
        expect(page.data).toHaveLength(limit);
      const last = forward[forward.length - 1];
      const back = last.links.previous
        ? await walk(get, last.links.previous, 'previous')
        : [];
      expect(back.reverse()).toEqual(forward.slice(0, -1));
    }
    for (const cursor of cursors) {
      const after = await walk(
        get,
        `${path}?starting_after=${cursor.id}&${query}`,
        'next',
      );
      expect({ cursor: cursor.id, after: idsOf(after) }).toEqual({
        cursor: cursor.id,
        after: cursor.after,
      });
      const before = await walk(
        get,
        `${path}?ending_before=${cursor.id}&${query}`,
        'previous',
      );
      expect({ cursor: cursor.id, before: idsOf(before.reverse()) }).toEqual({
        cursor: cursor.id,
        before: cursor.before,
      });
    }
  }

  it('events: for random starts, ends, statuses, limits and filters', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.record({
            start: fc.integer({ min: 0, max: 5 }),
            length: fc.integer({ min: 0, max: 3 }),
            status: fc.constantFrom(...EVENT_STATUSES),
          }),
          { maxLength: 14 },
        ),
        fc.integer({ min: 1, max: 5 }),
        fc.oneof(
          fc.constant(undefined),
          fc.record({
            kind: fc.constant('start' as const),
            gte: fc.integer({ min: 0, max: 5 }),
            lt: fc.integer({ min: 0, max: 6 }),
          }),
          fc.record({
            kind: fc.constant('end' as const),
            lte: fc.integer({ min: 0, max: 8 }),
          }),
          fc.record({
            kind: fc.constant('status' as const),
            statuses: fc.subarray(EVENT_STATUSES, { minLength: 1 }),
          }),
        ),
        fc.array(fc.nat(), { maxLength: 2 }),
        async (specs, limit, filter, picks) => {
          const office = await freshOffice();
          const events: Event[] = [];
          for (const spec of specs) {
            const startAt = BASE + spec.start * 100;
            events.push(
              await f.event(office.id, {
                startAt,
                endAt: startAt + spec.length * 100,
                status: spec.status as 'draft',
              }),
            );
          }
          const ordered = events.sort(
            (a, b) => a.startAt - b.startAt || a.id - b.id,
          );
          const matches = (e: (typeof events)[number]) =>
            !filter ||
            (filter.kind === 'start' &&
              e.startAt >= BASE + filter.gte * 100 &&
              e.startAt < BASE + filter.lt * 100) ||
            (filter.kind === 'end' && e.endAt <= BASE + filter.lte * 100) ||
            (filter.kind === 'status' && filter.statuses.includes(e.status));
          const query =
            `limit=${limit}` +
            (!filter
              ? ''
              : filter.kind === 'start'
                ? `&start_at.gte=${BASE + filter.gte * 100}&start_at.lt=${BASE + filter.lt * 100}`
                : filter.kind === 'end'
                  ? `&end_at.lte=${BASE + filter.lte * 100}`
                  : `&status=${filter.statuses.join(',')}`);
          const ids = (list: typeof events) =>
            list.filter(matches).map((e) => `ev_${e.id}`);
          await expectWalks(
            office.get,
            '/v1/events',
            query,
            limit,
            ids(ordered),
            ordered.length === 0
              ? []
              : picks.map((pick) => {
                  const at = pick % ordered.length;
                  return {
                    id: `ev_${ordered[at].id}`,
                    before: ids(ordered.slice(0, at)),
                    after: ids(ordered.slice(at + 1)),
                  };
                }),
          );
        },
      ),
      { numRuns: 15, seed: 20260620 },
    );
  });

  it('issued tickets: for random issue times, changes, events, limits and filters', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.record({
            created: fc.integer({ min: 0, max: 5 }),
            event: fc.integer({ min: 0, max: 1 }),
            tickets: fc.array(
              fc.record({
                void: fc.boolean(),
                changed: fc.integer({ min: 0, max: 4 }),
              }),
              { maxLength: 3 },
            ),
          }),
          { maxLength: 8 },
        ),
        fc.integer({ min: 1, max: 5 }),
        fc.oneof(
          fc.constant(undefined),
          fc.record({
            kind: fc.constant('event' as const),
            event: fc.integer({ min: 0, max: 1 }),
          }),
          fc.record({
            kind: fc.constant('status' as const),
            status: fc.constantFrom('valid', 'void'),
          }),
          fc.record({
            kind: fc.constant('created' as const),
            gt: fc.integer({ min: 0, max: 5 }),
          }),
          fc.record({
            kind: fc.constant('updated' as const),
            gte: fc.integer({ min: 0, max: 9 }),
          }),
        ),
        fc.array(fc.nat(), { maxLength: 2 }),
        async (specs, limit, filter, picks) => {
          const office = await freshOffice();
          const events = [await f.event(office.id), await f.event(office.id)];
          const orders = await f.orders(
            office.id,
            events[0].id,
            specs.map((spec) => {
              const createdAt = BASE + spec.created * 100;
              const eventId = events[spec.event].id;
              return {
                eventId,
                createdAt,
                issuedTickets: spec.tickets.map((ticket) => {
                  const updatedAt = createdAt + ticket.changed * 100;
                  return f.ticket(eventId, {
                    createdAt,
                    updatedAt,
                    status: ticket.void ? 'void' : 'valid',
                    voidedAt: ticket.void ? updatedAt : null,
                  });
                }),
              };
            }),
          );
          const tickets = orders
            .flatMap((o) => o.issuedTickets!)
            .sort((a, b) => b.createdAt - a.createdAt || b.id - a.id);
          const eventIds = events.map((e) => e.id);
          const matches = (k: (typeof tickets)[number]) =>
            !filter ||
            (filter.kind === 'event' && k.eventId === eventIds[filter.event]) ||
            (filter.kind === 'status' && k.status === filter.status) ||
            (filter.kind === 'created' &&
              k.createdAt > BASE + filter.gt * 100) ||
            (filter.kind === 'updated' &&
              k.updatedAt >= BASE + filter.gte * 100);
          const query =
            `limit=${limit}` +
            (!filter
              ? ''
              : filter.kind === 'event'
                ? `&event_id=ev_${eventIds[filter.event]}`
                : filter.kind === 'status'
                  ? `&status=${filter.status}`
                  : filter.kind === 'created'
                    ? `&created_at.gt=${BASE + filter.gt * 100}`
                    : `&updated_at.gte=${BASE + filter.gte * 100}`);
          const ids = (list: typeof tickets) =>
            list.filter(matches).map((k) => `it_${k.id}`);
          await expectWalks(
            office.get,
            '/v1/issued_tickets',
            query,
            limit,
            ids(tickets),
            tickets.length === 0
              ? []
              : picks.map((pick) => {
                  const at = pick % tickets.length;
                  return {
                    id: `it_${tickets[at].id}`,
                    before: ids(tickets.slice(0, at)),
                    after: ids(tickets.slice(at + 1)),
                  };
                }),
          );
        },
      ),
      { numRuns: 15, seed: 20260620 },
    );
  });
});
