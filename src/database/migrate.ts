import { setTimeout } from 'node:timers/promises';
import {
  type DataSource,
  type Migration,
  MigrationExecutor,
  type QueryRunner,
} from 'typeorm';
import { sqliteConnection } from './row-reader';

/** Arbitrary constant naming "this service's schema migrations" among PostgreSQL advisory locks. */
const MIGRATION_LOCK_KEY = 7_311_500_421;

/**
 * How often a process waiting for another one's migrations on PostgreSQL asks for the lock again.
 * It asks (pg_try_advisory_lock) rather than waits in pg_advisory_lock: a statement waiting for
 * the lock holds a snapshot, and a migration that builds an index CONCURRENTLY waits for every
 * snapshot older than its own to end, so the two would wait for each other (deadlock detected,
 * and the start fails).
 */
const MIGRATION_LOCK_POLL_MS = 100;

/** How long a process waits for another one's migrations on the same SQLite file. */
const SQLITE_MIGRATION_WAIT_MS = 60_000;

/**
 * Gathers the planner's statistics of every table. A run that applied anything ends with it, so
 * that the indexes it created (and the rows it rewrote) are known to the planner at once, without
 * touching shipped migrations: SQLite gathers none by itself, and PostgreSQL's autovacuum takes a
 * while (docs/DESIGN.md, "Upgrading").
 */
const ANALYZE = 'ANALYZE';

/**
 * Runs pending migrations. Processes that start together on one database take turns: the first
 * migrates, the others then find nothing left to do. On PostgreSQL each migration has its own
 * transaction, under a session advisory lock; on SQLite the whole run is one write transaction
 * (see runSqliteMigrations). A run that applied any migration ends with ANALYZE, under the same
 * lock or in the same transaction, so the others start with an informed planner.
 */
export async function runMigrations(
  dataSource: DataSource,
): Promise<Migration[]> {
  if (dataSource.options.type === 'better-sqlite3') {
    return runSqliteMigrations(dataSource);
  }
  if (dataSource.options.type !== 'postgres') {
    return dataSource.runMigrations({ transaction: 'each' });
  }
  const lockRunner = dataSource.createQueryRunner();
  await lockRunner.connect();
  try {
    await takeMigrationLock(lockRunner);
    // On the lock's own connection: a pool of one (DB_POOL_SIZE=1) must not wait for a second.
    const executor = new MigrationExecutor(dataSource, lockRunner);
    executor.transaction = 'each';
    const applied = await executor.executePendingMigrations();
    if (applied.length > 0) {
      // ANALYZE reads a sample of each table, not all of it; the service's statement timeout
      // (DB_STATEMENT_TIMEOUT_MS) is for requests, and must not fail a start whose migrations
      // have committed.
      await lockRunner.startTransaction();
      try {
        await lockRunner.query('SET LOCAL statement_timeout = 0');
        await lockRunner.query(ANALYZE);
        await lockRunner.commitTransaction();
      } catch (error) {
        await lockRunner.rollbackTransaction();
        throw error;
      }
    }
    return applied;
  } finally {
    await lockRunner
      .query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY])
      .finally(() => lockRunner.release());
  }
}

/**
 * SQLite has no advisory locks: the run, from reading which migrations are applied to the last
 * one, is a single `BEGIN IMMEDIATE` transaction, so a second process waits for the first's
 * commit (up to SQLITE_MIGRATION_WAIT_MS, rather than the usual busy timeout) and then finds
 * nothing pending. TypeORM would check for its migrations table and create it outside any
 * transaction, and two processes would both create it. Foreign keys are off around the
 * transaction, as TypeORM has them for a migration (rebuilding a table must not cascade).
 */
async function runSqliteMigrations(
  dataSource: DataSource,
): Promise<Migration[]> {
  const db = sqliteConnection(dataSource);
  const busyTimeout = db.pragma('busy_timeout', { simple: true }) as number;
  const runner = dataSource.createQueryRunner();
  db.pragma('foreign_keys = OFF');
  db.pragma(`busy_timeout = ${SQLITE_MIGRATION_WAIT_MS}`);
  try {
    db.exec('BEGIN IMMEDIATE');
    try {
      const executor = new MigrationExecutor(dataSource, runner);
      executor.transaction = 'none';
      const applied = await executor.executePendingMigrations();
      if (applied.length > 0) db.exec(ANALYZE);
      db.exec('COMMIT');
      return applied;
    } catch (error) {
      if (db.inTransaction) db.exec('ROLLBACK');
      throw error;
    }
  } finally {
    db.pragma(`busy_timeout = ${busyTimeout}`);
    db.pragma('foreign_keys = ON');
    await runner.release();
  }
}

/** Takes the migrations' advisory lock on the runner's session, asking until it is free. */
async function takeMigrationLock(runner: QueryRunner): Promise<void> {
  for (;;) {
    const [{ locked }] = (await runner.query(
      'SELECT pg_try_advisory_lock($1) AS locked',
      [MIGRATION_LOCK_KEY],
    )) as { locked: boolean }[];
    if (locked) return;
    await setTimeout(MIGRATION_LOCK_POLL_MS);
  }
}
