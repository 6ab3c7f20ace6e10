import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { type Connection, connect } from '../dev/activity/connection';
import { ActivityWriter } from '../dev/activity/writer';
import { DEMO_BOX_OFFICES, seedDemoData } from '../seeds/demo-data';
import { type ListBody, getAs, walk } from './utils/api';
import { type TestApp, createTestApp } from './utils/create-test-app';
import { durableTestDatabase } from './utils/migrated-database';
import { waitForWatermark } from './utils/sync-watermark';
import type { TestDatabase } from './utils/test-database';

// examples/sync-mirror.mjs, the runnable recipe of docs/API.md ("Incremental sync"), run as a
// user runs it, twice around changes a sales system makes: the mirror equals a fresh full read.

const run = promisify(execFile);
const LAG = 1;
const { id: OFFICE, apiKey: KEY } = DEMO_BOX_OFFICES[0];

type Item = { id: string } & Record<string, unknown>;

describe('examples/sync-mirror.mjs', () => {
  let database: TestDatabase;
  let t: TestApp;
  let baseUrl: string;
  let db: Connection;
  let writer: ActivityWriter;
  let dir: string;

  beforeAll(async () => {
    database = await durableTestDatabase();
    t = await createTestApp({
      DATABASE_URL: database.url,
      SYNC_LAG_S: String(LAG),
      RATE_LIMIT_MAX: '1000000',
    });
    await seedDemoData(t.dataSource, { orders: 60, seed: 3, reset: false });
    await t.app.listen(0, '127.0.0.1');
    baseUrl = `http://127.0.0.1:${(t.server.address() as AddressInfo).port}`;
    db = await connect(database.url);
    writer = new ActivityWriter(db, LAG);
    dir = mkdtempSync(join(tmpdir(), 'sync-mirror-'));
  });

  afterAll(async () => {
    await db?.close();
    await t?.close();
    await database?.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  const mirror = async () => {
    const { stdout } = await run(
      process.execPath,
      ['examples/sync-mirror.mjs', join(dir, 'state.json')],
      { env: { ...process.env, API_URL: baseUrl, API_KEY: KEY } },
    );
    return stdout;
  };

  /** Everything the lists hold now, by id: what the mirror must equal. */
  const fullRead = async (path: string) => {
    const get = getAs(t.server, KEY);
    const pages = await walk<Item>(get, path, 'next');
    return Object.fromEntries(
      pages.flatMap((page: ListBody<Item>) =>
        page.data.map((item) => [item.id, item]),
      ),
    );
  };

  it('copies the box office in full on the first run, then only what changed, deletions included', async () => {
    expect(await mirror()).toMatch(/^first run: reading/);

    const [order] = await t.dataSource.query<
      { id: number; event_id: number }[]
    >(
      `SELECT id, event_id FROM orders WHERE box_office_id = ${OFFICE} AND status = 'completed' ORDER BY id LIMIT 1`,
    );
    const [gone] = await t.dataSource.query<{ id: number }[]>(
      `SELECT id FROM orders WHERE box_office_id = ${OFFICE} ORDER BY id DESC LIMIT 1`,
    );
    // A ticket of another order: the deleted order's tickets go with it.
    const [ticket] = await t.dataSource.query<{ id: number }[]>(
      `SELECT id FROM issued_tickets WHERE box_office_id = ${OFFICE} AND status = 'valid' AND order_id <> ${gone.id} ORDER BY id DESC LIMIT 1`,
    );
    const stamps = [
      ...(await writer.voidTicket(`it_${ticket.id}`)),
      ...(await writer.refundOrder(`or_${order.id}`, 100)),
      ...(await writer.newOrder(`ev_${order.event_id}`)),
      ...(await writer.deleteOrder(`or_${gone.id}`)),
    ].map((change) => change.stamp);
    await waitForWatermark(getAs(t.server, KEY), Math.max(...stamps));

    const second = await mirror();
    expect(second).toMatch(/orders: \d+ read, 1 new/);
    expect(second).toMatch(/deleted: [1-9]\d*/);

    const state = JSON.parse(readFileSync(join(dir, 'state.json'), 'utf8')) as {
      items: {
        orders: Record<string, Item>;
        issued_tickets: Record<string, Item>;
      };
    };
    expect(state.items.orders).toEqual(await fullRead('/v1/orders'));
    expect(state.items.issued_tickets).toEqual(
      await fullRead('/v1/issued_tickets'),
    );
    expect(state.items.orders[`or_${gone.id}`]).toBeUndefined();
    expect(state.items.issued_tickets[`it_${ticket.id}`]).toMatchObject({
      status: 'void',
    });
  });
});
