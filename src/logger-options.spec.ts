import { Writable } from 'node:stream';
import type { LoggerService } from '@nestjs/common';
import { AppConfig } from './config/app-config';
import { validateEnvironment } from './config/environment';
import { stdoutLogOutput } from './log-output';
import { AppLogger, loggerOptions } from './logger-options';

describe('loggerOptions', () => {
  const at = (logLevel: string) =>
    loggerOptions({ logLevel, logFormat: 'json' } as AppConfig);

  it.each(['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent'])(
    'logs at %s to stdout through the LogOutput, and installs no pino-http middleware (the access log is our own)',
    (level) => {
      expect(at(level)).toEqual({
        forRoutes: [],
        pinoHttp: [{ level }, stdoutLogOutput()],
      });
    },
  );

  it('writes to the destination it is given', () => {
    const destination = new Writable({ write: (_c, _e, done) => done() });
    expect(
      loggerOptions({ logLevel: 'info' } as AppConfig, destination),
    ).toEqual({
      forRoutes: [],
      pinoHttp: [{ level: 'info' }, destination],
    });
  });
});

describe('LOG_FORMAT', () => {
  const formatOf = (env: Record<string, string>) =>
    new AppConfig(validateEnvironment(env)).logFormat;

  it('is what it is set to, and by default json unless in development on a terminal', () => {
    expect(formatOf({ LOG_FORMAT: 'pretty', NODE_ENV: 'production' })).toBe(
      'pretty',
    );
    expect(formatOf({ LOG_FORMAT: 'json', NODE_ENV: 'development' })).toBe(
      'json',
    );
    expect(formatOf({ NODE_ENV: 'production' })).toBe('json');
    // Jest's workers write to pipes, not a terminal.
    expect(formatOf({ NODE_ENV: 'development' })).toBe(
      process.stdout.isTTY ? 'pretty' : 'json',
    );
    expect(() => validateEnvironment({ LOG_FORMAT: 'yaml' })).toThrow(
      /LOG_FORMAT/,
    );
  });

  it('pretty writes lines a person reads, with the context before the message', () => {
    const options = loggerOptions(
      new AppConfig(validateEnvironment({ LOG_FORMAT: 'pretty' })),
    );
    const [, stream] = options.pinoHttp as [unknown, Writable];
    expect(stream).toBeInstanceOf(Writable);
  });
});

describe('AppLogger', () => {
  const calls: [string, unknown[]][] = [];
  const record =
    (level: string) =>
    (...args: unknown[]) =>
      calls.push([level, args]);
  const inner: LoggerService = {
    log: record('log'),
    error: record('error'),
    warn: record('warn'),
    debug: record('debug'),
    verbose: record('verbose'),
    fatal: record('fatal'),
  };
  const logger = new AppLogger(inner);
  beforeEach(() => (calls.length = 0));

  it("moves Nest's start-up lines to debug and keeps the service's own", () => {
    logger.log('AppModule dependencies initialized', 'InstanceLoader');
    logger.log('Mapped {/orders, GET} route', 'RouterExplorer');
    logger.log('Nest application successfully started', 'NestApplication');
    logger.log(
      'Box Office API listening on http://localhost:3000',
      'Bootstrap',
    );
    expect(calls.map(([level, [, context]]) => [level, context])).toEqual([
      ['debug', 'InstanceLoader'],
      ['debug', 'RouterExplorer'],
      ['debug', 'NestApplication'],
      ['log', 'Bootstrap'],
    ]);
  });

  it('leaves a failure to listen to the boot failure line, and passes every other error', () => {
    logger.error(
      'Error: listen EADDRINUSE: address already in use :::3000',
      'NestApplication',
    );
    logger.error('Something broke', 'stack', 'ExceptionsHandler');
    logger.warn('Careful', 'Redis');
    expect(calls.map(([level]) => level)).toEqual(['error', 'warn']);
  });
});
