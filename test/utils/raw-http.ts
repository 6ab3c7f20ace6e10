import { once } from 'node:events';
import type { Server } from 'node:http';
import { type AddressInfo, connect } from 'node:net';
import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib';

/**
 * A bare HTTP/1.1 client over a TCP socket, for what supertest and fetch would normalise or
 * refuse to send: `..` and `//` in paths, bytes that are not valid in a URL or a header, broken
 * percent-encoding, repeated headers, oversized heads, bodies on GET.
 */

export interface RawResponse {
  status: number;
  /** Header names in lower case; repeated headers joined with ", ". */
  headers: Record<string, string>;
  /** The body, decompressed according to Content-Encoding. */
  body: Buffer;
  text: string;
}

/** Listens on an ephemeral loopback port (once) and returns it. */
export async function portOf(server: Server): Promise<number> {
  if (!server.listening) {
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
  }
  return (server.address() as AddressInfo).port;
}

export interface RawRequest {
  method?: string;
  target: string;
  /** Header lines as [name, value]; each is written as given, repeats included. */
  headers?: [string, string][];
  body?: Buffer | string;
}

/** The request's bytes: `Host` first and `Connection: close` last unless given. */
export function requestBytes(request: RawRequest): Buffer {
  const headers = request.headers ?? [];
  const names = new Set(headers.map(([name]) => name.toLowerCase()));
  const lines = [
    `${request.method ?? 'GET'} ${request.target} HTTP/1.1`,
    ...(names.has('host') ? [] : ['Host: 127.0.0.1']),
    ...headers.map(([name, value]) => `${name}: ${value}`),
    ...(names.has('connection') ? [] : ['Connection: close']),
  ];
  // latin1 keeps each char below 256 as one byte; callers encode UTF-8 themselves where wanted.
  return Buffer.concat([
    Buffer.from(`${lines.join('\r\n')}\r\n\r\n`, 'latin1'),
    typeof request.body === 'string'
      ? Buffer.from(request.body, 'latin1')
      : (request.body ?? Buffer.alloc(0)),
  ]);
}

/**
 * Sends raw bytes and reads the first response. Resolves as soon as that response is complete
 * (the connection may stay open); rejects when none arrives within `timeoutMs`.
 */
export function sendRaw(
  port: number,
  bytes: Buffer,
  { head = false, timeoutMs = 5_000 } = {},
): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let received = Buffer.alloc(0);
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`no complete response within ${timeoutMs} ms`));
    }, timeoutMs);
    const finish = (closed: boolean) => {
      const parsed = parseResponse(received, head, closed);
      if (!parsed) {
        if (closed) {
          clearTimeout(timer);
          reject(
            new Error(
              `connection closed without a complete response: ${JSON.stringify(received.toString('latin1').slice(0, 200))}`,
            ),
          );
        }
        return;
      }
      clearTimeout(timer);
      socket.destroy();
      resolve(parsed);
    };
    socket.on('data', (chunk: Buffer) => {
      received = Buffer.concat([received, chunk]);
      finish(false);
    });
    socket.on('end', () => finish(true));
    // The server may close while a large request is still being written; what it answered counts.
    socket.on('error', () => finish(true));
    socket.write(bytes);
  });
}

export const raw = (
  port: number,
  request: RawRequest,
  options?: { timeoutMs?: number },
) =>
  sendRaw(port, requestBytes(request), {
    head: request.method === 'HEAD',
    ...options,
  });

/** The first response in `data`, or null while it is incomplete. */
export function parseResponse(
  data: Buffer,
  head: boolean,
  closed: boolean,
): RawResponse | null {
  const end = data.indexOf('\r\n\r\n');
  if (end === -1) return null;
  const [statusLine, ...headerLines] = data
    .subarray(0, end)
    .toString('latin1')
    .split('\r\n');
  const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(statusLine)?.[1]);
  if (!Number.isInteger(status)) {
    throw new Error(`not an HTTP response: ${statusLine}`);
  }
  const headers: Record<string, string> = {};
  for (const line of headerLines) {
    const colon = line.indexOf(':');
    const name = line.slice(0, colon).trim().toLowerCase();
    const value = line.slice(colon + 1).trim();
    headers[name] = name in headers ? `${headers[name]}, ${value}` : value;
  }
  const rest = data.subarray(end + 4);
  let body: Buffer | null;
  if (head || status === 204 || status === 304 || status < 200) {
    body = Buffer.alloc(0);
  } else if (/\bchunked\b/i.test(headers['transfer-encoding'] ?? '')) {
    body = dechunk(rest);
  } else if (headers['content-length'] !== undefined) {
    const length = Number(headers['content-length']);
    body = rest.length >= length ? rest.subarray(0, length) : null;
  } else {
    body = closed ? rest : null;
  }
  if (body === null) return null;
  body = decompress(body, headers['content-encoding']);
  return { status, headers, body, text: body.toString('utf8') };
}

function dechunk(data: Buffer): Buffer | null {
  const parts: Buffer[] = [];
  let at = 0;
  for (;;) {
    const lineEnd = data.indexOf('\r\n', at);
    if (lineEnd === -1) return null;
    const size = parseInt(data.subarray(at, lineEnd).toString('latin1'), 16);
    if (size === 0) {
      return data.indexOf('\r\n', lineEnd + 2) === -1
        ? null
        : Buffer.concat(parts);
    }
    if (data.length < lineEnd + 2 + size + 2) return null;
    parts.push(data.subarray(lineEnd + 2, lineEnd + 2 + size));
    at = lineEnd + 2 + size + 2;
  }
}

function decompress(body: Buffer, encoding: string | undefined): Buffer {
  if (body.length === 0) return body;
  switch (encoding) {
    case 'gzip':
      return gunzipSync(body);
    case 'br':
      return brotliDecompressSync(body);
    case 'deflate':
      return inflateSync(body);
    default:
      return body;
  }
}

/** Checks the one error body: exactly status, error_code, message, as JSON. */
export function errorEnvelopeProblem(res: RawResponse, head: boolean) {
  if (!/^application\/json\b/.test(res.headers['content-type'] ?? '')) {
    return `Content-Type is ${res.headers['content-type']}`;
  }
  if (head) return null;
  let body: unknown;
  try {
    body = JSON.parse(res.text);
  } catch {
    return `body is not JSON: ${res.text.slice(0, 200)}`;
  }
  const fields = body as Record<string, unknown>;
  if (
    JSON.stringify(Object.keys(fields)) !==
      JSON.stringify(['status', 'error_code', 'message']) ||
    fields.status !== res.status ||
    typeof fields.error_code !== 'string' ||
    !/^[A-Z_]+$/.test(fields.error_code) ||
    typeof fields.message !== 'string'
  ) {
    return `not the error envelope: ${res.text.slice(0, 200)}`;
  }
  return null;
}
