import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { type Socket, connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import Database from 'better-sqlite3';
import { displayPrefix, hashApiKey } from '../src/auth/api-key-format';
import { type ServerProcess, freePort, startServer } from './lib/proc';
import { SERVICE_NODE_FLAGS } from './lib/service';

const USAGE = `npm run hostile -- [options]

Seeds an SQLite database of its own, starts the service on it (the built dist/src/main.js, default
HTTP settings) on loopback, and runs one hostile client at a time against it while a normal client
keeps sending ordinary requests, measuring the normal requests' latency and the server's resident
set. Then compares the time of a 401 for an unknown key with that for a revoked key.

Scenarios (each bounded in connections and time):
  idle         1,000 keep-alive connections that sent one request and then say nothing (reopened
               when the server closes them)
  slowloris    500 connections trickling their headers one byte every 200 ms
  slow-readers 200 connections requesting the largest pages (100 events; 100 orders) and never
               reading; runs past HTTP_SOCKET_TIMEOUT_MS to show them dropped
  get-bodies   50 GET requests with a 1 GB Content-Length and 50 with an endless chunked body, each
               sending as fast as the server reads (reopened when closed)
  cancelled    20 loops requesting the largest page and resetting the connection at its first bytes
  auth-timing  --auth-requests 401s for an unknown key and as many for a revoked one, interleaved;
               then as many 404s for another box office's order and for an id nobody has

Exits 1 when a normal request fails, or its p99 during a scenario is 100 ms or more.

  --orders N          orders to seed (default 2000)
  --seconds S         seconds per scenario (default 15; slow-readers runs 35)
  --auth-requests N   default 3000
  --only a,b          run only these scenarios`;

const SCENARIOS = [
  'idle',
  'slowloris',
  'slow-readers',
  'get-bodies',
  'cancelled',
] as const;
type ScenarioName = (typeof SCENARIOS)[number];

const DEMO_KEY = 'sk_demo_boxoffice_1';
const REVOKED_KEY = 'sk_bench_revoked_key_0123456789';
const UNKNOWN_KEY = 'sk_bench_unknown_key_0123456789';
const basic = (key: string) =>
  `Basic ${Buffer.from(`${key}:`).toString('base64')}`;
const AUTH = basic(DEMO_KEY);

/** What the attackers request: the biggest pages the API serves. */
const LARGEST_PAGES = ['/v1/events?limit=100', '/v1/orders?limit=100'];

interface Options {
  orders: number;
  seconds: number;
  authRequests: number;
  only: Set<string> | null;
}

function parseOptions(argv: string[]): Options | null {
  const { values } = parseArgs({
    args: argv,
    options: {
      orders: { type: 'string', default: '2000' },
      seconds: { type: 'string', default: '15' },
      'auth-requests': { type: 'string', default: '3000' },
      only: { type: 'string' },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  if (values.help) return null;
  const positive = (value: string, name: string) => {
    const n = Number(value);
    if (!Number.isInteger(n) || n < 1)
      throw new Error(`${name} must be a positive integer`);
    return n;
  };
  const only = values.only ? new Set(values.only.split(',')) : null;
  for (const name of only ?? []) {
    if (![...SCENARIOS, 'auth-timing', 'baseline'].includes(name))
      throw new Error(`unknown scenario ${name}`);
  }
  return {
    orders: positive(values.orders, '--orders'),
    seconds: positive(values.seconds, '--seconds'),
    authRequests: positive(values['auth-requests'], '--auth-requests'),
    only,
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

/** A revoked key of box office 1, beside the demo's live one. */
function addRevokedKey(file: string): void {
  const db = new Database(file);
  try {
    db.prepare(
      `INSERT INTO api_keys (box_office_id, name, key_hash, key_prefix, created_at, revoked_at)
       VALUES (1, 'revoked for the bench', ?, ?, 0, 1)`,
    ).run(hashApiKey(REVOKED_KEY), displayPrefix(REVOKED_KEY));
  } finally {
    db.close();
  }
}

function rssMb(pid: number): number {
  const match = /^VmRSS:\s+(\d+) kB/m.exec(
    readFileSync(`/proc/${pid}/status`, 'utf8'),
  );
  return match ? Number(match[1]) / 1024 : NaN;
}

/** The server's established connections on its port, from /proc/net/tcp and tcp6. */
function serverConnections(port: number): number {
  const local = `:${port.toString(16).toUpperCase().padStart(4, '0')}`;
  let count = 0;
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    let text = '';
    try {
      text = readFileSync(table, 'utf8');
    } catch {
      continue;
    }
    for (const line of text.split('\n').slice(1)) {
      const fields = line.trim().split(/\s+/);
      // local address, remote address, state (01: established)
      if (fields[1]?.endsWith(local) && fields[3] === '01') count++;
    }
  }
  return count;
}

const percentile = (sorted: number[], p: number) =>
  sorted.length === 0
    ? NaN
    : sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))];

/** One GET on a keep-alive agent: its status and time, or the error. */
function timedGet(
  port: number,
  agent: Agent,
  path: string,
  authorization: string,
): Promise<{ ms: number; status: number | null; error: string | null }> {
  const started = performance.now();
  return new Promise((resolve) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        path,
        agent,
        headers: { Authorization: authorization },
        timeout: 10_000,
      },
      (res) => {
        res.resume();
        res.on('end', () =>
          resolve({
            ms: performance.now() - started,
            status: res.statusCode ?? 0,
            error: null,
          }),
        );
      },
    );
    req.on('timeout', () => req.destroy(new Error('time-out')));
    req.on('error', (error) =>
      resolve({
        ms: performance.now() - started,
        status: null,
        error: error.message,
      }),
    );
    req.end();
  });
}

/**
 * The normal client: 4 keep-alive connections sending list pages and retrievals with 10 ms
 * between requests, until stopped. Returns every latency and the requests that failed.
 */
function normalTraffic(port: number) {
  const agent = new Agent({ keepAlive: true, maxSockets: 4 });
  const times: number[] = [];
  const failures: string[] = [];
  let running = true;
  const paths = ['/v1/orders?limit=10', '/v1/orders/or_1', '/v1/events/ev_1'];
  const loop = async (i: number) => {
    for (let n = i; running; n++) {
      const path = paths[n % paths.length];
      const res = await timedGet(port, agent, path, AUTH);
      if (res.status === 200) times.push(res.ms);
      else failures.push(`${path}: ${res.status ?? res.error}`);
      await sleep(10);
    }
  };
  const loops = [0, 1, 2, 3].map(loop);
  return {
    stop: async () => {
      running = false;
      await Promise.all(loops);
      agent.destroy();
      return { times: times.sort((a, b) => a - b), failures };
    },
  };
}

/** An attacker: connections it keeps up, what happened to them, and how to stop it. */
interface Attack {
  stats: Record<string, number>;
  stop(): void;
}

/** Opens a socket, counting its fate; `onClose` reopens while the attack runs. */
function openSocket(
  port: number,
  stats: Record<string, number>,
  sockets: Set<Socket>,
  onClose: () => void,
): Socket {
  const socket = connect(port, '127.0.0.1');
  sockets.add(socket);
  stats.opened = (stats.opened ?? 0) + 1;
  socket.on('error', (error: NodeJS.ErrnoException) => {
    const key = `error ${error.code ?? error.message}`;
    stats[key] = (stats[key] ?? 0) + 1;
  });
  socket.on('close', () => {
    sockets.delete(socket);
    onClose();
  });
  return socket;
}

function countStatus(stats: Record<string, number>, data: Buffer) {
  const status = /^HTTP\/1\.1 (\d{3})/.exec(data.toString('latin1'))?.[1];
  if (status)
    stats[`answered ${status}`] = (stats[`answered ${status}`] ?? 0) + 1;
}

/** N sockets kept open by `start(socket)`, each reopened when the server closes it. */
function holdSockets(
  port: number,
  count: number,
  start: (socket: Socket, stats: Record<string, number>) => void,
): Attack {
  const stats: Record<string, number> = {};
  const sockets = new Set<Socket>();
  let running = true;
  const open = () => {
    const socket = openSocket(port, stats, sockets, () => {
      if (!running) return;
      stats['closed by the server'] = (stats['closed by the server'] ?? 0) + 1;
      setTimeout(open, 50);
    });
    socket.once('connect', () => start(socket, stats));
  };
  for (let i = 0; i < count; i++) open();
  return {
    stats,
    stop: () => {
      running = false;
      for (const socket of sockets) socket.destroy();
    },
  };
}

const attacks: Record<ScenarioName, (port: number) => Attack> = {
  idle: (port) =>
    holdSockets(port, 1_000, (socket, stats) => {
      socket.once('data', (data: Buffer) => countStatus(stats, data));
      socket.write(
        'GET /v1/ping HTTP/1.1\r\nHost: x\r\nConnection: keep-alive\r\n\r\n',
      );
    }),
  slowloris: (port) =>
    holdSockets(port, 500, (socket, stats) => {
      const head = `GET /v1/orders HTTP/1.1\r\nHost: x\r\nAuthorization: ${AUTH}\r\n${'X-Slow: 1\r\n'.repeat(1000)}`;
      let sent = 0;
      const timer = setInterval(() => {
        if (socket.destroyed || sent >= head.length) clearInterval(timer);
        else socket.write(head[sent++]);
      }, 200);
      socket.once('data', (data: Buffer) => countStatus(stats, data));
      socket.once('close', () => clearInterval(timer));
    }),
  'slow-readers': (port) =>
    holdSockets(port, 200, (socket) => {
      // Never read: the server's writes fill the socket's buffers, then wait.
      socket.pause();
      for (const path of LARGEST_PAGES) {
        socket.write(
          `GET ${path} HTTP/1.1\r\nHost: x\r\nAuthorization: ${AUTH}\r\nConnection: keep-alive\r\n\r\n`,
        );
      }
    }),
  'get-bodies': (port) =>
    holdSockets(port, 100, (socket, stats) => {
      const chunked = (stats.opened ?? 0) % 2 === 0;
      socket.write(
        `GET /v1/orders?limit=100 HTTP/1.1\r\nHost: x\r\nAuthorization: ${AUTH}\r\nConnection: keep-alive\r\n` +
          (chunked
            ? 'Transfer-Encoding: chunked\r\n\r\n'
            : `Content-Length: ${1024 ** 3}\r\n\r\n`),
      );
      socket.once('data', (data: Buffer) => countStatus(stats, data));
      socket.on('data', () => undefined);
      const piece = Buffer.alloc(64 * 1024, 'a');
      const framed = chunked
        ? Buffer.concat([Buffer.from('10000\r\n'), piece, Buffer.from('\r\n')])
        : piece;
      // As fast as the server takes it.
      const pump = () => {
        while (!socket.destroyed && socket.write(framed));
      };
      socket.on('drain', pump);
      pump();
    }),
  cancelled: (port) => {
    const stats: Record<string, number> = {};
    const sockets = new Set<Socket>();
    let running = true;
    const loop = (n: number) => {
      if (!running) return;
      const socket = openSocket(port, stats, sockets, () => loop(n + 1));
      socket.once('connect', () =>
        socket.write(
          `GET ${LARGEST_PAGES[n % 2]} HTTP/1.1\r\nHost: x\r\nAuthorization: ${AUTH}\r\n\r\n`,
        ),
      );
      socket.once('data', () => {
        stats.cancelled = (stats.cancelled ?? 0) + 1;
        socket.resetAndDestroy();
      });
    };
    for (let i = 0; i < 20; i++) loop(i);
    return {
      stats,
      stop: () => {
        running = false;
        for (const socket of sockets) socket.destroy();
      },
    };
  },
};

interface ScenarioResult {
  name: string;
  seconds: number;
  normal: number;
  failures: string[];
  p50: number;
  p99: number;
  max: number;
  rssBefore: number;
  rssPeak: number;
  rssAfter: number;
  connectionsPeak: number;
  connectionsAtEnd: number;
  stats: Record<string, number>;
}

async function runScenario(
  server: ServerProcess,
  name: ScenarioName | 'baseline',
  seconds: number,
): Promise<ScenarioResult> {
  const pid = server.child.pid!;
  const rssBefore = rssMb(pid);
  let rssPeak = rssBefore;
  let connectionsPeak = 0;
  const sampler = setInterval(() => {
    rssPeak = Math.max(rssPeak, rssMb(pid));
    connectionsPeak = Math.max(connectionsPeak, serverConnections(server.port));
  }, 250);
  const attack = name === 'baseline' ? null : attacks[name](server.port);
  // The attack settles in (its connections open) before the measured traffic starts.
  await sleep(1_000);
  const normal = normalTraffic(server.port);
  await sleep(seconds * 1000);
  const { times, failures } = await normal.stop();
  const connectionsAtEnd = serverConnections(server.port);
  attack?.stop();
  clearInterval(sampler);
  // The server lets go of the attack's connections before the next scenario.
  await sleep(3_000);
  return {
    name,
    seconds,
    normal: times.length,
    failures,
    p50: percentile(times, 0.5),
    p99: percentile(times, 0.99),
    max: times.at(-1) ?? NaN,
    rssBefore,
    rssPeak,
    rssAfter: rssMb(pid),
    connectionsPeak,
    connectionsAtEnd,
    stats: attack?.stats ?? {},
  };
}

/** Mann-Whitney U (normal approximation with tie correction): z and two-sided p. */
function mannWhitney(a: number[], b: number[]): { z: number; p: number } {
  const all = [
    ...a.map((v) => ({ v, g: 0 })),
    ...b.map((v) => ({ v, g: 1 })),
  ].sort((x, y) => x.v - y.v);
  const ranks: number[] = Array.from({ length: all.length }, () => 0);
  let tieTerm = 0;
  for (let i = 0; i < all.length;) {
    let j = i;
    while (j + 1 < all.length && all[j + 1].v === all[i].v) j++;
    const rank = (i + j) / 2 + 1;
    for (let k = i; k <= j; k++) ranks[k] = rank;
    const t = j - i + 1;
    tieTerm += t ** 3 - t;
    i = j + 1;
  }
  const n1 = a.length;
  const n2 = b.length;
  const r1 = all.reduce((sum, x, i) => sum + (x.g === 0 ? ranks[i] : 0), 0);
  const u = r1 - (n1 * (n1 + 1)) / 2;
  const n = n1 + n2;
  const sigma = Math.sqrt(((n1 * n2) / 12) * (n + 1 - tieTerm / (n * (n - 1))));
  const z = (u - (n1 * n2) / 2) / sigma;
  return { z, p: 2 * (1 - normalCdf(Math.abs(z))) };
}

/** Two-sample Kolmogorov-Smirnov: D and its asymptotic p. */
function kolmogorovSmirnov(a: number[], b: number[]): { d: number; p: number } {
  const x = [...a].sort((p, q) => p - q);
  const y = [...b].sort((p, q) => p - q);
  let i = 0;
  let j = 0;
  let d = 0;
  while (i < x.length && j < y.length) {
    const v = Math.min(x[i], y[j]);
    while (i < x.length && x[i] <= v) i++;
    while (j < y.length && y[j] <= v) j++;
    d = Math.max(d, Math.abs(i / x.length - j / y.length));
  }
  const ne = (x.length * y.length) / (x.length + y.length);
  const lambda = (Math.sqrt(ne) + 0.12 + 0.11 / Math.sqrt(ne)) * d;
  let p = 0;
  for (let k = 1; k <= 100; k++) {
    p += 2 * (-1) ** (k - 1) * Math.exp(-2 * k * k * lambda * lambda);
  }
  return { d, p: Math.min(1, Math.max(0, p)) };
}

function normalCdf(z: number): number {
  // Abramowitz and Stegun 7.1.26, through erf.
  const t = 1 / (1 + 0.3275911 * (z / Math.SQRT2));
  const erf =
    1 -
    t *
      (0.254829592 +
        t *
          (-0.284496736 +
            t * (1.421413741 + t * (-1.453152027 + t * 1.061405429)))) *
      Math.exp(-((z / Math.SQRT2) ** 2));
  return 0.5 * (1 + erf);
}

/** One side of a timing comparison: a request and the label it is printed under. */
interface Timed {
  label: string;
  path: string;
  authorization: string;
}

/**
 * `requests` of each of two requests, interleaved (which goes first alternates, so that drift
 * affects both alike) on one keep-alive connection each, after 100 of each to warm up.
 */
async function compareTimes(
  port: number,
  sides: [Timed, Timed],
  requests: number,
) {
  const agents = sides.map(() => new Agent({ keepAlive: true, maxSockets: 1 }));
  const times: number[][] = [[], []];
  const statuses = new Set<number | null>();
  for (let i = 0; i < requests + 100; i++) {
    const order = i % 2 === 0 ? [0, 1] : [1, 0];
    for (const which of order) {
      const side = sides[which];
      const res = await timedGet(
        port,
        agents[which],
        side.path,
        side.authorization,
      );
      statuses.add(res.status);
      if (i >= 100) times[which].push(res.ms);
    }
  }
  for (const agent of agents) agent.destroy();
  console.log(`  statuses: ${[...statuses].join(', ')}`);
  console.log('| request | n | p10 | p50 | p90 | p99 | mean |');
  console.log('| --- | --- | --- | --- | --- | --- | --- |');
  sides.forEach((side, i) => {
    const sorted = [...times[i]].sort((x, y) => x - y);
    const mean = sorted.reduce((sum, v) => sum + v, 0) / sorted.length;
    console.log(
      `| ${side.label} | ${sorted.length} | ${[0.1, 0.5, 0.9, 0.99].map((p) => `${ms(percentile(sorted, p))} ms`).join(' | ')} | ${ms(mean)} ms |`,
    );
  });
  const mw = mannWhitney(times[0], times[1]);
  const ks = kolmogorovSmirnov(times[0], times[1]);
  console.log(
    `  Mann-Whitney U: z = ${mw.z.toFixed(2)}, p = ${mw.p.toFixed(3)}; Kolmogorov-Smirnov: D = ${ks.d.toFixed(3)}, p = ${ks.p.toFixed(3)}`,
  );
  return statuses;
}

/**
 * An order of box office 2 with as many digits as the highest id, and an id of that many digits
 * that nobody has: the two 404s are then the same length.
 */
function foreignAndMissingOrder(file: string): {
  theirs: string;
  nobodys: string;
} {
  const db = new Database(file, { readonly: true });
  try {
    const { max } = db.prepare('SELECT MAX(id) AS max FROM orders').get() as {
      max: number;
    };
    const digits = String(max).length;
    const { id } = db
      .prepare(
        'SELECT MIN(id) AS id FROM orders WHERE box_office_id = 2 AND id >= ?',
      )
      .get(10 ** (digits - 1)) as { id: number | null };
    if (id === null || 10 ** digits - 1 <= max) {
      throw new Error(
        'no order of box office 2 and unused id of as many digits',
      );
    }
    return { theirs: `or_${id}`, nobodys: `or_${10 ** digits - 1}` };
  } finally {
    db.close();
  }
}

const ms = (n: number) => n.toFixed(2);

async function main(): Promise<boolean> {
  const options = parseOptions(process.argv.slice(2));
  if (!options) {
    console.log(USAGE);
    return true;
  }
  const wanted = (name: string) => !options.only || options.only.has(name);
  const dir = mkdtempSync(join(tmpdir(), 'boxoffice-hostile-'));
  const file = join(dir, 'hostile.sqlite');
  let server: ServerProcess | null = null;
  try {
    console.log(`Seeding ${options.orders} orders into ${file}`);
    await seed(`sqlite:${file}`, options.orders);
    addRevokedKey(file);
    const port = await freePort();
    server = await startServer({
      name: 'hostile',
      args: [...SERVICE_NODE_FLAGS, join(__dirname, '..', 'src', 'main.js')],
      env: {
        DATABASE_URL: `sqlite:${file}`,
        PORT: String(port),
        NODE_ENV: 'production',
        LOG_LEVEL: 'warn',
        // The bench measures the HTTP limits, not the rate limits.
        RATE_LIMIT_MAX: '1000000000',
        AUTH_FAILURE_MAX: '1000000000',
      },
      port,
      cpus: null,
    });

    let ok = true;
    const results: ScenarioResult[] = [];
    for (const name of ['baseline', ...SCENARIOS] as const) {
      if (!wanted(name)) continue;
      const seconds =
        name === 'slow-readers'
          ? Math.max(35, options.seconds)
          : options.seconds;
      console.log(`\n${name}: ${seconds} s`);
      const result = await runScenario(server, name, seconds);
      results.push(result);
      console.log(
        `  normal requests ${result.normal}, failed ${result.failures.length}; p50 ${ms(result.p50)} ms, p99 ${ms(result.p99)} ms, max ${ms(result.max)} ms`,
      );
      console.log(
        `  server RSS ${result.rssBefore.toFixed(0)} MB before, ${result.rssPeak.toFixed(0)} MB peak, ${result.rssAfter.toFixed(0)} MB after`,
      );
      console.log(
        `  server's connections: ${result.connectionsPeak} at most, ${result.connectionsAtEnd} at the end`,
      );
      console.log(`  attacker: ${JSON.stringify(result.stats)}`);
      if (result.failures.length > 0) {
        console.log(`  FAILED: ${result.failures.slice(0, 5).join('; ')}`);
        ok = false;
      }
      if (!(result.p99 < 100)) {
        console.log('  FAILED: p99 of normal requests is 100 ms or more');
        ok = false;
      }
    }

    if (results.length > 0) {
      console.log(
        '\n| scenario | normal requests | failed | p50 | p99 | max | RSS before → peak → after | connections peak / at end |',
      );
      console.log('| --- | --- | --- | --- | --- | --- | --- | --- |');
      for (const r of results) {
        console.log(
          `| ${r.name} (${r.seconds} s) | ${r.normal} | ${r.failures.length} | ${ms(r.p50)} ms | ${ms(r.p99)} ms | ${ms(r.max)} ms | ${r.rssBefore.toFixed(0)} → ${r.rssPeak.toFixed(0)} → ${r.rssAfter.toFixed(0)} MB | ${r.connectionsPeak} / ${r.connectionsAtEnd} |`,
        );
      }
    }

    if (wanted('auth-timing')) {
      console.log(
        `\nauth-timing: ${options.authRequests} requests with an unknown key, as many with a revoked one`,
      );
      const statuses = await compareTimes(
        server.port,
        [
          {
            label: 'unknown key',
            path: '/v1/orders/or_1',
            authorization: basic(UNKNOWN_KEY),
          },
          {
            label: 'revoked key',
            path: '/v1/orders/or_1',
            authorization: basic(REVOKED_KEY),
          },
        ],
        options.authRequests,
      );
      if (statuses.size !== 1 || !statuses.has(401)) {
        console.log('  FAILED: every answer must be 401');
        ok = false;
      }
      const { theirs, nobodys } = foreignAndMissingOrder(file);
      console.log(
        `\ntenancy-timing: box office 1 retrieving box office 2's ${theirs} against nobody's ${nobodys}, ${options.authRequests} each`,
      );
      const tenancy = await compareTimes(
        server.port,
        [
          {
            label: `their ${theirs}`,
            path: `/v1/orders/${theirs}`,
            authorization: AUTH,
          },
          {
            label: `nobody's ${nobodys}`,
            path: `/v1/orders/${nobodys}`,
            authorization: AUTH,
          },
        ],
        options.authRequests,
      );
      if (tenancy.size !== 1 || !tenancy.has(404)) {
        console.log('  FAILED: every answer must be 404');
        ok = false;
      }
    }
    return ok;
  } finally {
    await server?.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

main().then(
  (ok) => process.exit(ok ? 0 : 1),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
