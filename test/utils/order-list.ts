import type { Order } from '../../src/orders/entities/order.entity';
import { Get, newestFirst } from './api';
import type { TestApp } from './create-test-app';
import type { Factory } from './factories';
import { createListApp } from './list-app';

// The data the GET /v1/orders specs share: an app of their own, two box offices, and box office
// A's orders in the list order as the oracle the responses are checked against.

export const LIST_KEY = 'sk_test_list_a';
export const OTHER_LIST_KEY = 'sk_test_list_b';
/** The earliest created_at of box office A's orders (Unix seconds). */
export const BASE = 1_750_000_000;
/** Box office A's order count: more than a default page of 100. */
export const COUNT = 130;
const STATUSES = [
  'completed',
  'completed',
  'pending',
  'cancelled',
  'completed',
] as const;

/** What the oracle knows of each order. */
export interface Known {
  id: string;
  num: number;
  createdAt: number;
  eventId: string;
  status: string;
  email: string;
  txnId: string | null;
  barcodes: string[];
}

const known = (o: Order): Known => ({
  id: `or_${o.id}`,
  num: o.id,
  createdAt: o.createdAt,
  eventId: `ev_${o.eventId}`,
  status: o.status,
  email: o.buyerEmail,
  txnId: o.txnId,
  barcodes: (o.issuedTickets ?? []).map((t) => t.barcode),
});

export interface OrderList {
  t: TestApp;
  f: Factory;
  /** GET as box office A. */
  get: Get;
  /** Box office A's orders, newest first: the oracle. */
  all: Known[];
  ids: string[];
  /** Box office A's three events. */
  eventIds: string[];
  /** Box office B's orders, which sit between A's in time. */
  otherBoxOfficeOrderIds: string[];
}

/** A list app (list-app.ts) with box office A's COUNT orders over three events and B's three. */
export async function createOrderList(): Promise<OrderList> {
  const { t, f, a, b, get } = await createListApp(LIST_KEY, OTHER_LIST_KEY);
  const events = [
    await f.event(a.id),
    await f.event(a.id, { name: 'Second' }),
    await f.event(a.id, { name: 'Third' }),
  ];
  const bEvent = await f.event(b.id);

  // 20 distinct created_at values, ~6–7 orders each, spread so that ids and created_at do not
  // rise together: ties and the id tie-break matter on every page.
  const saved: Order[] = [];
  for (const [index, event] of events.entries()) {
    const overrides = [];
    for (let i = index; i < COUNT; i += events.length) {
      overrides.push({
        createdAt: BASE + ((i * 37) % 20) * 100,
        status: STATUSES[i % STATUSES.length],
        buyerEmail:
          i % 4 === 0
            ? i % 8 === 0
              ? 'Alice@Example.com'
              : 'ALICE@example.COM'
            : `buyer${i}@example.com`,
        buyerEmailLookup:
          i % 4 === 0 ? 'alice@example.com' : `buyer${i}@example.com`,
        txnId:
          i % 10 === 0 ? null : i === 6 || i === 7 ? 'txn_shared' : `txn_${i}`,
      });
    }
    saved.push(...(await f.orders(a.id, event.id, overrides)));
  }
  const all = saved
    .map(known)
    .sort((x, y) =>
      newestFirst(
        { id: x.num, createdAt: x.createdAt },
        { id: y.num, createdAt: y.createdAt },
      ),
    );

  // Box office B's orders sit between A's in time; A must never see them.
  const bOrders = await f.orders(b.id, bEvent.id, [
    { createdAt: BASE + 550 },
    { createdAt: BASE + 1000 },
    { createdAt: BASE + 5000 },
  ]);
  return {
    t,
    f,
    get,
    all,
    ids: all.map((o) => o.id),
    eventIds: events.map((e) => `ev_${e.id}`),
    otherBoxOfficeOrderIds: bOrders.map((o) => `or_${o.id}`),
  };
}
