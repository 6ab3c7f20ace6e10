// Compile-time checks of the client's types (`npm run client:build` type-checks this file; it is
// never run): listAll yields each list's resource and takes that list's query parameters.
import {
  type Change,
  changesSince,
  createBoxOfficeClient,
  listAll,
  type BoxOfficeEvent,
  type EventSeries,
  type IssuedTicket,
  type ItemOf,
  type ListPath,
  type Order,
  type Product,
  type Voucher,
  type VoucherCode,
  type Discount,
  type WaitlistSignup,
} from '../src/index.js';

type Equal<A, B> =
  (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2
    ? true
    : false;
const expectType = <T extends true>(): T => true as T;

expectType<
  Equal<
    ListPath,
    | '/v1/orders'
    | '/v1/events'
    | '/v1/event_series'
    | '/v1/event_series/{event_series_id}/events'
    | '/v1/issued_tickets'
    | '/v1/check_ins'
    | '/v1/changes'
    | '/v1/products'
    | '/v1/vouchers'
    | '/v1/vouchers/{voucher_id}/codes'
    | '/v1/discounts'
    | '/v1/event_series/{event_series_id}/waitlist_signups'
    | '/v1/webhook_endpoints'
    | '/v1/webhook_endpoints/{webhook_endpoint_id}/deliveries'
  >
>();
expectType<Equal<ItemOf<'/v1/products'>, Product>>();
expectType<Equal<ItemOf<'/v1/vouchers'>, Voucher>>();
expectType<Equal<ItemOf<'/v1/vouchers/{voucher_id}/codes'>, VoucherCode>>();
expectType<Equal<ItemOf<'/v1/discounts'>, Discount>>();
expectType<
  Equal<
    ItemOf<'/v1/event_series/{event_series_id}/waitlist_signups'>,
    WaitlistSignup
  >
>();
expectType<Equal<ItemOf<'/v1/orders'>, Order>>();
expectType<Equal<ItemOf<'/v1/events'>, BoxOfficeEvent>>();
expectType<Equal<ItemOf<'/v1/issued_tickets'>, IssuedTicket>>();
expectType<Equal<ItemOf<'/v1/event_series'>, EventSeries>>();
expectType<
  Equal<ItemOf<'/v1/event_series/{event_series_id}/events'>, BoxOfficeEvent>
>();

export async function typedWalks(): Promise<string[]> {
  const client = createBoxOfficeClient({
    baseUrl: 'http://localhost:3000',
    apiKey: 'sk_demo_boxoffice_1',
  });
  const seen: string[] = [];
  for await (const order of listAll(client, '/v1/orders', {
    query: { status: 'completed', 'created_at.gte': 1767225600, limit: 50 },
  })) {
    expectType<Equal<typeof order, Order>>();
    seen.push(order.buyer_details.email);
  }
  for await (const event of listAll(client, '/v1/events')) {
    seen.push(...event.ticket_types.map((type) => type.name));
  }
  for await (const date of listAll(
    client,
    '/v1/event_series/{event_series_id}/events',
    { path: { event_series_id: 'es_1' }, query: { status: 'published' } },
  )) {
    expectType<Equal<typeof date, BoxOfficeEvent>>();
    seen.push(date.start.iso);
  }
  for await (const { change, position } of changesSince(client, 'chg_0', {
    query: { type: 'ORDER.*' },
  })) {
    expectType<Equal<typeof change, Change>>();
    seen.push(change.resource_url, position);
  }
  for await (const code of listAll(client, '/v1/vouchers/{voucher_id}/codes', {
    path: { voucher_id: 'vo_1' },
  })) {
    seen.push(code.code);
  }
  for await (const discount of listAll(client, '/v1/discounts', {
    query: { code: 'support10' },
  })) {
    seen.push(...discount.ticket_types);
  }
  // @ts-expect-error: the position is given apart, not as a query parameter
  changesSince(client, 'chg_0', { query: { starting_after: 'chg_1' } });
  // @ts-expect-error: orders have no `start_at` filter
  listAll(client, '/v1/orders', { query: { start_at: 1 } });
  // @ts-expect-error: limit is a number
  listAll(client, '/v1/events', { query: { limit: '10' } });
  // @ts-expect-error: an order's status is not an event status
  listAll(client, '/v1/orders', { query: { status: 'published' } });
  // @ts-expect-error: /v1/orders/{order_id} is not a list
  listAll(client, '/v1/orders/{order_id}');
  return seen;
}
