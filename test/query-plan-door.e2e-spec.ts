import { EventAttendanceService } from '../src/events/event-attendance.service';
import { IssuedTicketsService } from '../src/issued-tickets/issued-tickets.service';
import type { ReadRows } from '../src/database/row-reader';
import { type Get, getAs } from './utils/api';
import { type TestApp, createTestApp } from './utils/create-test-app';
import { Factory } from './utils/factories';
import { onPostgres } from './utils/test-database';
import { type Statement, planOf, recordStatements } from './utils/query-plans';

const KEY = 'sk_query_plan_door';

/**
 * The door's look-up and numbers read through the indexes made for them (migration
 * IssuedTicketSearch; docs/API.md, "Searching issued tickets" and
 * "GET /v1/events/{event_id}/attendance"): a search of three characters or more through the
 * trigram indexes, not by folding every ticket; the attendance through the index that holds every
 * column it reads of a ticket and the check-outs' own. Checked on the statements the services
 * really send, on either database.
 */
describe('door queries: plans', () => {
  let t: TestApp;
  let get: Get;
  let statements: Statement[];
  let event: number;

  beforeAll(async () => {
    t = await createTestApp({ AUTH_CACHE_TTL_MS: '60000' });
    const f = new Factory(t.dataSource);
    const { office } = await f.tenant(KEY);
    event = (await f.event(office.id)).id;
    await f.ticketType(event);
    for (let i = 0; i < 4; i++) {
      await f.order(office.id, event, { createdAt: 1_750_000_000 + i });
    }
    get = getAs(t.server, KEY);
    statements = recordStatements([t.app.get(IssuedTicketsService).reader]);
    const attendance = t.app.get(EventAttendanceService) as unknown as {
      read: ReadRows;
    };
    const original = attendance.read;
    jest
      .spyOn(attendance, 'read')
      .mockImplementation((sql, params, options) => {
        statements.push({ sql, params });
        return original(sql, params, options);
      });
  });

  afterAll(() => t.close());

  const postgres = () => t.dataSource.options.type === 'postgres';

  /** The plan lines of the statements a request sends. */
  async function plansOf(path: string): Promise<string> {
    statements.length = 0;
    const res = await get(path);
    expect({ path, status: res.status }).toEqual({ path, status: 200 });
    const lines = [];
    for (const statement of statements) {
      lines.push(...(await planOf(t.dataSource, statement)));
    }
    return lines.join('\n');
  }

  // On PostgreSQL a few rows make any B-tree cheaper than the trigram indexes, so its plans are
  // read at a realistic size instead (bench/notes/2026-12-07-door-search-and-attendance.md).
  const sqliteOnly = onPostgres ? it.skip : it;

  sqliteOnly(
    'searches across the box office through the trigram index',
    async () => {
      const plan = await plansOf('/v1/issued_tickets?search=jane%20do');
      // FTS5 answers a MATCH from its index (its plan says so with an M in the index string).
      expect(plan).toMatch(
        /SCAN issued_ticket_search_by_event VIRTUAL TABLE INDEX \d+:M\d*\n/,
      );
    },
  );

  sqliteOnly(
    'searches within one event through its range of keys alone',
    async () => {
      const plan = await plansOf(
        `/v1/issued_tickets?event_id=ev_${event}&search=jane%20do`,
      );
      // The MATCH with the event's range of rowids (migration TicketSearchByEvent): FTS5 marks a
      // lower bound with > and an upper one with < in the index string.
      expect(plan).toMatch(
        /SCAN issued_ticket_search_by_event VIRTUAL TABLE INDEX \d+:M\d*(>.*<|<.*>)/,
      );
    },
  );

  sqliteOnly(
    'finds a buyer’s tickets by id, each arm through its index',
    async () => {
      const [{ email }] = (await t.dataSource.query(
        'SELECT buyer_email_lookup AS email FROM orders LIMIT 1',
      )) as { email: string }[];
      const plan = await plansOf(
        `/v1/issued_tickets?email=${encodeURIComponent(email)}`,
      );
      // The buyer's orders through the orders' e-mail index, their tickets through the tickets'
      // order index; not the OR of the two that SQLite merged from two index scans.
      expect(plan).toMatch(/SEARCH eo USING COVERING INDEX IDX_orders_email/);
      expect(plan).toMatch(
        /SEARCH et USING (COVERING )?INDEX IDX_issued_tickets_order/,
      );
      expect(plan).not.toMatch(/MULTI-INDEX OR/);
    },
  );

  it('reads the attendance from its counts, not from the tickets or the check-ins', async () => {
    const plan = await plansOf(`/v1/events/ev_${event}/attendance`);
    // Kept per event and ticket type by the writers (migration AttendanceCounts): a few rows
    // whatever the event's size.
    expect(plan).toMatch(/attendance_counts/);
    expect(plan).not.toMatch(/issued_tickets|check_ins/);
    if (!postgres()) {
      expect(plan).toMatch(
        /SEARCH a USING INDEX sqlite_autoindex_attendance_counts_1 \(event_id=\?\)/,
      );
    }
  });
});
