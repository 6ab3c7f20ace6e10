import { type Get, type ListBody, errorBody, idsOf, walk } from './utils/api';
import type { TestApp } from './utils/create-test-app';
import { createListApp } from './utils/list-app';
import { waitForWatermark } from './utils/sync-watermark';

// `sort` on the lists that offer it (docs/API.md, "Sorting"): each order walked both ways,
// keyed cursors in the orders whose key can change, and the errors for what is not an order.

const KEY = 'sk_test_sorts_a';
const OTHER_KEY = 'sk_test_sorts_b';
const BASE = 1_750_000_000;

interface Row {
  id: number;
  created_at: number;
  updated_at: number;
}

type Item = { id: string } & Record<string, unknown>;

describe('sorted lists (sort, keyed cursors)', () => {
  let t: TestApp;
  let get: Get;
  let tenant: number;

  /** The oracle: the box office's rows straight from the database, in the order `sort` names. */
  async function inOrder(table: string, prefix: string, sort: string) {
    const rows = await t.dataSource.query<Row[]>(
      `SELECT id, created_at, updated_at FROM ${table} WHERE box_office_id = ${tenant}`,
    );
    const key = sort.replace(/^-/, '') as 'created_at' | 'updated_at';
    const sign = sort.startsWith('-') ? -1 : 1;
    return rows
      .map((row) => ({ ...row, key: Number(row[key]), id: Number(row.id) }))
      .sort((a, b) => sign * (a.key - b.key || a.id - b.id))
      .map((row) => `${prefix}${row.id}`);
  }

  beforeAll(async () => {
    const app = await createListApp(KEY, OTHER_KEY);
    ({ t, get } = app);
    const { f, a, b } = app;
    tenant = a.id;
    const event = await f.event(a.id);
    // 23 orders over 8 distinct seconds (ties are normal), 46 tickets; box office B's in between.
    await f.orders(
      a.id,
      event.id,
      Array.from({ length: 23 }, (_, i) => ({
        createdAt: BASE + ((i * 5) % 8) * 60,
      })),
    );
    const other = await f.event(b.id);
    await f.orders(b.id, other.id, [
      { createdAt: BASE + 90 },
      { createdAt: BASE + 200 },
    ]);
    // Tickets changed after purchase get later updated_at values, some of them equal.
    const tickets = await t.dataSource.query<{ id: number }[]>(
      `SELECT id FROM issued_tickets WHERE box_office_id = ${a.id} ORDER BY id`,
    );
    for (const [i, { id }] of tickets.entries()) {
      if (i % 3 === 0) {
        await t.dataSource.query(
          `UPDATE issued_tickets SET full_name = 'Renamed ${i}', updated_at = ${BASE + 10_000 + (i % 4)} WHERE id = ${id}`,
        );
      }
    }
  });

  afterAll(() => t.close());

  /**
   * Waits until the sync horizon has passed every change made so far: a row changed in the last
   * seconds is held back in the updated_at orders until then (docs/API.md, "Incremental sync").
   */
  async function settled() {
    const [{ newest }] = await t.dataSource.query<{ newest: unknown }[]>(
      `SELECT max(updated_at) AS newest FROM issued_tickets WHERE box_office_id = ${tenant}`,
    );
    await waitForWatermark(get, Number(newest), '/v1/issued_tickets?limit=1');
  }

  const walkBothWays = async (start: string) => {
    const forward = await walk<Item>(get, start, 'next');
    const last = forward[forward.length - 1];
    expect(last.links.next).toBeNull();
    const back = last.links.previous
      ? await walk<Item>(get, last.links.previous, 'previous')
      : [];
    expect(back.reverse()).toEqual(forward.slice(0, -1));
    return idsOf(forward);
  };

  it('orders: sort=created_at walks oldest first, each once, and back', async () => {
    expect(await walkBothWays('/v1/orders?sort=created_at&limit=4')).toEqual(
      await inOrder('orders', 'or_', 'created_at'),
    );
    expect(await walkBothWays('/v1/orders?sort=-created_at&limit=5')).toEqual(
      await inOrder('orders', 'or_', '-created_at'),
    );
  });

  it.each(['created_at', '-created_at', 'updated_at', '-updated_at'])(
    'issued tickets: sort=%s walks in that order, each once, and back',
    async (sort) => {
      await settled();
      expect(
        await walkBothWays(`/v1/issued_tickets?sort=${sort}&limit=7`),
      ).toEqual(await inOrder('issued_tickets', 'it_', sort));
    },
  );

  it('links carry the key in updated_at orders and plain ids in created_at orders, and keep sort', async () => {
    await settled();
    const keyed = (await get('/v1/issued_tickets?sort=updated_at&limit=2'))
      .body as ListBody<Item>;
    const [first, second] = keyed.data;
    expect(keyed.links).toEqual({
      next: `/v1/issued_tickets?starting_after=${second.id}@${String(second.updated_at)}&sort=updated_at&limit=2`,
      previous: null,
    });
    const next = (await get(keyed.links.next!)).body as ListBody<Item>;
    expect(next.links.previous).toBe(
      `/v1/issued_tickets?ending_before=${next.data[0].id}@${String(next.data[0].updated_at)}&sort=updated_at&limit=2`,
    );
    expect(first.id).not.toBe(next.data[0].id);
    const plain = (await get('/v1/issued_tickets?sort=created_at&limit=2'))
      .body as ListBody<Item>;
    expect(plain.links.next).toBe(
      `/v1/issued_tickets?starting_after=${plain.data[1].id}&sort=created_at&limit=2`,
    );
  });

  it('a row updated behind the walk does not move it: nothing is skipped', async () => {
    const start = '/v1/issued_tickets?sort=updated_at&limit=5';
    await settled();
    const before = await inOrder('issued_tickets', 'it_', 'updated_at');
    const page = (await get(start)).body as ListBody<Item>;
    // The page's last row, the walk's position, changes before the next page is read.
    const moved = Number(page.data[4].id.slice(3));
    await t.dataSource.query(
      `UPDATE issued_tickets SET full_name = 'Moved', updated_at = ${BASE + 50_000} WHERE id = ${moved}`,
    );
    await settled();
    const rest = await walk<Item>(get, page.links.next!, 'next');
    const seen = [...idsOf(page), ...idsOf(rest)];
    // Every row is seen; the moved one once where it was and once where it went.
    expect(new Set(seen)).toEqual(new Set(before));
    expect(seen.filter((id) => id === `it_${moved}`)).toHaveLength(2);
    expect(seen).toHaveLength(before.length + 1);
  });

  it('a plain id in an updated_at order is placed at its row current key', async () => {
    await settled();
    const ids = await inOrder('issued_tickets', 'it_', 'updated_at');
    const res = await get(
      `/v1/issued_tickets?sort=updated_at&limit=3&starting_after=${ids[4]}`,
    );
    expect(idsOf(res.body as ListBody<Item>)).toEqual(ids.slice(5, 8));
  });

  it('a keyed cursor is a position even when its row is gone or another box office’s', async () => {
    await settled();
    const ids = await inOrder('issued_tickets', 'it_', 'updated_at');
    const theirs = await t.dataSource.query<{ id: number }[]>(
      `SELECT id FROM issued_tickets WHERE box_office_id <> ${tenant} ORDER BY id LIMIT 1`,
    );
    const key = BASE + 10_001;
    const from = (id: string) =>
      get(
        `/v1/issued_tickets?sort=updated_at&limit=100&starting_after=${id}@${key}`,
      );
    const missing = await from('it_999999');
    const foreign = await from(`it_${theirs[0].id}`);
    expect(missing.status).toBe(200);
    expect(foreign.status).toBe(200);
    expect(idsOf(foreign.body as ListBody<Item>)).toEqual(
      idsOf(missing.body as ListBody<Item>),
    );
    expect(idsOf(missing.body as ListBody<Item>).length).toBeLessThan(
      ids.length,
    );
  });

  it.each([
    [
      'a key in an order whose key cannot change',
      'sort=created_at&starting_after=it_5@1750000000',
      false,
    ],
    [
      'a key that is not Unix seconds',
      'sort=updated_at&starting_after=it_5@17.5',
      true,
    ],
    [
      'a key past the year 9999',
      'sort=updated_at&starting_after=it_5@253402300800',
      true,
    ],
    ['an empty key', 'sort=updated_at&ending_before=it_5@', true],
    ['two keys', 'sort=updated_at&starting_after=it_5@1@2', true],
  ])('refuses %s as INVALID_CURSOR', async (_, query, keyed) => {
    const parameter = query.includes('ending_before')
      ? 'ending_before'
      : 'starting_after';
    const res = await get(`/v1/issued_tickets?${query}`);
    expect(res.status).toBe(400);
    expect(res.body).toEqual(
      errorBody(
        400,
        'INVALID_CURSOR',
        `${parameter} must be the id of an issued ticket of this box office (${
          keyed
            ? 'it_<number>, or it_<number>@<unix seconds> as links give it'
            : 'it_<number>'
        })`,
      ),
    );
  });

  it('refuses an unknown sort, naming sort, and sort where a list has no choice of order', async () => {
    const bad = await get('/v1/orders?sort=total');
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual(
      errorBody(
        400,
        'VALIDATION_ERROR',
        expect.stringContaining('sort must be one of'),
      ),
    );
    const repeated = await get('/v1/orders?sort=created_at&sort=created_at');
    expect(repeated.status).toBe(400);
    const events = await get('/v1/events?sort=created_at');
    expect(events.status).toBe(400);
    expect(events.body).toEqual(
      errorBody(400, 'VALIDATION_ERROR', expect.stringContaining('sort')),
    );
  });
});
