import { once } from 'node:events';
import { type Socket, connect } from 'node:net';
import { MESSAGES, errorBody } from './utils/api';
import { TestApp, basicAuth, createTestApp } from './utils/create-test-app';
import { Factory } from './utils/factories';
import {
  errorEnvelopeProblem,
  parseResponse,
  portOf,
  raw,
  requestBytes,
  sendRaw,
} from './utils/raw-http';

// The HTTP server's limits and timeouts (docs/API.md, Limits; docs/OPERATIONS.md, Reliability): oversized
// requests, malformed bytes, bodies on GET, slow and idle clients. Sent as raw bytes: an HTTP
// client library would refuse or rewrite most of these requests.

const KEY = 'sk_http_limits_0123456789';
const AUTH = basicAuth(KEY);
const HEADERS_TOO_LARGE = errorBody(
  431,
  'HEADERS_TOO_LARGE',
  'The request line and headers must not exceed 16 KB together',
);
const MALFORMED = errorBody(
  400,
  'VALIDATION_ERROR',
  'The request is malformed',
);

function expectEnvelope(
  res: { status: number; headers: Record<string, string>; text: string },
  expected: ReturnType<typeof errorBody>,
) {
  expect(errorEnvelopeProblem(res as never, false)).toBeNull();
  expect(JSON.parse(res.text)).toEqual(expected);
  expect(res.headers['x-request-id']).toMatch(/^[A-Za-z0-9._-]{1,64}$/);
}

async function seed(t: TestApp): Promise<string[]> {
  const f = new Factory(t.dataSource);
  const { office, event } = await f.tenant(KEY);
  const ids: string[] = [];
  for (let i = 0; i < 3; i++) {
    ids.push(
      `or_${(await f.order(office.id, event.id, { createdAt: 1_750_000_000 + i })).id}`,
    );
  }
  return ids;
}

describe('HTTP limits, default settings', () => {
  let t: TestApp;
  let port: number;
  let orderIds: string[];

  beforeAll(async () => {
    t = await createTestApp();
    orderIds = await seed(t);
    port = await portOf(t.server);
  });
  afterAll(() => t.close());

  it('sets the documented timeouts and bounds on the HTTP server', () => {
    expect({
      headersTimeout: t.server.headersTimeout,
      requestTimeout: t.server.requestTimeout,
      keepAliveTimeout: t.server.keepAliveTimeout,
      timeout: t.server.timeout,
      maxConnections: t.server.maxConnections,
      maxHeaderSize: (t.server as unknown as { maxHeaderSize: number })
        .maxHeaderSize,
    }).toEqual({
      headersTimeout: 10_000,
      requestTimeout: 30_000,
      keepAliveTimeout: 5_000,
      timeout: 30_000,
      maxConnections: 4_000,
      maxHeaderSize: 16_384,
    });
  });

  describe('query strings over 8 KB', () => {
    it('answers a 9 KB filter value with the 400 envelope naming it', async () => {
      const res = await raw(port, {
        target: `/v1/orders?email=${'a'.repeat(9 * 1024)}@example.com`,
        headers: [['Authorization', AUTH]],
      });
      expect(res.status).toBe(400);
      expectEnvelope(
        res,
        errorBody(
          400,
          'VALIDATION_ERROR',
          'email must be an e-mail address of at most 320 characters',
        ),
      );
    });

    it('answers 2,500 parameters (10 KB) with the 400 envelope', async () => {
      const res = await raw(port, {
        target: `/v1/orders?${'a=1&'.repeat(2_500)}`,
        headers: [['Authorization', AUTH]],
      });
      expect(res.status).toBe(400);
      expect(errorEnvelopeProblem(res, false)).toBeNull();
    });

    it('lets ping ignore a 9 KB query', async () => {
      const res = await raw(port, {
        target: `/v1/ping?pad=${'x'.repeat(9 * 1024)}`,
      });
      expect(res.status).toBe(200);
    });

    it('answers a 20 KB query (past the 16 KB head limit) with the JSON 431', async () => {
      const res = await raw(port, {
        target: `/v1/orders?email=${'a'.repeat(20 * 1024)}`,
        headers: [['Authorization', AUTH]],
      });
      expect(res.status).toBe(431);
      expectEnvelope(res, HEADERS_TOO_LARGE);
    });
  });

  describe('headers over 16 KB', () => {
    it.each([
      ['one 20 KB header', [['X-Padding', 'x'.repeat(20 * 1024)]]],
      [
        'a 17 KB Authorization header',
        [['Authorization', `Basic ${'QUFB'.repeat(17 * 256)}`]],
      ],
      [
        '400 headers of 50 bytes',
        Array.from({ length: 400 }, (_, i) => [`X-H${i}`, 'y'.repeat(50)]),
      ],
    ] as [string, [string, string][]][])(
      'answers %s with the JSON 431, not Node’s bare status line',
      async (_, headers) => {
        const res = await raw(port, { target: '/v1/ping', headers });
        expect(res.status).toBe(431);
        expectEnvelope(res, HEADERS_TOO_LARGE);
        expect(res.headers.connection).toBe('close');
      },
    );

    it('keeps serving afterwards', async () => {
      const res = await raw(port, {
        target: '/v1/orders',
        headers: [['Authorization', AUTH]],
      });
      expect(res.status).toBe(200);
    });
  });

  describe('bytes that are not HTTP', () => {
    it.each([
      ['a control character in the path', 'GET /v1/orders/or_1\x01 HTTP/1.1'],
      ['a space in the path', 'GET /v1/or ders HTTP/1.1'],
      ['a raw non-ASCII byte in the path', 'GET /v1/orders/\xe9 HTTP/1.1'],
      ['a TLS handshake', '\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03'],
      ['an unknown HTTP version', 'GET /v1/orders HTTP/9.9'],
      ['a method that is not a token', 'G{T /v1/orders HTTP/1.1'],
    ])('answers %s with the JSON 400', async (_, requestLine) => {
      const res = await sendRaw(
        port,
        Buffer.from(`${requestLine}\r\nHost: x\r\n\r\n`, 'latin1'),
      );
      expect(res.status).toBe(400);
      expectEnvelope(res, MALFORMED);
    });

    it.each([
      ['a NUL byte', 'X-Request-Id: a\x00b'],
      ['a bare CR', 'X-Request-Id: a\rb'],
      ['a space before the colon', 'X-Request-Id : abc'],
      ['no colon', 'X-Request-Id abc'],
      ['a name with a space', 'X Request: abc'],
      [
        'Content-Length with Transfer-Encoding (request smuggling)',
        'Content-Length: 3\r\nTransfer-Encoding: chunked',
      ],
      [
        'two different Content-Lengths',
        'Content-Length: 1\r\nContent-Length: 2',
      ],
    ])('answers a header with %s with the JSON 400', async (_, header) => {
      const res = await sendRaw(
        port,
        Buffer.from(
          `GET /v1/ping HTTP/1.1\r\nHost: x\r\n${header}\r\n\r\n`,
          'latin1',
        ),
      );
      expect(res.status).toBe(400);
      expectEnvelope(res, MALFORMED);
    });

    it('cannot be made to add a header through X-Request-Id (CR LF)', async () => {
      // The CR LF ends the header: `Set-Cookie` arrives as a request header of its own, and the
      // request id, `a`, is echoed alone.
      const res = await raw(port, {
        target: '/v1/ping',
        headers: [['X-Request-Id', 'a\r\nSet-Cookie: stolen=1']],
      });
      expect(res.status).toBe(200);
      expect(res.headers['x-request-id']).toBe('a');
      expect(res.headers['set-cookie']).toBeUndefined();
    });

    it('serves a request with an Expect it does not know instead of a bare 417', async () => {
      const res = await raw(port, {
        target: '/v1/orders',
        headers: [
          ['Authorization', AUTH],
          ['Expect', 'something-else'],
        ],
      });
      expect(res.status).toBe(200);
    });
  });

  describe('request bodies on GET', () => {
    it('answers without waiting for a body announced as 1 GB (it is never read)', async () => {
      const started = performance.now();
      const res = await sendRaw(
        port,
        Buffer.concat([
          requestBytes({
            target: '/v1/orders',
            headers: [
              ['Authorization', AUTH],
              ['Content-Type', 'application/json'],
              ['Content-Length', String(1024 ** 3)],
            ],
          }),
          Buffer.from('{"limit": 1, '),
        ]),
      );
      expect(res.status).toBe(200);
      expect(performance.now() - started).toBeLessThan(1_000);
      expect(JSON.parse(res.text).data).toHaveLength(3);
    });

    it('answers a streamed chunked body without buffering it, and ignores it', async () => {
      const socket = connect(port, '127.0.0.1');
      await once(socket, 'connect');
      let received = Buffer.alloc(0);
      socket.on('data', (chunk: Buffer) => {
        received = Buffer.concat([received, chunk]);
      });
      socket.write(
        requestBytes({
          target: '/v1/orders',
          headers: [
            ['Authorization', AUTH],
            ['Transfer-Encoding', 'chunked'],
            ['Connection', 'keep-alive'],
          ],
        }),
      );
      // Stream 4 MB of body while the response arrives; the body never ends.
      const chunk = Buffer.alloc(64 * 1024, 'a');
      for (let i = 0; i < 64 && !parseResponse(received, false, false); i++) {
        socket.write(`${chunk.length.toString(16)}\r\n`);
        socket.write(chunk);
        socket.write('\r\n');
        await new Promise((resolve) => setImmediate(resolve));
      }
      const deadline = Date.now() + 2_000;
      while (!parseResponse(received, false, false) && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      socket.destroy();
      const res = parseResponse(received, false, false);
      expect(res?.status).toBe(200);
      expect(JSON.parse(res?.text ?? '{}').data).toHaveLength(3);
    });

    it('answers as if there were no body: a JSON body does not act as parameters', async () => {
      const withBody = await raw(port, {
        target: `/v1/orders/${orderIds[0]}`,
        headers: [
          ['Authorization', AUTH],
          ['Content-Type', 'application/json'],
          ['Content-Length', '28'],
        ],
        body: '{"limit":1,"__proto__":{}} ',
      });
      const without = await raw(port, {
        target: `/v1/orders/${orderIds[0]}`,
        headers: [['Authorization', AUTH]],
      });
      expect(withBody.status).toBe(200);
      expect(withBody.text).toBe(without.text);
    });
  });

  describe('only documented routes answer', () => {
    it.each([
      '/admin',
      '/.env',
      '/metrics',
      '/v2/orders',
      '/V1/ORDERS',
      '/v1/Orders',
      '/V1/orders',
      '/v1/PING',
      '/DOCS',
      '/Docs-Json',
      '/v1/../v1/orders',
      '//v1/orders',
      '/v1//orders',
      '/v1/orders//',
      '/v1/orders/../orders',
      '/v1/./orders',
      '/v1/%2e%2e/v1/orders',
      '/v1/orders%2F',
      '/docs/../v1/orders',
    ])('GET %s → 404 envelope, even with a valid key', async (path) => {
      const res = await raw(port, {
        target: path,
        headers: [['Authorization', AUTH]],
      });
      expect(res.status).toBe(404);
      expect(errorEnvelopeProblem(res, false)).toBeNull();
      expect(JSON.parse(res.text)).toEqual(
        errorBody(
          404,
          'NOT_FOUND',
          expect.stringMatching(/^No resource at GET /),
        ),
      );
    });

    it.each(['/v1/orders/', '/v1/events/', '/v1/issued_tickets/'])(
      'still accepts the trailing slash on a list: %s',
      async (path) => {
        const res = await raw(port, {
          target: path,
          headers: [['Authorization', AUTH]],
        });
        expect(res.status).toBe(200);
      },
    );

    it('answers the unknown-path message for a wrong case, as for any unknown path', async () => {
      const res = await raw(port, {
        target: '/v1/ORDERS',
        headers: [['Authorization', AUTH]],
      });
      expect(JSON.parse(res.text)).toEqual(
        errorBody(404, 'NOT_FOUND', MESSAGES.noResource('GET', '/v1/ORDERS')),
      );
    });
  });
});

describe('HTTP limits: slow and idle clients', () => {
  const HEADERS_TIMEOUT_MS = 1_500;
  let t: TestApp;
  let port: number;

  beforeAll(async () => {
    t = await createTestApp({
      HTTP_HEADERS_TIMEOUT_MS: String(HEADERS_TIMEOUT_MS),
      HTTP_REQUEST_TIMEOUT_MS: String(HEADERS_TIMEOUT_MS),
      HTTP_KEEP_ALIVE_TIMEOUT_MS: '300',
      RATE_LIMIT_MAX: '100000',
    });
    await seed(t);
    port = await portOf(t.server);
  });
  afterAll(() => t.close());

  it('serves a normal request within 1 s while 200 sockets hold partial headers, then closes them with a JSON 408', async () => {
    const sockets: { socket: Socket; data: Buffer[]; closed: Promise<void> }[] =
      [];
    for (let i = 0; i < 200; i++) {
      const socket = connect(port, '127.0.0.1');
      const data: Buffer[] = [];
      socket.on('data', (chunk: Buffer) => data.push(chunk));
      socket.on('error', () => undefined);
      const closed = once(socket, 'close').then(() => undefined);
      await once(socket, 'connect');
      socket.write(`GET /v1/orders HTTP/1.1\r\nHost: x\r\nX-Slow-${i}: `);
      sockets.push({ socket, data, closed });
    }
    const opened = Date.now();

    const started = performance.now();
    const res = await raw(port, {
      target: '/v1/orders',
      headers: [['Authorization', AUTH]],
    });
    expect(res.status).toBe(200);
    expect(performance.now() - started).toBeLessThan(1_000);

    // Every slow socket is answered and closed once HTTP_HEADERS_TIMEOUT_MS has passed (checked
    // every second at most).
    await Promise.all(sockets.map((s) => s.closed));
    const waited = Date.now() - opened;
    expect(waited).toBeGreaterThanOrEqual(HEADERS_TIMEOUT_MS - 200);
    expect(waited).toBeLessThan(HEADERS_TIMEOUT_MS + 3_000);
    for (const { data } of sockets) {
      const answer = parseResponse(Buffer.concat(data), false, true);
      expect(answer?.status).toBe(408);
      expect(JSON.parse(answer?.text ?? '{}')).toEqual(
        errorBody(
          408,
          'REQUEST_TIMEOUT',
          'The request was not received in time',
        ),
      );
    }
  }, 20_000);

  it('closes an idle keep-alive connection after HTTP_KEEP_ALIVE_TIMEOUT_MS (plus Node’s 1 s margin)', async () => {
    const socket = connect(port, '127.0.0.1');
    socket.on('error', () => undefined);
    await once(socket, 'connect');
    let received = Buffer.alloc(0);
    socket.on('data', (chunk: Buffer) => {
      received = Buffer.concat([received, chunk]);
    });
    const closed = once(socket, 'close');
    socket.write(
      requestBytes({
        target: '/v1/ping',
        headers: [['Connection', 'keep-alive']],
      }),
    );
    const started = Date.now();
    await closed;
    const res = parseResponse(received, false, false);
    expect(res?.status).toBe(200);
    expect(Date.now() - started).toBeGreaterThanOrEqual(250);
    expect(Date.now() - started).toBeLessThan(4_000);
  });
});

/** A connected socket that records what it receives and when it closes. */
async function openSocket(port: number) {
  const socket = connect(port, '127.0.0.1');
  let received = Buffer.alloc(0);
  socket.on('data', (chunk: Buffer) => {
    received = Buffer.concat([received, chunk]);
  });
  socket.on('error', () => undefined);
  const closed = once(socket, 'close').then(() => undefined);
  await once(socket, 'connect');
  return { socket, received: () => received, closed };
}

const sleep = (ms: number) =>
  new Promise<void>((resolve) => setTimeout(resolve, ms));

describe('HTTP limits: slowloris, endless bodies, connection and header bounds', () => {
  let t: TestApp;
  let port: number;

  beforeAll(async () => {
    t = await createTestApp({
      HTTP_HEADERS_TIMEOUT_MS: '1000',
      HTTP_REQUEST_TIMEOUT_MS: '20000',
      HTTP_MAX_CONNECTIONS: '5',
      HTTP_MAX_HEADER_BYTES: '8192',
      RATE_LIMIT_MAX: '100000',
    });
    await seed(t);
    port = await portOf(t.server);
  });
  afterAll(() => t.close());

  it('closes a connection trickling its headers byte by byte after the headers timeout, with the JSON 408', async () => {
    const { socket, received, closed } = await openSocket(port);
    const head = `GET /v1/orders HTTP/1.1\r\nHost: x\r\nAuthorization: ${AUTH}\r\n${'X-Slow: y\r\n'.repeat(50)}\r\n`;
    let sent = 0;
    let isClosed = false;
    void closed.then(() => (isClosed = true));
    // One byte every 20 ms: the whole head would take over 14 s.
    while (!isClosed && sent < head.length) {
      socket.write(head[sent++]);
      await sleep(20);
    }
    await closed;
    expect(sent).toBeLessThan(head.length);
    const res = parseResponse(received(), false, true);
    expect(res?.status).toBe(408);
    expect(JSON.parse(res?.text ?? '{}')).toEqual(
      errorBody(408, 'REQUEST_TIMEOUT', 'The request was not received in time'),
    );
  }, 10_000);

  it('answers a GET whose chunked body never ends, then closes the connection instead of reading the body until the request timeout', async () => {
    const { socket, received, closed } = await openSocket(port);
    socket.write(
      requestBytes({
        target: '/v1/orders',
        headers: [
          ['Authorization', AUTH],
          ['Transfer-Encoding', 'chunked'],
          ['Connection', 'keep-alive'],
        ],
      }),
    );
    let isClosed = false;
    void closed.then(() => (isClosed = true));
    const chunk = Buffer.alloc(16 * 1024, 'a');
    // Keeps sending, well past the response, until the server closes the connection: 2,000
    // chunks take far longer than the grace period and far less than the 20 s request timeout.
    let chunks = 0;
    while (!isClosed && chunks < 2_000) {
      socket.write(`${chunk.length.toString(16)}\r\n`);
      socket.write(chunk);
      socket.write('\r\n');
      chunks += 1;
      await sleep(5);
    }
    expect(isClosed).toBe(true);
    const res = parseResponse(received(), false, true);
    expect(res?.status).toBe(200);
    expect(JSON.parse(res?.text ?? '{}').data).toHaveLength(3);
  }, 30_000);

  it('keeps the connection of a GET whose body ends in time (Node discards it), for the next request', async () => {
    const { socket, received } = await openSocket(port);
    socket.write(
      requestBytes({
        target: '/v1/ping',
        headers: [
          ['Content-Length', '4'],
          ['Connection', 'keep-alive'],
        ],
        body: 'abcd',
      }),
    );
    socket.write(requestBytes({ target: '/v1/ping' }));
    const deadline = Date.now() + 3_000;
    while (
      received().toString('latin1').split('HTTP/1.1 200').length < 3 &&
      Date.now() < deadline
    ) {
      await sleep(10);
    }
    expect(received().toString('latin1').split('HTTP/1.1 200')).toHaveLength(3);
    socket.destroy();
  });

  it('answers up to HTTP_MAX_PIPELINED pipelined requests, and closes a connection sending more before reading', async () => {
    const request = (target: string) =>
      requestBytes({
        target,
        headers: [
          ['Authorization', AUTH],
          ['Connection', 'keep-alive'],
        ],
      });
    const count = (bytes: Buffer) =>
      bytes.toString('latin1').split('HTTP/1.1 200').length - 1;

    const within = await openSocket(port);
    within.socket.write(
      Buffer.concat([1, 2, 3, 4].map(() => request('/v1/orders'))),
    );
    const deadline = Date.now() + 3_000;
    while (count(within.received()) < 4 && Date.now() < deadline)
      await sleep(10);
    expect(count(within.received())).toBe(4);
    within.socket.destroy();

    const beyond = await openSocket(port);
    beyond.socket.write(
      Buffer.concat(Array.from({ length: 50 }, () => request('/v1/orders'))),
    );
    await beyond.closed;
    expect(count(beyond.received())).toBeLessThan(50);
    // The server serves others as usual.
    expect((await raw(port, { target: '/v1/ping' })).status).toBe(200);
  });

  it('answers a 9 KB header with the JSON 431 naming HTTP_MAX_HEADER_BYTES’ size', async () => {
    const res = await raw(port, {
      target: '/v1/ping',
      headers: [['X-Padding', 'x'.repeat(9 * 1024)]],
    });
    expect(res.status).toBe(431);
    expectEnvelope(
      res,
      errorBody(
        431,
        'HEADERS_TOO_LARGE',
        'The request line and headers must not exceed 8 KB together',
      ),
    );
  });

  it('closes new connections past HTTP_MAX_CONNECTIONS at once, while those open are still served', async () => {
    const keepAlive = (target: string): Buffer =>
      requestBytes({
        target,
        headers: [
          ['Authorization', AUTH],
          ['Connection', 'keep-alive'],
        ],
      });
    // Connections of the tests before, closing, still count: start from none.
    const connections = () =>
      new Promise<number>((resolve, reject) =>
        t.server.getConnections((error, n) =>
          error ? reject(error) : resolve(n),
        ),
      );
    for (let i = 0; i < 300 && (await connections()) > 0; i++) await sleep(10);
    expect(await connections()).toBe(0);
    const open = [];
    for (let i = 0; i < 5; i++) {
      const connection = await openSocket(port);
      connection.socket.write(keepAlive('/v1/ping'));
      open.push(connection);
    }
    // Each of the five has been answered (so each is counted as open).
    const deadline = Date.now() + 3_000;
    while (
      open.some((c) => !parseResponse(c.received(), false, false)) &&
      Date.now() < deadline
    ) {
      await sleep(10);
    }
    for (const c of open) {
      expect(parseResponse(c.received(), false, false)?.status).toBe(200);
    }

    // The sixth: connected by the kernel, then closed by Node without a byte of response.
    const refused = await openSocket(port);
    refused.socket.write(keepAlive('/v1/ping'));
    await refused.closed;
    expect(refused.received().length).toBe(0);

    // The open ones are still served.
    const first = open[0];
    const before = first.received().length;
    first.socket.write(keepAlive('/v1/orders'));
    while (
      !parseResponse(first.received().subarray(before), false, false) &&
      Date.now() < deadline + 3_000
    ) {
      await sleep(10);
    }
    expect(
      parseResponse(first.received().subarray(before), false, false)?.status,
    ).toBe(200);

    // Once they close, new connections are accepted again.
    for (const c of open) c.socket.destroy();
    await Promise.all(open.map((c) => c.closed));
    await sleep(50);
    const res = await raw(port, { target: '/v1/ping' });
    expect(res.status).toBe(200);
  }, 15_000);
});
