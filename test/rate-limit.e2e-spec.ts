import request from 'supertest';
import { MESSAGES } from './utils/api';
import { TestApp, basicAuth, createTestApp } from './utils/create-test-app';
import { Factory } from './utils/factories';

const KEY_A = 'sk_rate_limit_a';
const KEY_B = 'sk_rate_limit_b';

async function appWithKeys(settings: Record<string, string>): Promise<TestApp> {
  const t = await createTestApp(settings);
  const factory = new Factory(t.dataSource);
  const office = await factory.boxOffice();
  await factory.apiKey(office.id, KEY_A);
  await factory.apiKey(office.id, KEY_B);
  return t;
}

const limitHeaders = (res: request.Response) => ({
  limit: res.headers['x-rate-limit-limit'],
  remaining: res.headers['x-rate-limit-remaining'],
  reset: Number(res.headers['x-rate-limit-reset']),
});

describe('rate limits, one instance', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await appWithKeys({ RATE_LIMIT_MAX: '3', RATE_LIMIT_WINDOW_S: '60' });
  });
  afterAll(() => t.close());

  it('counts every request of a key once, whatever the route, and refuses the one over', async () => {
    const auth = basicAuth(KEY_A);
    const responses = [
      await request(t.server).get('/v1/orders').set('Authorization', auth),
      await request(t.server).head('/v1/orders').set('Authorization', auth),
      await request(t.server)
        .get('/v1/no-such-path')
        .set('Authorization', auth),
    ];
    expect(responses.map((r) => r.status)).toEqual([200, 200, 404]);
    expect(responses.map((r) => limitHeaders(r).remaining)).toEqual([
      '2',
      '1',
      '0',
    ]);
    for (const res of responses) {
      expect(limitHeaders(res).limit).toBe('3');
      expect(limitHeaders(res).reset).toBeGreaterThan(0);
      expect(limitHeaders(res).reset).toBeLessThanOrEqual(60);
    }

    const refused = await request(t.server)
      .get('/v1/orders')
      .set('Authorization', auth);
    expect(refused.status).toBe(429);
    expect(refused.headers['content-type']).toMatch(/^application\/json/);
    expect(refused.body).toEqual({
      status: 429,
      error_code: 'TOO_MANY_REQUESTS',
      message: MESSAGES.rateLimited(3, 60, refused.headers['retry-after']),
    });
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(refused.headers['retry-after']).toBe(
      refused.headers['x-rate-limit-reset'],
    );
    expect(limitHeaders(refused).remaining).toBe('0');
  });

  it('keeps a separate budget per key', async () => {
    const res = await request(t.server)
      .get('/v1/orders')
      .set('Authorization', basicAuth(KEY_B));
    expect(res.status).toBe(200);
    expect(limitHeaders(res).remaining).toBe('2');
  });

  it('counts requests without a valid key per client IP (wrong keys too)', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 3; i++) {
      statuses.push((await request(t.server).get('/v1/ping')).status);
    }
    const wrongKey = await request(t.server)
      .get('/v1/ping')
      .set('Authorization', basicAuth('sk_not_a_key'));
    expect(statuses).toEqual([200, 200, 200]);
    expect(wrongKey.status).toBe(429);
    expect(wrongKey.body.error_code).toBe('TOO_MANY_REQUESTS');
  });
});

describe('rate limits when Redis cannot be reached', () => {
  let t: TestApp;
  beforeAll(async () => {
    // Nothing listens on port 1: every Redis command fails at once.
    t = await appWithKeys({
      REDIS_URL: 'redis://127.0.0.1:1',
      RATE_LIMIT_MAX: '2',
      RATE_LIMIT_WINDOW_S: '60',
    });
  });
  afterAll(() => t.close());

  it('keeps serving and still limits, counting in memory (fail open to per-instance limits)', async () => {
    const auth = basicAuth(KEY_A);
    const statuses: number[] = [];
    for (let i = 0; i < 3; i++) {
      const res = await request(t.server)
        .get('/v1/orders')
        .set('Authorization', auth);
      expect(res.headers['x-rate-limit-limit']).toBe('2');
      statuses.push(res.status);
    }
    expect(statuses).toEqual([200, 200, 429]);
  });
});
