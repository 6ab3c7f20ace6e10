import {
  Injectable,
  Logger,
  OnApplicationBootstrap,
  OnApplicationShutdown,
} from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { dialectFor, SqlParams } from '../../database/sql-dialect';
import { PeriodicTask } from '../periodic-task';
import { IDEMPOTENCY_TTL_S } from './idempotency-keys';

/** Rows removed per statement: each DELETE is short, so scans never wait long behind it. */
const BATCH = 500;

/** How often each instance removes expired answers. */
const PERIOD_MS = 10 * 60 * 1000;

/**
 * Removes the kept answers of Idempotency-Keys older than 24 hours (a request with the key takes
 * such a row over already: this only keeps the table small), a batch per statement, oldest first by the
 * `created_at` index. Returns how many were removed.
 */
export async function deleteExpiredIdempotencyKeys(
  dataSource: DataSource,
  batch = BATCH,
): Promise<number> {
  const dialect = dialectFor(dataSource.options.type);
  let removed = 0;
  const runner = dataSource.createQueryRunner();
  try {
    for (;;) {
      const p = new SqlParams(dialect);
      const cutoff = `${dialect.now} - ${p.add(IDEMPOTENCY_TTL_S)}`;
      const result = await runner.query(
        `DELETE FROM idempotency_keys WHERE (api_key_id, idempotency_key) IN (
           SELECT api_key_id, idempotency_key FROM idempotency_keys
            WHERE created_at <= ${cutoff} ORDER BY created_at LIMIT ${p.add(batch)})`,
        p.values,
        true,
      );
      const count = result.affected ?? 0;
      removed += count;
      if (count < batch) return removed;
    }
  } finally {
    await runner.release();
  }
}

/**
 * Runs that cleanup every ten minutes while the service runs, on each instance: two deleting the
 * same rows simply find fewer.
 */
@Injectable()
export class IdempotencyRetention
  implements OnApplicationBootstrap, OnApplicationShutdown
{
  private readonly task: PeriodicTask;

  constructor(@InjectDataSource() dataSource: DataSource) {
    this.task = new PeriodicTask(
      'Idempotency-Key cleanup',
      () => deleteExpiredIdempotencyKeys(dataSource),
      new Logger('IdempotencyRetention'),
    );
  }

  onApplicationBootstrap() {
    this.task.start(PERIOD_MS);
  }

  onApplicationShutdown() {
    return this.task.stop();
  }
}
