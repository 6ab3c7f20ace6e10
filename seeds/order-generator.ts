import { en, en_GB, Faker } from '@faker-js/faker';
import type { LineItemType } from '../src/orders/entities/line-item.entity';
import type { PaymentMethodType } from '../src/common/payment-methods';
import type { OrderStatus } from '../src/orders/entities/order.entity';
import {
  type BoxOfficePlan,
  type QuestionPlan,
  TYPICAL_PRICE,
} from './demo-catalogue';
import {
  buildDemoEvents,
  money,
  SECOND_BOX_OFFICE_SHARE,
  type SeedEvent,
  type SeedTicketType,
  ticketTypeStock,
  type TicketTypeStock,
  type TypeChoices,
} from './demo-events';
import type { DemoCalendar } from './demo-calendar';
import { DemoOffers, type ProductLine, type SeedCode } from './demo-offers';
import { SeededRandom } from './seeded-random';
import type { Row } from './seed-writers';

/**
 * Generates the demo orders, one at a time, with their line items and issued tickets, for the
 * events of demo-events.ts.
 *
 * Money model (all integers in the currency's minor unit; whole yen for jpy):
 * - ticket: one line per ticket type bought, described by the type's name; value = price ×
 *   quantity (0 for a free type; for a donation type, the buyer's amount × quantity, at least its
 *   price), booking_fee = the type's fee × quantity, total = value + booking_fee;
 * - transaction_charge, donation: value = total = the amount, booking_fee 0;
 * - product: one line per product bought, described by its name; value = total = price × quantity;
 * - gift_card: value = total = minus the amount redeemed, never more than the order so far, naming
 *   the voucher code spent or the discount applied (at most one per order);
 * - void: records tickets voided after purchase, value = total = 0 (money returned is
 *   `refund_amount`, which the line items do not carry);
 * - tax: value = total = the tax added at checkout at the event's rate, last line.
 * subtotal = sum of the non-tax lines' totals, tax = the tax line's total, total = subtotal + tax.
 * Each line names what it sold or spent (its ticket type, product, code or discount).
 *
 * Time: orders are created between 2025-01-01 and 2026-06-30 UTC in id order, often several in the
 * same second (sales bursts), each for an event then on sale. Tickets are issued when the order is
 * paid, voided later.
 */

export interface OrderRows {
  order: Row;
  lineItems: Row[];
  tickets: Row[];
}

/** Tickets of one type in an order, at a price per ticket (the buyer's, for a donation type). */
interface TicketLine {
  type: SeedTicketType;
  quantity: number;
  unitPrice: number;
}

/** The box office's events and which of them are on sale as time goes by. */
interface SeedBoxOffice {
  plan: BoxOfficePlan;
  events: SeedEvent[];
  /** Its events that are ever on sale, by opening and by closing of their sale. */
  byOpening: SeedEvent[];
  byClosing: SeedEvent[];
  opened: number;
  closed: number;
  /** The events on sale now, and where each one sits in this list. */
  onSale: SeedEvent[];
  slots: Map<SeedEvent, number>;
  /** Events whose sale has opened, in that order, until each has had its first order. */
  unsold: SeedEvent[];
  unsoldHead: number;
  ordersSoFar: number;
  /** Its orders with a product line so far. */
  productOrders: number;
}

interface OrderProfile {
  status: OrderStatus;
  payment: PaymentMethodType;
  donation: boolean;
  giftCard: boolean;
  /** A completed order with one ticket voided after purchase. */
  voidOne: boolean;
  /** Cancelled because its event was. */
  eventCancelled: boolean;
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
  eventCancelled: false,
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

type PaymentMixes = Record<
  OrderStatus,
  readonly (readonly [PaymentMethodType, number])[]
>;

const STATUS_MIX: readonly (readonly [OrderStatus, number])[] = [
  ['completed', 85],
  ['pending', 7],
  ['cancelled', 8],
];

/**
 * How orders of each status were paid. Pending: mostly offline payments not yet received, some
 * cards awaiting authentication. Cancelled: refunded card orders, lapsed offline ones.
 */
const PAYMENT_MIX: PaymentMixes = {
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

/** Donation tickets: the buyer gives the type's price, or a multiple of it. */
const DONATION_MULTIPLES = [1, 1, 2, 3];

/**
 * Products: an order that may add one (paid, with a product of its currency sold with its
 * series) does one time in ten, and always while its box office is behind one order in 25.
 */
const PRODUCT_CHANCE = 0.1;
const PRODUCT_ORDERS_AT_LEAST = 0.04;
const PRODUCT_QUANTITIES = [
  [1, 70],
  [2, 25],
  [3, 5],
] as const;
/**
 * Codes: a gift-card order spends one half the time it may; until each voucher has been used by
 * this many orders, any completed order that may spend one of its codes does, so that even the
 * demo's 250 orders hold codes partly and wholly spent.
 */
const VOUCHER_USES_AT_LEAST = 4;
/** The draws of what the demo adds to an order besides its tickets: another stream of the seed. */
const OFFERS_STREAM = 0x0ffe75;

/** What a line names (docs/API.md, "LineItem": its item_id). */
interface Subject {
  ticketType?: number;
  product?: number;
  code?: number;
  discount?: number;
}

function onSaleTracker(
  plan: BoxOfficePlan,
  events: SeedEvent[],
): SeedBoxOffice {
  const sellable = events.filter((event) => event.status !== 'draft');
  const byOpening = [...sellable].sort(
    (a, b) => a.onSaleFrom - b.onSaleFrom || a.id - b.id,
  );
  const byClosing = [...sellable].sort(
    (a, b) => a.onSaleUntil - b.onSaleUntil || a.id - b.id,
  );
  return {
    plan,
    events,
    byOpening,
    byClosing,
    opened: 0,
    closed: 0,
    onSale: [],
    slots: new Map(),
    unsold: [],
    unsoldHead: 0,
    ordersSoFar: 0,
    productOrders: 0,
  };
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
  private readonly boxOffices: SeedBoxOffice[];
  private readonly rng: SeededRandom;
  private readonly pools: Pools;
  private readonly barcodes: BarcodeMaker;
  /** Draws of products, codes, discounts and waitlists, apart from the orders' own. */
  private readonly extras: SeededRandom;
  readonly offers: DemoOffers;
  private readonly paymentMixes = new Map<SeedEvent, PaymentMixes>();
  private lineItemId = 0;
  private ticketId = 0;
  private generated = false;
  private finished = false;

  /**
   * A generator of `orderCount` orders (see orders()), with events to match their number, laid
   * out around the calendar's day.
   */
  constructor(
    seed: number,
    private readonly orderCount: number,
    readonly calendar: DemoCalendar,
  ) {
    this.pools = buildPools(seed);
    this.rng = new SeededRandom(seed);
    this.barcodes = new BarcodeMaker(this.rng);
    this.boxOffices = buildDemoEvents(orderCount, this.rng, calendar).map(
      ({ plan, events }) => onSaleTracker(plan, events),
    );
    this.extras = new SeededRandom(seed + OFFERS_STREAM);
    this.offers = new DemoOffers(this.boxOffices, calendar, this.extras);
  }

  /** Each box office with its events, by id. */
  get events(): { plan: BoxOfficePlan; events: readonly SeedEvent[] }[] {
    return this.boxOffices.map(({ plan, events }) => ({ plan, events }));
  }

  /**
   * The orders, with ids 1…orderCount. About 10% go to box office 2, spread evenly through time,
   * and at least one when there are two or more. (With a single order the seeding rules "at least 75% in box
   * office 1" and "at least one in box office 2" cannot both hold; that order goes to box office
   * 1, whose key is the one the README's examples use.)
   */
  *orders(): Generator<OrderRows> {
    if (this.generated) throw new Error('the orders were already generated');
    this.generated = true;
    const count = this.orderCount;
    const secondCount =
      count < 2 ? 0 : Math.max(1, Math.round(count * SECOND_BOX_OFFICE_SHARE));
    const [first, second] = this.boxOffices;
    let index = 0;
    for (const createdAt of this.timeline(count)) {
      const inSecond =
        Math.floor(((index + 1) * secondCount) / count) >
        Math.floor((index * secondCount) / count);
      index++;
      yield this.order(index, inSecond ? second : first, createdAt);
    }
    this.finished = true;
  }

  /** The ticket types' stock once every order is generated (it draws on the same sequence). */
  ticketTypeStock(): TicketTypeStock[] {
    if (!this.finished) throw new Error('generate the orders first');
    return ticketTypeStock(
      this.boxOffices.flatMap((office) => office.events),
      this.rng,
      this.calendar.now,
    );
  }

  /** The series' waitlists, from the ticket types' stock (see DemoOffers.waitlistRows). */
  waitlistSignups(stock: readonly TicketTypeStock[]): Row[] {
    const { extras, pools } = this;
    return this.offers.waitlistRows(this.boxOffices, stock, () =>
      this.email(
        extras.pick(pools.firstNames),
        extras.pick(pools.lastNames),
        extras,
      ),
    );
  }

  /**
   * Creation times, non-decreasing, spread evenly over the period. A quarter of the moments are
   * bursts of 2–8 orders in one second, as when tickets go on sale; the second moment always is,
   * so that even a small seed has one.
   */
  private *timeline(count: number): Generator<number> {
    const { ordersFrom, ordersUntil } = this.calendar;
    const span = ordersUntil - ordersFrom;
    let done = 0;
    for (let moment = 0; done < count; moment++) {
      const burst =
        moment === 1 ? 4 : this.rng.chance(0.25) ? this.rng.int(2, 8) : 1;
      const size = Math.min(burst, count - done);
      const from = ordersFrom + Math.floor((done * span) / count);
      const to = ordersFrom + Math.floor(((done + size) * span) / count);
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
    const event = this.eventFor(boxOffice, createdAt);
    const story = this.profile(event, nth);
    const rng = this.rng;

    const firstName = rng.pick(this.pools.firstNames);
    const lastName = rng.pick(this.pools.lastNames);
    const email = this.email(firstName, lastName);
    const lines = this.ticketLines(event, story, createdAt);
    const products = this.productLines(boxOffice, event, story);

    const { shape, ...times } = this.history(story, event, createdAt);
    const issuesTickets =
      shape.status === 'completed' ||
      (shape.status === 'cancelled' && shape.payment !== 'offline');

    // Tickets from `voidFrom` on end up void: all of a cancelled order's, or the last one.
    let ticketCount = 0;
    for (const line of lines) ticketCount += line.quantity;
    let voidFrom = ticketCount;
    if (issuesTickets && shape.status === 'cancelled') voidFrom = 0;
    else if (issuesTickets && shape.voidOne) voidFrom = ticketCount - 1;

    const amounts = this.lineItems(
      orderId,
      event,
      shape,
      { tickets: lines, products },
      voidFrom,
      createdAt,
    );
    const voided = lines[lines.length - 1];
    // A cancelled order is refunded in full; a ticket voided later is, half the time.
    const refund =
      shape.status === 'cancelled' && issuesTickets
        ? amounts.total
        : shape.voidOne && rng.chance(0.5)
          ? Math.min(amounts.total, voided.unitPrice + voided.type.bookingFee)
          : 0;
    const payment = this.paymentMethod(event, shape);

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
      buyer_first_name: firstName,
      buyer_last_name: lastName,
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
   * An event on sale at `createdAt`: the first order after an event's sale opens goes to it (so
   * that every event that is ever on sale, and so every currency, has orders), later ones to any
   * event then on sale, at random.
   */
  private eventFor(boxOffice: SeedBoxOffice, createdAt: number): SeedEvent {
    const { byOpening, byClosing, onSale, slots, unsold } = boxOffice;
    while (
      boxOffice.opened < byOpening.length &&
      byOpening[boxOffice.opened].onSaleFrom <= createdAt
    ) {
      const event = byOpening[boxOffice.opened++];
      slots.set(event, onSale.length);
      onSale.push(event);
      unsold.push(event);
    }
    while (
      boxOffice.closed < byClosing.length &&
      byClosing[boxOffice.closed].onSaleUntil <= createdAt
    ) {
      const event = byClosing[boxOffice.closed++];
      const slot = slots.get(event)!;
      const last = onSale.pop()!;
      if (last !== event) {
        onSale[slot] = last;
        slots.set(last, slot);
      }
      slots.delete(event);
    }
    while (boxOffice.unsoldHead < unsold.length) {
      const event = unsold[boxOffice.unsoldHead++];
      if (slots.has(event)) return event;
    }
    if (onSale.length === 0) {
      // The catalogue has events on sale from the first order to after the last.
      throw new Error(`box office ${boxOffice.plan.id} has no event on sale`);
    }
    return onSale[this.rng.int(0, onSale.length - 1)];
  }

  /**
   * Each box office's first orders follow the script where their event accepts its payment
   * method; an event that was cancelled had all its orders cancelled; other orders are drawn
   * among the payment methods their event accepts.
   */
  private profile(event: SeedEvent, nth: number): OrderProfile {
    const rng = this.rng;
    if (event.cancelledAt !== null) {
      return profile(
        'cancelled',
        rng.weighted(this.paymentMix(event, 'cancelled')),
        { eventCancelled: true },
      );
    }
    const scripted = SCRIPTED_PROFILES[nth];
    if (scripted && event.accepts.has(scripted.payment)) return scripted;
    const status = rng.weighted(STATUS_MIX);
    const payment = rng.weighted(this.paymentMix(event, status));
    const paid = payment !== 'no_cost';
    return profile(status, payment, {
      donation: paid && rng.chance(0.06),
      giftCard: paid && rng.chance(0.04),
      voidOne: status === 'completed' && rng.chance(0.04),
    });
  }

  /** PAYMENT_MIX for the status, without the methods the event does not accept. */
  private paymentMix(event: SeedEvent, status: OrderStatus) {
    let mixes = this.paymentMixes.get(event);
    if (!mixes) {
      const accepted = (
        mix: readonly (readonly [PaymentMethodType, number])[],
      ) => mix.filter(([type]) => event.accepts.has(type));
      mixes = {
        completed: accepted(PAYMENT_MIX.completed),
        pending: accepted(PAYMENT_MIX.pending),
        cancelled: accepted(PAYMENT_MIX.cancelled),
      };
      this.paymentMixes.set(event, mixes);
    }
    return mixes[status];
  }

  /**
   * One ticket type (three orders in four) or two, within each type's and group's per-order
   * limits. Free orders take free types; early-bird types are sold early in the event's sale only.
   */
  private ticketLines(
    event: SeedEvent,
    shape: OrderProfile,
    createdAt: number,
  ): TicketLine[] {
    const rng = this.rng;
    const early = createdAt < event.earlyBirdUntil ? 0 : 1;
    if (shape.payment === 'no_cost') {
      const type = rng.weighted(event.freeChoices);
      return [this.line(type, this.quantity(type))];
    }
    const first = rng.weighted(event.firstChoices[early]);
    const lines = [this.line(first, this.quantity(first))];
    if (rng.chance(0.25)) {
      const second = this.otherType(event.secondChoices[early], first);
      if (second) {
        let quantity = this.quantity(second);
        const group = first.group;
        if (group?.maxPerOrder != null && second.group === group) {
          quantity = Math.min(quantity, group.maxPerOrder - lines[0].quantity);
        }
        if (quantity >= second.minPerOrder) {
          lines.push(this.line(second, quantity));
        }
      }
    }
    return lines;
  }

  /** A type from `choices` other than `not`, or null when a few draws find none. */
  private otherType(
    choices: TypeChoices,
    not: SeedTicketType,
  ): SeedTicketType | null {
    for (let attempt = 0; attempt < 3; attempt++) {
      const type = this.rng.weighted(choices);
      if (type !== not) return type;
    }
    return null;
  }

  /** How many of a type one order buys, within its own and its group's limits. */
  private quantity(type: SeedTicketType): number {
    const wanted = this.rng.weighted(TICKET_QUANTITIES);
    const max = Math.min(type.maxPerOrder, type.group?.maxPerOrder ?? Infinity);
    return Math.max(type.minPerOrder, Math.min(wanted, max));
  }

  private line(type: SeedTicketType, quantity: number): TicketLine {
    const unitPrice =
      type.kind === 'donation'
        ? type.price * this.rng.pick(DONATION_MULTIPLES)
        : type.price;
    return { type, quantity, unitPrice };
  }

  /**
   * Products: a paid order whose event sells one (in its currency, with its series) adds one
   * time in ten, and always while its box office has fewer than one order in 25 with a product.
   */
  private productLines(
    boxOffice: SeedBoxOffice,
    event: SeedEvent,
    shape: OrderProfile,
  ): ProductLine[] {
    if (shape.payment === 'no_cost') return [];
    const products = this.offers.productsFor(event);
    if (products.length === 0) return [];
    const due =
      boxOffice.productOrders <
      Math.ceil(PRODUCT_ORDERS_AT_LEAST * boxOffice.ordersSoFar);
    if (!due && !this.extras.chance(PRODUCT_CHANCE)) return [];
    boxOffice.productOrders++;
    return [
      {
        product: this.extras.pick(products),
        quantity: this.extras.weighted(PRODUCT_QUANTITIES),
      },
    ];
  }

  private lineItems(
    orderId: number,
    event: SeedEvent,
    shape: OrderProfile,
    bought: { tickets: TicketLine[]; products: ProductLine[] },
    voidFrom: number,
    createdAt: number,
  ) {
    const rows: Row[] = [];
    let subtotal = 0;
    const add = (
      type: LineItemType,
      description: string,
      quantity: number,
      value: number,
      bookingFee = 0,
      subject: Subject = {},
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
        ticket_type_id: subject.ticketType ?? null,
        product_id: subject.product ?? null,
        voucher_code_id: subject.code ?? null,
        discount_id: subject.discount ?? null,
      });
      if (type !== 'tax') subtotal += total;
    };

    const lines = bought.tickets;
    for (const { type, quantity, unitPrice } of lines) {
      add(
        'ticket',
        type.name,
        quantity,
        unitPrice * quantity,
        type.bookingFee * quantity,
        { ticketType: type.id },
      );
    }
    for (const { product, quantity } of bought.products) {
      add('product', product.name, quantity, product.price * quantity, 0, {
        product: product.id,
      });
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
    const spent = this.redemption(event, shape, bought, subtotal, createdAt);
    if (spent !== null) {
      add('gift_card', spent.description, 1, -spent.amount, 0, spent.subject);
    }
    this.voidLines(lines, voidFrom, add);

    const tax = Math.round(subtotal * (event.plan.taxRate ?? 0));
    if (tax > 0) add('tax', event.plan.taxLabel ?? 'Tax', 1, tax);
    return { rows, subtotal, tax, total: subtotal + tax };
  }

  /**
   * The gift_card line of an order, if any: a voucher code spent (a gift-card order half the
   * time it may; any completed order that may, while one of the codes' vouchers has had fewer
   * than VOUCHER_USES_AT_LEAST uses) or a discount applied (the other gift-card orders, when one
   * takes something off). Never more than the order so far (`worth`); a code's value goes down
   * only for a completed order, as the database counts it.
   */
  private redemption(
    event: SeedEvent,
    shape: OrderProfile,
    bought: { tickets: TicketLine[]; products: ProductLine[] },
    worth: number,
    createdAt: number,
  ): { amount: number; description: string; subject: Subject } | null {
    if (shape.payment === 'no_cost' || worth <= 0) return null;
    const extras = this.extras;
    const codes = this.offers.codesFor(event, createdAt, worth);
    const behind = codes.filter(
      (code) => code.voucher.uses < VOUCHER_USES_AT_LEAST,
    );
    const spendCode = (from: readonly SeedCode[]) => {
      const code = extras.pick(from);
      const wanted = money(
        TYPICAL_PRICE[event.plan.currency] * extras.pick([0.5, 1, 2]),
        event.multiplier,
      );
      const amount = this.offers.spend(
        code,
        worth,
        wanted,
        shape.status === 'completed',
      );
      return {
        amount,
        description: `${code.voucher.name} ${code.code}`,
        subject: { code: code.id },
      };
    };
    if (!shape.giftCard) {
      return shape.status === 'completed' && behind.length > 0
        ? spendCode(behind)
        : null;
    }
    if (codes.length > 0 && extras.chance(0.5)) return spendCode(codes);
    const discounts = this.offers.discountsFor(
      event,
      bought.tickets,
      bought.products,
      worth,
    );
    if (discounts.length > 0) {
      const { discount, amount } = extras.pick(discounts);
      return {
        amount,
        description: `${discount.name} (${discount.code})`,
        subject: { discount: discount.id },
      };
    }
    return codes.length > 0 ? spendCode(codes) : null;
  }

  /** One `void` line per ticket type with tickets voided (tickets from `voidFrom` on). */
  private voidLines(
    lines: TicketLine[],
    voidFrom: number,
    add: (
      type: LineItemType,
      description: string,
      quantity: number,
      value: number,
      bookingFee: number,
      subject: Subject,
    ) => void,
  ) {
    let first = 0;
    for (const { type, quantity } of lines) {
      const voided = first + quantity - Math.max(voidFrom, first);
      if (voided > 0) {
        add('void', `Voided: ${type.name}`, voided, 0, 0, {
          ticketType: type.id,
        });
      }
      first += quantity;
    }
  }

  /**
   * When the order was paid (its tickets issued), when tickets were voided, and its last update,
   * with the order as it stands at the demo's present (`atTheMoment`). Card payments settle
   * within seconds, offline ones days later; a cancelled offline order is one whose payment never
   * came (it lapses after 7 days). Orders of a cancelled event are cancelled, and their tickets
   * voided, within a day of the event's cancellation.
   */
  private history(story: OrderProfile, event: SeedEvent, createdAt: number) {
    const rng = this.rng;
    const paidAt =
      story.payment === 'offline'
        ? createdAt + rng.int(3600, 5 * DAY)
        : story.payment === 'operator'
          ? createdAt
          : createdAt + (rng.chance(0.6) ? 0 : rng.int(1, 40));
    let voidedAt: number | null = null;
    if (story.eventCancelled) {
      voidedAt = Math.max(paidAt, event.cancelledAt!) + rng.int(600, DAY);
    } else if (story.status === 'cancelled') {
      voidedAt =
        story.payment === 'offline'
          ? createdAt + 7 * DAY + rng.int(0, 3600)
          : paidAt + rng.int(600, 20 * DAY);
    } else if (story.voidOne) {
      voidedAt = paidAt + rng.int(3600, 30 * DAY);
    }
    return this.atTheMoment(story, createdAt, paidAt, voidedAt);
  }

  /**
   * The order as it stands at the demo's present: what its story would have happen later has not
   * happened yet, so no stored time is after it (docs/DEVELOPMENT.md, "The demo data"). A
   * payment not received by then leaves the order pending (no tickets); a cancellation or a void
   * not made by then leaves the order as it was before it. The orders of a cancelled event
   * (cancelled before the present) are cancelled by the present at the latest.
   */
  private atTheMoment(
    story: OrderProfile,
    createdAt: number,
    paidAt: number,
    voidedAt: number | null,
  ) {
    const { now } = this.calendar;
    const pending = { ...story, status: 'pending' as const, voidOne: false };
    if (story.eventCancelled) {
      const at = Math.min(voidedAt!, now);
      return {
        shape: story,
        paidAt: Math.min(paidAt, at),
        voidedAt: at,
        updatedAt: at,
      };
    }
    let shape = story;
    if (story.status === 'cancelled' && story.payment === 'offline') {
      // Never paid: pending until it lapses.
      if (voidedAt! > now) shape = pending;
    } else if (story.status !== 'pending' && paidAt > now) {
      shape = pending;
    } else if (voidedAt !== null && voidedAt > now) {
      shape = { ...story, status: 'completed', voidOne: false };
    }
    if (shape.status === 'pending') {
      return { shape, paidAt, voidedAt: null, updatedAt: createdAt };
    }
    if (shape.status === 'completed' && !shape.voidOne) voidedAt = null;
    return { shape, paidAt, voidedAt, updatedAt: voidedAt ?? paidAt };
  }

  private tickets(
    orderId: number,
    event: SeedEvent,
    lines: TicketLine[],
    voidFrom: number,
    times: { paidAt: number; voidedAt: number | null },
    buyer: [firstName: string, lastName: string],
  ): Row[] {
    const rng = this.rng;
    const tickets: Row[] = [];
    for (const { type, quantity } of lines) {
      for (let i = 0; i < quantity; i++) {
        const isVoid = tickets.length >= voidFrom;
        if (!isVoid) type.sold++;
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
          ticket_type_id: type.id,
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
  private email(
    firstName: string,
    lastName: string,
    rng: SeededRandom = this.rng,
  ): string {
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

  /** The order's payment: one of its event's methods of the profile's type. */
  private paymentMethod(event: SeedEvent, shape: OrderProfile) {
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
        const { id, name, instructions } = rng.pick(event.offline);
        return { ...none, id, name, instructions };
      }
      case 'operator': {
        const { id, name, instructions } = rng.pick(event.operator);
        const txnId = `POS-${rng.string(DIGITS, 8)}`;
        return { ...none, id, name, instructions, txnId };
      }
      case 'no_cost':
        return none;
    }
  }

  /** Mostly null, as in real data; some pending and cancelled orders say why. */
  private statusMessage(shape: OrderProfile): string | null {
    if (shape.eventCancelled) return 'Event cancelled';
    if (shape.status === 'completed' || !this.rng.chance(0.4)) return null;
    if (shape.status === 'pending') {
      return shape.payment === 'stripe'
        ? 'Awaiting card authentication'
        : 'Awaiting payment';
    }
    return shape.payment === 'offline'
      ? 'Payment not received within 7 days'
      : this.rng.pick(['Cancelled at the buyer’s request', 'Duplicate order']);
  }
}
