import { loadavg } from 'node:os';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { openWriteChecker } from './lib/cells';
import { prepareDatabase, withDatabaseProbe } from './lib/database';
import {
  type DatabaseProbe,
  type LoadOptions,
  type RunMetrics,
  timedRun,
  warmUp,
} from './lib/load';
import { type DbKind } from './lib/options';
import {
  allCores,
  choosePinning,
  freePort,
  pin,
  peakRssMb,
  startServer,
} from './lib/proc';
import {
  REQUEST_HEADERS,
  type Scenario,
  buildScenarios,
} from './lib/scenarios';
import { serverEnv } from './lib/servers';
import { SERVICE_NODE_FLAGS } from './lib/service';

/**
 * `npm run bench:ab -- --base <dist of another build> [options]`: this build's `ours` against
 * another build's, in alternating rounds over the same benchmark database (as `npm run bench`
 * prepares it), so that the two are compared in the same minutes of a shared machine. Each round
 * starts one build's server alone (its pool's backends are then the only ones of the database: a
 * second instance's background work, the change-feed sweep and the webhook poll, would count in
 * the other's database CPU), warms it up, times each scenario, and stops it; then the other
 * build. Prints each round's figures and the load average beside them, then the medians.
 *
 * The other build: a checkout of the commit with `npx nest build --path tsconfig.tools.json`;
 * --base is its dist/ directory.
 *
 * `--workers N` runs each build as `ours2` does (bench/cluster.ts: N processes behind one port,
 * unpinned). A write scenario (the door rush, the ticket writes) is checked after each timed run
 * and undone, as `npm run bench` does (cells.ts, openWriteChecker); its line gives the writes
 * a second (`written/s`: the 201s or 200s) and the faults. `--base-url` gives the base build a
 * database of its own (a copy of the benchmark database, e.g. `CREATE DATABASE … TEMPLATE …`),
 * for builds whose migrations differ: each then runs on the schema its own migrations make.
 */

interface Build {
  label: string;
  distRoot: string;
  /** Its own database (--base-url), else the benchmark database. */
  url?: string;
}

interface Sample {
  build: string;
  scenario: string;
  round: number;
  load: number;
  metrics: RunMetrics;
  rssMb: number;
  /** A ticket-write scenario: its successes a second. */
  written?: number;
}

const USAGE = `npm run bench:ab -- [--base DIR] [options]

  --base DIR        the other build's dist/ (without it, this build alone)
  --db sqlite|postgres  (default postgres)
  --orders N        the seeded database to use (default 200000; seeded when missing)
  --scenarios a,b   scenario names of npm run bench (default walk,retrieve)
  --rounds N        alternating rounds (default 3)
  --duration S      seconds per timed run (default 10)
  --warmup S        seconds of warm-up per server start (default 3)
  --connections N   (default 10)
  --workers N       each build in N processes behind one port, as ours2 (default 1)
  --base-url URL    PostgreSQL: the base build's own database (a copy of the benchmark one)`;

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      base: { type: 'string' },
      db: { type: 'string', default: 'postgres' },
      orders: { type: 'string', default: '200000' },
      scenarios: { type: 'string', default: 'walk,retrieve' },
      rounds: { type: 'string', default: '3' },
      duration: { type: 'string', default: '10' },
      warmup: { type: 'string', default: '3' },
      connections: { type: 'string', default: '10' },
      workers: { type: 'string', default: '1' },
      'base-url': { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) {
    console.log(USAGE);
    process.exit(0);
  }
  const db = values.db as DbKind;
  if (db !== 'sqlite' && db !== 'postgres')
    throw new Error('--db: sqlite or postgres');
  const root = resolve(__dirname, '..', '..');
  const distRoot = resolve(__dirname, '..');
  // Without --base, this build alone (a measurement, e.g. beside pg_stat_statements).
  const builds: Build[] = [
    ...(values.base
      ? [
          {
            label: 'base',
            distRoot: resolve(values.base),
            url: values['base-url'],
          },
        ]
      : []),
    { label: 'this', distRoot },
  ];
  const workers = Number(values.workers);
  const prepared = await prepareDatabase({
    kind: db,
    orders: Number(values.orders),
    seed: 42,
    root,
    distRoot,
    reseed: false,
  });
  const { url } = prepared;
  const { scenarios } = await buildScenarios(prepared, 42);
  await prepared.close();
  const wanted = values.scenarios!.split(',');
  const chosen: Scenario[] = wanted.map((name) => {
    const scenario = scenarios.find((s) => s.name === name);
    if (!scenario) throw new Error(`no scenario ${name}`);
    return scenario;
  });
  const pinning = choosePinning(false);
  if (pinning) pin(process.pid, pinning.load);
  const samples: Sample[] = [];
  // The base build's own database (--base-url) has a probe of its own.
  const probes = (
    work: (
      database: DatabaseProbe | undefined,
      baseDatabase: DatabaseProbe | undefined,
    ) => Promise<void>,
  ) =>
    withDatabaseProbe(db, url, (database) =>
      values['base-url']
        ? withDatabaseProbe(db, values['base-url'], (baseDatabase) =>
            work(database, baseDatabase),
          )
        : work(database, database),
    );
  await probes(async (database, baseDatabase) => {
    for (let round = 1; round <= Number(values.rounds); round++) {
      // Alternate which build goes first, so that neither always follows the other.
      const order = round % 2 === 1 ? builds : [...builds].reverse();
      for (const build of order) {
        const port = await freePort();
        const url_ = build.url ?? url;
        const server = await startServer({
          name: build.label,
          args:
            workers > 1
              ? [resolve(build.distRoot, 'bench', 'cluster.js')]
              : [
                  ...SERVICE_NODE_FLAGS,
                  resolve(build.distRoot, 'src', 'main.js'),
                ],
          env: {
            ...serverEnv(url_),
            PORT: String(port),
            ...(workers > 1 ? { WORKERS: String(workers) } : {}),
          },
          port,
          // Workers unpinned, as ours2 (every core: a child inherits this process's affinity).
          cpus: pinning ? (workers > 1 ? allCores() : pinning.servers) : null,
        });
        try {
          for (const scenario of chosen) {
            const options: LoadOptions = {
              server,
              paths: scenario.paths,
              okStatuses: scenario.okStatuses,
              connections: Number(values.connections),
              duration: Number(values.duration),
              headers: { ...(scenario.headers ?? REQUEST_HEADERS) },
              database: build.url ? baseDatabase : database,
              scans: scenario.scans,
              rate: scenario.rate,
            };
            const writes = scenario.scans
              ? await openWriteChecker(
                  scenario,
                  { kind: db, url: url_ },
                  options.connections,
                )
              : null;
            try {
              await writes?.mark();
              await warmUp(options, Number(values.warmup));
              await writes?.reset();
              await writes?.mark();
              const load = loadavg()[0];
              const metrics = await timedRun(options);
              await writes?.check(metrics);
              await writes?.reset();
              const rssMb = Math.max(0, ...peakRssMb(server.pids()));
              const sample: Sample = {
                build: build.label,
                scenario: scenario.name,
                round,
                load,
                metrics,
                rssMb,
                written: scenario.ticketWrites
                  ? (metrics.statuses[
                      scenario.ticketWrites.kind === 'issue' ? '201' : '200'
                    ] ?? 0) / metrics.durationS
                  : undefined,
              };
              samples.push(sample);
              console.log(line(sample));
            } finally {
              await writes?.close();
            }
          }
        } finally {
          await server.stop();
        }
      }
    }
  });
  if (builds.length === 1) return;
  console.log('\nmedians (this ÷ base):');
  for (const scenario of chosen) {
    const of = (label: string) =>
      samples.filter((s) => s.build === label && s.scenario === scenario.name);
    const base = medians(of('base'));
    const ours = medians(of('this'));
    console.log(
      `${scenario.name}: req/s ${fmt(ours.rps)} / ${fmt(base.rps)} = ${(ours.rps / base.rps).toFixed(2)}×; ` +
        (Number.isFinite(ours.written)
          ? `written/s ${fmt(ours.written)} / ${fmt(base.written)} = ${(ours.written / base.written).toFixed(2)}×; `
          : '') +
        `MB/s ${ours.mbps.toFixed(1)} / ${base.mbps.toFixed(1)}; p99 ${fmt(ours.p99)} / ${fmt(base.p99)} ms; ` +
        `CPU µs/req ${fmt(ours.cpu)} / ${fmt(base.cpu)}; DB CPU µs/req ${fmt(ours.db)} / ${fmt(base.db)}; ` +
        `peak RSS ${fmt(ours.rss)} / ${fmt(base.rss)} MB; load ${ours.load.toFixed(2)} / ${base.load.toFixed(2)}`,
    );
  }
}

const fmt = (n: number) =>
  Number.isFinite(n) ? Math.round(n).toLocaleString('en-US') : '–';

function line({
  build,
  scenario,
  round,
  load,
  metrics: m,
  rssMb,
  written,
}: Sample): string {
  return (
    `round ${round} ${build.padEnd(4)} ${scenario.padEnd(9)} ${fmt(m.rps).padStart(6)} req/s ` +
    `${m.mbps.toFixed(1).padStart(6)} MB/s p99 ${fmt(m.p99).padStart(4)} ms ` +
    `CPU ${fmt(m.cpuUsPerRequest ?? NaN).padStart(6)} µs DB ${fmt(m.dbCpuUsPerRequest ?? NaN).padStart(6)} µs ` +
    `RSS ${fmt(rssMb)} MB errors ${m.errors} load ${load.toFixed(2)}` +
    (written === undefined
      ? ''
      : ` written/s ${fmt(written)} faults ${m.writeFaults ?? 0}`) +
    (m.doubleEntries === undefined ? '' : ` double entries ${m.doubleEntries}`)
  );
}

function median(values: number[]): number {
  const sorted = values.filter(Number.isFinite).sort((a, b) => a - b);
  if (sorted.length === 0) return NaN;
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

function medians(samples: Sample[]) {
  return {
    rps: median(samples.map((s) => s.metrics.rps)),
    mbps: median(samples.map((s) => s.metrics.mbps)),
    p99: median(samples.map((s) => s.metrics.p99)),
    cpu: median(samples.map((s) => s.metrics.cpuUsPerRequest ?? NaN)),
    db: median(samples.map((s) => s.metrics.dbCpuUsPerRequest ?? NaN)),
    rss: Math.max(...samples.map((s) => s.rssMb)),
    written: median(samples.map((s) => s.written ?? NaN)),
    load: median(samples.map((s) => s.load)),
  };
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
