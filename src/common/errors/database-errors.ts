import { QueryFailedError } from 'typeorm';

// Connection-level failures: the database is down, unreachable, restarting, overloaded or refusing
// connections. These are 503s (retry later), not bugs (docs/DESIGN.md, Database faults).
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'ENOTFOUND',
  'EHOSTUNREACH',
  'EPIPE',
  'EAI_AGAIN',
]);
/**
 * SQLite's: the file busy or locked, unreadable (I/O, a full disk, memory), moved or deleted under
 * the service or its disk remounted read-only (READONLY_DBMOVED, READONLY), or no longer a
 * database (CORRUPT, NOTADB): the database cannot serve, whatever the request.
 */
const SQLITE_CODES =
  /^SQLITE_(BUSY|LOCKED|CANTOPEN|IOERR|FULL|NOMEM|PROTOCOL|READONLY|CORRUPT|NOTADB)/;
/**
 * PostgreSQL SQLSTATEs of a database that refuses or ends connections: class 08 (connection
 * exception), class 53 (insufficient resources: too many connections, out of memory or disk),
 * 57P (operator intervention: a session ended by an administrator or a crash, a server starting
 * up or shutting down, a database dropped), 3D000 (no such database: renamed or dropped under a
 * running service), 57014 (a statement cancelled by statement_timeout), and the refusals a write
 * transaction is retried for, when they still reach the API after its retries: 40P01 (deadlock),
 * 40001 (serialization failure), 55P03 (a lock not available: lock_timeout or NOWAIT). The request
 * wrote nothing and may be sent again (docs/OPERATIONS.md, "Deadlocks").
 */
const PG_STATE = /^(08...|53...|57P..|57014|3D000|40P01|40001|55P03)$/;
/**
 * 55000 (object not in prerequisite state) is a refusal only when it ends the connection (severity
 * FATAL): "database … is not currently accepting connections" (ALLOW_CONNECTIONS false). The same
 * code on a statement is a bug.
 */
const PG_STATE_IF_FATAL = '55000';
const MESSAGES =
  /(Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|Cannot use a pool after calling end|database system is (starting up|shutting down))/i;

export function isDatabaseUnavailable(exception: unknown): boolean {
  const seen = new Set<unknown>();
  let current: unknown = exception;
  // The driver error may be wrapped (QueryFailedError.driverError, Error.cause).
  while (current && typeof current === 'object' && !seen.has(current)) {
    seen.add(current);
    const { code, message, severity } = current as {
      code?: unknown;
      message?: unknown;
      severity?: unknown;
    };
    if (typeof code === 'string') {
      if (
        NETWORK_CODES.has(code) ||
        SQLITE_CODES.test(code) ||
        PG_STATE.test(code) ||
        (code === PG_STATE_IF_FATAL && severity === 'FATAL')
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
