import type { Event } from '../src/events/entities/event.entity';
import type { TicketType } from '../src/events/entities/ticket-type.entity';
import { toDateObject } from '../src/events/event-dates';
import type { EventSeries } from '../src/event-series/entities/event-series.entity';
import type { Discount } from '../src/discounts/entities/discount.entity';
import type { Product } from '../src/products/entities/product.entity';
import type { VoucherCode } from '../src/vouchers/entities/voucher-code.entity';
import type { Voucher } from '../src/vouchers/entities/voucher.entity';
import type { WaitlistSignup } from '../src/waitlist-signups/entities/waitlist-signup.entity';
import type { LineItem } from '../src/orders/entities/line-item.entity';
import type { DeepPartial } from 'typeorm';
import {
  type Get,
  type ListBody,
  errorBody,
  getAs,
  idsOf,
  walk,
} from './utils/api';
import { type ListApp, createListApp } from './utils/list-app';

// GET /v1/products, /v1/vouchers (and a voucher's codes), /v1/discounts and a series' waitlist
// signups (docs/API.md, "Products", "Vouchers", "Discounts", "Waitlist signups"): each list's
// order, filters, cursors, links, retrieval, tenancy and nesting, and every derived number
// against what the rows say. On SQLite by default, on PostgreSQL under
// `npm run test:e2e:postgres`.

const KEY = 'sk_test_catalogue_a';
const OTHER_KEY = 'sk_test_catalogue_b';
const DAY = 86_400;
const NOW = Math.floor(Date.now() / 1000);

type Item = { id: string } & Record<string, unknown>;

async function all(get: Get, start: string): Promise<Item[]> {
  return (await walk<Item>(get, start, 'next')).flatMap((page) => page.data);
}

const date = (unix: number, zone: string) => toDateObject(unix, zone);

describe('products, vouchers, discounts and waitlists', () => {
  let app: ListApp;
  let get: Get;
  let getOther: Get;
  let club: EventSeries;
  let gala: EventSeries;
  let clubNight: Event;
  let vip: TicketType;
  let general: TicketType;
  let programme: Product;
  let hamper: Product;
  let poster: Product;
  let theirProduct: Product;
  let gift: { voucher: Voucher; codes: VoucherCode[] };
  let credit: { voucher: Voucher; codes: VoucherCode[] };
  let expired: { voucher: Voucher; codes: VoucherCode[] };
  let theirVoucher: { voucher: Voucher; codes: VoucherCode[] };
  let support: Discount;
  let vipOff: Discount;
  let theirDiscount: Discount;
  let signups: WaitlistSignup[];
  let theirSignup: WaitlistSignup;

  /** A completed order of the club night (unless overridden) with these extra lines. */
  async function order(
    lines: DeepPartial<LineItem>[],
    overrides: Record<string, unknown> = {},
  ) {
    return app.f.order(app.a.id, clubNight.id, {
      lineItems: [
        {
          type: 'ticket',
          description: 'VIP',
          quantity: 2,
          value: 5000,
          bookingFee: 200,
          total: 5200,
          ticketTypeId: vip.id,
        },
        ...lines,
      ],
      ...overrides,
    });
  }

  beforeAll(async () => {
    app = await createListApp(KEY, OTHER_KEY);
    const { f, a, b, t } = app;
    get = app.get;
    getOther = getAs(t.server, OTHER_KEY);
    // Box office A shows dates in New York time.
    await t.dataSource.query(
      `UPDATE box_offices SET timezone = 'America/New_York' WHERE id = ${a.id}`,
    );

    club = await f.series(a.id, {
      name: 'Club Night',
      timezone: 'Europe/Paris',
    });
    gala = await f.series(a.id, {
      name: 'Winter Gala',
      createdAt: 1_700_000_500,
    });
    clubNight = await f.event(a.id, {
      name: 'Club Night',
      eventSeriesId: club.id,
      timezone: 'Europe/Paris',
    });
    vip = await f.ticketType(clubNight.id, { name: 'VIP', price: 2500 });
    general = await f.ticketType(clubNight.id, { name: 'General' });
    const theirSeries = await f.series(b.id);

    programme = await f.product(a.id, {
      createdAt: 1_700_000_100,
      updatedAt: 1_700_050_000,
    });
    hamper = await f.product(
      a.id,
      {
        name: 'Picnic hamper',
        price: 5000,
        createdAt: 1_700_000_300,
        fulfilmentType: 'delivery',
      },
      [gala.id, club.id],
    );
    poster = await f.product(a.id, {
      name: 'Poster',
      status: 'sold_out',
      createdAt: 1_700_000_200,
      description: 'Signed',
    });
    theirProduct = await f.product(b.id, { createdAt: 1_700_000_250 });

    gift = await f.voucher(a.id, { createdAt: 1_700_000_100 }, { codes: 3 });
    credit = await f.voucher(
      a.id,
      {
        name: 'Credit note',
        type: 'credit',
        value: 3500,
        currency: 'usd',
        partialRedemption: false,
        expiresAt: NOW + 365 * DAY,
        createdAt: 1_700_000_200,
      },
      { codes: 2, seriesIds: [club.id] },
    );
    expired = await f.voucher(
      a.id,
      { name: 'Summer card', expiresAt: NOW - DAY, createdAt: 1_700_000_300 },
      { codes: 2 },
    );
    theirVoucher = await f.voucher(
      b.id,
      { createdAt: 1_700_000_150 },
      { codes: 1 },
    );

    support = await f.discount(a.id, {
      code: 'Support10',
      createdAt: 1_700_000_100,
    });
    vipOff = await f.discount(
      a.id,
      {
        name: '£5 off VIP',
        code: 'VIP5',
        type: 'fixed',
        faceValueAmount: 500,
        bookingFeeAmount: 50,
        createdAt: 1_700_000_200,
      },
      { ticketTypeIds: [vip.id, general.id], productIds: [hamper.id] },
    );
    theirDiscount = await f.discount(b.id, { code: 'SUPPORT10' });

    signups = [
      await f.signup(a.id, club.id, { createdAt: 1_700_000_100 }),
      await f.signup(a.id, club.id, {
        eventId: clubNight.id,
        createdAt: 1_700_000_300,
        email: 'Jane.Doe@Example.com',
      }),
      await f.signup(a.id, club.id, { createdAt: 1_700_000_200 }),
    ];
    await f.signup(a.id, gala.id);
    theirSignup = await f.signup(b.id, theirSeries.id);

    // Sales: completed orders count, a pending and a cancelled one do not.
    await order([
      {
        type: 'product',
        description: 'Programme',
        quantity: 2,
        value: 1600,
        total: 1600,
        productId: programme.id,
      },
      {
        type: 'gift_card',
        description: 'Gift voucher',
        quantity: 1,
        value: -1000,
        total: -1000,
        voucherCodeId: gift.codes[0].id,
      },
      {
        type: 'gift_card',
        description: 'Support',
        quantity: 1,
        value: -520,
        total: -520,
        discountId: support.id,
      },
    ]);
    await order([
      {
        type: 'product',
        description: 'Programme',
        quantity: 1,
        value: 800,
        total: 800,
        productId: programme.id,
      },
      {
        type: 'product',
        description: 'Hamper',
        quantity: 1,
        value: 5000,
        total: 5000,
        productId: hamper.id,
      },
      {
        type: 'gift_card',
        description: 'Gift voucher',
        quantity: 1,
        value: -1500,
        total: -1500,
        voucherCodeId: gift.codes[0].id,
      },
      {
        type: 'gift_card',
        description: 'Credit',
        quantity: 1,
        value: -3500,
        total: -3500,
        voucherCodeId: credit.codes[0].id,
      },
    ]);
    await order(
      [
        {
          type: 'product',
          description: 'Programme',
          quantity: 5,
          value: 4000,
          total: 4000,
          productId: programme.id,
        },
        {
          type: 'gift_card',
          description: 'Gift voucher',
          quantity: 1,
          value: -2500,
          total: -2500,
          voucherCodeId: gift.codes[1].id,
        },
        {
          type: 'gift_card',
          description: 'VIP',
          quantity: 1,
          value: -1100,
          total: -1100,
          discountId: vipOff.id,
        },
      ],
      { status: 'pending' },
    );
    await order(
      [
        {
          type: 'product',
          description: 'Programme',
          quantity: 4,
          value: 3200,
          total: 3200,
          productId: programme.id,
        },
        {
          type: 'gift_card',
          description: 'Support',
          quantity: 1,
          value: -520,
          total: -520,
          discountId: support.id,
        },
      ],
      { status: 'cancelled' },
    );
    // Spent beyond its value: nothing left, never below 0.
    await order([
      {
        type: 'gift_card',
        description: 'Summer card',
        quantity: 1,
        value: -2000,
        total: -2000,
        voucherCodeId: expired.codes[0].id,
      },
      {
        type: 'gift_card',
        description: 'Summer card',
        quantity: 1,
        value: -1000,
        total: -1000,
        voucherCodeId: expired.codes[0].id,
      },
    ]);
  });

  afterAll(() => app.t.close());

  describe('GET /v1/products', () => {
    const zone = 'America/New_York';

    it('serves each product whole: dates in the box office’s zone, units sold by completed orders', async () => {
      const res = await get(`/v1/products/pr_${hamper.id}`);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        object: 'product',
        id: `pr_${hamper.id}`,
        name: 'Picnic hamper',
        description: null,
        price: 5000,
        currency: 'gbp',
        status: 'available',
        fulfilment_type: 'delivery',
        linked_to_all_event_series: 'false',
        event_series_ids: [`es_${club.id}`, `es_${gala.id}`].sort(),
        quantity_sold: 1,
        created_at: date(1_700_000_300, zone),
        // Linked to its series after it was written: that moved it to the database's clock.
        updated_at: date(res.body.updated_at.unix, zone),
      });
      expect(res.body.updated_at.unix).toBeGreaterThanOrEqual(NOW);
      const listed = await get('/v1/products');
      expect(listed.body.data).toContainEqual(res.body);
      expect((await get(`/v1/products/pr_${programme.id}`)).body).toMatchObject(
        {
          linked_to_all_event_series: 'true',
          event_series_ids: [],
          quantity_sold: 3,
          updated_at: date(1_700_050_000, zone),
        },
      );
    });

    it('lists the box office’s products newest first, never another’s', async () => {
      const res = await get('/v1/products');
      expect(idsOf(res.body as ListBody<Item>)).toEqual(
        [hamper, poster, programme].map((p) => `pr_${p.id}`),
      );
      expect(
        idsOf((await getOther('/v1/products')).body as ListBody<Item>),
      ).toEqual([`pr_${theirProduct.id}`]);
    });

    it.each([
      ['status=sold_out', () => [poster]],
      ['status=available,sold_out', () => [hamper, poster, programme]],
      ['status=unavailable', () => []],
    ])('filters: %s', async (query, want) => {
      const res = await get(`/v1/products?${query}`);
      expect(res.status).toBe(200);
      expect(idsOf(res.body as ListBody<Item>)).toEqual(
        want().map((p) => `pr_${p.id}`),
      );
    });

    it('pages with pr_ cursors both ways, links keeping the filters', async () => {
      const pages = await walk<Item>(
        get,
        '/v1/products?limit=1&status=available,sold_out',
        'next',
      );
      expect(idsOf(pages)).toEqual(
        [hamper, poster, programme].map((p) => `pr_${p.id}`),
      );
      expect(pages[0].links).toEqual({
        next: `/v1/products?starting_after=pr_${hamper.id}&limit=1&status=available%2Csold_out`,
        previous: null,
      });
      const back = await walk<Item>(
        get,
        `/v1/products?ending_before=pr_${programme.id}&limit=1`,
        'previous',
      );
      expect(idsOf(back.reverse())).toEqual(
        [hamper, poster].map((p) => `pr_${p.id}`),
      );
    });

    it.each([
      [
        'status=gone',
        'status must be one of available, unavailable, sold_out, or a comma list of them',
      ],
      ['colour=red', 'Unknown query parameter: colour'],
      ['limit=101', 'limit must be an integer from 1 to 100'],
    ])('refuses %s', async (query, message) => {
      const res = await get(`/v1/products?${query}`);
      expect(res.status).toBe(400);
      expect(res.body).toEqual(errorBody(400, 'VALIDATION_ERROR', message));
    });

    it('refuses a cursor naming no product of the box office, and finds no other box office’s product', async () => {
      for (const cursor of [
        `pr_${theirProduct.id}`,
        'pr_0',
        `vo_${gift.voucher.id}`,
      ]) {
        const res = await get(`/v1/products?starting_after=${cursor}`);
        expect(res.body).toEqual(
          errorBody(
            400,
            'INVALID_CURSOR',
            'starting_after must be the id of a product of this box office (pr_<number>)',
          ),
        );
      }
      expect((await get(`/v1/products/pr_${theirProduct.id}`)).body).toEqual(
        errorBody(
          404,
          'NOT_FOUND',
          `No product pr_${theirProduct.id} in this box office`,
        ),
      );
      expect((await get('/v1/products/programme')).body).toEqual(
        errorBody(
          404,
          'NOT_FOUND',
          'No such product in this box office (product ids are pr_<number>)',
        ),
      );
    });
  });

  describe('GET /v1/vouchers', () => {
    const zone = 'America/New_York';

    it('serves each voucher whole, its codes counted: those with value left, none once expired', async () => {
      expect((await get(`/v1/vouchers/vo_${gift.voucher.id}`)).body).toEqual({
        object: 'voucher',
        id: `vo_${gift.voucher.id}`,
        name: 'Gift voucher',
        type: 'gift_card',
        value: 2500,
        currency: 'gbp',
        expiry: null,
        partial_redemption: 'true',
        total_codes: 3,
        // GC-1 spent whole over two orders; GC-2 only by a pending order.
        available_codes: 2,
        usable_on_any_event: 'true',
        event_series_ids: [],
      });
      expect((await get(`/v1/vouchers/vo_${credit.voucher.id}`)).body).toEqual({
        object: 'voucher',
        id: `vo_${credit.voucher.id}`,
        name: 'Credit note',
        type: 'credit',
        value: 3500,
        currency: 'usd',
        expiry: date(NOW + 365 * DAY, zone),
        partial_redemption: 'false',
        total_codes: 2,
        available_codes: 1,
        usable_on_any_event: 'false',
        event_series_ids: [`es_${club.id}`],
      });
      expect(
        (await get(`/v1/vouchers/vo_${expired.voucher.id}`)).body,
      ).toMatchObject({
        expiry: date(NOW - DAY, zone),
        total_codes: 2,
        available_codes: 0,
      });
    });

    it('lists them newest first, pages them and refuses another box office’s', async () => {
      const ids = [expired, credit, gift].map((v) => `vo_${v.voucher.id}`);
      expect(
        idsOf(await walk<Item>(get, '/v1/vouchers?limit=2', 'next')),
      ).toEqual(ids);
      expect(
        idsOf((await getOther('/v1/vouchers')).body as ListBody<Item>),
      ).toEqual([`vo_${theirVoucher.voucher.id}`]);
      expect(
        (await get(`/v1/vouchers/vo_${theirVoucher.voucher.id}`)).status,
      ).toBe(404);
      expect((await get('/v1/vouchers?code=GC')).body).toEqual(
        errorBody(400, 'VALIDATION_ERROR', 'Unknown query parameter: code'),
      );
    });
  });

  describe('GET /v1/vouchers/{voucher_id}/codes', () => {
    const path = () => `/v1/vouchers/vo_${gift.voucher.id}/codes`;

    it('lists a voucher’s codes newest first, each with what is left of its value', async () => {
      const res = await get(path());
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        data: [...gift.codes].reverse().map((code, i) => ({
          object: 'voucher_code',
          id: `vc_${code.id}`,
          code: code.code,
          voucher_id: `vo_${gift.voucher.id}`,
          // GC-3 untouched, GC-2 spent by a pending order only, GC-1 spent 1000 + 1500.
          value: [2500, 2500, 0][i],
          expiry: null,
        })),
        links: { next: null, previous: null },
      });
      const summer = await get(
        `/v1/vouchers/vo_${expired.voucher.id}/codes/vc_${expired.codes[0].id}`,
      );
      expect(summer.body).toMatchObject({
        value: 0,
        expiry: date(NOW - DAY, 'America/New_York'),
      });
      const used = await get(
        `/v1/vouchers/vo_${credit.voucher.id}/codes/vc_${credit.codes[0].id}`,
      );
      expect(used.body).toMatchObject({ value: 0 });
    });

    it('pages under the voucher’s path, and refuses a cursor naming another voucher’s code', async () => {
      const pages = await walk<Item>(get, `${path()}?limit=1`, 'next');
      expect(idsOf(pages)).toEqual(
        [...gift.codes].reverse().map((c) => `vc_${c.id}`),
      );
      expect(pages[0].links.next).toBe(
        `${path()}?starting_after=vc_${gift.codes[2].id}&limit=1`,
      );
      const foreign = await get(
        `${path()}?starting_after=vc_${credit.codes[0].id}`,
      );
      expect(foreign.body).toEqual(
        errorBody(
          400,
          'INVALID_CURSOR',
          `starting_after must be the id of a voucher code of voucher vo_${gift.voucher.id} of this box office (vc_<number>)`,
        ),
      );
    });

    it('finds no codes of an unknown or another box office’s voucher, nor a code under another voucher', async () => {
      for (const [voucher, message] of [
        [
          `vo_${theirVoucher.voucher.id}`,
          `No voucher vo_${theirVoucher.voucher.id} in this box office`,
        ],
        ['vo_999999', 'No voucher vo_999999 in this box office'],
        [
          'gift',
          'No such voucher in this box office (voucher ids are vo_<number>)',
        ],
      ]) {
        const res = await get(`/v1/vouchers/${voucher}/codes`);
        expect(res.body).toEqual(errorBody(404, 'NOT_FOUND', message));
      }
      const elsewhere = await get(`${path()}/vc_${credit.codes[0].id}`);
      expect(elsewhere.body).toEqual(
        errorBody(
          404,
          'NOT_FOUND',
          `No voucher code vc_${credit.codes[0].id} in voucher vo_${gift.voucher.id} of this box office`,
        ),
      );
      const mine = await get(`${path()}/vc_${gift.codes[1].id}`);
      expect(mine.body).toEqual((await get(path())).body.data[1]);
    });
  });

  describe('GET /v1/discounts', () => {
    it('serves each discount whole, used by the completed orders that name it', async () => {
      expect((await get(`/v1/discounts/di_${vipOff.id}`)).body).toEqual({
        object: 'discount',
        id: `di_${vipOff.id}`,
        name: '£5 off VIP',
        code: 'VIP5',
        type: 'fixed',
        face_value_amount: 500,
        booking_fee_amount: 50,
        ticket_types: [vip.id, general.id]
          .sort((x, y) => x - y)
          .map((id) => `tt_${id}`),
        products: [`pr_${hamper.id}`],
        // Only a pending order names it.
        times_used: 0,
      });
      expect((await get(`/v1/discounts/di_${support.id}`)).body).toMatchObject({
        ticket_types: [],
        products: [],
        times_used: 1,
      });
    });

    it.each([
      ['code=support10', () => [support]],
      ['code=SUPPORT10', () => [support]],
      // The search fold: an accent makes no difference either (SÚPPORT10).
      ['code=S%C3%9APPORT10', () => [support]],
      ['code=VIP5', () => [vipOff]],
      ['code=VIP', () => []],
      ['code=%25', () => []],
      ['', () => [vipOff, support]],
    ])(
      'finds by the whole code, in the search fold: %s',
      async (query, want) => {
        const res = await get(`/v1/discounts?${query}`);
        expect(res.status).toBe(200);
        expect(idsOf(res.body as ListBody<Item>)).toEqual(
          want().map((d) => `di_${d.id}`),
        );
      },
    );

    it('never shows another box office’s, and refuses a bad code', async () => {
      expect(
        idsOf(
          (await getOther('/v1/discounts?code=support10'))
            .body as ListBody<Item>,
        ),
      ).toEqual([`di_${theirDiscount.id}`]);
      expect((await get(`/v1/discounts/di_${theirDiscount.id}`)).status).toBe(
        404,
      );
      expect((await get('/v1/discounts?code=')).body).toEqual(
        errorBody(400, 'VALIDATION_ERROR', 'code must be 1 to 64 characters'),
      );
    });
  });

  describe('GET /v1/event_series/{id}/waitlist_signups', () => {
    const path = () => `/v1/event_series/es_${club.id}/waitlist_signups`;

    it('lists a series’ signups newest first, dated in the series’ zone', async () => {
      const res = await get(path());
      expect(res.body).toEqual({
        data: [signups[1], signups[2], signups[0]].map((signup) => ({
          object: 'waitlist_signup',
          id: `ws_${signup.id}`,
          email: signup.email,
          event_id: signup.eventId === null ? null : `ev_${signup.eventId}`,
          created_at: date(signup.createdAt, 'Europe/Paris'),
        })),
        links: { next: null, previous: null },
      });
      const one = await get(`${path()}/ws_${signups[1].id}`);
      expect(one.body).toEqual(res.body.data[0]);
    });

    it('pages under the series’ path; a cursor of another series’ signup is refused', async () => {
      const pages = await walk<Item>(get, `${path()}?limit=2`, 'next');
      expect(idsOf(pages)).toEqual([1, 2, 0].map((i) => `ws_${signups[i].id}`));
      expect(pages[0].links.next).toBe(
        `${path()}?starting_after=ws_${signups[2].id}&limit=2`,
      );
      const galaSignup = (
        await all(get, `/v1/event_series/es_${gala.id}/waitlist_signups`)
      )[0];
      expect(
        (await get(`${path()}?starting_after=${galaSignup.id}`)).body,
      ).toEqual(
        errorBody(
          400,
          'INVALID_CURSOR',
          `starting_after must be the id of a waitlist signup of event series es_${club.id} of this box office (ws_<number>)`,
        ),
      );
      expect((await get(`${path()}/${galaSignup.id}`)).status).toBe(404);
    });

    it('is not found under an unknown or another box office’s series', async () => {
      const theirs = `/v1/event_series/es_${theirSignup.eventSeriesId}/waitlist_signups`;
      expect((await get(theirs)).body).toEqual(
        errorBody(
          404,
          'NOT_FOUND',
          `No event series es_${theirSignup.eventSeriesId} in this box office`,
        ),
      );
      expect((await getOther(theirs)).body.data).toHaveLength(1);
      expect((await get(`${theirs}/ws_${theirSignup.id}`)).status).toBe(404);
    });
  });

  describe('the event series’ voucher_ids', () => {
    it('lists the vouchers naming the series and those usable on any event, of its box office only', async () => {
      const anyEvent = [gift, expired].map((v) => v.voucher.id);
      const byId = (ids: number[]) =>
        [...ids].sort((x, y) => x - y).map((id) => `vo_${id}`);
      expect(
        (await get(`/v1/event_series/es_${club.id}`)).body.voucher_ids,
      ).toEqual(byId([...anyEvent, credit.voucher.id]));
      expect(
        (await get(`/v1/event_series/es_${gala.id}`)).body.voucher_ids,
      ).toEqual(byId(anyEvent));
    });
  });

  describe('revalidation', () => {
    it('answers 304 while nothing changed, and the new body after a write no change entry announces', async () => {
      const first = await get('/v1/products');
      const tagged = await get('/v1/products').set(
        'If-None-Match',
        first.headers.etag as string,
      );
      expect(tagged.status).toBe(304);
      const versioned = tagged.headers.etag as string;
      expect(versioned).toMatch(/^"[0-9a-z]+-[0-9a-z]+\.[A-Za-z0-9_-]+"$/);
      expect(
        (await get('/v1/products').set('If-None-Match', versioned)).status,
      ).toBe(304);

      // A sales system renames a product: no change entry, yet the tag must not stand.
      await app.t.dataSource.query(
        `UPDATE products SET name = 'Programme (2nd edition)' WHERE id = ${programme.id}`,
      );
      const renamed = await get('/v1/products').set('If-None-Match', versioned);
      expect(renamed.status).toBe(200);
      expect(renamed.body.data.map((p: Item) => p.name)).toContain(
        'Programme (2nd edition)',
      );
    });
  });
});
