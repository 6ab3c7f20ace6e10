import type { CurrencyCode } from '../src/common/currencies';
import type { TicketTypeKind } from '../src/common/statuses';
import type { DiscountType } from '../src/discounts/entities/discount.entity';
import type {
  FulfilmentType,
  ProductStatus,
} from '../src/products/entities/product.entity';
import type { VoucherType } from '../src/vouchers/entities/voucher.entity';
import { toDateObject } from '../src/events/event-dates';

/**
 * The hand-written part of the demo data: the two box offices, their events with venues and
 * ticket menus, payment methods and checkout questions. Larger seeds repeat the recurring events
 * as series, and orders are generated from all of it (see demo-events.ts and order-generator.ts).
 */

/** An optional or required question asked at checkout, with the answers buyers give. */
export interface QuestionPlan {
  question: string;
  answers: readonly string[];
  /** Share of buyers who leave it blank (the answer is then null). */
  unanswered: number;
}

/** One ticket type of a menu. Amounts are in multiples of the currency's TYPICAL_PRICE. */
export interface TicketTypePlan {
  name: string;
  kind: TicketTypeKind;
  /** 0 when `free`; for a `donation` type, the least a buyer may give per ticket. */
  price: number;
  /** How often buyers choose it, relative to the menu's other types. */
  popularity: number;
  description?: string;
  /** The name of the menu group it is shown in. */
  group?: string;
  /** Default 1. */
  minPerOrder?: number;
  /** Default 10. */
  maxPerOrder?: number;
  /**
   * An early-bird allocation: sold in the first quarter of the event's sale only, and sold out
   * (every ticket of it sold) once that is over.
   */
  earlyBird?: boolean;
  /** A hidden type, sold only to buyers who enter this code. */
  accessCode?: string;
}

export interface TicketMenu {
  groups?: readonly { name: string; maxPerOrder: number | null }[];
  /** In the order the event shows them (their sort_order). */
  types: readonly TicketTypePlan[];
  /** The event page's button, unless the event says otherwise. */
  callToAction: string;
}

/** Venue name and postal code (null where the country has none). */
export type Venue = readonly [name: string, postalCode: string | null];

export interface EventPlan {
  name: string;
  timezone: string;
  /** Local wall-clock time in `timezone`, `YYYY-MM-DDTHH:mm`. */
  start: string;
  end: string;
  /** The currency its orders are paid in: the venue's. */
  currency: CurrencyCode;
  /** Null for an online event. */
  venue: Venue | null;
  /**
   * A touring show: its dates play `venue` and these in turn, in date order, the catalogue's
   * own date at `venue`. All in the plan's time zone and currency.
   */
  tour?: readonly Venue[];
  tickets: TicketMenu;
  description?: string;
  callToAction?: string;
  /** Unlisted: buyers reach it through a link, with `accessCode` when set. */
  private?: boolean;
  accessCode?: string;
  /** Not yet published: it has no orders. */
  draft?: boolean;
  /**
   * Called off: on sale from `onSale` (local time) only until `cancelled`, when its orders were
   * cancelled and refunded.
   */
  cancelled?: { onSale: string; at: string };
  /** Tied to its date (New Year, a DST change): never repeated as a series. */
  oneOff?: boolean;
  /** A series already in the catalogue: this many dates (default 1), `every` days apart. */
  dates?: number;
  every?: number;
  /** Sales tax added on top of the prices at checkout (0: prices include tax). */
  taxRate?: number;
  taxLabel?: string;
  /** A seating chart: tickets carry a reservation. */
  seated?: boolean;
  /** Card and PayPal orders pay a transaction charge once per order. */
  transactionCharge?: boolean;
  /** False when the event does not ask for attendee names (the ticket's names are null). */
  attendeeNames?: boolean;
  ticketQuestions?: readonly QuestionPlan[];
}

export interface InternalPaymentMethod {
  id: number;
  name: string;
  instructions: string | null;
  /** Paid at the venue: offered by events that have one, not by online events. */
  atVenue?: boolean;
}

/** An add-on sold beside tickets. Its price is in multiples of its currency's TYPICAL_PRICE. */
export interface ProductPlan {
  name: string;
  description?: string;
  price: number;
  currency: CurrencyCode;
  status: ProductStatus;
  fulfilment: FulfilmentType;
  /** The catalogue events whose series it is sold with; left out, every series. */
  series?: readonly string[];
}

/**
 * A batch of codes of one value (in multiples of the currency's TYPICAL_PRICE). Its expiry is
 * given in days from the seeding day (below 0: expired); left out, it never expires.
 */
export interface VoucherPlan {
  name: string;
  type: VoucherType;
  value: number;
  currency: CurrencyCode;
  partialRedemption: boolean;
  expiresInDays?: number;
  codes: number;
  /** What its codes start with (`GC-`). */
  codePrefix: string;
  /** The catalogue events whose series its codes are usable on; left out, any event. */
  series?: readonly string[];
}

/**
 * A discount code. `fixed` amounts are minor units of the order's currency, so a fixed discount
 * is limited to ticket types of events of one currency; `percentage` ones are whole percentages.
 */
export interface DiscountPlan {
  name: string;
  code: string;
  type: DiscountType;
  faceValue: number;
  bookingFee: number;
  /**
   * The ticket types it applies to: those of the catalogue events named (every date of their
   * series), with the type names given; left out, every type.
   */
  ticketTypes?: { events?: readonly string[]; names?: readonly string[] };
  /** The products (by name) it also takes off. */
  products?: readonly string[];
}

export interface BoxOfficePlan {
  id: number;
  /** The box office's part of its event page URLs. */
  slug: string;
  /** The accounts its card and PayPal payments go to (a payment method's external id). */
  stripeAccount: string;
  paypalMerchant: string;
  events: readonly EventPlan[];
  offline: readonly InternalPaymentMethod[];
  operator: readonly InternalPaymentMethod[];
  buyerQuestions: readonly QuestionPlan[];
  products: readonly ProductPlan[];
  vouchers: readonly VoucherPlan[];
  discounts: readonly DiscountPlan[];
}

/** A typical general-admission price in major units: the scale of every amount in a currency. */
export const TYPICAL_PRICE: Record<CurrencyCode, number> = {
  gbp: 25,
  usd: 35,
  eur: 30,
  sgd: 48,
  aud: 55,
  brl: 150,
  cad: 45,
  czk: 690,
  dkk: 250,
  hkd: 280,
  huf: 9900,
  ils: 120,
  jpy: 5500,
  myr: 120,
  mxn: 650,
  nok: 390,
  nzd: 59,
  php: 1800,
  pln: 149,
  rub: 2500,
  sek: 395,
  chf: 49,
  twd: 1200,
  thb: 1500,
  try: 950,
};

/** The currencies PayPal does not take: events paid in them do not offer it. */
export const NO_PAYPAL: ReadonlySet<CurrencyCode> = new Set(['rub', 'try']);

/** Where the demo event pages and images live. */
export const EVENT_SITE = 'https://www.boxoffice.example';
export const IMAGE_CDN = 'https://cdn.boxoffice.example';

const DIETARY: QuestionPlan = {
  question: 'Dietary requirements',
  answers: ['None', 'Vegetarian', 'Vegan', 'Gluten free', 'Halal', 'Kosher'],
  unanswered: 0.3,
};
const ACCESS: QuestionPlan = {
  question: 'Do you have any access requirements?',
  answers: ['Wheelchair space', 'Step-free access', 'Seat near an exit'],
  unanswered: 0.8,
};
const TSHIRT: QuestionPlan = {
  question: 'T-shirt size',
  answers: ['XS', 'S', 'M', 'L', 'XL', 'XXL'],
  unanswered: 0.05,
};
const AGE: QuestionPlan = {
  question: 'Age group',
  answers: ['18-24', '25-34', '35-44', '45-54', '55+'],
  unanswered: 0.1,
};

/** Club nights and parties: an early bird that sells out, a VIP tier and a hidden guest list. */
const CLUB_NIGHT: TicketMenu = {
  callToAction: 'Buy tickets',
  types: [
    {
      name: 'Early Bird',
      kind: 'paid',
      price: 0.7,
      popularity: 30,
      earlyBird: true,
      maxPerOrder: 6,
    },
    { name: 'General Admission', kind: 'paid', price: 1, popularity: 55 },
    {
      name: 'VIP',
      kind: 'paid',
      price: 2.5,
      popularity: 10,
      description: 'Fast-track entry and access to the VIP bar',
      maxPerOrder: 6,
    },
    {
      name: 'Guest List',
      kind: 'free',
      price: 0,
      popularity: 5,
      description: 'Names on the door; collect wristbands at the box office',
      maxPerOrder: 2,
      accessCode: 'GUESTLIST',
    },
  ],
};

/** A hall with a seating chart: seat areas in one group with a per-order limit. */
const SEATED_HALL: TicketMenu = {
  callToAction: 'Choose seats',
  groups: [{ name: 'Seating', maxPerOrder: 8 }],
  types: [
    {
      name: 'Stalls',
      kind: 'paid',
      price: 1.4,
      popularity: 30,
      group: 'Seating',
    },
    {
      name: 'Circle',
      kind: 'paid',
      price: 1,
      popularity: 45,
      group: 'Seating',
    },
    {
      name: 'Balcony',
      kind: 'paid',
      price: 0.6,
      popularity: 25,
      group: 'Seating',
    },
    {
      name: 'Companion',
      kind: 'free',
      price: 0,
      popularity: 3,
      description:
        'For the companion or carer of a disabled visitor; book it with their ticket',
      maxPerOrder: 1,
    },
  ],
};

/** Festivals: passes in a group, add-ons in another with no limit, free entry for children. */
const FESTIVAL: TicketMenu = {
  callToAction: 'Get passes',
  groups: [
    { name: 'Passes', maxPerOrder: 6 },
    { name: 'Add-ons', maxPerOrder: null },
  ],
  types: [
    {
      name: 'Early Bird Weekend Pass',
      kind: 'paid',
      price: 1.6,
      popularity: 20,
      group: 'Passes',
      earlyBird: true,
    },
    {
      name: 'Weekend Pass',
      kind: 'paid',
      price: 2.2,
      popularity: 40,
      group: 'Passes',
    },
    {
      name: 'Day Ticket',
      kind: 'paid',
      price: 1,
      popularity: 30,
      group: 'Passes',
      description: 'Entry on one day of your choice',
    },
    {
      name: 'Parking',
      kind: 'paid',
      price: 0.4,
      popularity: 4,
      group: 'Add-ons',
      maxPerOrder: 2,
    },
    {
      name: 'Under 12s',
      kind: 'free',
      price: 0,
      popularity: 4,
      description: 'Must come with an adult holding a pass',
      maxPerOrder: 4,
    },
    {
      name: 'Crew & Artists',
      kind: 'free',
      price: 0,
      popularity: 2,
      maxPerOrder: 2,
      accessCode: 'CREWPASS',
    },
  ],
};

/** Streams: pay what you can (a donation type) beside fixed prices. */
const ONLINE: TicketMenu = {
  callToAction: 'Get access',
  types: [
    { name: 'Livestream', kind: 'paid', price: 0.4, popularity: 60 },
    {
      name: 'Livestream + Replay',
      kind: 'paid',
      price: 0.6,
      popularity: 25,
      description: 'Watch live, and again for 30 days afterwards',
    },
    {
      name: 'Pay What You Can',
      kind: 'donation',
      price: 0.2,
      popularity: 15,
      description: 'Choose your own price, from the minimum up',
    },
  ],
};

/** Classical concerts: price bands, a student rate and free entry for children. */
const CONCERT: TicketMenu = {
  callToAction: 'Book now',
  types: [
    {
      name: 'Premium',
      kind: 'paid',
      price: 1.8,
      popularity: 20,
      description: 'The best seats, in rows A to E',
    },
    { name: 'Standard', kind: 'paid', price: 1, popularity: 60 },
    {
      name: 'Student',
      kind: 'paid',
      price: 0.5,
      popularity: 15,
      description: 'Valid student ID required at the door',
      maxPerOrder: 2,
    },
    {
      name: 'Under 16s',
      kind: 'free',
      price: 0,
      popularity: 5,
      maxPerOrder: 4,
    },
  ],
};

/** Community nights: family prices, a group rate with a minimum, and a supporter donation. */
const COMMUNITY: TicketMenu = {
  callToAction: 'Buy tickets',
  types: [
    { name: 'Adult', kind: 'paid', price: 1, popularity: 60 },
    { name: 'Child (5-15)', kind: 'paid', price: 0.5, popularity: 20 },
    { name: 'Under 5s', kind: 'free', price: 0, popularity: 8, maxPerOrder: 4 },
    {
      name: 'Supporter',
      kind: 'donation',
      price: 1.5,
      popularity: 7,
      description: 'Pay a little more if you can, to keep the night going',
    },
    {
      name: 'Group of 6+',
      kind: 'paid',
      price: 0.85,
      popularity: 5,
      description: 'Price per person',
      minPerOrder: 6,
      maxPerOrder: 20,
    },
  ],
};

/** Comedy and theatre: a front row that sells out and a hidden industry rate. */
const SHOW: TicketMenu = {
  callToAction: 'Book seats',
  types: [
    {
      name: 'Front Row',
      kind: 'paid',
      price: 1.5,
      popularity: 15,
      earlyBird: true,
      maxPerOrder: 4,
    },
    { name: 'Standard', kind: 'paid', price: 1, popularity: 65 },
    {
      name: 'Concession',
      kind: 'paid',
      price: 0.7,
      popularity: 15,
      description: 'Students, over-65s and jobseekers; ID may be checked',
    },
    {
      name: 'Industry',
      kind: 'paid',
      price: 0.5,
      popularity: 5,
      description: 'For press and programmers',
      maxPerOrder: 2,
      accessCode: 'INDUSTRY',
    },
  ],
};

/** Two prices and nothing else. */
const SIMPLE: TicketMenu = {
  callToAction: 'Buy tickets',
  types: [
    { name: 'General Admission', kind: 'paid', price: 1, popularity: 80 },
    { name: 'VIP', kind: 'paid', price: 2.5, popularity: 20, maxPerOrder: 6 },
  ],
};

/**
 * Box office 1 sells world-wide, one venue per supported currency (docs/API.md, Money), so that
 * every currency, and time zones on both sides of UTC, appear in the data. The first two events
 * straddle a DST change (their start and end have different UTC offsets).
 */
const DEMO_BOX_OFFICE: BoxOfficePlan = {
  id: 1,
  slug: 'demo-box-office',
  stripeAccount: 'acct_1PdEmoB0x0ff1ce1',
  paypalMerchant: 'DEMOBOX1PPL7Q',
  events: [
    {
      name: 'Clocks Go Forward: All-Night Rave',
      timezone: 'Europe/London',
      start: '2026-03-28T20:00',
      end: '2026-03-29T03:00',
      currency: 'gbp',
      venue: ['Canal Street Warehouse', 'E9 5EN'],
      tickets: CLUB_NIGHT,
      description:
        'Lose an hour and gain a night: seven hours of house and techno across two rooms, ending as the clocks go forward.',
      oneOff: true,
      transactionCharge: true,
      ticketQuestions: [AGE],
    },
    {
      name: 'Fall Back Jazz Night',
      timezone: 'America/New_York',
      start: '2025-11-01T21:00',
      end: '2025-11-02T02:30',
      currency: 'usd',
      venue: ['Blue Lantern Jazz Club', '10014'],
      tickets: CLUB_NIGHT,
      description:
        'An extra hour of jazz on the night the clocks go back, with the house trio and guests.',
      oneOff: true,
      taxRate: 0.08875,
      taxLabel: 'Sales tax (8.875%)',
      ticketQuestions: [DIETARY],
    },
    {
      name: 'Proms in the Park',
      timezone: 'Europe/London',
      start: '2026-07-18T19:30',
      end: '2026-07-18T22:30',
      currency: 'gbp',
      venue: ['Hyde Park Bandstand', 'W2 2UH'],
      tickets: SEATED_HALL,
      description:
        'Open-air classics with the City Festival Orchestra, ending with the traditional singalong.',
      taxRate: 0.2,
      taxLabel: 'VAT (20%)',
      seated: true,
      ticketQuestions: [ACCESS],
    },
    {
      name: 'Tokyo Neon Nights',
      timezone: 'Asia/Tokyo',
      start: '2026-05-16T18:30',
      end: '2026-05-16T21:30',
      currency: 'jpy',
      venue: ['Shibuya Neon Hall', '150-0042'],
      tickets: SIMPLE,
      taxRate: 0.1,
      taxLabel: 'Consumption tax (10%)',
      attendeeNames: false,
    },
    {
      name: 'Harbour Lights Festival',
      timezone: 'Australia/Sydney',
      start: '2026-04-04T18:00',
      end: '2026-04-05T04:00',
      currency: 'aud',
      venue: ['Barangaroo Reserve', '2000'],
      tickets: FESTIVAL,
      description:
        'Ten hours of live music and light installations on the harbour foreshore.',
      transactionCharge: true,
      ticketQuestions: [TSHIRT, DIETARY],
    },
    {
      name: 'Techno Marathon',
      timezone: 'Europe/Berlin',
      start: '2026-08-21T22:00',
      end: '2026-08-22T10:00',
      currency: 'eur',
      venue: ['Spreewerk Halle', '10245'],
      tickets: CLUB_NIGHT,
      attendeeNames: false,
    },
    {
      name: 'Online Masterclass: Stagecraft',
      timezone: 'UTC',
      start: '2026-09-10T17:00',
      end: '2026-09-10T19:00',
      currency: 'usd',
      venue: null,
      tickets: ONLINE,
      description:
        'A two-hour live masterclass on stage presence, lighting and sound for small venues, for members of the Venue Network.',
      callToAction: 'Register',
      private: true,
      accessCode: 'STAGECRAFT',
      transactionCharge: true,
    },
    {
      name: 'Marina Bay Sundowner',
      timezone: 'Asia/Singapore',
      start: '2026-10-03T17:30',
      end: '2026-10-03T22:00',
      currency: 'sgd',
      venue: ['Marina Bay Rooftop', '018956'],
      tickets: SIMPLE,
      taxRate: 0.09,
      taxLabel: 'GST (9%)',
    },
    {
      name: 'Samba Sessions',
      timezone: 'America/Sao_Paulo',
      start: '2026-02-14T20:00',
      end: '2026-02-15T01:00',
      currency: 'brl',
      venue: ['Casa do Samba', '01310-100'],
      tickets: SIMPLE,
      description: 'A live bateria and dancers warm up for Carnival.',
    },
    {
      name: 'Maple Comedy Gala',
      timezone: 'America/Toronto',
      start: '2025-12-06T19:00',
      end: '2025-12-06T22:00',
      currency: 'cad',
      venue: ['Queen West Theatre', 'M5V 2H1'],
      tour: [
        ['ByWard Market Playhouse', 'K1N 7A1'],
        ['Hess Village Theatre', 'L8P 1H6'],
        ['Richmond Row Theatre', 'N6A 3K6'],
      ],
      tickets: SHOW,
      description:
        'Six stand-ups, one host and a very long night, on tour across Ontario.',
      dates: 4,
      every: 7,
      taxRate: 0.13,
      taxLabel: 'HST (13%)',
      transactionCharge: true,
    },
    {
      name: 'Vltava Strings',
      timezone: 'Europe/Prague',
      start: '2025-09-20T19:30',
      end: '2025-09-20T21:30',
      currency: 'czk',
      venue: ['Vltava Concert Hall', '110 00'],
      tickets: CONCERT,
      description: 'Dvořák and Janáček by the river, played by a string octet.',
    },
    {
      name: 'Hygge Folk Evening',
      timezone: 'Europe/Copenhagen',
      start: '2025-11-15T19:00',
      end: '2025-11-15T22:30',
      currency: 'dkk',
      venue: ['Nørrebro Folkehus', '2200'],
      tickets: COMMUNITY,
    },
    {
      name: 'Victoria Harbour Cantopop',
      timezone: 'Asia/Hong_Kong',
      start: '2026-07-25T20:00',
      end: '2026-07-25T23:00',
      currency: 'hkd',
      // Hong Kong has no postal codes.
      venue: ['Harbourfront Live', null],
      tickets: SIMPLE,
    },
    {
      name: 'Danube Baroque',
      timezone: 'Europe/Budapest',
      start: '2025-10-11T19:00',
      end: '2025-10-11T21:00',
      currency: 'huf',
      venue: ['Danube Palace Concert Hall', '1051'],
      tickets: CONCERT,
      description: 'Vivaldi and Handel on period instruments.',
    },
    {
      name: 'Jaffa Port Beats',
      timezone: 'Asia/Jerusalem',
      start: '2026-06-12T21:00',
      end: '2026-06-13T02:00',
      currency: 'ils',
      venue: ['Jaffa Port Hangar 2', '6803601'],
      tickets: CLUB_NIGHT,
    },
    {
      name: 'KL Jazz Weekend',
      timezone: 'Asia/Kuala_Lumpur',
      start: '2026-08-08T15:00',
      end: '2026-08-09T23:00',
      currency: 'myr',
      venue: ['Merdeka Jazz Gardens', '50250'],
      tickets: FESTIVAL,
      description:
        'Two days of jazz in the gardens, with food stalls and a kids’ tent.',
      ticketQuestions: [DIETARY],
    },
    {
      name: 'Noche de Mariachi',
      timezone: 'America/Mexico_City',
      start: '2025-09-15T20:00',
      end: '2025-09-15T23:30',
      currency: 'mxn',
      venue: ['Salón Garibaldi', '06010'],
      tickets: COMMUNITY,
      description: 'Independence Eve with three mariachi bands.',
    },
    {
      name: 'Aurora Choir',
      timezone: 'Europe/Oslo',
      start: '2025-12-13T18:00',
      end: '2025-12-13T20:00',
      currency: 'nok',
      venue: ['Oslo Cathedral Hall', '0153'],
      tickets: CONCERT,
    },
    {
      name: 'Harbourside Summer Sessions',
      timezone: 'Pacific/Auckland',
      start: '2026-01-24T14:00',
      end: '2026-01-24T22:00',
      currency: 'nzd',
      venue: ['Wynyard Quarter Lawn', '1010'],
      tickets: FESTIVAL,
      description: 'An afternoon and evening of local bands by the water.',
      transactionCharge: true,
    },
    {
      name: 'Manila Bay OPM Live',
      timezone: 'Asia/Manila',
      start: '2026-03-07T19:00',
      end: '2026-03-07T23:00',
      currency: 'php',
      venue: ['Bayside Amphitheater', '1300'],
      tickets: SIMPLE,
    },
    {
      name: 'Chopin by Candlelight',
      timezone: 'Europe/Warsaw',
      start: '2025-10-25T19:00',
      end: '2025-10-25T21:00',
      currency: 'pln',
      venue: ['Ostrogski Salon', '00-368'],
      tickets: CONCERT,
      description: 'Nocturnes and ballades by candlelight.',
    },
    {
      name: 'Winter Ballet Gala',
      timezone: 'Europe/Moscow',
      start: '2025-12-27T19:00',
      end: '2025-12-27T22:00',
      currency: 'rub',
      venue: ['Moscow Ballet Hall', '125009'],
      tickets: SEATED_HALL,
      description: 'Highlights from The Nutcracker and Swan Lake.',
      seated: true,
    },
    {
      name: 'Midsummer Indie Night',
      timezone: 'Europe/Stockholm',
      start: '2026-06-19T18:00',
      end: '2026-06-20T01:00',
      currency: 'sek',
      venue: ['Södermalm Boathouse', '118 25'],
      tickets: CLUB_NIGHT,
      oneOff: true,
    },
    {
      name: 'Lakeside Classics',
      timezone: 'Europe/Zurich',
      start: '2026-08-29T19:30',
      end: '2026-08-29T22:00',
      currency: 'chf',
      venue: ['Lakeside Pavilion', '8002'],
      tickets: CONCERT,
      description: 'Mozart and Schubert by the lake.',
    },
    {
      name: 'Lantern Night Live',
      timezone: 'Asia/Taipei',
      start: '2026-02-28T19:00',
      end: '2026-02-28T22:00',
      currency: 'twd',
      venue: ['Dadaocheng Wharf Stage', '103'],
      tickets: SIMPLE,
    },
    {
      name: 'Riverside Luk Thung',
      timezone: 'Asia/Bangkok',
      start: '2026-11-14T18:00',
      end: '2026-11-14T23:00',
      currency: 'thb',
      venue: ['Chao Phraya Riverside Stage', '10600'],
      tickets: SIMPLE,
    },
    {
      name: 'Bosphorus Sunset Sessions',
      timezone: 'Europe/Istanbul',
      start: '2026-09-05T19:00',
      end: '2026-09-05T23:00',
      currency: 'try',
      venue: ['Bosphorus Terrace', '34349'],
      tickets: SIMPLE,
      description: 'Acoustic sets as the sun goes down over the strait.',
    },
    {
      name: 'Comedy Store Late Show',
      timezone: 'Europe/London',
      start: '2026-10-17T22:00',
      end: '2026-10-18T00:30',
      currency: 'gbp',
      venue: ['The Cellar Comedy Club', 'SW1Y 4QE'],
      tickets: SHOW,
      description: 'The weekly late show: five comics, new material, no mercy.',
      dates: 4,
      every: 7,
    },
    {
      name: 'Brooklyn Warehouse New Year',
      timezone: 'America/New_York',
      start: '2026-12-31T21:00',
      end: '2027-01-01T03:00',
      currency: 'usd',
      venue: ['Bushwick Warehouse', '11206'],
      tickets: CLUB_NIGHT,
      oneOff: true,
      taxRate: 0.08875,
      taxLabel: 'Sales tax (8.875%)',
      transactionCharge: true,
    },
    {
      name: 'Christmas Market Carols',
      timezone: 'Europe/Berlin',
      start: '2025-12-20T17:00',
      end: '2025-12-20T19:00',
      currency: 'eur',
      venue: ['Gendarmenmarkt Stage', '10117'],
      tickets: COMMUNITY,
      description:
        'Cancelled: the market stage could not be licensed this year. Every order has been refunded.',
      oneOff: true,
      cancelled: { onSale: '2025-09-01T10:00', at: '2025-09-26T16:00' },
      attendeeNames: false,
    },
  ],
  offline: [
    {
      id: 1101,
      name: 'Bank transfer',
      instructions:
        'Pay by bank transfer to Demo Box Office Ltd, sort code 20-00-00, account 12345678, quoting your order number. Tickets are issued when the payment arrives.',
    },
    {
      id: 1102,
      name: 'Pay on the door',
      instructions:
        'Pay in cash or by card at the box office on the night; bring your order number.',
      atVenue: true,
    },
  ],
  operator: [
    { id: 1201, name: 'Box office card terminal', instructions: null },
    { id: 1202, name: 'Cash', instructions: null },
  ],
  buyerQuestions: [
    {
      question: 'How did you hear about this event?',
      answers: ['A friend', 'Instagram', 'TikTok', 'Newsletter', 'Poster'],
      unanswered: 0.25,
    },
    {
      question: 'May we send you news of future events?',
      answers: ['Yes', 'No'],
      unanswered: 0,
    },
  ],
  // Add-ons in the currencies of a good share of the orders (pounds, dollars, euros), so that
  // about one order in twenty has one.
  products: [
    {
      name: 'Souvenir programme',
      description: 'The night’s running order, notes and photographs.',
      price: 0.3,
      currency: 'gbp',
      status: 'available',
      fulfilment: 'collect_at_venue',
    },
    {
      name: 'Picnic hamper for two',
      description:
        'Collected at the gate: sandwiches, strawberries and a bottle of fizz.',
      price: 2,
      currency: 'gbp',
      status: 'available',
      fulfilment: 'collect_at_venue',
      series: ['Proms in the Park'],
    },
    {
      name: 'Live recording (download)',
      price: 0.4,
      currency: 'usd',
      status: 'available',
      fulfilment: 'digital',
      series: ['Fall Back Jazz Night', 'Online Masterclass: Stagecraft'],
    },
    {
      name: 'Tour T-shirt',
      description: 'Organic cotton, posted within a week.',
      price: 0.8,
      currency: 'eur',
      status: 'sold_out',
      fulfilment: 'delivery',
    },
    {
      name: 'Festival poncho',
      price: 0.2,
      currency: 'aud',
      status: 'available',
      fulfilment: 'collect_at_venue',
      series: ['Harbour Lights Festival'],
    },
    {
      name: 'Backstage tour',
      description: 'Meet the comics after the show. Back next season.',
      price: 1.5,
      currency: 'gbp',
      status: 'unavailable',
      fulfilment: 'collect_at_venue',
      series: ['Comedy Store Late Show'],
    },
  ],
  vouchers: [
    {
      name: 'Gift voucher',
      type: 'gift_card',
      value: 2,
      currency: 'gbp',
      partialRedemption: true,
      codes: 25,
      codePrefix: 'GC-',
    },
    {
      name: 'Credit note',
      type: 'credit',
      value: 1,
      currency: 'usd',
      partialRedemption: false,
      expiresInDays: 365,
      codes: 15,
      codePrefix: 'CR-',
      series: ['Fall Back Jazz Night', 'Brooklyn Warehouse New Year'],
    },
    {
      name: 'Summer gift card',
      type: 'gift_card',
      value: 1,
      currency: 'eur',
      partialRedemption: true,
      expiresInDays: -30,
      codes: 12,
      codePrefix: 'SG-',
    },
  ],
  discounts: [
    {
      name: 'Supporters 10%',
      code: 'SUPPORT10',
      type: 'percentage',
      faceValue: 10,
      bookingFee: 0,
    },
    {
      name: 'Students 20%, no booking fee',
      code: 'STUDENT20',
      type: 'percentage',
      faceValue: 20,
      bookingFee: 100,
      ticketTypes: { names: ['Student', 'Concession', 'Child (5-15)'] },
    },
    {
      name: 'Proms picnic deal',
      code: 'PICNIC',
      type: 'fixed',
      faceValue: 250,
      bookingFee: 50,
      ticketTypes: { events: ['Proms in the Park'] },
      products: ['Picnic hamper for two'],
    },
    {
      name: '£5 off VIP',
      code: 'VIP5',
      type: 'fixed',
      faceValue: 500,
      bookingFee: 0,
      ticketTypes: {
        events: ['Clocks Go Forward: All-Night Rave', 'Comedy Store Late Show'],
        names: ['VIP', 'Front Row'],
      },
    },
  ],
};

/** Box office 2: a small UK and Ireland promoter, so tenancy tests have another box office's data. */
const SECOND_BOX_OFFICE: BoxOfficePlan = {
  id: 2,
  slug: 'second-box-office',
  stripeAccount: 'acct_1QsEc0nDB0x0ff2',
  paypalMerchant: 'SECOND2PPLK4M',
  events: [
    {
      name: 'Brighton Pier Ceilidh',
      timezone: 'Europe/London',
      start: '2025-07-12T19:00',
      end: '2025-07-12T23:00',
      currency: 'gbp',
      venue: ['Palace Pier Ballroom', 'BN2 1TW'],
      tickets: COMMUNITY,
      description:
        'Reels and jigs with a live band and a caller; no experience needed.',
    },
    {
      name: 'Dublin Trad Session',
      timezone: 'Europe/Dublin',
      start: '2026-03-17T20:00',
      end: '2026-03-17T23:30',
      currency: 'eur',
      venue: ['The Liberties Snug', 'D08 X2A3'],
      tickets: COMMUNITY,
      ticketQuestions: [DIETARY],
    },
    {
      name: 'Online Poetry Slam',
      timezone: 'UTC',
      start: '2026-05-20T19:00',
      end: '2026-05-20T21:00',
      currency: 'gbp',
      venue: null,
      tickets: ONLINE,
      description:
        'The monthly open slam, streamed: three minutes each, audience votes.',
      dates: 3,
      every: 28,
      attendeeNames: false,
    },
    {
      name: 'Edinburgh Fringe Preview',
      timezone: 'Europe/London',
      start: '2026-08-07T19:30',
      end: '2026-08-07T21:00',
      currency: 'gbp',
      venue: ['Grassmarket Studio', 'EH1 2JU'],
      tickets: SHOW,
      description: 'Work-in-progress previews for invited audiences.',
      private: true,
      accessCode: 'FRINGE26',
      transactionCharge: true,
    },
    {
      name: 'Hogmanay Ceilidh',
      timezone: 'Europe/London',
      start: '2026-12-31T20:00',
      end: '2027-01-01T01:00',
      currency: 'gbp',
      venue: ['Leith Assembly Rooms', 'EH6 6QU'],
      tickets: COMMUNITY,
      oneOff: true,
      draft: true,
    },
  ],
  offline: [
    {
      id: 2101,
      name: 'Cheque',
      instructions:
        'Send a cheque payable to Second Box Office within 7 days, with your order number on the back.',
    },
  ],
  operator: [{ id: 2201, name: 'Door sales', instructions: null }],
  buyerQuestions: [
    {
      question: 'Company or group name',
      answers: ['Sunday Walkers', 'Riverside Book Club', 'Acme Ltd'],
      unanswered: 0.85,
    },
  ],
  products: [
    {
      name: 'Ceilidh songbook',
      price: 0.4,
      currency: 'gbp',
      status: 'available',
      fulfilment: 'delivery',
    },
  ],
  vouchers: [
    {
      name: 'Ceilidh gift voucher',
      type: 'gift_card',
      value: 1,
      currency: 'gbp',
      partialRedemption: true,
      codes: 6,
      codePrefix: 'CG-',
    },
  ],
  discounts: [
    {
      name: 'Friends of the ceilidh',
      code: 'CEILIDH10',
      type: 'percentage',
      faceValue: 10,
      bookingFee: 0,
    },
  ],
};

export const BOX_OFFICE_PLANS: readonly BoxOfficePlan[] = [
  DEMO_BOX_OFFICE,
  SECOND_BOX_OFFICE,
];

function offsetSeconds(unix: number, timeZone: string): number {
  const [, sign, hours, minutes] = /^([+-])(\d\d):(\d\d)$/.exec(
    toDateObject(unix, timeZone).timezone,
  )!;
  return (
    (sign === '-' ? -1 : 1) * (Number(hours) * 3600 + Number(minutes) * 60)
  );
}

/**
 * The instant of a wall-clock time in an IANA zone (`2026-03-29T03:00`, `Europe/London` → 02:00Z).
 * The offset is looked up at a first guess and again at the corrected instant, which settles
 * times near a DST change. (Times inside a spring-forward gap do not exist; the plans avoid them.)
 */
export function zonedTimeToUnix(local: string, timeZone: string): number {
  const [y, mo, d, h, mi] = local.split(/[-T:]/).map(Number);
  const asIfUtc = Date.UTC(y, mo - 1, d, h, mi) / 1000;
  const guess = asIfUtc - offsetSeconds(asIfUtc, timeZone);
  return asIfUtc - offsetSeconds(guess, timeZone);
}

/** The same wall-clock time `days` later (earlier when negative): `2026-03-28T20:00` + 7. */
export function shiftLocalTime(local: string, days: number): string {
  const [y, mo, d] = local.slice(0, 10).split('-').map(Number);
  const date = new Date(Date.UTC(y, mo - 1, d + days));
  return `${date.toISOString().slice(0, 10)}${local.slice(10)}`;
}
