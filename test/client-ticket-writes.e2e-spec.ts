import type { AddressInfo } from 'node:net';
import { BoxOfficeApiError, createBoxOfficeClient } from '../client/src/index';
import { TestApp, createTestApp } from './utils/create-test-app';
import { Factory } from './utils/factories';

// The typed client's ticket writes (client/: issueTicket, voidTicket) against the running server,
// over HTTP with Node's fetch (docs/API.md, POST /v1/issued_tickets and .../void).

const WRITE_KEY = 'sk_test_client_ticket_writes';

describe('Typed client: issueTicket and voidTicket', () => {
  let t: TestApp;
  let baseUrl: string;
  let eventId: number;

  beforeAll(async () => {
    t = await createTestApp();
    const f = new Factory(t.dataSource);
    const office = await f.boxOffice();
    await f.apiKey(office.id, WRITE_KEY, false, 'write');
    eventId = (await f.event(office.id)).id;
    await t.app.listen(0, '127.0.0.1');
    baseUrl = `http://127.0.0.1:${(t.server.address() as AddressInfo).port}`;
  });
  afterAll(() => t.close());

  it('issues a ticket, replays it for the same key, refuses SOLD_OUT; voids it once, then ALREADY_VOID', async () => {
    const client = createBoxOfficeClient({ baseUrl, apiKey: WRITE_KEY });
    const type = await new Factory(t.dataSource).ticketType(eventId, {
      quantityTotal: 1,
    });
    const ticket = {
      eventId: `ev_${eventId}`,
      ticketTypeId: `tt_${type.id}`,
      fullName: 'Ada Lovelace',
    };
    const issued = await client.issueTicket(ticket, {
      idempotencyKey: 'client-issue-1',
    });
    expect(issued).toEqual({
      outcome: 'done',
      issuedTicket: expect.objectContaining({
        first_name: 'Ada',
        last_name: 'Lovelace',
        order_id: null,
        status: 'valid',
      }),
      replayed: false,
    });
    expect(
      await client.issueTicket(ticket, { idempotencyKey: 'client-issue-1' }),
    ).toEqual({ ...issued, replayed: true });
    expect(
      await client.issueTicket(ticket, { idempotencyKey: 'client-issue-2' }),
    ).toEqual({
      outcome: 'refused',
      reason: 'SOLD_OUT',
      message: expect.stringContaining(`tt_${type.id}`),
      replayed: false,
    });

    if (issued.outcome !== 'done') throw new Error('not issued');
    const id = issued.issuedTicket.id;
    expect(
      await client.voidTicket(id, { idempotencyKey: 'client-void-1' }),
    ).toEqual({
      outcome: 'done',
      issuedTicket: expect.objectContaining({ id, status: 'void' }),
      replayed: false,
    });
    expect(
      await client.voidTicket(id, { idempotencyKey: 'client-void-2' }),
    ).toEqual({
      outcome: 'refused',
      reason: 'ALREADY_VOID',
      message: `Issued ticket ${id} is void already`,
      replayed: false,
    });
  });

  it('throws BoxOfficeApiError for any other answer (a ticket not of the box office: 404)', async () => {
    const client = createBoxOfficeClient({ baseUrl, apiKey: WRITE_KEY });
    await expect(
      client.voidTicket('it_999999', { idempotencyKey: 'client-void-404' }),
    ).rejects.toMatchObject({ status: 404 });
    await expect(
      client.voidTicket('it_999999', { idempotencyKey: 'client-void-404' }),
    ).rejects.toBeInstanceOf(BoxOfficeApiError);
  });
});
