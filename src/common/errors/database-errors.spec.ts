import { QueryFailedError } from 'typeorm';
import { isDatabaseUnavailable } from './database-errors';

const withCode = (code: string, message = 'driver error') =>
  Object.assign(new Error(message), { code });

describe('isDatabaseUnavailable', () => {
  it.each([
    'ECONNREFUSED',
    'ECONNRESET',
    'ETIMEDOUT',
    'ENOTFOUND',
    'EHOSTUNREACH',
    'EPIPE',
    'EAI_AGAIN',
  ])('is true for the network error %s', (code) => {
    expect(isDatabaseUnavailable(withCode(code))).toBe(true);
  });

  it.each([
    ['08006', 'connection failure'],
    ['08001', 'cannot connect'],
    ['08004', 'server rejected the connection'],
    ['08P01', 'protocol violation'],
    ['53300', 'too many connections'],
    ['53200', 'out of memory'],
    ['57P01', 'admin shutdown'],
    ['57P02', 'crash shutdown'],
    ['57P03', 'cannot connect now'],
    ['3D000', 'no such database'],
    ['57014', 'statement timeout'],
    ['40P01', 'deadlock detected'],
    ['40001', 'serialization failure'],
    ['55P03', 'lock not available'],
  ])('is true for PostgreSQL SQLSTATE %s (%s)', (code) => {
    expect(isDatabaseUnavailable(withCode(code))).toBe(true);
  });

  it('is true for 55000 when it ends the connection (a database not accepting connections)', () => {
    const refusal = Object.assign(
      withCode(
        '55000',
        'database "shop" is not currently accepting connections',
      ),
      { severity: 'FATAL' },
    );
    expect(isDatabaseUnavailable(refusal)).toBe(true);
  });

  it.each([
    'SQLITE_BUSY',
    'SQLITE_LOCKED',
    'SQLITE_CANTOPEN',
    'SQLITE_IOERR_READ',
    'SQLITE_FULL',
    'SQLITE_READONLY_DBMOVED',
    'SQLITE_READONLY',
    'SQLITE_CORRUPT',
    'SQLITE_NOTADB',
  ])('is true for %s', (code) => {
    expect(isDatabaseUnavailable(withCode(code))).toBe(true);
  });

  it.each([
    'Connection terminated unexpectedly',
    'timeout exceeded when trying to connect',
    'Cannot use a pool after calling end on the pool',
    'the database system is starting up',
    'the database system is shutting down',
  ])('is true for the pg message "%s"', (message) => {
    expect(isDatabaseUnavailable(new Error(message))).toBe(true);
  });

  it('looks inside QueryFailedError.driverError', () => {
    const error = new QueryFailedError('SELECT 1', [], withCode('57P01'));
    expect(isDatabaseUnavailable(error)).toBe(true);
  });

  it('follows Error.cause', () => {
    const error = new Error('wrapped', {
      cause: new Error('outer', { cause: withCode('ECONNREFUSED') }),
    });
    expect(isDatabaseUnavailable(error)).toBe(true);
  });

  it.each([
    [
      'a missing table (SQLite)',
      withCode('SQLITE_ERROR', 'no such table: orders'),
    ],
    ['a missing relation (PostgreSQL)', withCode('42P01')],
    ['a unique violation', withCode('23505')],
    ['a syntax error', withCode('42601')],
    [
      '55000 on a statement',
      Object.assign(withCode('55000'), { severity: 'ERROR' }),
    ],
    ['a code that only starts like a refusal', withCode('080')],
    ['a code that only starts like a timeout', withCode('570141')],
    ['a constraint failure', withCode('SQLITE_CONSTRAINT_FOREIGNKEY')],
    ['a plain Error', new Error('boom')],
    ['a TypeError', new TypeError('x is undefined')],
    ['a string', 'ECONNREFUSED'],
    ['null', null],
    ['undefined', undefined],
    ['a number code', Object.assign(new Error('x'), { code: 8006 })],
    [
      'a wrapped bug',
      new QueryFailedError(
        'SELECT',
        [],
        withCode('42P01', 'relation "x" does not exist'),
      ),
    ],
  ])('is false for %s', (_, error) => {
    expect(isDatabaseUnavailable(error)).toBe(false);
  });

  it('does not loop on a cyclic cause chain', () => {
    const a = new Error('a') as Error & { cause?: unknown };
    const b = new Error('b', { cause: a });
    a.cause = b;
    expect(isDatabaseUnavailable(a)).toBe(false);
  });
});
