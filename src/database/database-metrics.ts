import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { Pool } from 'pg';
import { DataSource } from 'typeorm';
import { Metrics } from '../common/metrics/metrics';
import { AppConfig } from '../config/app-config';
import { dialectFor } from './sql-dialect';
import { timeStatements } from './statement-timing';

/** From 0.1 ms (an indexed read on SQLite) to 10 s (DB_STATEMENT_TIMEOUT_MS's default). */
const STATEMENT_BUCKETS = [
  0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25,
  0.5, 1, 2.5, 5, 10,
];

/**
 * The database's metrics (docs/OPERATIONS.md, Metrics):
 *
 * - `boxoffice_db_statement_duration_seconds{database}`: every statement, timed while metrics are
 *   on (statement-timing.ts). On PostgreSQL a reader's statement includes any wait for a pooled
 *   connection, as its request does.
 * - PostgreSQL's pool, read at each scrape: connections in use and idle, statements waiting for
 *   one, and the pool's size. SQLite has no pool: one connection whose statements run on the
 *   event loop, one at a time, so none ever waits for a connection; its saturation shows as
 *   event-loop lag (`nodejs_eventloop_lag_seconds`) and in the statement durations.
 */
@Injectable()
export class DatabaseMetrics {
  constructor(
    @InjectDataSource() dataSource: DataSource,
    metrics: Metrics,
    config: AppConfig,
  ) {
    const database = dialectFor(dataSource.options.type).name;
    const statements = metrics
      .histogram({
        name: 'boxoffice_db_statement_duration_seconds',
        help: 'Time each database statement took, by database (sqlite or postgres); on PostgreSQL, with any wait for a pooled connection',
        labelNames: ['database'],
        buckets: STATEMENT_BUCKETS,
      })
      .labels(database);
    if (metrics.enabled) {
      timeStatements(dataSource, (seconds) => statements.observe(seconds));
    }
    if (database !== 'postgres') return;

    // TypeORM's pool (node-postgres), as the readers use it (row-reader.ts).
    const pool = () =>
      (dataSource.driver as unknown as { master?: Pool }).master;
    metrics.gauge({
      name: 'boxoffice_db_pool_connections_in_use',
      help: "PostgreSQL connections of this instance's pool lent to a statement or transaction now",
      collect() {
        const p = pool();
        this.set(p === undefined ? 0 : p.totalCount - p.idleCount);
      },
    });
    metrics.gauge({
      name: 'boxoffice_db_pool_connections_idle',
      help: "PostgreSQL connections of this instance's pool open and idle now",
      collect() {
        this.set(pool()?.idleCount ?? 0);
      },
    });
    metrics.gauge({
      name: 'boxoffice_db_pool_waiting',
      help: 'Statements of this instance waiting now for a connection of its PostgreSQL pool (all DB_POOL_SIZE in use)',
      collect() {
        this.set(pool()?.waitingCount ?? 0);
      },
    });
    metrics
      .gauge({
        name: 'boxoffice_db_pool_max_connections',
        help: "The size of this instance's PostgreSQL pool (DB_POOL_SIZE)",
      })
      .set(config.dbPoolSize);
  }
}
