import type { JsonField, SqlDialect } from '../database/sql-dialect';
import { CURRENCY_BASE_MULTIPLIERS } from './currencies';
import { toDateObject } from './event-dates';

/**
 * Order entity → Order resource (spec 2.1–2.6), listing every field it emits. The database builds
 * each order's JSON (see SqlDialect) in two halves around `event_summary`, whose date objects need
 * the event's IANA time zone and are built here, in `assembleOrderJson`.
 *
 * Aliases used: `o` orders, `e` events, `t` issued_tickets, `li` line_items.
 */

const str = (literal: string) => `'${literal}'`;
const prefixed = (prefix: string, column: string) => `'${prefix}' || ${column}`;
const nullablePrefixed = (prefix: string, column: string) =>
  `CASE WHEN ${column} IS NULL THEN NULL ELSE '${prefix}' || ${column} END`;

const baseMultiplier = `CASE o.currency ${Object.entries(
  CURRENCY_BASE_MULTIPLIERS,
)
  .filter(([, multiplier]) => multiplier !== 100)
  .map(([code, multiplier]) => `WHEN '${code}' THEN ${multiplier}`)
  .join(' ')} ELSE 100 END`;

function headFields(d: SqlDialect): JsonField[] {
  return [
    ['object', str('order')],
    ['id', prefixed('or_', 'o.id')],
    [
      'buyer_details',
      d.jsonObject([
        [
          'address',
          d.jsonObject([
            ['address_1', 'o.address_1'],
            ['address_2', 'o.address_2'],
            ['address_3', 'o.address_3'],
            ['postal_code', 'o.postal_code'],
          ]),
        ],
        ['custom_questions', d.embedJson('o.buyer_custom_questions')],
        ['email', 'o.buyer_email'],
        ['name', 'o.buyer_name'],
        ['phone', 'o.buyer_phone'],
      ]),
    ],
    ['created_at', 'o.created_at'],
    [
      'currency',
      d.jsonObject([
        ['code', 'o.currency'],
        ['base_multiplier', baseMultiplier],
      ]),
    ],
  ];
}

function issuedTicketFields(d: SqlDialect): JsonField[] {
  return [
    ['object', str('issued_ticket')],
    ['id', prefixed('it_', 't.id')],
    ['barcode', 't.barcode'],
    ['barcode_url', 't.barcode_url'],
    ['created_at', 't.created_at'],
    ['custom_questions', d.embedJson('t.custom_questions')],
    ['description', 't.description'],
    ['email', 'o.buyer_email'],
    ['event_id', prefixed('ev_', 't.event_id')],
    ['full_name', 't.full_name'],
    ['first_name', 't.first_name'],
    ['last_name', 't.last_name'],
    ['reservation', 't.reservation'],
    ['status', 't.status'],
    ['updated_at', 't.updated_at'],
    ['voided_at', 't.voided_at'],
    ['order_id', prefixed('or_', 't.order_id')],
    ['qr_code_url', 't.qr_code_url'],
  ];
}

const lineItemFields: JsonField[] = [
  ['object', str('line_item')],
  ['id', prefixed('li_', 'li.id')],
  ['booking_fee', 'li.booking_fee'],
  ['description', 'li.description'],
  ['type', 'li.type'],
  ['total', 'li.total'],
  ['value', 'li.value'],
  ['quantity', 'li.quantity'],
];

function tailFields(d: SqlDialect): JsonField[] {
  return [
    [
      'issued_tickets',
      d.jsonArray(
        issuedTicketFields(d),
        'issued_tickets t WHERE t.order_id = o.id',
        't.id',
      ),
    ],
    [
      'line_items',
      d.jsonArray(
        lineItemFields,
        'line_items li WHERE li.order_id = o.id',
        'li.id',
      ),
    ],
    [
      'payment_method',
      d.jsonObject([
        ['external_id', 'o.payment_method_external_id'],
        ['id', nullablePrefixed('pm_', 'o.payment_method_id')],
        ['type', 'o.payment_method_type'],
        ['name', 'o.payment_method_name'],
        ['instructions', 'o.payment_method_instructions'],
      ]),
    ],
    ['refund_amount', 'o.refund_amount'],
    ['status', 'o.status'],
    ['status_message', 'o.status_message'],
    ['subtotal', 'o.subtotal'],
    ['tax', 'o.tax'],
    ['total', 'o.total'],
    ['txn_id', 'o.txn_id'],
  ];
}

/** The columns each order row carries: keys for paging plus the two JSON halves. */
export function orderSelectList(d: SqlDialect): string {
  return [
    'o.id AS id',
    'o.created_at AS created_at',
    'e.id AS event_id',
    'e.name AS event_name',
    'e.start_at AS event_start_at',
    'e.end_at AS event_end_at',
    'e.timezone AS event_timezone',
    `${d.asText(d.jsonObject(headFields(d)))} AS head`,
    `${d.asText(d.jsonObject(tailFields(d)))} AS tail`,
  ].join(',\n  ');
}

/** FROM clause matching `orderSelectList`. */
export const ORDER_FROM = 'orders o JOIN events e ON e.id = o.event_id';

export interface OrderRow {
  id: number | string;
  created_at: number | string;
  event_id: number | string;
  event_name: string;
  event_start_at: number | string;
  event_end_at: number | string;
  event_timezone: string;
  /** JSON text: the order's fields before and after event_summary. */
  head: string;
  tail: string;
}

interface CachedSummary {
  name: string;
  startAt: number | string;
  endAt: number | string;
  timezone: string;
  json: string;
}

const eventSummaries = new Map<number | string, CachedSummary>();
const EVENT_SUMMARY_CACHE_SIZE = 1000;

/**
 * `event_summary` JSON, memoised per event and checked against everything it is made of (so it
 * can never be stale): a page usually holds few events, and formatting dates is the costly part.
 */
function eventSummaryJson(row: OrderRow): string {
  const cached = eventSummaries.get(row.event_id);
  if (
    cached !== undefined &&
    cached.name === row.event_name &&
    cached.startAt === row.event_start_at &&
    cached.endAt === row.event_end_at &&
    cached.timezone === row.event_timezone
  ) {
    return cached.json;
  }
  const json = JSON.stringify({
    id: `ev_${row.event_id}`,
    name: row.event_name,
    start_date: toDateObject(Number(row.event_start_at), row.event_timezone),
    end_date: toDateObject(Number(row.event_end_at), row.event_timezone),
  });
  if (eventSummaries.size >= EVENT_SUMMARY_CACHE_SIZE) eventSummaries.clear();
  eventSummaries.set(row.event_id, {
    name: row.event_name,
    startAt: row.event_start_at,
    endAt: row.event_end_at,
    timezone: row.event_timezone,
    json,
  });
  return json;
}

/** One order's JSON text: `{head…, "event_summary": …, tail…}` in the spec's field order. */
export function assembleOrderJson(row: OrderRow): string {
  return `${row.head.slice(0, -1)},"event_summary":${eventSummaryJson(row)},${row.tail.slice(1)}`;
}
