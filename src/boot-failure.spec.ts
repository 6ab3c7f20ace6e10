import { bootFailureLine } from './boot-failure';

const error = (message: string, fields: Record<string, unknown> = {}) =>
  Object.assign(new Error(message), fields);

describe('bootFailureLine', () => {
  it('names an SQLite file and why it cannot be opened', () => {
    expect(
      bootFailureLine(
        error('unable to open database file', { code: 'SQLITE_CANTOPEN' }),
        'sqlite:/srv/data/boxoffice.sqlite',
      ),
    ).toBe(
      'Box Office API did not start: cannot use the database SQLite /srv/data/boxoffice.sqlite (unable to open database file: does its directory exist, and may this user write there?)',
    );
  });

  it('names the default SQLite file when DATABASE_URL is unset', () => {
    expect(
      bootFailureLine(
        error("EACCES: permission denied, mkdir 'data'", { code: 'EACCES' }),
        undefined,
      ),
    ).toBe(
      "Box Office API did not start: cannot use the database SQLite data/boxoffice.sqlite (EACCES: permission denied, mkdir 'data')",
    );
  });

  it('names a PostgreSQL server and database without the credentials', () => {
    const line = bootFailureLine(
      error('database "shop" does not exist', { code: '3D000' }),
      'postgres://app:s3cret@db.internal:5433/shop?sslmode=require',
    );
    expect(line).toBe(
      'Box Office API did not start: cannot use the database PostgreSQL db.internal:5433/shop (database "shop" does not exist)',
    );
  });

  it('reports a connection that timed out, and a refused one', () => {
    expect(
      bootFailureLine(
        error('timeout expired'),
        'postgres://postgres@10.0.0.9/boxoffice',
      ),
    ).toBe(
      'Box Office API did not start: cannot use the database PostgreSQL 10.0.0.9/boxoffice (timeout expired)',
    );
    expect(
      bootFailureLine(
        error('connect ECONNREFUSED 127.0.0.1:5432', { code: 'ECONNREFUSED' }),
        'postgres://postgres@127.0.0.1:5432/boxoffice',
      ),
    ).toMatch(/\(connect ECONNREFUSED 127\.0\.0\.1:5432\)$/);
  });

  it('passes invalid settings and a port in use through on one line', () => {
    expect(
      bootFailureLine(
        error(
          'Invalid configuration: PORT: PORT must not be greater than 65535',
        ),
        undefined,
      ),
    ).toBe(
      'Box Office API did not start: Invalid configuration: PORT: PORT must not be greater than 65535',
    );
    expect(
      bootFailureLine(
        error('listen EADDRINUSE: address already in use :::3000', {
          code: 'EADDRINUSE',
          syscall: 'listen',
        }),
        undefined,
      ),
    ).toBe(
      'Box Office API did not start: cannot listen (listen EADDRINUSE: address already in use :::3000)',
    );
  });

  it('gives nothing for other errors, which are printed whole (a bug)', () => {
    expect(
      bootFailureLine(new TypeError('x is not a function'), undefined),
    ).toBeNull();
    expect(bootFailureLine('a string', undefined)).toBeNull();
  });
});
