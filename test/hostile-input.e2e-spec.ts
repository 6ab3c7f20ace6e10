import { isDeepStrictEqual } from 'node:util';
import fc from 'fast-check';
import request from 'supertest';
import { IssuedTicket } from '../src/issued-tickets/entities/issued-ticket.entity';
import { LineItem } from '../src/orders/entities/line-item.entity';
import { TestApp, basicAuth, createTestApp } from './utils/create-test-app';
import { Factory } from './utils/factories';
import {
  type RawRequest,
  type RawResponse,
  errorEnvelopeProblem,
  portOf,
  raw,
  requestBytes,
} from './utils/raw-http';
import { PING, RESOURCE_ROUTES } from './utils/routes';

/**
 * Property-based hostile input against every endpoint, sent as raw bytes (docs/API.md, Errors
 * and Tenancy; docs/OPERATIONS.md, Reliability). Whatever the query, path or headers:
 *
 * - no response is a 5xx;
 * - every response that is not 2xx or 304 is the one error body, as application/json;
 * - no response carries an id or a value of the other box office that the request did not
 *   itself contain (the API may repeat what it was sent, never reveal);
 * - the process still serves a normal request afterwards.
 *
 * The runs are reproducible: the seed is FUZZ_SEED (a constant unless set), and a failure's
 * message starts with the seed to rerun it with.
 */

const SEED = Number(process.env.FUZZ_SEED ?? 20_261_122);
const KEY_A = 'sk_fuzz_tenant_a_0123456789';
const KEY_B = 'sk_fuzz_tenant_b_0123456789';
const AUTH_A = basicAuth(KEY_A);
const B_EMAIL = 'b.secret.buyer@tenant-b.example';
const B_EVENT_NAME = 'Tenant B Private Gala';
const REQUEST_ID = /^[A-Za-z0-9._-]{1,64}$/;

/** Every list and retrieval route (test/utils/routes.ts): a new resource is one row there. */
const RESOURCES = RESOURCE_ROUTES.map((route) => route.name);
const ENDPOINTS = [
  PING,
  ...RESOURCES.flatMap((name) => [`/v1/${name}`, `/v1/${name}/`]),
];
/** Each list's parameters (docs/API.md, Endpoints); ping ignores its query. */
const LIST_KEYS: Record<string, string[]> = {
  ping: ['limit', 'anything'],
  ...Object.fromEntries(
    RESOURCE_ROUTES.map((route) => [route.name, route.listKeys]),
  ),
};
const QUERY_KEYS = [...new Set(Object.values(LIST_KEYS).flat())];
const HOSTILE_KEYS = [
  '__proto__',
  '__proto__[polluted]',
  'constructor',
  'constructor[prototype][polluted]',
  'prototype',
  'hasOwnProperty',
  'toString',
  'valueOf',
  '__defineGetter__',
  'limit[]',
  'limit[0]',
  'created_at[gt]',
  'LIMIT',
  ' limit',
  'limit ',
  '',
  '[]',
  '.',
  'created_at.',
  '.gt',
];
const HOSTILE_VALUES = [
  '',
  '0',
  '-1',
  '-0',
  '+1',
  ' 1',
  '01',
  '1.5',
  '1e3',
  '1e400',
  '0x10',
  'NaN',
  'Infinity',
  '9'.repeat(17),
  '9'.repeat(400),
  '2147483648',
  '18446744073709551616',
  '-9223372036854775809',
  'true',
  'null',
  'undefined',
  '[]',
  '{}',
  "' OR 1=1 --",
  'completed',
  'canceled',
  'valid',
  'void',
  'published',
  B_EMAIL,
  B_EMAIL.toUpperCase(),
  'jane.doe@example.com',
];
/** Broken or surprising percent-encoding, written into the URL as is. */
const BROKEN_ESCAPES = [
  '%',
  '%%',
  '%E0%A4%A',
  '%zz',
  '%00',
  '%0A',
  '%0D%0A',
  '%C0%AF',
  '%ED%A0%80',
  '%F4%90%80%80',
  '%FF',
  '%2e%2e',
  '%2F',
  '%5C',
  '%u0041',
];
const HOSTILE_PATHS = [
  '/',
  '*',
  '/admin',
  '/.env',
  '/metrics',
  '/v2/orders',
  '/V1/ORDERS',
  '/v1/Orders',
  '/v1/../v1/orders',
  '//v1/orders',
  '/v1//orders',
  '/v1/orders//',
  '/v1/orders/../orders',
  '/v1/orders/./',
  '/v1/./orders',
  '/v1/%2e%2e/v1/orders',
  '/v1/orders%2F',
  '/v1/orders%2for_1',
  '/v1/orders/%',
  '/v1/%',
  '/v1/orders/%E0%A4%A',
  '/v1/orders/or_1%00',
  '/v1/orders;jsessionid=1',
  '/v1/orders/or_1/',
  '/v1/orders/or_1/tickets',
  '/docs/../v1/orders',
  '/docs/%2e%2e/%2e%2e/etc/passwd',
  '/docs-json/../v1/orders',
  'http://127.0.0.1/v1/orders',
  'http://evil.example/v1/orders',
  '/v1/ping/../orders',
  '/v1/issued_tickets/it_1/../../orders',
  '/\\v1\\orders',
];
const METHODS = [
  'GET',
  'GET',
  'GET',
  'HEAD',
  'OPTIONS',
  'POST',
  'PUT',
  'PATCH',
  'DELETE',
  'TRACE',
  'PROPFIND',
  'get',
  'G ET',
];

describe('hostile input, property-based (FUZZ_SEED reproduces a run)', () => {
  let t: TestApp;
  let port: number;
  let aOrderIds: string[];
  /** Ids and values of box office B; none may reach a response unless the request had it. */
  let bSecrets: { token: string; pattern: RegExp }[];
  let idPool: string[];
  let listEtag: string;
  let sent = 0;

  beforeAll(async () => {
    t = await createTestApp({
      // Limits are tested elsewhere; here every request must reach the pipeline's later stages.
      RATE_LIMIT_MAX: '10000000',
      AUTH_FAILURE_MAX: '10000000',
    });
    port = await portOf(t.server);
    const f = new Factory(t.dataSource);
    const a = await f.boxOffice('A');
    const b = await f.boxOffice('B');
    await f.apiKey(a.id, KEY_A);
    await f.apiKey(b.id, KEY_B);
    const aEvents = [await f.event(a.id), await f.event(a.id)];
    const bEvents = [
      await f.event(b.id, { name: B_EVENT_NAME }),
      await f.event(b.id, { name: B_EVENT_NAME }),
    ];
    // A's catalogue (voucher vo_1, a signup on es_1, A's first series), and B's, whose names and
    // codes must never show to A.
    await f.voucher(a.id, {}, { codes: 2 });
    await f.product(a.id);
    await f.discount(a.id);
    await f.signup(a.id, aEvents[0].eventSeriesId);
    await f.product(b.id, { name: 'Bea Secret Poster' });
    await f.voucher(b.id, { name: 'Bea Secret Voucher' }, { codes: 1 });
    await f.discount(b.id, { code: 'BEASECRET', name: 'Bea Secret Deal' });
    await f.signup(b.id, bEvents[0].eventSeriesId, {
      email: 'bea.waiting@secret.example',
    });
    const aOrders = [];
    const bOrders = [];
    // Interleaved in ids and in time, so that a leak would land inside A's pages.
    for (let i = 0; i < 4; i++) {
      aOrders.push(
        await f.order(a.id, aEvents[i % 2].id, {
          createdAt: 1_750_000_000 + i * 10,
        }),
      );
      bOrders.push(
        await f.order(b.id, bEvents[i % 2].id, {
          createdAt: 1_750_000_005 + i * 10,
          buyerEmail: B_EMAIL,
          txnId: `ch_tenant_b_${i}`,
          buyerName: 'Bea Secret',
        }),
      );
    }
    aOrderIds = aOrders.map((o) => `or_${o.id}`);
    const bOrderIds = bOrders.map((o) => o.id);
    const bTickets = await t.dataSource
      .getRepository(IssuedTicket)
      .findBy({ boxOfficeId: b.id });
    const bLineItems = (
      await t.dataSource.getRepository(LineItem).find()
    ).filter((li) => bOrderIds.includes(li.orderId));
    const tokens = [
      ...bOrders.map((o) => `or_${o.id}`),
      ...bEvents.map((e) => `ev_${e.id}`),
      ...bTickets.map((ticket) => `it_${ticket.id}`),
      ...bLineItems.map((li) => `li_${li.id}`),
      ...bTickets.map((ticket) => ticket.barcode),
      ...bOrders.map((o) => o.txnId as string),
      B_EMAIL,
      B_EVENT_NAME,
      'Bea Secret',
      'BEASECRET',
      'bea.waiting@secret.example',
    ];
    bSecrets = tokens.map((token) => ({
      token,
      pattern: new RegExp(
        `(?<![A-Za-z0-9_])${token.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![0-9])`,
        'i',
      ),
    }));
    const aTickets = await t.dataSource
      .getRepository(IssuedTicket)
      .findBy({ boxOfficeId: a.id });
    idPool = [
      ...tokens.slice(0, 12),
      ...aOrderIds,
      ...aEvents.map((e) => `ev_${e.id}`),
      ...aTickets.map((ticket) => `it_${ticket.id}`),
      ...RESOURCE_ROUTES.map((route) => `${route.idPrefix}999999`),
      'or_0',
      'or_01',
      'or_-1',
      'OR_1',
      'or_1.0',
      'or_2147483648',
      'or_99999999999999999999999',
      'es_1',
      'tt_1',
      'ak_1',
      'or_',
      '_1',
    ];
    const list = await raw(port, {
      target: '/v1/orders',
      headers: [['Authorization', AUTH_A]],
    });
    listEtag = list.headers.etag;
  });

  afterAll(() => t.close());

  /** What the request itself said, raw and percent-decoded: the API may repeat it. */
  function requestText(request: RawRequest): string {
    const bytes = requestBytes(request).toString('latin1');
    const decoded = bytes.replace(/%([0-9a-f]{2})/gi, (_, hex: string) =>
      String.fromCharCode(parseInt(hex, 16)),
    );
    return `${bytes}\n${decoded}\n${Buffer.from(decoded, 'latin1').toString('utf8')}`;
  }

  /** Sends one generated request and returns why it broke an invariant, or null. */
  async function problemWith(request: RawRequest): Promise<string | null> {
    sent += 1;
    let res: RawResponse;
    try {
      res = await raw(port, request);
    } catch (error) {
      return `no response: ${(error as Error).message}`;
    }
    const head = request.method === 'HEAD';
    if (res.status >= 500) return `status ${res.status}: ${res.text}`;
    const success =
      (res.status >= 200 && res.status < 300) || res.status === 304;
    if (!success) {
      const problem = errorEnvelopeProblem(res, head);
      if (problem) return `status ${res.status}: ${problem}`;
    }
    if (!REQUEST_ID.test(res.headers['x-request-id'] ?? '')) {
      return `X-Request-Id ${res.headers['x-request-id']}`;
    }
    const said = requestText(request);
    const shown = `${JSON.stringify(res.headers)}\n${res.text}`;
    for (const { token, pattern } of bSecrets) {
      if (pattern.test(shown) && !pattern.test(said)) {
        return `box office B's ${token} in a response to box office A's request`;
      }
    }
    return null;
  }

  async function check(
    property: fc.IAsyncPropertyWithHooks<[RawRequest]>,
    numRuns: number,
  ) {
    try {
      await fc.assert(property, { seed: SEED, numRuns });
    } catch (error) {
      (error as Error).message =
        `Reproduce with FUZZ_SEED=${SEED}.\n${(error as Error).message}`;
      throw error;
    }
    // The process is still healthy: a normal request gets A's orders.
    const res = await raw(port, {
      target: '/v1/orders',
      headers: [['Authorization', AUTH_A]],
    });
    expect(res.status).toBe(200);
    expect(
      (JSON.parse(res.text) as { data: { id: string }[] }).data
        .map((o) => o.id)
        .sort(),
    ).toEqual([...aOrderIds].sort());
  }

  const property = (arbitrary: fc.Arbitrary<RawRequest>) =>
    fc.asyncProperty(arbitrary, async (request) => {
      const problem = await problemWith(request);
      if (problem) throw new Error(problem);
    });

  // Text in the URL: encoded properly, byte by byte, raw (UTF-8 bytes as they are), or with a
  // broken escape spliced in.
  const utf8Bytes = (text: string) =>
    Buffer.from(text, 'utf8').toString('latin1');
  const percentEncoded = (text: string) =>
    [...Buffer.from(text, 'utf8')]
      .map((byte) =>
        /[A-Za-z0-9._~-]/.test(String.fromCharCode(byte))
          ? String.fromCharCode(byte)
          : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`,
      )
      .join('');
  const inUrl = (text: fc.Arbitrary<string>) =>
    fc
      .tuple(
        text,
        fc.constantFrom(
          ...([
            'encoded',
            'encoded',
            'encoded',
            'encoded',
            'broken',
            'raw',
          ] as const),
        ),
        fc.constantFrom(...BROKEN_ESCAPES),
        fc.nat(),
      )
      .map(([value, mode, escape, at]) => {
        if (mode === 'raw') return utf8Bytes(value).replace(/[\r\n]/g, '');
        const encoded = percentEncoded(value);
        if (mode === 'encoded') return encoded;
        const cut = encoded.length === 0 ? 0 : at % (encoded.length + 1);
        return encoded.slice(0, cut) + escape + encoded.slice(cut);
      });

  const anyText = (maxLength: number) =>
    fc.oneof(
      fc.string({ unit: 'binary', maxLength }),
      fc.string({ unit: 'grapheme', maxLength }),
      fc.string({ unit: 'binary-ascii', maxLength }),
    );
  // Built when a test runs: the pool of ids exists only after beforeAll.
  const pooledId = () => fc.constantFrom(...idPool);
  const idArb = () =>
    fc.oneof(
      { weight: 3, arbitrary: pooledId() },
      { weight: 1, arbitrary: anyText(20) },
    );
  const valueArb = () =>
    fc.oneof(
      { weight: 3, arbitrary: fc.constantFrom(...HOSTILE_VALUES) },
      { weight: 3, arbitrary: pooledId() },
      { weight: 1, arbitrary: fc.integer().map(String) },
      {
        weight: 1,
        arbitrary: fc
          .bigInt({ min: -(10n ** 40n), max: 10n ** 40n })
          .map(String),
      },
      {
        weight: 1,
        arbitrary: fc
          .array(pooledId(), { maxLength: 60 })
          .map((ids) => ids.join(',')),
      },
      { weight: 2, arbitrary: anyText(40) },
    );
  const keyArb = fc.oneof(
    { weight: 5, arbitrary: fc.constantFrom(...QUERY_KEYS) },
    { weight: 2, arbitrary: fc.constantFrom(...HOSTILE_KEYS) },
    { weight: 1, arbitrary: anyText(12) },
  );
  /**
   * A query string: mostly a few known parameters with hostile values (so that values reach
   * validation and the database), otherwise anything: unknown and prototype keys, repeats, keys
   * without values and values without keys.
   */
  const queryArb = (keys: string[]) =>
    fc.oneof(
      {
        weight: 3,
        arbitrary: fc
          .array(fc.tuple(inUrl(fc.constantFrom(...keys)), inUrl(valueArb())), {
            maxLength: 3,
          })
          .map((pairs) => pairs.map(([k, v]) => `${k}=${v}`).join('&')),
      },
      {
        weight: 2,
        arbitrary: fc
          .array(
            fc.tuple(
              inUrl(keyArb),
              inUrl(valueArb()),
              fc.constantFrom('pair', 'pair', 'pair', 'key only', 'empty key'),
            ),
            { maxLength: 6 },
          )
          .map((pairs) =>
            pairs
              .map(([key, value, form]) =>
                form === 'key only'
                  ? key
                  : form === 'empty key'
                    ? `=${value}`
                    : `${key}=${value}`,
              )
              .join('&'),
          ),
      },
    );

  it('queries: keys and values of every kind on every endpoint', async () => {
    // A list (or ping) with its own parameters, or a retrieval (which takes none).
    const endpoint = fc.oneof(
      {
        weight: 3,
        arbitrary: fc
          .constantFrom('ping', ...RESOURCES)
          .chain((resource) =>
            fc.tuple(
              fc.constantFrom(`/v1/${resource}`, `/v1/${resource}/`),
              queryArb(LIST_KEYS[resource]),
            ),
          ),
      },
      {
        weight: 1,
        arbitrary: fc.tuple(
          fc
            .tuple(fc.constantFrom(...RESOURCES), pooledId())
            .map(([resource, id]) => `/v1/${resource}/${id}`),
          queryArb(QUERY_KEYS),
        ),
      },
    );
    await check(
      property(
        fc
          .record({
            endpoint,
            method: fc.constantFrom('GET', 'GET', 'GET', 'HEAD'),
            keyed: fc.constantFrom(true, true, true, false),
          })
          .map(({ endpoint: [path, query], method, keyed }) => ({
            method,
            target: query === '' ? path : `${path}?${query}`,
            headers: keyed ? [['Authorization', AUTH_A]] : [],
          })),
      ),
      900,
    );
  }, 240_000);

  it('paths and methods: ids, traversal, case, slashes and broken escapes', async () => {
    const pathArb = fc.oneof(
      { weight: 2, arbitrary: fc.constantFrom(...HOSTILE_PATHS) },
      {
        weight: 3,
        arbitrary: fc
          .tuple(fc.constantFrom(...RESOURCES), inUrl(idArb()))
          .map(([resource, id]) => `/v1/${resource}/${id}`),
      },
      {
        weight: 1,
        arbitrary: fc
          .array(inUrl(anyText(10)), { minLength: 1, maxLength: 4 })
          .map((segments) => `/${segments.join('/')}`),
      },
      { weight: 1, arbitrary: fc.constantFrom(...ENDPOINTS) },
    );
    await check(
      property(
        fc
          .record({
            target: pathArb,
            method: fc.constantFrom(...METHODS),
            keyed: fc.constantFrom(true, true, true, false),
          })
          .map(({ target, method, keyed }) => ({
            method,
            target,
            headers: keyed ? [['Authorization', AUTH_A]] : [],
          })),
      ),
      500,
    );
  }, 240_000);

  it('headers: Authorization, If-None-Match, Accept-Encoding, X-Request-Id and others', async () => {
    const b64 = (text: string) => Buffer.from(text).toString('base64');
    // Mostly printable (so that most requests get past Node's parser), sometimes any bytes but
    // CR and LF (which would end the header: request framing is checked in http-limits).
    const headerText = (maxLength: number) =>
      fc.oneof(
        {
          weight: 3,
          arbitrary: fc.string({ unit: 'grapheme-ascii', maxLength }),
        },
        {
          weight: 1,
          arbitrary: anyText(maxLength).map((text) =>
            utf8Bytes(text).replace(/[\r\n]/g, ''),
          ),
        },
      );
    const authorization = fc.oneof(
      fc.constantFrom(
        AUTH_A,
        `Basic ${b64(KEY_A)}`,
        `basic ${b64(`${KEY_A}:`)}`,
        `BASIC    ${b64(`${KEY_A}:`)}   `,
        `Basic ${b64(`${KEY_A}:password`)}`,
        `Bearer ${KEY_A}`,
        KEY_A,
        'Basic',
        'Basic ',
        'Basic =',
        'Basic ====',
        `Basic ${b64(`${KEY_B}x:`)}`,
        `Basic ${b64(`${KEY_A.slice(0, -1)}:`)}`,
        `Basic ${b64(`${KEY_A}:`)} ${b64(`${KEY_A}:`)}`,
        `Basic ${b64(`${KEY_A}:${'x'.repeat(4000)}`)}`,
        `Basic ${b64('x'.repeat(201))}`,
        `Basic ${b64('\u0000:')}`,
        'Digest username="a", realm="b"',
        `Basic ${b64(`${KEY_A}:`).replace(/=+$/, '')}`,
      ),
      headerText(60).map((text) => `Basic ${b64(text)}`),
      headerText(60),
    );
    const ifNoneMatch = fc.oneof(
      fc.constantFrom(
        '*',
        'W/"x"',
        '""',
        '',
        ',,,',
        `"${'a'.repeat(3000)}"`,
        Array.from({ length: 300 }, (_, i) => `"${i}"`).join(', '),
        listEtag,
        `W/${listEtag}`,
      ),
      headerText(40),
    );
    const acceptEncoding = fc.oneof(
      fc.constantFrom(
        'gzip',
        'br',
        'deflate',
        'identity',
        '*',
        'identity;q=0',
        '*;q=0',
        'gzip;q=1.5',
        'gzip;q=-1',
        'br;q=0.5, gzip;q=0.5',
        'zstd',
        'x'.repeat(1000),
        ',',
      ),
      headerText(40),
    );
    const requestId = fc.oneof(
      fc.constantFrom('abc', 'req-1', 'x'.repeat(64), 'x'.repeat(65), 'a b'),
      fc.stringMatching(/^[A-Za-z0-9._-]{1,64}$/),
      headerText(80),
    );
    const optional = <T>(arbitrary: fc.Arbitrary<T>) =>
      fc.option(arbitrary, { freq: 3 });
    const headersArb = fc
      .record({
        authorization: optional(authorization),
        secondAuthorization: fc.option(authorization, { freq: 8 }),
        ifNoneMatch: optional(ifNoneMatch),
        acceptEncoding: optional(acceptEncoding),
        requestId: optional(requestId),
        secondRequestId: fc.option(requestId, { freq: 8 }),
        other: fc.option(
          fc.tuple(
            fc.oneof(
              fc.constantFrom(
                'Accept',
                'Content-Type',
                'Content-Length',
                'Transfer-Encoding',
                'Expect',
                'Origin',
                'X-Forwarded-For',
                'Cache-Control',
                'Range',
                'Cookie',
              ),
              headerText(12),
            ),
            headerText(60),
          ),
          { freq: 3 },
        ),
      })
      .map((h) => {
        const lines: [string, string][] = [];
        if (h.authorization !== null)
          lines.push(['Authorization', h.authorization]);
        if (h.secondAuthorization !== null)
          lines.push(['Authorization', h.secondAuthorization]);
        if (h.ifNoneMatch !== null)
          lines.push(['If-None-Match', h.ifNoneMatch]);
        if (h.acceptEncoding !== null)
          lines.push(['Accept-Encoding', h.acceptEncoding]);
        if (h.requestId !== null) lines.push(['X-Request-Id', h.requestId]);
        if (h.secondRequestId !== null)
          lines.push(['X-Request-Id', h.secondRequestId]);
        if (h.other !== null) lines.push(h.other);
        return lines;
      });
    const target = fc.oneof(
      fc.constantFrom(...ENDPOINTS),
      fc.constantFrom('/v1/orders?limit=1', '/v1/nope'),
      fc
        .tuple(fc.constantFrom(...RESOURCES), pooledId())
        .map(([resource, id]) => `/v1/${resource}/${id}`),
    );
    await check(
      property(
        fc
          .record({
            target,
            headers: headersArb,
            method: fc.constantFrom('GET', 'GET', 'HEAD'),
          })
          .map(({ target: path, headers, method }) => ({
            method,
            target: path,
            headers,
          })),
      ),
      700,
    );
  }, 240_000);

  it('sent at least 2,000 generated requests in all', () => {
    expect(sent).toBeGreaterThanOrEqual(2_000);
  });
});

describe('a NUL character in any query parameter of any list', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({ RATE_LIMIT_MAX: '1000000' });
    const f = new Factory(t.dataSource);
    await f.tenant(KEY_A);
  });

  afterAll(() => t.close());

  // PostgreSQL's text cannot hold NUL: a barcode or a name with one reached the database and
  // failed there (500) before it was refused with the others.
  it('is refused 400, naming the parameter, on every list and for every parameter', async () => {
    const answers: string[] = [];
    for (const route of RESOURCE_ROUTES) {
      for (const key of route.listKeys) {
        for (const value of ['%00', 'a%00b', 'ev_1%00']) {
          const res = await request(t.server)
            .get(`/v1/${route.name}?${key}=${value}`)
            .set('Authorization', AUTH_A);
          const expected = {
            status: 400,
            error_code: 'VALIDATION_ERROR',
            message: `${key} must not contain a NUL character (%00)`,
          };
          if (res.status !== 400 || !isDeepStrictEqual(res.body, expected)) {
            answers.push(
              `${route.name}?${key}=${value}: ${res.status} ${res.text}`,
            );
          }
        }
      }
    }
    expect(answers).toEqual([]);
  });
});
