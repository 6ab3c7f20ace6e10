import request from 'supertest';
import { MESSAGES, errorBody } from './utils/api';
import {
  type TestApp,
  basicAuth,
  createTestApp,
} from './utils/create-test-app';
import { Factory } from './utils/factories';
import { onPostgres } from './utils/test-database';

// docs/OPERATIONS.md, "Deadlocks": a refusal PostgreSQL gives a write transaction that lost a race
// (40P01 deadlock, 40001 serialization failure, 55P03 lock not available) is retried; one that
// still reaches the API, or a statement time-out (57014), is answered 503 with Retry-After, never
// 500. Each is forced here by a trigger on the scan's insert. PostgreSQL only: SQLite has none of
// these (its busy file is a 503 of its own, test/check-ins-record.e2e-spec.ts).

const SCAN_KEY = 'sk_test_refusals_scan';
/** What the app is given as DB_STATEMENT_TIMEOUT_MS: the forced slow insert outlasts it. */
const STATEMENT_TIMEOUT_MS = 1000;

const describeOnPostgres = onPostgres ? describe : describe.skip;

describeOnPostgres('a refusal of the database reaching the API', () => {
  let t: TestApp;
  let f: Factory;
  let office: number;
  let eventId: number;

  beforeAll(async () => {
    t = await createTestApp({
      RATE_LIMIT_MAX: '1000000',
      DB_STATEMENT_TIMEOUT_MS: String(STATEMENT_TIMEOUT_MS),
    });
    f = new Factory(t.dataSource);
    office = (await f.boxOffice('Refusals')).id;
    await f.apiKey(office, SCAN_KEY, false, 'check_in');
    eventId = (await f.event(office)).id;
    // The refusal to give to the first `times` attempts (none: the insert goes through), and how
    // many inserts were tried: a sequence, which a rollback does not take back.
    await t.dataSource.query(
      'CREATE TABLE forced_refusal (code text NOT NULL, times integer NOT NULL)',
    );
    await t.dataSource.query('CREATE SEQUENCE forced_refusal_attempts');
    await t.dataSource.query(
      `CREATE FUNCTION forced_refusal() RETURNS trigger LANGUAGE plpgsql AS $$
         DECLARE
           refusal text := (SELECT code FROM forced_refusal LIMIT 1);
           times integer := (SELECT times FROM forced_refusal LIMIT 1);
         BEGIN
           IF refusal IS NULL THEN RETURN NEW; END IF;
           IF nextval('forced_refusal_attempts') > times THEN RETURN NEW; END IF;
           IF refusal = '57014' THEN
             PERFORM pg_sleep(${(STATEMENT_TIMEOUT_MS * 3) / 1000});
           END IF;
           RAISE EXCEPTION 'forced by the test' USING ERRCODE = refusal;
         END $$`,
    );
    await t.dataSource.query(
      `CREATE TRIGGER trg_forced_refusal BEFORE INSERT ON check_ins
         FOR EACH ROW EXECUTE FUNCTION forced_refusal()`,
    );
  });

  afterAll(() => t.close());

  async function force(code: string, times = 100) {
    await t.dataSource.query('DELETE FROM forced_refusal');
    await t.dataSource.query(
      'INSERT INTO forced_refusal (code, times) VALUES ($1, $2)',
      [code, times],
    );
    await t.dataSource.query(
      "SELECT setval('forced_refusal_attempts', 1, false)",
    );
  }

  const attempts = async () =>
    Number(
      (
        await t.dataSource.query<{ last_value: string; is_called: boolean }[]>(
          'SELECT last_value, is_called FROM forced_refusal_attempts',
        )
      ).map((r) => (r.is_called ? Number(r.last_value) : 0))[0],
    );

  async function scanOfNewTicket() {
    const [order] = await f.orders(office, eventId, [
      { createdAt: 1_750_000_000 },
    ]);
    const ticket = order.issuedTickets![0];
    const res = await request(t.server)
      .post('/v1/check_ins')
      .set('Authorization', basicAuth(SCAN_KEY))
      .send({ issued_ticket_id: `it_${ticket.id}` });
    const [{ n }] = await t.dataSource.query<{ n: string }[]>(
      'SELECT count(*) AS n FROM check_ins WHERE issued_ticket_id = $1',
      [ticket.id],
    );
    return { res, stored: Number(n) };
  }

  it.each([
    ['40P01', 'a deadlock'],
    ['40001', 'a serialization failure'],
    ['55P03', 'a lock not available'],
  ])(
    '%s (%s) is retried, three attempts in all, then answered 503 with Retry-After',
    async (code) => {
      await force(code);
      const { res, stored } = await scanOfNewTicket();
      expect(res.status).toBe(503);
      expect(res.headers['retry-after']).toBe('1');
      expect(res.body).toEqual(
        errorBody(
          503,
          'SERVICE_UNAVAILABLE',
          'The database refused the write, busy with others at the same moment; nothing was written, retry shortly',
        ),
      );
      expect(await attempts()).toBe(3);
      expect(stored).toBe(0);
    },
  );

  it('a statement time-out (57014) is answered 503 with Retry-After, not retried', async () => {
    await force('57014');
    const { res, stored } = await scanOfNewTicket();
    expect(res.status).toBe(503);
    expect(res.headers['retry-after']).toBe('5');
    expect(res.body).toEqual(
      errorBody(503, 'SERVICE_UNAVAILABLE', MESSAGES.databaseUnavailable),
    );
    expect(await attempts()).toBe(1);
    expect(stored).toBe(0);
  });

  it('a deadlock that goes away before the attempts run out is not seen: the scan is stored', async () => {
    await force('40P01', 1);
    const { res, stored } = await scanOfNewTicket();
    expect(res.status).toBe(201);
    expect(await attempts()).toBe(2);
    expect(stored).toBe(1);
  });
});
