import type { DeepPartial } from 'typeorm';
import type { LineItem } from '../src/orders/entities/line-item.entity';
import { getAs } from './utils/api';
import { type ListApp, createListApp } from './utils/list-app';

// What Airbyte's and PostHog's schemas read on orders beside the spec's fields (docs/API.md,
// "Order" and "LineItem"): each line item's item_id, from the column its type reads; the event
// summary's series and venue; the buyer's first and last names. On SQLite by default, on
// PostgreSQL under `npm run test:e2e:postgres`.

const KEY = 'sk_test_order_fields_a';
const OTHER_KEY = 'sk_test_order_fields_b';

type Body = Record<string, unknown>;

describe('order fields the connectors read', () => {
  let app: ListApp;
  const ids: Record<string, number> = {};

  beforeAll(async () => {
    app = await createListApp(KEY, OTHER_KEY);
    const { f, a } = app;
    const series = await f.series(a.id, { name: 'Jazz Nights' });
    const event = await f.event(a.id, {
      name: 'Jazz Nights',
      eventSeriesId: series.id,
      venueName: 'Blue Lantern',
      venuePostalCode: '10014',
    });
    const online = await f.event(a.id, { name: 'Streamed' });
    const type = await f.ticketType(event.id);
    const product = await f.product(a.id);
    const { codes } = await f.voucher(a.id, {}, { codes: 1 });
    const discount = await f.discount(a.id);
    const another = await f.discount(a.id);
    Object.assign(ids, {
      series: series.id,
      event: event.id,
      online: online.id,
      onlineSeries: online.eventSeriesId,
      type: type.id,
      product: product.id,
      code: codes[0].id,
      discount: discount.id,
    });
    const line = (
      type: string,
      subject: Partial<
        Pick<
          LineItem,
          'ticketTypeId' | 'productId' | 'voucherCodeId' | 'discountId'
        >
      > = {},
    ): DeepPartial<LineItem> => ({
      type: type as LineItem['type'],
      description: type,
      quantity: 1,
      value: type === 'gift_card' ? -100 : 100,
      bookingFee: 0,
      total: type === 'gift_card' ? -100 : 100,
      ...subject,
    });
    const order = await f.order(a.id, event.id, {
      buyerName: 'Ada Lovelace',
      buyerFirstName: 'Ada',
      buyerLastName: 'Lovelace',
      lineItems: [
        line('ticket', { ticketTypeId: type.id }),
        line('ticket'),
        line('product', { productId: product.id }),
        line('transaction_charge'),
        line('donation'),
        line('gift_card', { voucherCodeId: codes[0].id }),
        // Naming both, a line names its code (which it spends).
        line('gift_card', {
          voucherCodeId: codes[0].id,
          discountId: another.id,
        }),
        line('gift_card', { discountId: discount.id }),
        line('gift_card'),
        line('void', { ticketTypeId: type.id }),
        // A column another type reads names nothing for this one.
        line('donation', { productId: product.id }),
        line('tax', { ticketTypeId: type.id }),
      ],
    });
    ids.order = order.id;
    ids.onlineOrder = (await f.order(a.id, online.id)).id;
  });

  afterAll(() => app.t.close());

  const order = async (id: number) => {
    const res = await app.get(`/v1/orders/or_${id}`);
    expect(res.status).toBe(200);
    return res.body as Body;
  };

  it('names in each line item what it sold or spent, by its type', async () => {
    const body = await order(ids.order);
    const lines = body.line_items as Body[];
    expect(lines.map((li) => [li.type, li.item_id])).toEqual([
      ['ticket', `tt_${ids.type}`],
      ['ticket', null],
      ['product', `pr_${ids.product}`],
      ['transaction_charge', null],
      ['donation', null],
      ['gift_card', `vc_${ids.code}`],
      ['gift_card', `vc_${ids.code}`],
      ['gift_card', `di_${ids.discount}`],
      ['gift_card', null],
      ['void', `tt_${ids.type}`],
      ['donation', null],
      ['tax', null],
    ]);
    expect(Object.keys(lines[0])).toEqual([
      'object',
      'id',
      'booking_fee',
      'description',
      'item_id',
      'type',
      'total',
      'value',
      'quantity',
    ]);
    // The list carries the same bytes.
    const list = await app.get('/v1/orders?limit=100');
    expect(
      (list.body.data as Body[]).find((o) => o.id === `or_${ids.order}`),
    ).toEqual(body);
  });

  it('carries the event’s series and venue in its summary, the venue’s fields null when online', async () => {
    expect((await order(ids.order)).event_summary).toMatchObject({
      id: `ev_${ids.event}`,
      event_series_id: `es_${ids.series}`,
      venue: { name: 'Blue Lantern', postal_code: '10014' },
    });
    const online = (await order(ids.onlineOrder)).event_summary as Body;
    expect(Object.keys(online)).toEqual([
      'id',
      'event_series_id',
      'name',
      'start_date',
      'end_date',
      'venue',
    ]);
    expect(online).toMatchObject({
      event_series_id: `es_${ids.onlineSeries}`,
      venue: { name: null, postal_code: null },
    });
  });

  it('carries the buyer’s first and last names, null when not given', async () => {
    expect((await order(ids.order)).buyer_details).toMatchObject({
      first_name: 'Ada',
      last_name: 'Lovelace',
      name: 'Ada Lovelace',
    });
    expect((await order(ids.onlineOrder)).buyer_details).toMatchObject({
      first_name: null,
      last_name: null,
      name: 'Jane Doe',
    });
  });

  it('drops what a line named once it is deleted, and shows another box office nothing', async () => {
    await app.t.dataSource.query(
      `DELETE FROM products WHERE id = ${ids.product}`,
    );
    const lines = (await order(ids.order)).line_items as Body[];
    expect(lines[2]).toMatchObject({ type: 'product', item_id: null });
    const other = getAs(app.t.server, OTHER_KEY);
    expect((await other(`/v1/orders/or_${ids.order}`)).status).toBe(404);
  });
});
