import type { NestExpressApplication } from '@nestjs/platform-express';
import { DataSource } from 'typeorm';
import { hashApiKey } from '../src/auth/api-key-format';
import { idempotentRequest } from '../src/common/idempotency/idempotency-keys';
import { MIGRATIONS } from '../src/database/data-source-options';
import { AttendanceCounts1766920000000 } from '../src/database/migrations/1766920000000-AttendanceCounts';
import { IdempotencyWithoutClaims1766620000000 } from '../src/database/migrations/1766620000000-IdempotencyWithoutClaims';
import { basicAuth, startOn } from './utils/create-test-app';
import { errorBody } from './utils/api';
import { Factory } from './utils/factories';
import {
  durableTestDatabase,
  openWithMigrations,
  schemaSnapshot,
} from './utils/migrated-database';
import type { TestDatabase } from './utils/test-database';

// docs/OPERATIONS.md, "Upgrade notes": Idempotency-Keys kept by the release before this one
// (claim_token and claimed_at in every row, and claim rows without an answer from the releases
// before it) on a database this release migrates: answers are replayed, a claim past its lease
// is gone, a younger one is 409 and never replayed or written over, and this release's rows
// leave the claim columns null. On SQLite by default, on PostgreSQL under
// `npm run test:e2e:postgres`.

const KEY = 'sk_made_before_claims_went';
const MIGRATION = MIGRATIONS.indexOf(IdempotencyWithoutClaims1766620000000);

describe('Idempotency-Keys on a database migrated past claims', () => {
  let database: TestDatabase;
  let app: NestExpressApplication;
  let base: string;
  let ticket: number;
  let otherTicket: number;

  const scan = (key: string, issuedTicket: number) =>
    fetch(`${base}/v1/check_ins`, {
      method: 'POST',
      headers: {
        Authorization: basicAuth(KEY),
        'Content-Type': 'application/json',
        'Idempotency-Key': key,
      },
      body: JSON.stringify({ issued_ticket_id: `it_${issuedTicket}` }),
    });
  const db = () => app.get(DataSource);
  const keyRows = async () =>
    (
      await db().query<
        { idempotency_key: string; claim_token: unknown; claimed_at: unknown }[]
      >(
        'SELECT idempotency_key, claim_token, claimed_at FROM idempotency_keys ORDER BY idempotency_key',
      )
    ).map((row) => ({
      key: row.idempotency_key,
      claimed: row.claim_token !== null && row.claimed_at !== null,
    }));
  const scansOf = async (issuedTicket: number) =>
    Number(
      (
        await db().query<{ n: number | string }[]>(
          `SELECT count(*) AS n FROM check_ins WHERE issued_ticket_id = ${issuedTicket}`,
        )
      )[0].n,
    );

  beforeAll(async () => {
    database = await durableTestDatabase();
    // The previous release's schema, with the columns the entities of this one write (migration
    // AttendanceCounts' `issued_tickets.entered`, applied early here) so that the factory can.
    const previous = await openWithMigrations(database.url, [
      ...MIGRATIONS.slice(0, MIGRATION),
      AttendanceCounts1766920000000,
    ]);
    const f = new Factory(previous);
    const office = await f.boxOffice('Before claims went');
    await previous.query(
      `INSERT INTO api_keys (id, box_office_id, name, key_hash, key_prefix, created_at, scope)
       VALUES (1, ${office.id}, 'door', '${hashApiKey(KEY)}', 'sk_made', 1700000000, 'check_in')`,
    );
    const event = await f.event(office.id);
    const [order] = await f.orders(office.id, event.id, [{}, {}]);
    [ticket, otherTicket] = order.issuedTickets!.map((t) => t.id);
    const [{ now }] = await previous.query<{ now: number | string }[]>(
      previous.options.type === 'postgres'
        ? 'SELECT floor(extract(epoch FROM clock_timestamp()))::bigint AS now'
        : 'SELECT unixepoch() AS now',
    );
    const at = Number(now);
    // The same request (a check-in of `ticket`) for each key.
    const fingerprint = idempotentRequest('answered', 1, {
      operation: 'POST /v1/check_ins',
      ticket: { id: ticket },
      quantity: 1,
      checkInAt: null,
    }).fingerprint;
    // As the previous release kept an answer (a claim token in every row), and as the releases
    // before it left a claim: one lost long ago, one of a request that may still be running.
    for (const [key, status, age] of [
      ['answered', 201, 10],
      ['lost-claim', null, 120],
      ['running-claim', null, 5],
    ] as const) {
      await previous.query(
        `INSERT INTO idempotency_keys (api_key_id, idempotency_key, request_hash, claim_token,
           claimed_at, created_at, status, response_headers, response_body)
         VALUES (1, '${key}', '${fingerprint}', 'token-${key}', ${at - age}, ${at - age},
           ${status ?? 'NULL'}, ${status ? `'{"Location":"/v1/check_ins/ci_77"}'` : 'NULL'},
           ${status ? `'{"kept":true}'` : 'NULL'})`,
      );
    }
    await previous.destroy();
    // The service as deployed: it applies the pending migrations when it starts.
    ({ app, base } = await startOn(database.url));
  });

  afterAll(async () => {
    await app?.close();
    await database?.drop();
  });

  it('deleted the claim past its lease and kept the answer and the younger claim', async () => {
    expect(await keyRows()).toEqual([
      { key: 'answered', claimed: true },
      { key: 'running-claim', claimed: true },
    ]);
  });

  it('replays an answer the previous release kept', async () => {
    const res = await scan('answered', ticket);
    expect(res.status).toBe(201);
    expect(await res.text()).toBe('{"kept":true}');
    expect(res.headers.get('idempotent-replayed')).toBe('true');
    expect(res.headers.get('location')).toBe('/v1/check_ins/ci_77');
    expect(await scansOf(ticket)).toBe(0);
  });

  it('answers a key whose row is a claim 409, writing nothing, and never takes it over', async () => {
    for (let i = 0; i < 2; i += 1) {
      const res = await scan('running-claim', ticket);
      expect(res.status).toBe(409);
      expect(await res.json()).toEqual(
        errorBody(
          409,
          'IDEMPOTENCY_KEY_IN_USE',
          'A request with this Idempotency-Key is still being processed; retry it in a moment',
        ),
      );
    }
    expect(await scansOf(ticket)).toBe(0);
  });

  it('keeps a new answer without the claim columns', async () => {
    const res = await scan('new', otherTicket);
    expect(res.status).toBe(201);
    expect(await scansOf(otherTicket)).toBe(1);
    expect(await keyRows()).toContainEqual({ key: 'new', claimed: false });
    const again = await scan('new', otherTicket);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(await scansOf(otherTicket)).toBe(1);
  });
});

describe('migration IdempotencyWithoutClaims, reverted', () => {
  let database: TestDatabase;

  beforeAll(async () => {
    database = await durableTestDatabase();
  });
  afterAll(() => database.drop());

  it('restores exactly the schema before it, giving the rows this release kept a claim', async () => {
    const before = await openWithMigrations(
      database.url,
      MIGRATIONS.slice(0, MIGRATION),
    );
    const previousSchema = await schemaSnapshot(before);
    const office = await new Factory(before).boxOffice();
    await before.query(
      `INSERT INTO api_keys (id, box_office_id, name, key_hash, key_prefix, created_at, scope)
       VALUES (1, ${office.id}, 'door', '${hashApiKey(KEY)}', 'sk_made', 1700000000, 'check_in')`,
    );
    await before.destroy();

    const current = await openWithMigrations(
      database.url,
      MIGRATIONS.slice(0, MIGRATION + 1),
    );
    try {
      expect(await schemaSnapshot(current)).not.toEqual(previousSchema);
      await current.query(
        `INSERT INTO idempotency_keys (api_key_id, idempotency_key, request_hash, created_at,
           status, response_headers, response_body)
         VALUES (1, 'kept-now', 'f', 1700000100, 201, '{}', '{}')`,
      );
      await current.undoLastMigration({ transaction: 'each' });
      expect(await schemaSnapshot(current)).toEqual(previousSchema);
      const [row] = await current.query<
        { claim_token: string; claimed_at: number | string }[]
      >(
        "SELECT claim_token, claimed_at FROM idempotency_keys WHERE idempotency_key = 'kept-now'",
      );
      expect(row.claim_token).toMatch(/^[0-9a-f]{32}$/);
      expect(Number(row.claimed_at)).toBe(1700000100);
    } finally {
      await current.destroy();
    }
  });
});
