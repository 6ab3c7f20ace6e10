import { onlySort } from '../common/pagination/sort';
import { type Fields, json } from '../common/resources/field-table';
import type { ResourceSource } from '../common/resources/resource-reader';
import { dateObjectField } from '../events/event-dates';
import { RESOURCE } from '../common/resources/resource-identities';

/** A product's time as a date object in its box office's zone, as Ticket Tailor serves it. */
const boxOfficeDate = (column: string) =>
  dateObjectField(column, 'bo.timezone');

/**
 * The Product resource (docs/API.md, "Product"), field by field, in the order it is served.
 * Aliases: `p` products, `pes` its series links, `bo` its box office.
 */
export const PRODUCT_FIELDS: Fields = [
  ['object', json.literal(RESOURCE.product.object)],
  ['id', json.id(RESOURCE.product.prefix, 'p.id')],
  ['name', json.string('p.name')],
  ['description', json.nullableString('p.description')],
  ['price', json.integer('p.price')],
  ['currency', json.string('p.currency')],
  ['status', json.string('p.status')],
  ['fulfilment_type', json.string('p.fulfilment_type')],
  // Linked to no series: sold with all of them.
  [
    'linked_to_all_event_series',
    json.flag(
      'NOT EXISTS (SELECT 1 FROM product_event_series px WHERE px.product_id = p.id)',
    ),
  ],
  [
    'event_series_ids',
    json.array({
      of: json.id(RESOURCE.eventSeries.prefix, 'pes.event_series_id'),
      from: 'product_event_series pes',
      link: ['pes.product_id', 'p.id'],
      orderBy: ['pes.event_series_id'],
      indexOrdered: true,
    }),
  ],
  // Kept by triggers on line items and orders (migration ConnectorCounters): no counting here.
  ['quantity_sold', json.integer('p.quantity_sold')],
  ['created_at', boxOfficeDate('p.created_at')],
  ['updated_at', boxOfficeDate('p.updated_at')],
];

/** Newest first. */
export const PRODUCT_SOURCE: ResourceSource = {
  noun: RESOURCE.product.noun,
  prefix: RESOURCE.product.prefix,
  table: 'products p',
  joins: 'JOIN box_offices bo ON bo.id = p.box_office_id',
  tenant: 'p.box_office_id',
  id: 'p.id',
  sorts: onlySort('p.created_at', 'DESC'),
  fields: PRODUCT_FIELDS,
};
