import type { DataSource } from 'typeorm';
import type { OpenApiExamples } from '../src/common/openapi/openapi-document';
import {
  DEMO_BOX_OFFICES,
  DEMO_ORDER_COUNT,
  seedDemoData,
} from '../seeds/demo-data';

/**
 * The OpenAPI document's 200 examples: what the demo server (`npm start`: seed 1, the demo order
 * count) answers the first demo key, one request per operation whose answer does not move with
 * the clock (a series' upcoming dates, the overview's four weeks and vouchers' available codes
 * do: they have none). `npm run openapi` writes them to
 * src/common/openapi/openapi-examples.json; an e2e test collects them again, on SQLite and on
 * PostgreSQL, and compares.
 */

/** Fills an empty database with the demo data the examples are taken from. */
export async function seedExampleData(dataSource: DataSource): Promise<void> {
  await seedDemoData(dataSource, {
    orders: DEMO_ORDER_COUNT,
    seed: 1,
    reset: false,
  });
}

/** The examples, by operationId, from the service listening at `base` on the demo data. */
export async function collectExamples(base: string): Promise<OpenApiExamples> {
  const authorization = `Basic ${Buffer.from(`${DEMO_BOX_OFFICES[0].apiKey}:`).toString('base64')}`;
  const get = async (path: string): Promise<unknown> => {
    const res = await fetch(`${base}${path}`, { headers: { authorization } });
    if (res.status !== 200) {
      throw new Error(
        `GET ${path} answered ${res.status}: ${await res.text()}`,
      );
    }
    return res.json();
  };
  /** The list page, and the first item's id for the retrieval example. */
  const list = async (path: string) => {
    const page = (await get(path)) as { data: { id: string }[] };
    if (page.data.length === 0) throw new Error(`GET ${path} is empty`);
    return { page, firstId: page.data[0].id };
  };

  const orders = await list('/v1/orders?limit=2');
  const completed = await list('/v1/orders?status=completed&limit=1');
  const events = await list('/v1/events?limit=2');
  const tickets = await list('/v1/issued_tickets?limit=2');
  const checkIns = await list('/v1/check_ins?limit=2');
  const series = (
    events.page as unknown as { data: { event_series_id: string }[] }
  ).data[0].event_series_id;
  const seriesEvents = await list(`/v1/event_series/${series}/events?limit=2`);
  const products = await list('/v1/products?limit=2');
  const discounts = await list('/v1/discounts?limit=2');
  // A voucher's codes and a series' signups, under the first of each that has some.
  const codes = await list('/v1/vouchers/vo_1/codes?limit=2');
  const signups = await list('/v1/event_series/es_1/waitlist_signups?limit=2');
  return {
    ping: await get('/v1/ping'),
    listOrders: orders.page,
    retrieveOrder: await get(`/v1/orders/${completed.firstId}`),
    listEvents: events.page,
    retrieveEvent: await get(`/v1/events/${events.firstId}`),
    listIssuedTickets: tickets.page,
    retrieveIssuedTicket: await get(`/v1/issued_tickets/${tickets.firstId}`),
    listCheckIns: checkIns.page,
    retrieveCheckIn: await get(`/v1/check_ins/${checkIns.firstId}`),
    listEventSeriesEvents: seriesEvents.page,
    retrieveEventSeriesEvent: await get(
      `/v1/event_series/${series}/events/${seriesEvents.firstId}`,
    ),
    listProducts: products.page,
    retrieveProduct: await get(`/v1/products/${products.firstId}`),
    listVoucherCodes: codes.page,
    retrieveVoucherCode: await get(`/v1/vouchers/vo_1/codes/${codes.firstId}`),
    listDiscounts: discounts.page,
    retrieveDiscount: await get(`/v1/discounts/${discounts.firstId}`),
    listEventSeriesWaitlistSignups: signups.page,
    retrieveEventSeriesWaitlistSignup: await get(
      `/v1/event_series/es_1/waitlist_signups/${signups.firstId}`,
    ),
  };
}
