import request from 'supertest';
import { Order } from '../src/orders/entities/order.entity';
import { IssuedTicket } from '../src/issued-tickets/entities/issued-ticket.entity';
import { Get, MESSAGES, errorBody, getAs, walk } from './utils/api';
import { TestApp, basicAuth, createTestApp } from './utils/create-test-app';
import { Factory } from './utils/factories';
import { expectIssuedTicketShape } from './utils/order-shape';
import { itAnswersNotFound, itServesHeadAndETag } from './utils/retrieve-cases';

// GET /v1/issued_tickets/{issued_ticket_id} and the IssuedTicket resource: docs/API.md,
// GET /v1/issued_tickets/{issued_ticket_id} and Resources: IssuedTicket. A ticket on its own is
// the same object, byte for byte, as in its order's issued_tickets.

const KEY = 'sk_test_ticket_retrieve';
const OTHER_KEY = 'sk_test_ticket_retrieve_other';

/** The JSON text of each element of the array under `"key":[` in a JSON text, as written. */
function arrayElementTexts(text: string, key: string): string[] {
  const start = text.indexOf(`"${key}":[`);
  expect(start).toBeGreaterThan(-1);
  const elements: string[] = [];
  let depth = 0;
  let inString = false;
  let elementStart = -1;
  for (let i = start + key.length + 4; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
      continue;
    }
    if (c === '"') inString = true;
    else if (c === '{' || c === '[') {
      if (depth === 0) elementStart = i;
      depth++;
    } else if (c === '}' || c === ']') {
      if (depth === 0) return elements; // the array's own `]`
      depth--;
      if (depth === 0) elements.push(text.slice(elementStart, i + 1));
    }
  }
  throw new Error(`unterminated array ${key}`);
}

describe('GET /v1/issued_tickets/{issued_ticket_id}', () => {
  let t: TestApp;
  let f: Factory;
  let get: Get;
  let officeId: number;
  let eventId: number;
  let seriesId: number;
  let order: Order;
  let others: Order[];
  let foreign: Order;
  const routes = {
    collection: '/v1/issued_tickets',
    key: KEY,
    server: () => t.server,
  };

  beforeAll(async () => {
    t = await createTestApp();
    f = new Factory(t.dataSource);
    const office = await f.boxOffice('Known');
    const other = await f.boxOffice('Other');
    officeId = office.id;
    await f.apiKey(office.id, KEY);
    await f.apiKey(other.id, OTHER_KEY);
    const event = await f.event(office.id);
    eventId = event.id;
    seriesId = event.eventSeriesId;
    const type = await f.ticketType(event.id, { name: 'Stalls' });
    const awkward =
      'Zoë "Q" O\'Brien \\ back\\slash\n\ttab </script> 😀 \u2028 ünïcödé';

    order = await f.order(office.id, event.id, {
      createdAt: 1_750_000_000,
      buyerEmail: 'Jane.Doe@Example.com',
      issuedTickets: [
        {
          eventId: event.id,
          ticketTypeId: type.id,
          status: 'valid',
          barcode: 'K7P2M9QX4T',
          barcodeUrl: 'https://cdn.boxoffice.example/barcodes/K7P2M9QX4T.png',
          qrCodeUrl: 'https://cdn.boxoffice.example/qr/K7P2M9QX4T.png',
          description: 'Stalls',
          firstName: 'Jane',
          lastName: 'Doe',
          fullName: 'Jane Doe',
          reservation: 'Row C, Seat 12',
          customQuestions: [
            { question: 'T-shirt size', answer: 'M' },
            { question: 'Dietary requirements', answer: null },
          ],
          createdAt: 1_750_000_000,
          updatedAt: 1_750_000_000,
          voidedAt: null,
        },
        {
          eventId: event.id,
          ticketTypeId: null,
          status: 'void',
          barcode: 'Z9Y8X7W6V5',
          barcodeUrl: 'https://cdn.boxoffice.example/barcodes/Z9Y8X7W6V5.png',
          qrCodeUrl: 'https://cdn.boxoffice.example/qr/Z9Y8X7W6V5.png',
          description: awkward,
          firstName: null,
          lastName: null,
          fullName: awkward,
          reservation: null,
          customQuestions: [{ question: awkward, answer: awkward }],
          createdAt: 1_750_000_000,
          updatedAt: 1_750_000_500,
          voidedAt: 1_750_000_500,
        },
      ],
    });
    // Several ordinary orders over two events, some of a ticket type, one with no tickets.
    const second = await f.event(office.id, { timezone: 'Asia/Tokyo' });
    others = await f.orders(office.id, second.id, [
      { createdAt: 1_750_000_100, ticketType: type },
      { createdAt: 1_750_000_100, status: 'pending', buyerEmail: 'x@y.z' },
      { createdAt: 1_750_000_200, issuedTickets: [] },
      { createdAt: 1_750_000_300, status: 'cancelled' },
    ]);
    const otherEvent = await f.event(other.id);
    foreign = await f.order(other.id, otherEvent.id);
    get = getAs(t.server, KEY);
  });

  afterAll(() => t.close());

  it('returns the whole IssuedTicket resource, every field set', async () => {
    const [ticket] = order.issuedTickets!;
    const res = await get(`/v1/issued_tickets/it_${ticket.id}`);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.body).toEqual({
      object: 'issued_ticket',
      id: `it_${ticket.id}`,
      barcode: 'K7P2M9QX4T',
      barcode_url: 'https://cdn.boxoffice.example/barcodes/K7P2M9QX4T.png',
      created_at: 1_750_000_000,
      custom_questions: [
        { question: 'T-shirt size', answer: 'M' },
        { question: 'Dietary requirements', answer: null },
      ],
      description: 'Stalls',
      email: 'Jane.Doe@Example.com',
      event_id: `ev_${eventId}`,
      full_name: 'Jane Doe',
      first_name: 'Jane',
      last_name: 'Doe',
      reservation: 'Row C, Seat 12',
      status: 'valid',
      updated_at: 1_750_000_000,
      voided_at: null,
      order_id: `or_${order.id}`,
      qr_code_url: 'https://cdn.boxoffice.example/qr/K7P2M9QX4T.png',
      ticket_type_id:
        ticket.ticketTypeId === null ? null : `tt_${ticket.ticketTypeId}`,
      event_series_id: `es_${seriesId}`,
      checked_in: 'false',
    });
  });

  it('returns a void ticket with nulls and awkward text exactly', async () => {
    const [, ticket] = order.issuedTickets!;
    const res = await get(`/v1/issued_tickets/it_${ticket.id}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      object: 'issued_ticket',
      id: `it_${ticket.id}`,
      barcode: 'Z9Y8X7W6V5',
      barcode_url: 'https://cdn.boxoffice.example/barcodes/Z9Y8X7W6V5.png',
      created_at: 1_750_000_000,
      custom_questions: [
        { question: ticket.description, answer: ticket.description },
      ],
      description: ticket.description,
      email: 'Jane.Doe@Example.com',
      event_id: `ev_${eventId}`,
      full_name: ticket.description,
      first_name: null,
      last_name: null,
      reservation: null,
      status: 'void',
      updated_at: 1_750_000_500,
      voided_at: 1_750_000_500,
      order_id: `or_${order.id}`,
      qr_code_url: 'https://cdn.boxoffice.example/qr/Z9Y8X7W6V5.png',
      ticket_type_id:
        ticket.ticketTypeId === null ? null : `tt_${ticket.ticketTypeId}`,
      event_series_id: `es_${seriesId}`,
      checked_in: 'false',
    });
    // `reservation` is present even where it is null.
    expect(Object.keys(res.body)).toContain('reservation');
  });

  it('is, for every ticket of every order, byte for byte the object in its order', async () => {
    const orders = [order, ...others];
    let compared = 0;
    for (const o of orders) {
      const orderRes = await get(`/v1/orders/or_${o.id}`);
      expect(orderRes.status).toBe(200);
      const embedded = arrayElementTexts(orderRes.text, 'issued_tickets');
      expect(embedded).toHaveLength(o.issuedTickets!.length);
      for (const text of embedded) {
        const id = (JSON.parse(text) as { id: string }).id;
        const own = await get(`/v1/issued_tickets/${id}`);
        expect(own.status).toBe(200);
        expect(own.text).toBe(text);
        expectIssuedTicketShape(own.body);
        compared++;
      }
    }
    expect(compared).toBe(8);
  });

  it('lists each ticket exactly as it is retrieved, byte for byte', async () => {
    const res = await get('/v1/issued_tickets');
    expect(res.status).toBe(200);
    const listed = arrayElementTexts(res.text, 'data');
    expect(listed).toHaveLength(8);
    for (const text of listed) {
      const id = (JSON.parse(text) as { id: string }).id;
      expect((await get(`/v1/issued_tickets/${id}`)).text).toBe(text);
    }
    const pages = await walk(get, '/v1/issued_tickets?limit=3', 'next');
    expect(pages.flatMap((p) => p.data)).toEqual(res.body.data);
  });

  it('shows the order’s current e-mail and a void at once, stamped by the database', async () => {
    const [ticket] = others[0].issuedTickets!;
    const before = Math.floor(Date.now() / 1000);
    await t.dataSource
      .getRepository(Order)
      .update(others[0].id, { buyerEmail: 'New@Example.com' });
    await t.dataSource.getRepository(IssuedTicket).update(ticket.id, {
      status: 'void',
      voidedAt: 1_760_000_000,
      updatedAt: 1_760_000_001,
    });
    const res = await get(`/v1/issued_tickets/it_${ticket.id}`);
    expect(res.body).toMatchObject({
      email: 'New@Example.com',
      status: 'void',
      voided_at: 1_760_000_000,
    });
    // A writer's updated_at does not stand: the change's stamp does (docs/API.md, "Who keeps
    // updated_at").
    expect(res.body.updated_at).toBeGreaterThanOrEqual(before);
    expect(res.body.updated_at).toBeLessThanOrEqual(
      Math.floor(Date.now() / 1000),
    );
    const inOrder = await get(`/v1/orders/or_${others[0].id}`);
    expect(inOrder.body.issued_tickets[0]).toEqual(res.body);
  });

  itAnswersNotFound(routes, [
    ['abc', MESSAGES.noSuchIssuedTicket],
    ['it_', MESSAGES.noSuchIssuedTicket],
    ['it_0', MESSAGES.noSuchIssuedTicket],
    ['it_01', MESSAGES.noSuchIssuedTicket],
    ['it_1x', MESSAGES.noSuchIssuedTicket],
    ['IT_1', MESSAGES.noSuchIssuedTicket],
    ['or_1', MESSAGES.noSuchIssuedTicket],
    ['1', MESSAGES.noSuchIssuedTicket],
    ['it_2147483648', MESSAGES.noSuchIssuedTicket],
    ['it_99999999999', MESSAGES.noSuchIssuedTicket],
    ['it_999999', MESSAGES.noIssuedTicket('it_999999')],
    ['it_2147483647', MESSAGES.noIssuedTicket('it_2147483647')],
  ]);

  it('answers another box office’s ticket exactly as an unknown one', async () => {
    const id = `it_${foreign.issuedTickets![0].id}`;
    const res = await get(`/v1/issued_tickets/${id}`);
    expect(res.status).toBe(404);
    expect(res.body).toEqual(
      errorBody(404, 'NOT_FOUND', MESSAGES.noIssuedTicket(id)),
    );
    const owner = await getAs(t.server, OTHER_KEY)(`/v1/issued_tickets/${id}`);
    expect(owner.status).toBe(200);
    expect(owner.body.order_id).toBe(`or_${foreign.id}`);
  });

  it('takes no query parameters: one is a 400 naming it', async () => {
    const id = order.issuedTickets![0].id;
    const res = await get(`/v1/issued_tickets/it_${id}?status=valid`);
    expect(res.status).toBe(400);
    expect(res.body).toEqual(
      errorBody(400, 'VALIDATION_ERROR', 'Unknown query parameter: status'),
    );
  });

  it('needs a key', async () => {
    for (const path of ['/v1/issued_tickets', '/v1/issued_tickets/it_1']) {
      const res = await request(t.server).get(path);
      expect(res.status).toBe(401);
      expect(res.body).toEqual(
        errorBody(401, 'UNAUTHORIZED', MESSAGES.unauthorized),
      );
    }
  });

  describe('HEAD and ETag', () => {
    itServesHeadAndETag(routes, () => `it_${order.issuedTickets![0].id}`);

    it('HEAD answers 404 for an unknown ticket', async () => {
      const missing = await request(t.server)
        .head('/v1/issued_tickets/it_999999')
        .set('Authorization', basicAuth(KEY));
      expect(missing.status).toBe(404);
    });

    it('gives a list a new ETag when a ticket is added', async () => {
      const path = '/v1/issued_tickets?limit=100';
      const before = await get(path);
      await f.order(officeId, eventId, { createdAt: 1_740_000_000 });
      const after = await get(path);
      expect(after.headers.etag).not.toBe(before.headers.etag);
      expect(after.body.data).toHaveLength(before.body.data.length + 2);
    });
  });
});
