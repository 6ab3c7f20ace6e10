import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { join, resolve } from 'node:path';
import type { SqlCounts } from '../sql-count';
import type { GateReport } from './gate';
import { defaultOutput, type BenchOptions, type DbKind } from './options';
import { CORES, type Pinning } from './proc';
import type { ScenarioProfile } from './profile';
import {
  renderReport,
  resultsAcross,
  targetsAcross,
  type CellResult,
  type PublishedRun,
  type Target,
} from './report';
import { SCENARIO_TITLES, type DatasetFacts } from './scenarios';
import type { ServerName } from './servers';

/** What a run writes to its results file (bench/results.json by default). */
export interface ResultsFile {
  generatedAt: string;
  wallSeconds: number;
  options: BenchOptions;
  machine: ReturnType<typeof machine>;
  database: {
    kind: BenchOptions['db'];
    label: string;
    orders: number;
    seed: number;
    seeded: boolean;
    seedSeconds: number | null;
    facts: DatasetFacts;
  };
  servers: Record<ServerName, string>;
  gate: GateReport;
  sqlPerRequest: SqlCounts['perRequest'];
  sqlExamples: SqlCounts['examples'];
  header: string;
  titles: Record<string, string>;
  cells: CellResult[];
  rssMb: Partial<Record<ServerName, number[]>>;
  targets: Target[];
  profiles: ScenarioProfile[];
  markdown: string;
}

export function machine(pinning: Pinning | null) {
  return {
    node: process.version,
    platform: `${process.platform} ${process.arch}`,
    cpuModel: cpus()[0]?.model ?? 'unknown',
    cores: CORES,
    memoryGb: Math.round(totalmem() / 2 ** 30),
    pinning,
  };
}

/** The report's first line: what ran, on what, when. */
export function reportHeader(
  options: BenchOptions,
  facts: DatasetFacts,
  pinning: Pinning | null,
): string {
  return (
    `${options.db === 'sqlite' ? 'SQLite' : 'PostgreSQL'}, ${options.orders.toLocaleString('en-US')} orders ` +
    `(${facts.orders.toLocaleString('en-US')} in the benchmarked box office), ${options.reps} × ${options.duration} s after ${options.warmup} s warm-up, ` +
    `Node ${process.version}, ${cpus()[0]?.model ?? 'cpu'} × ${CORES}` +
    (pinning
      ? `, servers pinned to CPU ${pinning.servers} and autocannon to CPU ${pinning.load} (two workers: unpinned)`
      : '') +
    `, ${new Date().toISOString().slice(0, 10)}`
  );
}

/** Where a database's published report goes: beside its default results file, as Markdown. */
export function reportFile(db: DbKind): string {
  return defaultOutput(db).replace(/\.json$/, '.md');
}

const DATABASES: Record<DbKind, string> = {
  sqlite: 'SQLite',
  postgres: 'PostgreSQL',
};

/** A results file as older runs wrote it too (without header, titles, profiles or markdown). */
type SavedResults = Omit<
  ResultsFile,
  'header' | 'titles' | 'profiles' | 'markdown'
> &
  Partial<Pick<ResultsFile, 'header' | 'titles' | 'profiles' | 'markdown'>>;

/** A saved run rendered again with today's report code (targets included). */
function renderSaved(saved: SavedResults): {
  run: PublishedRun;
  markdown: string;
} {
  const header =
    saved.header ??
    /^_(.+)_$/m.exec(saved.markdown ?? '')?.[1] ??
    `${saved.options.db}, ${saved.options.orders} orders, ${saved.generatedAt.slice(0, 10)}`;
  const titles = { ...SCENARIO_TITLES, ...saved.titles };
  const { markdown, targets } = renderReport({
    header,
    cells: saved.cells,
    sqlPerRequest: saved.sqlPerRequest,
    titles,
    reps: saved.options.reps,
    rss: saved.rssMb,
    profiles: saved.profiles,
  });
  const run: PublishedRun = {
    database: DATABASES[saved.options.db],
    header,
    cells: saved.cells,
    titles,
    targets,
  };
  return { run, markdown };
}

const readSaved = (file: string) =>
  JSON.parse(readFileSync(file, 'utf8')) as SavedResults;

/** Replaces what lies between `<!-- bench:<name>:start -->` and `<!-- bench:<name>:end -->`. */
function replaceSection(file: string, name: string, section: string): void {
  if (!existsSync(file)) return;
  const text = readFileSync(file, 'utf8');
  const start = `<!-- bench:${name}:start -->`;
  const end = `<!-- bench:${name}:end -->`;
  const i = text.indexOf(start);
  const j = text.indexOf(end);
  if (i === -1 || j === -1 || j < i) return;
  writeFileSync(
    file,
    `${text.slice(0, i + start.length)}\n${section}\n${text.slice(j)}`,
  );
}

/**
 * Publishes the runs in the default results files (bench/results.json, bench/results-postgres.json):
 * each run's whole report to its Markdown file (`reportFile`), and the two databases side by side
 * into bench/README.md, the targets between the `bench:targets` markers and ours on every scenario
 * between the `bench:results` markers. Both are rendered from the saved cells, so a run of one
 * database leaves the other's figures as they were.
 */
function publish(root: string): void {
  const runs: PublishedRun[] = [];
  for (const db of ['sqlite', 'postgres'] as const) {
    const file = resolve(root, defaultOutput(db));
    if (!existsSync(file)) continue;
    const { run, markdown } = renderSaved(readSaved(file));
    writeFileSync(
      resolve(root, reportFile(db)),
      `# Benchmark report: ${run.database}\n\n` +
        `Written by \`npm run bench\` from \`${defaultOutput(db)}\` (bench/lib/results.ts); ` +
        `what the columns mean: [bench/README.md](README.md).\n\n${markdown}\n`,
    );
    runs.push(run);
  }
  const readme = join(root, 'bench', 'README.md');
  replaceSection(readme, 'targets', targetsAcross(runs));
  replaceSection(readme, 'results', resultsAcross(runs));
}

/**
 * Writes the results file; a full run written to its database's default file also publishes it
 * (the smoke and --gate-only write elsewhere: see `parseOptions`).
 */
export function saveResults(root: string, results: ResultsFile): void {
  const { options } = results;
  const output = resolve(root, options.output);
  writeFileSync(output, `${JSON.stringify(results, null, 2)}\n`);
  console.log(`Results written to ${output} (${results.wallSeconds} s in all)`);
  if (
    !options.smoke &&
    !options.gateOnly &&
    options.output === defaultOutput(options.db)
  ) {
    publish(root);
  }
}

/**
 * `--report FILE`: prints an earlier run's report again, rendered with today's code; a default
 * results file is published again too (its report file and bench/README.md's tables).
 */
export function rerender(root: string, file: string): void {
  const saved = readSaved(resolve(root, file));
  console.log(renderSaved(saved).markdown);
  if (resolve(root, file) === resolve(root, defaultOutput(saved.options.db))) {
    publish(root);
  }
}
