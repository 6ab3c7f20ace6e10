import { onlySort } from '../common/pagination/sort';
import type { ResourceSource } from '../common/resources/resource-reader';
import { type Fields, json } from '../common/resources/field-table';
import { dateObjectField } from './event-dates';
import { RESOURCE } from '../common/resources/resource-identities';

/**
 * The Event resource (docs/API.md, "Event"), with its ticket groups, ticket types and payment
 * methods, field by field, in the order it is served.
 * Aliases: `ev` events, `tt` ticket_types, `tg` ticket_groups, `gt` a group's ticket types,
 * `pm` event_payment_methods.
 */

/** An event's ticket type counts its sales; a series template's has a capacity only. */
type Stock = 'counted' | 'template';

/** Capacity less what is issued, held and in baskets (SQL; may be below 0 when oversold). */
const ticketsLeft = (alias: string, stock: Stock) =>
  stock === 'counted'
    ? `${alias}.quantity_total - ${alias}.quantity_issued - ${alias}.quantity_held - ${alias}.quantity_in_baskets`
    : `${alias}.quantity_total`;

/**
 * A ticket type's fields, read from `alias`: an event's (`tt`, with its counters) or a series
 * template's (which has capacity only: nothing is issued, held or in a basket against it). What
 * is left is capacity minus the rest, never below 0; a sold-out type has none.
 */
export function ticketTypeFields(alias: string, stock: Stock): Fields {
  const counter = (column: string) =>
    stock === 'counted' ? `${alias}.${column}` : '0';
  const left = ticketsLeft(alias, stock);
  return [
    ['object', json.literal(RESOURCE.ticketType.object)],
    ['id', json.id(RESOURCE.ticketType.prefix, `${alias}.id`)],
    ['access_code', json.nullableString(`${alias}.access_code`)],
    ['booking_fee', json.integer(`${alias}.booking_fee`)],
    ['description', json.nullableString(`${alias}.description`)],
    [
      'group_id',
      json.nullableId(RESOURCE.ticketGroup.prefix, `${alias}.group_id`),
    ],
    ['max_per_order', json.integer(`${alias}.max_per_order`)],
    ['min_per_order', json.integer(`${alias}.min_per_order`)],
    ['name', json.string(`${alias}.name`)],
    ['price', json.integer(`${alias}.price`)],
    ['status', json.string(`${alias}.status`)],
    ['sort_order', json.integer(`${alias}.sort_order`)],
    ['type', json.string(`${alias}.type`)],
    [
      'quantity',
      json.integer(
        `CASE WHEN ${alias}.status = 'sold_out' OR ${left} < 0 THEN 0 ELSE ${left} END`,
      ),
    ],
    ['quantity_total', json.integer(`${alias}.quantity_total`)],
    ['quantity_issued', json.integer(counter('quantity_issued'))],
    ['quantity_held', json.integer(counter('quantity_held'))],
    ['quantity_in_baskets', json.integer(counter('quantity_in_baskets'))],
  ];
}

/** Whether a ticket type read from `alias` is on sale with tickets left. */
export const onSaleWithTicketsLeft = (alias: string) =>
  `${alias}.status = 'on_sale' AND ${ticketsLeft(alias, 'counted')} > 0`;

/** A ticket group's fields, read from `alias`; its types from `typesTable` (as `gt`). */
export function ticketGroupFields(alias: string, typesTable: string): Fields {
  return [
    ['id', json.id(RESOURCE.ticketGroup.prefix, `${alias}.id`)],
    ['max_per_order', json.nullableInteger(`${alias}.max_per_order`)],
    ['name', json.string(`${alias}.name`)],
    ['sort_order', json.integer(`${alias}.sort_order`)],
    [
      'ticket_ids',
      json.array({
        of: json.id(RESOURCE.ticketType.prefix, 'gt.id'),
        from: `${typesTable} gt`,
        link: ['gt.group_id', `${alias}.id`],
        orderBy: ['gt.sort_order', 'gt.id'],
        indexOrdered: true,
      }),
    ],
  ];
}

/** A payment method's fields, read from `pm`. */
export const PAYMENT_METHOD_FIELDS: Fields = [
  ['external_id', json.nullableString('pm.external_id')],
  [
    'id',
    json.nullableId(RESOURCE.paymentMethod.prefix, 'pm.payment_method_id'),
  ],
  ['type', json.string('pm.type')],
  ['name', json.nullableString('pm.name')],
  ['instructions', json.nullableString('pm.instructions')],
];

/** A date object of the event's, in its time zone. */
const eventDate = (column: string) => dateObjectField(column, 'ev.timezone');

export const EVENT_FIELDS: Fields = [
  ['object', json.literal(RESOURCE.event.object)],
  ['id', json.id(RESOURCE.event.prefix, 'ev.id')],
  ['access_code', json.nullableString('ev.access_code')],
  ['call_to_action', json.string('ev.call_to_action')],
  ['created_at', json.integer('ev.created_at')],
  ['currency', json.string('ev.currency')],
  ['description', json.nullableString('ev.description')],
  ['end', eventDate('ev.end_at')],
  [
    'event_series_id',
    json.id(RESOURCE.eventSeries.prefix, 'ev.event_series_id'),
  ],
  [
    'images',
    json.object([
      ['header', json.string('ev.image_header_url')],
      ['thumbnail', json.string('ev.image_thumbnail_url')],
    ]),
  ],
  ['name', json.string('ev.name')],
  ['online_event', json.flag('ev.online_event')],
  [
    'payment_methods',
    json.array({
      of: json.object(PAYMENT_METHOD_FIELDS),
      from: 'event_payment_methods pm',
      link: ['pm.event_id', 'ev.id'],
      orderBy: ['pm.id'],
      indexOrdered: true,
    }),
  ],
  ['private', json.flag('ev.private')],
  ['start', eventDate('ev.start_at')],
  ['status', json.string('ev.status')],
  [
    'ticket_groups',
    json.array({
      of: json.object(ticketGroupFields('tg', 'ticket_types')),
      from: 'ticket_groups tg',
      link: ['tg.event_id', 'ev.id'],
      orderBy: ['tg.sort_order', 'tg.id'],
      indexOrdered: true,
    }),
  ],
  [
    'ticket_types',
    json.array({
      of: json.object(ticketTypeFields('tt', 'counted')),
      from: 'ticket_types tt',
      link: ['tt.event_id', 'ev.id'],
      orderBy: ['tt.sort_order', 'tt.id'],
      indexOrdered: true,
    }),
  ],
  // "true" exactly when a ticket type is on sale with tickets left (docs/API.md, "Event").
  [
    'tickets_available',
    json.flag(
      `EXISTS (SELECT 1 FROM ticket_types ta WHERE ta.event_id = ev.id AND ${onSaleWithTicketsLeft('ta')})`,
    ),
  ],
  ['timezone', json.string('ev.timezone')],
  // Kept exact by triggers (see the Event entity): no counting per request.
  ['total_issued_tickets', json.integer('ev.valid_tickets_count')],
  ['total_orders', json.integer('ev.completed_orders_count')],
  ['url', json.string('ev.url')],
  [
    'venue',
    json.object([
      ['name', json.nullableString('ev.venue_name')],
      ['postal_code', json.nullableString('ev.venue_postal_code')],
    ]),
  ],
];

export const EVENT_SOURCE: ResourceSource = {
  noun: RESOURCE.event.noun,
  prefix: RESOURCE.event.prefix,
  table: 'events ev',
  joins: '',
  tenant: 'ev.box_office_id',
  id: 'ev.id',
  sorts: onlySort('ev.start_at', 'ASC'),
  fields: EVENT_FIELDS,
};
