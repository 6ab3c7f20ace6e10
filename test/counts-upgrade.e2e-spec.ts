import type { DataSource } from 'typeorm';
import { sweepCounts } from '../src/changes/change-assigner';
import { MIGRATIONS } from '../src/database/data-source-options';
import { CountsWithoutHotRows1766900000000 } from '../src/database/migrations/1766900000000-CountsWithoutHotRows';
import {
  BOX_OFFICES_WITH_DELTAS,
  withPendingCounts,
} from '../src/database/pending-counts';
import { rowReader } from '../src/database/row-reader';
import { Factory } from './utils/factories';
import {
  durableTestDatabase,
  openWithMigrations,
} from './utils/migrated-database';
import { onPostgres, type TestDatabase } from './utils/test-database';

// docs/DESIGN.md, "Counts without a hot row": migration CountsWithoutHotRows upgrades in place
// (the counts already in the rows are kept; new writes add deltas, read with them and folded by
// the sweep), and reverting it folds what is waiting before the triggers update the rows again.
describe('upgrading: counts written as deltas', () => {
  let database: TestDatabase;
  afterAll(() => database?.drop());

  const itOnPostgresAlone = onPostgres ? it : it.skip;
  itOnPostgresAlone(
    'keeps every count: the rows before, row + deltas after, folded, and back again',
    async () => {
      database = await durableTestDatabase();
      const earlier = MIGRATIONS.filter(
        (m) => m !== CountsWithoutHotRows1766900000000,
      );
      const before = await openWithMigrations(database.url, earlier);
      const f = new Factory(before);
      const office = (await f.boxOffice('Upgraded')).id;
      const event = (await f.event(office)).id;
      const type = await f.ticketType(event, { quantityTotal: 100 });
      await f.order(office, event, {
        ticketType: type,
        createdAt: 1_760_000_000,
      });
      await f.order(office, event, {
        ticketType: type,
        createdAt: 1_760_090_000,
      });

      /** [event: orders, tickets, revenue; type: issued; rollups: orders, revenue, tickets]. */
      const counts = async (ds: DataSource, pending: boolean) => {
        const read = rowReader(ds);
        const deltas = (column: string) =>
          pending
            ? ` + (SELECT coalesce(sum(${column}), 0) FROM activity_deltas WHERE box_office_id = ${office})`
            : '';
        const sql = `SELECT e.completed_orders_count AS orders, e.valid_tickets_count AS tickets,
              e.completed_revenue AS revenue, y.quantity_issued AS issued,
              (SELECT coalesce(sum(completed_orders), 0) FROM order_days WHERE box_office_id = ${office})${deltas('completed_orders')} AS day_orders,
              (SELECT coalesce(sum(revenue), 0) FROM revenue_hours WHERE box_office_id = ${office})${deltas('revenue')} AS hour_revenue,
              (SELECT coalesce(sum(valid_tickets), 0) FROM ticket_hours WHERE box_office_id = ${office})${deltas('valid_tickets')} AS hour_tickets
            FROM events e JOIN ticket_types y ON y.event_id = e.id
           WHERE e.id = ${event} AND y.id = ${type.id}`;
        const [row] = await read(pending ? withPendingCounts(sql) : sql, []);
        return Object.values(row).map(Number);
      };
      /** The same, counted from the rows. */
      const listed = async (ds: DataSource) => {
        const [row] = await rowReader(ds)(
          `SELECT (SELECT count(*) FROM orders WHERE event_id = ${event} AND status = 'completed') AS orders,
              (SELECT count(*) FROM issued_tickets WHERE event_id = ${event} AND status = 'valid') AS tickets,
              (SELECT coalesce(sum(total - refund_amount), 0) FROM orders
                WHERE event_id = ${event} AND status = 'completed') AS revenue,
              (SELECT count(*) FROM issued_tickets WHERE ticket_type_id = ${type.id} AND status = 'valid') AS issued`,
          [],
        );
        const [orders, tickets, revenue, issued] =
          Object.values(row).map(Number);
        return [orders, tickets, revenue, issued, orders, revenue, tickets];
      };
      // AttendanceCounts, a later migration applied here already, writes deltas of its own:
      // folded now, so that what waits after the upgrade is this migration's alone.
      await before.query('SELECT fold_attendance($1)', [office]);
      const counted = await listed(before);
      expect(counted[0]).toBe(2);
      expect(await counts(before, false)).toEqual(counted);
      await before.destroy();

      // Up to this migration, so that reverting the latest reverts it.
      const upToIt = MIGRATIONS.slice(
        0,
        MIGRATIONS.indexOf(CountsWithoutHotRows1766900000000) + 1,
      );
      const after = await openWithMigrations(database.url, upToIt);
      try {
        // Upgraded in place: the rows keep their counts, nothing is waiting.
        expect(await counts(after, false)).toEqual(counted);
        expect(await rowReader(after)(BOX_OFFICES_WITH_DELTAS, [])).toEqual([]);
        // A new order is counted in deltas, not in the rows, until a fold.
        const g = new Factory(after);
        await g.order(office, event, {
          ticketType: type,
          createdAt: 1_760_100_000,
        });
        const more = await listed(after);
        expect(more[0]).toBe(3);
        expect(await counts(after, false)).toEqual(counted);
        expect(await counts(after, true)).toEqual(more);
        await sweepCounts(rowReader(after));
        expect(await counts(after, false)).toEqual(more);
        expect(await rowReader(after)(BOX_OFFICES_WITH_DELTAS, [])).toEqual([]);

        // Reverted with deltas waiting: they are folded, then the triggers update the rows.
        await g.order(office, event, {
          ticketType: type,
          createdAt: 1_760_200_000,
        });
        await after.undoLastMigration({ transaction: 'each' });
        const reverted = await listed(after);
        expect(reverted[0]).toBe(4);
        expect(await counts(after, false)).toEqual(reverted);
        await g.order(office, event, {
          ticketType: type,
          createdAt: 1_760_300_000,
        });
        const last = await listed(after);
        expect(last[0]).toBe(5);
        expect(await counts(after, false)).toEqual(last);
      } finally {
        await after.destroy();
      }
    },
  );
});
