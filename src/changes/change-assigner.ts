import {
  Injectable,
  Logger,
  OnApplicationBootstrap,
  OnApplicationShutdown,
} from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { PeriodicTask } from '../common/periodic-task';
import {
  BOX_OFFICES_WITH_DELTAS,
  FOLD_BOX_OFFICE,
  boxOfficesIn,
} from '../database/pending-counts';
import { type ReadRows, rowReader } from '../database/row-reader';

/**
 * On PostgreSQL, change entries are written unnumbered (table `change_inbox`) and numbered after
 * their transactions commit by `assign_changes(office, wait)` (migration WritesWithoutHotRows;
 * docs/DESIGN.md, "Change feed design: ids in commit order"). This is who calls it:
 *
 * - every instance sweeps every SWEEP_MS: each box office with entries waiting is numbered, by
 *   whichever instance takes its advisory lock first (the others skip it), so the feed and the
 *   webhooks move without anyone reading;
 * - a feed read numbers its box office's waiting entries first, waiting for an assigner already
 *   at work (catchUpChanges): every entry committed before the read began is then in it, as when
 *   the writing transaction numbered its own.
 *
 * The same sweep folds the counts' deltas into their rows (sweepCounts).
 *
 * SQLite numbers entries and keeps counts in the writing transaction (its writers take turns
 * anyway): nothing to do.
 */

/** How often each instance numbers what is waiting: well inside the second an entry may take. */
export const SWEEP_MS = 100;

/** Whether the database numbers entries after the fact (PostgreSQL). */
const assignsLater = (dataSource: DataSource) =>
  dataSource.options.type === 'postgres';

/**
 * Numbers the box office's entries committed so far, waiting for an assigner already at work on
 * it; on SQLite nothing (they are numbered). Read the head after it, in a statement of its own.
 */
export async function catchUpChanges(
  dataSource: DataSource,
  boxOfficeId: number,
  read: ReadRows = rowReader(dataSource),
): Promise<void> {
  if (!assignsLater(dataSource)) return;
  await read('SELECT assign_changes($1, true) AS assigned', [boxOfficeId]);
}

/**
 * Numbers every box office's waiting entries, skipping a box office another assigner is at work
 * on (it numbers them). Returns how many entries it numbered.
 */
export async function sweepChanges(read: ReadRows): Promise<number> {
  const offices = await read(boxOfficesIn('change_inbox'), []);
  let assigned = 0;
  for (const { box_office_id } of offices) {
    const [row] = await read('SELECT assign_changes($1, false) AS assigned', [
      Number(box_office_id),
    ]);
    assigned += Number(row.assigned);
  }
  return assigned;
}

/**
 * Folds every box office's pending count deltas into the rows they count (FOLD_BOX_OFFICE,
 * migrations CountsWithoutHotRows and AttendanceCounts; src/database/pending-counts.ts), skipping a box office another
 * instance is folding. Returns how many rows it moved. PostgreSQL only, as the deltas are.
 */
export async function sweepCounts(read: ReadRows): Promise<number> {
  const offices = await read(BOX_OFFICES_WITH_DELTAS, []);
  let folded = 0;
  for (const { box_office_id } of offices) {
    const [row] = await read(FOLD_BOX_OFFICE, [Number(box_office_id)]);
    folded += Number(row.folded);
  }
  return folded;
}

@Injectable()
export class ChangeAssigner
  implements OnApplicationBootstrap, OnApplicationShutdown
{
  private readonly read: ReadRows;
  /** A sweep still running when the next is due is not doubled. */
  private sweeping = false;
  private readonly task = new PeriodicTask(
    'change-feed numbering',
    () => this.sweepOnce(),
    new Logger('ChangeAssigner'),
  );

  constructor(@InjectDataSource() private readonly dataSource: DataSource) {
    this.read = rowReader(dataSource);
  }

  onApplicationBootstrap() {
    if (assignsLater(this.dataSource)) this.task.start(SWEEP_MS);
  }

  onApplicationShutdown() {
    return this.task.stop();
  }

  private async sweepOnce(): Promise<void> {
    if (this.sweeping) return;
    this.sweeping = true;
    try {
      // Each on its own: counts are folded even in a pass whose numbering failed (the task logs
      // the failure and runs again at the next tick).
      let failure: unknown = null;
      await sweepChanges(this.read).catch((error: unknown) => {
        failure = error;
      });
      await sweepCounts(this.read);
      if (failure !== null) throw failure;
    } finally {
      this.sweeping = false;
    }
  }
}
