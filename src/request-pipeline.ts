import { constants as zlibConstants } from 'node:zlib';
import type { Server } from 'node:http';
import type { Provider } from '@nestjs/common';
import { APP_FILTER, APP_GUARD, APP_INTERCEPTOR, APP_PIPE } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import compression from 'compression';
import type {
  Express,
  NextFunction,
  Request,
  RequestHandler,
  Response,
} from 'express';
import helmet from 'helmet';
import { PinoLogger } from 'nestjs-pino';
import type { Logger } from 'pino';
import { ApiKeyGuard } from './auth/api-key.guard';
import { AuthMiddleware } from './auth/auth.middleware';
import type { AppConfig } from './config/app-config';
import { AllExceptionsFilter } from './common/errors/all-exceptions.filter';
import { useValidatorFreshness } from './common/http/conditional-get';
import { etagOf } from './common/http/etag';
import { PaginationLinksInterceptor } from './common/pagination/pagination-links.interceptor';
import { RateLimitMiddleware } from './common/rate-limit/rate-limit.middleware';
import { StrictValidationPipe } from './common/validation/validation.pipe';
import { accessLog } from './common/http/access-log';
import { cacheControlMiddleware } from './common/http/cache-control';
import {
  CORS_ALLOWED_HEADERS,
  CORS_EXPOSED_HEADERS,
  CORS_MAX_AGE,
  CORS_METHODS,
} from './common/http/cors-options';
import { gracefulShutdown } from './common/http/graceful-shutdown';
import { requestBody } from './common/http/request-body';
import type { ExpressLike } from './common/errors/route-methods';
import { onResponseDone } from './common/http/http-server';
import { requestIdMiddleware } from './common/http/request-id';
import { Metrics } from './common/metrics/metrics';
import { requestMetrics } from './common/metrics/request-metrics';
import { PROBE_PATHS } from './health/probes.controller';
import { METRICS_PATH } from './metrics/metrics.controller';
import { RevalidationInterceptor } from './revalidation/revalidation';
import { doorApp } from './door/door-app';

/** One named step of the request pipeline, and how it is mounted on the app. */
export interface PipelineStep {
  readonly name: string;
  readonly mount: (app: NestExpressApplication) => void;
}

const use =
  (handler: RequestHandler) =>
  (app: NestExpressApplication): void =>
    void app.use(handler);

/**
 * The request pipeline, in the order a request passes it: the Express steps here, mounted by
 * `createApp` one after the other, before any route (Swagger's included, which Express serves
 * before any module middleware: every response carries the rate-limit headers); then Nest's own,
 * NEST_STEPS below.
 */
export function requestPipeline(
  app: NestExpressApplication,
  config: AppConfig,
  logger: Logger = PinoLogger.root,
): readonly PipelineStep[] {
  const auth = app.get(AuthMiddleware);
  const rateLimit = app.get(RateLimitMiddleware);
  const metrics = app.get(Metrics);
  const operations = operationsPaths(metrics.enabled);
  return [
    // One log line per request, first so that it times all of it (only when `info` is logged).
    ...(logger.isLevelEnabled('info')
      ? [{ name: 'access log', mount: use(accessLog(logger)) }]
      : []),
    // The request duration histogram (only while METRICS_TOKEN is set): told of each response by
    // the HTTP server, it times all of a request, from before the first step to the last byte.
    ...(metrics.enabled
      ? [
          {
            name: 'metrics',
            mount: (target: NestExpressApplication) =>
              onResponseDone(
                target.getHttpServer() as Server,
                requestMetrics(
                  metrics,
                  target
                    .getHttpAdapter()
                    .getInstance() as unknown as ExpressLike,
                ),
              ),
          },
        ]
      : []),
    { name: 'request id', mount: use(requestIdMiddleware) },
    // A JSON API serves no HTML of its own; Swagger UI at /docs needs inline scripts and styles.
    {
      name: 'security headers',
      mount: use(helmet({ contentSecurityPolicy: false })),
    },
    // Every JSON body, however small, when the client accepts gzip or br (error bodies included).
    // Fast levels: the defaults cost as much as building a list page, for barely smaller output
    // (bench/notes/2026-11-22-hot-path-measurements.md).
    {
      name: 'compression',
      mount: use(
        compression({
          threshold: 0,
          level: 2,
          brotli: { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 2 } },
        }),
      ),
    },
    {
      name: 'CORS',
      mount: (target) =>
        target.enableCors({
          origin: config.corsOrigins,
          methods: [...CORS_METHODS],
          allowedHeaders: [...CORS_ALLOWED_HEADERS],
          exposedHeaders: [...CORS_EXPOSED_HEADERS],
          maxAge: CORS_MAX_AGE,
          // Preflights go on through the rate limiter (counted per IP: browsers send them
          // without credentials) and are answered by the preflight step, with its headers.
          preflightContinue: true,
        }),
    },
    // Counts requests in flight; once a shutdown starts, answers new ones 503 (before any key
    // lookup). The load balancer's probes and Prometheus's scrape pass this step and the next two
    // by: through a drain, liveness answers 200 and readiness 503 themselves; they need no API
    // key (a sent one is not even looked up) and are not rate limited.
    {
      name: 'shutdown gate',
      mount: use(passBy(operations, gracefulShutdown(app).middleware)),
    },
    {
      name: 'API key',
      mount: use(
        passBy(operations, (req, res, next) => void auth.use(req, res, next)),
      ),
    },
    {
      name: 'rate limit',
      mount: use(
        passBy(
          operations,
          (req, res, next) => void rateLimit.use(req, res, next),
        ),
      ),
    },
    { name: 'CORS preflight', mount: use(answerPreflight) },
    // The body of a route that takes one (POST /v1/check_ins), once the caller is known and
    // counted: JSON or form fields, bounded (request-body.ts). Express's types leave out the
    // match() of its router's layers, which ExpressLike reads.
    {
      name: 'request body',
      mount: (target) =>
        void target.use(
          requestBody(
            target.getHttpAdapter().getInstance() as unknown as ExpressLike,
          ),
        ),
    },
    // Cache-Control of successes (cache-control.ts); the exception filter gives errors no-store.
    { name: 'cache control', mount: use(cacheControlMiddleware) },
    // The door app's static files at /door (door-app.ts): no key needed, counted per address like
    // any request without one, with their own Content-Security-Policy.
    { name: 'door app', mount: use(doorApp()) },
    // Decided as the response is sent: res.send sets the ETag (etag.ts) and answers 304 when
    // `If-None-Match` matches it, through `req.fresh` as conditional-get.ts redefines it.
    {
      name: 'conditional GET',
      mount: (target) => {
        target.set('etag', (body: string | Buffer) => etagOf(body));
        useValidatorFreshness(target.getHttpAdapter().getInstance() as Express);
      },
    },
  ];
}

/**
 * Nest's steps, after the Express ones, registered globally by AppModule in the order a request
 * meets them: the API key guard (whose key the API key step looked up), the strict validation
 * pipe, the interceptors (the first outermost: the 304 from the data version, then the body and
 * links of a list page, for the handlers `ApiList` marks; on the change feed alone, its head,
 * read before the query is checked: ChangeHeadInterceptor), the handler; and for whatever is
 * thrown, the one exception filter. The reply is sent by JsonBufferExpressAdapter (JSON bytes as
 * they are), whose res.send runs the conditional GET above.
 */
export const NEST_STEPS: readonly Provider[] = [
  { provide: APP_GUARD, useClass: ApiKeyGuard },
  { provide: APP_PIPE, useClass: StrictValidationPipe },
  { provide: APP_INTERCEPTOR, useClass: RevalidationInterceptor },
  { provide: APP_INTERCEPTOR, useClass: PaginationLinksInterceptor },
  { provide: APP_FILTER, useClass: AllExceptionsFilter },
];

/**
 * The paths of the operator's endpoints (docs/OPERATIONS.md, Health checks and Metrics), with
 * the trailing slash the router accepts too: the probes, and /metrics while metrics are on (off,
 * it is an unknown path like any other, counted and keyed as one).
 */
function operationsPaths(metricsEnabled: boolean): ReadonlySet<string> {
  const paths = [...PROBE_PATHS, ...(metricsEnabled ? [METRICS_PATH] : [])];
  return new Set(paths.flatMap((path) => [path, `${path}/`]));
}

/** `step`, except for requests to `paths`, which go on past it. */
function passBy(
  paths: ReadonlySet<string>,
  step: RequestHandler,
): RequestHandler {
  return (req, res, next) => {
    if (paths.has(req.path)) next();
    else step(req, res, next);
  };
}

/** CORS preflight, once counted: 204 with the CORS and rate-limit headers already set. */
function answerPreflight(req: Request, res: Response, next: NextFunction) {
  if (req.method !== 'OPTIONS') return next();
  res.status(204).setHeader('Content-Length', '0');
  res.end();
}
