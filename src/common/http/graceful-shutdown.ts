import { once } from 'node:events';
import type { Server } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { HttpStatus, Logger } from '@nestjs/common';
import type { NestExpressApplication } from '@nestjs/platform-express';
import type { NextFunction, Request, Response } from 'express';
import { ApiError } from '../errors/api-error';
import { ErrorCode } from '../errors/error-codes';
import { DrainState } from './drain-state';

/** How long requests in flight may take to finish once a stop is asked for. */
const GRACE_MS = 8_000;
/** How long closing may take after that (a query stuck in the pool) before the process exits 1. */
const CLOSE_MS = 1_500;

const SIGNALS = ['SIGTERM', 'SIGINT'] as const;

/**
 * Stopping without dropping a request (docs/API.md, "Shutdown"). On SIGTERM or SIGINT:
 *
 * 1. the drain begins (DrainState: `GET /health/ready` answers 503 from now on); the listener
 *    closes (new connections are refused) and idle keep-alive connections with it;
 * 2. a request that still arrives on an open keep-alive connection is answered with the 503 body
 *    and `Connection: close`; responses in flight that have not started get `Connection: close`;
 * 3. the requests in flight finish (for up to GRACE_MS);
 * 4. the app closes: the HTTP server first, then the database pool and Redis (Nest's shutdown
 *    hooks); the process exits 0 (1 if closing is still stuck CLOSE_MS later).
 *
 * Node's own `server.close()` does only the first step: it would go on serving new requests on
 * keep-alive connections, and Nest's shutdown hooks close the database while requests still need
 * it.
 */
export class GracefulShutdown {
  private readonly logger = new Logger('Shutdown');
  private readonly inFlight = new Set<Response>();
  private whenIdle: (() => void) | null = null;

  /** `state`: the app's DrainState, which readiness reads too. */
  constructor(private readonly state: DrainState) {}

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
    if (!this.state.draining) {
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
      if (this.state.draining) {
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
    // The drain begins: new requests are refused and readiness answers 503 from here on.
    this.state.begin();
    setTimeout(() => {
      this.logger.error(
        `shutdown did not finish within ${GRACE_MS + CLOSE_MS} ms: exiting`,
      );
      process.exit(1);
    }, GRACE_MS + CLOSE_MS).unref();
    const server = app.getHttpServer() as Server;
    const serverClosed = once(server, 'close');
    server.close();
    for (const res of this.inFlight) {
      if (!res.headersSent) res.setHeader('Connection', 'close');
    }
    this.logger.log(
      `${signal}: no new connections; waiting for ${this.inFlight.size} request(s) in flight`,
    );
    const deadline = sleep(GRACE_MS, 'timeout' as const);
    if (this.inFlight.size > 0) {
      const idle = new Promise<void>((resolve) => (this.whenIdle = resolve));
      if ((await Promise.race([idle, deadline])) === 'timeout') {
        this.logger.warn(
          `${this.inFlight.size} request(s) still in flight after ${GRACE_MS} ms: closing their connections`,
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
    this.logger.log('HTTP server and database closed');
  }
}

const shutdowns = new WeakMap<NestExpressApplication, GracefulShutdown>();

/** The app's GracefulShutdown: createApp installs its middleware, `listen` its signal handlers. */
export function gracefulShutdown(
  app: NestExpressApplication,
): GracefulShutdown {
  let shutdown = shutdowns.get(app);
  if (!shutdown) {
    shutdown = new GracefulShutdown(app.get(DrainState));
    shutdowns.set(app, shutdown);
  }
  return shutdown;
}
