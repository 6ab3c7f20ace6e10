import type { AppConfig } from './config/app-config';
import { loggerOptions } from './logger-options';

describe('loggerOptions', () => {
  const at = (logLevel: string) => loggerOptions({ logLevel } as AppConfig);

  it.each(['info', 'debug', 'trace'])(
    'installs the access-log middleware on every route at %s',
    (level) => {
      expect(at(level).forRoutes).toBeUndefined();
      expect(at(level).pinoHttp).toMatchObject({ level });
    },
  );

  it.each(['warn', 'error', 'fatal', 'silent'])(
    'installs no per-request middleware at %s (no access log to write)',
    (level) => {
      expect(at(level).forRoutes).toEqual([]);
      expect(at(level).pinoHttp).toMatchObject({ level });
    },
  );
});
