import { onlySort } from '../common/pagination/sort';
import { type Fields, json } from '../common/resources/field-table';
import type { ResourceSource } from '../common/resources/resource-reader';
import { RESOURCE } from '../common/resources/resource-identities';

/**
 * The WebhookEndpoint resource (docs/API.md, "Webhooks"), field by field; `we` is the endpoint's
 * row. Its secret is not a field: it is shown once, in the answer that creates the endpoint.
 */
export const WEBHOOK_ENDPOINT_FIELDS: Fields = [
  ['object', json.literal(RESOURCE.webhookEndpoint.object)],
  ['id', json.id(RESOURCE.webhookEndpoint.prefix, 'we.id')],
  ['url', json.string('we.url')],
  ['description', json.nullableString('we.description')],
  ['enabled_events', json.stored('we.enabled_events')],
  ['status', json.string('we.status')],
  ['created_at', json.integer('we.created_at')],
  ['updated_at', json.integer('we.updated_at')],
];

/** Newest first, as every list. */
export const WEBHOOK_ENDPOINT_SOURCE: ResourceSource = {
  noun: RESOURCE.webhookEndpoint.noun,
  prefix: RESOURCE.webhookEndpoint.prefix,
  table: 'webhook_endpoints we',
  joins: '',
  tenant: 'we.box_office_id',
  id: 'we.id',
  sorts: onlySort('we.created_at', 'DESC'),
  fields: WEBHOOK_ENDPOINT_FIELDS,
};

/** One attempt to deliver an event (docs/API.md, "Webhooks"); `wd` is the attempt's row. */
export const WEBHOOK_DELIVERY_FIELDS: Fields = [
  ['object', json.literal(RESOURCE.webhookDelivery.object)],
  ['id', json.id(RESOURCE.webhookDelivery.prefix, 'wd.id')],
  ['webhook_id', json.id(RESOURCE.webhookEvent.prefix, 'wd.change_id')],
  ['event', json.string('wd.event')],
  ['status_code', json.nullableInteger('wd.status_code')],
  ['error', json.nullableString('wd.error')],
  ['duration_ms', json.integer('wd.duration_ms')],
  ['attempted_at', json.integer('wd.attempted_at')],
];

/** Newest first: attempts are numbered as they are made. */
export const WEBHOOK_DELIVERY_SOURCE: ResourceSource = {
  noun: RESOURCE.webhookDelivery.noun,
  prefix: RESOURCE.webhookDelivery.prefix,
  table: 'webhook_deliveries wd',
  joins: '',
  tenant: 'wd.box_office_id',
  id: 'wd.id',
  sorts: onlySort('wd.id', 'DESC'),
  fields: WEBHOOK_DELIVERY_FIELDS,
};
