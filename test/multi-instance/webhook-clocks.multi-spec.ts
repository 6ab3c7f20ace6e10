import { type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { DataSource } from 'typeorm';
import { changeHead, changePage } from '../../src/changes/change-feed';
import { basicAuth } from '../utils/create-test-app';
import { Factory } from '../utils/factories';
import type { TestDatabase } from '../utils/test-database';
import { type Kind, freshDatabase, openDatabase } from './databases';
import { type ServerProcess, startServer } from './server-process';

// docs/API.md, "Webhooks: Several instances": the leases and retry times are the database's
// clock, so an instance whose own clock drifted cannot take a lease another instance still holds,
// nor hold one past its time. Two instances, one of them 10 minutes ahead (clock-offset.cjs): a
// receiver counting by wh_ id finds every event once, in order, never two sends at once to an
// endpoint; and when the drifted instance is killed, the other takes its endpoints over within a
// lease (with the instance's clock, the lease it left would run 10 minutes more).

const KEY = 'sk_multi_instance_webhook_clocks';
const ENDPOINTS = 4;
const CHANGES = 30;
const DRIFT_MS = 10 * 60 * 1000;

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
  'webhooks from two instances whose clocks differ by 10 minutes, on one %s database',
  (kind) => {
    let database: TestDatabase;
    let dataSource: DataSource;
    let f: Factory;
    let office: number;
    let servers: ServerProcess[] = [];
    let receiver: Server;
    let base: string;
    const got = new Map<string, string[]>();
    const inFlight = new Map<string, number>();
    let overlapped = false;

    const env = (database: TestDatabase) => ({
      DATABASE_URL: database.url,
      RATE_LIMIT_MAX: '1000000',
      WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
      WEBHOOK_POLL_MS: '20',
      WEBHOOK_LEASE_S: '2',
      WEBHOOK_RETRY_SCHEDULE: '1,1,1',
    });
    const drifted = (database: TestDatabase) => ({
      ...env(database),
      NODE_OPTIONS: `--require ${join(__dirname, 'clock-offset.cjs')}`,
      TEST_CLOCK_OFFSET_MS: String(DRIFT_MS),
    });

    beforeAll(async () => {
      database = await freshDatabase(kind);
      dataSource = await openDatabase(database.url);
      f = new Factory(dataSource);
      office = (await f.boxOffice('Clocks')).id;
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
          // Long enough that a second instance sending to the endpoint would overlap this send.
          setTimeout(() => {
            inFlight.set(path, inFlight.get(path)! - 1);
            res.writeHead(200).end();
          }, 30);
        });
      });
      await new Promise<void>((resolve) =>
        receiver.listen(0, '127.0.0.1', resolve),
      );
      base = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
      servers = await Promise.all([
        startServer(env(database)),
        startServer(drifted(database)),
      ]);
    });

    afterAll(async () => {
      await Promise.all(servers.map((server) => server.stop()));
      await new Promise<void>((resolve) => receiver?.close(() => resolve()));
      await dataSource?.destroy();
      await database?.drop();
    });

    async function changes(n: number): Promise<string[]> {
      const head = await changeHead(dataSource, office);
      for (let i = 0; i < n; i++) {
        await f.series(office, { name: `Series ${i}` });
      }
      await changeHead(dataSource, office);
      const entries = await changePage(dataSource, {
        boxOfficeId: office,
        after: head,
        limit: 100,
      });
      expect(entries).toHaveLength(n);
      return entries.map((entry) => `wh_${entry.id}`);
    }

    const paths = Array.from({ length: ENDPOINTS }, (_, i) => `/clock/${i}`);

    it('takes no lease another instance holds: every event once, in order, one at a time', async () => {
      for (const [i, path] of paths.entries()) {
        const res = await fetch(`${servers[i % 2].url}/v1/webhook_endpoints`, {
          method: 'POST',
          headers: {
            Authorization: basicAuth(KEY),
            'Content-Type': 'application/json',
          },
          body: JSON.stringify({
            url: `${base}${path}`,
            enabled_events: ['*'],
          }),
        });
        expect(res.status).toBe(201);
      }
      const expected = await changes(CHANGES);
      await until('every event at every endpoint', () =>
        paths.every((path) => (got.get(path)?.length ?? 0) >= CHANGES),
      );
      await sleep(500);
      for (const path of paths) {
        expect({ path, ids: got.get(path) }).toEqual({ path, ids: expected });
      }
      expect(overlapped).toBe(false);
    });

    it("takes the drifted instance's endpoints over within a lease when it is killed", async () => {
      const before = new Map(
        paths.map((path) => [path, got.get(path)!.length]),
      );
      const expected = await changes(CHANGES);
      await until('the drifted instance sending', () =>
        paths.some((path) => got.get(path)!.length > before.get(path)!),
      );
      servers[1].child.kill('SIGKILL');
      await servers[1].exited();
      servers = [servers[0]];
      // Well within 10 minutes: a lease (2 s) and the sends left, at 30 ms each.
      await until(
        'every event at every endpoint, through the other instance',
        () =>
          paths.every((path) =>
            expected.every((id) => got.get(path)!.includes(id)),
          ),
        20_000,
      );
      for (const path of paths) {
        const after = got.get(path)!.slice(before.get(path));
        expect({ path, ids: [...new Set(after)] }).toEqual({
          path,
          ids: expected,
        });
        expect(after.length - expected.length).toBeLessThanOrEqual(1);
      }
      expect(overlapped).toBe(false);
    });
  },
);
