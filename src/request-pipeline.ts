import { constants as zlibConstants } from 'node:zlib';
import type { NestExpressApplication } from '@nestjs/platform-express';
import compression from 'compression';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import helmet from 'helmet';
import { PinoLogger } from 'nestjs-pino';
import type { Logger } from 'pino';
import { AuthMiddleware } from './auth/auth.middleware';
import type { AppConfig } from './config/app-config';
import { RateLimitMiddleware } from './common/rate-limit/rate-limit.middleware';
import { accessLog } from './common/http/access-log';
import { cacheControlMiddleware } from './common/http/cache-control';
import {
  CORS_ALLOWED_HEADERS,
  CORS_EXPOSED_HEADERS,
  CORS_MAX_AGE,
  CORS_METHODS,
} from './common/http/cors-options';
import { gracefulShutdown } from './common/http/graceful-shutdown';
import { requestIdMiddleware } from './common/http/request-id';

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
 * before any module middleware: every response carries the rate-limit headers). After them, Nest's
 * own, registered globally in AppModule: the API key guard (whose key the auth step has looked
 * up), the strict validation pipe, the interceptors (revalidation: the 304 from the data version;
 * the links of a list page, from its `ApiList` operation), the handler, and for whatever is
 * thrown, the one exception filter. The conditional GET itself is Express's `req.fresh`, set up
 * in createApp (`useValidatorFreshness`).
 */
export function requestPipeline(
  app: NestExpressApplication,
  config: AppConfig,
  logger: Logger = PinoLogger.root,
): readonly PipelineStep[] {
  const auth = app.get(AuthMiddleware);
  const rateLimit = app.get(RateLimitMiddleware);
  return [
    // One log line per request, first so that it times all of it (only when `info` is logged).
    ...(logger.isLevelEnabled('info')
      ? [{ name: 'access log', mount: use(accessLog(logger)) }]
      : []),
    { name: 'request id', mount: use(requestIdMiddleware) },
    // A JSON API serves no HTML of its own; Swagger UI at /docs needs inline scripts and styles.
    {
      name: 'security headers',
      mount: use(helmet({ contentSecurityPolicy: false })),
    },
    // Every JSON body, however small, when the client accepts gzip or br (error bodies included).
    // Fast levels: the defaults cost as much as building a list page, for barely smaller output
    // (bench/README.md, "Measurements behind the hot path").
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
    // lookup).
    { name: 'shutdown gate', mount: use(gracefulShutdown(app).middleware) },
    {
      name: 'API key',
      mount: use((req, res, next) => void auth.use(req, res, next)),
    },
    {
      name: 'rate limit',
      mount: use((req, res, next) => void rateLimit.use(req, res, next)),
    },
    { name: 'CORS preflight', mount: use(answerPreflight) },
    // Cache-Control of successes (cache-control.ts); the exception filter gives errors no-store.
    { name: 'cache control', mount: use(cacheControlMiddleware) },
  ];
}

/** CORS preflight, once counted: 204 with the CORS and rate-limit headers already set. */
function answerPreflight(req: Request, res: Response, next: NextFunction) {
  if (req.method !== 'OPTIONS') return next();
  res.status(204).setHeader('Content-Length', '0');
  res.end();
}
