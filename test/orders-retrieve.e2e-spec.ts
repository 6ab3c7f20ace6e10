import { Event } from '../src/events/entities/event.entity';
import type { Order } from '../src/orders/entities/order.entity';
import { Get, ListBody, MESSAGES, errorBody, getAs, walk } from './utils/api';
import { TestApp, createTestApp } from './utils/create-test-app';
import { Factory, TWO_TICKETS_WITH_VAT } from './utils/factories';
import { expectWellFormedOrder } from './utils/order-shape';
import { itAnswersNotFound } from './utils/retrieve-cases';

// GET /v1/orders/{order_id} and the Order resource: docs/API.md, GET /v1/orders/{order_id} and
// Resources.

const KEY = 'sk_test_retrieve';
const OTHER_KEY = 'sk_test_retrieve_other';

describe('GET /v1/orders/{order_id}', () => {
  let t: TestApp;
  let get: Get;
  let london: Order;
  let yen: Order;
  let londonEventId: number;
  let tokyoSeriesId: number;
  let londonSeriesId: number;
  let tokyoEventId: number;
  let foreign: Order;
  const routes = { collection: '/v1/orders', key: KEY, server: () => t.server };

  beforeAll(async () => {
    t = await createTestApp();
    const f = new Factory(t.dataSource);
    const office = await f.boxOffice('Known');
    const other = await f.boxOffice('Other');
    await f.apiKey(office.id, KEY);
    await f.apiKey(other.id, OTHER_KEY);

    // 2026-06-20 19:30 to 22:30 in London, in British Summer Time (+01:00).
    const summer = await f.event(office.id, {
      name: 'Summer Jazz Night',
      startAt: 1_781_980_200,
      endAt: 1_781_991_000,
      timezone: 'Europe/London',
      venueName: 'Ronnie’s Basement',
      venuePostalCode: 'W1D 4HT',
    });
    londonEventId = summer.id;
    londonSeriesId = summer.eventSeriesId;
    // Midnight to 3 AM on New Year's Day 2027 in Tokyo (+09:00).
    const tokyo = await f.event(office.id, {
      name: 'New Year Taiko',
      startAt: 1_798_729_200,
      endAt: 1_798_740_000,
      timezone: 'Asia/Tokyo',
    });
    tokyoEventId = tokyo.id;
    tokyoSeriesId = tokyo.eventSeriesId;

    london = await f.order(office.id, summer.id, {
      status: 'completed',
      statusMessage: 'Paid in full',
      currency: 'gbp',
      subtotal: 5200,
      tax: 1040,
      total: 6240,
      refundAmount: 0,
      txnId: 'txn_known_1',
      createdAt: 1_750_000_000,
      updatedAt: 1_750_000_600,
      buyerName: 'Jane Doe',
      buyerFirstName: 'Jane',
      buyerLastName: 'Doe',
      buyerEmail: 'Jane.Doe@Example.com',
      buyerPhone: '+44 20 7946 0000',
      address1: '12 High Street',
      address2: 'Flat 2',
      address3: null,
      postalCode: 'SW1A 1AA',
      buyerCustomQuestions: [
        { question: 'How did you hear about us?', answer: 'A friend' },
        { question: 'Dietary requirements', answer: null },
      ],
      paymentMethodType: 'offline',
      paymentMethodId: 7,
      paymentMethodExternalId: null,
      paymentMethodName: 'Bank transfer',
      paymentMethodInstructions: 'Pay within 7 days to sort code 00-00-00',
      lineItems: TWO_TICKETS_WITH_VAT.map((item) => ({ ...item })),
      issuedTickets: [
        {
          eventId: summer.id,
          status: 'valid',
          barcode: 'K7P2M9QX4T',
          barcodeUrl: 'https://cdn.boxoffice.example/barcodes/K7P2M9QX4T.png',
          qrCodeUrl: 'https://cdn.boxoffice.example/qr/K7P2M9QX4T.png',
          description: 'General Admission',
          firstName: 'Jane',
          lastName: 'Doe',
          fullName: 'Jane Doe',
          reservation: 'Row C, Seat 12',
          customQuestions: [{ question: 'T-shirt size', answer: 'M' }],
          createdAt: 1_750_000_000,
          updatedAt: 1_750_000_000,
          voidedAt: null,
        },
        {
          eventId: summer.id,
          status: 'void',
          barcode: 'Z9Y8X7W6V5',
          barcodeUrl: 'https://cdn.boxoffice.example/barcodes/Z9Y8X7W6V5.png',
          qrCodeUrl: 'https://cdn.boxoffice.example/qr/Z9Y8X7W6V5.png',
          description: 'General Admission',
          firstName: null,
          lastName: null,
          fullName: null,
          reservation: null,
          customQuestions: [],
          createdAt: 1_750_000_000,
          updatedAt: 1_750_000_500,
          voidedAt: 1_750_000_500,
        },
      ],
    });

    yen = await f.order(office.id, tokyo.id, {
      status: 'pending',
      statusMessage: null,
      currency: 'jpy',
      subtotal: 3000,
      tax: 0,
      total: 3000,
      refundAmount: 0,
      txnId: null,
      createdAt: 1_760_000_000,
      updatedAt: 1_760_000_000,
      buyerName: 'Taro Yamada',
      buyerEmail: 'taro@example.jp',
      buyerPhone: null,
      address1: '1-1 Chiyoda',
      address2: null,
      address3: null,
      postalCode: null,
      buyerCustomQuestions: [],
      paymentMethodType: 'stripe',
      paymentMethodId: null,
      paymentMethodExternalId: 'ch_ext_yen',
      paymentMethodName: null,
      paymentMethodInstructions: null,
      lineItems: [
        {
          type: 'ticket',
          description: 'Standing',
          quantity: 1,
          value: 3000,
          bookingFee: 0,
          total: 3000,
        },
      ],
      issuedTickets: [],
    });

    // Some ordinary orders, so that retrieval is compared with a list of several.
    for (let i = 0; i < 5; i++) {
      await f.order(office.id, i % 2 ? summer.id : tokyo.id, {
        createdAt: 1_755_000_000 + (i % 3),
        paymentMethodId: i % 2 ? i + 1 : null,
      });
    }

    const otherEvent = await f.event(other.id);
    foreign = await f.order(other.id, otherEvent.id);
    get = getAs(t.server, KEY);
  });

  afterAll(() => t.close());

  const lineItemIds = (o: Order) =>
    (o.lineItems ?? []).map((li) => li.id).sort((a, b) => a - b);
  const ticketIds = (o: Order) =>
    (o.issuedTickets ?? []).map((it) => it.id).sort((a, b) => a - b);

  it('returns the whole Order resource, every field present', async () => {
    const res = await get(`/v1/orders/or_${london.id}`);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    const [li1, li2] = lineItemIds(london);
    const [it1, it2] = ticketIds(london);
    const ticketTypeOf = (order: typeof london, n: number) => {
      const type = order.issuedTickets![n].ticketTypeId;
      return type === null ? null : `tt_${type}`;
    };
    expect(res.body).toEqual({
      object: 'order',
      id: `or_${london.id}`,
      buyer_details: {
        address: {
          address_1: '12 High Street',
          address_2: 'Flat 2',
          address_3: null,
          postal_code: 'SW1A 1AA',
        },
        custom_questions: [
          { question: 'How did you hear about us?', answer: 'A friend' },
          { question: 'Dietary requirements', answer: null },
        ],
        email: 'Jane.Doe@Example.com',
        first_name: 'Jane',
        last_name: 'Doe',
        name: 'Jane Doe',
        phone: '+44 20 7946 0000',
      },
      created_at: 1_750_000_000,
      currency: { code: 'gbp', base_multiplier: 100 },
      event_summary: {
        id: `ev_${londonEventId}`,
        event_series_id: `es_${londonSeriesId}`,
        name: 'Summer Jazz Night',
        start_date: {
          date: '2026-06-20',
          formatted: 'Sat 20 Jun 2026 7:30 PM',
          iso: '2026-06-20T19:30:00+01:00',
          time: '19:30',
          timezone: '+01:00',
          unix: 1_781_980_200,
        },
        end_date: {
          date: '2026-06-20',
          formatted: 'Sat 20 Jun 2026 10:30 PM',
          iso: '2026-06-20T22:30:00+01:00',
          time: '22:30',
          timezone: '+01:00',
          unix: 1_781_991_000,
        },
        venue: { name: 'Ronnie’s Basement', postal_code: 'W1D 4HT' },
      },
      issued_tickets: [
        {
          object: 'issued_ticket',
          id: `it_${it1}`,
          barcode: 'K7P2M9QX4T',
          barcode_url: 'https://cdn.boxoffice.example/barcodes/K7P2M9QX4T.png',
          created_at: 1_750_000_000,
          custom_questions: [{ question: 'T-shirt size', answer: 'M' }],
          description: 'General Admission',
          email: 'Jane.Doe@Example.com',
          event_id: `ev_${londonEventId}`,
          full_name: 'Jane Doe',
          first_name: 'Jane',
          last_name: 'Doe',
          reservation: 'Row C, Seat 12',
          status: 'valid',
          updated_at: 1_750_000_000,
          voided_at: null,
          order_id: `or_${london.id}`,
          qr_code_url: 'https://cdn.boxoffice.example/qr/K7P2M9QX4T.png',
          ticket_type_id: ticketTypeOf(london, 0),
          event_series_id: `es_${londonSeriesId}`,
          checked_in: 'false',
        },
        {
          object: 'issued_ticket',
          id: `it_${it2}`,
          barcode: 'Z9Y8X7W6V5',
          barcode_url: 'https://cdn.boxoffice.example/barcodes/Z9Y8X7W6V5.png',
          created_at: 1_750_000_000,
          custom_questions: [],
          description: 'General Admission',
          email: 'Jane.Doe@Example.com',
          event_id: `ev_${londonEventId}`,
          full_name: null,
          first_name: null,
          last_name: null,
          reservation: null,
          status: 'void',
          updated_at: 1_750_000_500,
          voided_at: 1_750_000_500,
          order_id: `or_${london.id}`,
          qr_code_url: 'https://cdn.boxoffice.example/qr/Z9Y8X7W6V5.png',
          ticket_type_id: ticketTypeOf(london, 1),
          event_series_id: `es_${londonSeriesId}`,
          checked_in: 'false',
        },
      ],
      line_items: [
        {
          object: 'line_item',
          id: `li_${li1}`,
          booking_fee: 200,
          description: 'General Admission',
          item_id: null,
          type: 'ticket',
          total: 5200,
          value: 5000,
          quantity: 2,
        },
        {
          object: 'line_item',
          id: `li_${li2}`,
          booking_fee: 0,
          description: 'VAT 20%',
          item_id: null,
          type: 'tax',
          total: 1040,
          value: 1040,
          quantity: 1,
        },
      ],
      payment_method: {
        external_id: null,
        id: 'pm_7',
        type: 'offline',
        name: 'Bank transfer',
        instructions: 'Pay within 7 days to sort code 00-00-00',
      },
      refund_amount: 0,
      status: 'completed',
      status_message: 'Paid in full',
      subtotal: 5200,
      tax: 1040,
      total: 6240,
      txn_id: 'txn_known_1',
      updated_at: 1_750_000_600,
    });
    // `reservation` is present even where it is null.
    expect(Object.keys(res.body.issued_tickets[1])).toContain('reservation');
  });

  it('returns a yen order: base_multiplier 1, no tickets, null payment method id, Tokyo dates', async () => {
    const res = await get(`/v1/orders/or_${yen.id}`);
    expect(res.status).toBe(200);
    const [li1] = lineItemIds(yen);
    expect(res.body).toEqual({
      object: 'order',
      id: `or_${yen.id}`,
      buyer_details: {
        address: {
          address_1: '1-1 Chiyoda',
          address_2: null,
          address_3: null,
          postal_code: null,
        },
        custom_questions: [],
        email: 'taro@example.jp',
        first_name: null,
        last_name: null,
        name: 'Taro Yamada',
        phone: null,
      },
      created_at: 1_760_000_000,
      currency: { code: 'jpy', base_multiplier: 1 },
      event_summary: {
        id: `ev_${tokyoEventId}`,
        event_series_id: `es_${tokyoSeriesId}`,
        name: 'New Year Taiko',
        start_date: {
          date: '2027-01-01',
          formatted: 'Fri 1 Jan 2027 12:00 AM',
          iso: '2027-01-01T00:00:00+09:00',
          time: '00:00',
          timezone: '+09:00',
          unix: 1_798_729_200,
        },
        end_date: {
          date: '2027-01-01',
          formatted: 'Fri 1 Jan 2027 3:00 AM',
          iso: '2027-01-01T03:00:00+09:00',
          time: '03:00',
          timezone: '+09:00',
          unix: 1_798_740_000,
        },
        venue: { name: null, postal_code: null },
      },
      issued_tickets: [],
      line_items: [
        {
          object: 'line_item',
          id: `li_${li1}`,
          booking_fee: 0,
          description: 'Standing',
          item_id: null,
          type: 'ticket',
          total: 3000,
          value: 3000,
          quantity: 1,
        },
      ],
      payment_method: {
        external_id: 'ch_ext_yen',
        id: null,
        type: 'stripe',
        name: null,
        instructions: null,
      },
      refund_amount: 0,
      status: 'pending',
      status_message: null,
      subtotal: 3000,
      tax: 0,
      total: 3000,
      txn_id: null,
      updated_at: 1_760_000_000,
    });
  });

  it('returns exactly the object the list shows, for every order', async () => {
    const pages: ListBody[] = await walk(get, '/v1/orders?limit=3', 'next');
    const listed = pages.flatMap((p) => p.data);
    expect(listed).toHaveLength(7);
    for (const order of listed) {
      expectWellFormedOrder(order);
      const res = await get(`/v1/orders/${order.id}`);
      expect(res.status).toBe(200);
      expect(res.body).toEqual(order);
    }
  });

  it('shows a change to the event at once (no stale event_summary)', async () => {
    const f = new Factory(t.dataSource);
    const office = await f.boxOffice('Moving event');
    await f.apiKey(office.id, 'sk_test_moving_event');
    const event = await f.event(office.id, { name: 'First name' });
    const order = await f.order(office.id, event.id);
    const getOrder = async () => {
      const res = await getAs(
        t.server,
        'sk_test_moving_event',
      )(`/v1/orders/or_${order.id}`);
      expect(res.status).toBe(200);
      return res.body.event_summary as {
        name: string;
        start_date: { iso: string };
      };
    };
    expect(await getOrder()).toMatchObject({
      name: 'First name',
      start_date: { iso: '2026-06-20T19:30:00+01:00' },
    });

    const events = t.dataSource.getRepository(Event);
    await events.update(event.id, { name: 'Second name' });
    expect((await getOrder()).name).toBe('Second name');
    // Same instant, another zone: only the time zone changed.
    await events.update(event.id, { timezone: 'Asia/Tokyo' });
    expect((await getOrder()).start_date.iso).toBe('2026-06-21T03:30:00+09:00');
    await events.update(event.id, { startAt: 1_781_983_800 });
    expect((await getOrder()).start_date.iso).toBe('2026-06-21T04:30:00+09:00');
  });

  it('round-trips awkward text exactly (quotes, backslashes, control characters, non-ASCII)', async () => {
    const f = new Factory(t.dataSource);
    const office = await f.boxOffice('Awkward');
    await f.apiKey(office.id, 'sk_test_awkward');
    const awkward =
      'Zoë "Q" O\'Brien \\ back\\slash\n\ttab </script> 😀 \u2028 ünïcödé';
    const event = await f.event(office.id, { name: `Night of ${awkward}` });
    const order = await f.order(office.id, event.id, {
      buyerName: awkward,
      statusMessage: awkward,
      address1: awkward,
      buyerCustomQuestions: [{ question: awkward, answer: awkward }],
      paymentMethodInstructions: awkward,
    });
    const res = await getAs(
      t.server,
      'sk_test_awkward',
    )(`/v1/orders/or_${order.id}`);
    expect(res.status).toBe(200);
    expect(res.body.buyer_details.name).toBe(awkward);
    expect(res.body.buyer_details.address.address_1).toBe(awkward);
    expect(res.body.buyer_details.custom_questions).toEqual([
      { question: awkward, answer: awkward },
    ]);
    expect(res.body.status_message).toBe(awkward);
    expect(res.body.payment_method.instructions).toBe(awkward);
    expect(res.body.event_summary.name).toBe(`Night of ${awkward}`);
  });

  // Not an order id at all (a number no row can have included): the message says what ids look
  // like. A well-formed id that names no order: the message repeats it.
  itAnswersNotFound(routes, [
    ['abc', MESSAGES.noSuchOrder],
    ['or_', MESSAGES.noSuchOrder],
    ['or_0', MESSAGES.noSuchOrder],
    ['or_01', MESSAGES.noSuchOrder],
    ['or_1x', MESSAGES.noSuchOrder],
    ['or_-1', MESSAGES.noSuchOrder],
    ['or_1.0', MESSAGES.noSuchOrder],
    ['OR_1', MESSAGES.noSuchOrder],
    ['ev_1', MESSAGES.noSuchOrder],
    ['1', MESSAGES.noSuchOrder],
    ['or_%201', MESSAGES.noSuchOrder],
    ['or_99999999999', MESSAGES.noSuchOrder],
    ['or_2147483648', MESSAGES.noSuchOrder],
    ['or_999999', MESSAGES.noOrder('or_999999')],
    ['or_2147483647', MESSAGES.noOrder('or_2147483647')],
  ]);

  it('takes no query parameters: one is a 400 naming it, as on the list', async () => {
    const res = await get('/v1/orders/or_1?expand=event');
    expect(res.status).toBe(400);
    expect(res.body).toEqual(
      errorBody(400, 'VALIDATION_ERROR', 'Unknown query parameter: expand'),
    );
  });

  it('answers another box office’s order exactly as an unknown one', async () => {
    const unknownId = 'or_999999';
    const unknown = await get(`/v1/orders/${unknownId}`);
    const res = await get(`/v1/orders/or_${foreign.id}`);
    expect(res.status).toBe(404);
    expect(res.body).toEqual(
      errorBody(404, 'NOT_FOUND', MESSAGES.noOrder(`or_${foreign.id}`)),
    );
    expect(res.body.message.replace(`or_${foreign.id}`, '<id>')).toBe(
      unknown.body.message.replace(unknownId, '<id>'),
    );
    // And the owner does see it.
    const owner = await getAs(
      t.server,
      OTHER_KEY,
    )(`/v1/orders/or_${foreign.id}`);
    expect(owner.status).toBe(200);
    expect(owner.body.id).toBe(`or_${foreign.id}`);
  });
});
