import {
  Injectable,
  Logger,
  OnApplicationBootstrap,
  OnApplicationShutdown,
} from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { PeriodicTask } from '../common/periodic-task';
import { dialectFor, SqlParams } from '../database/sql-dialect';

/** How long delivery attempts are kept (docs/API.md, "Webhooks"). */
export const DELIVERIES_RETENTION_SECONDS = 30 * 86_400;

/** Rows removed per statement: each DELETE is short, so the workers' inserts never wait long. */
const BATCH = 1000;

/** Removes the attempts made before `cutoff` (Unix seconds); returns how many. */
export async function deleteOldDeliveries(
  dataSource: DataSource,
  cutoff: number,
  batch = BATCH,
): Promise<number> {
  const dialect = dialectFor(dataSource.options.type);
  let removed = 0;
  const runner = dataSource.createQueryRunner();
  try {
    for (;;) {
      const p = new SqlParams(dialect);
      const result = await runner.query(
        `DELETE FROM webhook_deliveries WHERE id IN (
           SELECT id FROM webhook_deliveries WHERE attempted_at < ${p.add(cutoff)}
            ORDER BY attempted_at LIMIT ${p.add(batch)})`,
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

/** Runs the deliveries' retention every hour on each instance (two simply find fewer rows). */
@Injectable()
export class WebhookDeliveriesRetention
  implements OnApplicationBootstrap, OnApplicationShutdown
{
  private readonly task = new PeriodicTask(
    'webhook deliveries cleanup',
    () =>
      deleteOldDeliveries(
        this.dataSource,
        Math.floor(Date.now() / 1000) - DELIVERIES_RETENTION_SECONDS,
      ),
    new Logger('WebhookDeliveriesRetention'),
  );

  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  onApplicationBootstrap() {
    this.task.start(3_600_000);
  }

  onApplicationShutdown() {
    return this.task.stop();
  }
}
