import request from 'supertest';
import { version } from '../package.json';
import { ApiKeysService } from '../src/auth/api-keys.service';
import { MESSAGES, errorBody, getAs, idsOf, listAll } from './utils/api';
import { TestApp, basicAuth, createTestApp } from './utils/create-test-app';
import { Factory } from './utils/factories';

// API keys (HTTP Basic, key as user name) and box office tenancy: docs/API.md, Authentication
// and Tenancy.

const KEY_A = 'sk_test_tenant_a_0123456789';
const KEY_B = 'sk_test_tenant_b_0123456789';
const REVOKED = 'sk_test_revoked_0123456789';
const TO_REVOKE = 'sk_test_to_revoke_0123456789';
const UNAUTHORIZED = errorBody(401, 'UNAUTHORIZED', MESSAGES.unauthorized);
const REALM = 'Basic realm="Box Office API"';

const b64 = (text: string) => Buffer.from(text).toString('base64');

describe('authentication and tenancy', () => {
  let t: TestApp;
  let aOrders: string[];
  let bOrders: string[];
  let toRevokeId: number;

  beforeAll(async () => {
    t = await createTestApp();
    const f = new Factory(t.dataSource);
    const a = await f.boxOffice('A');
    const b = await f.boxOffice('B');
    await f.apiKey(a.id, KEY_A);
    await f.apiKey(b.id, KEY_B);
    await f.apiKey(a.id, REVOKED, true);
    toRevokeId = (await f.apiKey(a.id, TO_REVOKE)).id;
    const aEvent = await f.event(a.id);
    const bEvent = await f.event(b.id);
    // Interleaved in time and in ids, so that any leak would land inside a page.
    aOrders = [];
    bOrders = [];
    for (let i = 0; i < 6; i++) {
      aOrders.push(
        `or_${(await f.order(a.id, aEvent.id, { createdAt: 1_750_000_000 + i * 10 })).id}`,
      );
      bOrders.push(
        `or_${(await f.order(b.id, bEvent.id, { createdAt: 1_750_000_005 + i * 10 })).id}`,
      );
    }
  });

  afterAll(() => t.close());

  const orders = (authorization?: string) => {
    const req = request(t.server).get('/v1/orders?limit=2');
    return authorization === undefined
      ? req
      : req.set('Authorization', authorization);
  };

  describe('accepted credentials', () => {
    it('accepts the key as the Basic user name with an empty password', async () => {
      const res = await orders(basicAuth(KEY_A));
      expect(res.status).toBe(200);
      expect(idsOf(res.body)).toEqual([aOrders[5], aOrders[4]]);
    });

    it('accepts base64 of the key without the colon', async () => {
      const res = await orders(basicAuth(KEY_A, false));
      expect(res.status).toBe(200);
      expect(idsOf(res.body)).toEqual([aOrders[5], aOrders[4]]);
    });

    it('accepts a lower-case scheme name', async () => {
      const res = await orders(`basic ${b64(`${KEY_A}:`)}`);
      expect(res.status).toBe(200);
    });
  });

  describe('refused credentials', () => {
    it.each([
      ['no Authorization header', undefined],
      ['an empty header', ''],
      ['the Bearer scheme', `Bearer ${KEY_A}`],
      ['Bearer with the Basic payload', `Bearer ${b64(`${KEY_A}:`)}`],
      ['the bare key', KEY_A],
      ['Basic with nothing after it', 'Basic '],
      ['Basic with the key in clear', `Basic ${KEY_A}`],
      ['bad base64', 'Basic !!!not-base64!!!'],
      [
        'base64 without its padding',
        `Basic ${b64(`${KEY_A}:`).replace(/=+$/, '')}x`,
      ],
      ['an unknown key', basicAuth('sk_test_unknown_0123456789')],
      ['a revoked key', basicAuth(REVOKED)],
      ['a revoked key without the colon', basicAuth(REVOKED, false)],
      ['an empty user name', basicAuth('')],
      ['the key as password', `Basic ${b64(`:${KEY_A}`)}`],
      ['a key with a character no key has', basicAuth(`${KEY_A}!`)],
      ['the key in another case', basicAuth(KEY_A.toUpperCase())],
      ['a prefix of the key', basicAuth(KEY_A.slice(0, -1))],
    ])('answers 401 to %s, saying what to send', async (_, authorization) => {
      const res = await orders(authorization);
      expect(res.status).toBe(401);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      expect(res.headers['www-authenticate']).toBe(REALM);
      expect(res.body).toEqual(UNAUTHORIZED);
      expect(res.body.message).toMatch(/Basic/);
    });

    it('never says which part of a key was wrong, nor repeats the key', async () => {
      const messages = new Set<string>();
      for (const authorization of [
        undefined,
        `Bearer ${KEY_A}`,
        basicAuth('sk_test_unknown_0123456789'),
        basicAuth(REVOKED),
        'Basic !!!',
      ]) {
        const res = await orders(authorization);
        expect(res.status).toBe(401);
        expect(res.text).not.toContain(KEY_A);
        expect(res.text).not.toContain(REVOKED);
        expect(res.text).not.toContain('sk_test_unknown');
        expect(res.text).not.toContain(b64(`${KEY_A}:`));
        messages.add(res.body.message);
      }
      expect(messages.size).toBe(1);
    });

    it('stops accepting a key once it is revoked (within AUTH_CACHE_TTL_MS, 1 s by default)', async () => {
      expect((await orders(basicAuth(TO_REVOKE))).status).toBe(200);
      expect(await t.app.get(ApiKeysService).revoke(toRevokeId)).toBe(true);
      await new Promise((resolve) => setTimeout(resolve, 1100));
      const res = await orders(basicAuth(TO_REVOKE));
      expect(res.status).toBe(401);
      expect(res.body).toEqual(UNAUTHORIZED);
    });

    it('refuses retrieval without a valid key too', async () => {
      const res = await request(t.server).get(`/v1/orders/${aOrders[0]}`);
      expect(res.status).toBe(401);
      expect(res.headers['www-authenticate']).toBe(REALM);
      expect(res.body).toEqual(UNAUTHORIZED);
      const revoked = await request(t.server)
        .get(`/v1/orders/${aOrders[0]}`)
        .set('Authorization', basicAuth(REVOKED));
      expect(revoked.status).toBe(401);
      expect(revoked.body).toEqual(UNAUTHORIZED);
    });

    it('refuses before validating the query (no key, bad query → 401)', async () => {
      const res = await request(t.server).get('/v1/orders?limit=abc&foo=1');
      expect(res.status).toBe(401);
      expect(res.body).toEqual(UNAUTHORIZED);
    });
  });

  describe('GET /v1/ping', () => {
    it('answers without a key with the package.json version', async () => {
      const res = await request(t.server).get('/v1/ping');
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      expect(res.body).toEqual({ version });
      expect(version).toMatch(/^\d+\.\d+\.\d+/);
    });

    it('answers a right key with the version', async () => {
      for (const authorization of [basicAuth(KEY_A), basicAuth(KEY_B, false)]) {
        const res = await request(t.server)
          .get('/v1/ping')
          .set('Authorization', authorization);
        expect(res.status).toBe(200);
        expect(res.body).toEqual({ version });
      }
    });

    it.each([
      ['an unknown key', basicAuth('sk_test_unknown_0123456789')],
      ['a revoked key', basicAuth(REVOKED)],
      ['the Bearer scheme', `Bearer ${KEY_A}`],
      ['bad base64', 'Basic %%%'],
    ])(
      'answers %s with 401, so that integrations can test their key',
      async (_, authorization) => {
        const res = await request(t.server)
          .get('/v1/ping')
          .set('Authorization', authorization);
        expect(res.status).toBe(401);
        expect(res.headers['www-authenticate']).toBe(REALM);
        expect(res.body).toEqual(UNAUTHORIZED);
      },
    );
  });

  describe('tenancy', () => {
    it('lists only the caller’s orders, both ways', async () => {
      expect(await listAll(getAs(t.server, KEY_A), 'limit=4')).toEqual(
        [...aOrders].reverse(),
      );
      expect(await listAll(getAs(t.server, KEY_B), 'limit=4')).toEqual(
        [...bOrders].reverse(),
      );
    });

    it('retrieves the caller’s order and answers 404 for the other box office’s, both ways', async () => {
      for (const [key, own, theirs] of [
        [KEY_A, aOrders, bOrders],
        [KEY_B, bOrders, aOrders],
      ] as const) {
        const get = getAs(t.server, key);
        const mine = await get(`/v1/orders/${own[2]}`);
        expect(mine.status).toBe(200);
        expect(mine.body.id).toBe(own[2]);
        const other = await get(`/v1/orders/${theirs[2]}`);
        expect(other.status).toBe(404);
        expect(other.body).toEqual(
          errorBody(404, 'NOT_FOUND', MESSAGES.noOrder(theirs[2])),
        );
      }
    });

    it('treats the other box office’s order as an unknown cursor, both ways', async () => {
      for (const [key, theirs] of [
        [KEY_A, bOrders],
        [KEY_B, aOrders],
      ] as const) {
        const get = getAs(t.server, key);
        for (const cursor of ['starting_after', 'ending_before']) {
          const res = await get(`/v1/orders?${cursor}=${theirs[3]}`);
          expect(res.status).toBe(400);
          expect(res.body).toEqual(
            errorBody(400, 'INVALID_CURSOR', expect.stringContaining(cursor)),
          );
          const unknown = await get(`/v1/orders?${cursor}=or_999999`);
          expect(res.body).toEqual(unknown.body);
        }
      }
    });

    it('filters never reach into the other box office', async () => {
      const get = getAs(t.server, KEY_A);
      const bTicket = await t.dataSource.query<{ barcode: string }[]>(
        `SELECT barcode FROM issued_tickets WHERE order_id = ${Number(bOrders[0].slice(3))}`,
      );
      expect(bTicket.length).toBeGreaterThan(0);
      const res = await get(`/v1/orders?barcode=${bTicket[0].barcode}`);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        data: [],
        links: { next: null, previous: null },
      });
    });
  });
});
