import type { Params } from 'nestjs-pino';
import { requestIdOf } from './common/http/request-id';
import type { AppConfig } from './config/app-config';

/** Levels at which the one-line-per-request access log is written. */
const ACCESS_LOG_LEVELS = new Set(['info', 'debug', 'trace']);

/**
 * One line per request (`GET /v1/orders 200 3ms <request id>`) as JSON via pino. Only method,
 * path (no query: it can hold e-mail addresses) and status are logged: never headers, so never
 * the Authorization header or a key.
 *
 * Above `info` there is no access log, and the per-request middleware (two child loggers and a
 * serialised request each time, a measurable share of a list page's CPU: bench/README.md,
 * "Measurements behind the hot path") is not installed at all; server errors are still logged,
 * with their request id, by the exception filter.
 */
export function loggerOptions(config: AppConfig): Params {
  return {
    ...(ACCESS_LOG_LEVELS.has(config.logLevel) ? {} : { forRoutes: [] }),
    pinoHttp: {
      level: config.logLevel,
      genReqId: (req) => requestIdOf(req),
      quietReqLogger: true,
      customLogLevel: (_req, res, error) =>
        error || res.statusCode >= 500 ? 'error' : 'info',
      customSuccessMessage: (req, res, ms) =>
        `${req.method} ${pathOf(req.url)} ${res.statusCode} ${Math.round(ms)}ms ${requestIdOf(req)}`,
      customErrorMessage: (req, res) =>
        `${req.method} ${pathOf(req.url)} ${res.statusCode} ${requestIdOf(req)}`,
      serializers: {
        req: (req: { id: unknown; method: string; url: string }) => ({
          id: req.id,
          method: req.method,
          path: pathOf(req.url),
        }),
        res: (res: { statusCode: number }) => ({ statusCode: res.statusCode }),
      },
    },
  };
}

function pathOf(url: string | undefined): string {
  return (url ?? '').split('?')[0];
}
