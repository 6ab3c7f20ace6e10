import { loadavg } from 'node:os';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { prepareDatabase, withDatabaseProbe } from './lib/database';
import { type RunMetrics, timedRun, warmUp } from './lib/load';
import { type DbKind } from './lib/options';
import {
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
 */

interface Build {
  label: string;
  distRoot: string;
}

interface Sample {
  build: string;
  scenario: string;
  round: number;
  load: number;
  metrics: RunMetrics;
  rssMb: number;
}

const USAGE = `npm run bench:ab -- [--base DIR] [options]

  --base DIR        the other build's dist/ (without it, this build alone)
  --db sqlite|postgres  (default postgres)
  --orders N        the seeded database to use (default 200000; seeded when missing)
  --scenarios a,b   scenario names of npm run bench (default walk,retrieve)
  --rounds N        alternating rounds (default 3)
  --duration S      seconds per timed run (default 10)
  --warmup S        seconds of warm-up per server start (default 3)
  --connections N   (default 10)`;

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
    ...(values.base ? [{ label: 'base', distRoot: resolve(values.base) }] : []),
    { label: 'this', distRoot },
  ];
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
  await withDatabaseProbe(db, url, async (database) => {
    for (let round = 1; round <= Number(values.rounds); round++) {
      // Alternate which build goes first, so that neither always follows the other.
      const order = round % 2 === 1 ? builds : [...builds].reverse();
      for (const build of order) {
        const port = await freePort();
        const server = await startServer({
          name: build.label,
          args: [
            ...SERVICE_NODE_FLAGS,
            resolve(build.distRoot, 'src', 'main.js'),
          ],
          env: { ...serverEnv(url), PORT: String(port) },
          port,
          cpus: pinning?.servers ?? null,
        });
        try {
          for (const scenario of chosen) {
            const options = {
              server,
              paths: scenario.paths,
              okStatuses: scenario.okStatuses,
              connections: Number(values.connections),
              duration: Number(values.duration),
              headers: { ...REQUEST_HEADERS },
              database,
            };
            await warmUp(options, Number(values.warmup));
            const load = loadavg()[0];
            const metrics = await timedRun(options);
            const rssMb = Math.max(0, ...peakRssMb(server.pids()));
            samples.push({
              build: build.label,
              scenario: scenario.name,
              round,
              load,
              metrics,
              rssMb,
            });
            console.log(
              line(build.label, scenario.name, round, load, metrics, rssMb),
            );
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
        `MB/s ${ours.mbps.toFixed(1)} / ${base.mbps.toFixed(1)}; p99 ${fmt(ours.p99)} / ${fmt(base.p99)} ms; ` +
        `CPU µs/req ${fmt(ours.cpu)} / ${fmt(base.cpu)}; DB CPU µs/req ${fmt(ours.db)} / ${fmt(base.db)}; ` +
        `peak RSS ${fmt(ours.rss)} / ${fmt(base.rss)} MB; load ${ours.load.toFixed(2)} / ${base.load.toFixed(2)}`,
    );
  }
}

const fmt = (n: number) =>
  Number.isFinite(n) ? Math.round(n).toLocaleString('en-US') : '–';

function line(
  build: string,
  scenario: string,
  round: number,
  load: number,
  m: RunMetrics,
  rssMb: number,
): string {
  return (
    `round ${round} ${build.padEnd(4)} ${scenario.padEnd(9)} ${fmt(m.rps).padStart(6)} req/s ` +
    `${m.mbps.toFixed(1).padStart(6)} MB/s p99 ${fmt(m.p99).padStart(4)} ms ` +
    `CPU ${fmt(m.cpuUsPerRequest ?? NaN).padStart(6)} µs DB ${fmt(m.dbCpuUsPerRequest ?? NaN).padStart(6)} µs ` +
    `RSS ${fmt(rssMb)} MB errors ${m.errors} load ${load.toFixed(2)}`
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
    load: median(samples.map((s) => s.load)),
  };
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
