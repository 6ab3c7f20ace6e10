import request from 'supertest';
import { DOOR_CSP } from '../src/door/door-app';
import { TestApp, basicAuth, createTestApp } from './utils/create-test-app';

// The door app's files at /door, served by the service itself as a step of its request pipeline
// (docs/API.md, "The door app"): no key needed, none inside, their own Content-Security-Policy,
// GET and HEAD of a fixed set of files and nothing else. The app itself runs in
// test/browser/door.browser-spec.ts.

describe('the door app at /door', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it.each([
    ['/door', 'text/html; charset=utf-8'],
    ['/door/', 'text/html; charset=utf-8'],
    ['/door/door.js', 'text/javascript; charset=utf-8'],
    ['/door/door.css', 'text/css; charset=utf-8'],
    ['/door/sw.js', 'text/javascript; charset=utf-8'],
    ['/door/vendor/openapi-fetch.mjs', 'text/javascript; charset=utf-8'],
    ['/door/vendor/zxing/reader/zxing_reader.wasm', 'application/wasm'],
  ])(
    'serves %s without a key, with its CSP and the rate-limit headers',
    async (path, type) => {
      const res = await request(t.server).get(path).buffer(true);
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toBe(type);
      expect(res.headers['content-security-policy']).toBe(DOOR_CSP);
      expect(res.headers['cache-control']).toBe('no-cache');
      expect(res.headers['x-rate-limit-limit']).toBeDefined();
      expect(res.headers['etag']).toBeDefined();
    },
  );

  it('allows nothing inline and WebAssembly for the camera decoder', () => {
    expect(DOOR_CSP).toContain("default-src 'none'");
    expect(DOOR_CSP).toContain("script-src 'self' 'wasm-unsafe-eval'");
    expect(DOOR_CSP).not.toContain('unsafe-inline');
  });

  it('lets its worker control /door itself', async () => {
    const res = await request(t.server).get('/door/sw.js');
    expect(res.headers['service-worker-allowed']).toBe('/door');
  });

  it('answers a conditional load with 304', async () => {
    const first = await request(t.server).get('/door');
    const again = await request(t.server)
      .get('/door')
      .set('If-None-Match', first.headers['etag'] as string);
    expect(again.status).toBe(304);
  });

  it('serves HEAD, and the page whatever key is sent (even a wrong one)', async () => {
    expect((await request(t.server).head('/door')).status).toBe(200);
    const wrong = await request(t.server)
      .get('/door')
      .set('Authorization', basicAuth('sk_wrong_0123456789'));
    expect(wrong.status).toBe(200);
  });

  it('serves nothing else: other files, other methods', async () => {
    for (const path of ['/door/index.html', '/door/nope.js', '/doorway']) {
      const res = await request(t.server).get(path);
      expect([path, res.status, res.body.error_code]).toEqual([
        path,
        404,
        'NOT_FOUND',
      ]);
    }
    const post = await request(t.server).post('/door').send({});
    expect(post.status).toBe(404);
  });
});
