import { sortsBy } from '../common/pagination/sort';
import { type Fields, json } from '../common/resources/field-table';
import type { ResourceSource } from '../common/resources/resource-reader';

/** The CheckIn resource (docs/API.md, "CheckIn"), field by field. `ci` is the check-in's row. */
export const CHECK_IN_FIELDS: Fields = [
  ['object', json.literal('check_in')],
  ['id', json.id('ci_', 'ci.id')],
  ['issued_ticket_id', json.id('it_', 'ci.issued_ticket_id')],
  ['event_id', json.id('ev_', 'ci.event_id')],
  ['event_series_id', json.id('es_', 'ci.event_series_id')],
  ['quantity', json.integer('ci.quantity')],
  ['check_in_at', json.integer('ci.check_in_at')],
  ['created_at', json.integer('ci.created_at')],
];

/** Newest first by default; check-ins never change, so created_at sorts need no keyed cursors. */
export const CHECK_IN_SOURCE: ResourceSource = {
  noun: 'check-in',
  prefix: 'ci_',
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
