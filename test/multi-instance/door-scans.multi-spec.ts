import { DataSource } from 'typeorm';
import { changeHead } from '../../src/changes/change-feed';
import { basicAuth } from '../utils/create-test-app';
import { Factory } from '../utils/factories';
import type { TestDatabase } from '../utils/test-database';
import { type Kind, freshDatabase, openDatabase } from './databases';
import { type ServerProcess, startServer } from './server-process';

// docs/API.md, "POST /v1/check_ins": many gates scanning at once, through two instances of the
// built service on one database (a PostgreSQL database; one SQLite file): of any number of
// simultaneous scans of one ticket exactly one lets it in, and a retry with the same
// Idempotency-Key gets the first answer on either instance, never a second check-in.

const KEY = 'sk_multi_instance_door';
const TICKETS = 6;
/** Simultaneous scans of each ticket, half through each instance. */
const SCANS = 24;

interface Answer {
  status: number;
  body: Record<string, unknown>;
  text: string;
  replayed: string | null;
}

describe.each<Kind>(['postgres', 'sqlite'])(
  'door scans through two instances on one %s database',
  (kind) => {
    let database: TestDatabase;
    let dataSource: DataSource;
    let servers: ServerProcess[];
    let tickets: number[];
    let officeId: number;

    beforeAll(async () => {
      database = await freshDatabase(kind);
      dataSource = await openDatabase(database.url);
      const f = new Factory(dataSource);
      const office = await f.boxOffice('Doors');
      officeId = office.id;
      await f.apiKey(office.id, KEY, false, 'check_in');
      const event = await f.event(office.id);
      const orders = await f.orders(
        office.id,
        event.id,
        Array.from({ length: TICKETS }, () => ({})),
      );
      // One ticket per order: the others stay unscanned, so each order sees one scan's updates.
      tickets = orders.map((order) => order.issuedTickets![0].id);
      const env = { DATABASE_URL: database.url, RATE_LIMIT_MAX: '1000000' };
      servers = await Promise.all([startServer(env), startServer(env)]);
    });

    afterAll(async () => {
      await Promise.all((servers ?? []).map((server) => server.stop()));
      await dataSource?.destroy();
      await database?.drop();
    });

    async function scan(
      server: ServerProcess,
      body: Record<string, unknown>,
      idempotencyKey?: string,
    ): Promise<Answer> {
      const res = await fetch(`${server.url}/v1/check_ins`, {
        method: 'POST',
        headers: {
          Authorization: basicAuth(KEY),
          'Content-Type': 'application/json',
          ...(idempotencyKey ? { 'Idempotency-Key': idempotencyKey } : {}),
        },
        body: JSON.stringify(body),
      });
      const text = await res.text();
      return {
        status: res.status,
        body: JSON.parse(text) as Record<string, unknown>,
        text,
        replayed: res.headers.get('idempotent-replayed'),
      };
    }

    const checkInsOf = async (ticket: number) =>
      dataSource.query<{ id: unknown; quantity: unknown }[]>(
        `SELECT id, quantity FROM check_ins WHERE issued_ticket_id = ${ticket}`,
      );

    it(`lets exactly one of ${SCANS} simultaneous scans of each ticket in, the others 409 with that check-in`, async () => {
      const answers = await Promise.all(
        tickets.flatMap((ticket) =>
          Array.from({ length: SCANS }, (_, i) =>
            scan(servers[i % 2], { issued_ticket_id: `it_${ticket}` }).then(
              (answer) => ({ ticket, answer }),
            ),
          ),
        ),
      );
      for (const ticket of tickets) {
        const mine = answers
          .filter((a) => a.ticket === ticket)
          .map((a) => a.answer);
        const created = mine.filter((a) => a.status === 201);
        expect(created).toHaveLength(1);
        const refused = mine.filter((a) => a.status === 409);
        expect(refused).toHaveLength(SCANS - 1);
        for (const answer of refused) {
          expect(answer.body).toMatchObject({
            error_code: 'ALREADY_CHECKED_IN',
            check_in: created[0].body,
          });
        }
        const rows = await checkInsOf(ticket);
        expect(rows).toHaveLength(1);
        expect(`ci_${Number(rows[0].id)}`).toBe(created[0].body.id);
      }
    });

    it('gives every retry of one Idempotency-Key, on either instance, the first answer, and records one check-out', async () => {
      const ticket = tickets[0];
      const body = { issued_ticket_id: `it_${ticket}`, quantity: -1 };
      const key = `door-7-${kind}`;
      const answers = await Promise.all(
        Array.from({ length: SCANS }, (_, i) =>
          scan(servers[i % 2], body, key),
        ),
      );
      const created = answers.filter((a) => a.status === 201);
      const busy = answers.filter((a) => a.status === 409);
      expect(created.length + busy.length).toBe(SCANS);
      for (const answer of busy) {
        expect(answer.body.error_code).toBe('IDEMPOTENCY_KEY_IN_USE');
      }
      // One of them ran; any other 201 is its answer again.
      expect(created.filter((a) => a.replayed === null)).toHaveLength(1);
      for (const answer of created) expect(answer.text).toBe(created[0].text);
      // Later retries, on both instances: the same answer, nothing written.
      for (const server of servers) {
        const retry = await scan(server, body, key);
        expect(retry).toEqual({ ...created[0], replayed: 'true' });
      }
      expect(
        (await checkInsOf(ticket)).map((row) => Number(row.quantity)),
      ).toEqual([1, -1]);
      // The key with another scan is refused on either instance.
      const other = await scan(
        servers[1],
        { issued_ticket_id: `it_${tickets[1]}`, quantity: -1 },
        key,
      );
      expect(other.status).toBe(422);
    });

    // docs/DESIGN.md, "Change feed design": a scan's entry is written as it commits and numbered
    // after (PostgreSQL), in commit order all the same: one CHECK_IN.CREATED a check-in, and the
    // box office's ids 1..head with no gap, after all the scans above ran at once through both
    // instances.
    it('gave every check-in recorded above exactly one entry, the box office numbered without a gap', async () => {
      // The feed's head first, as a poller reads it: on PostgreSQL that numbers what is waiting.
      await changeHead(dataSource, officeId);
      const checkIns = await dataSource.query<{ id: unknown }[]>(
        `SELECT id FROM check_ins WHERE box_office_id = ${officeId} ORDER BY id`,
      );
      const entries = await dataSource.query<{ resource_id: unknown }[]>(
        `SELECT resource_id FROM changes
          WHERE box_office_id = ${officeId} AND type = 'CHECK_IN.CREATED' ORDER BY resource_id`,
      );
      expect(checkIns.length).toBe(TICKETS + 1);
      expect(entries.map((e) => Number(e.resource_id))).toEqual(
        checkIns.map((c) => Number(c.id)),
      );
      const [ids] = await dataSource.query<{ n: unknown; head: unknown }[]>(
        `SELECT count(*) AS n, max(id) AS head FROM changes WHERE box_office_id = ${officeId}`,
      );
      expect(Number(ids.n)).toBe(Number(ids.head));
    });
  },
);
