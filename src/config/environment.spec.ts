import { AppConfig } from './app-config';
import { Environment, validateEnvironment } from './environment';

describe('validateEnvironment', () => {
  it('applies the documented defaults (docs/OPERATIONS.md, Settings) to an empty environment', () => {
    const env = validateEnvironment({});
    expect(env).toBeInstanceOf(Environment);
    expect(env).toEqual(
      expect.objectContaining({
        NODE_ENV: 'development',
        PORT: 3000,
        MIGRATIONS_RUN: true,
        CORS_ORIGINS: '*',
        RATE_LIMIT_MAX: 5000,
        RATE_LIMIT_WINDOW_S: 1800,
        LOG_LEVEL: 'info',
        AUTH_FAILURE_MAX: 100,
        AUTH_FAILURE_WINDOW_S: 900,
        HTTP_HEADERS_TIMEOUT_MS: 10_000,
        HTTP_REQUEST_TIMEOUT_MS: 30_000,
        HTTP_KEEP_ALIVE_TIMEOUT_MS: 5_000,
        HTTP_SOCKET_TIMEOUT_MS: 30_000,
        HTTP_MAX_CONNECTIONS: 4_000,
        HTTP_MAX_PIPELINED: 4,
        HTTP_MAX_HEADER_BYTES: 16_384,
        SHUTDOWN_GRACE_MS: 8_000,
        SHUTDOWN_CLOSE_MS: 1_500,
        SYNC_LAG_S: 2,
        CHANGES_RETENTION_DAYS: 30,
        REDIS_COMMAND_TIMEOUT_MS: 250,
      }),
    );
    expect(env.DATABASE_URL).toBeUndefined();
    expect(env.CHANGES_RETENTION_S).toBeUndefined();
    expect(env.REDIS_URL).toBeUndefined();
    expect(env.METRICS_TOKEN).toBeUndefined();
  });

  it('converts numbers and booleans from strings', () => {
    const env = validateEnvironment({
      PORT: '8080',
      RATE_LIMIT_MAX: '10',
      RATE_LIMIT_WINDOW_S: '60',
      MIGRATIONS_RUN: 'false',
      DATABASE_URL: 'postgres://u@db:5432/boxoffice',
      REDIS_URL: 'redis://cache:6379',
      CORS_ORIGINS: 'https://a.example,https://b.example',
    });
    expect(env).toEqual(
      expect.objectContaining({
        PORT: 8080,
        RATE_LIMIT_MAX: 10,
        RATE_LIMIT_WINDOW_S: 60,
        MIGRATIONS_RUN: false,
        DATABASE_URL: 'postgres://u@db:5432/boxoffice',
        REDIS_URL: 'redis://cache:6379',
        CORS_ORIGINS: 'https://a.example,https://b.example',
      }),
    );
  });

  it.each([
    'sqlite:data/x.sqlite',
    'sqlite::memory:',
    'postgres://h/db',
    'postgresql://h/db',
  ])('accepts DATABASE_URL %s', (url) => {
    expect(validateEnvironment({ DATABASE_URL: url }).DATABASE_URL).toBe(url);
  });

  it('treats empty strings as unset', () => {
    const env = validateEnvironment({
      PORT: '',
      DATABASE_URL: '',
      RATE_LIMIT_MAX: '',
    });
    expect(env.PORT).toBe(3000);
    expect(env.DATABASE_URL).toBeUndefined();
    expect(env.RATE_LIMIT_MAX).toBe(5000);
  });

  it('ignores variables that are not settings', () => {
    expect(() =>
      validateEnvironment({ PATH: '/usr/bin', HOME: '/root', FOO: 'x' }),
    ).not.toThrow();
  });

  it.each([
    ['PORT', 'abc'],
    ['PORT', '70000'],
    ['PORT', '1.5'],
    ['RATE_LIMIT_MAX', '0'],
    ['RATE_LIMIT_WINDOW_S', 'soon'],
    ['MIGRATIONS_RUN', 'maybe'],
    ['NODE_ENV', 'staging'],
    ['LOG_LEVEL', 'loud'],
    ['DATABASE_URL', 'mysql://h/db'],
    ['REDIS_URL', 'http://cache'],
    ['REDIS_COMMAND_TIMEOUT_MS', '0'],
    ['REDIS_COMMAND_TIMEOUT_MS', '60000'],
    ['AUTH_FAILURE_MAX', '0'],
    ['HTTP_HEADERS_TIMEOUT_MS', '0'],
    ['HTTP_KEEP_ALIVE_TIMEOUT_MS', 'long'],
    ['HTTP_SOCKET_TIMEOUT_MS', '999'],
    ['HTTP_MAX_CONNECTIONS', '0'],
    ['HTTP_MAX_CONNECTIONS', '1.5'],
    ['HTTP_MAX_PIPELINED', '0'],
    ['HTTP_MAX_HEADER_BYTES', '1024'],
    ['HTTP_MAX_HEADER_BYTES', '2000000'],
    ['SHUTDOWN_GRACE_MS', '-1'],
    ['SHUTDOWN_CLOSE_MS', '0'],
    ['SYNC_LAG_S', '0'],
    ['CHANGES_RETENTION_DAYS', '0'],
    ['CHANGES_RETENTION_S', 'week'],
    ['METRICS_TOKEN', 'short-token'],
    ['METRICS_TOKEN', 'a token with spaces in it, long enough to pass'],
  ])('rejects %s=%s, naming the key', (key, value) => {
    expect(() => validateEnvironment({ [key]: value })).toThrow(
      new RegExp(`\\b${key}\\b`),
    );
  });

  it('refuses a headers timeout longer than the request timeout (Node would)', () => {
    expect(() =>
      validateEnvironment({
        HTTP_HEADERS_TIMEOUT_MS: '40000',
        HTTP_REQUEST_TIMEOUT_MS: '30000',
      }),
    ).toThrow(
      /HTTP_HEADERS_TIMEOUT_MS: must not exceed HTTP_REQUEST_TIMEOUT_MS/,
    );
    expect(
      validateEnvironment({
        HTTP_HEADERS_TIMEOUT_MS: '30000',
        HTTP_REQUEST_TIMEOUT_MS: '30000',
      }).HTTP_HEADERS_TIMEOUT_MS,
    ).toBe(30_000);
  });

  it('refuses a socket timeout a slow statement could outlast (its answer would find the connection closed)', () => {
    expect(() =>
      validateEnvironment({
        HTTP_SOCKET_TIMEOUT_MS: '10000',
        DB_STATEMENT_TIMEOUT_MS: '10000',
      }),
    ).toThrow(/HTTP_SOCKET_TIMEOUT_MS: must exceed DB_STATEMENT_TIMEOUT_MS/);
    expect(
      validateEnvironment({
        HTTP_SOCKET_TIMEOUT_MS: '5000',
        DB_STATEMENT_TIMEOUT_MS: '0',
      }).HTTP_SOCKET_TIMEOUT_MS,
    ).toBe(5_000);
  });

  it('takes a metrics token of 32 or more bearer-token characters, and never repeats a bad one', () => {
    const token = 'f'.repeat(64);
    expect(validateEnvironment({ METRICS_TOKEN: token }).METRICS_TOKEN).toBe(
      token,
    );
    expect(
      validateEnvironment({
        METRICS_TOKEN: 'abc-DEF_012.~+/xyz9876543210abcd==',
      }).METRICS_TOKEN,
    ).toBe('abc-DEF_012.~+/xyz9876543210abcd==');
    const secret = 'not quite a token but secret 0123456789';
    expect(() => validateEnvironment({ METRICS_TOKEN: secret })).toThrow(
      /^Invalid configuration: METRICS_TOKEN: /,
    );
    expect(() => validateEnvironment({ METRICS_TOKEN: secret })).not.toThrow(
      /secret/,
    );
  });

  it('reads the webhook settings, refusing a retry schedule that is not a list of seconds and a key that is not 32 bytes in hex', () => {
    const config = new AppConfig(
      validateEnvironment({
        WEBHOOK_RETRY_SCHEDULE: '1,2,4',
        WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
        WEBHOOK_SECRET_KEY: 'ab'.repeat(32),
      }),
    );
    expect(config.webhooks).toEqual(
      expect.objectContaining({
        retryScheduleSeconds: [1, 2, 4],
        allowPrivateUrls: true,
        secretKey: Buffer.alloc(32, 0xab),
      }),
    );
    expect(
      new AppConfig(validateEnvironment({})).webhooks.retryScheduleSeconds,
    ).toEqual([5, 300, 1800, 7200, 18000, 36000, 36000]);
    for (const schedule of ['1,,2', '0,5', '5;300', '-1', '1.5', 'soon']) {
      expect(() =>
        validateEnvironment({ WEBHOOK_RETRY_SCHEDULE: schedule }),
      ).toThrow(/^Invalid configuration: WEBHOOK_RETRY_SCHEDULE: /);
    }
    expect(() =>
      validateEnvironment({ WEBHOOK_SECRET_KEY: 'too short' }),
    ).toThrow(/^Invalid configuration: WEBHOOK_SECRET_KEY: /);
  });

  it('names every offending key at once', () => {
    let message = '';
    try {
      validateEnvironment({
        PORT: 'abc',
        RATE_LIMIT_MAX: '-1',
        NODE_ENV: 'prod',
      });
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toMatch(/PORT/);
    expect(message).toMatch(/RATE_LIMIT_MAX/);
    expect(message).toMatch(/NODE_ENV/);
  });
});
