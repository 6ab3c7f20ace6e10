import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { runCells } from './lib/cells';
import {
  prepareDatabase,
  withDatabaseProbe,
  type PreparedDb,
} from './lib/database';
import { prepareBeforeBuild } from './lib/before';
import { runGate, type GateReport } from './lib/gate';
import { parseOptions, type BenchOptions } from './lib/options';
import { describePlan, plan, serversNeeded, type Cell } from './lib/plan';
import { choosePinning, pin } from './lib/proc';
import { profileOurs, type ScenarioProfile } from './lib/profile';
import { renderReport, type CellResult } from './lib/report';
import {
  machine,
  reportHeader,
  rerender,
  saveResults,
  type ResultsFile,
} from './lib/results';
import {
  buildScenarios,
  describeFacts,
  selectScenarios,
  type DatasetFacts,
  type Scenario,
} from './lib/scenarios';
import {
  SERVER_LABELS,
  peakRss,
  serverEnv,
  serverSpec,
  startCeiling,
  withServers,
  type Launch,
  type ServerName,
  type ServerSpec,
} from './lib/servers';
import { smokeVerdict } from './lib/smoke';
import { countStatements } from './lib/sql-counts';
import type { SqlCounts } from './sql-count';

/** What a run works from: the database, the requests, the cells to time and how to start servers. */
interface Bench extends Launch {
  options: BenchOptions;
  database: PreparedDb;
  facts: DatasetFacts;
  scenarios: Scenario[];
  titles: Record<string, string>;
  cells: Cell[];
  needed: Set<ServerName>;
}

/** What was measured while the servers ran. */
interface Measured {
  gate: GateReport;
  sql: SqlCounts;
  cells: CellResult[];
  rss: Partial<Record<ServerName, number[]>>;
  profiles: ScenarioProfile[];
}

async function main(): Promise<void> {
  const options = parseOptions(process.argv.slice(2));
  const root = projectRoot();
  if (options.report) return rerender(root, options.report);
  const started = Date.now();
  const bench = await prepare(options, root);
  console.log(`\n${describeFacts(bench.facts)}`);
  console.log(describePlan(options, bench.cells, bench.pinning));

  const measured = await withDatabaseProbe(
    options.db,
    bench.database.url,
    (database) =>
      withServers(firstServers(bench), async (servers): Promise<Measured> => {
        const { scenarios } = bench;
        const gate = await runGate(servers, scenarios, options.seed);
        const sql = countStatements(bench, scenarios);
        if (bench.needed.has('ceiling'))
          await startCeiling(servers, bench, scenarios);
        const cells = await runCells(bench.cells, {
          ...bench,
          servers,
          database,
          target: { kind: options.db, url: bench.database.url },
        });
        const rss = peakRss(servers);
        const profiles = await profileOurs(
          servers,
          bench,
          { kind: options.db, url: bench.database.url },
          scenarios,
          options,
        );
        return { gate, sql, cells, rss, profiles };
      }),
  );

  const report = render(bench, measured);
  if (!options.gateOnly) console.log(`\n${report.markdown}\n`);
  saveResults(root, resultsFile(bench, measured, report, started));
  if (options.smoke && !options.gateOnly)
    smokeVerdict(measured.cells, options.minSpeedup, options.minNestRatio);
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

/** Seeds (or reuses) the database, draws the requests from it and plans the cells. */
async function prepare(options: BenchOptions, root: string): Promise<Bench> {
  const distRoot = resolve(__dirname, '..');
  const dataDir = join(root, 'bench', 'data');
  mkdirSync(dataDir, { recursive: true });
  const pinning = choosePinning(options.noPin);
  const beforeDist = options.before
    ? prepareBeforeBuild(root, options.before)
    : undefined;
  const database = await prepareDatabase({
    kind: options.db,
    orders: options.orders,
    seed: options.seed,
    root,
    distRoot,
    reseed: options.reseed,
  });
  // After seeding (the seeder may use every core); children inherit this mask.
  if (pinning) pin(process.pid, pinning.load);
  const built = await buildScenarios(database, options.seed);
  await database.close();
  const scenarios = selectScenarios(built.scenarios, options.scenarios);
  const cells = options.gateOnly ? [] : plan(options, scenarios);
  return {
    options,
    distRoot,
    dataDir,
    env: serverEnv(database.url),
    pinning,
    beforeDist,
    database,
    facts: built.facts,
    scenarios,
    titles: Object.fromEntries(built.scenarios.map((s) => [s.name, s.title])),
    cells,
    needed: serversNeeded(options, cells),
  };
}

/** Ours and the peers the gate compares it with; the ceiling starts later, from a page of ours. */
function firstServers(bench: Bench): ServerSpec[] {
  return (
    [
      'ours',
      'metrics',
      'typical',
      'ours2',
      'ours4',
      'bare',
      'nest',
      'before',
    ] as const
  )
    .filter((name) => bench.needed.has(name))
    .map((name) => serverSpec(name, bench));
}

type Report = Pick<ResultsFile, 'header' | 'markdown' | 'targets'>;

function render(bench: Bench, measured: Measured): Report {
  const header = reportHeader(bench.options, bench.facts, bench.pinning);
  const report = renderReport({
    header,
    cells: measured.cells,
    sqlPerRequest: measured.sql.perRequest,
    titles: bench.titles,
    reps: bench.options.reps,
    rss: measured.rss,
    profiles: measured.profiles,
  });
  return { header, ...report };
}

function resultsFile(
  bench: Bench,
  measured: Measured,
  report: Report,
  started: number,
): ResultsFile {
  const { options, database } = bench;
  return {
    generatedAt: new Date().toISOString(),
    wallSeconds: Math.round((Date.now() - started) / 1000),
    options,
    machine: machine(bench.pinning),
    database: {
      kind: options.db,
      label: database.label,
      orders: options.orders,
      seed: options.seed,
      seeded: database.seeded,
      seedSeconds: database.seedSeconds,
      facts: bench.facts,
    },
    servers: SERVER_LABELS,
    gate: measured.gate,
    sqlPerRequest: measured.sql.perRequest,
    sqlExamples: measured.sql.examples,
    header: report.header,
    titles: bench.titles,
    cells: measured.cells,
    rssMb: measured.rss,
    targets: report.targets,
    profiles: measured.profiles,
    markdown: report.markdown,
  };
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
});
