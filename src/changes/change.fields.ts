import { onlySort } from '../common/pagination/sort';
import { type Fields, json } from '../common/resources/field-table';
import type { ResourceSource } from '../common/resources/resource-reader';
import { CHANGE_RESOURCES, CHANGE_TYPES, changeFamily } from './change-feed';
import { RESOURCE } from '../common/resources/resource-identities';

/**
 * The Change resource (docs/API.md, "Change feed"), field by field. `c` is the entry's row; the
 * resource's public id and path are spelled from its type, one `CASE` arm per type.
 */
const byType = (value: (type: (typeof CHANGE_TYPES)[number]) => string) =>
  `CASE c.type ${CHANGE_TYPES.map(
    (type) => `WHEN '${type}' THEN '${value(type)}'`,
  ).join(' ')} END`;

const prefix = byType((type) => CHANGE_RESOURCES[changeFamily(type)].prefix);
const path = byType((type) => CHANGE_RESOURCES[changeFamily(type)].path);

export const CHANGE_FIELDS: Fields = [
  ['object', json.literal(RESOURCE.change.object)],
  ['id', json.id(RESOURCE.change.prefix, 'c.id')],
  ['type', json.string('c.type')],
  ['resource_id', json.string(`${prefix} || c.resource_id`)],
  ['resource_url', json.string(`${path} || ${prefix} || c.resource_id`)],
  ['created_at', json.integer('c.created_at')],
];

/** Oldest first, by id: the order entries commit in (ids are numbered per box office). */
export const CHANGE_SOURCE: ResourceSource = {
  noun: RESOURCE.change.noun,
  prefix: RESOURCE.change.prefix,
  table: 'changes c',
  joins: '',
  tenant: 'c.box_office_id',
  id: 'c.id',
  sorts: onlySort('c.id', 'ASC'),
  fields: CHANGE_FIELDS,
};
