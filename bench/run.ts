import { execFileSync } from 'node:child_process';
import { Client } from 'pg';
import {
  existsSync,
  mkdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { availableParallelism, cpus, totalmem } from 'node:os';
import { join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { prepareDatabase } from './lib/database';
import { correctnessGate, type GateReport } from './lib/gate';
import {
  timedRun,
  warmUp,
  type DatabaseProbe,
  type LoadOptions,
  type RunMetrics,
} from './lib/load';
import { defaultOutput, parseOptions, type BenchOptions } from './lib/options';
import { summariseProfile, type ProfileSummary } from './lib/profile';
import {
  freePort,
  hasTaskset,
  httpGet,
  peakRssMb,
  pidsNamed,
  pin,
  startServer,
  type ServerProcess,
} from './lib/proc';
import {
  SERVER_LABELS,
  SERVER_NAMES,
  summarise,
  renderReport,
  type CellResult,
  type ServerName,
} from './lib/report';
import {
  AUTH_HEADER,
  SCENARIO_NAMES,
  SCENARIO_TITLES,
  buildScenarios,
  type Scenario,
  type ScenarioName,
} from './lib/scenarios';
import type { SqlCounts } from './sql-count';

/** The Node flags `npm run start:prod` gives the service (see package.json and the README). */
export const SERVICE_NODE_FLAGS = ['--max-semi-space-size=16'];

interface Cell {
  scenario: ScenarioName;
  server: ServerName;
  connections: number;
}

/**
 * The default matrix (19 cells, about 11 minutes of load at 10 s x 3 reps): every scenario at 10
 * connections for ours and typical (invalid: ours only); the walk, the headline, also at 1
 * connection, against the ceiling and on two workers. `--full` runs every scenario on every
 * server at 1 and 10 connections.
 */
function plan(options: BenchOptions, scenarios: Scenario[]): Cell[] {
  const cells: Cell[] = [];
  const add = (
    scenario: ScenarioName,
    server: ServerName,
    connections: number[],
  ) => {
    for (const c of options.connections ?? connections) {
      if (
        !cells.some(
          (x) =>
            x.scenario === scenario &&
            x.server === server &&
            x.connections === c,
        )
      ) {
        cells.push({ scenario, server, connections: c });
      }
    }
  };
  for (const { name } of scenarios) {
    const both = options.full || name === 'walk' ? [1, 10] : [10];
    if (name === 'walk' || (options.full && name === 'first'))
      add(name, 'ceiling', [10]);
    add(name, 'ours', both);
    if (name === 'walk' || options.full) add(name, 'ours2', [10]);
    // The 400 path costs both servers next to nothing: compared only with --full.
    if (name !== 'invalid' || options.full || options.smoke)
      add(name, 'typical', both);
  }
  const servers = options.servers;
  return servers ? cells.filter((c) => servers.includes(c.server)) : cells;
}

const RUN_OVERHEAD_S = 0.8; // waiting for the server to go idle, connection set-up

function estimateSeconds(options: BenchOptions, cells: Cell[]): number {
  const groups = new Set(
    cells.map((c) => `${c.scenario}|${c.server}|${c.connections}`),
  ).size;
  return (
    groups *
    (options.warmup +
      RUN_OVERHEAD_S +
      options.reps * (options.duration + RUN_OVERHEAD_S))
  );
}

function projectRoot(): string {
  const root = process.cwd();
  const pkg = join(root, 'package.json');
  if (
    !existsSync(pkg) ||
    !readFileSync(pkg, 'utf8').includes('"box-office-api"')
  ) {
    throw new Error('run from the project root (npm run bench)');
  }
  return root;
}

function machine(pinning: { load: string; servers: string } | null) {
  return {
    node: process.version,
    platform: `${process.platform} ${process.arch}`,
    cpuModel: cpus()[0]?.model ?? 'unknown',
    cores: availableParallelism(),
    memoryGb: Math.round(totalmem() / 2 ** 30),
    pinning,
  };
}

async function countStatements(
  distRoot: string,
  dataDir: string,
  env: Record<string, string>,
  scenarios: Scenario[],
): Promise<SqlCounts> {
  const input = join(dataDir, 'sql-count-input.json');
  const output = join(dataDir, 'sql-count-output.json');
  const sample: Record<string, string[]> = {};
  for (const s of scenarios) {
    sample[s.name] = s.paths.slice(0, s.name.startsWith('deep') ? 2 : 5);
  }
  writeFileSync(
    input,
    JSON.stringify({
      headers: { authorization: AUTH_HEADER },
      scenarios: sample,
    }),
  );
  rmSync(output, { force: true });
  execFileSync(
    process.execPath,
    [join(distRoot, 'bench', 'sql-count.js'), input, output],
    {
      env: { ...process.env, ...env, MIGRATIONS_RUN: 'false' },
      stdio: ['ignore', 'ignore', 'inherit'],
      timeout: 600_000,
    },
  );
  return JSON.parse(readFileSync(output, 'utf8')) as SqlCounts;
}

async function profileOurs(
  distRoot: string,
  dataDir: string,
  env: Record<string, string>,
  cpusForServer: string | null,
  scenario: Scenario,
  options: BenchOptions,
): Promise<ProfileSummary & { scenario: string }> {
  const file = join(dataDir, `ours-${scenario.name}-${Date.now()}.cpuprofile`);
  const port = await freePort();
  const server = await startServer({
    name: 'ours (profiled)',
    args: [
      ...SERVICE_NODE_FLAGS,
      '--require',
      join(distRoot, 'bench', 'profile-preload.js'),
      join(distRoot, 'src', 'main.js'),
    ],
    env: { ...env, PORT: String(port), BENCH_PROFILE_FILE: file },
    port,
    cpus: cpusForServer,
  });
  try {
    const load: LoadOptions = {
      server,
      paths: scenario.paths,
      okStatuses: scenario.okStatuses,
      connections: 10,
      duration: options.duration,
      headers: { authorization: AUTH_HEADER },
    };
    await warmUp(load, Math.max(1, options.warmup));
    server.child.kill('SIGWINCH');
    await sleep(300);
    await timedRun(load);
    server.child.kill('SIGWINCH');
    for (let i = 0; i < 100 && !existsSync(file); i++) await sleep(100);
    await sleep(500);
  } finally {
    await server.stop();
  }
  return { ...summariseProfile(file), scenario: scenario.name };
}

/**
 * Replaces the report between `<!-- bench:<db>:start -->` and `<!-- bench:<db>:end -->` in
 * bench/README.md and the project's README.md.
 */
function updateReadme(root: string, db: string, section: string): void {
  for (const file of [
    join(root, 'bench', 'README.md'),
    join(root, 'README.md'),
  ]) {
    if (!existsSync(file)) continue;
    const text = readFileSync(file, 'utf8');
    const start = `<!-- bench:${db}:start -->`;
    const end = `<!-- bench:${db}:end -->`;
    const i = text.indexOf(start);
    const j = text.indexOf(end);
    if (i === -1 || j === -1 || j < i) continue;
    writeFileSync(
      file,
      `${text.slice(0, i + start.length)}\n${section}\n${text.slice(j)}`,
    );
  }
}

/** `--report FILE`: renders an earlier run's results again (and its README section). */
function rerender(root: string, file: string): void {
  const saved = JSON.parse(readFileSync(resolve(root, file), 'utf8')) as {
    header?: string;
    titles?: Record<string, string>;
    options: BenchOptions;
    cells: CellResult[];
    sqlPerRequest: Record<string, Record<string, number>>;
    rssMb: Partial<Record<ServerName, number[]>>;
    profiles?: (ProfileSummary & { scenario: string })[];
    generatedAt: string;
    markdown?: string;
  };
  const { markdown } = renderReport({
    header:
      saved.header ??
      /^_(.+)_$/m.exec(saved.markdown ?? '')?.[1] ??
      `${saved.options.db}, ${saved.options.orders} orders, ${saved.generatedAt.slice(0, 10)}`,
    cells: saved.cells,
    sqlPerRequest: saved.sqlPerRequest,
    titles: saved.titles ?? SCENARIO_TITLES,
    reps: saved.options.reps,
    rss: saved.rssMb,
    profiles: saved.profiles,
  });
  console.log(markdown);
  if (resolve(root, file) === resolve(root, defaultOutput(saved.options.db))) {
    updateReadme(root, saved.options.db, markdown);
  }
}

async function main() {
  const options = parseOptions(process.argv.slice(2));
  const root = projectRoot();
  if (options.report) return rerender(root, options.report);
  const distRoot = resolve(__dirname, '..');
  const dataDir = join(root, 'bench', 'data');
  mkdirSync(dataDir, { recursive: true });
  const started = Date.now();

  // Load generator on core 0, servers on the last core: they never compete for a core (except
  // the two-worker server, which needs both).
  const cores = availableParallelism();
  const pinning =
    !options.noPin && hasTaskset && cores >= 2
      ? { load: '0', servers: String(cores - 1) }
      : null;

  const db = await prepareDatabase({
    kind: options.db,
    orders: options.orders,
    seed: options.seed,
    root,
    distRoot,
    reseed: options.reseed,
  });
  // After seeding (the seeder may use every core); children inherit this mask.
  if (pinning) pin(process.pid, pinning.load);
  const built = await buildScenarios(db, options.seed);
  await db.close();
  const facts = built.facts;
  const wanted = options.scenarios;
  for (const name of wanted ?? []) {
    if (!(SCENARIO_NAMES as readonly string[]).includes(name))
      throw new Error(`unknown scenario ${name}`);
  }
  const scenarios = built.scenarios.filter(
    (s) => !wanted || wanted.includes(s.name),
  );
  const byName = new Map(scenarios.map((s) => [s.name, s]));
  const titles = Object.fromEntries(
    built.scenarios.map((s) => [s.name, s.title]),
  );
  const cells = options.gateOnly ? [] : plan(options, scenarios);
  const needed = new Set<ServerName>(cells.map((c) => c.server));
  needed.add('ours');
  if (!options.servers || options.servers.includes('typical'))
    needed.add('typical');
  if (options.servers?.includes('ours2')) needed.add('ours2');

  console.log(
    `\nBox office ${facts.boxOfficeId}: ${facts.orders.toLocaleString('en-US')} orders ` +
      `(deep cursors at ${facts.deep50Position.toLocaleString('en-US')} and ${facts.deep99Position.toLocaleString('en-US')}; ` +
      `range ${new Date(facts.range.gte * 1000).toISOString().slice(0, 10)} + 30 days: ${facts.range.orders.toLocaleString('en-US')} orders; ` +
      `${facts.events} events with > 100 orders)`,
  );
  console.log(
    `Plan: ${cells.length} cells x (${options.warmup} s warm-up + ${options.reps} x ${options.duration} s) ≈ ${Math.ceil(estimateSeconds(options, cells) / 60)} min of load` +
      (pinning
        ? `; load generator on CPU ${pinning.load}, servers on CPU ${pinning.servers}`
        : '; no CPU pinning'),
  );

  const serverEnv: Record<string, string> = {
    DATABASE_URL: db.url,
    NODE_ENV: 'production',
    LOG_LEVEL: 'warn',
    // The benchmark must measure the API, not the rate limiter's 429s.
    RATE_LIMIT_MAX: '1000000000',
    MIGRATIONS_RUN: 'true',
  };
  // PostgreSQL: its backends' CPU is reported per request, and idle waits include its queries.
  let pgClient: Client | null = null;
  let database: DatabaseProbe | undefined;
  if (options.db === 'postgres') {
    const client = new Client({ connectionString: db.url });
    await client.connect();
    pgClient = client;
    database = {
      pids: () => pidsNamed('postgres'),
      busy: async () => {
        const { rows } = await client.query<{ n: string }>(
          "SELECT count(*) AS n FROM pg_stat_activity WHERE datname = current_database() AND state <> 'idle' AND pid <> pg_backend_pid()",
        );
        return Number(rows[0].n) > 0;
      },
    };
  }
  const servers = new Map<ServerName, ServerProcess>();
  const headers = { authorization: AUTH_HEADER };
  let gate: GateReport | null = null;
  let sql: SqlCounts = { perRequest: {}, examples: {} };
  const results: CellResult[] = [];
  const profiles: (ProfileSummary & { scenario: string })[] = [];
  const rss: Partial<Record<ServerName, number[]>> = {};

  // Ctrl-C or a CI timeout: take the servers down too.
  const abort = (signal: NodeJS.Signals) => {
    console.error(`\n${signal}: stopping the servers`);
    void Promise.all([...servers.values()].map((s) => s.stop())).finally(() =>
      process.exit(130),
    );
  };
  process.once('SIGINT', abort);
  process.once('SIGTERM', abort);

  try {
    const start = async (
      name: ServerName,
      args: string[],
      env: Record<string, string>,
      cpus: string | null,
    ) => {
      const port = await freePort();
      const server = await startServer({
        name,
        args,
        env: { ...env, PORT: String(port) },
        port,
        cpus,
      });
      servers.set(name, server);
      return server;
    };
    const main = join(distRoot, 'src', 'main.js');
    const ours = await start(
      'ours',
      [...SERVICE_NODE_FLAGS, main],
      serverEnv,
      pinning?.servers ?? null,
    );
    if (needed.has('typical')) {
      await start(
        'typical',
        [join(distRoot, 'bench', 'typical', 'main.js')],
        serverEnv,
        pinning?.servers ?? null,
      );
    }
    if (needed.has('ours2')) {
      // Every core (a child inherits the parent's affinity, which is core 0 here).
      await start(
        'ours2',
        [join(distRoot, 'bench', 'cluster.js')],
        { ...serverEnv, WORKERS: '2' },
        pinning ? `0-${cores - 1}` : null,
      );
    }

    // Correctness first: the same requests, the same answers.
    const others = [servers.get('ours2'), servers.get('typical')].filter(
      (s): s is ServerProcess => !!s,
    );
    console.log(
      `\nCorrectness gate: ours vs ${others.map((s) => s.name).join(', ') || 'nothing'}…`,
    );
    gate = await correctnessGate(
      ours,
      others,
      scenarios,
      headers,
      options.seed,
    );
    console.log(
      `  ${gate.requests} requests, every body deep-equal (` +
        Object.entries(gate.scenarios)
          .map(
            ([name, s]) =>
              `${name}: ${s.checked} × ~${Math.round(s.bodyBytes / 1024)} KB`,
          )
          .join(', ') +
        ')',
    );

    console.log(
      'Counting SQL statements per request (in-process, TypeORM logger)…',
    );
    sql = await countStatements(distRoot, dataDir, serverEnv, scenarios);
    for (const [name, counts] of Object.entries(sql.perRequest)) {
      console.log(
        `  ${name}: ${Object.entries(counts)
          .map(([s, n]) => `${s} ${n}`)
          .join(', ')}`,
      );
    }

    if (needed.has('ceiling')) {
      const walk = byName.get('walk') ?? scenarios[0];
      const body = await httpGet(ours.port, walk.paths[0], headers);
      const bodyFile = join(dataDir, 'ceiling-body.json');
      writeFileSync(bodyFile, body.body);
      await start(
        'ceiling',
        [join(distRoot, 'bench', 'ceiling.js')],
        { CEILING_BODY: bodyFile },
        pinning?.servers ?? null,
      );
    }

    for (const cell of cells) {
      const server = servers.get(cell.server)!;
      const scenario = byName.get(cell.scenario)!;
      // Two workers need both cores: the load generator shares them.
      if (pinning)
        pin(
          process.pid,
          cell.server === 'ours2' ? `0-${cores - 1}` : pinning.load,
        );
      const load: LoadOptions = {
        server,
        paths: cell.server === 'ceiling' ? ['/'] : scenario.paths,
        okStatuses: scenario.okStatuses,
        connections: cell.connections,
        duration: options.duration,
        headers,
        database,
      };
      await warmUp(load, options.warmup);
      const runs: RunMetrics[] = [];
      for (let rep = 0; rep < options.reps; rep++)
        runs.push(await timedRun(load));
      const result = summarise(
        cell.scenario,
        cell.server,
        cell.connections,
        runs,
      );
      if (runs.every((r) => r.requests === 0)) {
        // Slower than a whole run: time one request alone, so the report has a figure.
        const started = process.hrtime.bigint();
        await httpGet(server.port, load.paths[0], headers, 600_000);
        result.median.incomplete = true;
        result.median.soloMs = Number(process.hrtime.bigint() - started) / 1e6;
        result.median.seconds = runs.reduce((sum, r) => sum + r.durationS, 0);
        result.median.runs = runs.length;
      }
      results.push(result);
      const m = result.median;
      console.log(
        `  ${cell.scenario.padEnd(8)} ${cell.server.padEnd(7)} @${String(cell.connections).padEnd(2)} ` +
          `${m.rps.toFixed(m.rps < 10 ? 1 : 0).padStart(7)} req/s  p50 ${m.p50} ms  p99 ${m.p99} ms  ` +
          `${m.mbps.toFixed(1)} MB/s  ${m.cpuUsPerRequest === null ? '–' : Math.round(m.cpuUsPerRequest)} µs CPU/req  ${m.errors} errors`,
      );
    }
    if (pinning) pin(process.pid, pinning.load);

    for (const [name, server] of servers) {
      const pids = server.pids();
      // A cluster's primary only hands out connections: report its workers.
      rss[name] = peakRssMb(
        name === 'ours2' && pids.length > 1 ? pids.slice(1) : pids,
      );
    }

    // The walk, or every scenario named with --scenarios.
    for (const scenario of options.profile
      ? wanted
        ? scenarios
        : [byName.get('walk')!]
      : []) {
      console.log(`\nProfiling ours (1 process) on ${scenario.name} @10…`);
      profiles.push(
        await profileOurs(
          distRoot,
          dataDir,
          serverEnv,
          pinning?.servers ?? null,
          scenario,
          options,
        ),
      );
    }
  } finally {
    for (const server of servers.values()) await server.stop();
    await pgClient?.end();
  }

  const header =
    `${options.db === 'sqlite' ? 'SQLite' : 'PostgreSQL'}, ${options.orders.toLocaleString('en-US')} orders ` +
    `(${facts.orders.toLocaleString('en-US')} in the benchmarked box office), ${options.reps} × ${options.duration} s after ${options.warmup} s warm-up, ` +
    `Node ${process.version}, ${cpus()[0]?.model ?? 'cpu'} × ${cores}` +
    (pinning
      ? `, servers pinned to CPU ${pinning.servers} and autocannon to CPU ${pinning.load} (two workers: unpinned)`
      : '') +
    `, ${new Date().toISOString().slice(0, 10)}`;
  const { markdown, targets: targetList } = renderReport({
    header,
    cells: results,
    sqlPerRequest: sql.perRequest,
    titles,
    reps: options.reps,
    rss,
    profiles,
  });
  if (!options.gateOnly) console.log(`\n${markdown}\n`);

  const output = resolve(root, options.output);
  writeFileSync(
    output,
    `${JSON.stringify(
      {
        generatedAt: new Date().toISOString(),
        wallSeconds: Math.round((Date.now() - started) / 1000),
        options,
        machine: machine(pinning),
        database: {
          kind: options.db,
          label: db.label,
          orders: options.orders,
          seed: options.seed,
          seeded: db.seeded,
          seedSeconds: db.seedSeconds,
          facts,
        },
        servers: Object.fromEntries(
          SERVER_NAMES.map((n) => [n, SERVER_LABELS[n]]),
        ),
        gate,
        sqlPerRequest: sql.perRequest,
        sqlExamples: sql.examples,
        header,
        titles,
        cells: results,
        rssMb: rss,
        targets: targetList,
        profiles,
        markdown,
      },
      null,
      2,
    )}\n`,
  );
  console.log(
    `Results written to ${output} (${Math.round((Date.now() - started) / 1000)} s in all)`,
  );
  if (
    !options.smoke &&
    !options.gateOnly &&
    options.output === defaultOutput(options.db)
  ) {
    updateReadme(root, options.db, markdown);
  }

  if (options.smoke && !options.gateOnly) {
    const walk = (server: ServerName) =>
      results.find(
        (c) =>
          c.scenario === 'walk' && c.server === server && c.connections === 10,
      )?.median;
    const speedup =
      (walk('ours')?.rps ?? 0) / (walk('typical')?.rps ?? Infinity);
    const errors = results
      .filter((c) => c.server !== 'typical')
      .reduce((n, c) => n + c.median.errors, 0);
    const failures: string[] = [];
    if (!(speedup >= options.minSpeedup)) {
      failures.push(
        `ours/typical on the walk is ${speedup.toFixed(1)}×, below ${options.minSpeedup}×`,
      );
    }
    if (errors > 0) failures.push(`${errors} errors`);
    if (failures.length > 0) {
      console.error(`SMOKE FAILED: ${failures.join('; ')}`);
      process.exitCode = 1;
    } else {
      console.log(
        `Smoke passed: ours/typical ${speedup.toFixed(1)}× on the walk (gate ${options.minSpeedup}×; ` +
          `issue #4's 10× ${speedup >= 10 ? 'met' : 'not met'} in this run), no errors`,
      );
    }
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
});
