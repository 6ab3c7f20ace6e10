import { DataSource } from 'typeorm';
import { hashApiKey } from '../src/auth/api-key-format';
import { ApiKey } from '../src/auth/entities/api-key.entity';
import { buildDataSourceOptions } from '../src/database/data-source-options';
import { runMigrations } from '../src/database/migrate';
import { CURRENCY_CODES } from '../src/common/currencies';
import { LINE_ITEM_TYPES } from '../src/orders/entities/line-item.entity';
import { ORDER_STATUSES } from '../src/orders/entities/order.entity';
import { PAYMENT_METHOD_TYPES } from '../src/common/payment-methods';
import { toDateObject } from '../src/events/event-dates';
import {
  DEMO_BOX_OFFICES,
  demoDataDay,
  isDatabaseEmpty,
  seedDemoData,
  type SeedOptions,
  staleDemoNotice,
} from './demo-data';
import {
  CATALOGUE_CALENDAR,
  CATALOGUE_DAY,
  DemoCalendar,
} from './demo-calendar';
import { buildDemoEvents } from './demo-events';
import { OrderGenerator } from './order-generator';
import { SeededRandom } from './seeded-random';
import {
  storedTimeColumns,
  storedTimesAfter,
} from '../test/utils/stored-times';

interface OrderRow {
  id: number;
  box_office_id: number;
  event_id: number;
  status: string;
  status_message: string | null;
  currency: string;
  subtotal: number;
  tax: number;
  total: number;
  refund_amount: number;
  txn_id: string | null;
  created_at: number;
  updated_at: number;
  buyer_name: string;
  buyer_email: string;
  buyer_email_lookup: string;
  buyer_phone: string | null;
  address_1: string;
  address_2: string | null;
  address_3: string | null;
  postal_code: string | null;
  buyer_custom_questions: string;
  payment_method_type: string;
  payment_method_id: number | null;
  payment_method_external_id: string | null;
  payment_method_name: string | null;
  payment_method_instructions: string | null;
}

interface LineItemRow {
  id: number;
  order_id: number;
  type: string;
  description: string;
  quantity: number;
  value: number;
  booking_fee: number;
  total: number;
}

interface TicketRow {
  id: number;
  box_office_id: number;
  order_id: number;
  event_id: number;
  ticket_type_id: number | null;
  description: string;
  status: string;
  barcode: string;
  barcode_url: string;
  qr_code_url: string;
  first_name: string | null;
  last_name: string | null;
  full_name: string | null;
  reservation: string | null;
  custom_questions: string;
  created_at: number;
  updated_at: number;
  voided_at: number | null;
}

interface EventRow {
  id: number;
  box_office_id: number;
  name: string;
  start_at: number;
  end_at: number;
  timezone: string;
  status: string;
  online_event: number;
  private: number;
  description: string | null;
  access_code: string | null;
  call_to_action: string;
  url: string;
  image_header_url: string;
  image_thumbnail_url: string;
  venue_name: string | null;
  venue_postal_code: string | null;
  event_series_id: number;
  currency: string;
  created_at: number;
  completed_orders_count: number;
  valid_tickets_count: number;
}

interface TicketGroupRow {
  id: number;
  event_id: number;
  name: string;
  max_per_order: number | null;
  sort_order: number;
}

interface TicketTypeRow {
  id: number;
  event_id: number;
  group_id: number | null;
  name: string;
  description: string | null;
  price: number;
  booking_fee: number;
  min_per_order: number;
  max_per_order: number;
  quantity_total: number;
  quantity_issued: number;
  status: string;
  type: string;
  sort_order: number;
  access_code: string | null;
}

interface EventPaymentMethodRow {
  id: number;
  event_id: number;
  type: string;
  payment_method_id: number | null;
  external_id: string | null;
  name: string | null;
  instructions: string | null;
}

const TABLES = [
  'box_offices',
  'api_keys',
  'event_series',
  'event_series_ticket_types',
  'events',
  'ticket_groups',
  'ticket_types',
  'event_payment_methods',
  'products',
  'product_event_series',
  'vouchers',
  'voucher_event_series',
  'voucher_codes',
  'discounts',
  'discount_ticket_types',
  'discount_products',
  'orders',
  'line_items',
  'issued_tickets',
  'waitlist_signups',
] as const;

const ORDERS = 300;
const SEED = 7;

async function openDatabase(): Promise<DataSource> {
  const dataSource = new DataSource(
    buildDataSourceOptions({ type: 'sqlite', database: ':memory:' }),
  );
  await dataSource.initialize();
  await runMigrations(dataSource);
  return dataSource;
}

async function dump(dataSource: DataSource) {
  const tables: Record<string, unknown[]> = {};
  for (const table of TABLES) {
    tables[table] = await dataSource.query(
      `SELECT * FROM ${table} ORDER BY id`,
    );
  }
  return tables;
}

function groupBy<T>(rows: T[], key: (row: T) => number): Map<number, T[]> {
  const groups = new Map<number, T[]>();
  for (const row of rows) {
    const k = key(row);
    const group = groups.get(k);
    if (group) group.push(row);
    else groups.set(k, [row]);
  }
  return groups;
}

/**
 * Seeds as the seeder runs on the day it is given: for a day after the current one, with the
 * clock moved to noon of that day (a seed ahead of the clock is refused).
 */
async function seedOnItsDay(dataSource: DataSource, options: SeedOptions) {
  const { now } = new DemoCalendar(options.today ?? CATALOGUE_DAY);
  const noon = (now + 1 + 12 * 3600) * 1000;
  const clock = jest
    .spyOn(Date, 'now')
    .mockReturnValue(Math.max(Date.now(), noon));
  try {
    return await seedDemoData(dataSource, options);
  } finally {
    clock.mockRestore();
  }
}

const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);
const parseQuestions = (json: string) =>
  JSON.parse(json) as { question: unknown; answer: unknown }[];

/**
 * What the connectors' demo holds (docs/DEVELOPMENT.md, "The demo data"), on any seeding day: box office 1
 * has at least five products, sold in at least 3% of its orders; at least three vouchers with at
 * least 50 codes among them, some codes partly spent, some wholly, some expired; four discounts
 * of both types, some limited to ticket types; signups on every series with a sold-out ticket
 * type; box office 2 at least one of each.
 */
async function expectConnectorDemo(dataSource: DataSource, now: number) {
  const rows = <T>(sql: string) => dataSource.query<T[]>(sql);
  const perOffice = async (table: string) =>
    Object.fromEntries(
      (
        await rows<{ office: number; n: number }>(
          `SELECT box_office_id AS office, count(*) AS n FROM ${table} GROUP BY box_office_id`,
        )
      ).map(({ office, n }) => [office, n]),
    );
  const products = await perOffice('products');
  expect(products[1]).toBeGreaterThanOrEqual(5);
  expect(products[2]).toBeGreaterThanOrEqual(1);
  const [sold] = await rows<{ with_product: number; orders: number }>(
    `SELECT (SELECT count(DISTINCT li.order_id) FROM line_items li JOIN orders o ON o.id = li.order_id
              WHERE o.box_office_id = 1 AND li.type = 'product') AS with_product,
            (SELECT count(*) FROM orders WHERE box_office_id = 1) AS orders`,
  );
  expect(sold.with_product / sold.orders).toBeGreaterThanOrEqual(0.03);
  const vouchers = await perOffice('vouchers');
  expect(vouchers[1]).toBeGreaterThanOrEqual(3);
  expect(vouchers[2]).toBeGreaterThanOrEqual(1);
  const codes = await perOffice('voucher_codes');
  expect(codes[1]).toBeGreaterThanOrEqual(50);
  expect(codes[2]).toBeGreaterThanOrEqual(1);
  const [states] = await rows<Record<string, number>>(
    `SELECT sum(CASE WHEN c.spent > 0 AND c.spent < v.value THEN 1 ELSE 0 END) AS partly,
            sum(CASE WHEN c.spent >= v.value THEN 1 ELSE 0 END) AS wholly,
            sum(CASE WHEN v.expires_at <= ${now} THEN 1 ELSE 0 END) AS expired
       FROM voucher_codes c JOIN vouchers v ON v.id = c.voucher_id WHERE c.box_office_id = 1`,
  );
  expect(states.partly).toBeGreaterThan(0);
  expect(states.wholly).toBeGreaterThan(0);
  expect(states.expired).toBeGreaterThan(0);
  const discounts = await rows<{
    office: number;
    type: string;
    limited: number;
  }>(
    `SELECT box_office_id AS office, type,
            (SELECT count(*) FROM discount_ticket_types t WHERE t.discount_id = d.id) AS limited
       FROM discounts d`,
  );
  const ofFirst = discounts.filter((d) => d.office === 1);
  expect(ofFirst).toHaveLength(4);
  expect(new Set(ofFirst.map((d) => d.type))).toEqual(
    new Set(['fixed', 'percentage']),
  );
  expect(ofFirst.filter((d) => d.limited > 0).length).toBeGreaterThan(0);
  expect(discounts.filter((d) => d.office === 2).length).toBeGreaterThan(0);
  const withoutSignups = await rows(
    `SELECT DISTINCT e.event_series_id FROM ticket_types t JOIN events e ON e.id = t.event_id
      WHERE t.status = 'sold_out' AND NOT EXISTS
        (SELECT 1 FROM waitlist_signups w WHERE w.event_series_id = e.event_series_id)`,
  );
  expect(withoutSignups).toEqual([]);
  const signups = await perOffice('waitlist_signups');
  expect(signups[1]).toBeGreaterThan(0);
  expect(signups[2]).toBeGreaterThan(0);
  // Every gift_card line names a code or a discount of its order's box office.
  const unnamed = await rows(
    `SELECT li.id FROM line_items li JOIN orders o ON o.id = li.order_id
      WHERE li.type = 'gift_card' AND NOT EXISTS
        (SELECT 1 FROM voucher_codes c WHERE c.id = li.voucher_code_id AND c.box_office_id = o.box_office_id)
        AND NOT EXISTS
        (SELECT 1 FROM discounts d WHERE d.id = li.discount_id AND d.box_office_id = o.box_office_id)`,
  );
  expect(unnamed).toEqual([]);
}

describe('seedDemoData', () => {
  let dataSource: DataSource;
  let tables: Record<string, unknown[]>;
  let orders: OrderRow[];
  let lineItems: Map<number, LineItemRow[]>;
  let tickets: TicketRow[];
  let ticketsByOrder: Map<number, TicketRow[]>;
  let events: EventRow[];
  let eventsById: Map<number, EventRow>;
  let ordersByEvent: Map<number, OrderRow[]>;
  let groups: TicketGroupRow[];
  let ticketTypes: TicketTypeRow[];
  let typesByEvent: Map<number, TicketTypeRow[]>;
  let paymentMethodsByEvent: Map<number, EventPaymentMethodRow[]>;

  beforeAll(async () => {
    dataSource = await openDatabase();
    await expect(isDatabaseEmpty(dataSource)).resolves.toBe(true);
    await expect(
      seedDemoData(dataSource, { orders: ORDERS, seed: SEED, reset: false }),
    ).resolves.toEqual({ orders: ORDERS, boxOffices: 2 });
    tables = await dump(dataSource);
    orders = tables.orders as OrderRow[];
    lineItems = groupBy(
      tables.line_items as LineItemRow[],
      (li) => li.order_id,
    );
    tickets = tables.issued_tickets as TicketRow[];
    ticketsByOrder = groupBy(tickets, (t) => t.order_id);
    events = tables.events as EventRow[];
    eventsById = new Map(events.map((e) => [e.id, e]));
    ordersByEvent = groupBy(orders, (o) => o.event_id);
    groups = tables.ticket_groups as TicketGroupRow[];
    ticketTypes = tables.ticket_types as TicketTypeRow[];
    typesByEvent = groupBy(ticketTypes, (t) => t.event_id);
    paymentMethodsByEvent = groupBy(
      tables.event_payment_methods as EventPaymentMethodRow[],
      (m) => m.event_id,
    );
  });

  afterAll(() => dataSource.destroy());

  it('makes every event a date of a series of its box office, with its currency and zone', async () => {
    // Check-ins carry their event's series too.
    const [{ astray }] = await dataSource.query<{ astray: number }[]>(
      `SELECT count(*) AS astray FROM check_ins c JOIN events e ON e.id = c.event_id
        WHERE c.event_series_id <> e.event_series_id OR c.box_office_id <> e.box_office_id`,
    );
    expect(Number(astray)).toBe(0);
    const [{ checkIns }] = await dataSource.query<{ checkIns: number }[]>(
      'SELECT count(*) AS checkIns FROM check_ins',
    );
    expect(Number(checkIns)).toBeGreaterThan(0);
    const series = new Map(
      (tables.event_series as Record<string, unknown>[]).map((s) => [s.id, s]),
    );
    for (const event of events) {
      const own = series.get(event.event_series_id);
      const context = `event ${event.id}`;
      expect([
        context,
        own?.box_office_id,
        own?.currency,
        own?.timezone,
      ]).toEqual([
        context,
        event.box_office_id,
        event.currency,
        event.timezone,
      ]);
    }
    // Recurring series have several dates; one-offs are series of one date.
    const dates = [...groupBy(events, (e) => e.event_series_id).values()].map(
      (list) => list.length,
    );
    expect(Math.max(...dates)).toBeGreaterThan(1);
    expect(dates).toContain(1);
    // Every series has a template of ticket types with a capacity.
    const templates = groupBy(
      tables.event_series_ticket_types as {
        event_series_id: number;
        quantity_total: number;
      }[],
      (t) => t.event_series_id,
    );
    for (const id of series.keys()) {
      const types = templates.get(id as number) ?? [];
      expect([id, types.length > 0]).toEqual([id, true]);
      for (const type of types) expect(type.quantity_total).toBeGreaterThan(0);
    }
  });

  it('gives identical tables for the same seed, and different data for another seed', async () => {
    const same = await openDatabase();
    const other = await openDatabase();
    try {
      await seedDemoData(same, { orders: ORDERS, seed: SEED, reset: false });
      await seedDemoData(other, { orders: ORDERS, seed: 8, reset: false });
      expect(await dump(same)).toEqual(tables);
      const otherOrders = (await dump(other)).orders as OrderRow[];
      expect(otherOrders.map((o) => o.buyer_email)).not.toEqual(
        orders.map((o) => o.buyer_email),
      );
    } finally {
      await same.destroy();
      await other.destroy();
    }
  });

  it('creates the two demo box offices, each with its demo key stored hashed', () => {
    expect(tables.box_offices).toEqual(
      DEMO_BOX_OFFICES.map(({ id, name }) => ({
        id,
        name,
        created_at: expect.any(Number),
        currency: 'gbp',
        timezone: 'Europe/London',
      })),
    );
    expect(tables.api_keys).toEqual(
      DEMO_BOX_OFFICES.map(({ id, apiKey }) => ({
        id,
        box_office_id: id,
        name: 'Demo key',
        key_hash: hashApiKey(apiKey),
        key_prefix: apiKey.slice(0, 7),
        scope: id === 1 ? 'write' : 'read',
        created_at: expect.any(Number),
        revoked_at: null,
      })),
    );
  });

  it('creates N orders: at least 75% in box office 1 and at least one in box office 2', () => {
    expect(orders).toHaveLength(ORDERS);
    const inFirst = orders.filter((o) => o.box_office_id === 1).length;
    const inSecond = orders.filter((o) => o.box_office_id === 2).length;
    expect(inFirst + inSecond).toBe(ORDERS);
    expect(inFirst / ORDERS).toBeGreaterThanOrEqual(0.75);
    expect(inSecond).toBeGreaterThanOrEqual(1);
  });

  it('splits even tiny seeds between the box offices', async () => {
    for (const count of [2, 4, 10]) {
      const small = await openDatabase();
      try {
        await seedDemoData(small, { orders: count, seed: 1, reset: false });
        const rows: { box_office_id: number; n: number }[] = await small.query(
          'SELECT box_office_id, COUNT(*) AS n FROM orders GROUP BY box_office_id ORDER BY box_office_id',
        );
        expect(rows).toEqual([
          { box_office_id: 1, n: count - Math.max(1, Math.round(count * 0.1)) },
          { box_office_id: 2, n: Math.max(1, Math.round(count * 0.1)) },
        ]);
      } finally {
        await small.destroy();
      }
    }
  });

  it('keeps the money invariants on every order', () => {
    for (const order of orders) {
      const items = lineItems.get(order.id) ?? [];
      const context = `order ${order.id}`;
      expect([context, order.total]).toEqual([
        context,
        order.subtotal + order.tax,
      ]);
      expect([context, order.total]).toEqual([
        context,
        sum(items.map((li) => li.total)),
      ]);
      expect([context, order.tax]).toEqual([
        context,
        sum(items.filter((li) => li.type === 'tax').map((li) => li.total)),
      ]);
      expect([context, order.subtotal >= 0, order.tax >= 0]).toEqual([
        context,
        true,
        true,
      ]);
      expect([context, order.refund_amount <= order.total]).toEqual([
        context,
        true,
      ]);
      for (const li of items) {
        expect([context, li.total]).toEqual([
          context,
          li.value + li.booking_fee,
        ]);
        expect(Number.isInteger(li.total)).toBe(true);
        if (li.type === 'gift_card') expect(li.total).toBeLessThan(0);
        else expect(li.total).toBeGreaterThanOrEqual(0);
      }
    }
  });

  it('keeps the issued ticket invariants', () => {
    const byId = new Map(orders.map((o) => [o.id, o]));
    for (const ticket of tickets) {
      const order = byId.get(ticket.order_id)!;
      expect(ticket.event_id).toBe(order.event_id);
      expect(ticket.status === 'void').toBe(ticket.voided_at !== null);
      expect(['valid', 'void']).toContain(ticket.status);
      expect(ticket.created_at).toBeGreaterThanOrEqual(order.created_at);
      expect(ticket.updated_at).toBeGreaterThanOrEqual(ticket.created_at);
      expect(ticket.updated_at).toBeLessThanOrEqual(order.updated_at);
      if (ticket.voided_at !== null) {
        expect(ticket.voided_at).toBeGreaterThanOrEqual(ticket.created_at);
      }
      expect(ticket.barcode).toMatch(/^[0-9A-Z]{10}$/);
      expect(ticket.barcode_url).toBe(
        `https://cdn.boxoffice.example/barcodes/${ticket.barcode}.png`,
      );
      expect(ticket.qr_code_url).toBe(
        `https://cdn.boxoffice.example/qr/${ticket.barcode}.png`,
      );
      if (ticket.first_name === null) {
        expect([ticket.last_name, ticket.full_name]).toEqual([null, null]);
      } else {
        expect(ticket.full_name).toBe(
          `${ticket.first_name} ${ticket.last_name}`,
        );
      }
    }
    expect(new Set(tickets.map((t) => t.barcode)).size).toBe(tickets.length);
    expect(tickets.some((t) => t.status === 'void')).toBe(true);
    expect(tickets.some((t) => t.full_name === null)).toBe(true);
  });

  it('voids every ticket of a cancelled order and issues none for a pending one', () => {
    for (const order of orders) {
      const issued = ticketsByOrder.get(order.id) ?? [];
      if (order.status === 'cancelled') {
        expect(issued.filter((t) => t.status === 'valid')).toEqual([]);
      }
      if (order.status === 'pending') expect(issued).toEqual([]);
    }
  });

  it('averages about 2.6 issued tickets per completed order', () => {
    const completed = orders.filter((o) => o.status === 'completed');
    const perOrder =
      sum(completed.map((o) => ticketsByOrder.get(o.id)?.length ?? 0)) /
      completed.length;
    expect(perOrder).toBeGreaterThan(2);
    expect(perOrder).toBeLessThan(3.2);
  });

  it('creates orders between 2025-01-01 and 2026-06-30 UTC, updated no earlier than created', () => {
    for (const order of orders) {
      expect(order.updated_at).toBeGreaterThanOrEqual(order.created_at);
      expect(order.created_at).toBeGreaterThanOrEqual(
        Date.UTC(2025, 0, 1) / 1000,
      );
      expect(order.created_at).toBeLessThan(Date.UTC(2026, 6, 1) / 1000);
    }
  });

  it('has bursts of orders created in the same second', () => {
    const perSecond = groupBy(orders, (o) => o.created_at);
    const bursts = [...perSecond.values()].filter((group) => group.length > 1);
    expect(bursts.length).toBeGreaterThanOrEqual(5);
  });

  it('stores buyer_email_lookup as the lower-cased email, and some buyers type capitals', () => {
    for (const order of orders) {
      expect(order.buyer_email_lookup).toBe(order.buyer_email.toLowerCase());
      expect(order.buyer_email).toMatch(/^[^@\s]+@[^@\s]+\.[a-z]+$/i);
    }
    expect(orders.some((o) => o.buyer_email !== o.buyer_email_lookup)).toBe(
      true,
    );
  });

  it('uses every currency, order status, line item type and payment method type', () => {
    const used = (values: string[]) => [...new Set(values)].sort();
    expect(used(orders.map((o) => o.currency))).toEqual(
      [...CURRENCY_CODES].sort(),
    );
    expect(used(orders.map((o) => o.status))).toEqual(
      [...ORDER_STATUSES].sort(),
    );
    expect(used([...lineItems.values()].flat().map((li) => li.type))).toEqual(
      [...LINE_ITEM_TYPES].sort(),
    );
    expect(used(orders.map((o) => o.payment_method_type))).toEqual(
      [...PAYMENT_METHOD_TYPES].sort(),
    );
  });

  it('counts jpy in whole yen and other currencies in cents', () => {
    const ticketLines = (currency: string) =>
      orders
        .filter((o) => o.currency === currency)
        .flatMap((o) => lineItems.get(o.id) ?? [])
        .filter((li) => li.type === 'ticket' && li.value > 0);
    const yen = ticketLines('jpy');
    expect(yen.length).toBeGreaterThan(0);
    for (const li of yen) {
      // A ticket costs thousands of yen: in "cents" it would be a hundred times more.
      expect(li.value / li.quantity).toBeGreaterThanOrEqual(1000);
      expect(li.value / li.quantity).toBeLessThan(100_000);
    }
    for (const li of ticketLines('gbp')) {
      expect(li.value / li.quantity).toBeGreaterThanOrEqual(500);
    }
  });

  it('gives each payment method type its own shape', () => {
    for (const order of orders) {
      const pm = [
        order.payment_method_id,
        order.payment_method_external_id,
        order.payment_method_instructions,
      ];
      switch (order.payment_method_type) {
        case 'stripe':
          expect(pm).toEqual([null, expect.stringMatching(/^ch_/), null]);
          break;
        case 'paypal':
          expect(pm).toEqual([null, expect.stringMatching(/^PAYID-/), null]);
          break;
        case 'offline':
          expect(pm).toEqual([expect.any(Number), null, expect.any(String)]);
          expect(order.txn_id).toBeNull();
          break;
        case 'operator':
          expect(pm).toEqual([expect.any(Number), null, null]);
          break;
        case 'no_cost':
          expect(pm).toEqual([null, null, null]);
          expect([order.subtotal, order.tax, order.total]).toEqual([0, 0, 0]);
          expect(order.txn_id).toBeNull();
          break;
        default:
          throw new Error(`unexpected type ${order.payment_method_type}`);
      }
    }
    expect(
      orders.filter((o) => o.status_message === null).length,
    ).toBeGreaterThan(ORDERS / 2);
  });

  it('stores custom questions as JSON arrays, with some answers left blank', () => {
    const buyerAnswers = orders.flatMap((o) =>
      parseQuestions(o.buyer_custom_questions),
    );
    const ticketAnswers = tickets.flatMap((t) =>
      parseQuestions(t.custom_questions),
    );
    for (const { question, answer } of [...buyerAnswers, ...ticketAnswers]) {
      expect(typeof question).toBe('string');
      expect(answer === null || typeof answer === 'string').toBe(true);
    }
    expect(buyerAnswers.some((q) => q.answer === null)).toBe(true);
    expect(ticketAnswers.some((q) => q.answer === null)).toBe(true);
    expect(ticketAnswers.some((q) => q.answer !== null)).toBe(true);
  });

  it('leaves optional buyer fields null in some orders and filled in others', () => {
    for (const field of [
      'address_2',
      'address_3',
      'postal_code',
      'buyer_phone',
    ] as const) {
      expect(orders.some((o) => o[field] === null)).toBe(true);
      expect(orders.some((o) => o[field] !== null)).toBe(true);
    }
  });

  it('has events in several time zones, one straddling a DST change', () => {
    const perBoxOffice = groupBy(events, (e) => e.box_office_id);
    expect(perBoxOffice.get(1)!.length).toBeGreaterThanOrEqual(6);
    expect(perBoxOffice.get(2)!.length).toBeGreaterThanOrEqual(2);
    expect(events.map((e) => e.timezone)).toEqual(
      expect.arrayContaining([
        'Europe/London',
        'America/New_York',
        'Asia/Tokyo',
        'Australia/Sydney',
        'Europe/Berlin',
        'UTC',
      ]),
    );
    const straddling = events.filter(
      (e) =>
        toDateObject(e.start_at, e.timezone).timezone !==
        toDateObject(e.end_at, e.timezone).timezone,
    );
    expect(straddling.length).toBeGreaterThanOrEqual(1);
    const clocksGoForward = events.find((e) => e.name.startsWith('Clocks'))!;
    expect(toDateObject(clocksGoForward.start_at, 'Europe/London').iso).toBe(
      '2026-03-28T20:00:00+00:00',
    );
    expect(toDateObject(clocksGoForward.end_at, 'Europe/London').iso).toBe(
      '2026-03-29T03:00:00+01:00',
    );
    for (const event of events) {
      expect(event.end_at).toBeGreaterThan(event.start_at);
    }
  });

  it('gives tickets a reservation only at a seated event', () => {
    const seatedEvents = new Set(
      tickets.filter((t) => t.reservation !== null).map((t) => t.event_id),
    );
    expect(seatedEvents.size).toBeGreaterThanOrEqual(1);
    for (const ticket of tickets) {
      expect(ticket.reservation !== null).toBe(
        seatedEvents.has(ticket.event_id),
      );
    }
  });

  it('gives every event 2 to 6 ticket types, with names unique in the event, sorted by sort_order', () => {
    for (const event of events) {
      const types = typesByEvent.get(event.id) ?? [];
      expect([event.id, types.length >= 2 && types.length <= 6]).toEqual([
        event.id,
        true,
      ]);
      expect(new Set(types.map((t) => t.name)).size).toBe(types.length);
      expect(types.map((t) => t.sort_order)).toEqual(
        types.map((_, i) => i + 1),
      );
    }
  });

  it('has free, sold-out, grouped, hidden and donation ticket types, each consistent with its kind', () => {
    for (const type of ticketTypes) {
      expect(['paid', 'free', 'donation']).toContain(type.type);
      expect(['on_sale', 'sold_out', 'unavailable', 'hidden']).toContain(
        type.status,
      );
      if (type.type === 'free') {
        expect([type.price, type.booking_fee]).toEqual([0, 0]);
      } else {
        expect(type.price).toBeGreaterThan(0);
      }
      if (type.status === 'hidden') expect(type.access_code).not.toBeNull();
      expect(type.min_per_order).toBeGreaterThanOrEqual(1);
      expect(type.max_per_order).toBeGreaterThanOrEqual(type.min_per_order);
    }
    expect(ticketTypes.some((t) => t.type === 'free')).toBe(true);
    expect(ticketTypes.some((t) => t.type === 'donation')).toBe(true);
    expect(ticketTypes.some((t) => t.type === 'paid')).toBe(true);
    expect(ticketTypes.some((t) => t.status === 'sold_out')).toBe(true);
    expect(ticketTypes.some((t) => t.status === 'on_sale')).toBe(true);
    expect(ticketTypes.some((t) => t.status === 'hidden')).toBe(true);
    expect(ticketTypes.some((t) => t.group_id !== null)).toBe(true);
    expect(groups.some((g) => g.max_per_order !== null)).toBe(true);
  });

  it('puts ticket types only in groups of their own event, and every group has types', () => {
    const groupsById = new Map(groups.map((g) => [g.id, g]));
    for (const type of ticketTypes) {
      if (type.group_id === null) continue;
      expect(groupsById.get(type.group_id)?.event_id).toBe(type.event_id);
    }
    for (const group of groups) {
      expect(ticketTypes.some((t) => t.group_id === group.id)).toBe(true);
    }
  });

  it('gives each ticket type its capacity and counts its valid tickets; a sold-out one has none left', () => {
    // The same seed generates the same orders, so the generator's plan can be recomputed here.
    const generator = new OrderGenerator(SEED, ORDERS, CATALOGUE_CALENDAR);
    for (const _ of generator.orders());
    const capacity = new Map(
      generator.ticketTypeStock().map((stock) => [stock.id, stock.capacity]),
    );
    const valid = new Map<number, number>();
    for (const ticket of tickets) {
      if (ticket.status !== 'valid') continue;
      valid.set(
        ticket.ticket_type_id!,
        (valid.get(ticket.ticket_type_id!) ?? 0) + 1,
      );
    }
    for (const type of ticketTypes) {
      const sold = valid.get(type.id) ?? 0;
      const context = `ticket type ${type.id}`;
      const left = type.quantity_total - type.quantity_issued;
      expect([context, type.quantity_issued, type.quantity_total]).toEqual([
        context,
        sold,
        capacity.get(type.id),
      ]);
      expect(left).toBeGreaterThanOrEqual(0);
      expect([context, type.status === 'sold_out']).toEqual([
        context,
        left === 0,
      ]);
      if (type.status === 'sold_out') expect(sold).toBeGreaterThan(0);
    }
  });

  it('sells ticket types of the order’s event, at their prices and within their limits', () => {
    for (const order of orders) {
      const types = new Map(
        (typesByEvent.get(order.event_id) ?? []).map((t) => [t.name, t]),
      );
      const items = lineItems.get(order.id) ?? [];
      const ticketItems = items.filter((li) => li.type === 'ticket');
      expect(ticketItems.length).toBeGreaterThanOrEqual(1);
      const perGroup = new Map<number, number>();
      for (const li of ticketItems) {
        const type = types.get(li.description);
        const context = `order ${order.id}: ${li.description}`;
        expect([context, type !== undefined]).toEqual([context, true]);
        expect(li.booking_fee).toBe(type!.booking_fee * li.quantity);
        if (type!.type === 'donation') {
          expect(li.value % li.quantity).toBe(0);
          expect(li.value).toBeGreaterThanOrEqual(type!.price * li.quantity);
        } else {
          expect([context, li.value]).toEqual([
            context,
            type!.price * li.quantity,
          ]);
        }
        expect(li.quantity).toBeGreaterThanOrEqual(type!.min_per_order);
        expect(li.quantity).toBeLessThanOrEqual(type!.max_per_order);
        if (type!.group_id !== null) {
          perGroup.set(
            type!.group_id,
            (perGroup.get(type!.group_id) ?? 0) + li.quantity,
          );
        }
        if (order.payment_method_type === 'no_cost') {
          expect(type!.type).toBe('free');
        }
      }
      for (const [groupId, quantity] of perGroup) {
        const max = groups.find((g) => g.id === groupId)!.max_per_order;
        if (max !== null) expect(quantity).toBeLessThanOrEqual(max);
      }
      for (const li of items.filter((li) => li.type === 'void')) {
        expect(types.has(li.description.replace(/^Voided: /, ''))).toBe(true);
      }
    }
    const freeLines = [...lineItems.values()]
      .flat()
      .filter((li) => li.type === 'ticket' && li.value === 0);
    expect(freeLines.length).toBeGreaterThan(0);
  });

  it('issues each order’s tickets as the ticket types of its ticket lines', () => {
    const typesById = new Map(ticketTypes.map((t) => [t.id, t]));
    for (const ticket of tickets) {
      const type = typesById.get(ticket.ticket_type_id!);
      expect(type?.event_id).toBe(ticket.event_id);
      expect(ticket.description).toBe(type!.name);
      expect(ticket.box_office_id).toBe(
        eventsById.get(ticket.event_id)!.box_office_id,
      );
    }
    for (const [orderId, issued] of ticketsByOrder) {
      const bought = (lineItems.get(orderId) ?? [])
        .filter((li) => li.type === 'ticket')
        .map((li) => [li.description, li.quantity] as const);
      const counted = new Map<string, number>();
      for (const t of issued) {
        counted.set(t.description, (counted.get(t.description) ?? 0) + 1);
      }
      expect(counted).toEqual(new Map(bought));
    }
  });

  it('keeps each event’s order and ticket counters equal to its completed orders and valid tickets', () => {
    for (const event of events) {
      const own = ordersByEvent.get(event.id) ?? [];
      expect([
        event.id,
        event.completed_orders_count,
        event.valid_tickets_count,
      ]).toEqual([
        event.id,
        own.filter((o) => o.status === 'completed').length,
        tickets.filter((t) => t.event_id === event.id && t.status === 'valid')
          .length,
      ]);
    }
    expect(events.some((e) => e.valid_tickets_count > 0)).toBe(true);
  });

  it('pays every order with a method its event accepts, in the event’s currency', () => {
    for (const order of orders) {
      const event = eventsById.get(order.event_id)!;
      const accepted = paymentMethodsByEvent.get(order.event_id) ?? [];
      expect(order.currency).toBe(event.currency);
      expect(order.box_office_id).toBe(event.box_office_id);
      const context = `order ${order.id}: ${order.payment_method_type}`;
      const method = accepted.find(
        (m) =>
          m.type === order.payment_method_type &&
          (m.payment_method_id === null ||
            m.payment_method_id === order.payment_method_id),
      );
      expect([context, method !== undefined]).toEqual([context, true]);
      if (method!.payment_method_id !== null) {
        expect([
          order.payment_method_name,
          order.payment_method_instructions,
        ]).toEqual([method!.name, method!.instructions]);
      }
    }
    for (const event of events) {
      const accepted = paymentMethodsByEvent.get(event.id) ?? [];
      const types = accepted.map((m) => m.type);
      expect(types).toContain('stripe');
      // Free checkout exactly where there are free tickets; the door only where there is one.
      expect(types.includes('no_cost')).toBe(
        (typesByEvent.get(event.id) ?? []).some((t) => t.type === 'free'),
      );
      if (event.online_event) expect(types).not.toContain('operator');
    }
  });

  it('gives events absolute https URLs, a venue unless online, and some a description', () => {
    for (const event of events) {
      for (const url of [
        event.url,
        event.image_header_url,
        event.image_thumbnail_url,
      ]) {
        expect(new URL(url).protocol).toBe('https:');
      }
      expect(event.call_to_action.length).toBeGreaterThan(0);
      if (event.online_event) {
        expect([event.venue_name, event.venue_postal_code]).toEqual([
          null,
          null,
        ]);
      } else {
        expect(event.venue_name).toEqual(expect.any(String));
      }
      expect(event.access_code === null || event.private === 1).toBe(true);
    }
    expect(events.some((e) => e.online_event === 1)).toBe(true);
    expect(events.some((e) => e.private === 1)).toBe(true);
    expect(events.some((e) => e.description === null)).toBe(true);
    expect(events.some((e) => e.description !== null)).toBe(true);
  });

  it('publishes most events, closes the sales of past ones, and has a draft without orders and a cancelled one with its orders cancelled', () => {
    const lastOrderAt = Date.UTC(2026, 5, 30, 23, 59, 59) / 1000;
    const count = (status: string) =>
      events.filter((e) => e.status === status).length;
    expect([count('draft'), count('cancelled')]).toEqual([1, 1]);
    expect(count('published')).toBeGreaterThan(0);
    expect(count('sales_closed')).toBeGreaterThan(0);
    expect(count('published') + count('sales_closed')).toBe(events.length - 2);
    for (const event of events) {
      const own = ordersByEvent.get(event.id) ?? [];
      if (event.status === 'draft') expect(own).toEqual([]);
      if (event.status === 'cancelled') {
        expect(own.length).toBeGreaterThan(0);
        expect(own.filter((o) => o.status !== 'cancelled')).toEqual([]);
        expect(
          (typesByEvent.get(event.id) ?? []).filter(
            (t) => t.status !== 'unavailable',
          ),
        ).toEqual([]);
      }
      if (event.status === 'published' || event.status === 'sales_closed') {
        expect(event.status === 'sales_closed').toBe(
          event.end_at <= lastOrderAt,
        );
      }
      if (event.status === 'sales_closed') {
        const selling = (typesByEvent.get(event.id) ?? []).filter(
          (t) => t.status === 'on_sale' || t.status === 'hidden',
        );
        expect(selling).toEqual([]);
      }
    }
  });

  it('creates each event before its orders, and each order before its event ends', () => {
    for (const order of orders) {
      const event = eventsById.get(order.event_id)!;
      expect([order.id, event.created_at < order.created_at]).toEqual([
        order.id,
        true,
      ]);
      expect([order.id, order.created_at < event.end_at]).toEqual([
        order.id,
        true,
      ]);
    }
    const firstBoxOffice = Date.UTC(2024, 11, 1) / 1000;
    for (const event of events) {
      expect(event.created_at).toBeGreaterThanOrEqual(firstBoxOffice);
    }
  });

  it('shares a series id within a recurring event’s dates, and gives other events their own', () => {
    const series = groupBy(events, (e) => e.event_series_id);
    for (const [id, dates] of series) {
      expect(new Set(dates.map((e) => e.name)).size).toBe(1);
      expect(new Set(dates.map((e) => e.start_at)).size).toBe(dates.length);
      expect(dates.map((e) => e.id)).toContain(id);
    }
    expect([...series.values()].some((dates) => dates.length > 1)).toBe(true);
    expect([...series.values()].some((dates) => dates.length === 1)).toBe(true);
  });

  it('has a weekly series at one venue and a touring show whose dates play its stops in turn', () => {
    const series = [...groupBy(events, (e) => e.event_series_id).values()].map(
      (dates) => dates.sort((a, b) => a.start_at - b.start_at),
    );
    const venues = (dates: EventRow[]) => dates.map((e) => e.venue_name);
    const weekly = series.filter(
      (dates) =>
        dates.length >= 3 &&
        new Set(venues(dates)).size === 1 &&
        dates.every(
          // A week apart, an hour either way where the clocks change in between.
          (e, i) =>
            i === 0 ||
            Math.abs(e.start_at - dates[i - 1].start_at - 7 * 86_400) <= 3600,
        ),
    );
    expect(weekly.map((dates) => dates[0].name)).toContain(
      'Comedy Store Late Show',
    );
    const tours = series.filter((dates) => new Set(venues(dates)).size > 1);
    expect(tours.map((dates) => dates[0].name)).toEqual(['Maple Comedy Gala']);
    const [tour] = tours;
    // The stops in turn, round and round, the catalogue's own date at the first.
    const stops = [
      'Queen West Theatre',
      'ByWard Market Playhouse',
      'Hess Village Theatre',
      'Richmond Row Theatre',
    ];
    const first = tour.findIndex((e) => e.id === e.event_series_id);
    expect(venues(tour)).toEqual(
      tour.map((_, k) => stops[(((k - first) % 4) + 4) % 4]),
    );
    expect(new Set(venues(tour)).size).toBe(4);
    // One show, one zone and currency; the series keeps its first date's venue.
    expect(new Set(tour.map((e) => e.timezone)).size).toBe(1);
    const own = (tables.event_series as Record<string, unknown>[]).find(
      (s) => s.id === tour[0].event_series_id,
    );
    expect(own?.venue_name).toBe('Queen West Theatre');
  });

  it('adds about one event per 2,000 orders in large seeds, as dates of recurring catalogue events', () => {
    const catalogue = buildDemoEvents(
      ORDERS,
      new SeededRandom(1),
      CATALOGUE_CALENDAR,
    )
      .flatMap((office) => office.events)
      .sort((a, b) => a.id - b.id);
    expect(catalogue.map((e) => e.plan.name)).toEqual(
      events.map((e) => e.name),
    );
    const offices = buildDemoEvents(
      1_000_000,
      new SeededRandom(1),
      CATALOGUE_CALENDAR,
    );
    const large = offices.flatMap((office) => office.events);
    expect(large).toHaveLength(500);
    expect(offices[1].events.length).toBeGreaterThanOrEqual(40);
    const names = new Map(catalogue.map((e) => [e.id, e.plan.name]));
    for (const event of large) {
      expect(event.plan.name).toBe(names.get(event.seriesId));
      expect(event.ticketTypes.length).toBeGreaterThanOrEqual(2);
    }
    expect(new Set(large.map((e) => e.id)).size).toBe(500);
  });

  it('gives the demo seed (250 orders, seed 1) every currency and kind of event and ticket type', async () => {
    const demo = await openDatabase();
    try {
      await seedDemoData(demo, { orders: 250, seed: 1, reset: false });
      const column = async (sql: string) =>
        ((await demo.query(sql)) as { v: string }[]).map((r) => r.v).sort();
      expect(await column('SELECT DISTINCT currency AS v FROM orders')).toEqual(
        [...CURRENCY_CODES].sort(),
      );
      expect(
        await column('SELECT DISTINCT box_office_id AS v FROM orders'),
      ).toEqual([1, 2]);
      expect(
        await column(
          `SELECT DISTINCT e.status AS v FROM events e
            WHERE e.status IN ('draft', 'cancelled') OR EXISTS
              (SELECT 1 FROM orders o WHERE o.event_id = e.id)`,
        ),
      ).toEqual(['cancelled', 'draft', 'published', 'sales_closed']);
      expect(
        await column(
          `SELECT DISTINCT o.status AS v FROM orders o
             JOIN events e ON e.id = o.event_id WHERE e.status = 'cancelled'`,
        ),
      ).toEqual(['cancelled']);
      expect(
        await column(
          `SELECT DISTINCT t.type || ':' || t.status AS v FROM ticket_types t
            WHERE t.status IN ('sold_out', 'hidden') OR t.type <> 'paid'`,
        ),
      ).toEqual(
        expect.arrayContaining([
          'paid:sold_out',
          'free:hidden',
          'free:on_sale',
          'donation:on_sale',
        ]),
      );
      expect(
        await column(
          `SELECT DISTINCT t.type AS v FROM issued_tickets i
             JOIN ticket_types t ON t.id = i.ticket_type_id`,
        ),
      ).toEqual(['donation', 'free', 'paid']);
      await expectConnectorDemo(demo, CATALOGUE_CALENDAR.now);
    } finally {
      await demo.destroy();
    }
  });

  it('holds what the connectors read: products, vouchers and codes, discounts and waitlists', async () => {
    await expectConnectorDemo(dataSource, CATALOGUE_CALENDAR.now);
  });

  it('names in each line item what it sold or spent, of the order’s event and box office', () => {
    const typesById = new Map(ticketTypes.map((t) => [t.id, t]));
    const products = new Map(
      (tables.products as Record<string, number | string>[]).map((p) => [
        p.id,
        p,
      ]),
    );
    const codes = new Map(
      (tables.voucher_codes as Record<string, number | string>[]).map((c) => [
        c.id,
        c,
      ]),
    );
    const vouchers = new Map(
      (tables.vouchers as Record<string, number | string | null>[]).map((v) => [
        v.id,
        v,
      ]),
    );
    for (const order of orders) {
      for (const li of (lineItems.get(order.id) ?? []) as (LineItemRow &
        Record<string, number | null>)[]) {
        const context = `line ${li.id} (${li.type})`;
        const named = {
          ticket_type_id: li.ticket_type_id,
          product_id: li.product_id,
          voucher_code_id: li.voucher_code_id,
          discount_id: li.discount_id,
        };
        const set = Object.entries(named).filter(([, id]) => id !== null);
        expect([context, set.length]).toEqual([
          context,
          ['ticket', 'void', 'product', 'gift_card'].includes(li.type) ? 1 : 0,
        ]);
        if (li.type === 'ticket' || li.type === 'void') {
          const type = typesById.get(li.ticket_type_id!)!;
          expect([context, type.event_id, type.name]).toEqual([
            context,
            order.event_id,
            li.description.replace(/^Voided: /, ''),
          ]);
        }
        if (li.type === 'product') {
          const product = products.get(li.product_id!)!;
          expect([context, product.box_office_id, product.currency]).toEqual([
            context,
            order.box_office_id,
            order.currency,
          ]);
          expect(li.value).toBe(Number(product.price) * li.quantity);
        }
        if (li.type === 'gift_card' && li.voucher_code_id !== null) {
          const voucher = vouchers.get(
            codes.get(li.voucher_code_id)!.voucher_id,
          )!;
          expect([context, voucher.currency]).toEqual([
            context,
            order.currency,
          ]);
          if (voucher.expires_at !== null) {
            expect(order.created_at).toBeLessThan(Number(voucher.expires_at));
          }
        }
      }
    }
  });

  it('spends no code beyond its value, and a code without partial redemption whole', async () => {
    const codes = await dataSource.query<
      { spent: number; value: number; partial: number; lines: number }[]
    >(
      `SELECT c.spent, v.value, v.partial_redemption AS partial,
              (SELECT count(*) FROM line_items li JOIN orders o ON o.id = li.order_id
                WHERE li.voucher_code_id = c.id AND o.status = 'completed') AS lines
         FROM voucher_codes c JOIN vouchers v ON v.id = c.voucher_id`,
    );
    for (const code of codes) {
      expect(code.spent).toBeLessThanOrEqual(code.value);
      if (!code.partial) {
        expect(code.spent).toBe(code.lines === 0 ? 0 : code.value);
      }
    }
  });

  it('gives buyers first and last names, their name the two joined', () => {
    for (const order of orders as (OrderRow & Record<string, string>)[]) {
      expect(order.buyer_name).toBe(
        `${order.buyer_first_name} ${order.buyer_last_name}`,
      );
    }
  });

  it('refuses a database with data unless asked to reset, and reseeds the same data with reset', async () => {
    await expect(isDatabaseEmpty(dataSource)).resolves.toBe(false);
    await expect(
      seedDemoData(dataSource, { orders: 5, seed: SEED, reset: false }),
    ).rejects.toThrow(/already has data.*--reset/);

    await seedDemoData(dataSource, { orders: 5, seed: 99, reset: true });
    expect(((await dump(dataSource)).orders as OrderRow[]).length).toBe(5);

    await seedDemoData(dataSource, { orders: ORDERS, seed: SEED, reset: true });
    expect(await dump(dataSource)).toEqual(tables);
  });

  it('seeds in one transaction: a failed reseed leaves the previous data', async () => {
    await expect(
      seedDemoData(dataSource, {
        orders: 10,
        seed: 1,
        reset: true,
        onProgress: () => {
          throw new Error('disk full');
        },
      }),
    ).rejects.toThrow('disk full');

    expect(await dump(dataSource)).toEqual(tables);
  });

  it('leaves id generation after the seeded ids', async () => {
    const key = await dataSource.getRepository(ApiKey).save({
      boxOfficeId: 1,
      name: 'after seeding',
      keyHash: 'f'.repeat(64),
      keyPrefix: 'sk_test',
      createdAt: 0,
      revokedAt: null,
    });
    expect(key.id).toBe(DEMO_BOX_OFFICES.length + 1);
  });

  it('rejects a number of orders that is not a positive integer', async () => {
    for (const count of [0, -1, 1.5]) {
      await expect(
        seedDemoData(dataSource, { orders: count, seed: 1, reset: true }),
      ).rejects.toThrow(RangeError);
    }
  });
});

describe('seedDemoData on any day', () => {
  const DAY = 86_400;
  // Today's date in the catalogue's year, years ahead, a leap day, and the week of a DST change.
  const DAYS = ['2026-11-25', '2029-01-15', '2032-02-29', '2034-03-27'];

  describe.each(DAYS)('seeded for %s', (today) => {
    const calendar = new DemoCalendar(today);
    const { now } = calendar;
    let dataSource: DataSource;
    let tables: Record<string, unknown[]>;
    let events: EventRow[];
    const query = <T>(sql: string, ...parameters: unknown[]) =>
      dataSource.query<T[]>(sql, parameters);

    beforeAll(async () => {
      dataSource = await openDatabase();
      await seedOnItsDay(dataSource, {
        orders: 250,
        seed: 1,
        reset: false,
        today,
      });
      tables = await dump(dataSource);
      events = tables.events as EventRow[];
    });

    afterAll(() => dataSource.destroy());

    it('holds what the connectors read on that day', async () => {
      await expectConnectorDemo(dataSource, now);
    });

    it('creates orders over the months before the day, some of them in its last fortnight', () => {
      const orders = tables.orders as OrderRow[];
      const times = orders.map((o) => o.created_at);
      expect(Math.min(...times)).toBeGreaterThanOrEqual(calendar.ordersFrom);
      expect(Math.max(...times)).toBeLessThanOrEqual(now);
      expect(times.filter((t) => t > now - 14 * DAY).length).toBeGreaterThan(0);
      expect(now - calendar.ordersFrom).toBeGreaterThan(365 * DAY);
    });

    it('has at least five published events of box office 1 on sale in the 60 days after it', async () => {
      const rows = await query<{ id: number }>(
        `SELECT e.id FROM events e
          WHERE e.box_office_id = 1 AND e.status = 'published'
            AND e.start_at > ? AND e.start_at <= ?
            AND EXISTS (SELECT 1 FROM ticket_types t
                         WHERE t.event_id = e.id AND t.status = 'on_sale')`,
        now,
        now + 60 * DAY,
      );
      expect(rows.length).toBeGreaterThanOrEqual(5);
    });

    it('has at least five events of box office 1 that ended before it, with check-ins', async () => {
      const rows = await query<{ id: number }>(
        `SELECT e.id FROM events e
          WHERE e.box_office_id = 1 AND e.end_at <= ?
            AND EXISTS (SELECT 1 FROM check_ins c WHERE c.event_id = e.id)`,
        now,
      );
      expect(rows.length).toBeGreaterThanOrEqual(5);
    });

    it('gives every event a status true on the day: nothing over is on sale, nothing to come is scanned', async () => {
      for (const event of events) {
        if (event.status === 'published') {
          expect([event.id, event.end_at > now]).toEqual([event.id, true]);
        }
        if (event.status === 'sales_closed') {
          expect([event.id, event.end_at <= now]).toEqual([event.id, true]);
        }
      }
      const selling = await query(
        `SELECT t.id FROM ticket_types t JOIN events e ON e.id = t.event_id
          WHERE e.end_at <= ? AND t.status IN ('on_sale', 'hidden')`,
        now,
      );
      expect(selling).toEqual([]);
      const early = await query(
        `SELECT c.id FROM check_ins c JOIN events e ON e.id = c.event_id
          WHERE e.end_at > ? OR c.created_at > ?`,
        now,
        now,
      );
      expect(early).toEqual([]);
      const late = await query(
        `SELECT o.id FROM orders o JOIN events e ON e.id = o.event_id
          WHERE o.created_at >= e.end_at OR o.created_at < e.created_at`,
      );
      expect(late).toEqual([]);
    });

    it('keeps the events tied to a date on it: New Year on 31 December, the DST night on its change', () => {
      const newYear = events.filter((e) => e.name.endsWith('New Year'));
      expect(newYear.length).toBeGreaterThan(0);
      for (const event of newYear) {
        expect(toDateObject(event.start_at, event.timezone).date).toMatch(
          /-12-31$/,
        );
      }
      const rave = events.find((e) => e.name.startsWith('Clocks Go Forward'))!;
      const start = toDateObject(rave.start_at, rave.timezone);
      const end = toDateObject(rave.end_at, rave.timezone);
      expect(start.timezone).not.toBe(end.timezone);
      expect(new Date(`${start.date}T00:00:00Z`).getUTCDay()).toBe(6);
      expect([start.time, end.time]).toEqual(['20:00', '03:00']);
    });

    it('keeps the weekday of every recurring event', () => {
      const catalogue = new Map(
        buildDemoEvents(250, new SeededRandom(1), CATALOGUE_CALENDAR)
          .flatMap((office) => office.events)
          .map((event) => [event.id, event]),
      );
      const weekday = (at: number, zone: string) =>
        new Date(`${toDateObject(at, zone).date}T00:00:00Z`).getUTCDay();
      for (const event of events) {
        const before = catalogue.get(event.id)!;
        if (before.plan.oneOff) continue;
        expect([event.name, weekday(event.start_at, event.timezone)]).toEqual([
          event.name,
          weekday(before.startAt, event.timezone),
        ]);
      }
    });
  });

  it('gives the same data for the same seed and day, and other dates for another day', async () => {
    const seedFor = async (today: string) => {
      const dataSource = await openDatabase();
      try {
        await seedOnItsDay(dataSource, {
          orders: 40,
          seed: 3,
          reset: false,
          today,
        });
        return await dump(dataSource);
      } finally {
        await dataSource.destroy();
      }
    };
    const first = await seedFor('2030-05-06');
    expect(await seedFor('2030-05-06')).toEqual(first);
    const other = await seedFor('2030-05-13');
    const lastOrder = (tables: Record<string, unknown[]>) =>
      Math.max(...(tables.orders as OrderRow[]).map((o) => o.created_at));
    expect(lastOrder(other)).toBeGreaterThan(lastOrder(first));
  });

  it('rejects a day that is not a date as YYYY-MM-DD', async () => {
    const dataSource = await openDatabase();
    try {
      for (const today of ['2026-02-30', '26-11-25', 'tomorrow', '2026-1-5']) {
        await expect(
          seedDemoData(dataSource, { orders: 5, seed: 1, reset: false, today }),
        ).rejects.toThrow(/YYYY-MM-DD/);
      }
      await expect(isDatabaseEmpty(dataSource)).resolves.toBe(true);
    } finally {
      await dataSource.destroy();
    }
  });
});

describe('the seed’s history ends at its moment', () => {
  it('refuses a day after the current one (UTC), and writes nothing', async () => {
    const dataSource = await openDatabase();
    try {
      const tomorrow = DemoCalendar.of(new Date(Date.now() + 86_400_000));
      await expect(
        seedDemoData(dataSource, {
          orders: 5,
          seed: 1,
          reset: false,
          today: tomorrow.today,
        }),
      ).rejects.toThrow(
        `today must be no later than the current day (UTC), ${DemoCalendar.of().today}, got "${tomorrow.today}"`,
      );
      await expect(isDatabaseEmpty(dataSource)).resolves.toBe(true);
      // The current day itself is fine: its history ends the second before it.
      await seedDemoData(dataSource, {
        orders: 5,
        seed: 1,
        reset: false,
        today: DemoCalendar.of().today,
      });
    } finally {
      await dataSource.destroy();
    }
  });

  // docs/DEVELOPMENT.md, "The demo data": the moment is the demo's present, the last second
  // before its day; no stored time of any row comes after it (only events' dates look ahead).
  const CASES: [orders: number, today: string][] = [
    [2000, CATALOGUE_DAY],
    [5000, CATALOGUE_DAY],
    [300, '2026-11-25'],
    [2000, DemoCalendar.of().today],
    [700, '2032-02-29'],
  ];

  it('checks every time column the schema has', async () => {
    const dataSource = await openDatabase();
    try {
      const columns = await storedTimeColumns(dataSource);
      expect(columns.map((c) => `${c.table}.${c.column}`)).toEqual([
        'api_keys.created_at',
        'api_keys.revoked_at',
        'box_offices.created_at',
        'changes.created_at',
        'check_ins.check_in_at',
        'check_ins.created_at',
        'discounts.created_at',
        'event_series.created_at',
        'events.created_at',
        'idempotency_keys.claimed_at',
        'idempotency_keys.created_at',
        'issued_tickets.created_at',
        'issued_tickets.updated_at',
        'issued_tickets.voided_at',
        'order_days.day',
        'order_hours.hour',
        'orders.created_at',
        'orders.updated_at',
        'products.created_at',
        'products.updated_at',
        'revenue_days.day',
        'revenue_hours.hour',
        'ticket_days.day',
        'ticket_hours.hour',
        'voucher_codes.created_at',
        'vouchers.created_at',
        'waitlist_signups.created_at',
        'webhook_deliveries.attempted_at',
        'webhook_endpoints.created_at',
        'webhook_endpoints.next_attempt_at',
        'webhook_endpoints.updated_at',
      ]);
    } finally {
      await dataSource.destroy();
    }
  });

  it.each(CASES)(
    '%i orders seeded for %s store no time after it',
    async (orders, today) => {
      const { now } = new DemoCalendar(today);
      const dataSource = await openDatabase();
      try {
        await seedOnItsDay(dataSource, {
          orders,
          seed: 1,
          reset: false,
          today,
        });
        expect(await storedTimesAfter(dataSource, now)).toEqual([]);
        // The history reaches its end: orders, voids and scans in the days before it.
        const [recent] = await dataSource.query<{ orders: number }[]>(
          'SELECT count(*) AS orders FROM orders WHERE updated_at > ?',
          [now - 7 * 86_400],
        );
        expect(recent.orders).toBeGreaterThan(0);
      } finally {
        await dataSource.destroy();
      }
    },
    60_000,
  );
});

describe('demo data seeded long ago', () => {
  it('is said to be stale from a week after its day on, with the command that refreshes it', () => {
    expect(staleDemoNotice(null, '2027-01-10')).toEqual([]);
    expect(staleDemoNotice('2027-01-04', '2027-01-10')).toEqual([]);
    const notice = staleDemoNotice('2027-01-03', '2027-01-10').join('\n');
    expect(notice).toMatch(/seeded for 2027-01-03, 7 days ago/);
    expect(notice).toMatch(/npm run seed -- --reset/);
  });

  it('knows its day from its first box office, and has none without the demo box office', async () => {
    const dataSource = await openDatabase();
    try {
      await expect(demoDataDay(dataSource)).resolves.toBeNull();
      await seedOnItsDay(dataSource, {
        orders: 5,
        seed: 1,
        reset: false,
        today: '2028-08-08',
      });
      await expect(demoDataDay(dataSource)).resolves.toBe('2028-08-08');
      await dataSource.query(
        "UPDATE box_offices SET name = 'Mine' WHERE id = 1",
      );
      await expect(demoDataDay(dataSource)).resolves.toBeNull();
    } finally {
      await dataSource.destroy();
    }
  });
});
