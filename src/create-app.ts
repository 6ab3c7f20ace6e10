import { constants as zlibConstants } from 'node:zlib';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { VersioningType } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import express, {
  type Express,
  type NextFunction,
  type Request,
  type Response,
} from 'express';
import { SwaggerModule } from '@nestjs/swagger';
import compression from 'compression';
import helmet from 'helmet';
import { Logger, PinoLogger } from 'nestjs-pino';
import type { DestinationStream } from 'pino';
import { AppModule } from './app.module';
import { accessLog } from './common/http/access-log';
import { cacheControlMiddleware } from './common/http/cache-control';
import { useValidatorFreshness } from './common/http/conditional-get';
import {
  CORS_ALLOWED_HEADERS,
  CORS_EXPOSED_HEADERS,
  CORS_MAX_AGE,
  CORS_METHODS,
} from './common/http/cors-options';
import { etagOf } from './common/http/etag';
import { configureHttpServer } from './common/http/http-server';
import { gracefulShutdown } from './common/http/graceful-shutdown';
import { JsonBufferExpressAdapter } from './common/http/json-buffer-express.adapter';
import { buildOpenApiDocument } from './common/openapi/openapi-document';
import { requestIdMiddleware } from './common/http/request-id';
import { AppConfig } from './config/app-config';
import { AppLogger } from './logger-options';
import { AuthMiddleware } from './auth/auth.middleware';
import { RateLimitMiddleware } from './common/rate-limit/rate-limit.middleware';

export interface CreateAppOptions {
  /** Settings to use instead of the environment's (tests build their own). */
  config?: AppConfig;
  /** Where log lines go instead of stdout (tests read them). */
  logDestination?: DestinationStream;
}

/**
 * The service, assembled: the one bootstrap that main.ts, the demo server, the e2e tests and the
 * bench's SQL counter all call, so each runs the production pipeline. The app is neither
 * initialised nor listening: `init()` (which applies migrations unless MIGRATIONS_RUN=false) or
 * `listen()` is the caller's.
 */
export async function createApp(
  options: CreateAppOptions = {},
): Promise<NestExpressApplication> {
  const app = await NestFactory.create<NestExpressApplication>(
    AppModule.forRoot(options),
    new JsonBufferExpressAdapter(caseSensitiveExpress()),
    // A read-only API parses no bodies. Logs wait for pino, attached below. A failure inside Nest
    // (configuration, database) is thrown to the caller, not logged: main.ts reports it in one
    // line (boot-failure.ts) rather than as Nest's buffered start-up log and stack.
    {
      bodyParser: false,
      bufferLogs: true,
      abortOnError: false,
      autoFlushLogs: false,
    },
  );
  return configure(app);
}

/**
 * Listens on PORT and logs where: the last step of main.ts and of the demo server. From then on
 * SIGTERM and SIGINT drain and close the app (graceful-shutdown.ts). Returns the base URL.
 */
export async function listen(app: NestExpressApplication): Promise<string> {
  await app.listen(app.get(AppConfig).port);
  gracefulShutdown(app).stopOnSignals(app);
  const { port } = app.getHttpServer().address() as AddressInfo;
  const base = `http://localhost:${port}`;
  app
    .get(Logger)
    .log(
      `Box Office API listening on ${base} (docs: ${base}/docs)`,
      'Bootstrap',
    );
  return base;
}

/** App-level settings that are not injectable. */
function configure(app: NestExpressApplication): NestExpressApplication {
  const config = app.get(AppConfig);
  app.useLogger(new AppLogger(app.get(Logger)));
  app.flushLogs();

  // Query keys such as `created_at.gt` stay literal; repeated keys become arrays (rejected later).
  app.set('query parser', 'simple');
  app.set('etag', (body: string | Buffer) => etagOf(body));
  // 304 when If-None-Match matches, whatever Cache-Control the request carries.
  useValidatorFreshness(app.getHttpAdapter().getInstance() as Express);
  app.set('trust proxy', config.trustProxyHops);
  app.disable('x-powered-by');
  guardAndLogRequests(app, config);

  // The request pipeline, in order. Auth and rate limiting are mounted here rather than as module
  // middleware so that they also run for the Swagger routes, which Express serves before any
  // module middleware: every response carries the rate-limit headers.
  app.use(requestIdMiddleware);
  // A JSON API serves no HTML of its own; Swagger UI at /docs needs inline scripts and styles.
  app.use(helmet({ contentSecurityPolicy: false }));
  // Every JSON body, however small, when the client accepts gzip or br (error bodies included).
  // Fast levels: the defaults cost as much as building a list page, for barely smaller output
  // (bench/README.md, "Measurements behind the hot path").
  app.use(
    compression({
      threshold: 0,
      level: 2,
      brotli: { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 2 } },
    }),
  );
  app.enableCors({
    origin: config.corsOrigins,
    methods: [...CORS_METHODS],
    allowedHeaders: [...CORS_ALLOWED_HEADERS],
    exposedHeaders: [...CORS_EXPOSED_HEADERS],
    maxAge: CORS_MAX_AGE,
    // Preflights go on through the rate limiter (counted per IP: browsers send them without
    // credentials) and are answered by answerPreflight below, with the rate-limit headers.
    preflightContinue: true,
  });
  const auth = app.get(AuthMiddleware);
  const rateLimit = app.get(RateLimitMiddleware);
  // Counts requests in flight; once a shutdown starts, answers new ones 503 (before any key lookup).
  app.use(gracefulShutdown(app).middleware);
  app.use(
    (req: Request, res: Response, next: NextFunction) =>
      void auth.use(req, res, next),
  );
  app.use(
    (req: Request, res: Response, next: NextFunction) =>
      void rateLimit.use(req, res, next),
  );
  app.use(answerPreflight);
  // Cache-Control of successes (cache-control.ts); the exception filter gives errors no-store.
  app.use(cacheControlMiddleware);

  app.enableVersioning({ type: VersioningType.URI });

  const document = buildOpenApiDocument(app);
  // JSON only: no undocumented /docs-yaml (docs/API.md, GET /docs and /docs-json).
  SwaggerModule.setup('docs', app, document, {
    jsonDocumentUrl: 'docs-json',
    raw: ['json'],
  });
  return app;
}

/** CORS preflight, once counted: 204 with the CORS and rate-limit headers already set. */
function answerPreflight(req: Request, res: Response, next: NextFunction) {
  if (req.method !== 'OPTIONS') return next();
  res.status(204).setHeader('Content-Length', '0');
  res.end();
}

/**
 * Express with case-sensitive routing: `/V1/ORDERS` is no route (docs/API.md, Paths and
 * versions). Set before the adapter is built: the router takes the setting when it is made.
 */
function caseSensitiveExpress(): express.Express {
  return express().set('case sensitive routing', true);
}

/**
 * Hostile and slow clients, and the access log (docs/OPERATIONS.md, Reliability): the HTTP server's timeouts
 * and JSON answers to what Node's parser refuses (common/http/http-server.ts), and one log line
 * per request, first in the pipeline so that it times all of it (only when `info` is logged).
 */
function guardAndLogRequests(app: NestExpressApplication, config: AppConfig) {
  const logger = PinoLogger.root;
  configureHttpServer(
    app.getHttpServer() as Server,
    config.httpTimeouts,
    logger,
  );
  if (logger.isLevelEnabled('info')) app.use(accessLog(logger));
}
