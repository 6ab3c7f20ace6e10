import { TestApp, basicAuth, createTestApp } from './utils/create-test-app';
import { Factory } from './utils/factories';
import {
  type RawResponse,
  errorEnvelopeProblem,
  portOf,
  raw,
  sendRaw,
} from './utils/raw-http';
import { PING, RESOURCE_ROUTES } from './utils/routes';

// Protocol and query abuse, sent as raw bytes to every list and retrieval route (the table in
// test/utils/routes.ts): whatever arrives, the answer is below 500, arrives in time (sendRaw gives
// up after 5 s), and is the one error body when it is not a success (docs/API.md, Errors and
// Limits). Generated requests are in hostile-input.e2e-spec.ts; these are the named tricks.

const KEY = 'sk_protocol_abuse_0123456789';
const AUTH = basicAuth(KEY);
const LISTS = RESOURCE_ROUTES.map((route) => route.name);

/** Below 500; the error body unless a success; a valid request id. */
function expectContractAnswer(res: RawResponse, head = false) {
  expect(res.status).toBeLessThan(500);
  if (res.status >= 400) expect(errorEnvelopeProblem(res, head)).toBeNull();
  expect(res.headers['x-request-id']).toMatch(/^[A-Za-z0-9._-]{1,64}$/);
}

const get = (port: number, target: string, headers: [string, string][] = []) =>
  raw(port, { target, headers: [['Authorization', AUTH], ...headers] });

/** Sends a request line and header lines exactly as written. */
const sendLines = (port: number, lines: string[], body = '') =>
  sendRaw(port, Buffer.from(`${lines.join('\r\n')}\r\n\r\n${body}`, 'latin1'));

describe('protocol and query abuse on every route', () => {
  let t: TestApp;
  let port: number;

  beforeAll(async () => {
    t = await createTestApp({
      RATE_LIMIT_MAX: '10000000',
      AUTH_FAILURE_MAX: '10000000',
    });
    const f = new Factory(t.dataSource);
    const { office, event } = await f.tenant(KEY);
    await f.order(office.id, event.id);
    // What the nested routes need: voucher vo_1, and a signup on the event's series (es_1).
    await f.voucher(office.id, {}, { codes: 1 });
    await f.signup(office.id, event.eventSeriesId);
    port = await portOf(t.server);
  });
  afterAll(() => t.close());

  describe('query parameters', () => {
    // For each list and each of its parameters: the array and object forms some parsers build,
    // and the prototype keys that would pollute an object built from the query.
    const shapes = RESOURCE_ROUTES.flatMap((route) =>
      route.listKeys.flatMap((key) =>
        [
          `${key}[]=x`,
          `${key}[]=1&${key}[]=2`,
          `${key}[a]=1`,
          `${key}[0]=1`,
          `${key}[__proto__]=1`,
          `__proto__[${key}]=1`,
          `__proto__.${key}=1`,
          `constructor[prototype][${key}]=1`,
          `prototype[${key}]=1`,
          `${key}=1&${key}=2`,
        ].map((query) => [route.name, query] as const),
      ),
    );

    it.each(shapes)(
      '/v1/%s?%s: 400 (VALIDATION_ERROR, or INVALID_CURSOR for a cursor), no 5xx',
      async (list, query) => {
        const res = await get(port, `/v1/${list}?${query}`);
        expectContractAnswer(res);
        expect(res.status).toBe(400);
        expect(['VALIDATION_ERROR', 'INVALID_CURSOR']).toContain(
          JSON.parse(res.text).error_code,
        );
      },
    );

    it.each(
      LISTS.flatMap((list) =>
        ['__proto__', 'constructor', 'prototype', '__proto__[polluted]'].map(
          (key) => [list, key] as const,
        ),
      ),
    )('/v1/%s?%s=1 is refused and pollutes nothing', async (list, key) => {
      const res = await get(port, `/v1/${list}?${key}=1`);
      expectContractAnswer(res);
      expect(res.status).toBe(400);
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
      // And the next request is served as usual.
      expect((await get(port, `/v1/${list}`)).status).toBe(200);
    });

    it.each(
      RESOURCE_ROUTES.flatMap((route) =>
        route.idLists.map(
          ({ key, prefix }) => [route.name, key, prefix] as const,
        ),
      ),
    )(
      '/v1/%s?%s=<thousands of ids>: 400 within 16 KB, the JSON 431 past it',
      async (list, key, prefix) => {
        const repeated = Array.from({ length: 2_500 }, () => `${prefix}1`);
        const res = await get(port, `/v1/${list}?${key}=${repeated.join(',')}`);
        expectContractAnswer(res);
        expect(res.status).toBe(400);
        const distinct = Array.from(
          { length: 3_000 },
          (_, i) => `${prefix}${i + 1}`,
        );
        const longer = await get(
          port,
          `/v1/${list}?${key}=${distinct.join(',')}`,
        );
        expectContractAnswer(longer);
        expect(longer.status).toBe(431);
      },
    );

    it.each(LISTS)(
      '/v1/%s with 5,000 parameters in 10 KB: 400',
      async (list) => {
        const res = await get(
          port,
          `/v1/${list}?${Array.from({ length: 5_000 }, () => 'a').join('&')}`,
        );
        expectContractAnswer(res);
        expect(res.status).toBe(400);
      },
    );

    it.each(LISTS)(
      '/v1/%s with 10,000 parameters (past the head limit): the JSON 431',
      async (list) => {
        const query = Array.from({ length: 10_000 }, (_, i) => `p${i}=1`);
        const res = await get(port, `/v1/${list}?${query.join('&')}`);
        expectContractAnswer(res);
        expect(res.status).toBe(431);
      },
    );

    it.each(
      LISTS.flatMap((list) =>
        [
          'status=%FF%FE',
          'status=%C0%80',
          'status=%00',
          'status=a%00b',
          'limit=1%00',
          '%00=1',
          'limit=%',
          'limit=%E0%A4%A',
          '%FF=1',
        ].map((query) => [list, query] as const),
      ),
    )('/v1/%s?%s (not UTF-8, NUL, broken escape): 400', async (list, query) => {
      const res = await get(port, `/v1/${list}?${query}`);
      expectContractAnswer(res);
      expect(res.status).toBe(400);
    });
  });

  describe('paths', () => {
    // Dot segments and encodings that a normalising proxy or router could resolve to a route:
    // never resolved here, each is no route.
    const tricks = (name: string, prefix: string) => [
      `/v1/%2e%2e/${name}`,
      `/v1/%2E%2E/${name}`,
      `/v1/${name}/..%2f`,
      `/v1/${name}/..%2F..%2F${name}`,
      `/v1/${name}/%2e%2e%2f`,
      `/v1/${name}/%252e%252e%252f`,
      `/v1/%252e%252e/${name}`,
      `/v1/${name}%2f${prefix}1`,
      `/v1/${name}/${prefix}1%2f..`,
      `/v1/${name}/.%2e/${name}`,
      `/v1/${name}/%2e/`,
      `/v1/${name}/${prefix}1%00`,
      `/v1/${name}/${prefix}%FF%FE`,
      `/v1/${name}/${prefix}%C0%AE%C0%AE`,
      `/v1/${name}/${prefix}1;x=1`,
      `/v1/${name}/${prefix}1%23x`,
      `/v1/${name}/${prefix}1%3Fx=1`,
      `/v1/${name}\\${prefix}1`,
    ];

    it.each(
      RESOURCE_ROUTES.flatMap(({ name, idPrefix }) =>
        tricks(name, idPrefix).map((path) => [path] as const),
      ),
    )(
      '%s: 404 NOT_FOUND (or 400), never a route reached by decoding',
      async (path) => {
        const res = await get(port, path);
        expectContractAnswer(res);
        expect([400, 404]).toContain(res.status);
      },
    );

    it.each([...LISTS, 'ping'])(
      'a 15 KB path under /v1/%s: 404; a 17 KB one: the JSON 431',
      async (name) => {
        const long = await get(port, `/v1/${name}/${'a'.repeat(15 * 1024)}`);
        expectContractAnswer(long);
        expect(long.status).toBe(404);
        const longer = await get(port, `/v1/${name}/${'a'.repeat(17 * 1024)}`);
        expectContractAnswer(longer);
        expect(longer.status).toBe(431);
      },
    );

    it.each(
      RESOURCE_ROUTES.flatMap(({ name, idPrefix }) => [
        [`/v1/${name}/${idPrefix}1\x00`],
        [`/v1/${name}/${idPrefix}\xff\xfe`],
        [`/v1/${name}?status=\x00`],
        [`/v1/${name}?status=\xc3\x28`],
      ]),
    )(
      'raw bytes in %j: the JSON 400 (or a 4xx), never a 5xx',
      async (target) => {
        const res = await sendLines(port, [
          `GET ${target} HTTP/1.1`,
          'Host: x',
          `Authorization: ${AUTH}`,
          'Connection: close',
        ]);
        expectContractAnswer(res);
        expect(res.status).toBeGreaterThanOrEqual(400);
      },
    );
  });

  describe('request lines and headers', () => {
    const routes = [
      PING,
      ...RESOURCE_ROUTES.flatMap(({ name, idPrefix }) => [
        `/v1/${name}`,
        `/v1/${name}/${idPrefix}1`,
      ]),
    ];

    it.each(
      routes.flatMap((route) =>
        [
          `GET ${route}`,
          `GET ${route} HTTP/1.1 extra`,
          `GET  ${route} HTTP/1.1`,
          `GET ${route} HTTP/1.1\x00`,
          `GET ${route}\tHTTP/1.1`,
          `GET ${route} HTTP/2.0`,
          `GET ${route} http/1.1`,
          `${'G'.repeat(5000)} ${route} HTTP/1.1`,
          `GET\x00 ${route} HTTP/1.1`,
        ].map((line) => [line] as const),
      ),
    )(
      'malformed request line %j: served as Node reads it, or a 4xx in the error body',
      async (line) => {
        const res = await sendLines(port, [
          line,
          'Host: x',
          `Authorization: ${AUTH}`,
        ]);
        expectContractAnswer(res);
      },
    );

    it.each(routes)(
      '%s with two Authorization headers: one of them is used, or a 4xx; never a 5xx',
      async (route) => {
        for (const other of [
          AUTH,
          basicAuth('sk_nobody_0123456789'),
          'Bearer x',
        ]) {
          const res = await raw(port, {
            target: route,
            headers: [
              ['Authorization', AUTH],
              ['Authorization', other],
            ],
          });
          expectContractAnswer(res);
        }
      },
    );

    it.each(routes)(
      '%s with two Host headers, an empty one, or a 10 KB one: never a 5xx',
      async (route) => {
        for (const hosts of [
          [
            ['Host', 'a'],
            ['Host', 'b'],
          ],
          [['Host', '']],
          [['Host', 'h'.repeat(10 * 1024)]],
          [['Host', 'evil.example:99999']],
        ] as [string, string][][]) {
          const res = await raw(port, {
            target: route,
            headers: [...hosts, ['Authorization', AUTH]],
          });
          expectContractAnswer(res);
        }
      },
    );

    it.each(
      routes.flatMap((route) =>
        [
          ['Content-Length: 3', 'Transfer-Encoding: chunked'],
          ['Transfer-Encoding: chunked', 'Content-Length: 3'],
          ['Content-Length: 1', 'Content-Length: 2'],
          ['Content-Length: 1, 2'],
          ['Content-Length: -1'],
          ['Content-Length: 0x10'],
          ['Content-Length: 99999999999999999999999'],
          ['Transfer-Encoding: chunked, identity'],
          ['Transfer-Encoding: xchunked'],
          ['Transfer-Encoding: chunked', 'Transfer-Encoding: chunked'],
          ['Transfer-Encoding : chunked'],
        ].map((headers) => [route, headers.join(' + '), headers] as const),
      ),
    )(
      '%s with %s: a 4xx in the error body, or served',
      async (route, _, headers) => {
        const res = await sendLines(
          port,
          [
            `GET ${route} HTTP/1.1`,
            'Host: x',
            `Authorization: ${AUTH}`,
            ...headers,
          ],
          '0\r\n\r\n',
        );
        expectContractAnswer(res);
      },
    );

    it.each(routes)(
      '%s with 100 headers of 150 bytes each, and with one 15 KB header: never a 5xx',
      async (route) => {
        const many = await raw(port, {
          target: route,
          headers: [
            ['Authorization', AUTH],
            ...Array.from(
              { length: 100 },
              (_, i) => [`X-Many-${i}`, 'v'.repeat(150)] as [string, string],
            ),
          ],
        });
        expectContractAnswer(many);
        const big = await raw(port, {
          target: route,
          headers: [
            ['Authorization', AUTH],
            ['X-Big', 'v'.repeat(15 * 1024)],
          ],
        });
        expectContractAnswer(big);
      },
    );
  });

  it('still serves a normal request after all of it', async () => {
    for (const list of LISTS)
      expect((await get(port, `/v1/${list}`)).status).toBe(200);
  });
});
