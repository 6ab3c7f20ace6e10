import type { DataSource, Migration } from 'typeorm';

/** Arbitrary constant naming "this service's schema migrations" among PostgreSQL advisory locks. */
const MIGRATION_LOCK_KEY = 7_311_500_421;

/**
 * Runs pending migrations, each in its own transaction. On PostgreSQL a session advisory lock
 * makes instances that start together take turns: the first migrates, the others then find
 * nothing left to do. (SQLite serialises writers itself.)
 */
export async function runMigrations(
  dataSource: DataSource,
): Promise<Migration[]> {
  if (dataSource.options.type !== 'postgres') {
    return dataSource.runMigrations({ transaction: 'each' });
  }
  const lockRunner = dataSource.createQueryRunner();
  await lockRunner.connect();
  try {
    await lockRunner.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
    return await dataSource.runMigrations({ transaction: 'each' });
  } finally {
    await lockRunner
      .query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY])
      .finally(() => lockRunner.release());
  }
}
