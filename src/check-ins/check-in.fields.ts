import { sortsBy } from '../common/pagination/sort';
import { type Fields, json } from '../common/resources/field-table';
import type { ResourceSource } from '../common/resources/resource-reader';
import { RESOURCE } from '../common/resources/resource-identities';

/** The CheckIn resource (docs/API.md, "CheckIn"), field by field. `ci` is the check-in's row. */
export const CHECK_IN_FIELDS: Fields = [
  ['object', json.literal(RESOURCE.checkIn.object)],
  ['id', json.id(RESOURCE.checkIn.prefix, 'ci.id')],
  [
    'issued_ticket_id',
    json.id(RESOURCE.issuedTicket.prefix, 'ci.issued_ticket_id'),
  ],
  ['event_id', json.id(RESOURCE.event.prefix, 'ci.event_id')],
  [
    'event_series_id',
    json.id(RESOURCE.eventSeries.prefix, 'ci.event_series_id'),
  ],
  ['quantity', json.integer('ci.quantity')],
  ['check_in_at', json.integer('ci.check_in_at')],
  ['created_at', json.integer('ci.created_at')],
];

/** Newest first by default; check-ins never change, so created_at sorts need no keyed cursors. */
export const CHECK_IN_SOURCE: ResourceSource = {
  noun: RESOURCE.checkIn.noun,
  prefix: RESOURCE.checkIn.prefix,
  table: 'check_ins ci',
  joins: '',
  tenant: 'ci.box_office_id',
  id: 'ci.id',
  sorts: sortsBy(
    [{ key: 'created_at', column: 'ci.created_at', keyed: false }],
    '-created_at',
  ),
  fields: CHECK_IN_FIELDS,
};
