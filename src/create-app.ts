import { constants as zlibConstants } from 'node:zlib';
import type { AddressInfo } from 'node:net';
import { VersioningType } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import type { NextFunction, Request, Response } from 'express';
import { DocumentBuilder, SwaggerModule } from '@nestjs/swagger';
import compression from 'compression';
import helmet from 'helmet';
import { Logger } from 'nestjs-pino';
import { version } from '../package.json';
import { AppModule } from './app.module';
import { etagOf } from './common/http/etag';
import { gracefulShutdown } from './common/http/graceful-shutdown';
import { JsonBufferExpressAdapter } from './common/http/json-buffer-express.adapter';
import { documentCommonResponses } from './common/http/openapi-responses';
import { requestIdMiddleware } from './common/http/request-id';
import { AppConfig } from './config/app-config';
import { AuthMiddleware } from './auth/auth.middleware';
import { RateLimitMiddleware } from './common/rate-limit/rate-limit.middleware';

export interface CreateAppOptions {
  /** Settings to use instead of the environment's (tests build their own). */
  config?: AppConfig;
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
    new JsonBufferExpressAdapter(),
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
  app.useLogger(app.get(Logger));
  app.flushLogs();

  // Query keys such as `created_at.gt` stay literal; repeated keys become arrays (rejected later).
  app.set('query parser', 'simple');
  app.set('etag', (body: string | Buffer) => etagOf(body));
  app.set('trust proxy', config.trustProxyHops);
  app.disable('x-powered-by');

  // The request pipeline, in order. Auth and rate limiting are mounted here rather than as module
  // middleware so that they also run for the Swagger routes, which Express serves before any
  // module middleware: every response carries the rate-limit headers.
  app.use(requestIdMiddleware);
  // A JSON API serves no HTML of its own; Swagger UI at /docs needs inline scripts and styles.
  app.use(helmet({ contentSecurityPolicy: false }));
  // Every JSON body, however small, when the client accepts gzip or br (error bodies included).
  // Fast settings: on a 260 KB list page the defaults (brotli 4, gzip 6) cost 1.9 / 2.9 ms, as
  // much as building the page; brotli 2 / gzip 2 take 1.1 / 1.2 ms for output 8% / 18% larger
  // (still about a seventh of the JSON).
  app.use(
    compression({
      threshold: 0,
      level: 2,
      brotli: { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 2 } },
    }),
  );
  app.enableCors({
    origin: config.corsOrigins,
    methods: ['GET', 'HEAD', 'OPTIONS'],
    allowedHeaders: [
      'Authorization',
      'Content-Type',
      'If-None-Match',
      'X-Request-Id',
    ],
    exposedHeaders: [
      'ETag',
      'Retry-After',
      'X-Request-Id',
      'X-Rate-Limit-Limit',
      'X-Rate-Limit-Remaining',
      'X-Rate-Limit-Reset',
    ],
    maxAge: 600,
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

  app.enableVersioning({ type: VersioningType.URI });

  const document = documentCommonResponses(
    SwaggerModule.createDocument(
      app,
      new DocumentBuilder()
        .setTitle('Box Office API')
        .setDescription(
          "Read-only access to a box office's ticket orders, in the style of the Ticket Tailor API. Authenticate with HTTP Basic auth: the API key as user name, an empty password. Every non-2xx response has the ErrorBodyDto body. Any method but GET, HEAD and OPTIONS on these paths answers 405 METHOD_NOT_ALLOWED with an Allow header; unknown paths answer 404 NOT_FOUND. Rate limits apply per API key (per client IP without one).",
        )
        .setVersion(version)
        .addBasicAuth({ type: 'http', scheme: 'basic' }, 'apiKey')
        .build(),
    ),
  );
  SwaggerModule.setup('docs', app, document, { jsonDocumentUrl: 'docs-json' });
  return app;
}

/** CORS preflight, once counted: 204 with the CORS and rate-limit headers already set. */
function answerPreflight(req: Request, res: Response, next: NextFunction) {
  if (req.method !== 'OPTIONS') return next();
  res.status(204).setHeader('Content-Length', '0');
  res.end();
}
