import { DataSource } from 'typeorm';
import { basicAuth } from '../utils/create-test-app';
import { Factory } from '../utils/factories';
import type { TestDatabase } from '../utils/test-database';
import { type Kind, freshDatabase, openDatabase } from './databases';
import { type ServerProcess, startServer } from './server-process';
import { countsReadIn } from '../../src/database/pending-counts';

// docs/API.md, "POST /v1/issued_tickets": simultaneous issues through two instances of the built
// service on one database (a PostgreSQL database; one SQLite file) never exceed what a ticket type
// has left, and a retry with the same Idempotency-Key on the other instance gets the first answer.

const KEY = 'sk_multi_instance_issues';
const LEFT = 7;
/** Simultaneous issues, half through each instance. */
const ISSUES = 40;

describe.each<Kind>(['postgres', 'sqlite'])(
  'ticket issues through two instances on one %s database',
  (kind) => {
    let database: TestDatabase;
    let dataSource: DataSource;
    let servers: ServerProcess[];
    let eventId: number;
    let typeId: number;

    beforeAll(async () => {
      database = await freshDatabase(kind);
      dataSource = await openDatabase(database.url);
      const f = new Factory(dataSource);
      const office = await f.boxOffice('Guest lists');
      await f.apiKey(office.id, KEY, false, 'write');
      eventId = (await f.event(office.id)).id;
      typeId = (
        await f.ticketType(eventId, { quantityTotal: LEFT, status: 'hidden' })
      ).id;
      const env = { DATABASE_URL: database.url, RATE_LIMIT_MAX: '1000000' };
      servers = await Promise.all([startServer(env), startServer(env)]);
    });

    afterAll(async () => {
      await Promise.all((servers ?? []).map((server) => server.stop()));
      await dataSource?.destroy();
      await database?.drop();
    });

    const issue = async (server: ServerProcess, idempotencyKey?: string) => {
      const res = await fetch(`${server.url}/v1/issued_tickets`, {
        method: 'POST',
        headers: {
          Authorization: basicAuth(KEY),
          'Content-Type': 'application/json',
          ...(idempotencyKey ? { 'Idempotency-Key': idempotencyKey } : {}),
        },
        body: JSON.stringify({
          event_id: `ev_${eventId}`,
          ticket_type_id: `tt_${typeId}`,
        }),
      });
      return {
        status: res.status,
        text: await res.text(),
        replayed: res.headers.get('idempotent-replayed'),
      };
    };

    it(`creates exactly ${LEFT} of ${ISSUES} simultaneous issues, and answers the rest SOLD_OUT`, async () => {
      const answers = await Promise.all(
        Array.from({ length: ISSUES }, (_, i) => issue(servers[i % 2])),
      );
      const created = answers.filter((answer) => answer.status === 201);
      const refused = answers.filter((answer) => answer.status === 409);
      expect([created.length, refused.length]).toEqual([LEFT, ISSUES - LEFT]);
      for (const answer of refused) {
        expect(JSON.parse(answer.text)).toMatchObject({
          error_code: 'SOLD_OUT',
        });
      }
      // quantity_issued as the service reads it: on PostgreSQL the row plus the deltas the sweep
      // has not folded yet (migration CountsWithoutHotRows).
      const { asRead } = await countsReadIn(kind, (sql) =>
        dataSource.query(sql),
      );
      const [row] = await dataSource.query<{ n: unknown; issued: unknown }[]>(
        asRead(
          `SELECT (SELECT count(*) FROM issued_tickets WHERE ticket_type_id = ${typeId}) AS n,
                tt.quantity_issued AS issued
           FROM ticket_types tt WHERE tt.id = ${typeId}`,
        ),
      );
      expect([Number(row.n), Number(row.issued)]).toEqual([LEFT, LEFT]);
    });

    it("answers a retry on the other instance with the first answer (the key's SOLD_OUT too)", async () => {
      const first = await issue(servers[0], 'multi-issue-1');
      const retry = await issue(servers[1], 'multi-issue-1');
      expect([retry.status, retry.text, retry.replayed]).toEqual([
        first.status,
        first.text,
        'true',
      ]);
    });
  },
);
