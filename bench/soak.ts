import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { Agent } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import Database from 'better-sqlite3';
import { Client } from 'pg';
import { type ServerProcess, freePort, startServer } from './lib/proc';
import { seededRandom } from './lib/random';
import { SERVICE_NODE_FLAGS } from './lib/service';
import {
  type Outcome,
  type SoakClient,
  type SoakData,
  SoakFlows,
} from './lib/soak-flows';

const USAGE = `npm run soak -- [options]

Seeds a database of its own, starts the service on it (the built dist/src/main.js) and sends mixed
traffic over every endpoint on keep-alive connections: lists with filters, cursor walks,
retrievals, 304s (If-None-Match), 404s and 400s. Exits 1 on any 5xx, connection error, time-out
or unexpected status, or when a server's resident set grows more than --max-rss-growth after the
warm-up (the mean of its last 10 s against that of its first 10 s after the warm-up).

  --db sqlite|postgres  default sqlite; postgres: a new database on SOAK_DATABASE_URL, else
                        DATABASE_URL, else postgres://postgres@127.0.0.1:5432/postgres (dropped after)
  --instances N         server processes sharing the traffic (default 1 on sqlite, 2 on postgres);
                        with REDIS_URL set they share their rate-limit counters there
  --connections N       keep-alive connections in all (default 20)
  --duration S          seconds of traffic measured, after the warm-up (default 60)
  --warmup S            seconds of traffic before that, while the heap grows to its working size
                        (default 30)
  --orders N            orders to seed (default 5000)
  --timeout-ms N        a request slower than this counts as a time-out (default 10000)
  --max-rss-growth MB   default 50
  --writer-rate N       changes a second made meanwhile by the development writer
                        (npm run activity, a process of its own), as a sales system would;
                        0: none (default 5). Its failure, or database connections growing by
                        more than 4 per instance after the warm-up (PostgreSQL), fails the soak`;

interface SoakOptions {
  db: 'sqlite' | 'postgres';
  instances: number;
  connections: number;
  duration: number;
  warmup: number;
  orders: number;
  timeoutMs: number;
  maxRssGrowth: number;
  writerRate: number;
}

function parseOptions(argv: string[]): SoakOptions | null {
  const { values } = parseArgs({
    args: argv,
    options: {
      db: { type: 'string', default: 'sqlite' },
      instances: { type: 'string' },
      connections: { type: 'string', default: '20' },
      duration: { type: 'string', default: '60' },
      warmup: { type: 'string', default: '30' },
      orders: { type: 'string', default: '5000' },
      'timeout-ms': { type: 'string', default: '10000' },
      'max-rss-growth': { type: 'string', default: '50' },
      'writer-rate': { type: 'string', default: '5' },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  if (values.help) return null;
  if (values.db !== 'sqlite' && values.db !== 'postgres') {
    throw new Error('--db must be sqlite or postgres');
  }
  const positive = (value: string, name: string) => {
    const n = Number(value);
    if (!Number.isInteger(n) || n < 1)
      throw new Error(`${name} must be a positive integer`);
    return n;
  };
  const options: SoakOptions = {
    db: values.db,
    instances: positive(
      values.instances ?? (values.db === 'sqlite' ? '1' : '2'),
      '--instances',
    ),
    connections: positive(values.connections, '--connections'),
    duration: positive(values.duration, '--duration'),
    warmup: Number(values.warmup),
    orders: positive(values.orders, '--orders'),
    timeoutMs: positive(values['timeout-ms'], '--timeout-ms'),
    maxRssGrowth: positive(values['max-rss-growth'], '--max-rss-growth'),
    writerRate: Number(values['writer-rate']),
  };
  if (!(options.writerRate >= 0)) {
    throw new Error('--writer-rate must be 0 or more');
  }
  if (!(options.warmup >= 0)) throw new Error('--warmup must be 0 or more');
  return options;
}

/** A database of the run's own, seeded by the project's seeder, and how to read and drop it. */
interface SoakDatabase {
  url: string;
  label: string;
  all<T>(sql: string): Promise<T[]>;
  close(): Promise<void>;
}

async function createDatabase(
  kind: 'sqlite' | 'postgres',
): Promise<SoakDatabase> {
  if (kind === 'sqlite') {
    const dir = mkdtempSync(join(tmpdir(), 'boxoffice-soak-'));
    const file = join(dir, 'soak.sqlite');
    let db: Database.Database | null = null;
    return {
      url: `sqlite:${file}`,
      label: file,
      all: <T>(sql: string) => {
        db ??= new Database(file, { readonly: true });
        return Promise.resolve(db.prepare(sql).all() as T[]);
      },
      close: () => {
        db?.close();
        rmSync(dir, { recursive: true, force: true });
        return Promise.resolve();
      },
    };
  }
  const server =
    process.env.SOAK_DATABASE_URL ??
    process.env.DATABASE_URL ??
    'postgres://postgres@127.0.0.1:5432/postgres';
  const name = `boxoffice_soak_${process.pid}`;
  const admin = new Client({ connectionString: server });
  await admin.connect();
  await admin.query(`CREATE DATABASE "${name}"`);
  const url = new URL(server);
  url.pathname = `/${name}`;
  let client: Client | null = null;
  return {
    url: url.toString(),
    label: `${url.host}/${name}`,
    all: async <T>(sql: string) => {
      if (!client) {
        client = new Client({ connectionString: url.toString() });
        await client.connect();
      }
      return (await client.query(sql)).rows as T[];
    },
    close: async () => {
      await client?.end();
      await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      await admin.end();
    },
  };
}

function seed(url: string, orders: number): Promise<void> {
  const cli = join(__dirname, '..', 'seeds', 'seed.cli.js');
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [cli, '--orders', String(orders), '--seed', '1'],
      { env: { ...process.env, DATABASE_URL: url }, stdio: 'inherit' },
    );
    child.on('error', reject);
    child.on('exit', (code) =>
      code === 0 ? resolve() : reject(new Error(`seeder exited with ${code}`)),
    );
  });
}

/** PostgreSQL returns BIGINT and COUNT as strings: every number is read through Number(). */
type Numeric = number | string;

async function readData(db: SoakDatabase): Promise<SoakData> {
  const orders = await db.all<{
    id: Numeric;
    event_id: Numeric;
    status: string;
    buyer_email: string;
    txn_id: string | null;
    created_at: Numeric;
  }>(
    'SELECT id, event_id, status, buyer_email, txn_id, created_at FROM orders WHERE box_office_id = 1 ORDER BY id LIMIT 2000',
  );
  const foreign = await db.all<{ id: Numeric }>(
    'SELECT id FROM orders WHERE box_office_id = 2 ORDER BY id LIMIT 200',
  );
  const events = await db.all<{
    id: Numeric;
    event_series_id: Numeric;
    start_at: Numeric;
  }>(
    'SELECT id, event_series_id, start_at FROM events WHERE box_office_id = 1 ORDER BY id',
  );
  const tickets = await db.all<{
    id: Numeric;
    barcode: string;
    order_id: Numeric;
  }>(
    'SELECT id, barcode, order_id FROM issued_tickets WHERE box_office_id = 1 ORDER BY id LIMIT 2000',
  );
  return {
    orders: orders.map((o) => ({
      id: Number(o.id),
      eventId: Number(o.event_id),
      status: o.status,
      email: o.buyer_email,
      txnId: o.txn_id,
      createdAt: Number(o.created_at),
    })),
    foreignOrders: foreign.map((o) => Number(o.id)),
    events: events.map((e) => ({
      id: Number(e.id),
      seriesId: Number(e.event_series_id),
      startAt: Number(e.start_at),
    })),
    tickets: tickets.map((t) => ({
      id: Number(t.id),
      barcode: t.barcode,
      orderId: Number(t.order_id),
    })),
  };
}

/** Resident set of each server process (MB), from /proc. */
function rssMb(pid: number): number {
  try {
    const match = /^VmRSS:\s+(\d+) kB/m.exec(
      readFileSync(`/proc/${pid}/status`, 'utf8'),
    );
    return match ? Number(match[1]) / 1024 : NaN;
  } catch {
    return NaN;
  }
}

const percentile = (sorted: number[], p: number) =>
  sorted.length === 0
    ? NaN
    : sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))];
const fixed = (n: number) => n.toFixed(1);

async function soak(options: SoakOptions): Promise<boolean> {
  const db = await createDatabase(options.db);
  const servers: ServerProcess[] = [];
  try {
    console.log(
      `Seeding ${options.orders} orders into ${options.db} (${db.label})`,
    );
    await seed(db.url, options.orders);
    if (options.db === 'postgres') await db.all('ANALYZE');
    const flows = new SoakFlows(await readData(db), options.writerRate > 0);

    for (let i = 0; i < options.instances; i++) {
      const port = await freePort();
      servers.push(
        await startServer({
          name: `soak-${i + 1}`,
          args: [
            ...SERVICE_NODE_FLAGS,
            join(__dirname, '..', 'src', 'main.js'),
          ],
          env: {
            DATABASE_URL: db.url,
            PORT: String(port),
            NODE_ENV: 'production',
            LOG_LEVEL: 'warn',
            // The soak measures the API, not 429s.
            RATE_LIMIT_MAX: '1000000000',
            REDIS_KEY_PREFIX: `soak:${process.pid}:`,
          },
          port,
          cpus: null,
        }),
      );
    }

    // The load balancer: connection i goes to server i mod N.
    const agents = servers.map(
      () => new Agent({ keepAlive: true, maxSockets: options.connections }),
    );
    const clients: SoakClient[] = Array.from(
      { length: options.connections },
      (_, i) => ({
        port: servers[i % servers.length].port,
        agent: agents[i % servers.length],
        gzip: i % 2 === 1,
        timeoutMs: options.timeoutMs,
      }),
    );

    console.log(
      `Soaking ${servers.length} instance(s) with ${options.connections} keep-alive connections: ${options.warmup} s warm-up, then ${options.duration} s measured${options.writerRate > 0 ? `, the writer making ${options.writerRate} changes/s` : ''}`,
    );
    const writer =
      options.writerRate > 0
        ? startWriter(
            db.url,
            options.warmup + options.duration,
            options.writerRate,
          )
        : null;
    const started = Date.now();
    const warmEnd = started + options.warmup * 1000;
    const end = warmEnd + options.duration * 1000;
    const outcomes: { at: number; outcome: Outcome }[] = [];
    const rss = servers.map(() => [] as { at: number; mb: number }[]);
    const connections: { at: number; n: number }[] = [];
    const sampleRss = () => {
      servers.forEach((server, i) =>
        rss[i].push({ at: Date.now(), mb: rssMb(server.child.pid!) }),
      );
      if (options.db === 'postgres') {
        const at = Date.now();
        // The servers' connections to the soak's database (not the soak's own).
        void db
          .all<{ n: Numeric }>(
            'SELECT count(*) AS n FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()',
          )
          .then(([row]) => connections.push({ at, n: Number(row.n) }));
      }
    };
    sampleRss();
    const sampler = setInterval(sampleRss, 1000);
    await Promise.all(
      clients.map(async (client, i) => {
        const random = seededRandom(1000 + i);
        while (Date.now() < end) {
          for (const outcome of await flows.next(client, random)) {
            outcomes.push({ at: Date.now(), outcome });
          }
        }
      }),
    );
    clearInterval(sampler);
    sampleRss();
    for (const agent of agents) agent.destroy();
    const written = writer ? await writer.done : null;

    return report(
      options,
      servers,
      outcomes,
      rss,
      warmEnd,
      Date.now() - warmEnd,
      written,
      connections,
    );
  } finally {
    for (const server of servers) await server.stop();
    await db.close();
  }
}

/** What the development writer did: entries printed, and how it ended. */
interface Written {
  entries: number;
  code: number | null;
  errors: string;
}

/**
 * `npm run activity -- run` as a process of its own (its entry, through ts-node, not npm, so that
 * it is one process): a sales system writing while the service serves.
 */
function startWriter(url: string, seconds: number, rate: number) {
  const root = join(__dirname, '..', '..');
  const child = spawn(
    process.execPath,
    [
      require.resolve('ts-node/dist/bin.js'),
      '--transpile-only',
      join(root, 'dev', 'activity.cli.ts'),
      'run',
      '--box-office',
      '1',
      '--duration',
      String(seconds),
      '--rate',
      String(rate),
    ],
    {
      cwd: root,
      env: { ...process.env, DATABASE_URL: url },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let entries = 0;
  let errors = '';
  child.stdout.on('data', (chunk: Buffer) => {
    entries += chunk
      .toString()
      .split('\n')
      .filter((line) => line.startsWith('{')).length;
  });
  child.stderr.on('data', (chunk: Buffer) => (errors += chunk.toString()));
  const done = new Promise<Written>((resolve) =>
    child.on('exit', (code) => resolve({ entries, code, errors })),
  );
  return { done };
}

function report(
  options: SoakOptions,
  servers: ServerProcess[],
  outcomes: { at: number; outcome: Outcome }[],
  rss: { at: number; mb: number }[][],
  warmEnd: number,
  measuredMs: number,
  written: Written | null,
  connections: { at: number; n: number }[],
): boolean {
  const all = outcomes.map(({ outcome }) => outcome);
  const serverErrors = all.filter((o) => o.status !== null && o.status >= 500);
  const timeouts = all.filter((o) => o.error === 'timeout');
  const connectionErrors = all.filter(
    (o) => o.error !== null && o.error !== 'timeout',
  );
  const unexpected = all.filter(
    (o) => o.status !== null && o.status < 500 && o.status !== o.expected,
  );
  const measured = outcomes
    .filter(({ at }) => at >= warmEnd)
    .map(({ outcome }) => outcome.ms)
    .sort((a, b) => a - b);
  const seconds = measuredMs / 1000;
  const count = <K extends string>(key: (o: Outcome) => K) => {
    const counts: Record<string, number> = {};
    for (const o of all) counts[key(o)] = (counts[key(o)] ?? 0) + 1;
    return Object.entries(counts)
      .map(([name, n]) => `${name} ${n}`)
      .join(', ');
  };
  // Means over windows smooth out a collection that happens to fall on one sample.
  const window = Math.min(10_000, (options.duration * 1000) / 4);
  const mean = (values: number[]) =>
    values.reduce((sum, v) => sum + v, 0) / values.length;
  const growth = rss.map((series) => {
    const after = series.filter((s) => s.at >= warmEnd);
    const last = after[after.length - 1].at;
    const first = mean(
      after.filter((s) => s.at <= warmEnd + window).map((s) => s.mb),
    );
    const final = mean(
      after.filter((s) => s.at >= last - window).map((s) => s.mb),
    );
    return {
      first,
      final,
      peak: Math.max(...after.map((s) => s.mb)),
      growth: final - first,
    };
  });

  const lines = [
    '',
    `Soak on ${options.db}: ${servers.length} instance(s), ${options.connections} keep-alive connections, ${options.warmup} s warm-up + ${fixed(seconds)} s measured, ${options.orders} orders`,
    `requests: ${all.length} in all; ${measured.length} measured (${fixed(measured.length / seconds)}/s)`,
    `flows: ${count((o) => o.flow)}`,
    `statuses: ${count((o) => String(o.status ?? 'none'))}`,
    `5xx: ${serverErrors.length}, connection errors: ${connectionErrors.length}, time-outs (> ${options.timeoutMs} ms): ${timeouts.length}, unexpected statuses: ${unexpected.length}`,
    `latency, measured: p50 ${fixed(percentile(measured, 0.5))} ms, p90 ${fixed(percentile(measured, 0.9))} ms, p99 ${fixed(percentile(measured, 0.99))} ms, max ${fixed(measured[measured.length - 1] ?? NaN)} ms`,
    ...rss.map(
      (series, i) =>
        `RSS ${servers[i].name} every 10 s from the start (MB): ${series
          .filter((_, n) => n % 10 === 0)
          .map((s) => Math.round(s.mb))
          .join(' ')}`,
    ),
    ...growth.map(
      (g, i) =>
        `RSS ${servers[i].name}: ${fixed(g.first)} MB just after the warm-up, ${fixed(g.final)} MB at the end (peak ${fixed(g.peak)}): ${g.growth >= 0 ? '+' : ''}${fixed(g.growth)} MB`,
    ),
  ];
  if (written) {
    lines.push(
      `writer: ${written.entries} change entries committed, exit code ${written.code}${written.errors ? ` (it said: ${written.errors.trim().replace(/\s+/g, ' ')})` : ''}`,
    );
  }
  const afterWarmUp = connections
    .filter((c) => c.at >= warmEnd)
    .map((c) => c.n);
  const connectionGrowth =
    afterWarmUp.length > 0 ? Math.max(...afterWarmUp) - afterWarmUp[0] : 0;
  if (afterWarmUp.length > 0) {
    lines.push(
      `database connections after the warm-up: ${afterWarmUp[0]} at first, ${Math.min(...afterWarmUp)}–${Math.max(...afterWarmUp)} in all, ${afterWarmUp[afterWarmUp.length - 1]} at the end`,
    );
  }
  for (const o of [...serverErrors, ...connectionErrors, ...unexpected].slice(
    0,
    10,
  )) {
    lines.push(
      `  e.g. ${o.flow} ${o.path}: got ${o.status ?? o.error}, expected ${o.expected}`,
    );
  }
  const passed =
    serverErrors.length === 0 &&
    connectionErrors.length === 0 &&
    timeouts.length === 0 &&
    unexpected.length === 0 &&
    growth.every((g) => g.growth <= options.maxRssGrowth) &&
    (written === null || (written.code === 0 && written.entries > 0)) &&
    connectionGrowth <= 4 * servers.length;
  lines.push(
    passed
      ? `PASS: no errors or time-outs, RSS growth within ${options.maxRssGrowth} MB`
      : 'FAIL',
  );
  console.log(lines.join('\n'));
  return passed;
}

async function main() {
  const options = parseOptions(process.argv.slice(2));
  if (!options) {
    console.log(USAGE);
    return;
  }
  process.exitCode = (await soak(options)) ? 0 : 1;
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
