import type { DataSource } from 'typeorm';
import { inImportMode } from '../src/sync/import-mode';
import {
  type Get,
  type ListBody,
  errorBody,
  getAs,
  idsOf,
  walk,
} from './utils/api';
import type { TestApp } from './utils/create-test-app';
import { createListApp } from './utils/list-app';
import { waitForWatermark } from './utils/sync-watermark';

// GET /v1/check_ins and /v1/check_ins/{id}, and what check-ins show on issued tickets
// (docs/API.md, "Check-ins" and "IssuedTicket"). On SQLite by default, on PostgreSQL under
// `npm run test:e2e:postgres`.

const KEY = 'sk_test_check_ins_a';
const OTHER_KEY = 'sk_test_check_ins_b';
const BASE = 1_750_000_000;

interface Scan {
  id: number;
  ticket: number;
  event: number;
  series: number;
  quantity: 1 | -1;
  checkInAt: number;
  createdAt: number;
}

type Item = { id: string } & Record<string, unknown>;

/** Check-ins as a door app's history uploads them: their own times (import mode keeps them). */
async function recordScans(
  ds: DataSource,
  office: number,
  scans: Omit<Scan, 'id'>[],
): Promise<Scan[]> {
  return inImportMode(ds.manager, async (manager) => {
    const saved: Scan[] = [];
    for (const scan of scans) {
      const [row] = await manager.query<{ id: number }[]>(
        `INSERT INTO check_ins (box_office_id, issued_ticket_id, event_id, event_series_id, quantity, check_in_at, created_at)
         VALUES (${office}, ${scan.ticket}, ${scan.event}, ${scan.series}, ${scan.quantity}, ${scan.checkInAt}, ${scan.createdAt})
         RETURNING id`,
      );
      saved.push({ ...scan, id: Number(row.id) });
    }
    return saved;
  });
}

const shape = (scan: Scan) => ({
  object: 'check_in',
  id: `ci_${scan.id}`,
  issued_ticket_id: `it_${scan.ticket}`,
  event_id: `ev_${scan.event}`,
  event_series_id: `es_${scan.series}`,
  quantity: scan.quantity,
  check_in_at: scan.checkInAt,
  created_at: scan.createdAt,
});

describe('check-ins', () => {
  let t: TestApp;
  let get: Get;
  let getOther: Get;
  let scans: Scan[];
  let theirs: Scan[];
  let tickets: {
    id: number;
    event: number;
    series: number;
    type: number | null;
  }[];

  /** The oracle: our check-ins newest first (created_at, then id, descending). */
  const newestFirst = (keep: (s: Scan) => boolean = () => true) =>
    scans
      .filter(keep)
      .sort((a, b) => b.createdAt - a.createdAt || b.id - a.id)
      .map((s) => `ci_${s.id}`);

  beforeAll(async () => {
    const app = await createListApp(KEY, OTHER_KEY);
    ({ t, get } = app);
    getOther = getAs(t.server, OTHER_KEY);
    const { f, a, b } = app;
    const events = [
      await f.event(a.id, { eventSeriesId: 7 }),
      await f.event(a.id, { eventSeriesId: 8 }),
    ];
    const type = await f.ticketType(events[0].id);
    tickets = [];
    for (const [i, event] of events.entries()) {
      const orders = await f.orders(
        a.id,
        event.id,
        Array.from({ length: 4 }, (_, n) => ({
          createdAt: BASE + n,
          ticketType: i === 0 ? type : undefined,
        })),
      );
      for (const order of orders) {
        for (const ticket of order.issuedTickets!) {
          tickets.push({
            id: ticket.id,
            event: event.id,
            series: event.eventSeriesId,
            type: i === 0 ? type.id : null,
          });
        }
      }
    }
    // 16 tickets: most checked in, some out again, some back in; times shared by several.
    const planned: Omit<Scan, 'id'>[] = [];
    for (const [n, ticket] of tickets.entries()) {
      if (n % 5 === 4) continue; // no-shows
      const at = BASE + 10_000 + (n % 6) * 60;
      const base = {
        ticket: ticket.id,
        event: ticket.event,
        series: ticket.series,
      };
      // Every third scan was made offline and recorded later.
      planned.push({
        ...base,
        quantity: 1,
        checkInAt: at,
        createdAt: at + (n % 3 === 0 ? 900 : 0),
      });
      if (n % 4 === 1) {
        planned.push({
          ...base,
          quantity: -1,
          checkInAt: at + 1800,
          createdAt: at + 1800,
        });
        if (n % 8 === 1) {
          planned.push({
            ...base,
            quantity: 1,
            checkInAt: at + 2400,
            createdAt: at + 2400,
          });
        }
      }
    }
    scans = await recordScans(t.dataSource, a.id, planned);
    const bEvent = await f.event(b.id, { eventSeriesId: 9 });
    const [bOrder] = await f.orders(b.id, bEvent.id, [{ createdAt: BASE + 5 }]);
    theirs = await recordScans(t.dataSource, b.id, [
      {
        ticket: bOrder.issuedTickets![0].id,
        event: bEvent.id,
        series: 9,
        quantity: 1,
        checkInAt: BASE + 10_030,
        createdAt: BASE + 10_030,
      },
    ]);
  });

  afterAll(() => t.close());

  it('lists them newest first, whole objects, another box office’s never', async () => {
    const res = await get('/v1/check_ins');
    expect(res.status).toBe(200);
    const body = res.body as ListBody<Item>;
    expect(idsOf(body)).toEqual(newestFirst());
    const byId = new Map(scans.map((s) => [`ci_${s.id}`, s]));
    for (const item of body.data)
      expect(item).toEqual(shape(byId.get(item.id)!));
    expect(Number(res.headers['x-sync-watermark'])).toBeGreaterThan(BASE);
  });

  it('retrieves one as the list shows it; another box office’s is not found, as a missing one', async () => {
    const res = await get(`/v1/check_ins/ci_${scans[2].id}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual(shape(scans[2]));
    const foreign = await get(`/v1/check_ins/ci_${theirs[0].id}`);
    const missing = await get('/v1/check_ins/ci_999999');
    expect(foreign.status).toBe(404);
    expect(foreign.body).toEqual(
      errorBody(
        404,
        'NOT_FOUND',
        `No check-in ci_${theirs[0].id} in this box office`,
      ),
    );
    expect(missing.body).toEqual(
      errorBody(404, 'NOT_FOUND', 'No check-in ci_999999 in this box office'),
    );
    expect((await get('/v1/check_ins/it_1')).body).toEqual(
      errorBody(
        404,
        'NOT_FOUND',
        'No such check-in in this box office (check-in ids are ci_<number>)',
      ),
    );
    expect((await getOther(`/v1/check_ins/ci_${theirs[0].id}`)).status).toBe(
      200,
    );
  });

  it('walks both ways in either order, each once', async () => {
    for (const [sort, want] of [
      ['-created_at', newestFirst()],
      ['created_at', [...newestFirst()].reverse()],
    ] as const) {
      const forward = await walk<Item>(
        get,
        `/v1/check_ins?sort=${sort}&limit=4`,
        'next',
      );
      expect(idsOf(forward)).toEqual(want);
      const last = forward[forward.length - 1];
      const back = await walk<Item>(get, last.links.previous!, 'previous');
      expect(back.reverse()).toEqual(forward.slice(0, -1));
    }
  });

  it.each<[string, (s: Scan) => boolean]>([
    ['quantity=-1', (s) => s.quantity === -1],
    ['quantity=1', (s) => s.quantity === 1],
    [`created_at.gte=${BASE + 10_120}`, (s) => s.createdAt >= BASE + 10_120],
    [`check_in_at.lt=${BASE + 10_120}`, (s) => s.checkInAt < BASE + 10_120],
    ['event_series_id=es_8', (s) => s.series === 8],
  ])('filters: %s', async (query, keep) => {
    expect(
      idsOf(
        (await get(`/v1/check_ins?${query}&limit=100`)).body as ListBody<Item>,
      ),
    ).toEqual(newestFirst(keep));
  });

  it('filters by event and by ticket, one id or a comma list', async () => {
    const [first, second] = [tickets[1], tickets[9]];
    const query = `issued_ticket_id=it_${first.id},it_${second.id}`;
    expect(
      idsOf((await get(`/v1/check_ins?${query}`)).body as ListBody<Item>),
    ).toEqual(
      newestFirst((s) => s.ticket === first.id || s.ticket === second.id),
    );
    expect(
      idsOf(
        (await get(`/v1/check_ins?event_id=ev_${first.event}`))
          .body as ListBody<Item>,
      ),
    ).toEqual(newestFirst((s) => s.event === first.event));
  });

  it('refuses bad input in the error shape', async () => {
    const tooMany = Array.from({ length: 101 }, (_, i) => `ev_${i + 1}`).join(
      ',',
    );
    for (const [query, name] of [
      ['quantity=2', 'quantity'],
      ['sort=updated_at', 'sort'],
      [`event_id=${tooMany}`, 'event_id'],
      ['check_in_at.gt=soon', 'check_in_at.gt'],
      ['ticket=1', 'ticket'],
    ]) {
      const res = await get(`/v1/check_ins?${query}`);
      expect([query, res.status]).toEqual([query, 400]);
      expect(res.body).toEqual(
        errorBody(
          400,
          'VALIDATION_ERROR',
          expect.stringContaining(name) as string,
        ),
      );
    }
    const cursor = await get(`/v1/check_ins?starting_after=ci_${theirs[0].id}`);
    expect(cursor.body).toEqual(
      errorBody(
        400,
        'INVALID_CURSOR',
        'starting_after must be the id of a check-in of this box office (ci_<number>)',
      ),
    );
  });

  it('answers If-None-Match with 304', async () => {
    const path = `/v1/check_ins/ci_${scans[0].id}`;
    const first = await get(path);
    const again = await get(path).set(
      'If-None-Match',
      first.headers.etag as string,
    );
    expect(again.status).toBe(304);
  });

  it('shows on each issued ticket: checked_in exactly when its check-ins sum to 1, its type and series', async () => {
    const sums = new Map<number, number>();
    for (const s of scans)
      sums.set(s.ticket, (sums.get(s.ticket) ?? 0) + s.quantity);
    const listed = (
      await walk<Item>(get, '/v1/issued_tickets?limit=100', 'next')
    ).flatMap((p) => p.data);
    expect(listed).toHaveLength(tickets.length);
    for (const ticket of tickets) {
      const item = listed.find((it) => it.id === `it_${ticket.id}`)!;
      expect(item).toMatchObject({
        checked_in: sums.get(ticket.id) === 1 ? 'true' : 'false',
        ticket_type_id: ticket.type === null ? null : `tt_${ticket.type}`,
        event_series_id: `es_${ticket.series}`,
      });
    }
    // The same inside the orders.
    const inOrders = (await walk<Item>(get, '/v1/orders?limit=100', 'next'))
      .flatMap((p) => p.data)
      .flatMap((o) => o.issued_tickets as Item[]);
    expect(new Map(inOrders.map((it) => [it.id, it]))).toEqual(
      new Map(listed.map((it) => [it.id, it])),
    );
    const checkedIn = tickets
      .filter((tk) => sums.get(tk.id) === 1)
      .map((tk) => `it_${tk.id}`);
    const want = (keep: (id: string) => boolean) =>
      listed.map((it) => it.id).filter(keep);
    expect(
      idsOf(
        (await get('/v1/issued_tickets?checked_in=true&limit=100'))
          .body as ListBody<Item>,
      ),
    ).toEqual(want((id) => checkedIn.includes(id)));
    expect(
      idsOf(
        (await get('/v1/issued_tickets?checked_in=false&limit=100'))
          .body as ListBody<Item>,
      ),
    ).toEqual(want((id) => !checkedIn.includes(id)));
  });

  it('filters tickets and orders by series and ticket type, and takes status=voided for void', async () => {
    const inSeries8 = (
      await get('/v1/issued_tickets?event_series_id=es_8,es_99&limit=100')
    ).body as ListBody<Item>;
    expect(inSeries8.data.map((it) => it.event_series_id)).toEqual(
      Array(tickets.filter((tk) => tk.series === 8).length).fill('es_8'),
    );
    const typed = tickets.find((tk) => tk.type !== null)!;
    const ofType = (
      await get(`/v1/issued_tickets?ticket_type_id=tt_${typed.type}&limit=100`)
    ).body as ListBody<Item>;
    expect(ofType.data).toHaveLength(
      tickets.filter((tk) => tk.type === typed.type).length,
    );
    const orders = (await get('/v1/orders?event_series_id=es_7&limit=100'))
      .body as ListBody<Item>;
    expect(orders.data).toHaveLength(4);
    expect((await get('/v1/orders?event_series_id=es_9')).body).toEqual({
      data: [],
      links: { next: null, previous: null },
    });
    const voided = await get('/v1/issued_tickets?status=voided');
    expect(voided.status).toBe(200);
    expect(voided.body).toEqual(
      (await get('/v1/issued_tickets?status=void')).body,
    );
  });

  it('holds back in sync mode (sort=created_at) what the horizon has not passed', async () => {
    const ticket = tickets[4]; // a no-show so far
    const [printed] = await t.dataSource.query<{ id: number }[]>(
      `INSERT INTO check_ins (box_office_id, issued_ticket_id, event_id, event_series_id, quantity, check_in_at, created_at)
       SELECT box_office_id, id, event_id, ${ticket.series}, 1, ${BASE + 20_000}, ${BASE + 20_000} FROM issued_tickets WHERE id = ${ticket.id}
       RETURNING id, created_at`,
    );
    const [{ created_at }] = await t.dataSource.query<
      { created_at: unknown }[]
    >(`SELECT created_at FROM check_ins WHERE id = ${printed.id}`);
    const stamp = Number(created_at); // the database's stamp: the check-in was recorded now
    const res = await get('/v1/check_ins?sort=created_at&limit=100');
    if (Number(res.headers['x-sync-watermark']) < stamp) {
      expect(idsOf(res.body as ListBody<Item>)).not.toContain(
        `ci_${printed.id}`,
      );
    }
    expect(idsOf((await get('/v1/check_ins')).body as ListBody<Item>)[0]).toBe(
      `ci_${printed.id}`,
    );
    await waitForWatermark(get, stamp, '/v1/check_ins?limit=1');
    const later = await walk<Item>(
      get,
      '/v1/check_ins?sort=created_at&limit=100',
      'next',
    );
    expect(idsOf(later)).toContain(`ci_${printed.id}`);
    expect(
      (await get(`/v1/issued_tickets/it_${ticket.id}`)).body,
    ).toMatchObject({ checked_in: 'true' });
  });
});
