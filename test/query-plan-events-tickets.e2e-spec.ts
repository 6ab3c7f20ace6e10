import { EventsService } from '../src/events/events.service';
import { IssuedTicketsService } from '../src/issued-tickets/issued-tickets.service';
import { Get, getAs } from './utils/api';
import { TestApp, createTestApp } from './utils/create-test-app';
import { Factory } from './utils/factories';
import {
  Statement,
  planOf,
  planProblems,
  recordStatements,
} from './utils/query-plans';

const KEY = 'sk_query_plan_events';
const BASE = 1_780_000_000;

/**
 * The event and issued-ticket lists cost what a page costs, not what the box office holds: a
 * fixed number of statements whatever the limit, each read through an index in list order (no
 * sort, no full scan), for every filter. Checked on the statements the services really send, on
 * either database.
 */

describe('event and issued-ticket list queries: statement count and plans', () => {
  let t: TestApp;
  let get: Get;
  let statements: Statement[];
  let eventIds: string[];
  let ticketIds: string[];
  let orderIds: string[];
  let barcode: string;

  beforeAll(async () => {
    t = await createTestApp({ AUTH_CACHE_TTL_MS: '60000' });
    const f = new Factory(t.dataSource);
    const { office } = await f.tenant(KEY);
    const other = await f.boxOffice();
    const events = [];
    for (let i = 0; i < 6; i++) {
      const event = await f.event(office.id, {
        startAt: BASE + Math.floor(i / 2) * 100,
        endAt: BASE + 1000,
        status: i % 2 ? 'published' : 'draft',
        eventSeriesId: 7,
      });
      const group = await f.ticketGroup(event.id);
      await f.ticketType(event.id, { groupId: group.id });
      await f.ticketType(event.id);
      await f.paymentMethod(event.id);
      events.push(event);
      await f.event(other.id, { startAt: BASE + i * 50 });
    }
    const orders = [];
    for (let i = 0; i < 12; i++) {
      orders.push(
        await f.order(office.id, events[i % 2].id, {
          createdAt: 1_750_000_000 + Math.floor(i / 3),
        }),
      );
    }
    eventIds = events.map((e) => `ev_${e.id}`);
    orderIds = orders.map((o) => `or_${o.id}`);
    ticketIds = orders.flatMap((o) =>
      o.issuedTickets!.map((x) => `it_${x.id}`),
    );
    barcode = orders[4].issuedTickets![1].barcode;
    get = getAs(t.server, KEY);
    // Warm up (the key's lookup is cached afterwards).
    expect((await get('/v1/events')).status).toBe(200);
    statements = recordStatements([
      t.app.get(EventsService).reader,
      t.app.get(IssuedTicketsService).reader,
    ]);
  });

  afterAll(() => t.close());

  async function statementsFor(path: string): Promise<Statement[]> {
    statements.length = 0;
    const res = await get(path);
    expect({ path, status: res.status }).toEqual({ path, status: 200 });
    return [...statements];
  }

  /**
   * A list query; the index that must serve its page statement on SQLite, whose planner follows
   * fixed rules (PostgreSQL's choice on a few rows says little, so there only sorts and full scans
   * are ruled out); and whether a sort is inherent to the filter.
   */
  interface Variant {
    query: string;
    sqliteIndex: string | null;
    sortAllowed?: boolean;
  }

  const resources: {
    path: string;
    table: RegExp;
    alias: string;
    service: () => { json: { childStatements: readonly string[] } };
    cursor: () => string;
    variants: () => Variant[];
  }[] = [
    {
      path: '/v1/events',
      table: /\bFROM events ev\b/,
      alias: 'ev',
      service: () => t.app.get(EventsService).reader,
      cursor: () => eventIds[2],
      variants: () => [
        { query: '', sqliteIndex: 'IDX_events_list' },
        {
          query: `starting_after=${eventIds[2]}`,
          sqliteIndex: 'IDX_events_list',
        },
        {
          query: `ending_before=${eventIds[2]}`,
          sqliteIndex: 'IDX_events_list',
        },
        { query: `start_at=${BASE + 100}`, sqliteIndex: 'IDX_events_list' },
        {
          query: `start_at.gt=${BASE}&start_at.lte=${BASE + 200}`,
          sqliteIndex: 'IDX_events_list',
        },
        {
          query: `start_at.gte=${BASE + 100}&starting_after=${eventIds[3]}`,
          sqliteIndex: 'IDX_events_list',
        },
        {
          query: `start_at.lt=${BASE + 200}&ending_before=${eventIds[3]}`,
          sqliteIndex: 'IDX_events_list',
        },
        // No index leads with the end: the list is walked in order, the end checked per event.
        { query: `end_at.gte=${BASE}`, sqliteIndex: 'IDX_events_list' },
        { query: 'status=published', sqliteIndex: 'IDX_events_status' },
        {
          query: `status=published&starting_after=${eventIds[1]}`,
          sqliteIndex: 'IDX_events_status',
        },
        {
          query: `status=draft&ending_before=${eventIds[4]}`,
          sqliteIndex: 'IDX_events_status',
        },
        // A comma list is served as for orders: the list in order, each status checked.
        { query: 'status=draft,published', sqliteIndex: null },
        { query: 'event_series_id=es_7', sqliteIndex: 'IDX_events_series' },
        {
          query: `event_series_id=es_7&starting_after=${eventIds[2]}`,
          sqliteIndex: 'IDX_events_series',
        },
      ],
    },
    {
      path: '/v1/issued_tickets',
      table: /\bFROM issued_tickets t\b/,
      alias: 't',
      service: () => t.app.get(IssuedTicketsService).reader,
      cursor: () => ticketIds[6],
      variants: () => [
        { query: '', sqliteIndex: 'IDX_issued_tickets_list' },
        {
          query: `starting_after=${ticketIds[6]}`,
          sqliteIndex: 'IDX_issued_tickets_list',
        },
        {
          query: `ending_before=${ticketIds[6]}`,
          sqliteIndex: 'IDX_issued_tickets_list',
        },
        {
          query: 'created_at=1750000001',
          sqliteIndex: 'IDX_issued_tickets_list',
        },
        {
          query: 'created_at.gt=1750000000&created_at.lte=1750000003',
          sqliteIndex: 'IDX_issued_tickets_list',
        },
        {
          query: `created_at.gte=1750000001&starting_after=${ticketIds[9]}`,
          sqliteIndex: 'IDX_issued_tickets_list',
        },
        {
          query: `event_id=${eventIds[0]}`,
          sqliteIndex: 'IDX_issued_tickets_event_list',
        },
        {
          query: `event_id=${eventIds[0]}&starting_after=${ticketIds[6]}`,
          sqliteIndex: 'IDX_issued_tickets_event_list',
        },
        {
          query: `event_id=${eventIds[1]}&ending_before=${ticketIds[9]}`,
          sqliteIndex: 'IDX_issued_tickets_event_list',
        },
        {
          query: `event_id=${eventIds[0]},${eventIds[1]}`,
          sqliteIndex: null,
        },
        { query: 'status=valid', sqliteIndex: 'IDX_issued_tickets_status' },
        {
          query: `status=void&ending_before=${ticketIds[6]}`,
          sqliteIndex: 'IDX_issued_tickets_status',
        },
        // No index can both range over updated_at and give created_at order: the planner
        // either reads the updated_at range and sorts what matches (what an incremental sync,
        // which matches few, wants) or walks the list in order and checks each ticket.
        {
          query: 'updated_at.gt=1750000001',
          sqliteIndex: 'IDX_issued_tickets_updated',
          sortAllowed: true,
        },
        {
          query: `updated_at.gte=1750000001&starting_after=${ticketIds[9]}`,
          sqliteIndex: null,
          sortAllowed: true,
        },
        {
          query: `order_id=${orderIds[3]}`,
          sqliteIndex: 'IDX_issued_tickets_order_list',
        },
        {
          query: `order_id=${orderIds[3]}&starting_after=${ticketIds[6]}`,
          sqliteIndex: 'IDX_issued_tickets_order_list',
        },
        {
          query: `barcode=${barcode}`,
          sqliteIndex: 'IDX_issued_tickets_barcode_list',
        },
        {
          query: `barcode=${barcode}&ending_before=${ticketIds[6]}`,
          sqliteIndex: 'IDX_issued_tickets_barcode_list',
        },
        // Tickets carry no e-mail, so no index gives the buyer's tickets in list order: the
        // buyer's orders are found through the orders' e-mail index, then their tickets are read
        // by id and sorted (query-plan-door.e2e-spec.ts checks the arms).
        {
          query: 'email=jane.doe@example.com',
          sqliteIndex: null,
          sortAllowed: true,
        },
      ],
    },
  ];

  describe.each(resources)(
    '$path',
    ({ path, table, alias, service, cursor, variants }) => {
      it.each([
        ['first page', () => ''],
        ['starting_after', () => `starting_after=${cursor()}`],
        ['ending_before', () => `ending_before=${cursor()}`],
      ])(
        'sends as many statements for limit=1 as for limit=100 (%s)',
        async (_name, query) => {
          const one = await statementsFor(`${path}?limit=1&${query()}`);
          const hundred = await statementsFor(`${path}?limit=100&${query()}`);
          expect(one.length).toBe(hundred.length);
          // The cursor lookup, the page and the probe; plus, where the service builds the
          // JSON, one statement per child array for the whole page.
          expect(one.length).toBeLessThanOrEqual(
            3 + service().json.childStatements.length,
          );
        },
      );

      it('reads every filter through an index in list order: no sort, no full scan', async () => {
        const sqlite = t.dataSource.options.type !== 'postgres';
        const problems = [];
        for (const { query, sqliteIndex, sortAllowed } of variants()) {
          const sent = await statementsFor(`${path}?limit=5&${query}`);
          // On PostgreSQL the children of a page are read apart and sorted, a cost bounded by
          // the page; on SQLite they are subqueries of the page statement, checked with it.
          const checked = sent.filter((s) => sqlite || table.test(s.sql));
          const page = sent.find(
            (s) => table.test(s.sql) && /\bORDER BY\b/.test(s.sql),
          );
          expect({ query, page: page !== undefined }).toEqual({
            query,
            page: true,
          });
          for (const statement of checked) {
            const lines = await planOf(t.dataSource, statement);
            const found = planProblems(t.dataSource, lines);
            const wrongIndex =
              sqlite &&
              sqliteIndex !== null &&
              statement === page &&
              !lines.some((line) =>
                new RegExp(
                  `^SEARCH ${alias} USING (COVERING )?INDEX ${sqliteIndex} \\(`,
                ).test(line),
              );
            if (
              (found.sorts.length > 0 && !sortAllowed) ||
              found.fullScans.length > 0 ||
              wrongIndex
            ) {
              problems.push({
                query,
                statement: statement.sql.split('\n')[0].slice(0, 60),
                expected: sqlite ? sqliteIndex : 'no sort, no full scan',
                plan: lines,
              });
            }
          }
        }
        expect(problems).toEqual([]);
      });
    },
  );
});
