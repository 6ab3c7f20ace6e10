import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import Database from 'better-sqlite3';
import { DataSource } from 'typeorm';
import { parseDatabaseUrl } from '../../src/config/app-config';
import { syncLockClassOf } from '../../src/sync/sync-horizon';
import { basicAuth } from '../utils/create-test-app';
import type { TestDatabase } from '../utils/test-database';
import {
  DEMO_KEY,
  type Kind,
  freshDatabase,
  openDatabase,
  seedDemo,
} from './databases';
import { type ServerProcess, startServer } from './server-process';

// The development writer killed (SIGKILL) in the middle of a change, its transaction open and
// stamped: nothing of it may ever be visible, in the lists or the change feed, and the sync
// horizon and the other writers must go on as if it had never started (docs/API.md, "Incremental
// sync"). The writer runs as a developer runs it: `npm run activity`'s entry, a process of its own.

const ROOT = join(__dirname, '../..');
const LAG = 10;

function activity(url: string, args: string[]): ChildProcess {
  return spawn(
    process.execPath,
    [
      require.resolve('ts-node/dist/bin.js'),
      '--transpile-only',
      'dev/activity.cli.ts',
      ...args,
    ],
    {
      cwd: ROOT,
      env: { ...process.env, DATABASE_URL: url, SYNC_LAG_S: String(LAG) },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
}

/** Whether a writer holds the database mid-transaction, stamped. */
async function writerInFlight(
  kind: Kind,
  url: string,
  probe: DataSource,
): Promise<boolean> {
  if (kind === 'postgres') {
    const rows = await probe.query<unknown[]>(
      `SELECT 1 FROM pg_locks WHERE locktype = 'advisory' AND classid = ${syncLockClassOf(1)} AND objsubid = 2`,
    );
    return rows.length > 0;
  }
  // SQLite: the writer holds the write lock; another writer cannot begin.
  const target = parseDatabaseUrl(url) as { database: string };
  const db = new Database(target.database, { timeout: 0 });
  try {
    db.exec('BEGIN IMMEDIATE');
    db.exec('ROLLBACK');
    return false;
  } catch {
    return true;
  } finally {
    db.close();
  }
}

describe.each<Kind>(['postgres', 'sqlite'])(
  'the writer killed mid-change on %s',
  (kind) => {
    let database: TestDatabase;
    let server: ServerProcess;
    let probe: DataSource;

    beforeAll(async () => {
      database = await freshDatabase(kind);
      await seedDemo(database.url, 20);
      server = await startServer({
        DATABASE_URL: database.url,
        SYNC_LAG_S: String(LAG),
        RATE_LIMIT_MAX: '1000000',
      });
      probe = await openDatabase(database.url);
    }, 60_000);

    afterAll(async () => {
      await server?.stop();
      await probe?.destroy();
      await database?.drop();
    });

    const get = async (path: string) => {
      const res = await fetch(server.url + path, {
        headers: { Authorization: basicAuth(DEMO_KEY) },
      });
      expect(res.status).toBe(200);
      return {
        body: (await res.json()) as Record<string, unknown>,
        headers: res.headers,
      };
    };

    it('leaves no trace of the change, and the horizon and other writers go on', async () => {
      const [ticket] = await probe.query<{ id: number; order_id: number }[]>(
        "SELECT id, order_id FROM issued_tickets WHERE box_office_id = 1 AND status = 'valid' ORDER BY id LIMIT 1",
      );
      const before = {
        ticket: await get(`/v1/issued_tickets/it_${ticket.id}`),
        order: await get(`/v1/orders/or_${ticket.order_id}`),
        head: (await get('/v1/changes')).headers.get('X-Change-Head'),
      };

      const child = activity(database.url, [
        'void-ticket',
        `it_${ticket.id}`,
        '--hold-ms',
        String(LAG * 1000 - 250),
      ]);
      let output = '';
      child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
      child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
      const deadline = Date.now() + 30_000;
      while (!(await writerInFlight(kind, database.url, probe))) {
        if (Date.now() > deadline || child.exitCode !== null) {
          throw new Error(
            `the writer never held a stamped transaction:\n${output}`,
          );
        }
        await sleep(50);
      }
      // Mid-change: stamped, not committed, and invisible.
      expect((await get(`/v1/issued_tickets/it_${ticket.id}`)).body).toEqual(
        before.ticket.body,
      );
      child.kill('SIGKILL');
      await once(child, 'exit');
      expect(output).toBe(''); // it printed nothing: nothing committed

      // Nothing of it, now or later: the ticket, its order, the feed.
      for (let i = 0; i < 2; i++) {
        expect((await get(`/v1/issued_tickets/it_${ticket.id}`)).body).toEqual(
          before.ticket.body,
        );
        expect((await get(`/v1/orders/or_${ticket.order_id}`)).body).toEqual(
          before.order.body,
        );
        const feed = await get('/v1/changes');
        expect(feed.headers.get('X-Change-Head')).toBe(before.head);
        expect(feed.body.data).toEqual([]);
        await sleep(500);
      }
      // The horizon is not held back by the dead transaction.
      const { headers } = await get('/v1/orders?limit=1');
      const now = Math.floor(Date.now() / 1000);
      expect(Number(headers.get('X-Sync-Watermark'))).toBeGreaterThanOrEqual(
        now - LAG - 2,
      );

      // The next writer of the box office is not blocked, and its change is the feed's next entry.
      const next = activity(database.url, ['void-ticket', `it_${ticket.id}`]);
      let printed = '';
      next.stdout!.on('data', (chunk: Buffer) => (printed += chunk.toString()));
      const [code] = (await once(next, 'exit')) as [number];
      expect(code).toBe(0);
      const entry = JSON.parse(printed.trim()) as {
        type: string;
        resource_id: string;
      };
      expect(entry).toMatchObject({
        type: 'ISSUED_TICKET.UPDATED',
        resource_id: `it_${ticket.id}`,
      });
      const headNumber = Number(before.head!.slice(4));
      expect((await get('/v1/changes')).headers.get('X-Change-Head')).toBe(
        `chg_${headNumber + 1}`,
      );
    }, 90_000);
  },
);
