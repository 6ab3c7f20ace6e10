import { sortsBy } from '../common/pagination/sort';
import type { ResourceSource } from '../common/resources/resource-reader';
import { type Fields, json } from '../common/resources/field-table';
import { RESOURCE } from '../common/resources/resource-identities';

/**
 * The IssuedTicket resource (docs/API.md, "Issued ticket"), field by field: one table for the
 * ticket inside its order and on its own, so the two are the same object. `t` is the ticket's
 * row, `o` its order's (the e-mail is the order's) and `e` its event's (the series is the
 * event's; a ticket's event is its order's). A ticket issued on its own has no order
 * (`order_id` null) and the e-mail it was issued with, if any: `email` reads it where such a
 * ticket can be, on its own.
 */
const ticketFields = (email: string): Fields => [
  ['object', json.literal(RESOURCE.issuedTicket.object)],
  ['id', json.id(RESOURCE.issuedTicket.prefix, 't.id')],
  ['barcode', json.string('t.barcode')],
  ['barcode_url', json.string('t.barcode_url')],
  ['created_at', json.integer('t.created_at')],
  ['custom_questions', json.stored('t.custom_questions')],
  ['description', json.string('t.description')],
  ['email', json.nullableString(email)],
  ['event_id', json.id(RESOURCE.event.prefix, 't.event_id')],
  ['full_name', json.nullableString('t.full_name')],
  ['first_name', json.nullableString('t.first_name')],
  ['last_name', json.nullableString('t.last_name')],
  ['reservation', json.nullableString('t.reservation')],
  ['status', json.string('t.status')],
  ['updated_at', json.integer('t.updated_at')],
  ['voided_at', json.nullableInteger('t.voided_at')],
  ['order_id', json.nullableId(RESOURCE.order.prefix, 't.order_id')],
  ['qr_code_url', json.string('t.qr_code_url')],
  [
    'ticket_type_id',
    json.nullableId(RESOURCE.ticketType.prefix, 't.ticket_type_id'),
  ],
  [
    'event_series_id',
    json.id(RESOURCE.eventSeries.prefix, 'e.event_series_id'),
  ],
  ['checked_in', json.flag('t.checked_in')],
];

/** Inside its order, whose buyer's e-mail it shows. */
export const ISSUED_TICKET_FIELDS: Fields = ticketFields('o.buyer_email');

/** Standalone, a ticket's order, if it has one, is joined in for the e-mail. */
export const ISSUED_TICKET_SOURCE: ResourceSource = {
  noun: RESOURCE.issuedTicket.noun,
  prefix: RESOURCE.issuedTicket.prefix,
  table: 'issued_tickets t',
  joins:
    'LEFT JOIN orders o ON o.id = t.order_id JOIN events e ON e.id = t.event_id',
  tenant: 't.box_office_id',
  id: 't.id',
  sorts: sortsBy(
    [
      { key: 'created_at', column: 't.created_at', keyed: false },
      { key: 'updated_at', column: 't.updated_at', keyed: true },
    ],
    '-created_at',
  ),
  fields: ticketFields('COALESCE(o.buyer_email, t.email)'),
};
