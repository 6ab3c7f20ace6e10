import { randomUUID } from 'node:crypto';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import type { Logger } from 'pino';
import type { HttpServerLimits } from '../../config/app-config';
import { ErrorCode } from '../errors/error-codes';

/**
 * How often Node looks for connections past `headersTimeout` or `requestTimeout`. Node's default
 * (30 s) would let a slow client keep its connection that much longer than the timeout says.
 */
const TIMEOUT_CHECK_INTERVAL_MS = 1_000;

/**
 * How long a connection closed by the server stays open for its response to drain (refused by
 * clientError, or answered while its request still had a body coming).
 */
const CLOSE_GRACE_MS = 1_000;

/** At most one warning per this interval about connections refused past maxConnections. */
const DROP_WARNING_INTERVAL_MS = 10_000;

/**
 * The HTTP server's defences against slow, idle, greedy and malformed clients (docs/API.md,
 * Limits; each bound is a setting):
 *
 * - a client must send its request line and headers within `headersMs` and its whole request
 *   within `requestMs`, else it gets 408 and the connection is closed; an idle keep-alive
 *   connection is closed after `keepAliveMs`, and one that makes no progress for `socketMs`
 *   while a request is in flight (a client that stopped reading its response) is destroyed.
 *   Slow clients holding connections open therefore cost a socket each for a bounded time, and
 *   never delay other requests;
 * - at most `maxConnections` connections are open; Node closes new ones past it before reading a
 *   byte (the client sees the connection closed or reset), with a warning at most every 10 s;
 * - the request line and headers together may take `maxHeaderBytes`;
 * - a connection may have `maxPipelined` requests in flight, one more closes it: Node stops
 *   reading pipelined requests only once answers wait to be written, so a client pipelining
 *   requests for the largest page and reading none has several built and held for it first
 *   (bench/notes/2026-11-25-hostile-clients.md); the setting makes that number a stated bound;
 * - what Node's parser refuses before the application sees a request (headers over that size,
 *   bytes that are not HTTP, a timeout) is answered with the one JSON error body instead of
 *   Node's bare status line;
 * - a request with a body no route reads (every body but a scan's: request-body.ts) is answered
 *   as usual; a body still coming when the response is done ends the connection, without reading
 *   more of it (Node would read and discard it until the request timeout, however much is sent);
 * - an `Expect` header other than `100-continue` is ignored rather than answered with Node's
 *   bare 417.
 *
 * Must run before the server listens (the timeout checker starts on `listening`).
 */
export function configureHttpServer(
  server: Server,
  limits: HttpServerLimits,
  logger: Logger,
): void {
  server.headersTimeout = limits.headersMs;
  server.requestTimeout = limits.requestMs;
  server.keepAliveTimeout = limits.keepAliveMs;
  server.timeout = limits.socketMs;
  server.maxConnections = limits.maxConnections;
  // Options of http.createServer that @types/node does not declare as properties; Node reads
  // them when the server starts listening (the interval) and per connection (the header size).
  Object.assign(server, {
    connectionsCheckingInterval: Math.min(
      TIMEOUT_CHECK_INTERVAL_MS,
      limits.headersMs,
    ),
    maxHeaderSize: limits.maxHeaderBytes,
  });
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex) =>
    answerClientError(error, socket, limits.maxHeaderBytes, logger),
  );
  server.on('drop', warnOfDroppedConnections(limits.maxConnections, logger));
  server.on('request', limitUnreadBody);
  // Before Express (the server's first `request` listener): a request's arrival is when this sees it.
  server.prependListener(
    'request',
    trackResponses(limits.maxPipelined, responseDoneListeners(server)),
  );
  // Node answers an `Expect` it does not know (anything but 100-continue) with a bare 417 unless
  // told otherwise; the API expects nothing of a client, so such a request is served as usual.
  server.on('checkExpectation', (req: IncomingMessage, res: ServerResponse) =>
    server.emit('request', req, res),
  );
}

/**
 * A request that announces a body (read only by the request-body step, for a scan): until its
 * response is done, an unread body
 * costs nothing (Node stops reading the socket once 16 KB of it wait). Then Node would read and
 * discard the rest, as fast as the client sends, to reach the next request: for a huge or endless
 * body that is CPU spent on nothing until the request timeout. So a body not complete by then ends
 * the connection instead: the socket stops being read, is ended after the response, and destroyed
 * a grace period later (destroying a socket with unread input sends a reset, which can lose the
 * response on its way).
 */
function limitUnreadBody(req: IncomingMessage, res: ServerResponse): void {
  const announced =
    req.headers['transfer-encoding'] !== undefined ||
    (req.headers['content-length'] ?? '0') !== '0';
  if (!announced) return;
  // Checked once what the socket has already delivered is parsed: a response sent while the
  // request was being parsed can finish before the end of a short body that came with it.
  res.once('finish', () =>
    setImmediate(() => {
      if (req.complete) return;
      const socket = req.socket;
      socket.pause();
      socket.end();
      setTimeout(() => socket.destroy(), CLOSE_GRACE_MS).unref();
    }),
  );
}

/**
 * Told of each response of a server once it is done (sent, or its connection closed first), with
 * the time its request arrived (`performance.now()`): see onResponseDone.
 */
export type ResponseDoneListener = (
  req: IncomingMessage,
  res: ServerResponse,
  arrivedAt: number,
) => void;

const doneListeners = new WeakMap<Server, ResponseDoneListener[]>();

function responseDoneListeners(server: Server): ResponseDoneListener[] {
  let listeners = doneListeners.get(server);
  if (listeners === undefined) doneListeners.set(server, (listeners = []));
  return listeners;
}

/**
 * Calls `listener` once for each response of `server` that is done, from the `close` listener the
 * server already puts on every response (trackResponses), with the time its request arrived,
 * before Express saw it. A step that must time every response uses this rather than a `close`
 * listener of its own: each listener added to every response costs a request its share of V8's
 * collections (bench/notes/2026-12-06-metrics-close-listener-and-major-gcs.md).
 */
export function onResponseDone(
  server: Server,
  listener: ResponseDoneListener,
): void {
  responseDoneListeners(server).push(listener);
}

/**
 * Requests in flight per connection, counted up when one arrives and down when its response is
 * done, which then goes to the `done` listeners (onResponseDone; the clock is read only while
 * there are some).
 */
function trackResponses(
  maxPipelined: number,
  done: readonly ResponseDoneListener[],
) {
  const inFlight = new WeakMap<Socket, number>();
  return (req: IncomingMessage, res: ServerResponse): void => {
    const arrivedAt = done.length > 0 ? performance.now() : 0;
    const socket = req.socket;
    const count = (inFlight.get(socket) ?? 0) + 1;
    inFlight.set(socket, count);
    res.once('close', () => {
      inFlight.set(socket, (inFlight.get(socket) ?? 1) - 1);
      for (const listener of done) listener(req, res, arrivedAt);
    });
    // The responses already queued on it are dropped with it: their writes go nowhere.
    if (count > maxPipelined) socket.destroy();
  };
}

/** Node's `drop` event (a connection refused past maxConnections), logged at most every 10 s. */
function warnOfDroppedConnections(maxConnections: number, logger: Logger) {
  let dropped = 0;
  let lastWarning = -Infinity;
  return () => {
    dropped += 1;
    const now = Date.now();
    if (now - lastWarning < DROP_WARNING_INTERVAL_MS) return;
    logger.warn(
      { dropped, max_connections: maxConnections },
      `HTTP_MAX_CONNECTIONS (${maxConnections}) reached: new connections are closed (${dropped} so far)`,
    );
    lastWarning = now;
  };
}

/** Node's parser and timeout errors, as the status and body Node's default handler would pick. */
function describeClientError(
  code: string | undefined,
  maxHeaderBytes: number,
): {
  status: number;
  reason: string;
  error_code: ErrorCode;
  message: string;
} {
  switch (code) {
    case 'HPE_HEADER_OVERFLOW':
      return {
        status: 431,
        reason: 'Request Header Fields Too Large',
        error_code: ErrorCode.HEADERS_TOO_LARGE,
        message: `The request line and headers must not exceed ${sizeInWords(maxHeaderBytes)} together`,
      };
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return {
        status: 408,
        reason: 'Request Timeout',
        error_code: ErrorCode.REQUEST_TIMEOUT,
        message: 'The request was not received in time',
      };
    default:
      return {
        status: 400,
        reason: 'Bad Request',
        error_code: ErrorCode.VALIDATION_ERROR,
        message: 'The request is malformed',
      };
  }
}

/**
 * Replaces Node's default `clientError` handling, which writes a bare status line: the same
 * status, as the JSON error body. As Node does, it writes only when the socket can take it and
 * no response on it has started (otherwise the bytes would corrupt that response), then closes
 * the connection.
 */
function answerClientError(
  error: NodeJS.ErrnoException,
  socket: Duplex,
  maxHeaderBytes: number,
  logger: Logger,
): void {
  const inFlight = (socket as { _httpMessage?: ServerResponse | null })
    ._httpMessage;
  if (
    error.code === 'ECONNRESET' ||
    !socket.writable ||
    (inFlight && inFlight.headersSent)
  ) {
    socket.destroy();
    return;
  }
  const { status, reason, ...fields } = describeClientError(
    error.code,
    maxHeaderBytes,
  );
  const requestId = randomUUID();
  const body = JSON.stringify({ status, ...fields });
  socket.end(
    `HTTP/1.1 ${status} ${reason}\r\n` +
      'Content-Type: application/json; charset=utf-8\r\n' +
      `Content-Length: ${Buffer.byteLength(body)}\r\n` +
      'Cache-Control: no-store\r\n' +
      'X-Content-Type-Options: nosniff\r\n' +
      `X-Request-Id: ${requestId}\r\n` +
      'Connection: close\r\n' +
      `\r\n${body}`,
  );
  // Closed after a grace period rather than at once: destroying a socket with unread input (the
  // rest of an oversized header, say) sends a reset, which can lose the response on its way.
  setTimeout(() => socket.destroy(), CLOSE_GRACE_MS).unref();
  logger.info(
    { status, client_error: error.code ?? 'unknown', request_id: requestId },
    `client error ${status} ${error.code ?? ''}`.trimEnd(),
  );
}

/** `16 KB` for whole kilobytes, else `<n> bytes`. */
function sizeInWords(bytes: number): string {
  return bytes % 1024 === 0 ? `${bytes / 1024} KB` : `${bytes} bytes`;
}
