import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { Metrics } from '../common/metrics/metrics';
import { AppConfig } from '../config/app-config';
import { type ReadRows, rowReader } from '../database/row-reader';
import { SqlParams, dialectFor, type Statement } from '../database/sql-dialect';

/**
 * Base of the first key of the shared advisory locks by which a PostgreSQL transaction announces,
 * before it stamps anything of a box office, a lower bound of its stamp for that box office (the
 * sync_stamp(office) function of migration StampsPerBoxOffice): the first key is this number
 * plus the box office's id, the second the bound. Must stay equal to the migration's, which
 * src/database/schema/constants-match-schema.spec.ts checks against the schema.
 */
export const SYNC_LOCK_CLASS = 20_251_125;

/** The first key (pg_locks.classid) of a box office's announcements. */
export const syncLockClassOf = (boxOfficeId: number) =>
  SYNC_LOCK_CLASS + boxOfficeId;

/**
 * The expression of a box office's sync horizon H (integer Unix seconds, database clock): every
 * write of that box office that becomes visible after the statement ran stamps a value greater
 * than H (docs/API.md, "Incremental sync"). Its parameters go into `params`, so that it can stand
 * in a larger statement.
 *
 * - SQLite: writers are serialised and commit before the second `stamp + SYNC_LAG_S` begins, so
 *   H = clock − SYNC_LAG_S.
 * - PostgreSQL: H = min(clock − 1, every bound announced for this box office − 1). A transaction
 *   announces its bound for a box office (a shared advisory lock, visible in pg_locks to every
 *   role, held until it ends) before taking its stamp for it, so an open transaction, however
 *   old, holds the box office's H below its stamp; one that announces after this statement stamps
 *   at least this statement's second. Only this database's locks of this box office count:
 *   another box office's open transaction neither holds H back nor shows in it.
 *
 * Run it BEFORE the statement that reads the rows: a transaction committing between a page's
 * snapshot and a later horizon read would be neither in the page nor above H.
 */
export function syncHorizonExpression(
  params: SqlParams,
  lagSeconds: number,
  boxOfficeId: number,
): string {
  if (params.dialect.name === 'sqlite') {
    return `unixepoch() - ${params.add(lagSeconds)}`;
  }
  return `least(
            floor(extract(epoch FROM statement_timestamp()))::bigint - 1,
            ${earliestAnnouncedBound(`l.classid = (${params.add(boxOfficeId)}::bigint + ${SYNC_LOCK_CLASS})::oid`)})`;
}

/**
 * PostgreSQL: the earliest bound announced, minus 1, by the open transactions whose lock class
 * meets `classCondition` (on `pg_locks l`), in this database; null when none is open.
 */
function earliestAnnouncedBound(classCondition: string): string {
  return `(SELECT min(l.objid::bigint) - 1 FROM pg_locks l
              WHERE l.locktype = 'advisory'
                AND ${classCondition}
                AND l.objsubid = 2
                AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())
            )`;
}

/** The statement that reads a box office's sync horizon alone (see syncHorizonExpression). */
export function syncHorizonStatement(
  databaseType: string,
  lagSeconds: number,
  boxOfficeId: number,
): Statement {
  const params = new SqlParams(dialectFor(databaseType));
  const sql = `SELECT ${syncHorizonExpression(params, lagSeconds, boxOfficeId)} AS horizon`;
  return { sql, params: params.values };
}

/**
 * How far the database's furthest-behind sync horizon is behind its clock, in seconds, for the
 * operators' metric (every box office's at once: no box office's own figure is exposed). SQLite:
 * always SYNC_LAG_S. PostgreSQL: 1, or more while a write transaction that announced its stamp for
 * any box office is still open (however old), holding that box office's horizon back.
 */
export function syncHorizonLagStatement(
  databaseType: string,
  lagSeconds: number,
): Statement {
  if (dialectFor(databaseType).name === 'sqlite') {
    return { sql: 'SELECT +? AS lag', params: [lagSeconds] };
  }
  return {
    // The classes of the database's box offices: another application's advisory locks are not
    // announced bounds.
    sql: `SELECT greatest(1, floor(extract(epoch FROM statement_timestamp()))::bigint
              - ${earliestAnnouncedBound(`l.classid::bigint - ${SYNC_LOCK_CLASS} IN (SELECT id FROM box_offices)`)}) AS lag`,
    params: [],
  };
}

/**
 * Reads a box office's sync horizon: one statement, see syncHorizonExpression, sent as the
 * resource readers send theirs (a named prepared statement on PostgreSQL: it runs before every
 * sync page).
 */
@Injectable()
export class SyncHorizon {
  private readonly databaseType: string;
  private readonly lagSeconds: number;
  private readonly rows: ReadRows;

  constructor(
    @InjectDataSource() dataSource: DataSource,
    config: AppConfig,
    metrics: Metrics,
  ) {
    this.databaseType = dataSource.options.type;
    this.lagSeconds = config.syncLagSeconds;
    this.rows = rowReader(dataSource);
    const lag = syncHorizonLagStatement(
      dataSource.options.type,
      config.syncLagSeconds,
    );
    metrics.readGauge(
      {
        name: 'boxoffice_sync_horizon_lag_seconds',
        help: "Database clock minus the furthest-behind box office's sync horizon H, read at each scrape. SQLite: SYNC_LAG_S; PostgreSQL: 1, more while a write transaction is open.",
      },
      async () => {
        const [row] = await this.rows(lag.sql, lag.params);
        return Number(row.lag);
      },
    );
  }

  async read(boxOfficeId: number): Promise<number> {
    return readSyncHorizon(
      this.rows,
      syncHorizonStatement(this.databaseType, this.lagSeconds, boxOfficeId),
    );
  }
}

export async function readSyncHorizon(
  read: ReadRows,
  statement: Statement,
): Promise<number> {
  const [row] = await read(statement.sql, statement.params);
  return Number(row.horizon);
}
