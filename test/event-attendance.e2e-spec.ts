import type { DataSource } from 'typeorm';
import { sweepCounts } from '../src/changes/change-assigner';
import { rowReader } from '../src/database/row-reader';
import { inImportMode } from '../src/sync/import-mode';
import { type Get, errorBody, getAs, walk } from './utils/api';
import type { TestApp } from './utils/create-test-app';
import { createListApp } from './utils/list-app';

// GET /v1/events/{event_id}/attendance (docs/API.md, "GET /v1/events/{event_id}/attendance"): the door's numbers, each the
// count the lists give at the same moment. On SQLite by default, on PostgreSQL under
// `npm run test:e2e:postgres`.

const KEY = 'sk_test_attendance_a';
const OTHER_KEY = 'sk_test_attendance_b';
const BASE = 1_750_000_000;

type Item = { id: string } & Record<string, unknown>;

interface Ticket {
  id: number;
  event: number;
  series: number;
}

/** Scans as a door app's history uploads them (import mode keeps their times). */
async function recordScans(
  ds: DataSource,
  office: number,
  scans: { ticket: Ticket; quantity: 1 | -1; at: number }[],
): Promise<void> {
  await inImportMode(ds.manager, async (manager) => {
    for (const { ticket, quantity, at } of scans) {
      await manager.query(
        `INSERT INTO check_ins (box_office_id, issued_ticket_id, event_id, event_series_id, quantity, check_in_at, created_at)
         VALUES (${office}, ${ticket.id}, ${ticket.event}, ${ticket.series}, ${quantity}, ${at}, ${at})`,
      );
    }
  });
}

describe('event attendance', () => {
  let t: TestApp;
  let get: Get;
  let getOther: Get;
  let office: number;
  let event: number;
  let emptyEvent: number;
  let theirEvent: number;
  let types: number[];
  /** Tickets of each type of `event` (the last list: tickets whose type is none). */
  let byType: Ticket[][];

  /** Every item of a list, walked page by page. */
  const all = async (path: string) =>
    (await walk<Item>(get, path, 'next')).flatMap((page) =>
      page.data.map((item) => item.id),
    );

  beforeAll(async () => {
    const app = await createListApp(KEY, OTHER_KEY);
    ({ t, get } = app);
    getOther = getAs(t.server, OTHER_KEY);
    const { f, a, b } = app;
    office = a.id;
    const ev = await f.event(a.id, { eventSeriesId: 5 });
    event = ev.id;
    // Made in this order, shown by sort_order: the third type sorts first and sells nothing.
    const made = [
      await f.ticketType(event, { sortOrder: 2 }),
      await f.ticketType(event, { sortOrder: 3 }),
      await f.ticketType(event, { sortOrder: 1 }),
    ];
    types = made.map((type) => type.id);
    byType = [[], [], []];
    for (const [i, ticketType] of [made[0], made[1], undefined].entries()) {
      const orders = await f.orders(
        a.id,
        event,
        Array.from({ length: 3 }, (_, n) => ({
          createdAt: BASE + n,
          ticketType,
        })),
      );
      for (const order of orders) {
        for (const ticket of order.issuedTickets!) {
          byType[i].push({ id: ticket.id, event, series: 5 });
        }
      }
    }
    emptyEvent = (await f.event(a.id, { eventSeriesId: 6 })).id;
    const their = await f.event(b.id, { eventSeriesId: 7 });
    theirEvent = their.id;
    const [theirOrder] = await f.orders(b.id, theirEvent, [
      { createdAt: BASE },
    ]);
    await recordScans(t.dataSource, b.id, [
      {
        ticket: {
          id: theirOrder.issuedTickets![0].id,
          event: their.id,
          series: 7,
        },
        quantity: 1,
        at: BASE + 100,
      },
    ]);
  });

  afterAll(() => t.close());

  /**
   * The figures the lists give for the event now, as the attendance's body; `shown`: the event's
   * ticket types in its order (sort_order 1, 2, 3 unless one was deleted).
   */
  async function fromTheLists(shown = [types[2], types[0], types[1]]) {
    const valid = await all(
      `/v1/issued_tickets?event_id=ev_${event}&status=valid&limit=100`,
    );
    const inside = new Set(
      await all(
        `/v1/issued_tickets?event_id=ev_${event}&status=valid&checked_in=true&limit=100`,
      ),
    );
    const scanned = new Set(
      (
        await walk<Item>(
          get,
          `/v1/check_ins?event_id=ev_${event}&limit=100`,
          'next',
        )
      ).flatMap((page) => page.data.map((scan) => scan.issued_ticket_id)),
    );
    const voided = await all(
      `/v1/issued_tickets?event_id=ev_${event}&status=void&limit=100`,
    );
    const ofType = async (type: number) => {
      const ids = await all(
        `/v1/issued_tickets?ticket_type_id=tt_${type}&status=valid&limit=100`,
      );
      return {
        ticket_type_id: `tt_${type}`,
        tickets_valid: ids.length,
        checked_in: ids.filter((id) => inside.has(id)).length,
        entered: ids.filter((id) => scanned.has(id)).length,
      };
    };
    return {
      object: 'attendance',
      event_id: `ev_${event}`,
      tickets_valid: valid.length,
      tickets_void: voided.length,
      checked_in: inside.size,
      entered: valid.filter((id) => scanned.has(id)).length,
      ticket_types: await Promise.all(shown.map(ofType)),
    };
  }

  it('counts every ticket type, those without tickets too, before any scan', async () => {
    const res = await get(`/v1/events/ev_${event}/attendance`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      object: 'attendance',
      event_id: `ev_${event}`,
      tickets_valid: 18,
      tickets_void: 0,
      checked_in: 0,
      entered: 0,
      ticket_types: [
        {
          ticket_type_id: `tt_${types[2]}`,
          tickets_valid: 0,
          checked_in: 0,
          entered: 0,
        },
        {
          ticket_type_id: `tt_${types[0]}`,
          tickets_valid: 6,
          checked_in: 0,
          entered: 0,
        },
        {
          ticket_type_id: `tt_${types[1]}`,
          tickets_valid: 6,
          checked_in: 0,
          entered: 0,
        },
      ],
    });
    expect(res.body).toEqual(await fromTheLists());
    const empty = await get(`/v1/events/ev_${emptyEvent}/attendance`);
    expect(empty.body).toEqual({
      object: 'attendance',
      event_id: `ev_${emptyEvent}`,
      tickets_valid: 0,
      tickets_void: 0,
      checked_in: 0,
      entered: 0,
      ticket_types: [],
    });
  });

  it('follows check-ins, check-outs, re-entries and a void, as the lists do', async () => {
    const [first, second] = byType;
    const none = byType[2];
    await recordScans(t.dataSource, office, [
      // In: three of the first type, two of the second, one without a type.
      ...[first[0], first[1], first[2], second[0], second[1], none[0]].map(
        (ticket) => ({ ticket, quantity: 1 as const, at: BASE + 1000 }),
      ),
      // Out again: one of the first type, the one without a type; back in: the second's first.
      { ticket: first[1], quantity: -1, at: BASE + 2000 },
      { ticket: none[0], quantity: -1, at: BASE + 2000 },
      { ticket: second[0], quantity: -1, at: BASE + 2000 },
      { ticket: second[0], quantity: 1, at: BASE + 3000 },
    ]);
    const scanned = await get(`/v1/events/ev_${event}/attendance`);
    expect(scanned.body).toEqual({
      object: 'attendance',
      event_id: `ev_${event}`,
      tickets_valid: 18,
      tickets_void: 0,
      checked_in: 4,
      entered: 6,
      ticket_types: [
        {
          ticket_type_id: `tt_${types[2]}`,
          tickets_valid: 0,
          checked_in: 0,
          entered: 0,
        },
        {
          ticket_type_id: `tt_${types[0]}`,
          tickets_valid: 6,
          checked_in: 2,
          entered: 3,
        },
        {
          ticket_type_id: `tt_${types[1]}`,
          tickets_valid: 6,
          checked_in: 2,
          entered: 2,
        },
      ],
    });
    expect(scanned.body).toEqual(await fromTheLists());

    // A ticket voided after it went in and out, and one never scanned: neither counts as valid,
    // entered or inside any more.
    for (const ticket of [first[1], second[5]]) {
      await t.dataSource.query(
        `UPDATE issued_tickets SET status = 'void', voided_at = ${BASE + 4000}, updated_at = ${BASE + 4000} WHERE id = ${ticket.id}`,
      );
    }
    const voided = await get(`/v1/events/ev_${event}/attendance`);
    expect(voided.body).toEqual({
      object: 'attendance',
      event_id: `ev_${event}`,
      tickets_valid: 16,
      tickets_void: 2,
      checked_in: 4,
      entered: 5,
      ticket_types: [
        {
          ticket_type_id: `tt_${types[2]}`,
          tickets_valid: 0,
          checked_in: 0,
          entered: 0,
        },
        {
          ticket_type_id: `tt_${types[0]}`,
          tickets_valid: 5,
          checked_in: 2,
          entered: 2,
        },
        {
          ticket_type_id: `tt_${types[1]}`,
          tickets_valid: 5,
          checked_in: 2,
          entered: 2,
        },
      ],
    });
    expect(voided.body).toEqual(await fromTheLists());
  });

  it('answers If-None-Match with 304 until something changes', async () => {
    const path = `/v1/events/ev_${event}/attendance`;
    const first = await get(path);
    const etag = first.headers.etag as string;
    expect(etag).toBeDefined();
    const again = await get(path).set('If-None-Match', etag);
    expect(again.status).toBe(304);
    expect(again.text).toBe('');
    // A scan moves the data version: the same tag no longer matches, and the new body shows it.
    await t.dataSource.query(
      `INSERT INTO check_ins (box_office_id, issued_ticket_id, event_id, event_series_id, quantity, check_in_at, created_at)
       SELECT box_office_id, id, event_id, 5, 1, ${BASE + 5000}, ${BASE + 5000} FROM issued_tickets WHERE id = ${byType[0][3].id}`,
    );
    const changed = await get(path).set('If-None-Match', etag);
    expect(changed.status).toBe(200);
    expect((changed.body as { checked_in: number }).checked_in).toBe(
      (first.body as { checked_in: number }).checked_in + 1,
    );
  });

  it('is not found for another box office’s event, an unknown one or a malformed id', async () => {
    for (const [id, message] of [
      [`ev_${theirEvent}`, `No event ev_${theirEvent} in this box office`],
      ['ev_999999', 'No event ev_999999 in this box office'],
      ['or_1', 'No such event in this box office (event ids are ev_<number>)'],
      ['ev_0', 'No such event in this box office (event ids are ev_<number>)'],
    ]) {
      const res = await get(`/v1/events/${id}/attendance`);
      expect([id, res.status]).toEqual([id, 404]);
      expect(res.body).toEqual(errorBody(404, 'NOT_FOUND', message));
    }
    // Box office B sees its own event, with its one ticket inside.
    const theirs = await getOther(`/v1/events/ev_${theirEvent}/attendance`);
    expect(theirs.body).toEqual({
      object: 'attendance',
      event_id: `ev_${theirEvent}`,
      tickets_valid: 2,
      tickets_void: 0,
      checked_in: 1,
      entered: 1,
      ticket_types: [],
    });
  });

  it('takes no query parameters', async () => {
    const res = await get(`/v1/events/ev_${event}/attendance?limit=5`);
    expect(res.status).toBe(400);
    expect(res.body).toEqual(
      errorBody(
        400,
        'VALIDATION_ERROR',
        expect.stringContaining('limit') as string,
      ),
    );
  });

  it('keeps counting as every writer changes tickets and scans, exact at each step', async () => {
    const [first, second] = byType;
    const attendance = async () =>
      (await get(`/v1/events/ev_${event}/attendance`)).body as unknown;
    let shown = [types[2], types[0], types[1]];
    // What a sales system or an operator does to the rows, each outside the API.
    const steps: [string, string][] = [
      [
        'the last scan of a ticket in, out and in again deleted',
        `DELETE FROM check_ins WHERE id = (SELECT max(id) FROM check_ins WHERE issued_ticket_id = ${second[0].id})`,
      ],
      [
        'every scan of a ticket deleted',
        `DELETE FROM check_ins WHERE issued_ticket_id = ${first[0].id}`,
      ],
      [
        'a ticket moved to another type',
        `UPDATE issued_tickets SET ticket_type_id = ${types[2]} WHERE id = ${first[2].id}`,
      ],
      [
        'a voided ticket made valid again',
        `UPDATE issued_tickets SET status = 'valid', voided_at = NULL WHERE id = ${first[1].id}`,
      ],
      [
        'an order deleted with its tickets and their scans',
        `DELETE FROM orders WHERE id = (SELECT order_id FROM issued_tickets WHERE id = ${first[3].id})`,
      ],
      [
        'a ticket type deleted: its tickets stay, typeless',
        `DELETE FROM ticket_types WHERE id = ${types[1]}`,
      ],
    ];
    for (const [step, sql] of steps) {
      await t.dataSource.query(sql);
      if (step.startsWith('a ticket type deleted')) {
        shown = shown.filter((type) => type !== types[1]);
      }
      expect([step, await attendance()]).toEqual([
        step,
        await fromTheLists(shown),
      ]);
    }
    if (t.dataSource.options.type === 'postgres') {
      // The same once the deltas are folded into the counts (the app's sweep may have been first).
      await sweepCounts(rowReader(t.dataSource));
      expect(
        await t.dataSource.query('SELECT * FROM attendance_deltas'),
      ).toEqual([]);
      expect(await attendance()).toEqual(await fromTheLists(shown));
    }
    expect(
      (await attendance()) as { tickets_valid: number; entered: number },
    ).toMatchObject({ tickets_valid: 15, entered: 4 });
  });
});
