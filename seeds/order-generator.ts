import { en, en_GB, Faker } from '@faker-js/faker';
import { CURRENCY_BASE_MULTIPLIERS } from '../src/common/currencies';
import type { LineItemType } from '../src/orders/entities/line-item.entity';
import type {
  OrderStatus,
  PaymentMethodType,
} from '../src/orders/entities/order.entity';
import {
  BOX_OFFICE_PLANS,
  type BoxOfficePlan,
  type EventPlan,
  type QuestionPlan,
  TYPICAL_PRICE,
  zonedTimeToUnix,
} from './demo-catalogue';
import { SeededRandom } from './seeded-random';
import type { Row } from './seed-writers';

/**
 * Generates the demo orders, one at a time, with their line items and issued tickets.
 *
 * Money model (all integers in the currency's minor unit; whole yen for jpy):
 * - ticket: value = price × quantity, booking_fee = fee × quantity, total = value + booking_fee;
 * - transaction_charge, donation: value = total = the amount, booking_fee 0;
 * - gift_card: value = total = minus the amount redeemed, never more than the order so far;
 * - void: records tickets voided after purchase, value = total = 0 (money returned is
 *   `refund_amount`, which the line items do not carry);
 * - tax: value = total = the tax added at checkout at the event's rate, last line.
 * subtotal = sum of the non-tax lines' totals, tax = the tax line's total, total = subtotal + tax.
 *
 * Time: orders are created between 2025-01-01 and 2026-06-30 UTC in id order, often several in the
 * same second (sales bursts). Tickets are issued when the order is paid, voided later.
 */

export const ORDERS_FROM = Date.UTC(2025, 0, 1) / 1000;
export const ORDERS_UNTIL = Date.UTC(2026, 5, 30, 23, 59, 59) / 1000;
/** When the demo box offices, their keys and events were created: before any order. */
export const SETUP_AT = Date.UTC(2024, 11, 1) / 1000;

export interface OrderRows {
  order: Row;
  lineItems: Row[];
  tickets: Row[];
}

interface TicketType {
  name: string;
  price: number;
  bookingFee: number;
}

/** An event of the plan with its id, instants and prices worked out. */
export interface SeedEvent {
  id: number;
  boxOfficeId: number;
  plan: EventPlan;
  startAt: number;
  endAt: number;
  multiplier: number;
  ticketTypes: readonly (readonly [TicketType, number])[];
  transactionCharge: number;
  seatsSold: number;
}

interface SeedBoxOffice {
  plan: BoxOfficePlan;
  events: SeedEvent[];
  /** The same events by end time: the ones still on sale at a moment are a suffix. */
  byEnd: SeedEvent[];
  firstOnSale: number;
  ordersSoFar: number;
}

interface OrderProfile {
  status: OrderStatus;
  payment: PaymentMethodType;
  donation: boolean;
  giftCard: boolean;
  /** A completed order with one ticket voided after purchase. */
  voidOne: boolean;
}

const profile = (
  status: OrderStatus,
  payment: PaymentMethodType,
  extras: Partial<OrderProfile> = {},
): OrderProfile => ({
  status,
  payment,
  donation: false,
  giftCard: false,
  voidOne: false,
  ...extras,
});

/**
 * Each box office's first orders follow this script, so that even a small seed (50 orders) holds
 * every status, payment method type and line item type; later orders are drawn at random.
 */
const SCRIPTED_PROFILES: readonly OrderProfile[] = [
  profile('completed', 'stripe', { donation: true }),
  profile('completed', 'paypal', { giftCard: true }),
  profile('pending', 'offline'),
  profile('cancelled', 'stripe'),
  profile('completed', 'operator'),
  profile('completed', 'no_cost'),
  profile('completed', 'offline'),
  profile('completed', 'stripe', { voidOne: true }),
  profile('cancelled', 'offline'),
  profile('pending', 'stripe'),
];

const STATUS_MIX: readonly (readonly [OrderStatus, number])[] = [
  ['completed', 85],
  ['pending', 7],
  ['cancelled', 8],
];

/**
 * How orders of each status were paid. Pending: mostly offline payments not yet received, some
 * cards awaiting authentication. Cancelled: refunded card orders, lapsed offline ones.
 */
const PAYMENT_MIX: Record<
  OrderStatus,
  readonly (readonly [PaymentMethodType, number])[]
> = {
  completed: [
    ['stripe', 55],
    ['paypal', 15],
    ['operator', 8],
    ['offline', 8],
    ['no_cost', 14],
  ],
  pending: [
    ['offline', 75],
    ['stripe', 25],
  ],
  cancelled: [
    ['stripe', 60],
    ['paypal', 20],
    ['offline', 20],
  ],
};

const TICKET_QUANTITIES = [
  [1, 40],
  [2, 35],
  [3, 10],
  [4, 10],
  [6, 5],
] as const;

const COMMON_DOMAINS = [
  'gmail.com',
  'outlook.com',
  'hotmail.co.uk',
  'yahoo.co.uk',
  'icloud.com',
  'proton.me',
];
const BASE62 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const UPPER_ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
const DIGITS = '0123456789';
/** Crockford's base 32: no I, L, O or U, which read as 1, 1, 0 and V. */
const BARCODE_ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
const SEAT_ROWS = 'ABCDEFGHJKLMNPQRSTUVWXYZ';
const SEATS_PER_ROW = 40;
const DAY = 86_400;

/**
 * Amounts people would print, in minor units: halves below 20, whole units below 200, tens above.
 * For jpy (multiplier 1) the result is whole yen.
 */
function money(major: number, multiplier: number): number {
  const nice =
    major < 20
      ? Math.round(major * 2) / 2
      : major < 200
        ? Math.round(major)
        : Math.round(major / 10) * 10;
  return Math.round(nice * multiplier);
}

/** About 8% of the price, in 5-cent (or 10-yen) steps. */
function bookingFeeFor(price: number, multiplier: number): number {
  const step = multiplier === 1 ? 10 : 5;
  return Math.round((price * 0.08) / step) * step;
}

function buildEvent(
  plan: EventPlan,
  id: number,
  boxOfficeId: number,
): SeedEvent {
  const multiplier = CURRENCY_BASE_MULTIPLIERS[plan.currency];
  const typical = TYPICAL_PRICE[plan.currency];
  const kinds = plan.seated
    ? ([
        ['Stalls', 1.4, 30],
        ['Circle', 1, 45],
        ['Balcony', 0.6, 25],
      ] as const)
    : ([
        ['General Admission', 1, 70],
        ['VIP', 2.5, 10],
        ['Concession', 0.7, 20],
      ] as const);
  const ticketTypes = kinds.map(([name, factor, weight]) => {
    const price = money(typical * factor, multiplier);
    const type = { name, price, bookingFee: bookingFeeFor(price, multiplier) };
    return [type, weight] as const;
  });
  return {
    id,
    boxOfficeId,
    plan,
    startAt: zonedTimeToUnix(plan.start, plan.timezone),
    endAt: zonedTimeToUnix(plan.end, plan.timezone),
    multiplier,
    ticketTypes,
    transactionCharge: plan.transactionCharge
      ? money(typical * 0.03, multiplier)
      : 0,
    seatsSold: 0,
  };
}

/** The box offices' events with ids 1, 2, … in plan order. */
function buildBoxOffices(): SeedBoxOffice[] {
  let eventId = 0;
  return BOX_OFFICE_PLANS.map((plan) => {
    const events = plan.events.map((event) =>
      buildEvent(event, ++eventId, plan.id),
    );
    const byEnd = [...events].sort((a, b) => a.endAt - b.endAt || a.id - b.id);
    return { plan, events, byEnd, firstOnSale: 0, ordersSoFar: 0 };
  });
}

/**
 * Pools of realistic values, drawn once per seed from Faker (en_GB, falling back to en). The hot
 * loop then picks from them with the seeded generator, which is much cheaper than calling Faker
 * for every one of millions of rows.
 */
interface Pools {
  firstNames: string[];
  lastNames: string[];
  streets: string[];
  secondaryAddresses: string[];
  cities: string[];
  postcodes: string[];
  phones: string[];
  domains: string[];
}

function buildPools(seed: number): Pools {
  const faker = new Faker({ locale: [en_GB, en] });
  faker.seed(seed);
  const many = (count: number, make: () => string) =>
    Array.from({ length: count }, make);
  return {
    firstNames: many(400, () => faker.person.firstName()),
    lastNames: many(400, () => faker.person.lastName()),
    streets: many(500, () => faker.location.streetAddress()),
    secondaryAddresses: many(80, () => faker.location.secondaryAddress()),
    cities: many(200, () => faker.location.city()),
    postcodes: many(500, () => faker.location.zipCode()),
    phones: many(500, () => faker.phone.number()),
    domains: many(60, () => faker.internet.domainName()),
  };
}

/**
 * Barcodes are a bijection of the ticket id (a four-round Feistel network over two 25-bit halves,
 * keyed by the seed), so they are unique without a lookup yet look random, as real ones do.
 */
class BarcodeMaker {
  private readonly keys: number[];

  constructor(rng: SeededRandom) {
    this.keys = [rng.uint32(), rng.uint32(), rng.uint32(), rng.uint32()];
  }

  barcode(ticketId: number): string {
    const half = 2 ** 25;
    let left = Math.floor(ticketId / half) % half;
    let right = ticketId % half;
    for (const key of this.keys) {
      const next = left ^ this.round(right, key);
      left = right;
      right = next;
    }
    return this.encode(left) + this.encode(right);
  }

  private round(x: number, key: number): number {
    let h = Math.imul(x ^ key, 0x9e3779b1);
    h ^= h >>> 15;
    h = Math.imul(h, 0x85ebca77);
    h ^= h >>> 13;
    return h & (2 ** 25 - 1);
  }

  /** Five base-32 characters for 25 bits. */
  private encode(bits: number): string {
    let out = '';
    for (let shift = 20; shift >= 0; shift -= 5) {
      out += BARCODE_ALPHABET[(bits >>> shift) & 31];
    }
    return out;
  }
}

export class OrderGenerator {
  private readonly boxOffices: SeedBoxOffice[] = buildBoxOffices();
  private readonly rng: SeededRandom;
  private readonly pools: Pools;
  private readonly barcodes: BarcodeMaker;
  private lineItemId = 0;
  private ticketId = 0;

  constructor(seed: number) {
    this.pools = buildPools(seed);
    this.rng = new SeededRandom(seed);
    this.barcodes = new BarcodeMaker(this.rng);
  }

  get events(): SeedEvent[] {
    return this.boxOffices.flatMap((boxOffice) => boxOffice.events);
  }

  /**
   * `count` orders with ids 1…count. About 10% go to box office 2, spread evenly through time,
   * and at least one when count ≥ 2. (With a single order the seeding rules "at least 75% in box
   * office 1" and "at least one in box office 2" cannot both hold; that order goes to box office
   * 1, whose key is the one the README's examples use.)
   */
  *orders(count: number): Generator<OrderRows> {
    const secondCount = count < 2 ? 0 : Math.max(1, Math.round(count * 0.1));
    const [first, second] = this.boxOffices;
    let index = 0;
    for (const createdAt of this.timeline(count)) {
      const inSecond =
        Math.floor(((index + 1) * secondCount) / count) >
        Math.floor((index * secondCount) / count);
      index++;
      yield this.order(index, inSecond ? second : first, createdAt);
    }
  }

  /**
   * Creation times, non-decreasing, spread evenly over the period. A quarter of the moments are
   * bursts of 2–8 orders in one second, as when tickets go on sale; the second moment always is,
   * so that even a small seed has one.
   */
  private *timeline(count: number): Generator<number> {
    const span = ORDERS_UNTIL - ORDERS_FROM;
    let done = 0;
    for (let moment = 0; done < count; moment++) {
      const burst =
        moment === 1 ? 4 : this.rng.chance(0.25) ? this.rng.int(2, 8) : 1;
      const size = Math.min(burst, count - done);
      const from = ORDERS_FROM + Math.floor((done * span) / count);
      const to = ORDERS_FROM + Math.floor(((done + size) * span) / count);
      const at = from + this.rng.int(0, Math.max(0, to - from - 1));
      for (let i = 0; i < size; i++) yield at;
      done += size;
    }
  }

  private order(
    orderId: number,
    boxOffice: SeedBoxOffice,
    createdAt: number,
  ): OrderRows {
    const nth = boxOffice.ordersSoFar++;
    const event = this.eventFor(boxOffice, nth, createdAt);
    const shape = SCRIPTED_PROFILES[nth] ?? this.randomProfile();
    const rng = this.rng;

    const firstName = rng.pick(this.pools.firstNames);
    const lastName = rng.pick(this.pools.lastNames);
    const email = this.email(firstName, lastName);
    const lines = this.ticketLines(event, shape);

    const issuesTickets =
      shape.status === 'completed' ||
      (shape.status === 'cancelled' && shape.payment !== 'offline');
    const times = this.times(shape, createdAt);

    // Tickets from `voidFrom` on end up void: all of a cancelled order's, or the last one.
    const ticketCount = lines.reduce((sum, line) => sum + line.quantity, 0);
    let voidFrom = ticketCount;
    if (issuesTickets && shape.status === 'cancelled') voidFrom = 0;
    else if (issuesTickets && shape.voidOne) voidFrom = ticketCount - 1;

    const amounts = this.lineItems(orderId, event, shape, lines, voidFrom);
    const voidedType = lines[lines.length - 1].type;
    // A cancelled order is refunded in full; a ticket voided later is, half the time.
    const refund =
      shape.status === 'cancelled' && issuesTickets
        ? amounts.total
        : shape.voidOne && rng.chance(0.5)
          ? Math.min(amounts.total, voidedType.price + voidedType.bookingFee)
          : 0;
    const payment = this.paymentMethod(boxOffice.plan, shape);

    const order: Row = {
      id: orderId,
      box_office_id: boxOffice.plan.id,
      event_id: event.id,
      status: shape.status,
      status_message: this.statusMessage(shape),
      currency: event.plan.currency,
      subtotal: amounts.subtotal,
      tax: amounts.tax,
      total: amounts.total,
      refund_amount: refund,
      txn_id: payment.txnId,
      created_at: createdAt,
      updated_at: times.updatedAt,
      buyer_name: `${firstName} ${lastName}`,
      buyer_email: email,
      buyer_email_lookup: email.toLowerCase(),
      buyer_phone: rng.chance(0.6) ? rng.pick(this.pools.phones) : null,
      address_1: rng.pick(this.pools.streets),
      address_2: rng.chance(0.3)
        ? rng.pick(this.pools.secondaryAddresses)
        : null,
      address_3: rng.chance(0.75) ? rng.pick(this.pools.cities) : null,
      postal_code: rng.chance(0.9) ? rng.pick(this.pools.postcodes) : null,
      buyer_custom_questions: this.answers(boxOffice.plan.buyerQuestions),
      payment_method_type: shape.payment,
      payment_method_id: payment.id,
      payment_method_external_id: payment.externalId,
      payment_method_name: payment.name,
      payment_method_instructions: payment.instructions,
    };

    const tickets = issuesTickets
      ? this.tickets(orderId, event, lines, voidFrom, times, [
          firstName,
          lastName,
        ])
      : [];
    return { order, lineItems: amounts.rows, tickets };
  }

  /**
   * The first orders of a box office visit its events in turn (so that each event, and so each
   * currency, has orders); later ones pick among the events not yet over.
   */
  private eventFor(
    boxOffice: SeedBoxOffice,
    nth: number,
    createdAt: number,
  ): SeedEvent {
    if (nth < boxOffice.events.length) return boxOffice.events[nth];
    const { byEnd } = boxOffice;
    while (
      boxOffice.firstOnSale < byEnd.length &&
      byEnd[boxOffice.firstOnSale].endAt <= createdAt
    ) {
      boxOffice.firstOnSale++;
    }
    const onSale = byEnd.length - boxOffice.firstOnSale;
    return onSale > 0
      ? byEnd[boxOffice.firstOnSale + this.rng.int(0, onSale - 1)]
      : this.rng.pick(byEnd);
  }

  private randomProfile(): OrderProfile {
    const rng = this.rng;
    const status = rng.weighted(STATUS_MIX);
    const payment = rng.weighted(PAYMENT_MIX[status]);
    const paid = payment !== 'no_cost';
    return {
      status,
      payment,
      donation: paid && rng.chance(0.06),
      giftCard: paid && rng.chance(0.04),
      voidOne: status === 'completed' && rng.chance(0.04),
    };
  }

  /** One ticket type (three orders in four) or two; free orders get complimentary tickets. */
  private ticketLines(
    event: SeedEvent,
    shape: OrderProfile,
  ): { type: TicketType; quantity: number }[] {
    const quantity = () => this.rng.weighted(TICKET_QUANTITIES);
    if (shape.payment === 'no_cost') {
      const free = { name: 'Complimentary', price: 0, bookingFee: 0 };
      return [{ type: free, quantity: quantity() }];
    }
    const first = this.rng.weighted(event.ticketTypes);
    const lines = [{ type: first, quantity: quantity() }];
    if (this.rng.chance(0.25)) {
      const others = event.ticketTypes.filter(([type]) => type !== first);
      lines.push({ type: this.rng.weighted(others), quantity: quantity() });
    }
    return lines;
  }

  private lineItems(
    orderId: number,
    event: SeedEvent,
    shape: OrderProfile,
    lines: { type: TicketType; quantity: number }[],
    voidFrom: number,
  ) {
    const rows: Row[] = [];
    let subtotal = 0;
    const add = (
      type: LineItemType,
      description: string,
      quantity: number,
      value: number,
      bookingFee = 0,
    ) => {
      const total = value + bookingFee;
      rows.push({
        id: ++this.lineItemId,
        order_id: orderId,
        type,
        description,
        quantity,
        value,
        booking_fee: bookingFee,
        total,
      });
      if (type !== 'tax') subtotal += total;
    };

    for (const { type, quantity } of lines) {
      add(
        'ticket',
        type.name,
        quantity,
        type.price * quantity,
        type.bookingFee * quantity,
      );
    }
    const online = shape.payment === 'stripe' || shape.payment === 'paypal';
    if (online && event.transactionCharge > 0) {
      add(
        'transaction_charge',
        'Transaction charge',
        1,
        event.transactionCharge,
      );
    }
    const typical = TYPICAL_PRICE[event.plan.currency];
    if (shape.donation) {
      const amount = money(
        typical * this.rng.pick([0.1, 0.2, 0.4]),
        event.multiplier,
      );
      add('donation', 'Donation to the Musicians’ Benevolent Fund', 1, amount);
    }
    if (shape.giftCard) {
      const card = money(
        typical * this.rng.pick([0.5, 1, 2]),
        event.multiplier,
      );
      const redeemed = Math.min(card, subtotal);
      const code = `GC-${this.rng.string(UPPER_ALNUM, 4)}-${this.rng.string(UPPER_ALNUM, 4)}`;
      if (redeemed > 0) add('gift_card', `Gift card ${code}`, 1, -redeemed);
    }
    this.voidLines(lines, voidFrom, add);

    const tax = Math.round(subtotal * (event.plan.taxRate ?? 0));
    if (tax > 0) add('tax', event.plan.taxLabel ?? 'Tax', 1, tax);
    return { rows, subtotal, tax, total: subtotal + tax };
  }

  /** One `void` line per ticket type with tickets voided (tickets from `voidFrom` on). */
  private voidLines(
    lines: { type: TicketType; quantity: number }[],
    voidFrom: number,
    add: (
      type: LineItemType,
      description: string,
      quantity: number,
      value: number,
    ) => void,
  ) {
    let first = 0;
    for (const { type, quantity } of lines) {
      const voided = first + quantity - Math.max(voidFrom, first);
      if (voided > 0) add('void', `Voided: ${type.name}`, voided, 0);
      first += quantity;
    }
  }

  /**
   * When the order was paid (its tickets issued), when tickets were voided, and its last update.
   * Card payments settle within seconds, offline ones days later; a cancelled offline order is
   * one whose payment never came (it lapses after 7 days).
   */
  private times(shape: OrderProfile, createdAt: number) {
    const rng = this.rng;
    const paidAt =
      shape.payment === 'offline'
        ? createdAt + rng.int(3600, 5 * DAY)
        : shape.payment === 'operator'
          ? createdAt
          : createdAt + (rng.chance(0.6) ? 0 : rng.int(1, 40));
    let voidedAt: number | null = null;
    if (shape.status === 'cancelled') {
      voidedAt =
        shape.payment === 'offline'
          ? createdAt + 7 * DAY + rng.int(0, 3600)
          : paidAt + rng.int(600, 20 * DAY);
    } else if (shape.voidOne) {
      voidedAt = paidAt + rng.int(3600, 30 * DAY);
    }
    const updatedAt =
      shape.status === 'pending' ? createdAt : (voidedAt ?? paidAt);
    return { paidAt, voidedAt, updatedAt };
  }

  private tickets(
    orderId: number,
    event: SeedEvent,
    lines: { type: TicketType; quantity: number }[],
    voidFrom: number,
    times: { paidAt: number; voidedAt: number | null },
    buyer: [firstName: string, lastName: string],
  ): Row[] {
    const rng = this.rng;
    const tickets: Row[] = [];
    for (const { type, quantity } of lines) {
      for (let i = 0; i < quantity; i++) {
        const isVoid = tickets.length >= voidFrom;
        const [first, last] = this.attendee(
          event,
          tickets.length === 0 && rng.chance(0.7),
          buyer,
        );
        const id = ++this.ticketId;
        const barcode = this.barcodes.barcode(id);
        tickets.push({
          id,
          box_office_id: event.boxOfficeId,
          order_id: orderId,
          event_id: event.id,
          status: isVoid ? 'void' : 'valid',
          barcode,
          barcode_url: `https://cdn.boxoffice.example/barcodes/${barcode}.png`,
          qr_code_url: `https://cdn.boxoffice.example/qr/${barcode}.png`,
          description: type.name,
          first_name: first,
          last_name: last,
          full_name: first === null ? null : `${first} ${last}`,
          reservation: event.plan.seated ? this.seat(event) : null,
          custom_questions: this.answers(event.plan.ticketQuestions ?? []),
          created_at: times.paidAt,
          updated_at: isVoid ? times.voidedAt : times.paidAt,
          voided_at: isVoid ? times.voidedAt : null,
        });
      }
    }
    return tickets;
  }

  /** Null names when the event does not ask for them (or, now and then, the buyer skipped them). */
  private attendee(
    event: SeedEvent,
    isBuyer: boolean,
    buyer: [string, string],
  ): [string, string] | [null, null] {
    if (event.plan.attendeeNames === false || this.rng.chance(0.05)) {
      return [null, null];
    }
    if (isBuyer) return buyer;
    return [
      this.rng.pick(this.pools.firstNames),
      this.rng.pick(this.pools.lastNames),
    ];
  }

  /** Seats are sold in order through the rows, starting again at the front when the hall is full. */
  private seat(event: SeedEvent): string {
    const n = event.seatsSold++ % (SEAT_ROWS.length * SEATS_PER_ROW);
    const row = SEAT_ROWS[Math.floor(n / SEATS_PER_ROW)];
    return `Row ${row}, Seat ${(n % SEATS_PER_ROW) + 1}`;
  }

  private answers(questions: readonly QuestionPlan[]): string {
    return JSON.stringify(
      questions.map((q) => ({
        question: q.question,
        answer: this.rng.chance(q.unanswered) ? null : this.rng.pick(q.answers),
      })),
    );
  }

  /** Mostly lower case; some buyers type capitals (`Jane.Doe@Example.com`), kept as typed. */
  private email(firstName: string, lastName: string): string {
    const rng = this.rng;
    const first = firstName.replace(/[^A-Za-z]/g, '') || 'guest';
    const last = lastName.replace(/[^A-Za-z]/g, '') || 'buyer';
    const local = [
      `${first}.${last}`,
      `${first}${last}${rng.int(1, 99)}`,
      `${first[0]}${last}`,
      `${last}.${first}`,
    ][rng.int(0, 3)];
    const domain = rng.chance(0.6)
      ? rng.pick(COMMON_DOMAINS)
      : rng.pick(this.pools.domains);
    return rng.chance(0.15)
      ? `${local}@${domain[0].toUpperCase()}${domain.slice(1)}`
      : `${local}@${domain}`.toLowerCase();
  }

  private paymentMethod(boxOffice: BoxOfficePlan, shape: OrderProfile) {
    const rng = this.rng;
    const none = {
      id: null,
      externalId: null,
      name: null,
      instructions: null,
      txnId: null,
    };
    switch (shape.payment) {
      case 'stripe':
        return {
          ...none,
          externalId: `ch_3${rng.string(BASE62, 23)}`,
          name: 'Stripe',
          // A card payment still awaiting authentication has no transaction yet.
          txnId:
            shape.status === 'pending'
              ? null
              : `txn_3${rng.string(BASE62, 23)}`,
        };
      case 'paypal':
        return {
          ...none,
          externalId: `PAYID-${rng.string(UPPER_ALNUM, 24)}`,
          name: 'PayPal',
          txnId: rng.string(UPPER_ALNUM, 17),
        };
      case 'offline': {
        const method = rng.pick(boxOffice.offline);
        return { ...none, ...method };
      }
      case 'operator': {
        const method = rng.pick(boxOffice.operator);
        return { ...none, ...method, txnId: `POS-${rng.string(DIGITS, 8)}` };
      }
      case 'no_cost':
        return none;
    }
  }

  /** Mostly null, as in real data; some pending and cancelled orders say why. */
  private statusMessage(shape: OrderProfile): string | null {
    if (shape.status === 'completed' || !this.rng.chance(0.4)) return null;
    if (shape.status === 'pending') {
      return shape.payment === 'offline'
        ? 'Awaiting payment'
        : 'Awaiting card authentication';
    }
    return shape.payment === 'offline'
      ? 'Payment not received within 7 days'
      : this.rng.pick(['Cancelled at the buyer’s request', 'Duplicate order']);
  }
}
