import { Get, idsOf, ListBody } from './utils/api';
import type { TestApp } from './utils/create-test-app';
import { expectedIds } from './utils/list-app';
import { BASE, COUNT, Known, createOrderList } from './utils/order-list';

// links.next and links.previous: docs/API.md, Pagination (Links, Empty pages).

describe('GET /v1/orders: links', () => {
  let t: TestApp;
  let get: Get;
  /** Box office A's orders, newest first: the oracle. */
  let all: Known[];
  let ids: string[];

  const expected = (keep: (o: Known) => boolean) => expectedIds(all, keep);

  beforeAll(async () => {
    ({ t, get, all, ids } = await createOrderList());
  });

  afterAll(() => t.close());

  it('keeps the request’s other parameters after the cursor, in their order', async () => {
    const gte = BASE + 200;
    const want = expected((o) => o.createdAt >= gte);
    const res = await get(`/v1/orders?limit=2&created_at.gte=${gte}`);
    expect(res.body.links).toEqual({
      next: `/v1/orders?starting_after=${want[1]}&limit=2&created_at.gte=${gte}`,
      previous: null,
    });
  });

  it('writes links as /v1/orders for the trailing-slash spelling too', async () => {
    const res = await get('/v1/orders/?limit=2');
    expect(res.status).toBe(200);
    expect(res.body.links).toEqual({
      next: `/v1/orders?starting_after=${ids[1]}&limit=2`,
      previous: null,
    });
  });

  it.each(['/V1/ORDERS', '/v1/Orders'])(
    'serves no list at %s: paths are case-sensitive (docs/API.md, Paths and versions)',
    async (path) => {
      const res = await get(`${path}?limit=2`);
      expect(res.status).toBe(404);
      expect(res.body.error_code).toBe('NOT_FOUND');
    },
  );

  it('replaces the request’s cursor rather than repeating it', async () => {
    const res = await get(`/v1/orders?starting_after=${ids[3]}&limit=2`);
    expect(res.body).toEqual({
      data: expect.any(Array),
      links: {
        next: `/v1/orders?starting_after=${ids[5]}&limit=2`,
        previous: `/v1/orders?ending_before=${ids[4]}&limit=2`,
      },
    });
    expect(idsOf(res.body as ListBody)).toEqual(ids.slice(4, 6));
  });

  it('has no parameters besides the cursor when the request had none', async () => {
    const res = await get(`/v1/orders?starting_after=${ids[0]}`);
    expect(res.body.links).toEqual({
      next: `/v1/orders?starting_after=${ids[100]}`,
      previous: `/v1/orders?ending_before=${ids[1]}`,
    });
    const back = await get(`/v1/orders?ending_before=${ids[120]}`);
    expect(back.body.links).toEqual({
      next: `/v1/orders?starting_after=${ids[119]}`,
      previous: `/v1/orders?ending_before=${ids[20]}`,
    });
    expect(idsOf(back.body as ListBody)).toEqual(ids.slice(20, 120));
  });

  it('ending_before gives the orders adjacent to the cursor, newest first', async () => {
    const res = await get(`/v1/orders?ending_before=${ids[10]}&limit=3`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      data: expect.any(Array),
      links: {
        next: `/v1/orders?starting_after=${ids[9]}&limit=3`,
        previous: `/v1/orders?ending_before=${ids[7]}&limit=3`,
      },
    });
    expect(idsOf(res.body as ListBody)).toEqual(ids.slice(7, 10));
  });

  it('ending_before near the top gives a short page with previous null', async () => {
    const res = await get(`/v1/orders?ending_before=${ids[2]}&limit=5`);
    expect(idsOf(res.body as ListBody)).toEqual(ids.slice(0, 2));
    expect(res.body.links).toEqual({
      next: `/v1/orders?starting_after=${ids[1]}&limit=5`,
      previous: null,
    });
  });

  it('uses only ending_before when both cursors are given', async () => {
    const res = await get(
      `/v1/orders?starting_after=${ids[0]}&ending_before=${ids[10]}&limit=3`,
    );
    expect(res.status).toBe(200);
    expect(idsOf(res.body as ListBody)).toEqual(ids.slice(7, 10));
    expect(res.body.links).toEqual({
      next: `/v1/orders?starting_after=${ids[9]}&limit=3`,
      previous: `/v1/orders?ending_before=${ids[7]}&limit=3`,
    });
  });

  it('ignores starting_after entirely when ending_before is given, even a malformed one', async () => {
    const res = await get(
      `/v1/orders?starting_after=or_x&ending_before=${ids[10]}&limit=3`,
    );
    expect(res.status).toBe(200);
    expect(idsOf(res.body as ListBody)).toEqual(ids.slice(7, 10));
  });

  it('gives an empty page with both links null past the last order', async () => {
    const res = await get(`/v1/orders?starting_after=${ids[COUNT - 1]}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      data: [],
      links: { next: null, previous: null },
    });
  });

  it('gives an empty page with both links null before the first order', async () => {
    const res = await get(`/v1/orders?ending_before=${ids[0]}&limit=10`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      data: [],
      links: { next: null, previous: null },
    });
  });

  it('gives an empty page with both links null when no order matches', async () => {
    const res = await get(`/v1/orders?created_at.gt=${BASE + 1900}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      data: [],
      links: { next: null, previous: null },
    });
  });

  it('has no next link when exactly the default 100 remain, and no previous when exactly 100 precede', async () => {
    const after = await get(`/v1/orders?starting_after=${ids[COUNT - 101]}`);
    expect(idsOf(after.body as ListBody)).toEqual(ids.slice(COUNT - 100));
    expect(after.body.links).toEqual({
      next: null,
      previous: `/v1/orders?ending_before=${ids[COUNT - 100]}`,
    });
    const before = await get(`/v1/orders?ending_before=${ids[100]}`);
    expect(idsOf(before.body as ListBody)).toEqual(ids.slice(0, 100));
    expect(before.body.links).toEqual({
      next: `/v1/orders?starting_after=${ids[99]}`,
      previous: null,
    });
  });

  it('ends with next null on a last page that is exactly full', async () => {
    const res = await get(
      `/v1/orders?starting_after=${ids[COUNT - 11]}&limit=10`,
    );
    expect(idsOf(res.body as ListBody)).toEqual(ids.slice(COUNT - 10));
    expect(res.body.links).toEqual({
      next: null,
      previous: `/v1/orders?ending_before=${ids[COUNT - 10]}&limit=10`,
    });
  });
});
