import { CURRENCY_BASE_MULTIPLIERS } from '../common/currencies';
import { sortsBy } from '../common/pagination/sort';
import type { ResourceSource } from '../common/resources/resource-reader';
import { type Fields, json } from '../common/resources/field-table';
import { eventSummaryJson } from '../events/event-summary-json';
import { ISSUED_TICKET_FIELDS } from '../issued-tickets/issued-ticket.fields';
import { RESOURCE } from '../common/resources/resource-identities';

/**
 * The Order resource (docs/API.md, "Order"), field by field, in the order it is served.
 * Aliases: `o` orders, `e` events, `t` issued_tickets, `li` line_items.
 */

const baseMultiplier = `CASE o.currency ${Object.entries(
  CURRENCY_BASE_MULTIPLIERS,
)
  .filter(([, multiplier]) => multiplier !== 100)
  .map(([code, multiplier]) => `WHEN '${code}' THEN ${multiplier}`)
  .join(' ')} ELSE 100 END`;

/**
 * What a line sold or spent, as a prefixed id, read from the column its type reads
 * (docs/API.md, "LineItem"): null for the other types and where the data cannot say.
 */
const LINE_ITEM_SUBJECT = `CASE li.type
    WHEN 'ticket' THEN '${RESOURCE.ticketType.prefix}' || li.ticket_type_id
    WHEN 'void' THEN '${RESOURCE.ticketType.prefix}' || li.ticket_type_id
    WHEN 'product' THEN '${RESOURCE.product.prefix}' || li.product_id
    WHEN 'gift_card' THEN coalesce('${RESOURCE.voucherCode.prefix}' || li.voucher_code_id, '${RESOURCE.discount.prefix}' || li.discount_id)
  END`;

const LINE_ITEM_FIELDS: Fields = [
  ['object', json.literal(RESOURCE.lineItem.object)],
  ['id', json.id(RESOURCE.lineItem.prefix, 'li.id')],
  ['booking_fee', json.integer('li.booking_fee')],
  ['description', json.string('li.description')],
  ['item_id', json.nullableString(LINE_ITEM_SUBJECT)],
  ['type', json.string('li.type')],
  ['total', json.integer('li.total')],
  ['value', json.integer('li.value')],
  ['quantity', json.integer('li.quantity')],
];

export const ORDER_FIELDS: Fields = [
  ['object', json.literal(RESOURCE.order.object)],
  ['id', json.id(RESOURCE.order.prefix, 'o.id')],
  [
    'buyer_details',
    json.object([
      [
        'address',
        json.object([
          ['address_1', json.string('o.address_1')],
          ['address_2', json.nullableString('o.address_2')],
          ['address_3', json.nullableString('o.address_3')],
          ['postal_code', json.nullableString('o.postal_code')],
        ]),
      ],
      ['custom_questions', json.stored('o.buyer_custom_questions')],
      ['email', json.string('o.buyer_email')],
      ['first_name', json.nullableString('o.buyer_first_name')],
      ['last_name', json.nullableString('o.buyer_last_name')],
      ['name', json.string('o.buyer_name')],
      ['phone', json.nullableString('o.buyer_phone')],
    ]),
  ],
  ['created_at', json.integer('o.created_at')],
  [
    'currency',
    json.object([
      ['code', json.string('o.currency')],
      ['base_multiplier', json.integer(baseMultiplier)],
    ]),
  ],
  [
    'event_summary',
    json.computed(
      {
        id: 'e.id',
        event_series_id: 'e.event_series_id',
        name: 'e.name',
        start_at: 'e.start_at',
        end_at: 'e.end_at',
        timezone: 'e.timezone',
        venue_name: 'e.venue_name',
        venue_postal_code: 'e.venue_postal_code',
      },
      eventSummaryJson,
    ),
  ],
  [
    'issued_tickets',
    json.array({
      of: json.object(ISSUED_TICKET_FIELDS),
      from: 'issued_tickets t',
      parentAliases: ['o', 'e'],
      link: ['t.order_id', 'o.id'],
      orderBy: ['t.id'],
      indexOrdered: true,
    }),
  ],
  [
    'line_items',
    json.array({
      of: json.object(LINE_ITEM_FIELDS),
      from: 'line_items li',
      link: ['li.order_id', 'o.id'],
      orderBy: ['li.id'],
      indexOrdered: true,
    }),
  ],
  [
    'payment_method',
    json.object([
      ['external_id', json.nullableString('o.payment_method_external_id')],
      [
        'id',
        json.nullableId(RESOURCE.paymentMethod.prefix, 'o.payment_method_id'),
      ],
      ['type', json.string('o.payment_method_type')],
      ['name', json.nullableString('o.payment_method_name')],
      ['instructions', json.nullableString('o.payment_method_instructions')],
    ]),
  ],
  ['refund_amount', json.integer('o.refund_amount')],
  ['status', json.string('o.status')],
  ['status_message', json.nullableString('o.status_message')],
  ['subtotal', json.integer('o.subtotal')],
  ['tax', json.integer('o.tax')],
  ['total', json.integer('o.total')],
  ['txn_id', json.nullableString('o.txn_id')],
  ['updated_at', json.integer('o.updated_at')],
];

export const ORDER_SOURCE: ResourceSource = {
  noun: RESOURCE.order.noun,
  prefix: RESOURCE.order.prefix,
  table: 'orders o',
  joins: 'JOIN events e ON e.id = o.event_id',
  tenant: 'o.box_office_id',
  id: 'o.id',
  sorts: sortsBy(
    [
      { key: 'created_at', column: 'o.created_at', keyed: false },
      { key: 'updated_at', column: 'o.updated_at', keyed: true },
    ],
    '-created_at',
  ),
  fields: ORDER_FIELDS,
};
