import { setTimeout as sleep } from 'node:timers/promises';
import { Client } from 'pg';
import type { DataSource } from 'typeorm';
import { MIGRATIONS } from '../src/database/data-source-options';
import { Factory } from './utils/factories';
import {
  durableTestDatabase,
  openWithMigrations,
} from './utils/migrated-database';
import { onPostgres, type TestDatabase } from './utils/test-database';

// docs/OPERATIONS.md, "Deadlocks": the two cycles left by migration WritesWithoutHotRows, each
// played step by step on two connections. Before migrations CountsWithoutHotRows and
// OneLockOrder the second step of the first transaction closed a cycle and PostgreSQL aborted
// one of them with 40P01 after deadlock_timeout; now the second transaction waits for the first
// without holding anything the first needs, and both commit.
const describeOnPostgres = onPostgres ? describe : describe.skip;

describeOnPostgres('one lock order: no deadlock between', () => {
  let database: TestDatabase;
  let ds: DataSource;
  let office: number;
  let event: number;
  let series: number;
  let order: number;
  let ticket: number;

  beforeAll(async () => {
    database = await durableTestDatabase();
    ds = await openWithMigrations(database.url, MIGRATIONS);
    const f = new Factory(ds);
    office = (await f.boxOffice('Locks')).id;
    event = (await f.event(office)).id;
    series = (await f.series(office, { name: 'Tour' })).id;
    const type = await f.ticketType(event);
    order = (await f.order(office, event, { ticketType: type })).id;
    const [row] = await ds.query<{ id: number }[]>(
      'SELECT min(id) AS id FROM issued_tickets WHERE order_id = $1',
      [order],
    );
    ticket = Number(row.id);
  });

  afterAll(async () => {
    await ds?.destroy();
    await database?.drop();
  });

  /** Two sessions, each in a transaction; a deadlock would be found after 200 ms. */
  async function sessions(): Promise<[Client, Client]> {
    const clients = [0, 1].map(
      () => new Client({ connectionString: database.url }),
    ) as [Client, Client];
    for (const client of clients) {
      await client.connect();
      await client.query("SET deadlock_timeout = '200ms'");
      await client.query("SET statement_timeout = '10s'");
      await client.query('BEGIN');
    }
    return clients;
  }

  /**
   * `first` takes its first lock; `second` starts and is let run until it waits; `first` takes
   * its second lock and commits; then `second` must commit too.
   */
  async function play(
    firstLock: string,
    second: string,
    firstThen: string,
  ): Promise<void> {
    const [a, b] = await sessions();
    try {
      await a.query(firstLock);
      const waiting = b.query(second);
      waiting.catch(() => undefined);
      // Until b waits on a lock a holds.
      for (let i = 0; i < 100; i++) {
        const [row] = (
          await ds.query<{ n: string }[]>(
            `SELECT count(*) AS n FROM pg_stat_activity
              WHERE wait_event_type = 'Lock' AND datname = current_database()`,
          )
        ).map((r) => ({ n: Number(r.n) }));
        if (row.n > 0) break;
        await sleep(20);
      }
      await a.query(firstThen);
      await a.query('COMMIT');
      await waiting;
      await b.query('COMMIT');
    } finally {
      await a.end();
      await b.end();
    }
  }

  it('a refund of an order holding it and an edit of its event (name): both commit', async () => {
    await play(
      `SELECT id FROM orders WHERE id = ${order} FOR NO KEY UPDATE`,
      `UPDATE events SET name = 'Renamed' WHERE id = ${event}`,
      `UPDATE orders SET refund_amount = refund_amount + 100 WHERE id = ${order}`,
    );
    const [row] = await ds.query<{ refund_amount: number; name: string }[]>(
      `SELECT o.refund_amount, e.name FROM orders o JOIN events e ON e.id = o.event_id
        WHERE o.id = $1`,
      [order],
    );
    expect([Number(row.refund_amount), row.name]).toEqual([100, 'Renamed']);
  });

  it('a scan holding its ticket and a series change of its event: both commit', async () => {
    await play(
      `SELECT id FROM issued_tickets WHERE id = ${ticket} FOR NO KEY UPDATE`,
      `UPDATE events SET event_series_id = ${series} WHERE id = ${event}`,
      `UPDATE orders SET updated_at = updated_at WHERE id = ${order}`,
    );
    const [row] = await ds.query<{ event_series_id: number }[]>(
      'SELECT event_series_id FROM events WHERE id = $1',
      [event],
    );
    expect(Number(row.event_series_id)).toBe(series);
  });

  it('a cancellation (its tickets, then the order) and a series change: both commit', async () => {
    await play(
      `UPDATE issued_tickets SET status = 'void', voided_at = updated_at
        WHERE order_id = ${order} AND status = 'valid'`,
      `UPDATE events SET event_series_id = 0 WHERE id = ${event}`,
      `UPDATE orders SET status = 'cancelled' WHERE id = ${order}`,
    );
    const [row] = await ds.query<{ status: string }[]>(
      'SELECT status FROM orders WHERE id = $1',
      [order],
    );
    expect(row.status).toBe('cancelled');
  });
});
