import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { Metrics } from '../common/metrics/metrics';
import { AppConfig } from '../config/app-config';
import { type ReadRows, rowReader } from '../database/row-reader';
import { dialectFor, type Statement } from '../database/sql-dialect';

/**
 * Class key of the shared advisory locks by which a PostgreSQL transaction announces, before it
 * stamps anything, a lower bound of its stamp (the sync_stamp() function of migration
 * SyncAndChanges). Must stay equal to the migration's.
 */
export const SYNC_LOCK_CLASS = 20_251_125;

/**
 * The statement that reads the sync horizon H (integer Unix seconds, database clock): every write
 * that becomes visible after the statement ran stamps a value greater than H (docs/API.md,
 * "Incremental sync").
 *
 * - SQLite: writers are serialised and commit before the second `stamp + SYNC_LAG_S` begins, so
 *   H = clock − SYNC_LAG_S.
 * - PostgreSQL: H = min(clock − 1, every announced stamp bound − 1). A transaction announces its
 *   bound (a shared advisory lock, visible in pg_locks to every role, held until it ends) before
 *   taking its stamp, so an open transaction, however old, holds H below its stamp; one that
 *   announces after this statement stamps at least this statement's second. Only this database's
 *   locks count.
 *
 * Run it as a statement of its own BEFORE the statement that reads the rows: a transaction
 * committing between a page's snapshot and a later horizon read would be neither in the page nor
 * below H.
 */
export function syncHorizonStatement(
  databaseType: string,
  lagSeconds: number,
): Statement {
  if (dialectFor(databaseType).name === 'sqlite') {
    return {
      sql: 'SELECT unixepoch() - +? AS horizon',
      params: [lagSeconds],
    };
  }
  return {
    sql: `SELECT least(
            floor(extract(epoch FROM statement_timestamp()))::bigint - 1,
            (SELECT min(l.objid::bigint) - 1 FROM pg_locks l
              WHERE l.locktype = 'advisory' AND l.classid = ${SYNC_LOCK_CLASS}
                AND l.objsubid = 2
                AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())
            )) AS horizon`,
    params: [],
  };
}

/**
 * How far the sync horizon is behind the database clock, in seconds: the horizon statement read
 * against the same clock. SQLite: always SYNC_LAG_S. PostgreSQL: 1, or more while a write
 * transaction that announced its stamp is still open (however old), holding every box office's
 * horizon back.
 */
export function syncHorizonLagStatement(
  databaseType: string,
  lagSeconds: number,
): Statement {
  const horizon = syncHorizonStatement(databaseType, lagSeconds);
  const now =
    dialectFor(databaseType).name === 'sqlite'
      ? 'unixepoch()'
      : 'floor(extract(epoch FROM statement_timestamp()))::bigint';
  return {
    sql: `SELECT ${now} - h.horizon AS lag FROM (${horizon.sql}) h`,
    params: horizon.params,
  };
}

/**
 * Reads the sync horizon: one statement, see syncHorizonStatement, sent as the resource readers
 * send theirs (a named prepared statement on PostgreSQL: it runs before every sync page).
 */
@Injectable()
export class SyncHorizon {
  private readonly statement: Statement;
  private readonly rows: ReadRows;

  constructor(
    @InjectDataSource() dataSource: DataSource,
    config: AppConfig,
    metrics: Metrics,
  ) {
    this.statement = syncHorizonStatement(
      dataSource.options.type,
      config.syncLagSeconds,
    );
    this.rows = rowReader(dataSource);
    const lag = syncHorizonLagStatement(
      dataSource.options.type,
      config.syncLagSeconds,
    );
    metrics.readGauge(
      {
        name: 'boxoffice_sync_horizon_lag_seconds',
        help: "Database clock minus the sync horizon H, read at each scrape: how far behind now every box office's sync position stays. SQLite: SYNC_LAG_S; PostgreSQL: 1, more while a write transaction is open.",
      },
      async () => {
        const [row] = await this.rows(lag.sql, lag.params);
        return Number(row.lag);
      },
    );
  }

  async read(): Promise<number> {
    return readSyncHorizon(this.rows, this.statement);
  }
}

export async function readSyncHorizon(
  read: ReadRows,
  statement: Statement,
): Promise<number> {
  const [row] = await read(statement.sql, statement.params);
  return Number(row.horizon);
}
