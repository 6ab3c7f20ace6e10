import { type DataSource, type Migration, MigrationExecutor } from 'typeorm';

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
    // On the lock's own connection: a pool of one (DB_POOL_SIZE=1) must not wait for a second.
    const executor = new MigrationExecutor(dataSource, lockRunner);
    executor.transaction = 'each';
    return await executor.executePendingMigrations();
  } finally {
    await lockRunner
      .query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY])
      .finally(() => lockRunner.release());
  }
}
