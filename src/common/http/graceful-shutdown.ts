import { once } from 'node:events';
import type { Server } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { HttpStatus, Logger } from '@nestjs/common';
import type { NestExpressApplication } from '@nestjs/platform-express';
import type { NextFunction, Request, Response } from 'express';
import type { ShutdownTimings } from '../../config/app-config';
import { AppConfig } from '../../config/app-config';
import { stdoutLogOutput, type LogOutput } from '../../log-output';
import { ApiError } from '../errors/api-error';
import { ErrorCode } from '../errors/error-codes';

const SIGNALS = ['SIGTERM', 'SIGINT'] as const;

/**
 * Stopping without dropping a request (docs/API.md, "Shutdown"). On SIGTERM or SIGINT:
 *
 * 1. the listener closes (new connections are refused) and idle keep-alive connections with it;
 * 2. a request that still arrives on an open keep-alive connection is answered with the 503 body
 *    and `Connection: close`; responses in flight that have not started get `Connection: close`;
 * 3. the requests in flight finish (for up to SHUTDOWN_GRACE_MS);
 * 4. the app closes: the HTTP server first, then the database pool and Redis (Nest's shutdown
 *    hooks); the last log lines get what is left of SHUTDOWN_CLOSE_MS; the process exits 0, or
 *    1 if closing was still stuck SHUTDOWN_GRACE_MS + SHUTDOWN_CLOSE_MS after the signal.
 *
 * Node's own `server.close()` does only the first step: it would go on serving new requests on
 * keep-alive connections, and Nest's shutdown hooks close the database while requests still need
 * it.
 */
export class GracefulShutdown {
  private readonly logger = new Logger('Shutdown');
  private draining = false;
  private readonly inFlight = new Set<Response>();
  private whenIdle: (() => void) | null = null;
  private closed = false;

  constructor(
    private readonly timings: ShutdownTimings,
    private readonly logs: LogOutput = stdoutLogOutput(),
  ) {}

  /**
   * In the request pipeline before the key lookup (createApp): tracks every request; once
   * draining, answers new ones 503 without touching the database.
   */
  readonly middleware = (_req: Request, res: Response, next: NextFunction) => {
    this.inFlight.add(res);
    res.once('close', () => {
      this.inFlight.delete(res);
      if (this.inFlight.size === 0) this.whenIdle?.();
    });
    if (!this.draining) {
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
      if (this.draining) {
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
    this.draining = true;
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
    server.close();
    for (const res of this.inFlight) {
      if (!res.headersSent) res.setHeader('Connection', 'close');
    }
    this.logger.log(
      `${signal}: no new connections; waiting for ${this.inFlight.size} request(s) in flight`,
    );
    const deadline = sleep(graceMs, 'timeout' as const);
    if (this.inFlight.size > 0) {
      const idle = new Promise<void>((resolve) => (this.whenIdle = resolve));
      if ((await Promise.race([idle, deadline])) === 'timeout') {
        this.logger.warn(
          `${this.inFlight.size} request(s) still in flight after ${graceMs} ms: closing their connections`,
        );
      }
    }
    // Connections whose last response went out as keep-alive are idle now; any request still
    // arriving was answered 503 with Connection: close.
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
}

const shutdowns = new WeakMap<NestExpressApplication, GracefulShutdown>();

/** The app's GracefulShutdown: createApp installs its middleware, `listen` its signal handlers. */
export function gracefulShutdown(
  app: NestExpressApplication,
): GracefulShutdown {
  let shutdown = shutdowns.get(app);
  if (!shutdown) {
    shutdown = new GracefulShutdown(app.get(AppConfig).shutdown);
    shutdowns.set(app, shutdown);
  }
  return shutdown;
}
