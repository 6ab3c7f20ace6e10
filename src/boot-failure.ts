import { parseDatabaseUrl } from './config/app-config';

/** Failures of the file system or the network: the database's place or server, not our code. */
const SYSTEM_CODES = new Set([
  'EACCES',
  'EPERM',
  'EROFS',
  'ENOTDIR',
  'EEXIST',
  'ENOSPC',
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'ENOTFOUND',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
]);
/** PostgreSQL SQLSTATE codes are five characters; SQLite's are SQLITE_*. */
const DATABASE_CODE = /^([0-9A-Z]{5}|SQLITE_\w+)$/;
const CONNECTION_MESSAGE =
  /timeout expired|timeout exceeded when trying to connect|Connection terminated/i;

/**
 * The one line main.ts prints when the service cannot start because of its settings, its database
 * or its port, naming the database without credentials; null for anything else (a bug: print the
 * whole error).
 */
export function bootFailureLine(
  error: unknown,
  databaseUrl: string | undefined,
): string | null {
  if (!(error instanceof Error)) return null;
  const prefix = 'Box Office API did not start:';
  const message = error.message.replace(/\s+/g, ' ').trim();
  if (message.startsWith('Invalid configuration:')) {
    return `${prefix} ${message}`;
  }
  const { code, syscall } = error as { code?: unknown; syscall?: unknown };
  if (code === 'EADDRINUSE' || syscall === 'listen') {
    return `${prefix} cannot listen (${message})`;
  }
  const isDatabase =
    (typeof code === 'string' &&
      (SYSTEM_CODES.has(code) || DATABASE_CODE.test(code))) ||
    CONNECTION_MESSAGE.test(message);
  if (!isDatabase) return null;
  const hint =
    code === 'SQLITE_CANTOPEN'
      ? ': does its directory exist, and may this user write there?'
      : '';
  return `${prefix} cannot use the database ${describeDatabase(databaseUrl)} (${message}${hint})`;
}

/** The database as DATABASE_URL names it, without user name or password. */
function describeDatabase(databaseUrl: string | undefined): string {
  const target = parseDatabaseUrl(databaseUrl);
  if (target.type === 'sqlite') return `SQLite ${target.database}`;
  try {
    const url = new URL(target.url);
    return `PostgreSQL ${url.host}${url.pathname}`;
  } catch {
    return 'PostgreSQL (DATABASE_URL)';
  }
}
