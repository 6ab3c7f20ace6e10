/**
 * Each resource's identity, said once: what one is called in messages and descriptions, its id
 * prefix, and where it lives (docs/API.md, "Resources"). Field tables, DTOs, query DTOs, OpenAPI
 * decorators, controllers and the change feed read them from here; an id prefix written anywhere
 * else in src/ fails test/id-prefixes.e2e-spec.ts.
 *
 * Shared code, so that the shapes several resources carry (src/common/dto/) can name an id
 * without importing a feature. The resource's description, its field table, sits in its feature.
 */
export interface ResourceIdentity {
  /** One item, as messages and descriptions name it (`order`, `check-in`). */
  readonly noun: string;
  /** Its JSON's `object` (`order`, `check_in`), for a shape served with one. */
  readonly object?: string;
  /** Its ids are `<prefix><number>` (`or_42`). */
  readonly prefix: string;
  /**
   * The path segment it is served at under `/v1` (`orders`), for a resource with its own path;
   * a resource served under another's path (a voucher's codes) has none.
   */
  readonly segment?: string;
  /** Its OpenAPI tag (the operations' group). */
  readonly tag?: string;
  /**
   * Its family in the change feed (`ORDER`) and what happens to it there, in the order the
   * feed's types list them (`ORDER.CREATED`, …).
   */
  readonly change?: {
    readonly family: string;
    readonly events: readonly string[];
  };
}

const WRITTEN = ['CREATED', 'UPDATED', 'DELETED'] as const;

/** Every resource and every shape with an id, the change feed's families first in feed order. */
export const RESOURCE = {
  order: {
    noun: 'order',
    object: 'order',
    prefix: 'or_',
    segment: 'orders',
    tag: 'orders',
    change: { family: 'ORDER', events: WRITTEN },
  },
  issuedTicket: {
    noun: 'issued ticket',
    object: 'issued_ticket',
    prefix: 'it_',
    segment: 'issued_tickets',
    tag: 'issued tickets',
    change: { family: 'ISSUED_TICKET', events: WRITTEN },
  },
  event: {
    noun: 'event',
    object: 'event',
    prefix: 'ev_',
    segment: 'events',
    tag: 'events',
    change: { family: 'EVENT', events: WRITTEN },
  },
  eventSeries: {
    noun: 'event series',
    object: 'event_series',
    prefix: 'es_',
    segment: 'event_series',
    tag: 'event-series',
    change: { family: 'EVENT_SERIES', events: WRITTEN },
  },
  checkIn: {
    noun: 'check-in',
    object: 'check_in',
    prefix: 'ci_',
    segment: 'check_ins',
    tag: 'check-ins',
    change: { family: 'CHECK_IN', events: ['CREATED'] },
  },
  product: {
    noun: 'product',
    object: 'product',
    prefix: 'pr_',
    segment: 'products',
    tag: 'products',
  },
  voucher: {
    noun: 'voucher',
    object: 'voucher',
    prefix: 'vo_',
    segment: 'vouchers',
    tag: 'vouchers',
  },
  /** Served under its voucher (`/v1/vouchers/{voucher_id}/codes`). */
  voucherCode: { noun: 'voucher code', object: 'voucher_code', prefix: 'vc_' },
  discount: {
    noun: 'discount',
    object: 'discount',
    prefix: 'di_',
    segment: 'discounts',
    tag: 'discounts',
  },
  /** Served under its series (`/v1/event_series/{event_series_id}/waitlist_signups`). */
  waitlistSignup: {
    noun: 'waitlist signup',
    object: 'waitlist_signup',
    prefix: 'ws_',
  },
  webhookEndpoint: {
    noun: 'webhook endpoint',
    object: 'webhook_endpoint',
    prefix: 'we_',
    segment: 'webhook_endpoints',
    tag: 'webhook-endpoints',
  },
  /** Served under its endpoint (`/v1/webhook_endpoints/{webhook_endpoint_id}/deliveries`). */
  webhookDelivery: {
    noun: 'webhook delivery',
    object: 'webhook_delivery',
    prefix: 'wd_',
  },
  /** An event sent to webhooks: its number is the feed entry's, the same on every retry. */
  webhookEvent: { noun: 'webhook event', prefix: 'wh_' },
  /** A change feed entry, and a position in the feed (`chg_0`: the start). */
  change: {
    noun: 'change',
    object: 'change',
    prefix: 'chg_',
    segment: 'changes',
    tag: 'changes',
  },
  ticketType: { noun: 'ticket type', object: 'ticket_type', prefix: 'tt_' },
  ticketGroup: { noun: 'ticket group', prefix: 'tg_' },
  lineItem: { noun: 'line item', object: 'line_item', prefix: 'li_' },
  paymentMethod: { noun: 'payment method', prefix: 'pm_' },
  /** An API key, as the key command names it (never its secret). */
  apiKey: { noun: 'API key', prefix: 'ak_' },
} as const satisfies Record<string, ResourceIdentity>;

export type ResourceName = keyof typeof RESOURCE;

/** The id of item `n`: `idOf(RESOURCE.order, 42)` is `or_42`. */
export const idOf = (
  resource: { readonly prefix: string },
  n: number | string,
): string => `${resource.prefix}${n}`;

/** The first item's id, the examples' id (`or_1`). */
export const exampleId = (resource: { readonly prefix: string }): string =>
  idOf(resource, 1);

/** Where a resource with its own path is served (`/v1/orders`). */
export const pathOf = (resource: { readonly segment: string }): string =>
  `/v1/${resource.segment}`;

/** The path of one item (`/v1/orders/or_42`). */
export const itemPathOf = (
  resource: { readonly prefix: string; readonly segment: string },
  n: number | string,
): string => `${pathOf(resource)}/${idOf(resource, n)}`;

/** How an id is written, for messages: `or_<number>`. */
export const idForm = (resource: { readonly prefix: string }): string =>
  idOf(resource, '<number>');

/** One id as a body field is checked: the prefix and a row id, at most 10 digits. */
export const idRegExp = (resource: { readonly prefix: string }): RegExp =>
  new RegExp(`^${resource.prefix}[1-9]\\d{0,9}$`);
