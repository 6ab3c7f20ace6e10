import { randomUUID } from 'node:crypto';
import {
  type IncomingMessage,
  maxHeaderSize,
  type Server,
  type ServerResponse,
} from 'node:http';
import type { Duplex } from 'node:stream';
import type { Logger } from 'pino';
import type { HttpTimeouts } from '../../config/app-config';
import { ErrorCode } from '../errors/error-codes';

/**
 * How often Node looks for connections past `headersTimeout` or `requestTimeout`. Node's default
 * (30 s) would let a slow client keep its connection that much longer than the timeout says.
 */
const TIMEOUT_CHECK_INTERVAL_MS = 1_000;

/** How long a connection refused by clientError stays open for its response to drain. */
const CLOSE_GRACE_MS = 1_000;

/**
 * The HTTP server's defences against slow and malformed clients (README, Reliability;
 * docs/API.md, Limits):
 *
 * - a client must send its request line and headers within `headersMs` and its whole request
 *   within `requestMs`, else it gets 408 and the connection is closed; an idle keep-alive
 *   connection is closed after `keepAliveMs`. Slow clients holding connections open therefore
 *   cost a socket each for a bounded time, and never delay other requests;
 * - what Node's parser refuses before the application sees a request (headers over Node's
 *   16 KB limit, bytes that are not HTTP, a timeout) is answered with the one JSON error body
 *   instead of Node's bare status line;
 * - an `Expect` header other than `100-continue` is ignored rather than answered with Node's
 *   bare 417.
 *
 * Must run before the server listens (the timeout checker starts on `listening`).
 */
export function configureHttpServer(
  server: Server,
  timeouts: HttpTimeouts,
  logger: Logger,
): void {
  server.headersTimeout = timeouts.headersMs;
  server.requestTimeout = timeouts.requestMs;
  server.keepAliveTimeout = timeouts.keepAliveMs;
  // An option of http.createServer that @types/node does not declare; Node reads the property
  // when the server starts listening.
  (
    server as Server & { connectionsCheckingInterval: number }
  ).connectionsCheckingInterval = Math.min(
    TIMEOUT_CHECK_INTERVAL_MS,
    timeouts.headersMs,
  );
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex) =>
    answerClientError(error, socket, logger),
  );
  // Node answers an `Expect` it does not know (anything but 100-continue) with a bare 417 unless
  // told otherwise; a read-only API has nothing to expect, so such a request is served as usual.
  server.on('checkExpectation', (req: IncomingMessage, res: ServerResponse) =>
    server.emit('request', req, res),
  );
}

/** Node's parser and timeout errors, as the status and body Node's default handler would pick. */
function describeClientError(code: string | undefined): {
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
        message: `The request line and headers must not exceed ${maxHeaderSize / 1024} KB together`,
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
  const { status, reason, ...fields } = describeClientError(error.code);
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
