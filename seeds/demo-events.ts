import { CURRENCY_BASE_MULTIPLIERS } from '../src/common/currencies';
import type {
  EventStatus,
  TicketTypeKind,
  TicketTypeStatus,
} from '../src/common/statuses';
import type { PaymentMethodType } from '../src/common/payment-methods';
import {
  BOX_OFFICE_PLANS,
  type BoxOfficePlan,
  EVENT_SITE,
  type EventPlan,
  IMAGE_CDN,
  type InternalPaymentMethod,
  NO_PAYPAL,
  shiftLocalTime,
  TYPICAL_PRICE,
  type Venue,
  zonedTimeToUnix,
} from './demo-catalogue';
import { type DemoCalendar, localTimeExists } from './demo-calendar';
import type { SeededRandom } from './seeded-random';
import type { Row } from './seed-writers';

/**
 * The demo events, worked out from the catalogue: ids, instants, sale windows, statuses, series,
 * ticket groups and types with prices in the event's currency, and the payment methods each
 * accepts. The catalogue's events are all there for any seed; larger seeds add dates of its
 * recurring events, so that there is about one event per ORDERS_PER_EVENT orders.
 */

/** About this many orders per event in a large seed, as in real box offices' data. */
export const ORDERS_PER_EVENT = 2000;
/** The share of orders (and of added event dates) that go to box office 2. */
export const SECOND_BOX_OFFICE_SHARE = 0.1;

const DAY = 86_400;
/**
 * Added dates of a series start from this long after the first order to this long after the
 * demo's present, so that their sales fall among the orders.
 */
const REPEATS_AFTER_FIRST_ORDER = 45 * DAY;
const REPEATS_AFTER_NOW = 180 * DAY;
/** Spacings of added dates, longest first: monthly, fortnightly, weekly, nightly. */
const REPEAT_INTERVALS = [28, 14, 7, 1];

export interface SeedTicketGroup {
  id: number;
  name: string;
  maxPerOrder: number | null;
  sortOrder: number;
}

export interface SeedTicketType {
  id: number;
  eventId: number;
  group: SeedTicketGroup | null;
  name: string;
  description: string | null;
  kind: TicketTypeKind;
  /** Per ticket, in minor units; for a donation type the least a buyer may give. */
  price: number;
  bookingFee: number;
  minPerOrder: number;
  maxPerOrder: number;
  sortOrder: number;
  accessCode: string | null;
  earlyBird: boolean;
  /** How often buyers choose it, relative to the event's other types. */
  popularity: number;
  /** Valid tickets of this type, counted as orders are generated. */
  sold: number;
}

/** Ticket types with the weights buyers choose them by. */
export type TypeChoices = readonly (readonly [SeedTicketType, number])[];

export interface SeedEvent {
  id: number;
  boxOfficeId: number;
  plan: EventPlan;
  /** The id of the catalogue event it is a date of (its own id for the catalogue's). */
  seriesId: number;
  /** Where this date plays: the plan's venue, or a stop of its tour. */
  venue: Venue | null;
  startAt: number;
  endAt: number;
  createdAt: number;
  status: EventStatus;
  /** Orders are created in [onSaleFrom, onSaleUntil); never for a draft. */
  onSaleFrom: number;
  onSaleUntil: number;
  /** Early-bird types are sold before this instant only. */
  earlyBirdUntil: number;
  /** When a cancelled event was called off (its orders are cancelled then); else null. */
  cancelledAt: number | null;
  multiplier: number;
  transactionCharge: number;
  groups: SeedTicketGroup[];
  ticketTypes: SeedTicketType[];
  /**
   * What buyers choose from. An order's first line is a type that costs something (hidden ones
   * included: their buyers have the code), its second any type shown on the page; free orders
   * take free types only. Each list is [during the early-bird sale, after it].
   */
  firstChoices: readonly [TypeChoices, TypeChoices];
  secondChoices: readonly [TypeChoices, TypeChoices];
  freeChoices: TypeChoices;
  /** The payment method types it accepts, and its offline and operator methods. */
  accepts: ReadonlySet<PaymentMethodType>;
  offline: readonly InternalPaymentMethod[];
  operator: readonly InternalPaymentMethod[];
  paymentMethods: Row[];
  seatsSold: number;
}

export interface SeedBoxOfficeEvents {
  plan: BoxOfficePlan;
  /** Its events by id. */
  events: SeedEvent[];
}

/**
 * Amounts people would print, in minor units: halves below 20, whole units below 200, tens above.
 * For jpy (multiplier 1) the result is whole yen.
 */
export function money(major: number, multiplier: number): number {
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

/** `Proms in the Park` → `proms-in-the-park`. */
function slug(name: string): string {
  return name
    .normalize('NFKD')
    .replace(/[^A-Za-z0-9]+/g, '-')
    .replace(/^-|-$/g, '')
    .toLowerCase();
}

/**
 * The day offsets of a series' added dates around the catalogue's: `count` of them, `interval`
 * days apart, nearest first, starting within the calendar's span for added dates where it allows.
 */
function repeatOffsets(
  plan: EventPlan,
  count: number,
  calendar: DemoCalendar,
): number[] {
  if (count === 0) return [];
  const repeatsFrom = calendar.ordersFrom + REPEATS_AFTER_FIRST_ORDER;
  const repeatsUntil = calendar.now + REPEATS_AFTER_NOW;
  const spanDays = (repeatsUntil - repeatsFrom) / DAY;
  const fits = (days: number) => (count + 1) * days <= spanDays;
  const interval =
    plan.every !== undefined && fits(plan.every)
      ? plan.every
      : (REPEAT_INTERVALS.find(fits) ?? 1);
  const catalogueStart = zonedTimeToUnix(plan.start, plan.timezone);
  const inRange = (offset: number) => {
    // Time zone lookups are slow: rule out dates far outside the span by arithmetic first.
    const roughly = catalogueStart + offset * DAY;
    if (roughly < repeatsFrom - DAY || roughly > repeatsUntil + DAY) {
      return false;
    }
    const start = shiftLocalTime(plan.start, offset);
    const startAt = zonedTimeToUnix(start, plan.timezone);
    return (
      startAt >= repeatsFrom &&
      startAt <= repeatsUntil &&
      localTimeExists(start, plan.timezone) &&
      localTimeExists(shiftLocalTime(plan.end, offset), plan.timezone)
    );
  };
  const offsets: number[] = [];
  // Three years either way covers the span from any catalogue date.
  const reach = Math.ceil((3 * 365) / interval);
  for (let k = 1; k <= reach && offsets.length < count; k++) {
    for (const offset of [k * interval, -k * interval]) {
      if (offsets.length < count && inRange(offset)) offsets.push(offset);
    }
  }
  // More dates than the span holds (beyond any --orders the CLI accepts): later ones, unsold.
  for (let k = reach + 1; offsets.length < count; k++) {
    offsets.push(k * interval);
  }
  return offsets.sort((a, b) => a - b);
}

/** How many dates each catalogue event has: its own `dates`, plus its share of the added ones. */
function datesPerEvent(
  plans: readonly BoxOfficePlan[],
  orderCount: number,
): number[][] {
  const catalogueDates = plans.flatMap((office) =>
    office.events.map((event) => event.dates ?? 1),
  );
  const total = catalogueDates.reduce((a, b) => a + b, 0);
  const added = Math.max(0, Math.round(orderCount / ORDERS_PER_EVENT) - total);
  const secondAdded = Math.round(added * SECOND_BOX_OFFICE_SHARE);
  return plans.map((office, index) => {
    const share = index === 0 ? added - secondAdded : secondAdded;
    const recurring = office.events.filter(
      (event) => !event.oneOff && !event.draft && !event.cancelled,
    );
    let nth = 0;
    return office.events.map((event) => {
      let dates = event.dates ?? 1;
      if (recurring.includes(event)) {
        dates += Math.floor(share / recurring.length);
        if (nth++ < share % recurring.length) dates++;
      }
      return dates;
    });
  });
}

class EventBuilder {
  private groupId = 0;
  private typeId = 0;
  private paymentMethodId = 0;

  constructor(
    private readonly rng: SeededRandom,
    private readonly calendar: DemoCalendar,
  ) {}

  build(
    office: BoxOfficePlan,
    plan: EventPlan,
    id: number,
    seriesId: number,
    offset: number,
    venue: Venue | null,
  ): SeedEvent {
    const { rng, calendar } = this;
    const startAt = zonedTimeToUnix(
      shiftLocalTime(plan.start, offset),
      plan.timezone,
    );
    const endAt = zonedTimeToUnix(
      shiftLocalTime(plan.end, offset),
      plan.timezone,
    );

    let status: EventStatus =
      endAt <= calendar.now ? 'sales_closed' : 'published';
    let createdAt: number;
    let onSaleFrom: number;
    let onSaleUntil = endAt;
    let cancelledAt: number | null = null;
    if (plan.draft) {
      status = 'draft';
      createdAt = calendar.now - rng.int(DAY, 20 * DAY);
      // Never on sale.
      onSaleFrom = onSaleUntil = Number.POSITIVE_INFINITY;
    } else if (plan.cancelled) {
      status = 'cancelled';
      onSaleFrom = zonedTimeToUnix(plan.cancelled.onSale, plan.timezone);
      cancelledAt = onSaleUntil = zonedTimeToUnix(
        plan.cancelled.at,
        plan.timezone,
      );
      createdAt = onSaleFrom - rng.int(DAY, 14 * DAY);
    } else if (offset === 0) {
      // The catalogue's own dates are on sale from the first order on.
      createdAt = calendar.setupAt + rng.int(DAY, 28 * DAY);
      onSaleFrom = calendar.ordersFrom;
    } else {
      // Added dates go on sale six to seventeen weeks ahead, announced shortly before (and no
      // later than the demo's present).
      onSaleFrom = startAt - rng.int(42, 120) * DAY;
      createdAt = Math.max(
        calendar.setupAt + rng.int(DAY, 7 * DAY),
        Math.min(onSaleFrom, calendar.now) - rng.int(DAY, 14 * DAY),
      );
      onSaleFrom = Math.max(onSaleFrom, createdAt);
    }
    const multiplier = CURRENCY_BASE_MULTIPLIERS[plan.currency];
    const typical = TYPICAL_PRICE[plan.currency];
    const { groups, ticketTypes } = this.menu(plan, id, multiplier, typical);
    const event: SeedEvent = {
      id,
      boxOfficeId: office.id,
      plan,
      seriesId,
      venue,
      startAt,
      endAt,
      createdAt,
      status,
      onSaleFrom,
      onSaleUntil,
      earlyBirdUntil: plan.draft
        ? onSaleFrom
        : onSaleFrom + Math.floor((onSaleUntil - onSaleFrom) / 4),
      cancelledAt,
      multiplier,
      transactionCharge: plan.transactionCharge
        ? money(typical * 0.03, multiplier)
        : 0,
      groups,
      ticketTypes,
      ...choices(ticketTypes),
      accepts: new Set(),
      offline: [],
      operator: [],
      paymentMethods: [],
      seatsSold: 0,
    };
    this.acceptPayments(office, event);
    return event;
  }

  private menu(
    plan: EventPlan,
    eventId: number,
    multiplier: number,
    typical: number,
  ) {
    const groups = (plan.tickets.groups ?? []).map(
      (group, index): SeedTicketGroup => ({
        id: ++this.groupId,
        name: group.name,
        maxPerOrder: group.maxPerOrder,
        sortOrder: index + 1,
      }),
    );
    const ticketTypes = plan.tickets.types.map(
      (type, index): SeedTicketType => {
        const price =
          type.kind === 'free' ? 0 : money(typical * type.price, multiplier);
        return {
          id: ++this.typeId,
          eventId,
          group: groups.find((group) => group.name === type.group) ?? null,
          name: type.name,
          description: type.description ?? null,
          kind: type.kind,
          price,
          bookingFee:
            type.kind === 'paid' ? bookingFeeFor(price, multiplier) : 0,
          minPerOrder: type.minPerOrder ?? 1,
          maxPerOrder: type.maxPerOrder ?? 10,
          sortOrder: index + 1,
          accessCode: type.accessCode ?? null,
          earlyBird: type.earlyBird === true,
          popularity: type.popularity,
          sold: 0,
        };
      },
    );
    return { groups, ticketTypes };
  }

  /**
   * Cards everywhere; PayPal where it takes the currency; the box office's offline methods (those
   * paid at the venue only where there is one); its operators at the door of an event with a
   * venue; and no-cost checkout when the event has free tickets.
   */
  private acceptPayments(office: BoxOfficePlan, event: SeedEvent): void {
    const accepts = event.accepts as Set<PaymentMethodType>;
    const add = (
      type: PaymentMethodType,
      fields: Partial<Record<string, string | number | null>> = {},
    ) => {
      accepts.add(type);
      event.paymentMethods.push({
        id: ++this.paymentMethodId,
        event_id: event.id,
        type,
        payment_method_id: null,
        external_id: null,
        name: null,
        instructions: null,
        ...fields,
      } as Row);
    };
    const atVenue = event.plan.venue !== null;
    add('stripe', { external_id: office.stripeAccount, name: 'Stripe' });
    if (!NO_PAYPAL.has(event.plan.currency)) {
      add('paypal', { external_id: office.paypalMerchant, name: 'PayPal' });
    }
    event.offline = office.offline.filter((m) => atVenue || !m.atVenue);
    for (const method of event.offline) {
      add('offline', {
        payment_method_id: method.id,
        name: method.name,
        instructions: method.instructions,
      });
    }
    event.operator = atVenue ? office.operator : [];
    for (const method of event.operator) {
      add('operator', {
        payment_method_id: method.id,
        name: method.name,
        instructions: method.instructions,
      });
    }
    if (event.ticketTypes.some((type) => type.kind === 'free')) add('no_cost');
  }
}

function choices(
  types: readonly SeedTicketType[],
): Pick<SeedEvent, 'firstChoices' | 'secondChoices' | 'freeChoices'> {
  const weighted = (keep: (type: SeedTicketType) => boolean): TypeChoices =>
    types.filter(keep).map((type) => [type, type.popularity] as const);
  return {
    firstChoices: [
      weighted((t) => t.kind !== 'free'),
      weighted((t) => t.kind !== 'free' && !t.earlyBird),
    ],
    secondChoices: [
      weighted((t) => t.accessCode === null),
      weighted((t) => t.accessCode === null && !t.earlyBird),
    ],
    freeChoices: weighted((t) => t.kind === 'free'),
  };
}

/** The demo events of both box offices, for a seed of `orderCount` orders on the calendar's day. */
export function buildDemoEvents(
  orderCount: number,
  rng: SeededRandom,
  calendar: DemoCalendar,
): SeedBoxOfficeEvents[] {
  const builder = new EventBuilder(rng, calendar);
  const plans = calendar.plans(BOX_OFFICE_PLANS);
  const dates = datesPerEvent(plans, orderCount);
  let nextId = plans.reduce((n, o) => n + o.events.length, 0);
  let catalogueId = 0;
  const offices = plans.map((plan) => ({
    plan,
    events: [] as SeedEvent[],
    repeats: [] as SeedEvent[],
  }));
  // The catalogue's events get ids 1, 2, … in plan order; then each one's added dates, in turn.
  for (const office of offices) {
    for (const plan of office.plan.events) {
      const id = ++catalogueId;
      office.events.push(
        builder.build(office.plan, plan, id, id, 0, plan.venue),
      );
    }
  }
  offices.forEach((office, o) => {
    office.plan.events.forEach((plan, e) => {
      const seriesId = office.events[e].id;
      const offsets = repeatOffsets(plan, dates[o][e] - 1, calendar);
      // A tour's stops follow the dates in order, the catalogue's date (offset 0) at its venue.
      const stops = [plan.venue, ...(plan.tour ?? [])];
      const before = offsets.filter((offset) => offset < 0).length;
      offsets.forEach((offset, i) => {
        const rank = i < before ? i - before : i - before + 1;
        const venue =
          stops[((rank % stops.length) + stops.length) % stops.length];
        office.repeats.push(
          builder.build(office.plan, plan, ++nextId, seriesId, offset, venue),
        );
      });
    });
  });
  return offices.map(({ plan, events, repeats }) => ({
    plan,
    events: [...events, ...repeats],
  }));
}

export interface TicketTypeStock {
  id: number;
  /** How many the event put on sale; `quantity` is what is left of it. */
  capacity: number;
  /** Its valid tickets. */
  sold: number;
  quantity: number;
  status: TicketTypeStatus;
}

/** How many tickets events put on sale in all, before they see how they sell. */
const EVENT_CAPACITIES = [150, 300, 500, 800, 1200, 2000];

/** A venue-sized number at least `wanted`: tens, then fifties, then hundreds. */
function roundCapacity(wanted: number): number {
  const step = wanted < 200 ? 10 : wanted < 2000 ? 50 : 100;
  return Math.ceil(wanted / step) * step;
}

/**
 * Each ticket type's stock once the orders are in (the demo's present, `now`): what is still available is its
 * capacity minus its valid tickets (a voided ticket goes back on sale). An early-bird allocation
 * whose sale is over has sold out (its capacity was what it sold; `unavailable` if it sold none);
 * other types have room left: their share of the event's capacity by popularity, or more where
 * they sold more. Types of an event that is over, cancelled or not on sale yet are `unavailable`.
 */
export function ticketTypeStock(
  events: readonly SeedEvent[],
  rng: SeededRandom,
  now: number,
): TicketTypeStock[] {
  const stock: TicketTypeStock[] = [];
  for (const event of events) {
    // Over, cancelled, or not on sale yet (a draft, or a date whose sale opens later).
    const notSelling =
      event.status === 'sales_closed' ||
      event.status === 'cancelled' ||
      event.onSaleFrom > now;
    const earlyBirdOver = event.earlyBirdUntil <= now;
    const eventCapacity = rng.pick(EVENT_CAPACITIES);
    let popularity = 0;
    for (const type of event.ticketTypes) popularity += type.popularity;
    for (const type of event.ticketTypes) {
      const { id, sold } = type;
      const soldOut = type.earlyBird && earlyBirdOver;
      if (soldOut && sold > 0) {
        stock.push({
          id,
          capacity: sold,
          sold,
          quantity: 0,
          status: 'sold_out',
        });
        continue;
      }
      // Its share of the event's capacity, and more when that sold well.
      const planned = (eventCapacity * type.popularity) / popularity;
      const headroom = Math.round(sold * rng.pick([0.1, 0.25, 0.5, 1]));
      const capacity = roundCapacity(
        Math.max(planned, sold + Math.max(10, headroom)),
      );
      const status: TicketTypeStatus =
        notSelling || soldOut
          ? 'unavailable'
          : type.accessCode !== null
            ? 'hidden'
            : 'on_sale';
      stock.push({ id, capacity, sold, quantity: capacity - sold, status });
    }
  }
  return stock;
}

export function eventRow(event: SeedEvent, office: BoxOfficePlan): Row {
  const { plan } = event;
  const images = `${IMAGE_CDN}/events/${slug(plan.name)}`;
  return {
    id: event.id,
    box_office_id: event.boxOfficeId,
    name: plan.name,
    start_at: event.startAt,
    end_at: event.endAt,
    timezone: plan.timezone,
    status: event.status,
    online_event: plan.venue === null ? 1 : 0,
    private: plan.private ? 1 : 0,
    description: plan.description ?? null,
    access_code: plan.accessCode ?? null,
    call_to_action: plan.callToAction ?? plan.tickets.callToAction,
    url: `${EVENT_SITE}/${office.slug}/events/${event.id}`,
    // A series shares its artwork.
    image_header_url: `${images}/header.jpg`,
    image_thumbnail_url: `${images}/thumbnail.jpg`,
    venue_name: event.venue?.[0] ?? null,
    venue_postal_code: event.venue?.[1] ?? null,
    event_series_id: event.seriesId,
    currency: plan.currency,
    created_at: event.createdAt,
  };
}

export function ticketGroupRows(event: SeedEvent): Row[] {
  return event.groups.map((group) => ({
    id: group.id,
    event_id: event.id,
    name: group.name,
    max_per_order: group.maxPerOrder,
    sort_order: group.sortOrder,
  }));
}

/**
 * Ticket types as the event set them up, before any sale: nothing released yet (`unavailable`,
 * capacity 0). Their stock is set once the orders are written (ticketTypeStock).
 */
export function ticketTypeRows(event: SeedEvent): Row[] {
  return event.ticketTypes.map((type) => ({
    id: type.id,
    event_id: event.id,
    group_id: type.group?.id ?? null,
    name: type.name,
    description: type.description,
    price: type.price,
    booking_fee: type.bookingFee,
    min_per_order: type.minPerOrder,
    max_per_order: type.maxPerOrder,
    quantity_total: 0,
    status: 'unavailable',
    type: type.kind,
    sort_order: type.sortOrder,
    access_code: type.accessCode,
  }));
}

/** The capacity a series' template offers per date, shared out by its types' popularity. */
const TEMPLATE_CAPACITY = 500;

/**
 * A series, made from its first date (the catalogue's event) and all its dates: the first date's
 * texts, venue, artwork, currency and zone; `published` while any date is, else the first
 * date's status (a draft, a cancelled one-off, a run that is over); created with its first
 * announced date.
 */
export function eventSeriesRow(
  first: SeedEvent,
  dates: readonly SeedEvent[],
  office: BoxOfficePlan,
): Row {
  const row = eventRow(first, office);
  const published = dates.some((date) => date.status === 'published');
  return {
    id: first.seriesId,
    box_office_id: row.box_office_id,
    name: row.name,
    description: row.description,
    status: published ? 'published' : first.status,
    created_at: Math.min(...dates.map((date) => date.createdAt)),
    currency: row.currency,
    timezone: row.timezone,
    venue_name: row.venue_name,
    venue_postal_code: row.venue_postal_code,
    url: `${EVENT_SITE}/${office.slug}/series/${first.seriesId}`,
    image_header_url: row.image_header_url,
    image_thumbnail_url: row.image_thumbnail_url,
    online_event: row.online_event,
    private: row.private,
    access_code: row.access_code,
    call_to_action: row.call_to_action,
    // A seated show sells at most its house, whatever its types allow.
    max_tickets_sold_per_occurrence: first.plan.seated
      ? roundCapacity(TEMPLATE_CAPACITY * 0.9)
      : null,
  };
}

/**
 * The series' template: its first date's groups, ticket types and payment methods, with
 * capacities instead of stock. Groups and payment methods keep the date's ids (their tables
 * number their own rows). Ticket types share one id space with the events' (migration
 * TicketTypeIdsApart): they are numbered from `firstTypeId`, after every event's.
 */
export function eventSeriesTemplateRows(
  first: SeedEvent,
  firstTypeId: number,
): {
  groups: Row[];
  types: Row[];
  paymentMethods: Row[];
} {
  /** An event's row as the series' own: its event_id gives way to the series. */
  const asTemplate = (row: Row): Row => {
    const { event_id: _event, ...rest } = row;
    return { ...rest, event_series_id: first.seriesId };
  };
  let popularity = 0;
  for (const type of first.ticketTypes) popularity += type.popularity;
  return {
    groups: ticketGroupRows(first).map(asTemplate),
    types: ticketTypeRows(first).map((type, i) => ({
      ...asTemplate(type),
      id: firstTypeId + i,
      quantity_total: roundCapacity(
        (TEMPLATE_CAPACITY * first.ticketTypes[i].popularity) / popularity,
      ),
      status: type.access_code === null ? 'on_sale' : 'hidden',
    })),
    paymentMethods: first.paymentMethods.map(asTemplate),
  };
}
