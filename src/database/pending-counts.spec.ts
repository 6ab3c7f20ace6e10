import { json } from '../common/resources/field-table';
import {
  BOX_OFFICES_WITH_DELTAS,
  COUNT_DELTA_TABLES,
  countsAsRead,
  countsReadIn,
  withPendingCounts,
} from './pending-counts';
import { postgresDialect, sqliteDialect } from './sql-dialect';

describe('counts as read (pending-counts.ts)', () => {
  it('reads every counted column as its row plus its pending deltas, and nothing else', () => {
    expect(
      withPendingCounts(
        'ev.valid_tickets_count + tt.quantity_issued, ev.name, ev.valid_tickets_count_x',
      ),
    ).toBe(
      '(ev.valid_tickets_count + coalesce((SELECT sum(pd.valid_tickets_count) FROM event_count_deltas pd WHERE pd.event_id = ev.id), 0))::integer' +
        ' + (tt.quantity_issued + coalesce((SELECT sum(pd.quantity_issued) FROM ticket_type_count_deltas pd WHERE pd.ticket_type_id = tt.id), 0))::integer' +
        ', ev.name, ev.valid_tickets_count_x',
    );
    expect(withPendingCounts('sum(x.completed_revenue)')).toContain(
      'FROM event_count_deltas pd WHERE pd.event_id = x.id), 0))::bigint)',
    );
  });

  it('changes a resource’s fields and row aggregate on PostgreSQL only', () => {
    const fields = [
      ['total', json.integer('ev.completed_orders_count')],
      ['types', json.object([['n', json.integer('tt.quantity_issued')]])],
    ] as const;
    const aggregate = {
      alias: 'sd',
      from: 'events x',
      columns: { tickets: 'sum(x.valid_tickets_count)' },
    };
    expect(countsAsRead(sqliteDialect, fields, aggregate)).toEqual({
      fields,
      aggregate,
    });
    const read = countsAsRead(postgresDialect, fields, aggregate);
    expect(JSON.stringify(read.fields)).toContain('event_count_deltas');
    expect(JSON.stringify(read.fields)).toContain('ticket_type_count_deltas');
    expect(read.aggregate?.columns.tickets).toContain('event_count_deltas');
  });

  it('reads a database beside the service by whether it keeps deltas (countsReadIn)', async () => {
    const sql = 'SELECT tt.quantity_issued FROM ticket_types tt';
    const asked: string[] = [];
    const answering = (present: boolean) => (statement: string) => {
      asked.push(statement);
      return Promise.resolve([{ present }]);
    };
    const sqlite = await countsReadIn('sqlite', answering(true));
    expect([sqlite.pending, sqlite.asRead(sql), asked]).toEqual([
      false,
      sql,
      [],
    ]);
    // PostgreSQL before migration CountsWithoutHotRows (a bench what-if), then after it.
    const before = await countsReadIn('postgres', answering(false));
    expect([before.pending, before.asRead(sql)]).toEqual([false, sql]);
    const after = await countsReadIn('postgres', answering(true));
    expect([after.pending, after.asRead(sql)]).toEqual([
      true,
      withPendingCounts(sql),
    ]);
    expect(asked).toEqual([
      "SELECT to_regclass('event_count_deltas') IS NOT NULL AS present",
      "SELECT to_regclass('event_count_deltas') IS NOT NULL AS present",
    ]);
  });

  it('finds the box offices with deltas by a skip scan of each table of deltas', () => {
    for (const table of COUNT_DELTA_TABLES) {
      expect(BOX_OFFICES_WITH_DELTAS).toContain(
        `(SELECT box_office_id FROM ${table} ORDER BY box_office_id LIMIT 1)`,
      );
    }
    expect(BOX_OFFICES_WITH_DELTAS).not.toMatch(/DISTINCT/);
  });
});
