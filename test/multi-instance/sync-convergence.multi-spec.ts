import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';
import { type Connection, connect } from '../../dev/activity/connection';
import { runActivity } from '../../dev/activity/run';
import { ActivityWriter, type PrintedChange } from '../../dev/activity/writer';
import { basicAuth } from '../utils/create-test-app';
import type { TestDatabase } from '../utils/test-database';
import {
  DEMO_KEY,
  type Kind,
  REDIS_URL,
  freshDatabase,
  seedDemo,
} from './databases';
import { type ServerProcess, startServer } from './server-process';

// The sync guarantee of docs/API.md ("Incremental sync", "Change feed"), end to end: a sales
// system writes for 30 s at 20+ changes a second while a client follows the recipe with limit=7
// across two instances and a poller follows the change feed. Afterwards the client's copy equals
// a fresh full read object for object, the poller saw every entry once, in order, with no gap,
// and the feed's counts by type equal what the writer printed. Faults on the way: the change
// feed's retention cleanup runs every few seconds during the polls; one instance is killed
// (SIGKILL) a third of the way in and replaced, the client retrying what it was reading on the
// other; with TEST_RESTART_POSTGRES (CI) PostgreSQL is restarted in the middle of the run. Every
// request a fault fails is retried, as a client retries, on the next instance.

const DURATION_S = 30;
const RATE = 25;
const LAG = 2;
const RETENTION_S = 8;
const RESTART = process.env.TEST_RESTART_POSTGRES?.split(' ');

type Item = { id: string; updated_at: number } & Record<string, unknown>;
interface Page<T> {
  data: T[];
  links: { next: string | null };
}
interface Change {
  id: string;
  type: string;
  resource_id: string;
}

/** Requests a fault failed (and that were retried). */
let retried = 0;

/** GET on the instances in turn, retrying (on the next instance) what a fault answers. */
function clientOf(servers: ServerProcess[]) {
  let turn = 0;
  return async function get<T>(
    path: string,
  ): Promise<{ body: T; headers: Headers }> {
    for (let attempt = 0; ; attempt++) {
      const server = servers[turn++ % servers.length];
      try {
        const res = await fetch(server.url + path, {
          headers: { Authorization: basicAuth(DEMO_KEY) },
        });
        if (res.status === 200)
          return { body: (await res.json()) as T, headers: res.headers };
        // 503: the database is away; 429 never (the limit is raised). Anything else is a bug.
        if (res.status !== 503)
          throw new Error(`GET ${path} → ${res.status} ${await res.text()}`);
      } catch (error) {
        // fetch's network failure (a TypeError of Node's own realm, not jest's).
        if ((error as Error).message !== 'fetch failed') throw error;
      }
      retried += 1;
      if (attempt > 300) throw new Error(`GET ${path} kept failing`);
      await sleep(100);
    }
  };
}

/** The recipe's client: lists in updated_at order from the largest updated_at kept, limit=7. */
class Replica {
  readonly items = {
    orders: new Map<string, Item>(),
    issued_tickets: new Map<string, Item>(),
  };
  private readonly kept = { orders: 0, issued_tickets: 0 };
  pages = 0;

  constructor(private readonly get: ReturnType<typeof clientOf>) {}

  async run() {
    for (const list of ['orders', 'issued_tickets'] as const) {
      let link: string | null =
        `/v1/${list}?sort=updated_at&limit=7&updated_at.gte=${this.kept[list]}`;
      while (link !== null) {
        const { body }: { body: Page<Item> } = await this.get<Page<Item>>(link);
        this.pages += 1;
        for (const item of body.data) {
          this.items[list].set(item.id, item);
          this.kept[list] = Math.max(this.kept[list], item.updated_at);
        }
        link = body.links.next;
      }
    }
  }

  /** What the feed says was deleted leaves the copy. */
  forget(change: Change) {
    if (change.type === 'ORDER.DELETED')
      this.items.orders.delete(change.resource_id);
    if (change.type === 'ISSUED_TICKET.DELETED') {
      this.items.issued_tickets.delete(change.resource_id);
    }
  }
}

/** The change feed's poller: every entry, in order, from a noted head. */
class Poller {
  readonly seen: Change[] = [];
  constructor(
    private readonly get: ReturnType<typeof clientOf>,
    private position: string,
  ) {}

  async poll(onEntry: (change: Change) => void) {
    for (;;) {
      const { body } = await this.get<Page<Change>>(
        `/v1/changes?starting_after=${this.position}&limit=7`,
      );
      for (const change of body.data) {
        this.seen.push(change);
        onEntry(change);
      }
      const next = body.links.next!;
      this.position = next.slice(next.indexOf('=') + 1).split('&')[0];
      if (body.data.length === 0) return;
    }
  }
}

async function pgCtlCluster(action: 'stop' | 'start') {
  const [version, cluster] = RESTART!;
  await promisify(execFile)('pg_ctlcluster', [
    '--skip-systemctl-redirect',
    version,
    cluster,
    action,
    ...(action === 'stop' ? ['-m', 'fast'] : []),
  ]);
}

/** The writer for the whole duration, reconnecting when its connection is lost (a restart). */
async function write(url: string, until: number, printed: PrintedChange[]) {
  let seed = 1;
  while (Date.now() < until) {
    let db: Connection | undefined;
    try {
      db = await connect(url);
      await runActivity(
        new ActivityWriter(db, LAG),
        db,
        {
          boxOfficeId: 1,
          durationS: (until - Date.now()) / 1000,
          rate: RATE,
          seed: seed++,
        },
        (entries) => printed.push(...entries),
      );
    } catch (error) {
      // The database went away mid-change: that transaction is rolled back and printed nothing.
      if (!RESTART) throw error;
      await sleep(200);
    } finally {
      await db?.close().catch(() => undefined);
    }
  }
}

describe.each<Kind>(['postgres', 'sqlite'])('sync converges on %s', (kind) => {
  let database: TestDatabase;
  let servers: ServerProcess[];
  let environment: Record<string, string>;

  beforeAll(async () => {
    database = await freshDatabase(kind);
    const env = {
      DATABASE_URL: database.url,
      REDIS_URL,
      REDIS_KEY_PREFIX: `test:${randomBytes(6).toString('hex')}:`,
      RATE_LIMIT_MAX: '10000000',
      SYNC_LAG_S: String(LAG),
      // Entries older than this are removed while the poller polls (every RETENTION_S / 2 s).
      CHANGES_RETENTION_S: String(RETENTION_S),
    };
    environment = env;
    servers = [await startServer(env)];
    await seedDemo(database.url, 120);
    servers.push(await startServer(env));
  }, 120_000);

  afterAll(async () => {
    await Promise.all((servers ?? []).map((server) => server.stop()));
    await database?.drop();
  });

  const restartHere = kind === 'postgres' && RESTART !== undefined;

  it(`keeps a copy equal to a full read while a writer runs ${DURATION_S} s${restartHere ? ', through a PostgreSQL restart' : ''}`, async () => {
    const get = clientOf(servers);
    const { headers } = await get<Page<Change>>('/v1/changes?limit=1');
    const head = headers.get('X-Change-Head')!;
    expect(head).toBe('chg_0');
    const replica = new Replica(get);
    await replica.run();
    const poller = new Poller(get, head);

    const printed: PrintedChange[] = [];
    const until = Date.now() + DURATION_S * 1000;
    let writing = true;
    const writer = write(database.url, until, printed).finally(
      () => (writing = false),
    );
    const killed = (async () => {
      await sleep((DURATION_S * 1000) / 3);
      servers[1].child.kill('SIGKILL');
      await servers[1].exited();
      servers[1] = await startServer(environment);
    })();
    const restart = restartHere
      ? (async () => {
          await sleep((DURATION_S * 1000) / 2);
          await pgCtlCluster('stop');
          await sleep(1500);
          await pgCtlCluster('start');
        })()
      : Promise.resolve();
    while (writing) {
      await replica.run();
      await poller.poll((change) => replica.forget(change));
      await sleep(300);
    }
    await writer;
    await Promise.all([killed, restart]);
    expect(retried).toBeGreaterThan(0);
    // The writer has stopped: once the horizon is past its last stamp, one more run is complete.
    const last = Math.max(...printed.map((change) => change.stamp));
    for (;;) {
      const { headers: h } = await get<Page<Item>>('/v1/orders?limit=1');
      if (Number(h.get('X-Sync-Watermark')) >= last) break;
      await sleep(200);
    }
    await replica.run();
    await poller.poll((change) => replica.forget(change));

    expect(printed.length / DURATION_S).toBeGreaterThanOrEqual(20);
    // The poller: ids never went down, never skipped one.
    const numbers = poller.seen.map((change) => Number(change.id.slice(4)));
    expect(numbers).toEqual(numbers.map((_, i) => i + 1));
    // The feed's counts by type are what the writer printed.
    const count = (types: string[]) =>
      types.reduce<Record<string, number>>(
        (all, type) => ({ ...all, [type]: (all[type] ?? 0) + 1 }),
        {},
      );
    expect(count(poller.seen.map((c) => c.type))).toEqual(
      count(printed.map((c) => c.type)),
    );
    // The copy equals a fresh full read, object for object.
    for (const list of ['orders', 'issued_tickets'] as const) {
      const full = new Map<string, Item>();
      for (let link: string | null = `/v1/${list}`; link !== null;) {
        const { body }: { body: Page<Item> } = await get<Page<Item>>(link);
        for (const item of body.data) full.set(item.id, item);
        link = body.links.next;
      }
      expect(replica.items[list].size).toBe(full.size);
      expect(Object.fromEntries(replica.items[list])).toEqual(
        Object.fromEntries(full),
      );
    }
  }, 180_000);
});
