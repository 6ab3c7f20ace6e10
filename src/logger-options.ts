import type { LoggerService } from '@nestjs/common';
import type { DestinationStream } from 'pino';
import type { Params } from 'nestjs-pino';
import type { AppConfig } from './config/app-config';
import { stdoutLogOutput } from './log-output';

/**
 * pino as Nest's logger, at LOG_LEVEL, to stdout unless `destination` is given (tests capture
 * the lines): JSON lines through the process's LogOutput (log-output.ts: never blocking, whatever
 * the reader of stdout does; a request never waits for its log line), or with LOG_FORMAT `pretty`
 * (the default in development on a terminal) lines a person reads (written synchronously).
 *
 * pino-http's per-request middleware is installed for no route: it made two child loggers and
 * serialised the request on every request, whatever the level
 * (bench/notes/2026-11-22-hot-path-measurements.md). The access log is our own middleware
 * instead (common/http/access-log.ts, one pino call per request, installed only when `info` is
 * enabled); pino-http only builds the root logger.
 */
export function loggerOptions(
  config: AppConfig,
  destination?: DestinationStream,
): Params {
  const stream =
    destination ??
    (config.logFormat === 'pretty' ? prettyStream() : stdoutLogOutput());
  return {
    forRoutes: [],
    pinoHttp: [{ level: config.logLevel }, stream],
  };
}

/** pino-pretty, loaded only when asked for: a production install has no development dependency. */
function prettyStream(): DestinationStream {
  let pretty: typeof import('pino-pretty');
  try {
    // oxlint-disable-next-line typescript/no-require-imports -- loaded only for LOG_FORMAT=pretty
    pretty = require('pino-pretty') as typeof import('pino-pretty');
  } catch {
    throw new Error(
      'LOG_FORMAT=pretty needs pino-pretty, a development dependency; set LOG_FORMAT=json',
    );
  }
  return pretty({
    sync: true,
    colorize: process.stdout.isTTY === true,
    translateTime: 'SYS:HH:MM:ss',
    ignore: 'pid,hostname,context',
    messageFormat: '{if context}[{context}] {end}{msg}',
  });
}

/** Where Nest logs its own start-up: each module loaded and route mapped, and "started". */
const NEST_STARTUP = new Set([
  'NestFactory',
  'InstanceLoader',
  'RoutesResolver',
  'RouterExplorer',
  'NestApplication',
]);

const contextOf = (params: unknown[]) => params.at(-1);

/**
 * Nest's logger for the application: the pino logger, with Nest's start-up lines moved to
 * `debug` (about forty of them, and a "successfully started" before the port is bound, which a
 * port already in use then contradicts). The service's own "listening on" line says it started;
 * a failure to listen is reported once, by the boot failure line (boot-failure.ts).
 */
export class AppLogger implements LoggerService {
  constructor(private readonly logger: LoggerService) {}

  log(message: unknown, ...params: unknown[]) {
    if (NEST_STARTUP.has(contextOf(params) as string)) {
      this.logger.debug?.(message, ...params);
    } else {
      this.logger.log(message, ...params);
    }
  }

  error(message: unknown, ...params: unknown[]) {
    const listenFailure =
      contextOf(params) === 'NestApplication' &&
      String(message).startsWith('Error: listen ');
    if (!listenFailure) this.logger.error(message, ...params);
  }

  warn(message: unknown, ...params: unknown[]) {
    this.logger.warn(message, ...params);
  }

  debug(message: unknown, ...params: unknown[]) {
    this.logger.debug?.(message, ...params);
  }

  verbose(message: unknown, ...params: unknown[]) {
    this.logger.verbose?.(message, ...params);
  }

  fatal(message: unknown, ...params: unknown[]) {
    this.logger.fatal?.(message, ...params);
  }
}
