import { createHash } from 'node:crypto';
import type { BenchDb } from './database';
import { DOOR_KEY, type DoorScan, doorRushScans } from './door-rush';
import { seededRandom, shuffle } from './random';
import {
  ISSUE_TYPES,
  issueLoad,
  voidLoad,
  type TicketWriteCheck,
} from './ticket-writes';

export const DEMO_KEY = 'sk_demo_boxoffice_1';
export const OTHER_KEY = 'sk_demo_boxoffice_2';
export const AUTH_HEADER = `Basic ${Buffer.from(`${DEMO_KEY}:`).toString('base64')}`;
/** The headers of every benchmark request: box office 1's demo key. */
export const REQUEST_HEADERS: Readonly<Record<string, string>> = {
  authorization: AUTH_HEADER,
};
/** The door rush's requests: its key (door-rush.ts, DOOR_KEY). */
export const DOOR_HEADERS: Readonly<Record<string, string>> = {
  authorization: `Basic ${Buffer.from(`${DOOR_KEY}:`).toString('base64')}`,
};

export const SCENARIO_NAMES = [
  'first',
  'walk',
  'deep50',
  'deep99',
  'range',
  'event',
  'retrieve',
  'invalid',
  'events',
  'eventget',
  'tickets',
  'ticketdeep',
  'ticketget',
  'series',
  'seriesevents',
  'seriesfilter',
  'checkins',
  'overview',
  'syncwalk',
  'feedpoll',
  'firstpoll',
  'getpoll',
  'eventpoll',
  'eventgetpoll',
  'doorrush',
  'doorrush200',
  'doorrushexpand',
  'walkscans',
  'issue',
  'void',
  'products',
  'vouchers',
  'codes',
  'discounts',
  'waitlists',
  'productpoll',
  'searchevent',
  'searchoffice',
  'attendance',
  'attendancepoll',
] as const;
export type ScenarioName = (typeof SCENARIO_NAMES)[number];

export const SCENARIO_TITLES: Record<ScenarioName, string> = {
  first: 'first page',
  walk: 'cursor walk, first 100 pages',
  deep50: 'deep cursor at 50%',
  deep99: 'deep cursor at 99%',
  range: '30-day created_at range + cursor',
  event: 'event_id filter',
  retrieve: 'GET /v1/orders/{id} (5% 404)',
  invalid: 'invalid cursor (400)',
  events: 'events list, a page of up to 100',
  eventget: 'GET /v1/events/{id} (5% 404)',
  tickets: 'issued-ticket cursor walk, first 100 pages',
  ticketdeep: 'issued-ticket deep cursor at 99%',
  ticketget: 'GET /v1/issued_tickets/{id} (5% 404)',
  series: 'event series list (every series, one page)',
  seriesevents: "a series' dates, nested: /v1/event_series/{id}/events",
  seriesfilter: 'the same dates, filtered: /v1/events?event_series_id=',
  checkins: 'check-in cursor walk, first 100 pages',
  overview: 'GET /v1/overview',
  syncwalk: 'sync walk: sort=updated_at, keyed cursors, first 100 pages',
  feedpoll: 'change-feed poll from the head (nothing new)',
  firstpoll: 'first page, revalidated (304 from the data version)',
  getpoll: 'GET /v1/orders/{id}, revalidated (304 from the data version)',
  eventpoll:
    'events list pages, revalidated (304 from the data and stock versions)',
  eventgetpoll:
    'GET /v1/events/{id}, revalidated (304 from the data and stock versions)',
  doorrush:
    'door rush: POST /v1/check_ins by barcode, each scanner its own tickets, 3% scanned twice',
  doorrush200: 'door rush, paced at 200 scans/s',
  doorrushexpand:
    'door rush, each scan with ?expand=issued_ticket (the gate shows whose ticket)',
  walkscans: 'cursor walk while the door rush runs at 200 scans/s',
  issue: `tickets issued: POST /v1/issued_tickets across ${ISSUE_TYPES} ticket types`,
  void: 'tickets voided: POST /v1/issued_tickets/{id}/void, each ticket once',
  products: 'products list, a page (and by status)',
  vouchers: 'vouchers list, a page',
  codes:
    "a voucher's codes, nested: /v1/vouchers/{id}/codes, cursors among them",
  discounts: 'discounts list, a page (and by code)',
  waitlists:
    "a series' waitlist signups, nested: /v1/event_series/{id}/waitlist_signups",
  productpoll:
    'products list, revalidated (304 from the data and catalogue versions)',
  searchevent:
    'ticket search within one event: /v1/issued_tickets?event_id=&search= (name, e-mail, barcode, order id)',
  searchoffice:
    'ticket search across the box office: /v1/issued_tickets?search=',
  attendance: 'attendance of the biggest event: /v1/events/{id}/attendance',
  attendancepoll:
    'attendance of the biggest event, revalidated (304 from the data version)',
};

/** The paced door rush's rate, scans per second over all connections. */
export const DOOR_RUSH_RATE = 200;

/**
 * Scenarios the typical peer has no endpoint or parameter for (incremental sync, the change
 * feed): timed on ours only, and checked by the gate against ours2 alone.
 */
export const OURS_ONLY: ReadonlySet<ScenarioName> = new Set([
  'syncwalk',
  'feedpoll',
  'firstpoll',
  'getpoll',
  'eventpoll',
  'eventgetpoll',
  'doorrush',
  'doorrush200',
  'doorrushexpand',
  'walkscans',
  'issue',
  'void',
  'products',
  'vouchers',
  'codes',
  'discounts',
  'waitlists',
  'productpoll',
  'searchevent',
  'searchoffice',
  'attendance',
  'attendancepoll',
]);

/** The orders' scenarios, the only ones the framework-free baseline serves (bench/bare.ts). */
export const BARE_SCENARIOS: ReadonlySet<ScenarioName> = new Set([
  'first',
  'walk',
  'deep50',
  'deep99',
  'range',
  'event',
  'retrieve',
  'invalid',
]);

export interface Scenario {
  name: ScenarioName;
  title: string;
  /** Request paths, used round-robin by the load generator (and sampled by the gate). */
  paths: string[];
  /** Statuses that are right answers here; anything else counts as an error. */
  okStatuses: number[];
  /** The status each path must get (checked by the gate); 200 when not listed. */
  expected: Map<string, number>;
  /**
   * Requests carry the path's revalidated ETag in If-None-Match, as a poller's do: the timed
   * answers are 304s (load.ts, revalidationHeaders). The gate sends none.
   */
  revalidate?: true;
  /**
   * A write scenario (the door rush): each request POSTs the next of these to the one path,
   * instead of a GET of the paths; `rate` paces the whole load (requests per second).
   */
  scans?: readonly DoorScan[];
  rate?: number;
  /**
   * A write load that runs beside the timed requests (the door rush while the walk is read): the
   * reads are what is measured.
   */
  beside?: { scans: readonly DoorScan[]; rate: number };
  /**
   * A ticket write (the `scans` are issues or voids): what the database must hold after a run,
   * and what is undone then (ticket-writes.ts).
   */
  ticketWrites?: TicketWriteCheck;
  /** The requests' headers, when not REQUEST_HEADERS (the door rush's key). */
  headers?: Readonly<Record<string, string>>;
}

export interface DatasetFacts {
  boxOfficeId: number;
  otherBoxOfficeId: number;
  /** Orders of the benchmarked box office (box office 1). */
  orders: number;
  otherOrders: number;
  deep50Position: number;
  deep99Position: number;
  range: { gte: number; lt: number; orders: number };
  /** Events with more than a page of orders (the event_id filter's requests). */
  events: number;
  /** All events of the benchmarked box office, its issued tickets, series and check-ins. */
  eventCount: number;
  tickets: number;
  seriesCount: number;
  checkIns: number;
  ticketDeep99Position: number;
  /** What the connectors read besides: the benchmarked box office's rows of each. */
  products: number;
  vouchers: number;
  codes: number;
  discounts: number;
  signups: number;
}

const DAY = 86_400;

async function boxOfficeOf(db: BenchDb, key: string): Promise<number> {
  const hash = createHash('sha256').update(key, 'utf8').digest('hex');
  const rows = await db.all<{ id: number | string }>(
    'SELECT box_office_id AS id FROM api_keys WHERE key_hash = ? AND revoked_at IS NULL',
    [hash],
  );
  if (rows.length === 0)
    throw new Error(`the database has no demo key ${key}: was it seeded?`);
  return Number(rows[0].id);
}

/** A list as the API orders it: its table and its ORDER BY. */
interface ListOrder {
  table: string;
  order: string;
}
const ORDERS: ListOrder = {
  table: 'orders',
  order: 'created_at DESC, id DESC',
};
const EVENTS: ListOrder = { table: 'events', order: 'start_at ASC, id ASC' };
const TICKETS: ListOrder = {
  table: 'issued_tickets',
  order: 'created_at DESC, id DESC',
};
const CHECK_INS: ListOrder = {
  table: 'check_ins',
  order: 'created_at DESC, id DESC',
};

/** Ids of the box office's items in list order, from `offset`. */
async function idsFrom(
  db: BenchDb,
  list: ListOrder,
  boxOfficeId: number,
  offset: number,
  count: number,
  extra = '',
  extraParams: unknown[] = [],
): Promise<number[]> {
  const rows = await db.all<{ id: number | string }>(
    `SELECT id FROM ${list.table} WHERE box_office_id = ? ${extra} ORDER BY ${list.order} LIMIT ? OFFSET ?`,
    [boxOfficeId, ...extraParams, count, offset],
  );
  return rows.map((r) => Number(r.id));
}

async function count(
  db: BenchDb,
  sql: string,
  params: unknown[],
): Promise<number> {
  const rows = await db.all<{ n: number | string }>(sql, params);
  return Number(rows[0].n);
}

/** `count` ids picked at random among `ids`, with repeats when there are fewer. */
function pick(ids: number[], count: number, random: () => number): number[] {
  const copy = shuffle([...ids], random);
  const out: number[] = [];
  for (let i = 0; i < count; i++) out.push(copy[i % copy.length]);
  return out;
}

/** Random existing ids of a box office's items (any position), by probing the primary key. */
async function randomIds(
  db: BenchDb,
  table: string,
  boxOfficeId: number,
  count: number,
  random: () => number,
): Promise<number[]> {
  const [bounds] = await db.all<{ lo: number | string; hi: number | string }>(
    `SELECT min(id) AS lo, max(id) AS hi FROM ${table} WHERE box_office_id = ?`,
    [boxOfficeId],
  );
  const lo = Number(bounds.lo);
  const hi = Number(bounds.hi);
  const ids: number[] = [];
  for (let attempt = 0; ids.length < count; attempt++) {
    if (attempt > count * 20) {
      // A box office with very few orders: take them all, round-robin.
      const all = await db.all<{ id: number | string }>(
        `SELECT id FROM ${table} WHERE box_office_id = ? LIMIT ?`,
        [boxOfficeId, count],
      );
      while (ids.length < count)
        ids.push(Number(all[ids.length % all.length].id));
      break;
    }
    const probe = lo + Math.floor(random() * (hi - lo + 1));
    // By primary key only: with the box office in the WHERE clause a planner may walk that index.
    const rows = await db.all<{
      id: number | string;
      box_office_id: number | string;
    }>(
      `SELECT id, box_office_id FROM ${table} WHERE id >= ? ORDER BY id LIMIT 200`,
      [probe],
    );
    const hit = rows.find((r) => Number(r.box_office_id) === boxOfficeId);
    if (hit) ids.push(Number(hit.id));
  }
  return ids;
}

/**
 * The request lists of every scenario, derived from the data with a seeded PRNG so that two runs
 * on the same database send the same requests.
 */
export async function buildScenarios(
  db: BenchDb,
  seed: number,
): Promise<{ scenarios: Scenario[]; facts: DatasetFacts }> {
  const random = seededRandom(seed * 7919 + 17);
  const boxOfficeId = await boxOfficeOf(db, DEMO_KEY);
  const otherBoxOfficeId = await boxOfficeOf(db, OTHER_KEY);
  const orders = await count(
    db,
    'SELECT count(*) AS n FROM orders WHERE box_office_id = ?',
    [boxOfficeId],
  );
  const otherOrders = await count(
    db,
    'SELECT count(*) AS n FROM orders WHERE box_office_id = ?',
    [otherBoxOfficeId],
  );
  if (orders < 1_000)
    throw new Error(`box office 1 has only ${orders} orders: seed more`);

  const list = (query: string) => `/v1/orders${query ? `?${query}` : ''}`;
  const after = (id: number, before = '') =>
    list(`${before}${before ? '&' : ''}starting_after=or_${id}`);

  // Walk: cursors anywhere in the first 100 pages.
  const firstPages = await idsFrom(
    db,
    ORDERS,
    boxOfficeId,
    0,
    Math.min(10_000, orders - 101),
  );
  const walk = pick(firstPages, 1_000, random).map((id) => after(id));

  // Deep: cursors in a window of up to 5,000 orders starting at 50% / 99% of the list, each
  // leaving at least one full page after it.
  const deepWindow = async (
    list: ListOrder,
    total: number,
    fraction: number,
    path: (id: number) => string,
  ) => {
    const start = Math.max(
      0,
      Math.min(Math.floor(total * fraction), total - 102),
    );
    const width = Math.max(1, Math.min(5_000, total - 101 - start));
    return {
      start,
      paths: pick(
        await idsFrom(db, list, boxOfficeId, start, width),
        200,
        random,
      ).map(path),
    };
  };
  const deep50 = await deepWindow(ORDERS, orders, 0.5, (id) => after(id));
  const deep99 = await deepWindow(ORDERS, orders, 0.99, (id) => after(id));

  // Range: the 30 days (from a UTC midnight) around the median order, with a cursor among the
  // range's first 100 pages.
  const [median] = await db.all<{ created_at: number | string }>(
    'SELECT created_at FROM orders WHERE box_office_id = ? ORDER BY created_at DESC, id DESC LIMIT 1 OFFSET ?',
    [boxOfficeId, Math.floor(orders / 2)],
  );
  const gte = Math.floor((Number(median.created_at) - 15 * DAY) / DAY) * DAY;
  const lt = gte + 30 * DAY;
  const rangeFilter = 'AND created_at >= ? AND created_at < ?';
  const rangeOrders = await count(
    db,
    `SELECT count(*) AS n FROM orders WHERE box_office_id = ? ${rangeFilter}`,
    [boxOfficeId, gte, lt],
  );
  const rangeIds = await idsFrom(
    db,
    ORDERS,
    boxOfficeId,
    0,
    Math.max(1, Math.min(10_000, rangeOrders - 101)),
    rangeFilter,
    [gte, lt],
  );
  const range = pick(rangeIds, 1_000, random).map((id) =>
    after(id, `created_at.gte=${gte}&created_at.lt=${lt}`),
  );

  // Event filter: first pages of up to 50 events that have more than a page of orders.
  const eventRows = await db.all<{
    event_id: number | string;
    n: number | string;
  }>(
    'SELECT event_id, count(*) AS n FROM orders WHERE box_office_id = ? GROUP BY event_id HAVING count(*) > 100 ORDER BY event_id',
    [boxOfficeId],
  );
  if (eventRows.length === 0)
    throw new Error('no event has more than 100 orders');
  const filterEvents = shuffle(
    eventRows.map((r) => Number(r.event_id)),
    random,
  ).slice(0, 50);
  const event = filterEvents.map((id) => list(`event_id=ev_${id}`));

  // Retrieve: 95% our orders, 5% another box office's (which must 404).
  const ours = await randomIds(db, 'orders', boxOfficeId, 950, random);
  const theirs =
    otherOrders > 0
      ? await randomIds(db, 'orders', otherBoxOfficeId, 50, random)
      : [];
  const retrieve = shuffle([...ours, ...theirs], random).map(
    (id) => `/v1/orders/or_${id}`,
  );
  const foreign = new Map(theirs.map((id) => [`/v1/orders/or_${id}`, 404]));

  // Invalid cursor: malformed ids and another box office's orders.
  const invalid: string[] = [];
  for (let i = 0; i < 300; i++) {
    invalid.push(
      i % 3 === 0
        ? list('starting_after=or_0')
        : i % 3 === 1
          ? list(`starting_after=ev_${1 + i}`)
          : after(
              theirs.length > 0 ? theirs[i % theirs.length] : 2_000_000_000,
            ),
    );
  }

  const events = await eventScenarios(
    db,
    boxOfficeId,
    otherBoxOfficeId,
    random,
  );
  const tickets = await ticketScenarios(
    db,
    boxOfficeId,
    otherBoxOfficeId,
    random,
    deepWindow,
  );
  const series = await seriesScenarios(db, boxOfficeId, random);
  const catalogue = await catalogueScenarios(db, boxOfficeId, random);
  const door = await doorScenarios(db, boxOfficeId, random);

  // Sync walk: keyed cursors (id@updated_at) anywhere in the first 100 pages in updated_at order.
  const byUpdate = await db.all<{
    id: number | string;
    updated_at: number | string;
  }>(
    'SELECT id, updated_at FROM orders WHERE box_office_id = ? ORDER BY updated_at ASC, id ASC LIMIT ?',
    [boxOfficeId, Math.min(10_000, orders - 101)],
  );
  const syncwalk = pick(
    byUpdate.map((_, i) => i),
    1_000,
    random,
  ).map(
    (i) =>
      `/v1/orders?starting_after=or_${Number(byUpdate[i].id)}@${Number(byUpdate[i].updated_at)}&sort=updated_at`,
  );

  // Feed poll: a poller at the head, asking what came since (nothing, between changes).
  const [head] = await db.all<{ last_id: number | string }>(
    'SELECT coalesce(max(last_id), 0) AS last_id FROM change_heads WHERE box_office_id = ?',
    [boxOfficeId],
  );
  const position = `chg_${Number(head.last_id)}`;
  const feedpoll = [
    `/v1/changes?starting_after=${position}`,
    `/v1/changes?starting_after=${position}&limit=50`,
    `/v1/changes?starting_after=${position}&type=ORDER.*,ISSUED_TICKET.*`,
  ];

  const none = new Map<string, number>();
  const scenarios: Scenario[] = [
    {
      name: 'first',
      title: SCENARIO_TITLES.first,
      paths: [list('')],
      okStatuses: [200],
      expected: none,
    },
    {
      name: 'walk',
      title: SCENARIO_TITLES.walk,
      paths: walk,
      okStatuses: [200],
      expected: none,
    },
    {
      name: 'deep50',
      title: SCENARIO_TITLES.deep50,
      paths: deep50.paths,
      okStatuses: [200],
      expected: none,
    },
    {
      name: 'deep99',
      title: SCENARIO_TITLES.deep99,
      paths: deep99.paths,
      okStatuses: [200],
      expected: none,
    },
    {
      name: 'range',
      title: SCENARIO_TITLES.range,
      paths: range,
      okStatuses: [200],
      expected: none,
    },
    {
      name: 'event',
      title: SCENARIO_TITLES.event,
      paths: event,
      okStatuses: [200],
      expected: none,
    },
    {
      name: 'retrieve',
      title: SCENARIO_TITLES.retrieve,
      paths: retrieve,
      okStatuses: [200, 404],
      expected: foreign,
    },
    {
      name: 'invalid',
      title: SCENARIO_TITLES.invalid,
      paths: invalid,
      okStatuses: [400],
      expected: new Map(invalid.map((p) => [p, 400])),
    },
    ...events.scenarios,
    ...tickets.scenarios,
    ...series.scenarios,
    ...catalogue.scenarios,
    ...door,
    {
      name: 'syncwalk',
      title: SCENARIO_TITLES.syncwalk,
      paths: syncwalk,
      okStatuses: [200],
      expected: none,
    },
    {
      name: 'feedpoll',
      title: SCENARIO_TITLES.feedpoll,
      paths: feedpoll,
      okStatuses: [200],
      expected: none,
    },
    {
      name: 'firstpoll',
      title: SCENARIO_TITLES.firstpoll,
      paths: [list('')],
      okStatuses: [304],
      expected: none,
      revalidate: true,
    },
    {
      name: 'getpoll',
      title: SCENARIO_TITLES.getpoll,
      paths: ours.map((id) => `/v1/orders/or_${id}`),
      okStatuses: [304],
      expected: none,
      revalidate: true,
    },
    ...(await doorRushScenarios(db, boxOfficeId, seed, walk)),
    ...(await ticketWriteScenarios(db, boxOfficeId, seed)),
  ];
  return {
    scenarios,
    facts: {
      boxOfficeId,
      otherBoxOfficeId,
      orders,
      otherOrders,
      deep50Position: deep50.start,
      deep99Position: deep99.start,
      range: { gte, lt, orders: rangeOrders },
      events: eventRows.length,
      eventCount: events.count,
      tickets: tickets.count,
      ticketDeep99Position: tickets.deep99Position,
      seriesCount: series.count,
      checkIns: series.checkIns,
      ...catalogue.counts,
    },
  };
}

/** 95% of `ours`, 5% of `theirs` (which must 404), shuffled; `path` makes each request. */
function retrievals(
  ours: number[],
  theirs: number[],
  path: (id: number) => string,
  random: () => number,
): Pick<Scenario, 'paths' | 'okStatuses' | 'expected'> {
  const paths = shuffle([...ours.map(path), ...theirs.map(path)], random);
  return {
    paths,
    okStatuses: [200, 404],
    expected: new Map(theirs.map((id) => [path(id), 404])),
  };
}

/**
 * The events list and event retrieval. A page is full whenever the box office has more than a
 * page of events (a cursor among the first `count - 100`); with a page or less (a small seed, or
 * the demo catalogue before ticket types were seeded) it is the one page that holds them all.
 */
async function eventScenarios(
  db: BenchDb,
  boxOfficeId: number,
  otherBoxOfficeId: number,
  random: () => number,
): Promise<{ scenarios: Scenario[]; count: number }> {
  const ids = await idsFrom(db, EVENTS, boxOfficeId, 0, 1_000_000);
  if (ids.length === 0) throw new Error('box office 1 has no events');
  const theirIds = await idsFrom(db, EVENTS, otherBoxOfficeId, 0, 1_000_000);
  const pages =
    ids.length > 101
      ? pick(ids.slice(0, ids.length - 100), 200, random).map(
          (id) => `/v1/events?starting_after=ev_${id}`,
        )
      : ['/v1/events'];
  const ours = pick(ids, 950, random);
  const none = new Map<string, number>();
  return {
    count: ids.length,
    scenarios: [
      {
        name: 'events',
        title: SCENARIO_TITLES.events,
        paths: pages,
        okStatuses: [200],
        expected: none,
      },
      {
        name: 'eventget',
        title: SCENARIO_TITLES.eventget,
        ...retrievals(
          ours,
          theirIds.length > 0 ? pick(theirIds, 50, random) : [],
          (id) => `/v1/events/ev_${id}`,
          random,
        ),
      },
      // A front end's poll: the same pages and events, each revalidated with its versioned tag.
      {
        name: 'eventpoll',
        title: SCENARIO_TITLES.eventpoll,
        paths: pages,
        okStatuses: [304],
        expected: none,
        revalidate: true,
      },
      {
        name: 'eventgetpoll',
        title: SCENARIO_TITLES.eventgetpoll,
        paths: ours.map((id) => `/v1/events/ev_${id}`),
        okStatuses: [304],
        expected: none,
        revalidate: true,
      },
    ],
  };
}

/** The issued-ticket walk, its deep cursors and ticket retrieval, as for orders. */
async function ticketScenarios(
  db: BenchDb,
  boxOfficeId: number,
  otherBoxOfficeId: number,
  random: () => number,
  deepWindow: (
    list: ListOrder,
    total: number,
    fraction: number,
    path: (id: number) => string,
  ) => Promise<{ start: number; paths: string[] }>,
): Promise<{ scenarios: Scenario[]; count: number; deep99Position: number }> {
  const total = await count(
    db,
    'SELECT count(*) AS n FROM issued_tickets WHERE box_office_id = ?',
    [boxOfficeId],
  );
  if (total < 1_000)
    throw new Error(`box office 1 has only ${total} issued tickets: seed more`);
  const theirs = await count(
    db,
    'SELECT count(*) AS n FROM issued_tickets WHERE box_office_id = ?',
    [otherBoxOfficeId],
  );
  const after = (id: number) => `/v1/issued_tickets?starting_after=it_${id}`;
  const firstPages = await idsFrom(
    db,
    TICKETS,
    boxOfficeId,
    0,
    Math.min(10_000, total - 101),
  );
  const deep99 = await deepWindow(TICKETS, total, 0.99, after);
  const none = new Map<string, number>();
  return {
    count: total,
    deep99Position: deep99.start,
    scenarios: [
      {
        name: 'tickets',
        title: SCENARIO_TITLES.tickets,
        paths: pick(firstPages, 1_000, random).map(after),
        okStatuses: [200],
        expected: none,
      },
      {
        name: 'ticketdeep',
        title: SCENARIO_TITLES.ticketdeep,
        paths: deep99.paths,
        okStatuses: [200],
        expected: none,
      },
      {
        name: 'ticketget',
        title: SCENARIO_TITLES.ticketget,
        ...retrievals(
          await randomIds(db, 'issued_tickets', boxOfficeId, 950, random),
          theirs > 0
            ? await randomIds(
                db,
                'issued_tickets',
                otherBoxOfficeId,
                50,
                random,
              )
            : [],
          (id) => `/v1/issued_tickets/it_${id}`,
          random,
        ),
      },
    ],
  };
}

/**
 * The door's look-up and numbers: searches as a door types them when a code will not scan (a
 * part of the holder's name, the start of the buyer's e-mail, the start of the barcode, the
 * order's id), for tickets of the event with the most tickets (with its event_id) and of any
 * event (without); and that event's attendance, plain and revalidated.
 */
async function doorScenarios(
  db: BenchDb,
  boxOfficeId: number,
  random: () => number,
): Promise<Scenario[]> {
  const [biggest] = await db.all<{ event_id: number | string }>(
    'SELECT event_id FROM issued_tickets WHERE box_office_id = ? GROUP BY event_id ORDER BY count(*) DESC, event_id LIMIT 1',
    [boxOfficeId],
  );
  const event = Number(biggest.event_id);
  /** What a door would type to find each of these tickets, in turn one of four kinds. */
  const searches = (
    rows: {
      full_name: string | null;
      barcode: string;
      buyer_email: string;
      order_id: number | string;
    }[],
  ) =>
    rows.map((row, i) => {
      const name = (row.full_name ?? '').split(' ');
      const kind = row.full_name === null && i % 4 === 0 ? 1 : i % 4;
      const text =
        kind === 0
          ? // A first name and the start of the last: "Tiana Go".
            `${name[0]} ${(name[1] ?? '').slice(0, 2)}`.trim()
          : kind === 1
            ? row.buyer_email.split('@')[0].slice(0, 6)
            : kind === 2
              ? row.barcode.slice(0, 6)
              : `or_${Number(row.order_id)}`;
      return encodeURIComponent(text);
    });
  const sample = async (where: string, params: unknown[]) =>
    db.all<{
      full_name: string | null;
      barcode: string;
      buyer_email: string;
      order_id: number | string;
    }>(
      `SELECT t.full_name, t.barcode, o.buyer_email, t.order_id FROM issued_tickets t
        JOIN orders o ON o.id = t.order_id WHERE t.box_office_id = ? ${where}
        ORDER BY t.id LIMIT 5000`,
      [boxOfficeId, ...params],
    );
  const eventRows = await sample('AND t.event_id = ?', [event]);
  const ofEvent = pick(
    eventRows.map((_, i) => i),
    200,
    random,
  );
  const officeIds = await randomIds(
    db,
    'issued_tickets',
    boxOfficeId,
    200,
    random,
  );
  const officeRows = [];
  for (const id of officeIds) {
    officeRows.push(...(await sample('AND t.id = ?', [id])));
  }
  const none = new Map<string, number>();
  const attendance = `/v1/events/ev_${event}/attendance`;
  return [
    {
      name: 'searchevent',
      title: SCENARIO_TITLES.searchevent,
      paths: searches(ofEvent.map((i) => eventRows[i])).map(
        (text) => `/v1/issued_tickets?event_id=ev_${event}&search=${text}`,
      ),
      okStatuses: [200],
      expected: none,
    },
    {
      name: 'searchoffice',
      title: SCENARIO_TITLES.searchoffice,
      paths: searches(officeRows).map(
        (text) => `/v1/issued_tickets?search=${text}`,
      ),
      okStatuses: [200],
      expected: none,
    },
    {
      name: 'attendance',
      title: SCENARIO_TITLES.attendance,
      paths: [attendance],
      okStatuses: [200],
      expected: none,
    },
    {
      name: 'attendancepoll',
      title: SCENARIO_TITLES.attendancepoll,
      paths: [attendance],
      okStatuses: [304],
      expected: none,
      revalidate: true,
    },
  ];
}

/**
 * What Ticket Tailor's clients read besides orders, events and tickets: the series list (one page
 * holds every series of the demo box office), each series' dates nested under it and the same
 * dates through the events list's filter (the two must cost the same), the check-in walk and the
 * overview.
 */
async function seriesScenarios(
  db: BenchDb,
  boxOfficeId: number,
  random: () => number,
): Promise<{ scenarios: Scenario[]; count: number; checkIns: number }> {
  const series = (
    await db.all<{ id: number | string }>(
      'SELECT id FROM event_series WHERE box_office_id = ? ORDER BY id',
      [boxOfficeId],
    )
  ).map((row) => Number(row.id));
  if (series.length === 0) throw new Error('box office 1 has no event series');
  const checkIns = await count(
    db,
    'SELECT count(*) AS n FROM check_ins WHERE box_office_id = ?',
    [boxOfficeId],
  );
  if (checkIns < 1_000)
    throw new Error(`box office 1 has only ${checkIns} check-ins: seed more`);
  const walked = pick(
    await idsFrom(
      db,
      CHECK_INS,
      boxOfficeId,
      0,
      Math.min(10_000, checkIns - 101),
    ),
    1_000,
    random,
  );
  const order = shuffle([...series], random);
  const none = new Map<string, number>();
  const ok = { okStatuses: [200], expected: none };
  return {
    count: series.length,
    checkIns,
    scenarios: [
      {
        name: 'series',
        title: SCENARIO_TITLES.series,
        paths: ['/v1/event_series'],
        ...ok,
      },
      {
        name: 'seriesevents',
        title: SCENARIO_TITLES.seriesevents,
        paths: order.map((id) => `/v1/event_series/es_${id}/events`),
        ...ok,
      },
      {
        name: 'seriesfilter',
        title: SCENARIO_TITLES.seriesfilter,
        paths: order.map((id) => `/v1/events?event_series_id=es_${id}`),
        ...ok,
      },
      {
        name: 'checkins',
        title: SCENARIO_TITLES.checkins,
        paths: walked.map((id) => `/v1/check_ins?starting_after=ci_${id}`),
        ...ok,
      },
      {
        name: 'overview',
        title: SCENARIO_TITLES.overview,
        paths: ['/v1/overview'],
        ...ok,
      },
    ],
  };
}

/**
 * The door rush, flat out and paced (door-rush.ts): the same scans, drawn with a PRNG of their
 * own so that the read scenarios' requests stay what they were. A scan is answered 201, or 409
 * for a ticket scanned twice.
 */
async function doorRushScenarios(
  db: BenchDb,
  boxOfficeId: number,
  seed: number,
  walk: string[],
): Promise<Scenario[]> {
  const scans = await doorRushScans(
    db,
    boxOfficeId,
    seededRandom(seed * 104_729 + 3),
  );
  const door = {
    paths: ['/v1/check_ins'],
    okStatuses: [201, 409],
    expected: new Map<string, number>(),
    scans,
    headers: DOOR_HEADERS,
  };
  return [
    { name: 'doorrush', title: SCENARIO_TITLES.doorrush, ...door },
    {
      name: 'doorrush200',
      title: SCENARIO_TITLES.doorrush200,
      ...door,
      rate: DOOR_RUSH_RATE,
    },
    // The same rush, each answer carrying the ticket: one statement more a scan.
    {
      name: 'doorrushexpand',
      title: SCENARIO_TITLES.doorrushexpand,
      ...door,
      paths: ['/v1/check_ins?expand=issued_ticket'],
    },
    // The reads while the doors are busy: the walk's requests, with the paced rush beside them.
    {
      name: 'walkscans',
      title: SCENARIO_TITLES.walkscans,
      paths: walk,
      okStatuses: [200],
      expected: new Map<string, number>(),
      beside: { scans, rate: DOOR_RUSH_RATE },
    },
  ];
}

/**
 * The ticket writes (ticket-writes.ts), with PRNGs of their own so that the other scenarios'
 * requests stay what they were. An issue is answered 201, or 409 SOLD_OUT once its type has none
 * left; a void 200 (each ticket is voided once; a run that cycles past the end sends retries,
 * answered from the kept answer).
 */
async function ticketWriteScenarios(
  db: BenchDb,
  boxOfficeId: number,
  seed: number,
): Promise<Scenario[]> {
  const issue = await issueLoad(
    db,
    boxOfficeId,
    seededRandom(seed * 104_729 + 5),
  );
  const voids = await voidLoad(
    db,
    boxOfficeId,
    seededRandom(seed * 104_729 + 7),
  );
  return [
    {
      name: 'issue',
      title: SCENARIO_TITLES.issue,
      paths: ['/v1/issued_tickets'],
      okStatuses: [201, 409],
      expected: new Map<string, number>(),
      scans: issue.requests,
      ticketWrites: issue.check,
    },
    {
      name: 'void',
      title: SCENARIO_TITLES.void,
      paths: ['/v1/issued_tickets'],
      okStatuses: [200],
      expected: new Map<string, number>(),
      scans: voids.requests,
      ticketWrites: voids.check,
    },
  ];
}

/**
 * What Ticket Tailor's connectors read besides (each a stream of Airbyte's connector): the
 * products, vouchers and discounts lists (a box office has a page of each, at any number of
 * orders), a voucher's codes through cursors among them, a series' waitlist signups, and the
 * products list revalidated as a poller sends it.
 */
async function catalogueScenarios(
  db: BenchDb,
  boxOfficeId: number,
  random: () => number,
): Promise<{
  scenarios: Scenario[];
  counts: Pick<
    DatasetFacts,
    'products' | 'vouchers' | 'codes' | 'discounts' | 'signups'
  >;
}> {
  const countOf = (table: string) =>
    count(db, `SELECT count(*) AS n FROM ${table} WHERE box_office_id = ?`, [
      boxOfficeId,
    ]);
  const counts = {
    products: await countOf('products'),
    vouchers: await countOf('vouchers'),
    codes: await countOf('voucher_codes'),
    discounts: await countOf('discounts'),
    signups: await countOf('waitlist_signups'),
  };
  for (const [what, n] of Object.entries(counts)) {
    if (n === 0) throw new Error(`box office 1 has no ${what}: seed again`);
  }
  // A voucher's codes: its first page, and pages from a cursor among its codes.
  const codes = await db.all<{
    id: number | string;
    voucher_id: number | string;
  }>(
    'SELECT id, voucher_id FROM voucher_codes WHERE box_office_id = ? ORDER BY voucher_id, created_at DESC, id DESC',
    [boxOfficeId],
  );
  const codePaths = [
    ...new Set(
      codes.map((c) => `/v1/vouchers/vo_${Number(c.voucher_id)}/codes`),
    ),
    ...pick(
      codes.map((_, i) => i),
      200,
      random,
    ).map(
      (i) =>
        `/v1/vouchers/vo_${Number(codes[i].voucher_id)}/codes?starting_after=vc_${Number(codes[i].id)}`,
    ),
  ];
  const [discount] = await db.all<{ code: string }>(
    'SELECT code FROM discounts WHERE box_office_id = ? ORDER BY id LIMIT 1',
    [boxOfficeId],
  );
  const waitlisted = (
    await db.all<{ id: number | string }>(
      'SELECT DISTINCT event_series_id AS id FROM waitlist_signups WHERE box_office_id = ? ORDER BY 1',
      [boxOfficeId],
    )
  ).map((row) => Number(row.id));
  const none = new Map<string, number>();
  const ok = { okStatuses: [200], expected: none };
  const productPages = [
    '/v1/products',
    '/v1/products?status=available,sold_out',
  ];
  return {
    counts,
    scenarios: [
      {
        name: 'products',
        title: SCENARIO_TITLES.products,
        paths: productPages,
        ...ok,
      },
      {
        name: 'vouchers',
        title: SCENARIO_TITLES.vouchers,
        paths: ['/v1/vouchers'],
        ...ok,
      },
      {
        name: 'codes',
        title: SCENARIO_TITLES.codes,
        paths: shuffle(codePaths, random),
        ...ok,
      },
      {
        name: 'discounts',
        title: SCENARIO_TITLES.discounts,
        // The code filter as a client types it, another letter case.
        paths: [
          '/v1/discounts',
          `/v1/discounts?code=${encodeURIComponent(discount.code.toLowerCase())}`,
        ],
        ...ok,
      },
      {
        name: 'waitlists',
        title: SCENARIO_TITLES.waitlists,
        paths: shuffle(waitlisted, random).map(
          (id) => `/v1/event_series/es_${id}/waitlist_signups`,
        ),
        ...ok,
      },
      {
        name: 'productpoll',
        title: SCENARIO_TITLES.productpoll,
        paths: productPages,
        okStatuses: [304],
        expected: none,
        revalidate: true,
      },
    ],
  };
}

/** The scenarios named with --scenarios (all of them when none is named). */
export function selectScenarios(
  all: readonly Scenario[],
  wanted: readonly string[] | null,
): Scenario[] {
  for (const name of wanted ?? []) {
    if (!(SCENARIO_NAMES as readonly string[]).includes(name))
      throw new Error(`unknown scenario ${name}`);
  }
  return all.filter((s) => !wanted || wanted.includes(s.name));
}

/** One line on the data the requests were drawn from. */
export function describeFacts(facts: DatasetFacts): string {
  const n = (v: number) => v.toLocaleString('en-US');
  const day = new Date(facts.range.gte * 1000).toISOString().slice(0, 10);
  return (
    `Box office ${facts.boxOfficeId}: ${n(facts.orders)} orders ` +
    `(deep cursors at ${n(facts.deep50Position)} and ${n(facts.deep99Position)}; ` +
    `range ${day} + 30 days: ${n(facts.range.orders)} orders; ` +
    `${facts.events} events with > 100 orders); ` +
    `${n(facts.eventCount)} events, ${n(facts.tickets)} issued tickets ` +
    `(deep cursors at ${n(facts.ticketDeep99Position)}), ` +
    `${n(facts.seriesCount)} series, ${n(facts.checkIns)} check-ins; ` +
    `${n(facts.products)} products, ${n(facts.vouchers)} vouchers with ${n(facts.codes)} codes, ` +
    `${n(facts.discounts)} discounts, ${n(facts.signups)} waitlist signups`
  );
}
