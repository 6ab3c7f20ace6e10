import { Writable } from 'node:stream';
import type { AppConfig } from './config/app-config';
import { loggerOptions } from './logger-options';

describe('loggerOptions', () => {
  const at = (logLevel: string) => loggerOptions({ logLevel } as AppConfig);

  it.each(['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent'])(
    'logs at %s and installs no pino-http middleware (the access log is our own)',
    (level) => {
      expect(at(level)).toEqual({ forRoutes: [], pinoHttp: { level } });
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
