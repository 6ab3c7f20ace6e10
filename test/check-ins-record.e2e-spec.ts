import request from 'supertest';
import { changeHead, changePage } from '../src/changes/change-feed';
import {
  IdempotencyKeys,
  KeyTaken,
  lockNumberOf,
} from '../src/common/idempotency/idempotency-keys';
import { deleteExpiredIdempotencyKeys } from '../src/common/idempotency/idempotency-retention';
import { MAX_BODY_BYTES } from '../src/common/http/request-body';
import { dialectFor } from '../src/database/sql-dialect';
import {
  statementWrites,
  writeTransactions,
} from '../src/database/write-transaction';
import { type Get, MESSAGES, errorBody, getAs } from './utils/api';
import {
  type TestApp,
  basicAuth,
  createTestApp,
} from './utils/create-test-app';
import { Factory } from './utils/factories';
import { onPostgres } from './utils/test-database';

// POST /v1/check_ins (docs/API.md, "POST /v1/check_ins"): a rule per test, from outside. On
// SQLite by default, on PostgreSQL under `npm run test:e2e:postgres`.

const SCAN_KEY = 'sk_test_record_scan';
const READ_KEY = 'sk_test_record_read';
const OTHER_KEY = 'sk_test_record_other';
/** When the tickets were issued: long before now. */
const ISSUED = 1_750_000_000;
const DAY = 86_400;

type Json = Record<string, unknown>;

describe('POST /v1/check_ins', () => {
  let t: TestApp;
  let f: Factory;
  let office: number;
  let event: { id: number; eventSeriesId: number };
  let get: Get;
  let theirTicket: { id: number; barcode: string };

  /** Fresh tickets of box office A, never scanned: each test scans its own. */
  async function tickets(n = 2, overrides: Json = {}) {
    const orders = await f.orders(
      office,
      event.id,
      Array.from({ length: Math.ceil(n / 2) }, () => ({
        createdAt: ISSUED,
        ...overrides,
      })),
    );
    return orders
      .flatMap((o) => o.issuedTickets!)
      .slice(0, n)
      .map((ticket) => ({
        id: ticket.id,
        barcode: ticket.barcode,
        orderId: ticket.orderId,
      }));
  }

  const post = (body: Json | string, key = SCAN_KEY) => {
    const req = request(t.server)
      .post('/v1/check_ins')
      .set('Authorization', basicAuth(key));
    return typeof body === 'string'
      ? req.type('form').send(body)
      : req.send(body);
  };
  const scan = (ticket: { id: number }, fields: Json = {}) =>
    post({ issued_ticket_id: `it_${ticket.id}`, ...fields });

  const dbNow = async () => {
    const sql = onPostgres
      ? 'SELECT floor(extract(epoch FROM clock_timestamp()))::bigint AS now'
      : 'SELECT unixepoch() AS now';
    return Number((await t.dataSource.query<{ now: unknown }[]>(sql))[0].now);
  };
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
  /** The ticket as GET serves it: what a refusal, which writes nothing, carries. */
  const ticketJson = async (ticket: { id: number }) =>
    (await get(`/v1/issued_tickets/it_${ticket.id}`)).body as Json;

  beforeAll(async () => {
    t = await createTestApp({ RATE_LIMIT_MAX: '1000000' });
    f = new Factory(t.dataSource);
    office = (await f.boxOffice('A')).id;
    const b = (await f.boxOffice('B')).id;
    await f.apiKey(office, SCAN_KEY, false, 'check_in');
    await f.apiKey(office, READ_KEY);
    await f.apiKey(b, OTHER_KEY, false, 'check_in');
    event = await f.event(office);
    const theirEvent = await f.event(b);
    const [theirs] = await f.orders(b, theirEvent.id, [{ createdAt: ISSUED }]);
    theirTicket = theirs.issuedTickets![0];
    get = getAs(t.server, SCAN_KEY);
  });

  afterAll(() => t.close());

  describe('who may scan', () => {
    it('needs a key: none, or a wrong one, is 401', async () => {
      const [ticket] = await tickets(1);
      const none = await request(t.server)
        .post('/v1/check_ins')
        .send({ issued_ticket_id: `it_${ticket.id}` });
      expect(none.status).toBe(401);
      expect(none.body).toEqual(
        errorBody(401, 'UNAUTHORIZED', MESSAGES.unauthorized),
      );
      expect((await post({}, 'sk_nobody')).status).toBe(401);
      expect(await scansOf(ticket)).toBe(0);
    });

    it('refuses a read key with 403 FORBIDDEN and writes nothing', async () => {
      const [ticket] = await tickets(1);
      const res = await scan(ticket).set('Authorization', basicAuth(READ_KEY));
      expect(res.status).toBe(403);
      expect(res.body).toEqual(
        errorBody(
          403,
          'FORBIDDEN',
          'This API key may not record scans: create a key with scope check_in (npm run apikey -- create --box-office <id> --scope check_in)',
        ),
      );
      expect(res.headers['cache-control']).toBe('no-store');
      expect(await scansOf(ticket)).toBe(0);
      // It still reads, as before.
      expect((await getAs(t.server, READ_KEY)('/v1/check_ins')).status).toBe(
        200,
      );
    });
  });

  describe('a scan recorded', () => {
    it('answers 201 with the CheckIn as GET serves it, and Location', async () => {
      const [ticket] = await tickets(1);
      const before = await dbNow();
      const res = await scan(ticket);
      const after = await dbNow();
      expect(res.status).toBe(201);
      const body = res.body as Json;
      expect(body).toEqual({
        object: 'check_in',
        id: expect.stringMatching(/^ci_[1-9]\d*$/) as string,
        issued_ticket_id: `it_${ticket.id}`,
        event_id: `ev_${event.id}`,
        event_series_id: `es_${event.eventSeriesId}`,
        quantity: 1,
        check_in_at: body.created_at,
        created_at: expect.any(Number) as number,
      });
      expect(body.created_at).toBeGreaterThanOrEqual(before);
      expect(body.created_at).toBeLessThanOrEqual(after);
      expect(res.headers.location).toBe(`/v1/check_ins/${String(body.id)}`);
      const read = await get(res.headers.location as string);
      expect(read.status).toBe(200);
      expect(read.text).toBe(res.text);
    });

    it('goes through the rules every writer follows: checked_in, updated_at, CHECK_IN.CREATED', async () => {
      const [ticket] = await tickets(1);
      const head = await changeHead(t.dataSource, office);
      const res = await scan(ticket);
      const stamp = (res.body as Json).created_at as number;
      const id = Number(String((res.body as Json).id).slice(3));
      // Read as the feed reads: its head first (on PostgreSQL that numbers the scan's entry).
      expect(await changeHead(t.dataSource, office)).toBe(head + 1);
      const entries = await changePage(t.dataSource, {
        boxOfficeId: office,
        after: head,
        limit: 10,
      });
      expect(entries.map((e) => [e.type, e.resourceId, e.createdAt])).toEqual([
        ['CHECK_IN.CREATED', id, stamp],
      ]);
      const issued = (await get(`/v1/issued_tickets/it_${ticket.id}`))
        .body as Json;
      expect(issued).toMatchObject({ checked_in: 'true', updated_at: stamp });
      const order = (await get(`/v1/orders/or_${ticket.orderId}`)).body as Json;
      expect(order.updated_at).toBe(stamp);
      const listed = (await get('/v1/check_ins?limit=1')).body as {
        data: Json[];
      };
      expect(listed.data[0]).toEqual(res.body);
    });

    it('takes form fields by barcode, and checks out with quantity -1', async () => {
      const [ticket] = await tickets(1);
      const checkIn = await post(`barcode=${ticket.barcode}`);
      expect(checkIn.status).toBe(201);
      expect(checkIn.body).toMatchObject({
        issued_ticket_id: `it_${ticket.id}`,
        quantity: 1,
      });
      const out = await post(`barcode=${ticket.barcode}&quantity=-1`);
      expect(out.status).toBe(201);
      expect(out.body).toMatchObject({ quantity: -1 });
      expect(
        (await get(`/v1/issued_tickets/it_${ticket.id}`)).body,
      ).toMatchObject({ checked_in: 'false' });
      const again = await scan(ticket, { quantity: 1 });
      expect(again.status).toBe(201);
    });

    it('records an offline scan at its check_in_at, before its created_at', async () => {
      const [ticket] = await tickets(1);
      const at = (await dbNow()) - 3_600;
      const res = await scan(ticket, { check_in_at: at });
      expect(res.status).toBe(201);
      expect((res.body as Json).check_in_at).toBe(at);
      expect((res.body as Json).created_at).toBeGreaterThan(at);
    });

    it('records a scan dated up to 60 s ahead (a fast device clock) at the moment of recording', async () => {
      const [ticket] = await tickets(1);
      const res = await scan(ticket, { check_in_at: (await dbNow()) + 55 });
      expect(res.status).toBe(201);
      const body = res.body as Json;
      expect(body.check_in_at).toBe(body.created_at);
      expect(body.created_at).toBeLessThanOrEqual(await dbNow());
    });
  });

  describe('the ticket’s state decides, in the order scans happened', () => {
    it('refuses a second check-in: 409 ALREADY_CHECKED_IN with the check-in that let it in', async () => {
      const [ticket] = await tickets(1);
      const first = await scan(ticket);
      const first_ = first.body as Json;
      const second = await scan(ticket);
      expect(second.status).toBe(409);
      expect(second.body).toEqual({
        ...errorBody(
          409,
          'ALREADY_CHECKED_IN',
          `it_${ticket.id} is already checked in (${String(first_.id)}, scanned at ${String(first_.check_in_at)})`,
        ),
        check_in: first.body as Json,
        issued_ticket: await ticketJson(ticket),
      });
      expect(second.headers['cache-control']).toBe('no-store');
      expect(await scansOf(ticket)).toBe(1);
    });

    it('refuses a check-out of a ticket that is out: 409 NOT_CHECKED_IN with its last check-out, or null', async () => {
      const [ticket] = await tickets(1);
      const never = await scan(ticket, { quantity: -1 });
      expect(never.status).toBe(409);
      expect(never.body).toEqual({
        ...errorBody(
          409,
          'NOT_CHECKED_IN',
          `it_${ticket.id} is not checked in: it has no check-in to check out of`,
        ),
        check_in: null,
        issued_ticket: await ticketJson(ticket),
      });
      await scan(ticket);
      const out = (await scan(ticket, { quantity: -1 })).body as Json;
      const twice = await scan(ticket, { quantity: -1 });
      expect(twice.status).toBe(409);
      expect(twice.body).toEqual({
        ...errorBody(
          409,
          'NOT_CHECKED_IN',
          `it_${ticket.id} is not checked in: it was checked out (${String(out.id)}, scanned at ${String(out.check_in_at)})`,
        ),
        check_in: out,
        issued_ticket: await ticketJson(ticket),
      });
      expect(await scansOf(ticket)).toBe(2);
    });

    it('refuses a live check-in of a void ticket (409 TICKET_VOID), takes an offline one made before voided_at, and lets it out', async () => {
      const voidedAt = (await dbNow()) - DAY;
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
      const ticket = order.issuedTickets![0];
      const refused = await scan(ticket);
      expect(refused.status).toBe(409);
      expect(refused.body).toEqual({
        ...errorBody(
          409,
          'TICKET_VOID',
          `it_${ticket.id} was voided at ${voidedAt}: only a check-in made before then (an offline scan's check_in_at) can be recorded`,
        ),
        check_in: null,
        issued_ticket: await ticketJson(ticket),
      });
      expect((refused.body as Json).issued_ticket).toMatchObject({
        status: 'void',
        voided_at: voidedAt,
      });
      const before = await scan(ticket, { check_in_at: voidedAt - 60 });
      expect(before.status).toBe(201);
      // In since before the void: a check-out is decided by the state alone (people leave).
      const out = await scan(ticket, { quantity: -1 });
      expect(out.status).toBe(201);
      expect(await scansOf(ticket)).toBe(2);
    });

    it('fits an offline scan that is the ticket’s latest, and refuses one a later scan follows, writing nothing', async () => {
      const [ticket] = await tickets(1);
      const now = await dbNow();
      const entered = (await scan(ticket, { check_in_at: now - 3_000 }))
        .body as Json;
      // An offline check-out, made after that entry and uploaded now: it fits.
      const left = await scan(ticket, {
        quantity: -1,
        check_in_at: now - 2_000,
      });
      expect(left.status).toBe(201);
      // Back in, then an offline check-in made while out (before that re-entry): a second entry.
      const back = (await scan(ticket, { check_in_at: now - 1_000 }))
        .body as Json;
      const late = await scan(ticket, { check_in_at: now - 1_500 });
      expect(late.status).toBe(409);
      expect(late.body).toEqual({
        ...errorBody(
          409,
          'ALREADY_CHECKED_IN',
          `it_${ticket.id} was checked in later (${String(back.id)}, scanned at ${now - 1_000}): a check-in at ${now - 1_500} would be a second entry`,
        ),
        check_in: back,
        issued_ticket: await ticketJson(ticket),
      });
      // An offline check-out made while in, before the check-out at now - 2000: a second exit.
      const early = await scan(ticket, {
        quantity: -1,
        check_in_at: now - 2_500,
      });
      expect(early.status).toBe(409);
      expect(early.body).toMatchObject({
        error_code: 'NOT_CHECKED_IN',
        check_in: left.body as Json,
      });
      expect(entered.quantity).toBe(1);
      expect(await scansOf(ticket)).toBe(3);
    });

    it('keeps the invariant whatever scans come: the running sum in scan order is 0 or 1', async () => {
      const [ticket] = await tickets(1);
      const now = await dbNow();
      // A door's worth of scans, online and offline, some out of order.
      const plan = [
        [1, 0],
        [1, -30],
        [-1, -10],
        [-1, 0],
        [1, -5],
        [1, 0],
        [-1, -20],
        [-1, 0],
        [1, 0],
      ] as const;
      for (const [quantity, ago] of plan) {
        await scan(ticket, {
          quantity,
          check_in_at: ago === 0 ? undefined : now + ago,
        });
      }
      const rows = await t.dataSource.query<
        { quantity: unknown; check_in_at: unknown }[]
      >(
        `SELECT quantity, check_in_at FROM check_ins WHERE issued_ticket_id = ${ticket.id}
          ORDER BY check_in_at, created_at, id`,
      );
      let sum = 0;
      for (const row of rows) {
        sum += Number(row.quantity);
        expect([0, 1]).toContain(sum);
      }
      expect(rows.length).toBeGreaterThan(2);
    });

    it('lets exactly one of many simultaneous scans of one ticket in', async () => {
      const [ticket] = await tickets(1);
      const answers = await Promise.all(
        Array.from({ length: 20 }, () => scan(ticket)),
      );
      const statuses = answers.map((res) => res.status).sort((a, b) => a - b);
      expect(statuses).toEqual([201, ...Array<number>(19).fill(409)]);
      expect(await scansOf(ticket)).toBe(1);
    });
  });

  describe('bad input', () => {
    it('names every bad field in errors', async () => {
      const res = await post({
        issued_ticket_id: 'ci_1',
        quantity: 2,
        check_in_at: 'soon',
        gate: 'B',
      });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({
        ...errorBody(
          400,
          'VALIDATION_ERROR',
          'gate is not a field of this request',
        ),
        errors: [
          { field: 'gate', messages: ['gate is not a field of this request'] },
        ],
      });
      const fields = await post({
        issued_ticket_id: 'ci_1',
        quantity: 2,
        check_in_at: 'soon',
      });
      expect(fields.body).toEqual({
        ...errorBody(
          400,
          'VALIDATION_ERROR',
          'issued_ticket_id must be an issued ticket id (it_<number>)',
        ),
        errors: [
          {
            field: 'issued_ticket_id',
            messages: [
              'issued_ticket_id must be an issued ticket id (it_<number>)',
            ],
          },
          {
            field: 'quantity',
            messages: ['quantity must be 1 (check in) or -1 (check out)'],
          },
          {
            field: 'check_in_at',
            messages: [
              'check_in_at must be Unix seconds, an integer from 0 to 253402300799',
            ],
          },
        ],
      });
    });

    it.each<[string, Json | string, string, string]>([
      [
        'no ticket',
        {},
        'issued_ticket_id',
        'issued_ticket_id or barcode is required: the ticket scanned',
      ],
      [
        'no body at all',
        '',
        'issued_ticket_id',
        'issued_ticket_id or barcode is required: the ticket scanned',
      ],
      [
        'both ways of naming it',
        { issued_ticket_id: 'it_1', barcode: 'X' },
        'barcode',
        'send issued_ticket_id or barcode, not both',
      ],
      [
        'a field twice',
        'barcode=A&barcode=B',
        'barcode',
        'barcode must be given once',
      ],
      [
        'a quantity of 1.5',
        { barcode: 'A', quantity: 1.5 },
        'quantity',
        'quantity must be 1 (check in) or -1 (check out)',
      ],
      [
        'a check_in_at of 1e9',
        'barcode=A&check_in_at=1e9',
        'check_in_at',
        'check_in_at must be Unix seconds, an integer from 0 to 253402300799',
      ],
      [
        'a quantity of null',
        { barcode: 'A', quantity: null },
        'quantity',
        'quantity must be 1 (check in) or -1 (check out)',
      ],
      [
        'an empty barcode',
        { barcode: '' },
        'barcode',
        'barcode must be 1 to 64 characters',
      ],
    ])('refuses %s', async (_, body, field, message) => {
      const res = await post(body);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({
        ...errorBody(400, 'VALIDATION_ERROR', message),
        errors: [{ field, messages: [message] }],
      });
    });

    it('refuses a barcode of null, rather than reading it as no barcode', async () => {
      for (const [body, message] of [
        [{ barcode: null }, 'barcode must be a string'],
        [
          { issued_ticket_id: 'it_1', barcode: null },
          'send issued_ticket_id or barcode, not both',
        ],
      ] as const) {
        const res = await post(body);
        expect(res.status).toBe(400);
        expect(res.body).toMatchObject({
          ...errorBody(400, 'VALIDATION_ERROR', message),
          errors: [
            {
              field: 'barcode',
              messages: expect.arrayContaining([message]) as string[],
            },
          ],
        });
      }
    });

    it('refuses a check_in_at more than 60 s ahead, or before the ticket was issued', async () => {
      const [ticket] = await tickets(1);
      const ahead = await scan(ticket, { check_in_at: (await dbNow()) + 120 });
      expect(ahead.status).toBe(400);
      expect(ahead.body).toEqual({
        ...errorBody(
          400,
          'VALIDATION_ERROR',
          expect.stringMatching(
            /^check_in_at must not be more than 60 seconds after the current time \(\d+\)$/,
          ) as string,
        ),
        errors: [
          {
            field: 'check_in_at',
            messages: [
              expect.stringMatching(/^check_in_at must not/) as string,
            ],
          },
        ],
      });
      const early = await scan(ticket, { check_in_at: ISSUED - 1 });
      expect(early.body).toEqual({
        ...errorBody(
          400,
          'VALIDATION_ERROR',
          `check_in_at must not be before the ticket was issued (${ISSUED})`,
        ),
        errors: [
          {
            field: 'check_in_at',
            messages: [
              `check_in_at must not be before the ticket was issued (${ISSUED})`,
            ],
          },
        ],
      });
      expect(await scansOf(ticket)).toBe(0);
    });

    it('answers a ticket or barcode not of this box office 404, as one that does not exist', async () => {
      const theirs = await scan(theirTicket);
      expect(theirs.status).toBe(404);
      expect(theirs.body).toEqual(
        errorBody(
          404,
          'NOT_FOUND',
          `No issued ticket it_${theirTicket.id} in this box office`,
        ),
      );
      expect((await post({ issued_ticket_id: 'it_999999' })).body).toEqual(
        errorBody(
          404,
          'NOT_FOUND',
          'No issued ticket it_999999 in this box office',
        ),
      );
      expect((await post({ issued_ticket_id: 'it_9999999999' })).body).toEqual(
        errorBody(
          404,
          'NOT_FOUND',
          'No issued ticket it_9999999999 in this box office',
        ),
      );
      expect((await post({ barcode: theirTicket.barcode })).body).toEqual(
        errorBody(
          404,
          'NOT_FOUND',
          `No issued ticket with barcode ${theirTicket.barcode} in this box office`,
        ),
      );
      expect(await scansOf(theirTicket)).toBe(0);
    });

    it.each<[string, string, string, number, string, string]>([
      [
        'text',
        'text/plain',
        'it_1',
        415,
        'UNSUPPORTED_MEDIA_TYPE',
        'Send the body as application/json or application/x-www-form-urlencoded',
      ],
      [
        'too large',
        'application/json',
        JSON.stringify({ barcode: 'x'.repeat(MAX_BODY_BYTES) }),
        413,
        'PAYLOAD_TOO_LARGE',
        `The request body must not exceed ${MAX_BODY_BYTES} bytes`,
      ],
      [
        'more than 20 form fields',
        'application/x-www-form-urlencoded',
        Array.from({ length: 21 }, (_, i) => `f${i}=1`).join('&'),
        413,
        'PAYLOAD_TOO_LARGE',
        'The request body must not have more than 20 form fields',
      ],
      [
        'JSON cut short',
        'application/json',
        '{"barcode":',
        400,
        'VALIDATION_ERROR',
        'The request body must be a JSON object',
      ],
      [
        'a JSON array',
        'application/json',
        '[1,2]',
        400,
        'VALIDATION_ERROR',
        'The request body must be a JSON object',
      ],
    ])(
      'refuses a body that is %s',
      async (_, contentType, body, status, code, message) => {
        const res = await request(t.server)
          .post('/v1/check_ins')
          .set('Authorization', basicAuth(SCAN_KEY))
          .set('Content-Type', contentType)
          .send(body);
        expect(res.status).toBe(status);
        expect(res.body).toEqual(errorBody(status, code, message));
      },
    );
  });

  describe('Idempotency-Key', () => {
    const withKey = (
      ticket: { id: number },
      key: string,
      fields: Json = {},
      apiKey = SCAN_KEY,
    ) =>
      post({ issued_ticket_id: `it_${ticket.id}`, ...fields }, apiKey).set(
        'Idempotency-Key',
        key,
      );

    it('answers a retry with the first status and body, Idempotent-Replayed, and writes nothing', async () => {
      const [ticket] = await tickets(1);
      const first = await withKey(ticket, 'door-1-scan-1');
      expect(first.status).toBe(201);
      expect(first.headers['idempotent-replayed']).toBeUndefined();
      const retry = await withKey(ticket, 'door-1-scan-1');
      expect(retry.status).toBe(201);
      expect(retry.text).toBe(first.text);
      expect(retry.headers.location).toBe(first.headers.location);
      expect(retry.headers['idempotent-replayed']).toBe('true');
      expect(await scansOf(ticket)).toBe(1);
      // A refusal is kept too: the retry of a refused scan is the same refusal.
      const refused = await withKey(ticket, 'door-2-scan-7');
      expect(refused.status).toBe(409);
      const again = await withKey(ticket, 'door-2-scan-7');
      expect(again.status).toBe(409);
      expect(again.text).toBe(refused.text);
      expect(again.headers['idempotent-replayed']).toBe('true');
      expect(again.headers['cache-control']).toBe('no-store');
    });

    it('refuses the key with another request: 422 IDEMPOTENCY_KEY_REUSED', async () => {
      const [ticket, other] = await tickets(2);
      await withKey(ticket, 'reused-key');
      const res = await withKey(other, 'reused-key');
      expect(res.status).toBe(422);
      expect(res.body).toEqual(
        errorBody(
          422,
          'IDEMPOTENCY_KEY_REUSED',
          'This Idempotency-Key was sent with a different request in the last 24 hours; use a new key for a new request',
        ),
      );
      expect(await scansOf(other)).toBe(0);
      const outward = await withKey(ticket, 'reused-key', { quantity: -1 });
      expect(outward.status).toBe(422);
    });

    it('keeps keys per API key: another key’s same Idempotency-Key is another request', async () => {
      const [ticket] = await tickets(1);
      const ours = await withKey(ticket, 'shared-key');
      expect(ours.status).toBe(201);
      const theirs = await withKey(theirTicket, 'shared-key', {}, OTHER_KEY);
      expect(theirs.status).toBe(201);
      expect(theirs.headers['idempotent-replayed']).toBeUndefined();
    });

    const scanKeyId = async () =>
      Number(
        (
          await t.dataSource.query<{ id: unknown }[]>(
            `SELECT id FROM api_keys WHERE key_prefix = 'sk_test' AND scope = 'check_in' AND box_office_id = ${office}`,
          )
        )[0].id,
      );

    (onPostgres ? it : it.skip)(
      'answers 409 IDEMPOTENCY_KEY_IN_USE at once while the first request holds the key, and runs once it is let go',
      async () => {
        const [ticket] = await tickets(1);
        const held = {
          apiKeyId: await scanKeyId(),
          key: 'held-elsewhere',
          fingerprint: '',
        };
        // The first request, on another instance: its transaction holds the key's lock.
        const first = await t.dataSource.createQueryRunner();
        try {
          await first.startTransaction();
          await first.query(
            `SELECT pg_advisory_xact_lock(${lockNumberOf(held)})`,
          );
          const busy = await withKey(ticket, held.key);
          expect(busy.status).toBe(409);
          expect(busy.body).toEqual(
            errorBody(
              409,
              'IDEMPOTENCY_KEY_IN_USE',
              'A request with this Idempotency-Key is still being processed; retry it in a moment',
            ),
          );
          expect(busy.headers['retry-after']).toBe('1');
          expect(await scansOf(ticket)).toBe(0);
          // Another key of the same API key is not held.
          expect((await withKey(ticket, 'not-held')).status).toBe(201);
        } finally {
          // It ended without an answer (its instance stopped, say): the lock goes with it.
          await first.rollbackTransaction();
          await first.release();
        }
        const retry = await withKey(ticket, held.key, { quantity: -1 });
        expect(retry.status).toBe(201);
        expect(retry.headers['idempotent-replayed']).toBeUndefined();
      },
    );

    it('answers 409 IDEMPOTENCY_KEY_IN_USE for a key whose row is a claim of an earlier release (no answer), and never writes over it', async () => {
      const [ticket] = await tickets(1);
      const apiKeyId = await scanKeyId();
      // A claim row, as releases before the advisory lock wrote one before their request's work:
      // no answer. Migration IdempotencyWithoutClaims deleted those past their lease; a younger
      // one may be of a request still running.
      await withKey(ticket, 'in-flight');
      const row = `api_key_id = ${apiKeyId} AND idempotency_key = 'in-flight'`;
      await t.dataSource.query(
        `UPDATE idempotency_keys SET status = NULL, response_body = NULL, response_headers = NULL,
           created_at = ${(await dbNow()) - 3600} WHERE ${row}`,
      );
      for (let i = 0; i < 2; i += 1) {
        const busy = await withKey(ticket, 'in-flight');
        expect(busy.status).toBe(409);
        expect(busy.body).toEqual(
          errorBody(
            409,
            'IDEMPOTENCY_KEY_IN_USE',
            'A request with this Idempotency-Key is still being processed; retry it in a moment',
          ),
        );
        expect(busy.headers['retry-after']).toBe('1');
      }
      // The first request's check-in, and no other: an older claim is not taken over either.
      expect(await scansOf(ticket)).toBe(1);
    });

    it('rolls back a scan whose key was answered while it ran, and replays that answer', async () => {
      const [ticket] = await tickets(1);
      const keys = new IdempotencyKeys(dialectFor(t.dataSource.options.type));
      const write = writeTransactions(t.dataSource);
      const read = statementWrites(t.dataSource);
      const request = {
        apiKeyId: await scanKeyId(),
        key: 'answered-meanwhile',
        fingerprint: 'f'.repeat(64),
      };
      const answer = { status: 201, headers: { Location: '/x' }, body: '{}' };
      await write(() => keys.keepAnswer(request, answer));
      // A second request with the key writes a check-in, then finds the answer when it keeps its.
      const late = write(function* () {
        yield {
          sql: `INSERT INTO check_ins (box_office_id, issued_ticket_id, event_id, event_series_id,
                  quantity, check_in_at, created_at)
                VALUES (${office}, ${ticket.id}, ${event.id}, ${event.eventSeriesId}, 1, ${ISSUED}, ${ISSUED})`,
          params: [],
        };
        yield* keys.keepAnswer(request, { ...answer, status: 409 });
      });
      await expect(late).rejects.toBeInstanceOf(KeyTaken);
      expect(await scansOf(ticket)).toBe(0);
      expect(await read(() => keys.keptAnswer(request))).toEqual({
        ...answer,
        headers: { ...answer.headers, 'Idempotent-Replayed': 'true' },
      });
      // With another request, the key's row is a 422.
      const other = { ...request, fingerprint: 'other' };
      await expect(read(() => keys.keptAnswer(other))).rejects.toMatchObject({
        code: 'IDEMPOTENCY_KEY_REUSED',
      });
    });

    it('answers a retry with the first answer even when its scan would now be 404', async () => {
      const [ticket] = await tickets(1);
      const first = await withKey(ticket, 'before-the-move');
      expect(first.status).toBe(201);
      // The ticket was deleted meanwhile: a new scan of it is 404.
      await t.dataSource.query(
        `DELETE FROM issued_tickets WHERE id = ${ticket.id}`,
      );
      const retry = await withKey(ticket, 'before-the-move');
      expect(retry.status).toBe(201);
      expect(retry.text).toBe(first.text);
      expect(retry.headers['idempotent-replayed']).toBe('true');
      expect((await scan(ticket)).status).toBe(404);
    });

    it('forgets an answer after 24 hours, and removes it', async () => {
      const [ticket] = await tickets(1);
      await withKey(ticket, 'yesterday');
      await t.dataSource.query(
        `UPDATE idempotency_keys SET created_at = created_at - ${DAY} WHERE idempotency_key = 'yesterday'`,
      );
      const out = await withKey(ticket, 'yesterday', { quantity: -1 });
      expect(out.status).toBe(201);
      expect(out.headers['idempotent-replayed']).toBeUndefined();
      await t.dataSource.query(
        `UPDATE idempotency_keys SET created_at = created_at - ${DAY} WHERE idempotency_key = 'yesterday'`,
      );
      const kept = await count('FROM idempotency_keys');
      expect(await deleteExpiredIdempotencyKeys(t.dataSource, 2)).toBe(1);
      expect(await count('FROM idempotency_keys')).toBe(kept - 1);
    });

    it('gives the key back when the scan ends without an answer to keep (404, 400)', async () => {
      const missing = await post({ issued_ticket_id: 'it_999998' }).set(
        'Idempotency-Key',
        'not-yet',
      );
      expect(missing.status).toBe(404);
      expect(
        await count("FROM idempotency_keys WHERE idempotency_key = 'not-yet'"),
      ).toBe(0);
    });

    it('refuses a key that is not 1 to 255 printable ASCII characters', async () => {
      const [ticket] = await tickets(1);
      for (const key of ['k'.repeat(256), 'tab\there']) {
        const res = await withKey(ticket, key);
        expect(res.status).toBe(400);
        expect(res.body).toEqual(
          errorBody(
            400,
            'VALIDATION_ERROR',
            'Idempotency-Key must be 1 to 255 printable ASCII characters',
          ),
        );
      }
      expect(await scansOf(ticket)).toBe(0);
      // Before the ticket is looked up (docs/API.md, Precedence): an id too large for any row.
      const first = await post({ issued_ticket_id: 'it_9999999999' }).set(
        'Idempotency-Key',
        'tab\there',
      );
      expect(first.status).toBe(400);
    });
  });

  describe('HTTP', () => {
    it('answers other methods 405 with Allow', async () => {
      for (const method of ['put', 'patch', 'delete'] as const) {
        const res = await request(t.server)
          [method]('/v1/check_ins')
          .set('Authorization', basicAuth(SCAN_KEY));
        expect(res.status).toBe(405);
        expect(res.headers.allow).toBe('GET, HEAD, OPTIONS, POST');
        expect(res.body).toEqual(
          errorBody(
            405,
            'METHOD_NOT_ALLOWED',
            `${method.toUpperCase()} is not allowed on /v1/check_ins; use GET, HEAD, OPTIONS, POST`,
          ),
        );
      }
      const one = await request(t.server)
        .post('/v1/check_ins/ci_1')
        .set('Authorization', basicAuth(SCAN_KEY))
        .send({ quantity: 1 });
      expect(one.status).toBe(405);
      expect(one.headers.allow).toBe('GET, HEAD, OPTIONS');
      const orders = await request(t.server)
        .post('/v1/orders')
        .set('Authorization', basicAuth(SCAN_KEY))
        .set('Content-Type', 'text/plain')
        .send('x');
      expect(orders.status).toBe(405);
    });

    it('counts writes against the rate limit', async () => {
      const [ticket] = await tickets(1);
      const before = Number(
        (await get('/v1/ping')).headers['x-rate-limit-remaining'],
      );
      const res = await scan(ticket);
      expect(Number(res.headers['x-rate-limit-remaining'])).toBe(before - 1);
    });

    it('lets browsers POST with Content-Type and Idempotency-Key (CORS)', async () => {
      const res = await request(t.server)
        .options('/v1/check_ins')
        .set('Origin', 'https://door.example')
        .set('Access-Control-Request-Method', 'POST')
        .set(
          'Access-Control-Request-Headers',
          'authorization,content-type,idempotency-key',
        );
      expect(res.status).toBe(204);
      expect(res.headers['access-control-allow-methods']).toContain('POST');
      expect(
        String(res.headers['access-control-allow-headers']).split(','),
      ).toEqual(
        expect.arrayContaining([
          'Authorization',
          'Content-Type',
          'Idempotency-Key',
        ]),
      );
      const [ticket] = await tickets(1);
      const posted = await scan(ticket).set('Origin', 'https://door.example');
      expect(posted.headers['access-control-expose-headers']).toContain(
        'Location',
      );
    });
  });
});
