import { Get, errorBody } from './utils/api';
import type { TestApp } from './utils/create-test-app';
import { createOrderList } from './utils/order-list';

// Bad, repeated and unknown query parameters: 400 VALIDATION_ERROR naming the parameter
// (docs/API.md, GET /v1/orders and Conventions: Query parameters).

describe('GET /v1/orders: validation errors', () => {
  let t: TestApp;
  let get: Get;

  beforeAll(async () => {
    ({ t, get } = await createOrderList());
  });

  afterAll(() => t.close());

  describe('limit', () => {
    it.each([
      ['0', 'limit=0'],
      ['101', 'limit=101'],
      ['-1', 'limit=-1'],
      ['abc', 'limit=abc'],
      ['1.5', 'limit=1.5'],
      ['empty', 'limit='],
      ['repeated', 'limit=1&limit=2'],
      ['hex', 'limit=0x10'],
      ['exponent', 'limit=1e1'],
      ['leading space', 'limit=%201'],
      ['trailing space', 'limit=1%20'],
      ['plus sign', 'limit=%2B1'],
      ['huge', 'limit=99999999999999999999'],
    ])(
      'rejects limit %s with 400 VALIDATION_ERROR naming limit',
      async (_, query) => {
        const res = await get(`/v1/orders?${query}`);
        expect(res.status).toBe(400);
        expect(res.headers['content-type']).toMatch(/^application\/json/);
        expect(res.body).toEqual(
          errorBody(400, 'VALIDATION_ERROR', expect.stringContaining('limit')),
        );
      },
    );

    it('says what limit must be', async () => {
      const res = await get('/v1/orders?limit=0');
      expect(res.body).toEqual(
        errorBody(
          400,
          'VALIDATION_ERROR',
          'limit must be an integer from 1 to 100',
        ),
      );
    });
  });

  describe('created_at filters', () => {
    it.each([
      ['created_at=abc', 'created_at'],
      ['created_at=', 'created_at'],
      ['created_at=1.5', 'created_at'],
      ['created_at.gt=1e9', 'created_at.gt'],
      ['created_at.gte=0x10', 'created_at.gte'],
      ['created_at.lt=%201750000000', 'created_at.lt'],
      ['created_at.lte=2026-01-01', 'created_at.lte'],
      ['created_at=1&created_at=2', 'created_at'],
      ['created_at.gt=1&created_at.gt=1', 'created_at.gt'],
      ['created_at.lte=1&created_at.lte=2', 'created_at.lte'],
    ])('rejects %s with 400 naming %s', async (query, name) => {
      const res = await get(`/v1/orders?${query}`);
      expect(res.status).toBe(400);
      expect(res.body).toEqual(
        errorBody(400, 'VALIDATION_ERROR', expect.stringContaining(name)),
      );
    });

    it.each([
      ['created_at.lt=-1', 'created_at.lt'],
      ['created_at=253402300800', 'created_at'],
      ['created_at.gte=9999999999999999', 'created_at.gte'],
      ['created_at.gt=-9999999999999999', 'created_at.gt'],
    ])(
      'refuses %s, outside 0 … 253402300799, naming %s',
      async (query, name) => {
        const res = await get(`/v1/orders?${query}`);
        expect(res.body).toEqual(
          errorBody(
            400,
            'VALIDATION_ERROR',
            `${name} must be Unix seconds from 0 to 253402300799 (the end of year 9999)`,
          ),
        );
      },
    );
  });

  describe('Ticket Tailor filters', () => {
    it.each([
      ['event_id=1', 'event_id'],
      ['event_id=ev_0', 'event_id'],
      ['event_id=ev_01', 'event_id'],
      ['event_id=ev_abc', 'event_id'],
      ['event_id=or_1', 'event_id'],
      ['event_id=ev_1,', 'event_id'],
      ['event_id=ev_1,,ev_2', 'event_id'],
      ['event_id=ev_1%20,ev_2', 'event_id'],
      ['event_id=', 'event_id'],
      ['event_id=ev_1&event_id=ev_2', 'event_id'],
      ['status=done', 'status'],
      ['status=Completed', 'status'],
      ['status=', 'status'],
      ['status=completed&status=pending', 'status'],
      ['email=', 'email'],
      ['email=a@example.com&email=b@example.com', 'email'],
      ['txn_id=', 'txn_id'],
      ['txn_id=a&txn_id=b', 'txn_id'],
      ['barcode=', 'barcode'],
      [`barcode=${'X'.repeat(65)}`, 'barcode'],
      ['barcode=a&barcode=b', 'barcode'],
    ])('rejects %s with 400 naming %s', async (query, name) => {
      const res = await get(`/v1/orders?${query}`);
      expect(res.status).toBe(400);
      expect(res.body).toEqual(
        errorBody(400, 'VALIDATION_ERROR', expect.stringContaining(name)),
      );
    });

    it.each([
      ['txn_id', `txn_id=${'t'.repeat(256)}`],
      ['email', `email=${'e'.repeat(310)}@example.com`],
    ])('rejects a %s that is too long', async (name, query) => {
      const res = await get(`/v1/orders?${query}`);
      expect(res.status).toBe(400);
      expect(res.body).toEqual(
        errorBody(400, 'VALIDATION_ERROR', expect.stringContaining(name)),
      );
    });

    it('takes up to 100 ids in an id list, and rejects more', async () => {
      const ids = (n: number, prefix: string) =>
        Array.from({ length: n }, (_, i) => `${prefix}${i + 1}`).join(',');
      expect((await get(`/v1/orders?event_id=${ids(100, 'ev_')}`)).status).toBe(
        200,
      );
      for (const [key, prefix] of [
        ['event_id', 'ev_'],
        ['event_series_id', 'es_'],
      ]) {
        const res = await get(`/v1/orders?${key}=${ids(101, prefix)}`);
        expect(res.body).toEqual(
          errorBody(
            400,
            'VALIDATION_ERROR',
            `${key} must be an id (${prefix}<number>) or a comma list of up to 100`,
          ),
        );
      }
    });

    it('rejects an email filter that is not an e-mail address', async () => {
      const res = await get('/v1/orders?email=not-an-email');
      expect(res.status).toBe(400);
      expect(res.body).toEqual(
        errorBody(400, 'VALIDATION_ERROR', expect.stringContaining('email')),
      );
    });
  });

  describe('unknown parameters', () => {
    it.each([
      'created_at.gtt',
      'foo',
      '__proto__',
      'constructor',
      'hasOwnProperty',
      'toString',
      'Limit',
      'limit[]',
      'created_at[gt]',
      'page',
      'order_by',
    ])('rejects %s with 400 naming it', async (name) => {
      const res = await get(`/v1/orders?${encodeURIComponent(name)}=1`);
      expect(res.status).toBe(400);
      expect(res.body).toEqual(
        errorBody(400, 'VALIDATION_ERROR', expect.stringContaining(name)),
      );
    });

    it('rejects an unknown parameter even beside valid ones', async () => {
      const res = await get('/v1/orders?limit=2&created_at.gtt=1');
      expect(res.body).toEqual(
        errorBody(
          400,
          'VALIDATION_ERROR',
          expect.stringContaining('created_at.gtt'),
        ),
      );
    });
  });
});
