import { once } from 'node:events';
import { Socket, connect } from 'node:net';

export interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

/**
 * One HTTP/1.1 connection driven by hand, for what a client library hides: which connection a
 * request goes on, a request sent in two parts, and whether the server closed the connection.
 */
export class RawConnection {
  private buffered = Buffer.alloc(0);
  private readonly waiters: (() => void)[] = [];
  private ended = false;
  private error: Error | null = null;

  private constructor(private readonly socket: Socket) {
    socket.on('data', (chunk: Buffer) => {
      this.buffered = Buffer.concat([this.buffered, chunk]);
      this.wake();
    });
    socket.on('error', (error) => {
      this.error = error;
      this.wake();
    });
    socket.on('close', () => {
      this.ended = true;
      this.wake();
    });
  }

  static async open(port: number): Promise<RawConnection> {
    const socket = connect(port, '127.0.0.1');
    await once(socket, 'connect');
    // Each write its own segment: requests sent apart arrive apart.
    socket.setNoDelay(true);
    return new RawConnection(socket);
  }

  /** Writes `text` as is (a whole request, or part of one). */
  send(text: string): void {
    this.socket.write(text);
  }

  /** Sends a GET with the given headers (HTTP/1.1: keep-alive unless the server says otherwise). */
  get(path: string, headers: Record<string, string> = {}): void {
    const lines = Object.entries({ Host: 'localhost', ...headers }).map(
      ([name, value]) => `${name}: ${value}\r\n`,
    );
    this.send(`GET ${path} HTTP/1.1\r\n${lines.join('')}\r\n`);
  }

  /**
   * Reads nothing more until `readSlowly`: what the server writes waits in the socket buffers,
   * as it does for a client that sent requests and is not reading yet.
   */
  pause(): void {
    this.socket.pause();
  }

  /**
   * Reads again, one chunk (at most 64 KB) every `delayMs`: a client on a slow link, whose
   * answers leave the server only as fast as it reads them.
   */
  readSlowly(delayMs: number): void {
    this.socket.on('data', () => {
      this.socket.pause();
      setTimeout(() => this.socket.resume(), delayMs);
    });
    this.socket.resume();
  }

  /** Whether the server has closed the connection. */
  get isClosed(): boolean {
    return this.ended;
  }

  /** The next whole response (responses here always carry Content-Length). */
  async response(timeoutMs = 15_000): Promise<RawResponse> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const parsed = this.parse();
      if (parsed) return parsed;
      if (this.error) throw this.error;
      if (this.ended) throw new Error('connection closed before a response');
      const left = deadline - Date.now();
      if (left <= 0) throw new Error('no response in time');
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  /** Resolves once the server has closed the connection. */
  async closed(timeoutMs = 5_000): Promise<void> {
    if (this.ended) return;
    let timer: NodeJS.Timeout | undefined;
    try {
      await Promise.race([
        once(this.socket, 'close'),
        new Promise((_, reject) => {
          timer = setTimeout(
            () => reject(new Error('connection still open')),
            timeoutMs,
          );
        }),
      ]);
    } finally {
      clearTimeout(timer);
    }
  }

  destroy(): void {
    this.socket.destroy();
  }

  private wake() {
    for (const waiter of this.waiters.splice(0)) waiter();
  }

  private parse(): RawResponse | null {
    const end = this.buffered.indexOf('\r\n\r\n');
    if (end < 0) return null;
    const [statusLine, ...headerLines] = this.buffered
      .subarray(0, end)
      .toString('latin1')
      .split('\r\n');
    const headers: Record<string, string> = {};
    for (const line of headerLines) {
      const colon = line.indexOf(':');
      headers[line.slice(0, colon).trim().toLowerCase()] = line
        .slice(colon + 1)
        .trim();
    }
    const length = Number(headers['content-length']);
    if (!Number.isInteger(length)) {
      throw new Error(`response without Content-Length: ${statusLine}`);
    }
    const bodyStart = end + 4;
    if (this.buffered.length < bodyStart + length) return null;
    const body = this.buffered.subarray(bodyStart, bodyStart + length);
    this.buffered = this.buffered.subarray(bodyStart + length);
    return { status: Number(statusLine.split(' ')[1]), headers, body };
  }
}

/** How a new connection to `port` ends: 'connected', or the error's code ('ECONNREFUSED'). */
export const refusesConnections = (port: number) =>
  new Promise<string>((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.on('connect', () => {
      socket.destroy();
      resolve('connected');
    });
    socket.on('error', (error: NodeJS.ErrnoException) =>
      resolve(error.code ?? 'error'),
    );
  });
