import { QueryFailedError } from 'typeorm';

// Connection-level failures: the database is down, unreachable, restarting or overloaded. These
// are 503s (retry later), not bugs. PostgreSQL SQLSTATE classes 08 (connection exception),
// 53 (insufficient resources), 57P (operator intervention) and 57014 (statement timeout).
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'ENOTFOUND',
  'EHOSTUNREACH',
  'EPIPE',
  'EAI_AGAIN',
]);
const SQLITE_CODES = /^SQLITE_(BUSY|LOCKED|CANTOPEN|IOERR|FULL|NOMEM|PROTOCOL)/;
const PG_STATE = /^(08|53|57P|57014)/;
const MESSAGES =
  /(Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|Cannot use a pool after calling end|database system is (starting up|shutting down))/i;

export function isDatabaseUnavailable(exception: unknown): boolean {
  const seen = new Set<unknown>();
  let current: unknown = exception;
  // The driver error may be wrapped (QueryFailedError.driverError, Error.cause).
  while (current && typeof current === 'object' && !seen.has(current)) {
    seen.add(current);
    const { code, message } = current as { code?: unknown; message?: unknown };
    if (typeof code === 'string') {
      if (
        NETWORK_CODES.has(code) ||
        SQLITE_CODES.test(code) ||
        PG_STATE.test(code)
      ) {
        return true;
      }
    }
    if (typeof message === 'string' && MESSAGES.test(message)) return true;
    current =
      current instanceof QueryFailedError
        ? current.driverError
        : (current as { cause?: unknown }).cause;
  }
  return false;
}
