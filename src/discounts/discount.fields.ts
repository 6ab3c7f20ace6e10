import { onlySort } from '../common/pagination/sort';
import { type Fields, json } from '../common/resources/field-table';
import type { ResourceSource } from '../common/resources/resource-reader';
import { RESOURCE } from '../common/resources/resource-identities';

/**
 * The Discount resource (docs/API.md, "Discount"), field by field, in the order it is served.
 * Aliases: `d` discounts, `dtt` its ticket types, `dp` its products.
 */
export const DISCOUNT_FIELDS: Fields = [
  ['object', json.literal(RESOURCE.discount.object)],
  ['id', json.id(RESOURCE.discount.prefix, 'd.id')],
  ['name', json.string('d.name')],
  ['code', json.string('d.code')],
  ['type', json.string('d.type')],
  ['face_value_amount', json.integer('d.face_value_amount')],
  ['booking_fee_amount', json.integer('d.booking_fee_amount')],
  [
    'ticket_types',
    json.array({
      of: json.id(RESOURCE.ticketType.prefix, 'dtt.ticket_type_id'),
      from: 'discount_ticket_types dtt',
      link: ['dtt.discount_id', 'd.id'],
      orderBy: ['dtt.ticket_type_id'],
      indexOrdered: true,
    }),
  ],
  [
    'products',
    json.array({
      of: json.id(RESOURCE.product.prefix, 'dp.product_id'),
      from: 'discount_products dp',
      link: ['dp.discount_id', 'd.id'],
      orderBy: ['dp.product_id'],
      indexOrdered: true,
    }),
  ],
  // Kept by triggers on line items and orders (migration ConnectorCounters): no counting here.
  ['times_used', json.integer('d.times_used')],
];

/** Newest first. */
export const DISCOUNT_SOURCE: ResourceSource = {
  noun: RESOURCE.discount.noun,
  prefix: RESOURCE.discount.prefix,
  table: 'discounts d',
  joins: '',
  tenant: 'd.box_office_id',
  id: 'd.id',
  sorts: onlySort('d.created_at', 'DESC'),
  fields: DISCOUNT_FIELDS,
};
