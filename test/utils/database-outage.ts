import { readFileSync, truncateSync, writeFileSync } from 'node:fs';
import { Client } from 'pg';
import type { TestDatabase } from './test-database';

/** A database made unreadable and then readable again, as the test's database allows. */
export interface DatabaseOutage {
  readonly name: string;
  begin(): Promise<void>;
  end(): Promise<void>;
}

/**
 * An outage of the `kind` database that `database` gives when it begins (a durableTestDatabase, or
 * a server process's) through which a `SELECT 1` would still answer:
 *
 * - PostgreSQL: the database refuses connections (ALLOW_CONNECTIONS false) and its sessions are
 *   ended; only this database, never the server.
 * - SQLite: the file is truncated, so that its pages cannot be read, then written back. For the
 *   service's reads to go to the file, nothing may be left in its write-ahead log: migrate and
 *   close the database before the app opens it.
 */
export function databaseOutage(
  kind: 'sqlite' | 'postgres',
  database: () => TestDatabase,
): DatabaseOutage {
  if (kind === 'postgres') {
    return {
      name: 'PostgreSQL refuses connections (ALLOW_CONNECTIONS false, its sessions ended)',
      begin: () => allowConnections(database(), false),
      end: () => allowConnections(database(), true),
    };
  }
  const file = () => database().url.slice('sqlite:'.length);
  let pages: Buffer | undefined;
  return {
    name: "the SQLite file's pages cannot be read (the file truncated)",
    begin: () => {
      pages = readFileSync(file());
      truncateSync(file(), 0);
      return Promise.resolve();
    },
    end: () => {
      if (pages !== undefined) writeFileSync(file(), pages);
      return Promise.resolve();
    },
  };
}

async function allowConnections(database: TestDatabase, allow: boolean) {
  const name = new URL(database.url).pathname.slice(1);
  // Where the test databases are made (test-database.ts), not in the one refusing connections.
  const admin = new Client({
    connectionString: process.env.TEST_DATABASE_URL,
  });
  await admin.connect();
  try {
    await admin.query(
      `ALTER DATABASE "${name}" WITH ALLOW_CONNECTIONS ${allow}`,
    );
    if (!allow) {
      await admin.query(
        'SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1',
        [name],
      );
    }
  } finally {
    await admin.end();
  }
}
