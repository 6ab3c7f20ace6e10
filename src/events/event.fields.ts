import { onlySort } from '../common/pagination/sort';
import type { ResourceSource } from '../common/resources/resource-reader';
import { type Fields, json } from '../common/resources/field-table';
import { dateObjectJson } from './event-dates';

/**
 * The Event resource (docs/API.md, "Event"), with its ticket groups, ticket types and payment
 * methods, field by field, in the order it is served.
 * Aliases: `ev` events, `tt` ticket_types, `tg` ticket_groups, `gt` a group's ticket types,
 * `pm` event_payment_methods.
 */

const TICKET_TYPE_FIELDS: Fields = [
  ['object', json.literal('ticket_type')],
  ['id', json.id('tt_', 'tt.id')],
  ['access_code', json.string('tt.access_code')],
  ['booking_fee', json.integer('tt.booking_fee')],
  ['description', json.string('tt.description')],
  ['group_id', json.nullableId('tg_', 'tt.group_id')],
  ['max_per_order', json.integer('tt.max_per_order')],
  ['min_per_order', json.integer('tt.min_per_order')],
  ['name', json.string('tt.name')],
  ['price', json.integer('tt.price')],
  ['status', json.string('tt.status')],
  ['sort_order', json.integer('tt.sort_order')],
  ['type', json.string('tt.type')],
  ['quantity', json.integer('tt.quantity')],
];

const TICKET_GROUP_FIELDS: Fields = [
  ['id', json.id('tg_', 'tg.id')],
  ['max_per_order', json.nullableInteger('tg.max_per_order')],
  ['name', json.string('tg.name')],
  ['sort_order', json.integer('tg.sort_order')],
  [
    'ticket_ids',
    json.array({
      of: json.id('tt_', 'gt.id'),
      from: 'ticket_types gt',
      link: ['gt.group_id', 'tg.id'],
      orderBy: ['gt.sort_order', 'gt.id'],
      indexOrdered: true,
    }),
  ],
];

const PAYMENT_METHOD_FIELDS: Fields = [
  ['external_id', json.string('pm.external_id')],
  ['id', json.nullableId('pm_', 'pm.payment_method_id')],
  ['type', json.string('pm.type')],
  ['name', json.string('pm.name')],
  ['instructions', json.string('pm.instructions')],
];

/** A date object of the event's, in its time zone. */
const eventDate = (column: string) =>
  json.computed(
    { unix: column, timezone: 'ev.timezone' },
    ({ unix, timezone }) => dateObjectJson(Number(unix), timezone as string),
  );

export const EVENT_FIELDS: Fields = [
  ['object', json.literal('event')],
  ['id', json.id('ev_', 'ev.id')],
  ['access_code', json.string('ev.access_code')],
  ['call_to_action', json.string('ev.call_to_action')],
  ['created_at', json.integer('ev.created_at')],
  ['currency', json.string('ev.currency')],
  ['description', json.string('ev.description')],
  ['end', eventDate('ev.end_at')],
  ['event_series_id', json.id('es_', 'ev.event_series_id')],
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
      of: json.object(TICKET_GROUP_FIELDS),
      from: 'ticket_groups tg',
      link: ['tg.event_id', 'ev.id'],
      orderBy: ['tg.sort_order', 'tg.id'],
      indexOrdered: true,
    }),
  ],
  [
    'ticket_types',
    json.array({
      of: json.object(TICKET_TYPE_FIELDS),
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
      "EXISTS (SELECT 1 FROM ticket_types ta WHERE ta.event_id = ev.id AND ta.status = 'on_sale' AND ta.quantity > 0)",
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
      ['name', json.string('ev.venue_name')],
      ['postal_code', json.string('ev.venue_postal_code')],
    ]),
  ],
];

export const EVENT_SOURCE: ResourceSource = {
  noun: 'event',
  prefix: 'ev_',
  table: 'events ev',
  joins: '',
  tenant: 'ev.box_office_id',
  id: 'ev.id',
  sorts: onlySort('ev.start_at', 'ASC'),
  fields: EVENT_FIELDS,
};
