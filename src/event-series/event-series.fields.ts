import { onlySort } from '../common/pagination/sort';
import {
  type Fields,
  type RowAggregate,
  json,
} from '../common/resources/field-table';
import type { ResourceSource } from '../common/resources/resource-reader';
import { dateObjectField } from '../events/event-dates';
import {
  PAYMENT_METHOD_FIELDS,
  ticketGroupFields,
  ticketTypeFields,
} from '../events/event.fields';
import { RESOURCE } from '../common/resources/resource-identities';

/**
 * A series' counts, read from its events when it is served: one walk of the events' series
 * index per series on PostgreSQL (a lateral join), one per count on SQLite. The events' own
 * counters (kept by triggers) give the tickets and the revenue; the first date not yet over is
 * the smallest start among those not over, as the events' list order (start, id) would give.
 */
const SERIES_DATES: RowAggregate = {
  alias: 'sd',
  from: 'events x WHERE x.box_office_id = es.box_office_id AND x.event_series_id = es.id',
  columns: {
    next_start: 'min(x.start_at) FILTER (WHERE x.end_at > rq.now)',
    upcoming: 'count(*) FILTER (WHERE x.end_at > rq.now)',
    total: 'count(*)',
    tickets: 'coalesce(sum(x.valid_tickets_count), 0)',
    revenue: 'coalesce(sum(x.completed_revenue), 0)',
  },
};

/**
 * The EventSeries resource (docs/API.md, "Event series"), field by field, in the order it is
 * served. Aliases: `es` event_series, `st`/`sg`/`pm` its template's ticket types, groups and
 * payment methods, `sv` the vouchers usable on it (view event_series_vouchers, migration
 * ConnectorCatalogue), `sd` its dates' aggregate (above), `rq.now` the request's time.
 */
export const EVENT_SERIES_FIELDS: Fields = [
  ['object', json.literal(RESOURCE.eventSeries.object)],
  ['id', json.id(RESOURCE.eventSeries.prefix, 'es.id')],
  ['name', json.string('es.name')],
  ['description', json.nullableString('es.description')],
  ['status', json.string('es.status')],
  ['created_at', json.integer('es.created_at')],
  ['currency', json.string('es.currency')],
  ['timezone', json.string('es.timezone')],
  [
    'venue',
    json.object([
      ['name', json.nullableString('es.venue_name')],
      ['postal_code', json.nullableString('es.venue_postal_code')],
    ]),
  ],
  [
    'images',
    json.object([
      ['header', json.string('es.image_header_url')],
      ['thumbnail', json.string('es.image_thumbnail_url')],
    ]),
  ],
  ['url', json.string('es.url')],
  ['online_event', json.flag('es.online_event')],
  ['private', json.flag('es.private')],
  ['access_code', json.nullableString('es.access_code')],
  ['call_to_action', json.string('es.call_to_action')],
  [
    'payment_methods',
    json.array({
      of: json.object(PAYMENT_METHOD_FIELDS),
      from: 'event_series_payment_methods pm',
      link: ['pm.event_series_id', 'es.id'],
      orderBy: ['pm.id'],
      indexOrdered: true,
    }),
  ],
  [
    'default_ticket_types',
    json.array({
      of: json.object(ticketTypeFields('st', 'template')),
      from: 'event_series_ticket_types st',
      link: ['st.event_series_id', 'es.id'],
      orderBy: ['st.sort_order', 'st.id'],
      indexOrdered: true,
    }),
  ],
  [
    'default_ticket_groups',
    json.array({
      of: json.object(ticketGroupFields('sg', 'event_series_ticket_types')),
      from: 'event_series_ticket_groups sg',
      link: ['sg.event_series_id', 'es.id'],
      orderBy: ['sg.sort_order', 'sg.id'],
      indexOrdered: true,
    }),
  ],
  [
    'default_max_tickets_sold_per_occurrence',
    json.nullableInteger('es.max_tickets_sold_per_occurrence'),
  ],
  // Those naming the series, and its box office's that name none (the view's two halves).
  [
    'voucher_ids',
    json.array({
      of: json.id(RESOURCE.voucher.prefix, 'sv.voucher_id'),
      from: 'event_series_vouchers sv',
      link: ['sv.event_series_id', 'es.id'],
      orderBy: ['sv.voucher_id'],
      indexOrdered: false,
    }),
  ],
  // The start of its first date not yet over; null when none is left.
  ['next_occurrence_date', dateObjectField('sd.next_start', 'es.timezone')],
  ['upcoming_occurrences', json.integer('sd.upcoming')],
  ['total_occurrences', json.integer('sd.total')],
  ['total_issued_tickets', json.integer('sd.tickets')],
  ['revenue', json.integer('sd.revenue')],
];

/** Newest first. */
export const EVENT_SERIES_SOURCE: ResourceSource = {
  noun: RESOURCE.eventSeries.noun,
  prefix: RESOURCE.eventSeries.prefix,
  table: 'event_series es',
  joins: '',
  tenant: 'es.box_office_id',
  id: 'es.id',
  sorts: onlySort('es.created_at', 'DESC'),
  fields: EVENT_SERIES_FIELDS,
  clock: true,
  aggregate: SERIES_DATES,
};
