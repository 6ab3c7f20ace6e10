import {
  Injectable,
  Logger,
  OnApplicationBootstrap,
  OnApplicationShutdown,
} from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { PeriodicTask } from '../common/periodic-task';
import { AppConfig } from '../config/app-config';
import { dialectFor, SqlParams } from '../database/sql-dialect';

/** Entries removed per statement: each DELETE is short, so writers and readers never wait long. */
const BATCH = 500;

/**
 * Removes the change-feed entries older than `cutoff` (Unix seconds), a prefix of each box
 * office's entries: everything before the first entry that is still young enough. A stamp is
 * taken when a transaction first writes, so on PostgreSQL a later id can carry an earlier time;
 * removing by time alone could leave a hole that a poller would skip without noticing. Each batch
 * is its own statement (and transaction); readers never wait for it (MVCC on PostgreSQL, WAL on
 * SQLite). Returns how many entries were removed.
 */
export async function deleteExpiredChanges(
  dataSource: DataSource,
  cutoff: number,
  batch = BATCH,
): Promise<number> {
  const dialect = dialectFor(dataSource.options.type);
  const offices = await dataSource.query<{ box_office_id: unknown }[]>(
    'SELECT box_office_id FROM change_heads ORDER BY box_office_id',
  );
  let removed = 0;
  const runner = dataSource.createQueryRunner();
  try {
    for (const { box_office_id } of offices) {
      const office = Number(box_office_id);
      const p = new SqlParams(dialect);
      const [young] = await dataSource.query<{ id: unknown }[]>(
        `SELECT id FROM changes WHERE box_office_id = ${p.add(office)}
          AND created_at >= ${p.add(cutoff)} ORDER BY id LIMIT 1`,
        p.values,
      );
      const keepFrom = young === undefined ? null : Number(young.id);
      for (;;) {
        const d = new SqlParams(dialect);
        const outer = d.add(office);
        const inner = d.add(office);
        const bound = keepFrom === null ? '' : `AND id < ${d.add(keepFrom)}`;
        const result = await runner.query(
          `DELETE FROM changes WHERE box_office_id = ${outer} AND id IN (
           SELECT id FROM changes WHERE box_office_id = ${inner} ${bound}
            ORDER BY id LIMIT ${d.add(batch)})`,
          d.values,
          true,
        );
        const count = result.affected ?? 0;
        removed += count;
        if (count < batch) break;
      }
    }
  } finally {
    await runner.release();
  }
  return removed;
}

/**
 * Runs the retention cleanup while the service runs: every half retention period, at most every
 * minute and at least every second, on each instance (two deleting the same entries simply find
 * fewer).
 */
@Injectable()
export class ChangesRetention
  implements OnApplicationBootstrap, OnApplicationShutdown
{
  private readonly task = new PeriodicTask(
    'change-feed cleanup',
    () => this.runOnce(),
    new Logger('ChangesRetention'),
  );

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly config: AppConfig,
  ) {}

  onApplicationBootstrap() {
    const retention = this.config.changesRetentionSeconds;
    this.task.start(Math.min(60, Math.max(1, retention / 2)) * 1000);
  }

  onApplicationShutdown() {
    return this.task.stop();
  }

  /** One cleanup now, against the database clock. */
  async runOnce(): Promise<number> {
    const clock =
      dialectFor(this.dataSource.options.type).name === 'sqlite'
        ? 'SELECT unixepoch() AS now'
        : 'SELECT floor(extract(epoch FROM statement_timestamp()))::bigint AS now';
    const [{ now }] = await this.dataSource.query<{ now: unknown }[]>(clock);
    return deleteExpiredChanges(
      this.dataSource,
      Number(now) - this.config.changesRetentionSeconds,
    );
  }
}
