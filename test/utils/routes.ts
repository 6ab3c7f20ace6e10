/**
 * Every list and retrieval route of the API, one row per resource, for the suites that send the
 * same abuse to each (test/protocol-abuse.e2e-spec.ts, test/hostile-input.e2e-spec.ts). A new
 * endpoint is one more row: its list's query parameters (docs/API.md, Endpoints), its id prefix,
 * and which of its parameters take a comma list of ids.
 */
export interface ResourceRoute {
  /** The path segment: `/v1/<name>` lists, `/v1/<name>/<id>` retrieves. */
  name: string;
  idPrefix: string;
  listKeys: string[];
  /** Parameters that take a comma list of ids, with the ids' prefix. */
  idLists: { key: string; prefix: string }[];
}

export const RESOURCE_ROUTES: ResourceRoute[] = [
  {
    name: 'orders',
    idPrefix: 'or_',
    listKeys: [
      'limit',
      'starting_after',
      'ending_before',
      'created_at',
      'created_at.gt',
      'created_at.gte',
      'created_at.lt',
      'created_at.lte',
      'event_id',
      'status',
      'email',
      'txn_id',
      'barcode',
      'sort',
      'updated_at',
      'updated_at.gte',
      'event_series_id',
    ],
    idLists: [
      { key: 'event_id', prefix: 'ev_' },
      { key: 'event_series_id', prefix: 'es_' },
    ],
  },
  {
    name: 'events',
    idPrefix: 'ev_',
    listKeys: [
      'limit',
      'starting_after',
      'ending_before',
      'start_at',
      'start_at.gt',
      'start_at.lte',
      'end_at',
      'end_at.gte',
      'end_at.lt',
      'status',
      'event_series_id',
      'name',
      'venue',
    ],
    idLists: [],
  },
  {
    name: 'issued_tickets',
    idPrefix: 'it_',
    listKeys: [
      'limit',
      'starting_after',
      'ending_before',
      'event_id',
      'order_id',
      'status',
      'barcode',
      'email',
      'created_at.gte',
      'updated_at',
      'updated_at.gt',
      'updated_at.lte',
      'sort',
      'ticket_type_id',
      'event_series_id',
      'checked_in',
      'search',
    ],
    idLists: [
      { key: 'event_id', prefix: 'ev_' },
      { key: 'event_series_id', prefix: 'es_' },
    ],
  },
  {
    name: 'check_ins',
    idPrefix: 'ci_',
    listKeys: [
      'limit',
      'starting_after',
      'ending_before',
      'sort',
      'event_id',
      'event_series_id',
      'issued_ticket_id',
      'quantity',
      'check_in_at.gte',
      'created_at.lt',
    ],
    idLists: [
      { key: 'event_id', prefix: 'ev_' },
      { key: 'issued_ticket_id', prefix: 'it_' },
    ],
  },
  {
    name: 'event_series',
    idPrefix: 'es_',
    listKeys: [
      'limit',
      'starting_after',
      'ending_before',
      'status',
      'name',
      'venue',
      'created_at',
      'created_at.gt',
      'created_at.lte',
    ],
    idLists: [],
  },
  {
    // A nested list: the series must exist (SERIES_WITH_EVENTS, seeded by the suites).
    name: 'event_series/es_1/events',
    idPrefix: 'ev_',
    listKeys: [
      'limit',
      'starting_after',
      'ending_before',
      'start_at.gt',
      'end_at.lte',
      'status',
      'name',
      'venue',
      'override_id',
    ],
    idLists: [],
  },
  {
    name: 'products',
    idPrefix: 'pr_',
    listKeys: ['limit', 'starting_after', 'ending_before', 'status'],
    idLists: [],
  },
  {
    name: 'vouchers',
    idPrefix: 'vo_',
    listKeys: ['limit', 'starting_after', 'ending_before'],
    idLists: [],
  },
  {
    // A nested list: the voucher must exist (the suites give their box office one).
    name: 'vouchers/vo_1/codes',
    idPrefix: 'vc_',
    listKeys: ['limit', 'starting_after', 'ending_before'],
    idLists: [],
  },
  {
    name: 'discounts',
    idPrefix: 'di_',
    listKeys: ['limit', 'starting_after', 'ending_before', 'code'],
    idLists: [],
  },
  {
    // A nested list under the series of the suites' first event.
    name: 'event_series/es_1/waitlist_signups',
    idPrefix: 'ws_',
    listKeys: ['limit', 'starting_after', 'ending_before'],
    idLists: [],
  },
  {
    // The change feed has no retrieval: /v1/changes/<id> is an unknown path (404).
    name: 'changes',
    idPrefix: 'chg_',
    listKeys: [
      'limit',
      'starting_after',
      'type',
      'resource_id',
      'created_at.gte',
    ],
    idLists: [],
  },
];

/** The route without a resource: `GET /v1/ping` (no key, its query ignored). */
export const PING = '/v1/ping';
