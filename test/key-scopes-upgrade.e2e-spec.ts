import type { NestExpressApplication } from '@nestjs/platform-express';
import { DataSource } from 'typeorm';
import { hashApiKey } from '../src/auth/api-key-format';
import { MIGRATIONS } from '../src/database/data-source-options';
import { CheckInWrites1766200000000 } from '../src/database/migrations/1766200000000-CheckInWrites';
import { WriteScope1766600000000 } from '../src/database/migrations/1766600000000-WriteScope';
import { basicAuth, startOn } from './utils/create-test-app';
import { Factory } from './utils/factories';
import {
  durableTestDatabase,
  openWithMigrations,
} from './utils/migrated-database';
import type { TestDatabase } from './utils/test-database';

// docs/API.md, "Key scopes" and Upgrading: a database whose keys were made before scopes existed,
// migrated by this release, keeps every key reading exactly as before, and a key of scope check_in
// (made before scope write existed) keeps recording scans and nothing more; only the demo key of
// box office 1 may also record scans and issue and void tickets. On SQLite by default, on
// PostgreSQL under `npm run test:e2e:postgres`.

const OLD_KEY = 'sk_made_before_scopes';
const DEMO_KEY = 'sk_demo_boxoffice_1';
const DOOR_KEY = 'sk_made_before_write_scope';

describe('key scopes on an upgraded database', () => {
  let database: TestDatabase;
  let app: NestExpressApplication;
  let base: string;
  let ticket: number;
  let eventId: number;
  let ticketTypeId: number;

  const call = (key: string, path: string, body?: object) =>
    fetch(`${base}${path}`, {
      method: body ? 'POST' : 'GET',
      headers: {
        Authorization: basicAuth(key),
        ...(body ? { 'Content-Type': 'application/json' } : {}),
      },
      body: body ? JSON.stringify(body) : undefined,
    });

  beforeAll(async () => {
    database = await durableTestDatabase();
    const before = MIGRATIONS.slice(
      0,
      MIGRATIONS.indexOf(CheckInWrites1766200000000),
    );
    const previous = await openWithMigrations(database.url, before);
    const office = await new Factory(previous).boxOffice('Before scopes');
    // As the key CLI of the previous release wrote them: no scope column yet.
    for (const [id, key] of [
      [1, DEMO_KEY],
      [2, OLD_KEY],
    ] as const) {
      await previous.query(
        `INSERT INTO api_keys (id, box_office_id, name, key_hash, key_prefix, created_at)
         VALUES (${id}, ${office.id}, 'old', '${hashApiKey(key)}', '${key.slice(0, 7)}', 1700000000)`,
      );
    }
    await previous.destroy();
    // A door key as the release before scope write made it.
    const beforeWrites = await openWithMigrations(
      database.url,
      MIGRATIONS.slice(0, MIGRATIONS.indexOf(WriteScope1766600000000)),
    );
    await beforeWrites.query(
      `INSERT INTO api_keys (id, box_office_id, name, key_hash, key_prefix, created_at, scope)
       VALUES (3, ${office.id}, 'door', '${hashApiKey(DOOR_KEY)}', 'sk_made', 1700000000, 'check_in')`,
    );
    await beforeWrites.destroy();

    // The service as deployed: it applies the pending migrations when it starts.
    ({ app, base } = await startOn(database.url));
    // Tickets as this release's entities have them.
    const f = new Factory(app.get(DataSource));
    const event = await f.event(office.id);
    const [order] = await f.orders(office.id, event.id, [{}]);
    ticket = order.issuedTickets![0].id;
    eventId = event.id;
    ticketTypeId = (await f.ticketType(event.id)).id;
  });

  afterAll(async () => {
    await app?.close();
    await database?.drop();
  });

  it('gave every existing key its scope, and the demo key of box office 1 write', async () => {
    const rows = await app
      .get(DataSource)
      .query<{ id: number; scope: string }[]>(
        'SELECT id, scope FROM api_keys ORDER BY id',
      );
    expect(rows.map((row) => [Number(row.id), row.scope])).toEqual([
      [1, 'write'],
      [2, 'read'],
      [3, 'check_in'],
    ]);
  });

  it('lets an existing key read as before, and refuses it a scan (403) without writing', async () => {
    const list = await call(OLD_KEY, '/v1/orders');
    expect(list.status).toBe(200);
    const scan = await call(OLD_KEY, '/v1/check_ins', {
      issued_ticket_id: `it_${ticket}`,
    });
    expect(scan.status).toBe(403);
    expect(
      (
        (await (await call(OLD_KEY, '/v1/check_ins')).json()) as {
          data: unknown[];
        }
      ).data,
    ).toEqual([]);
  });

  it('lets the demo key record a scan', async () => {
    const scan = await call(DEMO_KEY, '/v1/check_ins', {
      issued_ticket_id: `it_${ticket}`,
    });
    expect(scan.status).toBe(201);
  });

  it('lets a check_in key made before scope write record a scan, and refuses it an issue (403)', async () => {
    const scan = await call(DOOR_KEY, '/v1/check_ins', {
      issued_ticket_id: `it_${ticket}`,
      quantity: -1,
    });
    // Decided by the ticket's state (in or out, as the tests before left it), not refused 403.
    expect([201, 409]).toContain(scan.status);
    const issue = await call(DOOR_KEY, '/v1/issued_tickets', {
      event_id: `ev_${eventId}`,
      ticket_type_id: `tt_${ticketTypeId}`,
    });
    expect(issue.status).toBe(403);
  });

  it('lets the demo key issue a ticket', async () => {
    const issue = await call(DEMO_KEY, '/v1/issued_tickets', {
      event_id: `ev_${eventId}`,
      ticket_type_id: `tt_${ticketTypeId}`,
    });
    expect(issue.status).toBe(201);
  });
});
