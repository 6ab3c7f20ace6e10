import {
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RunMetrics } from './load';
import type { DbKind } from './options';
import type { CellResult } from './report';
import { rerender } from './results';
import type { ServerName } from './servers';

/** A cell whose one timed run is its median. */
function cell(
  scenario: string,
  server: ServerName,
  rps: number,
  p99: number,
  dbCpu: number | null,
): CellResult {
  const run: RunMetrics = {
    requests: rps * 10,
    rps,
    mean: 1000 / rps,
    p50: p99 / 2,
    p99,
    mbps: rps / 4,
    cpuUsPerRequest: 1_000_000 / rps,
    dbCpuUsPerRequest: dbCpu,
    errors: 0,
    statuses: { '200': rps * 10 },
    durationS: 10,
  };
  return {
    scenario,
    server,
    connections: 10,
    runs: [run],
    median: { ...run, rpsMin: rps, rpsMax: rps },
  };
}

function results(db: DbKind, cells: CellResult[]) {
  return {
    generatedAt: '2026-11-27T00:00:00.000Z',
    options: { db, orders: 1000, reps: 1 },
    header: `${db} run`,
    cells,
    sqlPerRequest: {},
    rssMb: { ours: [200] },
  };
}

const README = `# Benchmark

Text before.

<!-- bench:targets:start -->
stale targets
<!-- bench:targets:end -->

Text between.

<!-- bench:results:start -->
stale results
<!-- bench:results:end -->

Text after.
`;

describe('publishing a run (bench/README.md and the report files)', () => {
  let root: string;
  const readme = () => readFileSync(join(root, 'bench', 'README.md'), 'utf8');

  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'bench-publish-'));
    mkdirSync(join(root, 'bench'));
    writeFileSync(join(root, 'bench', 'README.md'), README);
    writeFileSync(
      join(root, 'bench', 'results.json'),
      JSON.stringify(
        results('sqlite', [
          cell('walk', 'ours', 400, 60, null),
          cell('walk', 'typical', 10, 3000, null),
          cell('overview', 'ours', 1600, 13, null),
        ]),
      ),
    );
    writeFileSync(
      join(root, 'bench', 'results-postgres.json'),
      JSON.stringify(
        results('postgres', [
          cell('walk', 'ours', 300, 70, 1000),
          cell('walk', 'typical', 30, 480, 12000),
          cell('walk', 'bare', 400, 50, 900),
        ]),
      ),
    );
    jest.spyOn(console, 'log').mockImplementation(() => undefined);
  });

  afterEach(() => {
    jest.restoreAllMocks();
    rmSync(root, { recursive: true, force: true });
  });

  it('writes both databases between the markers and leaves the text around them', () => {
    rerender(root, 'bench/results.json');
    const text = readme();
    expect(text).not.toContain('stale');
    for (const kept of [
      '# Benchmark\n\nText before.\n\n<!-- bench:targets:start -->\n| target | goal | SQLite | PostgreSQL |',
      '<!-- bench:targets:end -->\n\nText between.\n\n<!-- bench:results:start -->\n_sqlite run_\n\n_postgres run_\n',
      '<!-- bench:results:end -->\n\nText after.\n',
    ]) {
      expect(text).toContain(kept);
    }
    // The walk's ratio on each database, each judged against its goal; a target one run has
    // no cell for is a dash in that column.
    expect(text).toContain(
      '| ours/typical throughput, walk (req/s ours ÷ typical, walk @10) | ≥ 20× | 40.0× ✅ | 10.0× ❌ |',
    );
    expect(text).toContain(
      '| overview req/s (1 process) (req/s, overview @10) | ≥ 1,000 | 1,600 ✅ | – |',
    );
    expect(text).toContain(
      '| cursor walk, first 100 pages | 400 | 60 | 2,500 | 40.0× | – | 300 | 70 | 3,333 | 1,000 | 10.0× | 0.75× |',
    );
    expect(text).toContain(
      '| GET /v1/overview | 1,600 | 13 | 625 | – | – | – | – | – | – | – | – |',
    );
  });

  it('writes each run’s whole report beside its results file', () => {
    rerender(root, 'bench/results-postgres.json');
    const report = readFileSync(
      join(root, 'bench', 'results-postgres.md'),
      'utf8',
    );
    expect(report).toContain('# Benchmark report: PostgreSQL');
    expect(report).toContain('_postgres run_');
    // The capacity table is PostgreSQL's alone.
    expect(report).toContain('| req/s per DB core |');
    expect(
      readFileSync(join(root, 'bench', 'results.md'), 'utf8'),
    ).not.toContain('req/s per DB core');
  });

  it('publishes nothing for a results file other than its database’s default', () => {
    writeFileSync(
      join(root, 'bench', 'results-other.json'),
      readFileSync(join(root, 'bench', 'results.json')),
    );
    rerender(root, 'bench/results-other.json');
    expect(readme()).toBe(README);
  });
});
