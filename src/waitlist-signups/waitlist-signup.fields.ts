import { onlySort } from '../common/pagination/sort';
import { type Fields, json } from '../common/resources/field-table';
import type { ResourceSource } from '../common/resources/resource-reader';
import { dateObjectField } from '../events/event-dates';
import { RESOURCE } from '../common/resources/resource-identities';

/**
 * The WaitlistSignup resource (docs/API.md, "WaitlistSignup"), field by field, in the order it
 * is served. Aliases: `ws` waitlist_signups, `es` its series (whose zone shows its time).
 */
export const WAITLIST_SIGNUP_FIELDS: Fields = [
  ['object', json.literal(RESOURCE.waitlistSignup.object)],
  ['id', json.id(RESOURCE.waitlistSignup.prefix, 'ws.id')],
  ['email', json.string('ws.email')],
  ['event_id', json.nullableId(RESOURCE.event.prefix, 'ws.event_id')],
  ['created_at', dateObjectField('ws.created_at', 'es.timezone')],
];

/** A series' signups, newest first: nested under the series (its scope). */
export const WAITLIST_SIGNUP_SOURCE: ResourceSource = {
  noun: RESOURCE.waitlistSignup.noun,
  prefix: RESOURCE.waitlistSignup.prefix,
  table: 'waitlist_signups ws',
  joins: 'JOIN event_series es ON es.id = ws.event_series_id',
  tenant: 'ws.box_office_id',
  id: 'ws.id',
  sorts: onlySort('ws.created_at', 'DESC'),
  fields: WAITLIST_SIGNUP_FIELDS,
};
