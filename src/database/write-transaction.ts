import type { Transaction } from 'better-sqlite3';
import type { Pool, PoolClient, QueryResult } from 'pg';
import { type DataSource, QueryFailedError } from 'typeorm';
import {
  type Row,
  sqliteConnection,
  sqliteStatements,
  statementNames,
} from './row-reader';
import type { Statement } from './sql-dialect';

/**
 * The work of one write transaction, written once for both databases: a generator that yields
 * each statement it sends and receives that statement's rows (none for a statement that returns
 * none), deciding what to send next in plain TypeScript, and returns its result.
 *
 *     function* rename(id: number, name: string): WriteWork<boolean> {
 *       const rows = yield { sql: 'UPDATE events SET name = ? WHERE id = ? RETURNING id', … };
 *       return rows.length === 1;
 *     }
 *
 * Why a generator: on SQLite the whole transaction must run without giving the event loop back
 * (below), which an async function cannot do; a generator runs as fast as it is driven, so one
 * function serves both databases.
 */
export type WriteWork<T> = Generator<Statement, T, Row[]>;

/** Runs `work()` in one write transaction, committed when it returns, rolled back if it throws. */
export type RunWrite = <T>(work: () => WriteWork<T>) => Promise<T>;

/** A transaction PostgreSQL aborted for a conflict is run again from the start, this often. */
const PG_ATTEMPTS = 3;
/**
 * deadlock_detected, serialization_failure, lock_not_available: the transaction lost a race and
 * wrote nothing. Still failing after PG_ATTEMPTS, it is a 503 with Retry-After (database-errors.ts).
 */
const PG_RETRYABLE = new Set(['40P01', '40001', '55P03']);

/**
 * How this service writes (docs/DEVELOPMENT.md, "Writes"): one transaction per command, in which
 * the database, not the process, decides between concurrent writers.
 *
 * - SQLite: `BEGIN IMMEDIATE`, so the transaction holds the database's write lock from its first
 *   statement (a deferred one could read, then fail to upgrade once another writer committed):
 *   writers on every process using the file take turns, each reading what the previous one
 *   committed. The work runs synchronously on the process's one connection, so no other request's
 *   statement can run inside it; waiting for another process's lock is the busy timeout. The
 *   writes of one turn of the event loop share a transaction, each in a savepoint (sqliteWrites).
 * - PostgreSQL: a connection of the pool of its own, BEGIN … COMMIT; the work takes the row locks
 *   it needs (`SELECT … FOR UPDATE`). A deadlock or serialization failure rolls the transaction
 *   back and runs it again, up to three times. Statements are named prepared statements, as the
 *   readers' are (row-reader.ts).
 *
 * Every statement goes to the DataSource logger's `logQuery` (as the readers' do), and a driver
 * failure is a QueryFailedError, which the exception filter maps (a database that cannot be
 * reached is a 503).
 */
export function writeTransactions(dataSource: DataSource): RunWrite {
  return dataSource.options.type === 'postgres'
    ? postgresWrites(dataSource)
    : sqliteWrites(dataSource);
}

/**
 * Runs `work()` with each statement committed on its own (no BEGIN or COMMIT: on PostgreSQL one
 * round trip a statement, against three for a transaction of one statement). For work written so
 * that another writer between two of its statements is harmless, each statement deciding from
 * what it finds (the read of an Idempotency-Key's kept answer). Never retried.
 */
export function statementWrites(dataSource: DataSource): RunWrite {
  if (dataSource.options.type !== 'postgres') {
    // better-sqlite3 commits each statement run outside a transaction, synchronously.
    const run = sqliteRun(dataSource);
    return <T>(work: () => WriteWork<T>): Promise<T> => {
      try {
        return Promise.resolve(drive(work(), run));
      } catch (error) {
        return Promise.reject(error as Error);
      }
    };
  }
  const pool = postgresPool(dataSource);
  const run = postgresStatements(dataSource);
  return async <T>(work: () => WriteWork<T>): Promise<T> => {
    const client = await pool().connect();
    let broken: Error | undefined;
    try {
      return await driveAsync(work(), run(client));
    } catch (error) {
      // A statement the server refused leaves the connection as it was; anything else may not.
      if (error instanceof QueryFailedError && !hasSqlState(error)) {
        broken = error;
      }
      throw error;
    } finally {
      client.release(broken);
    }
  };
}

/** Most writes one SQLite transaction commits together (sqliteWrites). */
export const SQLITE_GROUP_LIMIT = 64;

/** A write waiting for its group's transaction, and how to answer it. */
interface QueuedWrite {
  work: () => WriteWork<unknown>;
  resolve: (result: unknown) => void;
  reject: (error: unknown) => void;
}

/**
 * SQLite's writes, committed in groups: the writes requested while the event loop runs the
 * callbacks of one turn (the requests whose bytes arrived together) wait for the turn's end
 * (setImmediate), then run one after the other in one `BEGIN IMMEDIATE` transaction, each inside
 * a savepoint of its own. A write that throws rolls back to its savepoint, so it leaves nothing
 * and the others are unaffected; the group commits once, and each write is answered after that
 * commit, as it would be alone. Most of a small write's cost is its commit (the WAL frames of
 * the pages it dirtied, the locks): the pages the writes of a group share (the tail of an index,
 * the change head) are written once for all of them. Writes still take turns whole, in the order
 * they were asked for, so each reads what the ones before it wrote, as before
 * (docs/DEVELOPMENT.md, "Writes").
 *
 * A failure that ends the whole transaction (BEGIN IMMEDIATE or COMMIT failing, the busy timeout,
 * a full disk, which SQLite rolls back entirely) rejects every write of the group with it: none of
 * them was committed.
 */
function sqliteWrites(dataSource: DataSource): RunWrite {
  const run = sqliteRun(dataSource);
  let queued: QueuedWrite[] = [];
  // Made once the connection is open. better-sqlite3 runs a transaction function between BEGIN
  // IMMEDIATE and COMMIT (ROLLBACK when it throws), and one called inside another between
  // SAVEPOINT and RELEASE (ROLLBACK TO when it throws).
  let group:
    Transaction<(writes: readonly QueuedWrite[]) => Outcome[]> | undefined;

  const commitGroup = (): void => {
    const writes = queued.slice(0, SQLITE_GROUP_LIMIT);
    queued = queued.slice(writes.length);
    if (queued.length > 0) setImmediate(commitGroup);
    if (group === undefined) {
      const db = sqliteConnection(dataSource);
      const one = db.transaction((work: WriteWork<unknown>) =>
        drive(work, run),
      );
      group = db.transaction((batch: readonly QueuedWrite[]) =>
        batch.map(({ work }): Outcome => {
          try {
            return { result: one(work()) };
          } catch (error) {
            // SQLite ended the transaction itself: nothing of the group is left to commit.
            if (!db.inTransaction) throw error;
            return { error };
          }
        }),
      );
    }
    let outcomes: Outcome[];
    try {
      outcomes = group.immediate(writes);
    } catch (error) {
      const failure = isSqliteError(error)
        ? new QueryFailedError('', [], error)
        : error;
      for (const write of writes) write.reject(failure);
      return;
    }
    outcomes.forEach((outcome, i) => {
      if ('error' in outcome) writes[i].reject(outcome.error);
      else writes[i].resolve(outcome.result);
    });
  };

  return <T>(work: () => WriteWork<T>): Promise<T> =>
    new Promise<T>((resolve, reject) => {
      queued.push({
        work,
        resolve: resolve as (result: unknown) => void,
        reject,
      });
      if (queued.length === 1) setImmediate(commitGroup);
    });
}

type Outcome = { result: unknown } | { error: unknown };

/** Runs one statement on SQLite, prepared once (sqliteStatements). */
function sqliteRun(dataSource: DataSource): (statement: Statement) => Row[] {
  const prepare = sqliteStatements(dataSource);
  return ({ sql, params }: Statement): Row[] => {
    dataSource.logger.logQuery(sql, params);
    try {
      const statement = prepare(sql);
      if (statement.reader) return statement.all(...params) as Row[];
      statement.run(...params);
      return [];
    } catch (error) {
      throw new QueryFailedError(sql, params, error as Error);
    }
  };
}

/** The pool TypeORM opened: the same settings (statement timeout) and type parsers as the reads. */
function postgresPool(dataSource: DataSource): () => Pool {
  return () => (dataSource.driver as unknown as { master: Pool }).master;
}

/**
 * Runs one statement on a connection of the pool, as a named prepared statement, as the readers
 * send theirs (row-reader.ts): parsed once per connection. One without parameters goes as a
 * simple query, which may hold several statements (`BEGIN; …`): its rows are the last one's.
 */
function postgresStatements(
  dataSource: DataSource,
): (client: PoolClient) => (statement: Statement) => Promise<Row[]> {
  const nameOf = statementNames();
  return (client) =>
    async ({ sql, params }) => {
      dataSource.logger.logQuery(sql, params);
      try {
        const name = params.length > 0 ? nameOf(sql) : undefined;
        const result: QueryResult<Row> | QueryResult<Row>[] =
          await client.query<Row>({ name, text: sql, values: params });
        return Array.isArray(result)
          ? result[result.length - 1].rows
          : result.rows;
      } catch (error) {
        throw new QueryFailedError(sql, params, error as Error);
      }
    };
}

function postgresWrites(dataSource: DataSource): RunWrite {
  const pool = postgresPool(dataSource);
  const run = postgresStatements(dataSource);
  const control = (client: PoolClient, sql: string) =>
    run(client)({ sql, params: [] });
  return async <T>(work: () => WriteWork<T>): Promise<T> => {
    for (let attempt = 1; ; attempt++) {
      const client = await pool().connect();
      let broken: Error | undefined;
      try {
        const result = await driveAsync(work(), run(client), (opening) =>
          control(client, opening ? `BEGIN; ${opening.sql}` : 'BEGIN'),
        );
        await control(client, 'COMMIT');
        return result;
      } catch (error) {
        await client.query('ROLLBACK').catch((rollback: Error) => {
          broken = rollback; // the connection is gone: the pool must not hand it out again
        });
        if (attempt < PG_ATTEMPTS && isRetryable(error)) continue;
        throw error;
      } finally {
        client.release(broken);
      }
    }
  };
}

function drive<T>(work: WriteWork<T>, run: (statement: Statement) => Row[]): T {
  let step = work.next();
  while (!step.done) step = work.next(run(step.value));
  return step.value;
}

/**
 * Drives `work` on PostgreSQL. With `begin`, the transaction is opened first: with the work's
 * first statement when that has no parameters (a simple query may carry several statements: one
 * round trip for both), else on its own.
 */
async function driveAsync<T>(
  work: WriteWork<T>,
  run: (statement: Statement) => Promise<Row[]>,
  begin?: (opening: Statement | undefined) => Promise<Row[]>,
): Promise<T> {
  let step = work.next();
  if (begin !== undefined) {
    if (!step.done && step.value.params.length === 0) {
      step = work.next(await begin(step.value));
    } else await begin(undefined);
  }
  while (!step.done) step = work.next(await run(step.value));
  return step.value;
}

function isRetryable(error: unknown): boolean {
  const cause = error instanceof QueryFailedError ? error.driverError : error;
  const code = (cause as { code?: unknown } | null)?.code;
  return typeof code === 'string' && PG_RETRYABLE.has(code);
}

/** A failure the server reported (a SQLSTATE), not one of the connection. */
function hasSqlState(error: QueryFailedError): boolean {
  const code = (error.driverError as { code?: unknown } | null)?.code;
  return typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code);
}

function isSqliteError(error: unknown): error is Error {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && code.startsWith('SQLITE_');
}
