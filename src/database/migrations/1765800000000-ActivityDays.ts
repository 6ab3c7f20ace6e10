import type { MigrationInterface, QueryRunner } from 'typeorm';
import {
  type Bucket,
  HOURLY_ROLLUPS,
  type Rollup,
  createRollups,
  dropRollups,
} from './1765700000000-ActivityHours';

const DAY: Bucket = { column: 'day', seconds: 86_400 };

/**
 * The overview's rollups again, per box office and UTC day (`order_days`, `revenue_days`,
 * `ticket_days`), kept by the same kind of row triggers as the hourly ones (migration
 * ActivityHours), and filled the same way from the rows already there. The overview reads its
 * whole days from them, the hours before and after those days from the hourly rollups, and the
 * parts of an hour at the period's two ends from the rows (src/overview/overview.service.ts): at
 * most 51 rollup rows a table instead of 672. Hourly rows of one box office lie on as many heap
 * pages as there are hours once other box offices write between them, so the count of rows is
 * what the statement's cost follows (bench/notes/2026-11-27-overview-daily-rollups.md).
 */
export const DAILY_ROLLUPS: Rollup[] = HOURLY_ROLLUPS.map((rollup) => ({
  ...rollup,
  table: rollup.table.replace(/_hours$/, '_days'),
}));

export class ActivityDays1765800000000 implements MigrationInterface {
  name = 'ActivityDays1765800000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await createRollups(queryRunner, DAILY_ROLLUPS, DAY);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await dropRollups(queryRunner, DAILY_ROLLUPS, DAY);
  }
}
