import type { DataSource } from 'typeorm';
import { displayPrefix, hashApiKey } from '../src/auth/api-key-format';
import { dialectFor, SqlParams } from '../src/database/sql-dialect';
import {
  eventRow,
  eventSeriesRow,
  eventSeriesTemplateRows,
  ticketGroupRows,
  ticketTypeRows,
} from './demo-events';
import { CATALOGUE_DAY, DemoCalendar } from './demo-calendar';
import { CheckInGenerator, type CheckInEvent } from './check-in-generator';
import { OrderGenerator, type OrderRows } from './order-generator';
import {
  ANY_BOX_OFFICE,
  type Row,
  type RowBatch,
  withSeedWriter,
} from './seed-writers';

/**
 * The demo data: two box offices with fixed demo keys, their events with ticket types and payment
 * methods, and N orders with line items and issued tickets, the same for the same seed (see
 * README.md, "Demo data"). See demo-catalogue.ts for the events, demo-events.ts for how they are
 * laid out and order-generator.ts for the orders and the money model.
 */

/**
 * The demo box offices and their keys: box office 1's may also record scans and issue and void
 * tickets (scope write).
 */
export const DEMO_BOX_OFFICES = [
  {
    id: 1,
    name: 'Demo Box Office',
    apiKey: 'sk_demo_boxoffice_1',
    scope: 'write',
  },
  {
    id: 2,
    name: 'Second Box Office',
    apiKey: 'sk_demo_boxoffice_2',
    scope: 'read',
  },
] as const;

/** Orders in the demo database that `npm start` seeds (and the OpenAPI examples come from). */
export const DEMO_ORDER_COUNT = 250;

export interface SeedOptions {
  /** Orders in all, across both box offices. */
  orders: number;
  seed: number;
  /** Delete all existing data first; without it, a database with data is refused. */
  reset: boolean;
  /**
   * The seeding day, `YYYY-MM-DD`: the data's dates are laid out around it (demo-calendar.ts),
   * and its history ends the second before it. The CLI and the demo server pass the day they
   * run; left out, it is the day the catalogue is written for, so that tests and the OpenAPI
   * examples see the same data on any date. A day after the current one is refused
   * (DayAheadError).
   */
  today?: string;
  /** Called after each batch is written. */
  onProgress?: (done: number, total: number) => void;
}

export interface SeedResult {
  orders: number;
  boxOffices: number;
}

/** A seed without `reset` found data in the database. */
export class DatabaseNotEmptyError extends Error {
  constructor() {
    super(
      'The database already has data; pass --reset to delete it and seed again',
    );
  }
}

/**
 * A seed for a day after the current one (UTC): its history, which ends the second before its
 * day, would lie ahead of the clock.
 */
export class DayAheadError extends RangeError {
  constructor(today: string) {
    super(
      `today must be no later than the current day (UTC), ${DemoCalendar.of(new Date(Date.now())).today}, got "${today}": the seeded history ends the second before its day, and no stored time may lie ahead of the clock`,
    );
  }
}

/** Orders generated and handed to the writer at a time: memory stays flat whatever N is. */
const BATCH_ORDERS = 5_000;

export async function isDatabaseEmpty(
  dataSource: DataSource,
): Promise<boolean> {
  const rows: unknown[] = await dataSource.query(ANY_BOX_OFFICE);
  return rows.length === 0;
}

/**
 * Seeds the demo data in one transaction. Concurrent seeds of one database take turns (see
 * withSeedWriter) and each checks for data inside its own, so of two started together on an
 * empty database the second finds the first's data.
 */
export async function seedDemoData(
  dataSource: DataSource,
  options: SeedOptions,
): Promise<SeedResult> {
  if (!Number.isSafeInteger(options.orders) || options.orders < 1) {
    throw new RangeError('orders must be a positive integer');
  }
  if (!Number.isSafeInteger(options.seed)) {
    throw new RangeError('seed must be an integer');
  }
  const calendar = new DemoCalendar(options.today ?? CATALOGUE_DAY);
  if (calendar.isAhead()) throw new DayAheadError(calendar.today);

  await withSeedWriter(dataSource, async (writer) => {
    if (options.reset) await writer.clear();
    else if (!(await writer.isEmpty())) throw new DatabaseNotEmptyError();
    const generator = new OrderGenerator(
      options.seed,
      options.orders,
      calendar,
    );
    await writer.insert(setupRows(generator));
    let done = 0;
    const checkIns = new CheckInGenerator(
      checkInEvents(generator),
      options.seed,
      calendar.now,
    );
    for (const batch of batches(generator.orders(), checkIns)) {
      await writer.insert(batch.rows);
      done += batch.orders;
      options.onProgress?.(done, options.orders);
    }
    // What is left of each ticket type, now that its tickets are sold, and who waits for more.
    const stock = generator.ticketTypeStock();
    await writer.update(
      'ticket_types',
      stock.map(({ id, capacity, status }) => ({
        id,
        quantity_total: capacity,
        status,
      })),
    );
    await writer.insert([
      ['waitlist_signups', generator.waitlistSignups(stock)],
    ]);
  });
  return { orders: options.orders, boxOffices: DEMO_BOX_OFFICES.length };
}

/**
 * The day the demo data in the database was seeded for (`YYYY-MM-DD`), worked out from when its
 * first box office was set up; null when the database holds no demo box office.
 */
export async function demoDataDay(
  dataSource: DataSource,
): Promise<string | null> {
  const [office] = DEMO_BOX_OFFICES;
  const p = new SqlParams(dialectFor(dataSource.options.type));
  const [row] = await dataSource.query<{ created_at: number | string }[]>(
    `SELECT created_at FROM box_offices WHERE id = ${p.add(office.id)} AND name = ${p.add(office.name)}`,
    p.values,
  );
  return row ? DemoCalendar.dayOfSetup(Number(row.created_at)) : null;
}

/** Demo data this many days old or more is stale: `npm start` says how to refresh it. */
const STALE_AFTER_DAYS = 7;

/**
 * What `npm start` prints about demo data seeded for `seededFor` when it runs on `today`: how
 * to seed it again once it is a week old or more; nothing otherwise.
 */
export function staleDemoNotice(
  seededFor: string | null,
  today: string,
): string[] {
  if (seededFor === null) return [];
  const days = (Date.parse(today) - Date.parse(seededFor)) / 86_400_000;
  if (days < STALE_AFTER_DAYS) return [];
  return [
    `The demo data was seeded for ${seededFor}, ${days} days ago: events that have ended since still show as on sale.`,
    'Seed it again for today (this deletes the data in this database):',
    '  npm run seed -- --reset',
    '',
  ];
}

/**
 * Seeds an empty database and leaves one with data alone (null): what the demo server does at
 * every start. Servers starting together on one empty database seed it once.
 */
export async function seedDemoDataIfEmpty(
  dataSource: DataSource,
  options: Omit<SeedOptions, 'reset'>,
): Promise<SeedResult | null> {
  // The usual case, data from an earlier start, is answered without taking the seeding lock.
  if (!(await isDatabaseEmpty(dataSource))) return null;
  try {
    return await seedDemoData(dataSource, { ...options, reset: false });
  } catch (error) {
    if (error instanceof DatabaseNotEmptyError) return null;
    throw error;
  }
}

/**
 * The box offices, their demo keys (stored hashed, as real keys are), their events with ticket
 * groups, ticket types and accepted payment methods, and their products, vouchers and discounts.
 */
function setupRows(generator: OrderGenerator): RowBatch {
  const { setupAt } = generator.calendar;
  const boxOffices: Row[] = DEMO_BOX_OFFICES.map(({ id, name }) => ({
    id,
    name,
    created_at: setupAt,
  }));
  const apiKeys: Row[] = DEMO_BOX_OFFICES.map(({ id, apiKey, scope }) => ({
    id,
    box_office_id: id,
    name: 'Demo key',
    key_hash: hashApiKey(apiKey),
    key_prefix: displayPrefix(apiKey),
    scope,
    created_at: setupAt,
    revoked_at: null,
  }));
  const events = generator.events
    .flatMap((office) =>
      office.events.map((event) => ({ event, office: office.plan })),
    )
    .sort((a, b) => a.event.id - b.event.id);
  // Templates' ticket types are numbered after every event's: one id space (TicketTypeIdsApart).
  let nextTypeId =
    Math.max(
      0,
      ...events.flatMap(({ event }) => event.ticketTypes.map((t) => t.id)),
    ) + 1;
  const series = generator.events.flatMap((office) =>
    office.events
      .filter((event) => event.id === event.seriesId)
      .map((first) => {
        const template = eventSeriesTemplateRows(first, nextTypeId);
        nextTypeId += template.types.length;
        return {
          row: eventSeriesRow(
            first,
            office.events.filter((date) => date.seriesId === first.seriesId),
            office.plan,
          ),
          template,
        };
      }),
  );
  return [
    ['box_offices', boxOffices],
    ['api_keys', apiKeys],
    ['event_series', series.map(({ row }) => row)],
    [
      'event_series_ticket_groups',
      series.flatMap(({ template }) => template.groups),
    ],
    [
      'event_series_ticket_types',
      series.flatMap(({ template }) => template.types),
    ],
    [
      'event_series_payment_methods',
      series.flatMap(({ template }) => template.paymentMethods),
    ],
    ['events', events.map(({ event, office }) => eventRow(event, office))],
    ['ticket_groups', events.flatMap(({ event }) => ticketGroupRows(event))],
    ['ticket_types', events.flatMap(({ event }) => ticketTypeRows(event))],
    [
      'event_payment_methods',
      events.flatMap(({ event }) => event.paymentMethods),
    ],
    ...generator.offers.setupRows(),
  ];
}

/** Each demo event's times and series, for its tickets' check-ins. */
function checkInEvents(generator: OrderGenerator): Map<number, CheckInEvent> {
  return new Map(
    generator.events.flatMap((office) =>
      office.events.map(
        (event) =>
          [
            event.id,
            {
              startAt: event.startAt,
              endAt: event.endAt,
              seriesId: event.seriesId,
            },
          ] as const,
      ),
    ),
  );
}

/** Groups generated orders into batches of rows, parents first, one transaction each. */
function* batches(
  orders: Iterable<OrderRows>,
  checkIns: CheckInGenerator,
): Generator<{ orders: number; rows: RowBatch }> {
  let orderRows: Row[] = [];
  let lineItems: Row[] = [];
  let tickets: Row[] = [];
  let scans: Row[] = [];
  const flush = () => {
    const batch = {
      orders: orderRows.length,
      rows: [
        ['orders', orderRows],
        ['line_items', lineItems],
        ['issued_tickets', tickets],
        ['check_ins', scans],
      ] as const,
    };
    orderRows = [];
    lineItems = [];
    tickets = [];
    scans = [];
    return batch;
  };
  for (const order of orders) {
    orderRows.push(order.order);
    for (const row of order.lineItems) lineItems.push(row);
    for (const row of order.tickets) {
      tickets.push(row);
      for (const scan of checkIns.rows(row)) scans.push(scan);
    }
    if (orderRows.length === BATCH_ORDERS) yield flush();
  }
  if (orderRows.length > 0) yield flush();
}
