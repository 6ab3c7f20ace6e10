import request from 'supertest';
import { errorBody } from './utils/api';
import {
  type TestApp,
  basicAuth,
  createTestApp,
} from './utils/create-test-app';
import { Factory } from './utils/factories';
import { portOf, raw } from './utils/raw-http';
import { onPostgres } from './utils/test-database';

// POST /v1/issued_tickets and POST /v1/issued_tickets/{id}/void (docs/API.md): a rule per test,
// from outside. On SQLite by default, on PostgreSQL under `npm run test:e2e:postgres`.

const WRITE_KEY = 'sk_test_ticket_write';
const DOOR_KEY = 'sk_test_ticket_door';
const READ_KEY = 'sk_test_ticket_read';
const OTHER_KEY = 'sk_test_ticket_other';

type Json = Record<string, unknown>;

describe('ticket writes', () => {
  let t: TestApp;
  let f: Factory;
  let office: number;
  let event: { id: number; eventSeriesId: number };
  let theirEvent: { id: number };
  let theirType: { id: number };

  beforeAll(async () => {
    t = await createTestApp();
    f = new Factory(t.dataSource);
    const mine = await f.boxOffice('Writes');
    office = mine.id;
    await f.apiKey(office, WRITE_KEY, false, 'write');
    await f.apiKey(office, DOOR_KEY, false, 'check_in');
    await f.apiKey(office, READ_KEY);
    event = await f.event(office);
    const theirs = await f.tenant(OTHER_KEY);
    theirEvent = theirs.event;
    theirType = await f.ticketType(theirEvent.id);
  });
  afterAll(() => t.close());

  const issue = (body: Json | string, key = WRITE_KEY) => {
    const req = request(t.server)
      .post('/v1/issued_tickets')
      .set('Authorization', basicAuth(key));
    return typeof body === 'string'
      ? req.type('form').send(body)
      : req.send(body);
  };
  const voidTicket = (id: string, key = WRITE_KEY) =>
    request(t.server)
      .post(`/v1/issued_tickets/${id}/void`)
      .set('Authorization', basicAuth(key));
  const get = (path: string) =>
    request(t.server).get(path).set('Authorization', basicAuth(WRITE_KEY));
  const typeOf = async (typeId: number) => {
    const res = await get(`/v1/events/ev_${event.id}`);
    return (res.body as { ticket_types: Json[] }).ticket_types.find(
      (type) => type.id === `tt_${typeId}`,
    )!;
  };
  const changesOf = async (resourceId: string) =>
    (
      (await get(`/v1/changes?resource_id=${resourceId}`)).body as {
        data: { type: string }[];
      }
    ).data.map((change) => change.type);
  const count = async (sql: string) =>
    Number(
      (
        await t.dataSource.query<{ n: unknown }[]>(
          `SELECT count(*) AS n ${sql}`,
        )
      )[0].n,
    );
  const dbNow = async () => {
    const sql = onPostgres
      ? 'SELECT floor(extract(epoch FROM clock_timestamp()))::bigint AS now'
      : 'SELECT unixepoch() AS now';
    return Number((await t.dataSource.query<{ now: unknown }[]>(sql))[0].now);
  };

  describe('POST /v1/issued_tickets', () => {
    it('issues a ticket with no order: 201, the IssuedTicket, Location, no-store; counted, listed, in the feed', async () => {
      const type = await f.ticketType(event.id, {
        name: 'Guest list',
        status: 'hidden',
        quantityTotal: 10,
      });
      const before = await dbNow();
      const res = await issue({
        event_id: `ev_${event.id}`,
        ticket_type_id: `tt_${type.id}`,
        full_name: '  Jane   van der Berg ',
        email: 'Jane.Berg@Example.com',
      });
      expect(res.status).toBe(201);
      const id = (res.body as { id: string }).id;
      expect(res.headers.location).toBe(`/v1/issued_tickets/${id}`);
      expect(res.headers['cache-control']).toBe('no-store');
      const barcode = (res.body as { barcode: string }).barcode;
      expect(barcode).toMatch(/^[0-9A-HJKMNP-TV-Z]{16}$/);
      const createdAt = (res.body as { created_at: number }).created_at;
      expect(createdAt).toBeGreaterThanOrEqual(before);
      expect(res.body).toEqual({
        object: 'issued_ticket',
        id: expect.stringMatching(/^it_[1-9]\d*$/),
        barcode,
        barcode_url: `https://cdn.boxoffice.example/barcodes/${barcode}.png`,
        created_at: createdAt,
        custom_questions: [],
        description: 'Guest list',
        email: 'Jane.Berg@Example.com',
        event_id: `ev_${event.id}`,
        full_name: 'Jane van der Berg',
        first_name: 'Jane',
        last_name: 'van der Berg',
        reservation: null,
        status: 'valid',
        updated_at: createdAt,
        voided_at: null,
        order_id: null,
        qr_code_url: `https://cdn.boxoffice.example/qr/${barcode}.png`,
        ticket_type_id: `tt_${type.id}`,
        event_series_id: `es_${event.eventSeriesId}`,
        checked_in: 'false',
      });
      const retrieved = await get(`/v1/issued_tickets/${id}`);
      expect(retrieved.body).toEqual(res.body);
      expect(await typeOf(type.id)).toMatchObject({
        quantity_total: 10,
        quantity_issued: 1,
      });
      expect(await changesOf(id)).toEqual(['ISSUED_TICKET.CREATED']);
      // Found by the list's filters: its e-mail (any case), its event, no order of any.
      const byEmail = await get(
        `/v1/issued_tickets?email=jane.berg@example.com&event_id=ev_${event.id}`,
      );
      expect(
        (byEmail.body as { data: { id: string }[] }).data.map((it) => it.id),
      ).toEqual([id]);
    });

    it('takes form fields, and a ticket without a name or e-mail', async () => {
      const type = await f.ticketType(event.id);
      const res = await issue(
        `event_id=ev_${event.id}&ticket_type_id=tt_${type.id}`,
      );
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({
        full_name: null,
        first_name: null,
        last_name: null,
        email: null,
        order_id: null,
        status: 'valid',
      });
      // One word: a first name alone.
      const named = await issue({
        event_id: `ev_${event.id}`,
        ticket_type_id: `tt_${type.id}`,
        full_name: 'Cher',
      });
      expect(named.body).toMatchObject({
        full_name: 'Cher',
        first_name: 'Cher',
        last_name: null,
      });
    });

    it('lets a door scan a ticket issued without an order', async () => {
      const type = await f.ticketType(event.id);
      const issued = await issue({
        event_id: `ev_${event.id}`,
        ticket_type_id: `tt_${type.id}`,
      });
      const id = (issued.body as { id: string }).id;
      const scan = await request(t.server)
        .post('/v1/check_ins')
        .set('Authorization', basicAuth(DOOR_KEY))
        .send({ issued_ticket_id: id });
      expect(scan.status).toBe(201);
      expect((await get(`/v1/issued_tickets/${id}`)).body).toMatchObject({
        checked_in: 'true',
        order_id: null,
      });
    });

    it('refuses a type with none left: 409 SOLD_OUT, whatever its status, writing nothing; held tickets count', async () => {
      const type = await f.ticketType(event.id, {
        status: 'sold_out',
        quantityTotal: 3,
        quantityHeld: 2,
      });
      const body = {
        event_id: `ev_${event.id}`,
        ticket_type_id: `tt_${type.id}`,
      };
      expect((await issue(body)).status).toBe(201);
      const refused = await issue(body);
      expect(refused.status).toBe(409);
      expect(refused.headers['cache-control']).toBe('no-store');
      expect(refused.body).toEqual(
        errorBody(
          409,
          'SOLD_OUT',
          `Ticket type tt_${type.id} has no tickets left to issue (quantity_total − quantity_issued − quantity_held is 0)`,
        ),
      );
      expect(
        await count(`FROM issued_tickets WHERE ticket_type_id = ${type.id}`),
      ).toBe(1);
    });

    it('never exceeds the capacity: of 40 simultaneous issues against 7 left, exactly 7 are created', async () => {
      const type = await f.ticketType(event.id, { quantityTotal: 7 });
      const answers = await Promise.all(
        Array.from({ length: 40 }, () =>
          issue({
            event_id: `ev_${event.id}`,
            ticket_type_id: `tt_${type.id}`,
          }),
        ),
      );
      const statuses = answers.map((res) => res.status).sort((a, b) => a - b);
      expect(statuses).toEqual([
        ...Array<number>(7).fill(201),
        ...Array<number>(33).fill(409),
      ]);
      for (const res of answers.filter((answer) => answer.status === 409)) {
        expect((res.body as { error_code: string }).error_code).toBe(
          'SOLD_OUT',
        );
      }
      expect(
        await count(`FROM issued_tickets WHERE ticket_type_id = ${type.id}`),
      ).toBe(7);
      expect(await typeOf(type.id)).toMatchObject({ quantity_issued: 7 });
      const barcodes = answers
        .filter((res) => res.status === 201)
        .map((res) => (res.body as { barcode: string }).barcode);
      expect(new Set(barcodes).size).toBe(7);
    });

    it('answers 404 for an event not of this box office, and 400 on ticket_type_id for a type not of the event', async () => {
      const mine = await f.ticketType(event.id);
      const other = await f.event(office);
      expect(
        (
          await issue({
            event_id: `ev_${theirEvent.id}`,
            ticket_type_id: `tt_${theirType.id}`,
          })
        ).body,
      ).toEqual(
        errorBody(
          404,
          'NOT_FOUND',
          `No event ev_${theirEvent.id} in this box office`,
        ),
      );
      expect(
        (
          await issue({
            event_id: 'ev_9999999999',
            ticket_type_id: `tt_${mine.id}`,
          })
        ).status,
      ).toBe(404);
      for (const [eventId, typeId] of [
        [other.id, mine.id],
        [event.id, theirType.id],
      ]) {
        const res = await issue({
          event_id: `ev_${eventId}`,
          ticket_type_id: `tt_${typeId}`,
        });
        const message = `ticket_type_id must name a ticket type of ev_${eventId}; tt_${typeId} is not one`;
        expect(res.body).toEqual({
          ...errorBody(400, 'VALIDATION_ERROR', message),
          errors: [{ field: 'ticket_type_id', messages: [message] }],
        });
      }
      expect(
        await count(`FROM issued_tickets WHERE ticket_type_id = ${mine.id}`),
      ).toBe(0);
    });

    it('names every bad field, and refuses unknown, repeated and NUL fields', async () => {
      const res = await issue({
        event_id: 'or_1',
        full_name: '   ',
        email: 'nobody',
      });
      expect(res.status).toBe(400);
      expect(
        (res.body as { errors: { field: string }[] }).errors.map(
          (e) => e.field,
        ),
      ).toEqual(['event_id', 'ticket_type_id', 'full_name', 'email']);
      const unknown = await issue({
        event_id: `ev_${event.id}`,
        ticket_type_id: 'tt_1',
        seat: 'A1',
      });
      expect(unknown.body).toMatchObject(
        errorBody(
          400,
          'VALIDATION_ERROR',
          'seat is not a field of this request',
        ),
      );
      const repeated = await issue(
        `event_id=ev_${event.id}&event_id=ev_${event.id}&ticket_type_id=tt_1`,
      );
      expect(repeated.status).toBe(400);
      const nul = await issue({
        event_id: `ev_${event.id}`,
        ticket_type_id: 'tt_1',
        full_name: 'A\u0000B',
      });
      expect(nul.status).toBe(400);
    });

    it('needs a key of scope write: read and check_in keys get 403', async () => {
      const type = await f.ticketType(event.id);
      const body = {
        event_id: `ev_${event.id}`,
        ticket_type_id: `tt_${type.id}`,
      };
      for (const key of [READ_KEY, DOOR_KEY]) {
        const res = await issue(body, key);
        expect(res.status).toBe(403);
        expect(res.body).toEqual(
          errorBody(
            403,
            'FORBIDDEN',
            'This API key may not make writes (issue or void tickets, change webhook endpoints): create a key with scope write (npm run apikey -- create --box-office <id> --scope write)',
          ),
        );
      }
      expect(
        await count(`FROM issued_tickets WHERE ticket_type_id = ${type.id}`),
      ).toBe(0);
    });
  });

  describe('retries', () => {
    it('answers a retry with the first answer (Idempotent-Replayed), by header or local_unique_id, and writes once', async () => {
      const type = await f.ticketType(event.id);
      const body = {
        event_id: `ev_${event.id}`,
        ticket_type_id: `tt_${type.id}`,
      };
      const first = await issue(body).set('Idempotency-Key', 'comp-1');
      expect(first.status).toBe(201);
      const retry = await issue(body).set('Idempotency-Key', 'comp-1');
      expect(retry.status).toBe(201);
      expect(retry.text).toBe(first.text);
      expect(retry.headers.location).toBe(first.headers.location);
      expect(retry.headers['idempotent-replayed']).toBe('true');
      // The body's local_unique_id is the same key, and not part of the request.
      const byBody = await issue({ ...body, local_unique_id: 'comp-1' });
      expect(byBody.text).toBe(first.text);
      expect(byBody.headers['idempotent-replayed']).toBe('true');
      expect(
        await count(`FROM issued_tickets WHERE ticket_type_id = ${type.id}`),
      ).toBe(1);
      // Another request with the key: 422.
      const reused = await issue({ ...body, full_name: 'Someone Else' }).set(
        'Idempotency-Key',
        'comp-1',
      );
      expect(reused.status).toBe(422);
      expect((reused.body as { error_code: string }).error_code).toBe(
        'IDEMPOTENCY_KEY_REUSED',
      );
      // The void's retry is its first answer, not ALREADY_VOID.
      const id = (first.body as { id: string }).id;
      const voided = await voidTicket(id).set('Idempotency-Key', 'void-1');
      const again = await voidTicket(id).send({ local_unique_id: 'void-1' });
      expect(again.status).toBe(200);
      expect(again.text).toBe(voided.text);
      expect(again.headers['idempotent-replayed']).toBe('true');
    });

    it('refuses a header and local_unique_id that differ, and two Idempotency-Key fields (400)', async () => {
      const type = await f.ticketType(event.id);
      const body = {
        event_id: `ev_${event.id}`,
        ticket_type_id: `tt_${type.id}`,
      };
      const differ = await issue({ ...body, local_unique_id: 'b' }).set(
        'Idempotency-Key',
        'a',
      );
      expect(differ.body).toEqual({
        ...errorBody(
          400,
          'VALIDATION_ERROR',
          'local_unique_id must equal the Idempotency-Key header when both are sent',
        ),
        errors: [
          {
            field: 'local_unique_id',
            messages: [
              'local_unique_id must equal the Idempotency-Key header when both are sent',
            ],
          },
        ],
      });
      // Node would join two fields into one value, `a, b`: a bare request sends them apart.
      const twice = await raw(await portOf(t.server), {
        method: 'POST',
        target: '/v1/issued_tickets',
        headers: [
          ['Authorization', basicAuth(WRITE_KEY)],
          ['Content-Type', 'application/json'],
          ['Content-Length', String(JSON.stringify(body).length)],
          ['Idempotency-Key', 'a'],
          ['Idempotency-Key', 'b'],
        ],
        body: JSON.stringify(body),
      });
      expect(twice.status).toBe(400);
      expect(JSON.parse(twice.text)).toEqual(
        errorBody(400, 'VALIDATION_ERROR', 'Idempotency-Key must be sent once'),
      );
      expect(
        await count(`FROM issued_tickets WHERE ticket_type_id = ${type.id}`),
      ).toBe(0);
    });

    it('checks the Idempotency-Key before the ids (400 before 404), in the order docs/API.md gives', async () => {
      const bad = 'k\u00e9';
      const issued = await issue({
        event_id: 'ev_9999999999',
        ticket_type_id: 'tt_9999999999',
      }).set('Idempotency-Key', bad);
      const voided = await voidTicket('it_99999999999999999999').set(
        'Idempotency-Key',
        bad,
      );
      for (const res of [issued, voided]) {
        expect(res.status).toBe(400);
        expect(res.body).toEqual(
          errorBody(
            400,
            'VALIDATION_ERROR',
            'Idempotency-Key must be 1 to 255 printable ASCII characters',
          ),
        );
      }
      // Without the bad key, the same ids name nothing.
      expect(
        (
          await issue({
            event_id: 'ev_9999999999',
            ticket_type_id: 'tt_9999999999',
          })
        ).status,
      ).toBe(404);
      expect((await voidTicket('it_99999999999999999999')).status).toBe(404);
    });
  });

  describe('POST /v1/issued_tickets/{id}/void', () => {
    it('voids a ticket of an order: 200, void, voided_at now; counters, updated_at and the feed follow', async () => {
      const type = await f.ticketType(event.id, { quantityTotal: 5 });
      const [order] = await f.orders(office, event.id, [
        { createdAt: 1_750_000_000 },
      ]);
      const ticket = order.issuedTickets![0];
      await t.dataSource.query(
        `UPDATE issued_tickets SET ticket_type_id = ${type.id} WHERE id = ${ticket.id}`,
      );
      expect(await typeOf(type.id)).toMatchObject({ quantity_issued: 1 });
      const before = await dbNow();
      const res = await voidTicket(`it_${ticket.id}`);
      expect(res.status).toBe(200);
      expect(res.headers['cache-control']).toBe('no-store');
      expect(res.headers.location).toBeUndefined();
      const body = res.body as Json;
      expect(body).toEqual({
        ...((await get(`/v1/issued_tickets/it_${ticket.id}`)).body as Json),
        status: 'void',
        voided_at: expect.any(Number),
      });
      expect(body.voided_at).toBeGreaterThanOrEqual(before);
      expect(body.updated_at).toBeGreaterThanOrEqual(body.voided_at as number);
      expect(await typeOf(type.id)).toMatchObject({ quantity_issued: 0 });
      expect(await changesOf(`it_${ticket.id}`)).toContain(
        'ISSUED_TICKET.UPDATED',
      );
      const orderNow = (await get(`/v1/orders/or_${order.id}`)).body as {
        updated_at: number;
        issued_tickets: Json[];
      };
      expect(orderNow.updated_at).toBeGreaterThanOrEqual(
        body.updated_at as number,
      );
      expect(orderNow.issued_tickets[0]).toEqual(body);

      const again = await voidTicket(`it_${ticket.id}`);
      expect(again.status).toBe(409);
      expect(again.body).toEqual(
        errorBody(
          409,
          'ALREADY_VOID',
          `Issued ticket it_${ticket.id} is void already`,
        ),
      );
      // From its commit on, a door refuses it.
      const scan = await request(t.server)
        .post('/v1/check_ins')
        .set('Authorization', basicAuth(DOOR_KEY))
        .send({ issued_ticket_id: `it_${ticket.id}` });
      expect(scan.status).toBe(409);
      expect((scan.body as { error_code: string }).error_code).toBe(
        'TICKET_VOID',
      );
    });

    it('answers 404 for a ticket not of this box office, or a malformed id; 403 for a read key', async () => {
      const [theirs] = await f.orders((await f.boxOffice()).id, theirEvent.id, [
        {},
      ]);
      for (const id of [
        `it_${theirs.issuedTickets![0].id}`,
        'it_0',
        'ticket',
      ]) {
        const res = await voidTicket(id);
        expect(res.status).toBe(404);
        expect((res.body as { error_code: string }).error_code).toBe(
          'NOT_FOUND',
        );
      }
      const [mine] = await f.orders(office, event.id, [{}]);
      expect(
        (await voidTicket(`it_${mine.issuedTickets![0].id}`, READ_KEY)).status,
      ).toBe(403);
      expect(
        (await voidTicket(`it_${mine.issuedTickets![0].id}`, DOOR_KEY)).status,
      ).toBe(403);
    });

    it('serves POST only: another method is 405 with Allow: POST; a CORS preflight is answered', async () => {
      const path = '/v1/issued_tickets/it_1/void';
      for (const res of [
        await get(path),
        await request(t.server)
          .delete(path)
          .set('Authorization', basicAuth(WRITE_KEY)),
      ]) {
        expect(res.status).toBe(405);
        expect(res.headers.allow).toBe('POST');
        expect(res.body).toEqual(
          errorBody(405, 'METHOD_NOT_ALLOWED', expect.any(String)),
        );
      }
      const preflight = await request(t.server)
        .options(path)
        .set('Origin', 'https://door.example')
        .set('Access-Control-Request-Method', 'POST')
        .set('Access-Control-Request-Headers', 'authorization,content-type');
      expect(preflight.status).toBe(204);
      expect(preflight.headers['access-control-allow-methods']).toContain(
        'POST',
      );
      // The path's reads are as they were: GET, HEAD and OPTIONS beside POST.
      expect(
        (
          await request(t.server)
            .delete('/v1/issued_tickets')
            .set('Authorization', basicAuth(WRITE_KEY))
        ).headers.allow,
      ).toBe('GET, HEAD, OPTIONS, POST');
    });

    it('refuses a query parameter on either write: 400, nothing written', async () => {
      const type = await f.ticketType(event.id);
      const ofType = `FROM issued_tickets WHERE ticket_type_id = ${type.id}`;
      const before = await count(ofType);
      const issued = await request(t.server)
        .post('/v1/issued_tickets?notify=1')
        .set('Authorization', basicAuth(WRITE_KEY))
        .send({ event_id: `ev_${event.id}`, ticket_type_id: `tt_${type.id}` });
      expect([issued.status, issued.body]).toEqual([
        400,
        errorBody(400, 'VALIDATION_ERROR', 'Unknown query parameter: notify'),
      ]);
      expect(await count(ofType)).toBe(before);
      const [order] = await f.orders(office, event.id, [{}]);
      const ticketId = order.issuedTickets![0].id;
      const voided = await request(t.server)
        .post(`/v1/issued_tickets/it_${ticketId}/void?reason=fraud`)
        .set('Authorization', basicAuth(WRITE_KEY));
      expect([voided.status, voided.body]).toEqual([
        400,
        errorBody(400, 'VALIDATION_ERROR', 'Unknown query parameter: reason'),
      ]);
      expect(
        await count(
          `FROM issued_tickets WHERE id = ${ticketId} AND status = 'void'`,
        ),
      ).toBe(0);
    });

    it('refuses a body field other than local_unique_id', async () => {
      const [order] = await f.orders(office, event.id, [{}]);
      const res = await voidTicket(`it_${order.issuedTickets![0].id}`).send({
        reason: 'fraud',
      });
      expect(res.status).toBe(400);
      expect(
        await count(
          `FROM issued_tickets WHERE id = ${order.issuedTickets![0].id} AND status = 'void'`,
        ),
      ).toBe(0);
    });

    it('leaves no check-in after voided_at when a void races 30 scans of the ticket', async () => {
      const [order] = await f.orders(office, event.id, [{}]);
      const ticket = order.issuedTickets![0];
      const scans = Array.from({ length: 30 }, (_, i) =>
        request(t.server)
          .post('/v1/check_ins')
          .set('Authorization', basicAuth(DOOR_KEY))
          .send({
            issued_ticket_id: `it_${ticket.id}`,
            quantity: i % 2 === 0 ? 1 : -1,
          }),
      );
      const answers = await Promise.all([
        ...scans.slice(0, 15),
        voidTicket(`it_${ticket.id}`),
        ...scans.slice(15),
      ]);
      expect(answers[15].status).toBe(200);
      const voidedAt = (answers[15].body as { voided_at: number }).voided_at;
      expect(
        await count(
          `FROM check_ins WHERE issued_ticket_id = ${ticket.id} AND quantity = 1 AND check_in_at > ${voidedAt}`,
        ),
      ).toBe(0);
    });
  });

  (onPostgres ? describe : describe.skip)(
    'a write the database cannot finish in time',
    () => {
      let slow: TestApp;
      beforeAll(async () => {
        slow = await createTestApp({ DB_STATEMENT_TIMEOUT_MS: '500' });
        const g = new Factory(slow.dataSource);
        const other = await g.boxOffice();
        await g.apiKey(other.id, WRITE_KEY, false, 'write');
      });
      afterAll(() => slow.close());

      it('is answered 503 with Retry-After, having written nothing, and goes through once the lock is let go', async () => {
        const g = new Factory(slow.dataSource);
        const [office] = await slow.dataSource.query<{ id: number }[]>(
          'SELECT id FROM box_offices ORDER BY id DESC LIMIT 1',
        );
        const ev = await g.event(office.id);
        const type = await g.ticketType(ev.id);
        const body = {
          event_id: `ev_${ev.id}`,
          ticket_type_id: `tt_${type.id}`,
        };
        const send = () =>
          request(slow.server)
            .post('/v1/issued_tickets')
            .set('Authorization', basicAuth(WRITE_KEY))
            .send(body);
        // Another writer holds the ticket type's row past the statement timeout.
        const holder = slow.dataSource.createQueryRunner();
        await holder.startTransaction();
        try {
          await holder.query(
            `SELECT id FROM ticket_types WHERE id = ${type.id} FOR UPDATE`,
          );
          const refused = await send();
          expect(refused.status).toBe(503);
          expect(refused.body).toEqual(
            errorBody(
              503,
              'SERVICE_UNAVAILABLE',
              'The service is temporarily unable to reach its database; retry shortly',
            ),
          );
          expect(refused.headers['retry-after']).toBe('5');
        } finally {
          await holder.rollbackTransaction();
          await holder.release();
        }
        const [{ n }] = await slow.dataSource.query<{ n: unknown }[]>(
          `SELECT count(*) AS n FROM issued_tickets WHERE ticket_type_id = ${type.id}`,
        );
        expect(Number(n)).toBe(0);
        expect((await send()).status).toBe(201);
      });
    },
  );
});
