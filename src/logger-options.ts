import type { DestinationStream } from 'pino';
import type { Params } from 'nestjs-pino';
import type { AppConfig } from './config/app-config';

/**
 * pino as Nest's logger, JSON lines at LOG_LEVEL, to stdout unless `destination` is given (tests
 * capture the lines).
 *
 * pino-http's per-request middleware is installed for no route: it made two child loggers and
 * serialised the request on every request, whatever the level (bench/README.md, "Measurements
 * behind the hot path"). The access log is our own middleware instead (common/http/access-log.ts,
 * one pino call per request, installed only when `info` is enabled); pino-http only builds the
 * root logger.
 */
export function loggerOptions(
  config: AppConfig,
  destination?: DestinationStream,
): Params {
  const options = { level: config.logLevel };
  return {
    forRoutes: [],
    pinoHttp: destination ? [options, destination] : options,
  };
}
