import { once } from 'node:events';
import type { Server } from 'node:http';
import { Server as NetServer, type Socket } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { HttpStatus, Logger } from '@nestjs/common';
import type { NestExpressApplication } from '@nestjs/platform-express';
import type { NextFunction, Request, Response } from 'express';
import type { ShutdownTimings } from '../../config/app-config';
import { AppConfig } from '../../config/app-config';
import { stdoutLogOutput, type LogOutput } from '../../log-output';
import { ApiError } from '../errors/api-error';
import { ErrorCode } from '../errors/error-codes';
import { DrainState } from './drain-state';

const SIGNALS = ['SIGTERM', 'SIGINT'] as const;

/** Requests of one connection in flight, and whether it has just answered its last one. */
interface ConnectionState {
  inFlight: number;
  justIdle: boolean;
}

/**
 * Resolves once the event loop has polled its sockets again: a connection that Node had stopped
 * reading (its answers backed up) and has just resumed has then read what it had received.
 */
const afterNextPoll = () =>
  new Promise<void>((resolve) => setImmediate(() => setImmediate(resolve)));

/**
 * Stopping without dropping a request (docs/DESIGN.md, "Shutdown"). On SIGTERM or SIGINT:
 *
 * 1. the drain starts (DrainState: `GET /health/ready` answers 503 from now on) and the listener
 *    closes: new connections are refused, and every open connection is kept;
 * 2. once what connections had received is read, an answer that is the only one its connection
 *    is waiting for, and not started, goes out with `Connection: close`;
 * 3. every request received before the signal is answered in full: requests pipelined behind one
 *    in flight on the same connection too, although Node reads them only as the answers ahead of
 *    them leave. A request that arrives on an idle connection is answered 503 with
 *    `Connection: close`;
 * 4. once no request is in flight, or SHUTDOWN_GRACE_MS after the signal, idle connections are
 *    closed, then any still open;
 * 5. the app closes: the HTTP server first, then the database pool and Redis (Nest's shutdown
 *    hooks); the last log lines get what is left of SHUTDOWN_CLOSE_MS; the process exits 0, or 1
 *    if closing was still stuck SHUTDOWN_GRACE_MS + SHUTDOWN_CLOSE_MS after the signal.
 *
 * Node's own `server.close()` would go on serving new requests on keep-alive connections, and it
 * closes every connection that has no request being parsed, which includes one whose answer is
 * still being written to a slow reader and one with pipelined requests waiting behind it: both
 * lost their answers. Nest's shutdown hooks would close the database while requests still need it.
 */
export class GracefulShutdown {
  private readonly logger = new Logger('Shutdown');
  private readonly inFlight = new Set<Response>();
  private readonly connections = new WeakMap<Socket, ConnectionState>();
  private whenIdle: (() => void) | null = null;
  private closed = false;

  constructor(
    private readonly drain: DrainState,
    private readonly timings: ShutdownTimings,
    private readonly logs: LogOutput = stdoutLogOutput(),
  ) {}

  /**
   * In the request pipeline before the key lookup (createApp): tracks every request; once
   * draining, answers 503 a request that opens a new exchange on an idle connection, without
   * touching the database.
   */
  readonly middleware = (req: Request, res: Response, next: NextFunction) => {
    const connection = this.connectionOf(req.socket);
    const pipelined = connection.inFlight > 0 || connection.justIdle;
    connection.inFlight += 1;
    this.inFlight.add(res);
    res.once('close', () => this.answered(res, connection));
    if (!this.drain.draining || pipelined) {
      next();
      return;
    }
    next(
      new ApiError(
        HttpStatus.SERVICE_UNAVAILABLE,
        ErrorCode.SERVICE_UNAVAILABLE,
        'This instance is shutting down; retry shortly',
        { Connection: 'close', 'Retry-After': '1' },
      ),
    );
  };

  /** Drains and closes `app` on the first SIGTERM or SIGINT; a second one exits at once. */
  stopOnSignals(app: NestExpressApplication): void {
    const onSignal = (signal: NodeJS.Signals) => {
      if (!this.drain.begin()) {
        this.logger.warn(`${signal} again: exiting without waiting`);
        process.exit(1);
      }
      this.stop(app, signal).then(
        () => process.exit(0),
        (error: unknown) => {
          this.logger.error(
            `shutdown failed: ${error instanceof Error ? error.message : String(error)}`,
          );
          process.exit(1);
        },
      );
    };
    for (const signal of SIGNALS) process.on(signal, onSignal);
  }

  private async stop(app: NestExpressApplication, signal: string) {
    const { graceMs, closeMs } = this.timings;
    const signalled = Date.now();
    // The bound of the whole stop: nothing that follows can make the process outlive it.
    setTimeout(() => {
      if (!this.closed) {
        this.logger.error(
          `shutdown did not finish within ${graceMs + closeMs} ms: exiting`,
        );
      }
      process.exit(this.closed ? 0 : 1);
    }, graceMs + closeMs).unref();

    const server = app.getHttpServer() as Server;
    const serverClosed = once(server, 'close');
    // net.Server's close: stops listening, and leaves the connections to the steps below.
    NetServer.prototype.close.call(server);
    this.logger.log(
      `${signal}: no new connections; waiting for ${this.inFlight.size} request(s) in flight`,
    );
    const deadline = sleep(graceMs, 'timeout' as const);

    await afterNextPoll();
    this.closeAfterLastAnswers();
    if (!(await this.requestsSettled(deadline))) {
      this.logger.warn(
        `${this.inFlight.size} request(s) still in flight after ${graceMs} ms: closing their connections`,
      );
    }
    // Every connection without a request in flight is idle now; one still receiving a request
    // is left to finish it (answered 503, Connection: close) until the grace period ends.
    server.closeIdleConnections();
    if ((await Promise.race([serverClosed, deadline])) === 'timeout') {
      server.closeAllConnections();
    }
    // HTTP is closed: now the database pool and Redis (Nest's shutdown hooks).
    await app.close();
    this.closed = true;
    this.logger.log('HTTP server and database closed');
    // The last lines get what is left of the close period: stdout may be slow, full or gone.
    const left = signalled + graceMs + closeMs - Date.now();
    await this.logs.flushWithin(Math.min(closeMs, left));
  }

  /**
   * `Connection: close` on each answer not started that is the only one its connection waits
   * for: the client learns that the connection ends with it. Not on a connection with pipelined
   * requests, or one Node has stopped reading (more may be waiting unread): closing it after this
   * answer would drop those; such a connection is closed once idle.
   */
  private closeAfterLastAnswers() {
    for (const res of this.inFlight) {
      const socket = res.req.socket;
      if (
        !res.headersSent &&
        this.connectionOf(socket).inFlight === 1 &&
        !socket.isPaused()
      ) {
        res.setHeader('Connection', 'close');
      }
    }
  }

  /**
   * Resolves true once no request is in flight, and none has arrived after the last answer on a
   * connection (pipelined requests Node had not read yet); false if the deadline comes first.
   */
  private async requestsSettled(deadline: Promise<'timeout'>) {
    for (;;) {
      if (this.inFlight.size > 0) {
        const idle = new Promise<void>((resolve) => (this.whenIdle = resolve));
        if ((await Promise.race([idle, deadline])) === 'timeout') return false;
      }
      await afterNextPoll();
      if (this.inFlight.size === 0) return true;
    }
  }

  private answered(res: Response, connection: ConnectionState) {
    this.inFlight.delete(res);
    connection.inFlight -= 1;
    // A request read right after the last answer of a connection was sent with the ones before
    // it (Node had stopped reading them): it is answered as they were.
    if (connection.inFlight === 0 && this.drain.draining) {
      connection.justIdle = true;
      void afterNextPoll().then(() => (connection.justIdle = false));
    }
    if (this.inFlight.size === 0) this.whenIdle?.();
  }

  private connectionOf(socket: Socket): ConnectionState {
    let state = this.connections.get(socket);
    if (!state) {
      state = { inFlight: 0, justIdle: false };
      this.connections.set(socket, state);
    }
    return state;
  }
}

const shutdowns = new WeakMap<NestExpressApplication, GracefulShutdown>();

/** The app's GracefulShutdown: createApp installs its middleware, `listen` its signal handlers. */
export function gracefulShutdown(
  app: NestExpressApplication,
): GracefulShutdown {
  let shutdown = shutdowns.get(app);
  if (!shutdown) {
    shutdown = new GracefulShutdown(
      app.get(DrainState),
      app.get(AppConfig).shutdown,
    );
    shutdowns.set(app, shutdown);
  }
  return shutdown;
}
