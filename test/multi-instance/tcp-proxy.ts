import { once } from 'node:events';
import { Server, Socket, connect, createServer } from 'node:net';

/**
 * A TCP proxy on a fixed local port that can be cut (listener closed, live connections reset) and
 * restored: the database "becomes unreachable" for a server process that connects through it. It
 * can also hold what clients send (a server that has stopped answering, for as long as the test
 * says) and let it through later, or answer in the target's place (a server refusing connections).
 */
export class TcpProxy {
  private server: Server | null = null;
  private readonly sockets = new Set<Socket>();
  private readonly links = new Map<Socket, Socket>();
  private holding = false;
  private readonly held: { upstream: Socket; chunk: Buffer }[] = [];
  private refusal: Buffer | null = null;

  constructor(
    readonly port: number,
    private readonly target: { host: string; port: number },
  ) {}

  async start(): Promise<void> {
    this.server = createServer((client) => {
      if (this.refusal) {
        const answer = this.refusal;
        this.sockets.add(client);
        client.on('close', () => this.sockets.delete(client));
        client.on('error', () => client.destroy());
        client.once('data', () => client.end(answer));
        return;
      }
      const upstream = connect(this.target.port, this.target.host);
      this.links.set(client, upstream);
      client.on('close', () => this.links.delete(client));
      for (const socket of [client, upstream]) {
        this.sockets.add(socket);
        socket.on('close', () => this.sockets.delete(socket));
        socket.on('error', () => {
          client.destroy();
          upstream.destroy();
        });
      }
      client.on('data', (chunk: Buffer) => {
        if (this.holding) this.held.push({ upstream, chunk });
        else upstream.write(chunk);
      });
      client.on('end', () => upstream.end());
      upstream.pipe(client);
    });
    this.server.listen(this.port, '127.0.0.1');
    await once(this.server, 'listening');
  }

  async cut(): Promise<void> {
    const server = this.server;
    this.server = null;
    // A reset for live connections; one its peer has already ended is simply closed (resetting
    // a half-closed socket can leave its handle open, and the test process with it).
    for (const socket of this.sockets) {
      if (socket.readyState === 'open') socket.resetAndDestroy();
      else socket.destroy();
    }
    if (server) await new Promise((resolve) => server.close(resolve));
  }

  /**
   * From now on the proxy answers in the target's place: each live connection gets `answer` and
   * is closed, and each new one gets it in reply to the first bytes it sends (for PostgreSQL, its
   * startup message). `accept` forwards again.
   */
  refuse(answer: Buffer): void {
    this.refusal = answer;
    for (const [client, upstream] of this.links) {
      upstream.destroy();
      client.end(answer);
    }
  }

  /** Forwards new connections to the target again. */
  accept(): void {
    this.refusal = null;
  }

  /** From now on, what clients send is kept here instead of being forwarded. */
  hold(): void {
    this.holding = true;
  }

  /** Everything held so far, as text. */
  heldText(): string {
    return Buffer.concat(this.held.map(({ chunk }) => chunk)).toString(
      'latin1',
    );
  }

  /** Forwards what was held, in order, and stops holding. */
  release(): void {
    this.holding = false;
    for (const { upstream, chunk } of this.held.splice(0)) {
      if (!upstream.destroyed) upstream.write(chunk);
    }
  }
}
