import { hash } from 'node:crypto';
import request from 'supertest';
import { type Connection, connect } from '../dev/activity/connection';
import { ActivityWriter } from '../dev/activity/writer';
import { type Get, errorBody, getAs } from './utils/api';
import {
  type TestApp,
  basicAuth,
  createTestApp,
} from './utils/create-test-app';
import { Factory } from './utils/factories';
import { durableTestDatabase } from './utils/migrated-database';
import type { TestDatabase } from './utils/test-database';

// POST /v1/check_ins at a real door (docs/API.md, "Recording scans"): a void ticket, the door's
// events, the ticket in every refusal and in an expanded 201, Ticket Tailor's local_unique_id,
// and bodies that a parser would read otherwise than sent. On SQLite by default, on PostgreSQL
// under `npm run test:e2e:postgres`.

const SCAN_KEY = 'sk_test_door_scan';
/** When the tickets were issued: long before now. */
const ISSUED = 1_750_000_000;

type Json = Record<string, unknown>;

describe('POST /v1/check_ins at the door', () => {
  let database: TestDatabase;
  let t: TestApp;
  let f: Factory;
  let db: Connection;
  let writer: ActivityWriter;
  let office: number;
  let event: { id: number };
  let otherEvent: { id: number };
  let get: Get;

  /** Fresh valid tickets of `forEvent`, never scanned. */
  async function tickets(n: number, forEvent = event) {
    const orders = await f.orders(
      office,
      forEvent.id,
      Array.from({ length: Math.ceil(n / 2) }, () => ({ createdAt: ISSUED })),
    );
    return orders.flatMap((o) => o.issuedTickets!).slice(0, n);
  }

  /** A ticket voided at `voidedAt`. */
  async function voidTicket(voidedAt: number) {
    const [order] = await f.orders(office, event.id, [
      {
        createdAt: ISSUED,
        issuedTickets: [
          f.ticket(event.id, {
            status: 'void',
            voidedAt,
            updatedAt: voidedAt,
          }),
        ],
      },
    ]);
    return order.issuedTickets![0];
  }

  const post = (body: Json | string, path = '/v1/check_ins') => {
    const req = request(t.server)
      .post(path)
      .set('Authorization', basicAuth(SCAN_KEY));
    return typeof body === 'string'
      ? req.type('form').send(body)
      : req.send(body);
  };
  const scan = (ticket: { id: number }, fields: Json = {}, path?: string) =>
    post({ issued_ticket_id: `it_${ticket.id}`, ...fields }, path);
  /** A JSON body sent as written: its keys as they are, repeated ones included. */
  const postRaw = (text: string) =>
    request(t.server)
      .post('/v1/check_ins')
      .set('Authorization', basicAuth(SCAN_KEY))
      .set('Content-Type', 'application/json')
      .send(text);

  const count = async (sql: string) =>
    Number(
      (
        await t.dataSource.query<{ n: unknown }[]>(
          `SELECT count(*) AS n ${sql}`,
        )
      )[0].n,
    );
  const scansOf = (ticket: { id: number }) =>
    count(`FROM check_ins WHERE issued_ticket_id = ${ticket.id}`);
  const ticketJson = async (ticket: { id: number }) =>
    (await get(`/v1/issued_tickets/it_${ticket.id}`)).body as Json;

  beforeAll(async () => {
    // A database file (SQLite) the development writer reaches on a connection of its own, as
    // `npm run activity` does.
    database = await durableTestDatabase();
    t = await createTestApp({
      DATABASE_URL: database.url,
      RATE_LIMIT_MAX: '1000000',
    });
    f = new Factory(t.dataSource);
    office = (await f.boxOffice('A')).id;
    await f.apiKey(office, SCAN_KEY, false, 'check_in');
    event = await f.event(office);
    otherEvent = await f.event(office);
    get = getAs(t.server, SCAN_KEY);
    db = await connect(database.url);
    writer = new ActivityWriter(db);
  });

  afterAll(async () => {
    await db?.close();
    await t?.close();
    await database?.drop();
  });

  describe('a void ticket', () => {
    it('refuses a live scan right after the void, in the void’s own second, 20 times in a row', async () => {
      const fresh = await tickets(20);
      const answers: [number, unknown][] = [];
      for (const ticket of fresh) {
        await writer.voidTicket(`it_${ticket.id}`);
        const res = await scan(ticket);
        answers.push([res.status, (res.body as Json).error_code]);
      }
      expect(answers).toEqual(
        Array.from({ length: 20 }, () => [409, 'TICKET_VOID']),
      );
      expect(
        await count(
          `FROM check_ins WHERE issued_ticket_id IN (${fresh.map((x) => x.id).join(', ')})`,
        ),
      ).toBe(0);
    });

    it('takes an offline check-in made strictly before voided_at, and refuses one made at or after it', async () => {
      const voidedAt = ISSUED + 10_000;
      const at = await voidTicket(voidedAt);
      const refusedAt = await scan(at, { check_in_at: voidedAt });
      expect(refusedAt.status).toBe(409);
      expect(refusedAt.body).toEqual({
        ...errorBody(
          409,
          'TICKET_VOID',
          `it_${at.id} was voided at ${voidedAt}: only a check-in made before then (an offline scan's check_in_at) can be recorded`,
        ),
        check_in: null,
        issued_ticket: await ticketJson(at),
      });
      const after = await voidTicket(voidedAt);
      expect(
        (await scan(after, { check_in_at: voidedAt + 1 })).body,
      ).toMatchObject({ error_code: 'TICKET_VOID' });
      const before = await voidTicket(voidedAt);
      const taken = await scan(before, { check_in_at: voidedAt - 1 });
      expect(taken.status).toBe(201);
      expect((taken.body as Json).check_in_at).toBe(voidedAt - 1);
      // The history still decides before the void: a second entry is a second entry.
      const again = await scan(before, { check_in_at: voidedAt - 1 });
      expect(again.body).toMatchObject({
        error_code: 'ALREADY_CHECKED_IN',
        check_in: taken.body as Json,
      });
      expect([
        await scansOf(at),
        await scansOf(after),
        await scansOf(before),
      ]).toEqual([0, 0, 1]);
    });

    it('lets a ticket that is in out, once, after its void (a check-out is decided by the state)', async () => {
      const [ticket] = await tickets(1);
      expect((await scan(ticket)).status).toBe(201);
      await writer.voidTicket(`it_${ticket.id}`);
      const out = await scan(ticket, { quantity: -1 });
      expect(out.status).toBe(201);
      const twice = await scan(ticket, { quantity: -1 });
      expect(twice.body).toMatchObject({
        error_code: 'NOT_CHECKED_IN',
        check_in: out.body as Json,
      });
      expect((await scan(ticket)).body).toMatchObject({
        error_code: 'TICKET_VOID',
        check_in: out.body as Json,
      });
      expect(await scansOf(ticket)).toBe(2);
    });
  });

  describe('event_id: the door’s events', () => {
    it('refuses a ticket of another event: 409 WRONG_EVENT with the ticket, writing nothing', async () => {
      const [ticket] = await tickets(1, otherEvent);
      const res = await scan(ticket, { event_id: `ev_${event.id}` });
      expect(res.status).toBe(409);
      expect(res.body).toEqual({
        ...errorBody(
          409,
          'WRONG_EVENT',
          `it_${ticket.id} is for ev_${otherEvent.id}, not for the event_id of this scan`,
        ),
        check_in: null,
        issued_ticket: await ticketJson(ticket),
      });
      expect((res.body as Json).issued_ticket).toMatchObject({
        event_id: `ev_${otherEvent.id}`,
      });
      expect(res.headers['cache-control']).toBe('no-store');
      expect(await scansOf(ticket)).toBe(0);
    });

    it('takes a ticket of one of the events listed, by id or by barcode in a form', async () => {
      const [first, second] = await tickets(2, otherEvent);
      const listed = await scan(first, {
        event_id: `ev_${event.id},ev_${otherEvent.id}`,
      });
      expect(listed.status).toBe(201);
      const form = await post(
        `barcode=${second.barcode}&event_id=ev_${otherEvent.id}`,
      );
      expect(form.status).toBe(201);
      expect(form.body).toMatchObject({ issued_ticket_id: `it_${second.id}` });
    });

    it('comes before TICKET_VOID and before the state', async () => {
      const voided = await voidTicket(ISSUED + 10_000);
      const doors = { event_id: `ev_${otherEvent.id}` };
      expect((await scan(voided, doors)).body).toMatchObject({
        error_code: 'WRONG_EVENT',
        check_in: null,
      });
      const [inside] = await tickets(1);
      expect((await scan(inside)).status).toBe(201);
      expect((await scan(inside, doors)).body).toMatchObject({
        error_code: 'WRONG_EVENT',
        check_in: null,
      });
      expect(
        (await scan(inside, { quantity: -1, ...doors })).body,
      ).toMatchObject({ error_code: 'WRONG_EVENT' });
      // A check_in_at out of bounds is a bad request whatever the event.
      const early = await scan(inside, { ...doors, check_in_at: 1 });
      expect([early.status, (early.body as Json).errors]).toEqual([
        400,
        [
          {
            field: 'check_in_at',
            messages: [
              expect.stringMatching(
                /^check_in_at must not be before the ticket was issued/,
              ) as string,
            ],
          },
        ],
      ]);
      // Without event_id, the state decides as before.
      expect((await scan(inside)).body).toMatchObject({
        error_code: 'ALREADY_CHECKED_IN',
      });
      expect((await scan(voided)).body).toMatchObject({
        error_code: 'TICKET_VOID',
      });
    });

    it('refuses an event_id that is not an id or a comma list of up to 100', async () => {
      const [ticket] = await tickets(1);
      const hundredAndOne = Array.from(
        { length: 101 },
        (_, i) => `ev_${i + 1}`,
      ).join(',');
      for (const bad of [
        '',
        'ev_0',
        'es_1',
        `ev_${event.id},`,
        'ev_1 ',
        7,
        null,
      ]) {
        const res = await scan(ticket, { event_id: bad });
        expect(res.status).toBe(400);
        const pattern =
          'event_id must be an id (ev_<number>) or a comma list of up to 100';
        const notString = 'event_id must be an id or a comma list of them';
        expect((res.body as Json).errors).toEqual([
          {
            field: 'event_id',
            messages:
              typeof bad === 'string' ? [pattern] : [pattern, notString],
          },
        ]);
      }
      // At most 100 ids: the 101st is refused, 100 with the ticket's event let it in.
      expect(
        ((await scan(ticket, { event_id: hundredAndOne })).body as Json).errors,
      ).toEqual([
        {
          field: 'event_id',
          messages: [
            'event_id must be an id (ev_<number>) or a comma list of up to 100',
          ],
        },
      ]);
      const [other] = await tickets(1);
      const hundred = [
        ...Array.from({ length: 99 }, (_, i) => `ev_${1000 + i}`),
        `ev_${event.id}`,
      ].join(',');
      expect((await scan(other, { event_id: hundred })).status).toBe(201);
      const twice = await post(
        `issued_ticket_id=it_${ticket.id}&event_id=ev_${event.id}&event_id=ev_${event.id}`,
      );
      expect((twice.body as Json).errors).toEqual([
        { field: 'event_id', messages: ['event_id must be given once'] },
      ]);
      expect(await scansOf(ticket)).toBe(0);
    });
  });

  describe('?expand=issued_ticket', () => {
    it('adds the ticket as GET serves it after the scan to the 201, and a retry gets the same bytes', async () => {
      const [ticket] = await tickets(1);
      const res = await scan(
        ticket,
        {},
        '/v1/check_ins?expand=issued_ticket',
      ).set('Idempotency-Key', 'expand-1');
      expect(res.status).toBe(201);
      const { issued_ticket: issued, ...checkIn } = res.body as Json;
      expect(issued).toEqual(await ticketJson(ticket));
      expect(issued).toMatchObject({ checked_in: 'true' });
      expect(checkIn).toEqual(
        (await get(res.headers.location as string)).body as Json,
      );
      const again = await scan(
        ticket,
        {},
        '/v1/check_ins?expand=issued_ticket',
      ).set('Idempotency-Key', 'expand-1');
      expect(again.status).toBe(201);
      expect(again.headers['idempotent-replayed']).toBe('true');
      expect(again.text).toBe(res.text);
      // Without the expand it is another request.
      expect(
        (await scan(ticket).set('Idempotency-Key', 'expand-1')).status,
      ).toBe(422);
      expect(await scansOf(ticket)).toBe(1);
    });

    it('refuses another expand value and any other query parameter', async () => {
      const [ticket] = await tickets(1);
      for (const [query, message] of [
        ['expand=check_in', 'expand must be one of issued_ticket'],
        [
          'expand=issued_ticket&expand=issued_ticket',
          'expand must be given once',
        ],
        ['limit=1', 'Unknown query parameter: limit'],
        ['expand=%00', 'expand must not contain a NUL character (%00)'],
      ]) {
        const res = await scan(ticket, {}, `/v1/check_ins?${query}`);
        expect([res.status, res.body]).toEqual([
          400,
          errorBody(400, 'VALIDATION_ERROR', message),
        ]);
      }
      expect(await scansOf(ticket)).toBe(0);
    });
  });

  describe('local_unique_id and Idempotency-Key', () => {
    it('acts as the Idempotency-Key when the header is absent, the same key as the header', async () => {
      const [ticket] = await tickets(1);
      const first = await scan(ticket, { local_unique_id: 'tt-local-1' });
      expect(first.status).toBe(201);
      const again = await scan(ticket, { local_unique_id: 'tt-local-1' });
      expect(again.status).toBe(201);
      expect(again.headers['idempotent-replayed']).toBe('true');
      expect(again.text).toBe(first.text);
      // The same key by header, and both given and equal: the same request.
      for (const res of [
        await scan(ticket).set('Idempotency-Key', 'tt-local-1'),
        await scan(ticket, { local_unique_id: 'tt-local-1' }).set(
          'Idempotency-Key',
          'tt-local-1',
        ),
      ]) {
        expect([res.status, res.text]).toEqual([201, first.text]);
      }
      expect(await scansOf(ticket)).toBe(1);
    });

    it('refuses a local_unique_id that differs from the header, or is not 1 to 255 printable ASCII', async () => {
      const [ticket] = await tickets(1);
      const differs = await scan(ticket, { local_unique_id: 'a' }).set(
        'Idempotency-Key',
        'b',
      );
      expect([differs.status, differs.body]).toEqual([
        400,
        {
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
        },
      ]);
      for (const bad of ['', 'x'.repeat(256), 'é', 'tab\there']) {
        const res = await scan(ticket, { local_unique_id: bad });
        expect((res.body as Json).errors).toEqual([
          {
            field: 'local_unique_id',
            messages: [
              'local_unique_id must be 1 to 255 printable ASCII characters',
            ],
          },
        ]);
      }
      expect(await scansOf(ticket)).toBe(0);
    });

    it('keeps the request hash of a scan keyed by the header alone as it was (sha256 of what it asks for)', async () => {
      const [ticket] = await tickets(1);
      expect(
        (await scan(ticket).set('Idempotency-Key', 'hash-as-before')).status,
      ).toBe(201);
      const [row] = await t.dataSource.query<{ request_hash: string }[]>(
        `SELECT request_hash FROM idempotency_keys WHERE idempotency_key = 'hash-as-before'`,
      );
      expect(row.request_hash).toBe(
        hash(
          'sha256',
          JSON.stringify({
            operation: 'POST /v1/check_ins',
            ticket: { id: ticket.id },
            quantity: 1,
            checkInAt: null,
          }),
        ),
      );
    });

    it('refuses two Idempotency-Key header fields (which Node would join into one key)', async () => {
      const [ticket] = await tickets(1);
      // Two header fields, as Node's setHeader sends an array (superagent's types allow one
      // only for Cookie).
      const res = await scan(ticket).set('Idempotency-Key', [
        'a',
        'b',
      ] as unknown as string);
      expect([res.status, res.body]).toEqual([
        400,
        errorBody(400, 'VALIDATION_ERROR', 'Idempotency-Key must be sent once'),
      ]);
      expect(await scansOf(ticket)).toBe(0);
    });
  });

  it('offers Swagger UI body examples that are valid scans (Try it out answers no 400)', async () => {
    const doc = (await request(t.server).get('/docs-json')).body as {
      paths: Record<
        string,
        Record<
          string,
          {
            requestBody: {
              content: Record<
                string,
                { examples?: Record<string, { value: Json }> }
              >;
            };
          }
        >
      >;
    };
    const { content } = doc.paths['/v1/check_ins'].post.requestBody;
    const examples = Object.values(content['application/json'].examples ?? {});
    expect(examples.length).toBeGreaterThan(0);
    expect(content['application/x-www-form-urlencoded'].examples).toEqual(
      content['application/json'].examples,
    );
    for (const { value } of examples) {
      const res = await post(value);
      // it_1 may be any box office's, in or out: anything but a refusal of the body.
      expect({ value, answered: [201, 404, 409].includes(res.status) }).toEqual(
        { value, answered: true },
      );
    }
  });

  describe('bodies read as sent', () => {
    it('refuses a NUL character in any text field', async () => {
      const [ticket] = await tickets(1);
      for (const [field, value] of [
        ['barcode', 'A\u0000'],
        ['issued_ticket_id', `it_${ticket.id}\u0000`],
        ['event_id', `ev_${event.id}\u0000`],
        ['local_unique_id', 'k\u0000'],
        ['quantity', '1\u0000'],
        ['check_in_at', '\u0000'],
      ]) {
        const body =
          field === 'issued_ticket_id' || field === 'barcode'
            ? { [field]: value }
            : { issued_ticket_id: `it_${ticket.id}`, [field]: value };
        const message = `${field} must not contain a NUL character`;
        const json = await post(body);
        expect([json.status, json.body]).toEqual([
          400,
          {
            ...errorBody(400, 'VALIDATION_ERROR', message),
            errors: [{ field, messages: [message] }],
          },
        ]);
        const form = await post(new URLSearchParams(body).toString());
        expect([form.status, form.body]).toEqual([json.status, json.body]);
      }
      expect(await scansOf(ticket)).toBe(0);
    });

    it('refuses a JSON field given twice (JSON.parse would keep the last), at any depth and however escaped', async () => {
      const [ticket] = await tickets(1);
      const id = `it_${ticket.id}`;
      for (const [text, field] of [
        [
          `{"issued_ticket_id":"${id}","issued_ticket_id":"${id}"}`,
          'issued_ticket_id',
        ],
        [`{"barcode":"a","barcode":"b"}`, 'barcode'],
        [
          `{"issued_ticket_id":"${id}", "quantity":1 ,\n "\\u0071uantity" : -1}`,
          'quantity',
        ],
        [`{"issued_ticket_id":"${id}","check_in_at":{"a":1,"a":2}}`, 'a'],
      ]) {
        const res = await postRaw(text);
        expect([res.status, res.body]).toEqual([
          400,
          {
            ...errorBody(
              400,
              'VALIDATION_ERROR',
              `${field} must be given once`,
            ),
            errors: [{ field, messages: [`${field} must be given once`] }],
          },
        ]);
      }
      // The same name in two objects, or as a value, is not a repeat.
      const fine = await postRaw(
        `{"issued_ticket_id":"${id}","local_unique_id":"issued_ticket_id"}`,
      );
      expect(fine.status).toBe(201);
      expect(await scansOf(ticket)).toBe(1);
    });

    it('refuses a form field given twice', async () => {
      const [ticket] = await tickets(1);
      const res = await post(
        `issued_ticket_id=it_${ticket.id}&quantity=1&quantity=-1`,
      );
      expect((res.body as Json).errors).toEqual([
        { field: 'quantity', messages: ['quantity must be given once'] },
      ]);
      expect(await scansOf(ticket)).toBe(0);
    });

    it('refuses __proto__, constructor and other unknown fields, in JSON and in forms', async () => {
      const [ticket] = await tickets(1);
      const id = `it_${ticket.id}`;
      const unknown = (field: string) => ({
        ...errorBody(
          400,
          'VALIDATION_ERROR',
          `${field} is not a field of this request`,
        ),
        errors: [
          { field, messages: [`${field} is not a field of this request`] },
        ],
      });
      for (const field of ['__proto__', 'constructor', 'prototype', 'notes']) {
        const json = await postRaw(
          `{"issued_ticket_id":"${id}","${field}":{"quantity":-1}}`,
        );
        expect([field, json.status, json.body]).toEqual([
          field,
          400,
          unknown(field),
        ]);
        const form = await post(`issued_ticket_id=${id}&${field}=1`);
        expect([field, form.status, form.body]).toEqual([
          field,
          400,
          unknown(field),
        ]);
      }
      const encoded = await post(`issued_ticket_id=${id}&%5F%5Fproto%5F%5F=1`);
      expect([encoded.status, encoded.body]).toEqual([
        400,
        unknown('__proto__'),
      ]);
      expect(await scansOf(ticket)).toBe(0);
    });
  });
});
