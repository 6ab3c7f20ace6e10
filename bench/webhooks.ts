/**
 * Webhook delivery, measured against the built service (`npm run build` first): one instance of
 * dist/src/main.js on a fresh database, a receiver on the loopback interface answering 200 at
 * once, and changes written to the database as a sales system writes them (an event series
 * renamed: one EVENT_SERIES.UPDATED entry each, written by the triggers).
 *
 * - lag: 10 endpoints, changes at a steady 50 a second for `--seconds`; the lag of a delivery is
 *   from the moment its change committed (seen by the writer) to its arrival at the receiver.
 * - throughput: 20 endpoints disabled while `--backlog` changes are written, then enabled at once;
 *   deliveries a second from the enabling to the last arrival. On PostgreSQL `--pg-stats` prints
 *   what each statement cost the database meanwhile (pg_stat_statements, this database only).
 * - outage: one endpoint whose receiver is down (connections refused) for `--outage-minutes`
 *   under a writer at 20 changes a second, then back: when the endpoint's next attempt came (the
 *   retry interval then in effect, WEBHOOK_RETRY_SCHEDULE `--retry-schedule`), when every event
 *   written until the receiver came back had arrived, and whether every event arrived, in order.
 * - reads: reads beside 500 deliveries a second, against the same reads without (reads()).
 *
 *   npx ts-node --transpile-only bench/webhooks.ts [--database sqlite|postgres]
 *     [--scenarios lag,throughput,outage,reads] [--seconds 20] [--backlog 1000] [--pg-stats]
 *     [--outage-minutes 10] [--retry-schedule 5,60,120,240,480] [--main dist/src/main.js]
 *
 * Results: bench/README.md, "Webhooks". Each run starts on a new database and drops it after.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import { Client } from 'pg';
import { DataSource } from 'typeorm';
import { hashApiKey, displayPrefix } from '../src/auth/api-key-format';
import { changeHead } from '../src/changes/change-feed';
import { buildDataSourceOptions } from '../src/database/data-source-options';
import { runMigrations } from '../src/database/migrate';

const KEY = 'sk_bench_webhooks_0123456789abcdefghijklmnop';
const { values: args } = parseArgs({
  options: {
    database: { type: 'string', default: 'sqlite' },
    seconds: { type: 'string', default: '20' },
    backlog: { type: 'string', default: '1000' },
    scenarios: { type: 'string', default: 'lag,throughput' },
    // Another build to measure, e.g. the one before a change, copied inside the repository.
    main: { type: 'string', default: 'dist/src/main.js' },
    'pg-stats': { type: 'boolean', default: false },
    'outage-minutes': { type: 'string', default: '10' },
    // The default schedule's 5 s, 5 min, 30 min would make a 10-minute outage wait 35 minutes;
    // these waits cover 10 minutes in fewer, shorter steps (the endpoint is never disabled).
    'retry-schedule': { type: 'string', default: '5,60,120,240,480' },
  },
});
const scenarios = new Set(args.scenarios.split(','));

async function freshDatabase(): Promise<string> {
  if (args.database === 'sqlite') {
    return `sqlite:${join(tmpdir(), `bench-webhooks-${process.pid}.sqlite`)}`;
  }
  const name = `bench_webhooks_${process.pid}`;
  const admin = new Client({
    connectionString: 'postgres://postgres@127.0.0.1:5432/postgres',
  });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS ${name}`);
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  return `postgres://postgres@127.0.0.1:5432/${name}`;
}

/** CPU time a process has used, in ms (Linux: utime + stime of /proc/<pid>/stat, 100 ticks a second). */
function cpuMs(pid: number | undefined): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8')
    .split(') ')[1]
    .split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

function percentile(sorted: number[], p: number): number {
  return sorted[
    Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))
  ];
}

async function main() {
  const url = await freshDatabase();
  const target = url.startsWith('sqlite:')
    ? { type: 'sqlite' as const, database: url.slice('sqlite:'.length) }
    : { type: 'postgres' as const, url };
  const db = new DataSource(buildDataSourceOptions(target));
  await db.initialize();
  await runMigrations(db);
  const [office] = await db.query<{ id: unknown }[]>(
    "INSERT INTO box_offices (name, created_at) VALUES ('Bench', 1700000000) RETURNING id",
  );
  const officeId = Number(office.id);
  await db.query(
    `INSERT INTO api_keys (box_office_id, name, key_hash, key_prefix, scope, created_at)
     VALUES (${officeId}, 'bench', '${hashApiKey(KEY)}', '${displayPrefix(KEY)}', 'write', 1700000000)`,
  );
  const [series] = await db.query<{ id: unknown }[]>(
    `INSERT INTO event_series (box_office_id, name, currency, timezone, created_at, url, image_header_url, image_thumbnail_url)
     VALUES (${officeId}, 'Bench', 'gbp', 'Europe/London', 1700000000, 'https://x.example/s', 'https://x.example/h.jpg', 'https://x.example/t.jpg')
     RETURNING id`,
  );
  const seriesId = Number(series.id);

  /** When each change committed (ms), by its number. */
  const committed = new Map<number, number>();
  let renames = 0;
  async function change() {
    await db.query(
      `UPDATE event_series SET name = 'Bench ${++renames}' WHERE id = ${seriesId}`,
    );
    committed.set(await changeHead(db, officeId), performance.now());
  }

  const arrivals: { path: string; id: number; at: number }[] = [];
  const receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const at = performance.now();
      const { id } = JSON.parse(Buffer.concat(chunks).toString()) as {
        id: string;
      };
      arrivals.push({ path: req.url ?? '/', id: Number(id.slice(3)), at });
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) =>
    receiver.listen(0, '127.0.0.1', resolve),
  );
  const hook = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;

  const port = 3900 + (process.pid % 90);
  const server: ChildProcess = spawn(
    process.execPath,
    ['--max-semi-space-size=16', args.main],
    {
      env: {
        ...process.env,
        NODE_ENV: 'production',
        DATABASE_URL: url,
        PORT: String(port),
        LOG_LEVEL: 'warn',
        RATE_LIMIT_MAX: '100000000',
        WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
        WEBHOOK_RETRY_SCHEDULE: args['retry-schedule'],
      },
      stdio: ['ignore', 'ignore', 'inherit'],
    },
  );
  const api = `http://127.0.0.1:${port}`;
  for (;;) {
    try {
      if ((await fetch(`${api}/v1/ping`)).ok) break;
    } catch {
      await sleep(100);
    }
  }
  const auth = `Basic ${Buffer.from(`${KEY}:`).toString('base64')}`;
  const post = async (path: string, body: unknown) => {
    const res = await fetch(`${api}${path}`, {
      method: 'POST',
      headers: { Authorization: auth, 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
    });
    if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`);
    return (await res.json()) as { id: string };
  };

  if (scenarios.has('lag')) await lag();
  if (scenarios.has('throughput')) await throughput();
  if (scenarios.has('outage')) await outage();
  if (scenarios.has('reads')) await reads();

  /**
   * Reads with and without deliveries: a writer at 50 changes a second throughout, 10 endpoints
   * listening to an event never written (A: each passes over the entries, a feed page per 100,
   * nothing sent and no backlog kept) or to every event (B: 500 deliveries a second), in
   * alternating rounds of `--seconds`; 10 connections read the
   * series (its retrieval) and the feed at its head (a poller) flat out. The ratio B ÷ A is what
   * deliveries cost the reads beside them.
   */
  async function reads() {
    const ids: string[] = [];
    for (let i = 0; i < 10; i++) {
      const { id } = await post('/v1/webhook_endpoints', {
        url: `${hook}/reads/${i}`,
        enabled_events: ['ORDER.DELETED'],
      });
      ids.push(id);
    }
    let writing = true;
    let written = 0;
    const writer = (async () => {
      const start = performance.now();
      while (writing) {
        const wait = start + written * 20 - performance.now();
        if (wait > 0) await sleep(wait);
        await change();
        written++;
      }
    })();
    const paths = [`/v1/event_series/es_${seriesId}`, '/v1/changes?limit=1'];
    async function round(): Promise<number> {
      let done = 0;
      const until = performance.now() + Number(args.seconds) * 1000;
      await Promise.all(
        Array.from({ length: 10 }, async (_, c) => {
          for (let n = c; performance.now() < until; n++) {
            const res = await fetch(`${api}${paths[n % 2]}`, {
              headers: { Authorization: auth },
            });
            await res.arrayBuffer();
            if (!res.ok) throw new Error(`read: ${res.status}`);
            done++;
          }
        }),
      );
      return done / Number(args.seconds);
    }
    const listen = (events: string[]) =>
      Promise.all(
        ids.map((id) =>
          post(`/v1/webhook_endpoints/${id}`, { enabled_events: events }),
        ),
      );
    const ratios: string[] = [];
    for (let r = 0; r < 3; r++) {
      await listen(['ORDER.DELETED']);
      await sleep(1000);
      const alone = await round();
      await listen(['*']);
      await sleep(1000);
      const beside = await round();
      ratios.push(
        `${alone.toFixed(0)} → ${beside.toFixed(0)} req/s (${(beside / alone).toFixed(2)}×)`,
      );
    }
    writing = false;
    await writer;
    const delivered = arrivals.filter((a) =>
      a.path.startsWith('/reads/'),
    ).length;
    console.log(
      `reads (series retrieval and a feed page, 10 connections) without → with deliveries, a writer at 50 changes/s throughout, 3 rounds of ${args.seconds} s: ${ratios.join('; ')}; ${delivered} deliveries made meanwhile`,
    );
  }

  // Lag: 10 endpoints, 50 changes a second.
  async function lag() {
    for (let i = 0; i < 10; i++) {
      await post('/v1/webhook_endpoints', {
        url: `${hook}/lag/${i}`,
        enabled_events: ['*'],
      });
    }
    const seconds = Number(args.seconds);
    const start = performance.now();
    for (let n = 0; n < seconds * 50; n++) {
      const due = start + n * 20;
      const wait = due - performance.now();
      if (wait > 0) await sleep(wait);
      await change();
    }
    const lagTotal = seconds * 50 * 10;
    while (
      arrivals.filter((a) => a.path.startsWith('/lag/')).length < lagTotal
    ) {
      await sleep(100);
    }
    const lags = arrivals
      .filter((a) => a.path.startsWith('/lag/'))
      .map((a) => a.at - committed.get(a.id)!)
      .sort((a, b) => a - b);
    console.log(
      `lag at 50 changes/s, 10 endpoints, ${lags.length} deliveries: p50 ${percentile(lags, 50).toFixed(0)} ms, p99 ${percentile(lags, 99).toFixed(0)} ms, max ${lags[lags.length - 1].toFixed(0)} ms`,
    );
  }

  // Throughput: 20 endpoints with a backlog each, enabled at once.
  async function throughput() {
    const ids: string[] = [];
    for (let i = 0; i < 20; i++) {
      const { id } = await post('/v1/webhook_endpoints', {
        url: `${hook}/bulk/${i}`,
        enabled_events: ['*'],
      });
      await post(`/v1/webhook_endpoints/${id}`, { status: 'disabled' });
      ids.push(id);
    }
    const backlog = Number(args.backlog);
    for (let n = 0; n < backlog; n++) await change();
    await sleep(1000);
    const stats = args['pg-stats'] && !url.startsWith('sqlite:');
    if (stats) {
      await db.query('CREATE EXTENSION IF NOT EXISTS pg_stat_statements');
      await db.query(
        'SELECT pg_stat_statements_reset(0, (SELECT oid FROM pg_database WHERE datname = current_database()), 0)',
      );
    }
    const enabled = performance.now();
    const cpuBefore = cpuMs(server.pid);
    await Promise.all(
      ids.map((id) =>
        post(`/v1/webhook_endpoints/${id}`, { status: 'enabled' }),
      ),
    );
    const bulkTotal = backlog * 20;
    while (
      arrivals.filter((a) => a.path.startsWith('/bulk/')).length < bulkTotal
    ) {
      await sleep(100);
    }
    const last = Math.max(
      ...arrivals.filter((a) => a.path.startsWith('/bulk/')).map((a) => a.at),
    );
    console.log(
      `throughput, one instance, 20 endpoints × ${backlog} events: ${bulkTotal} deliveries in ${((last - enabled) / 1000).toFixed(1)} s, ${(bulkTotal / ((last - enabled) / 1000)).toFixed(0)} deliveries/s; the service's CPU ${((cpuMs(server.pid) - cpuBefore) / bulkTotal).toFixed(2)} ms a delivery`,
    );
    if (stats) {
      const top = await db.query<Record<string, unknown>[]>(
        `SELECT calls, round(total_exec_time::numeric, 0) AS total_ms,
              round((total_exec_time / nullif(calls, 0))::numeric, 3) AS mean_ms, rows,
              left(regexp_replace(query, '\\s+', ' ', 'g'), 110) AS query
         FROM pg_stat_statements
        WHERE dbid = (SELECT oid FROM pg_database WHERE datname = current_database())
        ORDER BY total_exec_time DESC LIMIT 15`,
      );
      console.log(
        'pg_stat_statements during the throughput phase, by total time:',
      );
      console.table(top);
    }
  }

  // A receiver down for --outage-minutes under a writer at 20 changes a second.
  async function outage() {
    const down = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const { id } = JSON.parse(Buffer.concat(chunks).toString()) as {
          id: string;
        };
        arrivals.push({
          path: '/down',
          id: Number(id.slice(3)),
          at: performance.now(),
        });
        res.writeHead(200).end();
      });
    });
    await new Promise<void>((resolve) => down.listen(0, '127.0.0.1', resolve));
    const downPort = (down.address() as AddressInfo).port;
    const { id: endpointId } = await post('/v1/webhook_endpoints', {
      url: `http://127.0.0.1:${downPort}/down`,
      enabled_events: ['*'],
    });
    const first = (await changeHead(db, officeId)) + 1;
    // Down: connections refused from now on.
    down.closeAllConnections();
    await new Promise<void>((resolve) => down.close(() => resolve()));
    const wentDown = performance.now();
    let writing = true;
    let written = 0;
    const writer = (async () => {
      const start = performance.now();
      while (writing) {
        const wait = start + written * 50 - performance.now();
        if (wait > 0) await sleep(wait);
        await change();
        written++;
      }
    })();
    await sleep(Number(args['outage-minutes']) * 60_000);
    const [state] = await db.query<Record<string, unknown>[]>(
      `SELECT failures, next_attempt_at, ${url.startsWith('sqlite:') ? "CAST(unixepoch('subsec') * 1000 AS INTEGER)" : 'floor(extract(epoch FROM clock_timestamp()) * 1000)::bigint'} AS now_ms
         FROM webhook_endpoints WHERE id = ${endpointId.slice(3)}`,
    );
    const backlogThrough = await changeHead(db, officeId);
    await new Promise<void>((resolve) =>
      down.listen(downPort, '127.0.0.1', resolve),
    );
    const backAt = performance.now();
    const schedule = args['retry-schedule'].split(',').map(Number);
    const failures = Number(state.failures);
    const nextInS =
      (Number(state.next_attempt_at) - Number(state.now_ms)) / 1000;
    const got = () => arrivals.filter((a) => a.path === '/down');
    while (!got().some((a) => a.id >= backlogThrough)) await sleep(200);
    const caughtUp = performance.now();
    const firstBack = got()[0]?.at ?? caughtUp;
    writing = false;
    await writer;
    const last = await changeHead(db, officeId);
    while (!got().some((a) => a.id >= last)) await sleep(200);
    const ids = got().map((a) => a.id);
    const distinct = [...new Set(ids)];
    const inOrder = distinct.every((id, i) => i === 0 || id > distinct[i - 1]);
    const missing =
      last -
      first +
      1 -
      distinct.filter((id) => id >= first && id <= last).length;
    console.log(
      `outage: receiver down ${((backAt - wentDown) / 60_000).toFixed(1)} min under 20 changes/s (${backlogThrough - first + 1} events waiting when it came back, after ${failures} failed attempts; the next was due in ${nextInS.toFixed(0)} s, retry interval ${schedule[failures - 1] ?? '–'} s); first delivery ${((firstBack - backAt) / 1000).toFixed(1)} s after it came back, every waiting event delivered ${((caughtUp - backAt) / 1000).toFixed(1)} s after (${((caughtUp - firstBack) / 1000).toFixed(1)} s from the first); ${last - first + 1} events in all: ${missing} missing, ${ids.length - distinct.length} sent twice, in order: ${inOrder ? 'yes' : 'NO'}`,
    );
    down.close();
  }

  server.kill('SIGTERM');
  await new Promise((resolve) => server.once('exit', resolve));
  receiver.close();
  await db.destroy();
  await dropDatabase(url);
}

async function dropDatabase(url: string) {
  if (url.startsWith('sqlite:')) {
    const file = url.slice('sqlite:'.length);
    for (const suffix of ['', '-wal', '-shm'])
      rmSync(`${file}${suffix}`, { force: true });
    return;
  }
  const admin = new Client({
    connectionString: 'postgres://postgres@127.0.0.1:5432/postgres',
  });
  await admin.connect();
  await admin.query(
    `DROP DATABASE IF EXISTS ${new URL(url).pathname.slice(1)}`,
  );
  await admin.end();
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
