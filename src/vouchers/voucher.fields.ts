import { onlySort } from '../common/pagination/sort';
import { type Fields, json } from '../common/resources/field-table';
import type { ResourceSource } from '../common/resources/resource-reader';
import { dateObjectField } from '../events/event-dates';
import { RESOURCE } from '../common/resources/resource-identities';

/** A voucher's expiry as a date object in its box office's zone; null when it never expires. */
const expiry = dateObjectField('v.expires_at', 'bo.timezone');

/**
 * The Voucher resource (docs/API.md, "Voucher"), field by field, in the order it is served.
 * Aliases: `v` vouchers, `ves` its series links, `bo` its box office, `rq.now` the request's time.
 */
export const VOUCHER_FIELDS: Fields = [
  ['object', json.literal(RESOURCE.voucher.object)],
  ['id', json.id(RESOURCE.voucher.prefix, 'v.id')],
  ['name', json.string('v.name')],
  ['type', json.string('v.type')],
  ['value', json.integer('v.value')],
  ['currency', json.string('v.currency')],
  ['expiry', expiry],
  ['partial_redemption', json.flag('v.partial_redemption')],
  // Both counts are kept by triggers (migration ConnectorCounters); expiry is the clock's.
  ['total_codes', json.integer('v.total_codes')],
  [
    'available_codes',
    json.integer(
      'CASE WHEN v.expires_at IS NOT NULL AND v.expires_at <= rq.now THEN 0 ELSE v.codes_with_value END',
    ),
  ],
  // Naming no series: usable on any event.
  [
    'usable_on_any_event',
    json.flag(
      'NOT EXISTS (SELECT 1 FROM voucher_event_series vx WHERE vx.voucher_id = v.id)',
    ),
  ],
  [
    'event_series_ids',
    json.array({
      of: json.id(RESOURCE.eventSeries.prefix, 'ves.event_series_id'),
      from: 'voucher_event_series ves',
      link: ['ves.voucher_id', 'v.id'],
      orderBy: ['ves.event_series_id'],
      indexOrdered: true,
    }),
  ],
];

/** Newest first; its available codes depend on the request's time. */
export const VOUCHER_SOURCE: ResourceSource = {
  noun: RESOURCE.voucher.noun,
  prefix: RESOURCE.voucher.prefix,
  table: 'vouchers v',
  joins: 'JOIN box_offices bo ON bo.id = v.box_office_id',
  tenant: 'v.box_office_id',
  id: 'v.id',
  sorts: onlySort('v.created_at', 'DESC'),
  fields: VOUCHER_FIELDS,
  clock: true,
};

/**
 * The VoucherCode resource (docs/API.md, "VoucherCode"). Aliases: `vc` voucher_codes, `v` its
 * voucher, `bo` its box office.
 */
export const VOUCHER_CODE_FIELDS: Fields = [
  ['object', json.literal(RESOURCE.voucherCode.object)],
  ['id', json.id(RESOURCE.voucherCode.prefix, 'vc.id')],
  ['code', json.string('vc.code')],
  ['voucher_id', json.id(RESOURCE.voucher.prefix, 'vc.voucher_id')],
  // What is left: the voucher's value less what completed orders spent (a kept sum), never < 0.
  [
    'value',
    json.integer(
      'CASE WHEN v.value - vc.spent < 0 THEN 0 ELSE v.value - vc.spent END',
    ),
  ],
  ['expiry', expiry],
];

/** A voucher's codes, newest first: nested under the voucher (its scope). */
export const VOUCHER_CODE_SOURCE: ResourceSource = {
  noun: RESOURCE.voucherCode.noun,
  prefix: RESOURCE.voucherCode.prefix,
  table: 'voucher_codes vc',
  joins:
    'JOIN vouchers v ON v.id = vc.voucher_id JOIN box_offices bo ON bo.id = vc.box_office_id',
  tenant: 'vc.box_office_id',
  id: 'vc.id',
  sorts: onlySort('vc.created_at', 'DESC'),
  fields: VOUCHER_CODE_FIELDS,
};
