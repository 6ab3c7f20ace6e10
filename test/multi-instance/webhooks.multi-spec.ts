import { type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { DataSource } from 'typeorm';
import { changeHead, changePage } from '../../src/changes/change-feed';
import { basicAuth } from '../utils/create-test-app';
import { Factory } from '../utils/factories';
import type { TestDatabase } from '../utils/test-database';
import { type Kind, freshDatabase, openDatabase } from './databases';
import { type ServerProcess, startServer } from './server-process';

// docs/API.md, "Webhooks: Several instances": two instances of the built service on one database
// share the endpoints, and a receiver counting by wh_ id finds every event of every endpoint
// once, in feed order; an instance killed mid-stream has its endpoints taken over within a lease
// (an event it had in flight may come twice: at least once), and one stopped with SIGTERM lets
// its leases go.

const KEY = 'sk_multi_instance_webhooks';
const ENDPOINTS = 4;
const CHANGES = 40;

/** Waits until `done()` holds, checking every 50 ms, for at most `ms`: then fails with `what`. */
async function until(
  what: string,
  done: () => boolean | Promise<boolean>,
  ms = 45_000,
) {
  const deadline = Date.now() + ms;
  while (!(await done())) {
    if (Date.now() > deadline) throw new Error(`gave up waiting: ${what}`);
    await sleep(50);
  }
}

describe.each<Kind>(['postgres', 'sqlite'])(
  'webhooks from two instances on one %s database',
  (kind) => {
    let database: TestDatabase;
    let dataSource: DataSource;
    let f: Factory;
    let office: number;
    let servers: ServerProcess[] = [];
    let receiver: Server;
    let base: string;
    /** The wh_ ids each endpoint path received, in arrival order. */
    const got = new Map<string, string[]>();
    const inFlight = new Map<string, number>();
    let overlapped = false;
    /** How long the receiver takes to answer. */
    let answerMs = 3;

    const env = (database: TestDatabase) => ({
      DATABASE_URL: database.url,
      RATE_LIMIT_MAX: '1000000',
      WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
      WEBHOOK_POLL_MS: '20',
      WEBHOOK_LEASE_S: '2',
      WEBHOOK_RETRY_SCHEDULE: '1,1,1',
    });

    beforeAll(async () => {
      database = await freshDatabase(kind);
      dataSource = await openDatabase(database.url);
      f = new Factory(dataSource);
      office = (await f.boxOffice('Hooks')).id;
      await f.apiKey(office, KEY, false, 'write');
      receiver = createServer((req, res) => {
        const path = req.url ?? '/';
        const now = (inFlight.get(path) ?? 0) + 1;
        inFlight.set(path, now);
        if (now > 1) overlapped = true;
        const chunks: Buffer[] = [];
        req.on('data', (chunk: Buffer) => chunks.push(chunk));
        req.on('end', () => {
          const { id } = JSON.parse(Buffer.concat(chunks).toString()) as {
            id: string;
          };
          got.set(path, [...(got.get(path) ?? []), id]);
          // A few milliseconds, so that a second send to one endpoint would overlap this one.
          setTimeout(() => {
            inFlight.set(path, inFlight.get(path)! - 1);
            res.writeHead(200).end();
          }, answerMs);
        });
      });
      await new Promise<void>((resolve) =>
        receiver.listen(0, '127.0.0.1', resolve),
      );
      base = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
      servers = await Promise.all([
        startServer(env(database)),
        startServer(env(database)),
      ]);
    });

    afterAll(async () => {
      await Promise.all(servers.map((server) => server.stop()));
      await new Promise<void>((resolve) => receiver?.close(() => resolve()));
      await dataSource?.destroy();
      await database?.drop();
    });

    async function createEndpoint(server: ServerProcess, path: string) {
      const res = await fetch(`${server.url}/v1/webhook_endpoints`, {
        method: 'POST',
        headers: {
          Authorization: basicAuth(KEY),
          'Content-Type': 'application/json',
        },
        body: JSON.stringify({ url: `${base}${path}`, enabled_events: ['*'] }),
      });
      expect(res.status).toBe(201);
    }

    /** `n` changes (new series), and the wh_ ids of the entries they made, in feed order. */
    async function changes(n: number): Promise<string[]> {
      const head = await changeHead(dataSource, office);
      for (let i = 0; i < n; i++) {
        await f.series(office, { name: `Series ${i}` });
      }
      // Read as the feed reads: its head first (on PostgreSQL that numbers the entries waiting).
      await changeHead(dataSource, office);
      const entries = await changePage(dataSource, {
        boxOfficeId: office,
        after: head,
        limit: 100,
      });
      expect(entries).toHaveLength(n);
      return entries.map((entry) => `wh_${entry.id}`);
    }

    const paths = Array.from({ length: ENDPOINTS }, (_, i) => `/hook/${i}`);
    const distinct = (path: string) => [...new Set(got.get(path) ?? [])];

    it('delivers every event to every endpoint once, in feed order, one at a time', async () => {
      for (const [i, path] of paths.entries()) {
        await createEndpoint(servers[i % 2], path);
      }
      const expected = await changes(CHANGES);
      await until('every event at every endpoint', () =>
        paths.every((path) => (got.get(path)?.length ?? 0) >= CHANGES),
      );
      // A moment for a duplicate to arrive, if one were on its way.
      await sleep(500);
      for (const path of paths) {
        expect({ path, ids: got.get(path) }).toEqual({ path, ids: expected });
      }
      expect(overlapped).toBe(false);
    });

    it("takes a killed instance's endpoints over within a lease, at least once and in order", async () => {
      const before = new Map(
        paths.map((path) => [path, got.get(path)!.length]),
      );
      const expected = await changes(CHANGES);
      // Killed while it delivers: its leases are left to expire.
      await sleep(30);
      servers[0].child.kill('SIGKILL');
      await servers[0].exited();
      await until(
        'every event at every endpoint, through the other instance',
        () =>
          paths.every((path) =>
            expected.every((id) => got.get(path)!.includes(id)),
          ),
      );
      for (const path of paths) {
        const after = got.get(path)!.slice(before.get(path));
        // In order, each once but for an event that was in flight when its instance was killed.
        expect({ path, ids: [...new Set(after)] }).toEqual({
          path,
          ids: expected,
        });
        expect(after.length - expected.length).toBeLessThanOrEqual(1);
      }
      servers[0] = await startServer(env(database));
    });

    it('finishes or ends its sends and lets its leases go when stopped with SIGTERM', async () => {
      // Slow answers, so that both instances have sends in flight when they are stopped.
      answerMs = 150;
      const expected = await changes(10);
      await until('deliveries under way', () =>
        paths.some((path) => got.get(path)!.includes(expected[0])),
      );
      const exits = await Promise.all(
        servers.map(async (server) => {
          await server.stop();
          return server.exited();
        }),
      );
      expect(exits).toEqual([
        { code: 0, signal: null },
        { code: 0, signal: null },
      ]);
      const [row] = await dataSource.query<{ n: unknown }[]>(
        `SELECT count(*) AS n FROM webhook_endpoints WHERE lease_until > ${Date.now()}`,
      );
      expect(Number(row.n)).toBe(0);
      answerMs = 3;
      servers = [await startServer(env(database))];
      await until('the events, after the restart', () =>
        paths.every((path) =>
          expected.every((id) => distinct(path).includes(id)),
        ),
      );
      for (const path of paths) {
        const ids = distinct(path);
        expect(ids.slice(ids.indexOf(expected[0]))).toEqual(expected);
      }
    });
  },
);
