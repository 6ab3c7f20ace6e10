import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { join, resolve } from 'node:path';
import type { SqlCounts } from '../sql-count';
import type { GateReport } from './gate';
import { defaultOutput, type BenchOptions } from './options';
import { CORES, type Pinning } from './proc';
import type { ScenarioProfile } from './profile';
import { renderReport, type CellResult, type Target } from './report';
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

/**
 * Writes the results file; a full run written to its database's default file also refreshes the
 * README sections (the smoke and --gate-only write elsewhere: see `parseOptions`).
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
    updateReadme(root, options.db, results.markdown);
  }
}

/** A results file as older runs wrote it too (without header, titles, profiles or markdown). */
type SavedResults = Omit<
  ResultsFile,
  'header' | 'titles' | 'profiles' | 'markdown'
> &
  Partial<Pick<ResultsFile, 'header' | 'titles' | 'profiles' | 'markdown'>>;

/** `--report FILE`: renders an earlier run's results again (and its README section). */
export function rerender(root: string, file: string): void {
  const saved = JSON.parse(
    readFileSync(resolve(root, file), 'utf8'),
  ) as SavedResults;
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
