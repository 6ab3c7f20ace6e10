import type { CurrencyCode } from '../src/common/currencies';
import { toDateObject } from '../src/events/event-dates';

/**
 * The hand-written part of the demo data: the two box offices, their events, payment methods and
 * checkout questions. Orders are generated from this (see order-generator.ts).
 */

/** An optional or required question asked at checkout, with the answers buyers give. */
export interface QuestionPlan {
  question: string;
  answers: readonly string[];
  /** Share of buyers who leave it blank (the answer is then null). */
  unanswered: number;
}

export interface EventPlan {
  name: string;
  timezone: string;
  /** Local wall-clock time in `timezone`, `YYYY-MM-DDTHH:mm`. */
  start: string;
  end: string;
  /** The currency its orders are paid in: the venue's. */
  currency: CurrencyCode;
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
}

export interface BoxOfficePlan {
  id: number;
  events: readonly EventPlan[];
  offline: readonly InternalPaymentMethod[];
  operator: readonly InternalPaymentMethod[];
  buyerQuestions: readonly QuestionPlan[];
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

/**
 * Box office 1 sells world-wide, one venue per supported currency (docs/API.md, Money), so that
 * every currency, and time zones on both sides of UTC, appear in the data. The first two events
 * straddle a DST change (their start and end have different UTC offsets).
 */
const DEMO_BOX_OFFICE: BoxOfficePlan = {
  id: 1,
  events: [
    {
      name: 'Clocks Go Forward: All-Night Rave',
      timezone: 'Europe/London',
      start: '2026-03-28T20:00',
      end: '2026-03-29T03:00',
      currency: 'gbp',
      transactionCharge: true,
      ticketQuestions: [AGE],
    },
    {
      name: 'Fall Back Jazz Night',
      timezone: 'America/New_York',
      start: '2025-11-01T21:00',
      end: '2025-11-02T02:30',
      currency: 'usd',
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
      transactionCharge: true,
      ticketQuestions: [TSHIRT, DIETARY],
    },
    {
      name: 'Techno Marathon',
      timezone: 'Europe/Berlin',
      start: '2026-08-21T22:00',
      end: '2026-08-22T10:00',
      currency: 'eur',
      attendeeNames: false,
    },
    {
      name: 'Online Masterclass: Stagecraft',
      timezone: 'UTC',
      start: '2026-09-10T17:00',
      end: '2026-09-10T19:00',
      currency: 'usd',
      transactionCharge: true,
    },
    {
      name: 'Marina Bay Sundowner',
      timezone: 'Asia/Singapore',
      start: '2026-10-03T17:30',
      end: '2026-10-03T22:00',
      currency: 'sgd',
      taxRate: 0.09,
      taxLabel: 'GST (9%)',
    },
    {
      name: 'Samba Sessions',
      timezone: 'America/Sao_Paulo',
      start: '2026-02-14T20:00',
      end: '2026-02-15T01:00',
      currency: 'brl',
    },
    {
      name: 'Maple Comedy Gala',
      timezone: 'America/Toronto',
      start: '2025-12-06T19:00',
      end: '2025-12-06T22:00',
      currency: 'cad',
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
    },
    {
      name: 'Hygge Folk Evening',
      timezone: 'Europe/Copenhagen',
      start: '2025-11-15T19:00',
      end: '2025-11-15T22:30',
      currency: 'dkk',
    },
    {
      name: 'Victoria Harbour Cantopop',
      timezone: 'Asia/Hong_Kong',
      start: '2026-07-25T20:00',
      end: '2026-07-25T23:00',
      currency: 'hkd',
    },
    {
      name: 'Danube Baroque',
      timezone: 'Europe/Budapest',
      start: '2025-10-11T19:00',
      end: '2025-10-11T21:00',
      currency: 'huf',
    },
    {
      name: 'Jaffa Port Beats',
      timezone: 'Asia/Jerusalem',
      start: '2026-06-12T21:00',
      end: '2026-06-13T02:00',
      currency: 'ils',
    },
    {
      name: 'KL Jazz Weekend',
      timezone: 'Asia/Kuala_Lumpur',
      start: '2026-08-08T15:00',
      end: '2026-08-09T23:00',
      currency: 'myr',
      ticketQuestions: [DIETARY],
    },
    {
      name: 'Noche de Mariachi',
      timezone: 'America/Mexico_City',
      start: '2025-09-15T20:00',
      end: '2025-09-15T23:30',
      currency: 'mxn',
    },
    {
      name: 'Aurora Choir',
      timezone: 'Europe/Oslo',
      start: '2025-12-13T18:00',
      end: '2025-12-13T20:00',
      currency: 'nok',
    },
    {
      name: 'Harbourside Summer Sessions',
      timezone: 'Pacific/Auckland',
      start: '2026-01-24T14:00',
      end: '2026-01-24T22:00',
      currency: 'nzd',
      transactionCharge: true,
    },
    {
      name: 'Manila Bay OPM Live',
      timezone: 'Asia/Manila',
      start: '2026-03-07T19:00',
      end: '2026-03-07T23:00',
      currency: 'php',
    },
    {
      name: 'Chopin by Candlelight',
      timezone: 'Europe/Warsaw',
      start: '2025-10-25T19:00',
      end: '2025-10-25T21:00',
      currency: 'pln',
    },
    {
      name: 'Winter Ballet Gala',
      timezone: 'Europe/Moscow',
      start: '2025-12-27T19:00',
      end: '2025-12-27T22:00',
      currency: 'rub',
    },
    {
      name: 'Midsummer Indie Night',
      timezone: 'Europe/Stockholm',
      start: '2026-06-19T18:00',
      end: '2026-06-20T01:00',
      currency: 'sek',
    },
    {
      name: 'Lakeside Classics',
      timezone: 'Europe/Zurich',
      start: '2026-08-29T19:30',
      end: '2026-08-29T22:00',
      currency: 'chf',
    },
    {
      name: 'Lantern Night Live',
      timezone: 'Asia/Taipei',
      start: '2026-02-28T19:00',
      end: '2026-02-28T22:00',
      currency: 'twd',
    },
    {
      name: 'Riverside Luk Thung',
      timezone: 'Asia/Bangkok',
      start: '2026-11-14T18:00',
      end: '2026-11-14T23:00',
      currency: 'thb',
    },
    {
      name: 'Bosphorus Sunset Sessions',
      timezone: 'Europe/Istanbul',
      start: '2026-09-05T19:00',
      end: '2026-09-05T23:00',
      currency: 'try',
    },
    {
      name: 'Comedy Store Late Show',
      timezone: 'Europe/London',
      start: '2026-10-17T22:00',
      end: '2026-10-18T00:30',
      currency: 'gbp',
    },
    {
      name: 'Brooklyn Warehouse New Year',
      timezone: 'America/New_York',
      start: '2026-12-31T21:00',
      end: '2027-01-01T03:00',
      currency: 'usd',
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
};

/** Box office 2: a small UK and Ireland promoter, so tenancy tests have another box office's data. */
const SECOND_BOX_OFFICE: BoxOfficePlan = {
  id: 2,
  events: [
    {
      name: 'Brighton Pier Ceilidh',
      timezone: 'Europe/London',
      start: '2025-07-12T19:00',
      end: '2025-07-12T23:00',
      currency: 'gbp',
    },
    {
      name: 'Dublin Trad Session',
      timezone: 'Europe/Dublin',
      start: '2026-03-17T20:00',
      end: '2026-03-17T23:30',
      currency: 'eur',
      ticketQuestions: [DIETARY],
    },
    {
      name: 'Online Poetry Slam',
      timezone: 'UTC',
      start: '2026-05-20T19:00',
      end: '2026-05-20T21:00',
      currency: 'gbp',
      attendeeNames: false,
    },
    {
      name: 'Edinburgh Fringe Preview',
      timezone: 'Europe/London',
      start: '2026-08-07T19:30',
      end: '2026-08-07T21:00',
      currency: 'gbp',
      transactionCharge: true,
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
