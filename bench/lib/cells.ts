import { type DoorRushTarget, openDoorRushDatabase } from './door-rush';
import {
  fire,
  revalidationHeaders,
  timedRun,
  warmUp,
  type DatabaseProbe,
  type LoadOptions,
  type RunMetrics,
} from './load';
import type { BenchOptions } from './options';
import { AB_REPS, abPairs, abTwin, type Cell } from './plan';
import { allCores, httpGet, pin, type Pinning } from './proc';
import { median, summarise, type CellResult } from './report';
import { REQUEST_HEADERS, type Scenario } from './scenarios';
import { openTicketWriteDatabase, writeFaults } from './ticket-writes';
import {
  METRICS_TOKEN,
  SCRAPE_INTERVAL_MS,
  WARM_UP_SCRAPE_INTERVAL_MS,
  isCluster,
  serverSpec,
  type Launch,
  type Servers,
} from './servers';

/** What the cells run with: the servers, and what starts more (a metrics A/B's fresh pairs). */
export interface CellRun extends Launch {
  servers: Servers;
  scenarios: readonly Scenario[];
  options: Pick<BenchOptions, 'duration' | 'warmup' | 'reps' | 'smoke'>;
  /** PostgreSQL's processes, whose CPU and pending queries count too. */
  database?: DatabaseProbe;
  /** The benchmark database, which a write scenario checks and resets after each run. */
  target: DoorRushTarget;
}

/** The load generator's CPUs: its own core, or every core beside the workers of ours2 or ours4. */
function pinLoadGenerator(
  pinning: Pinning | null,
  server: Cell['server'] | null,
) {
  if (pinning)
    pin(
      process.pid,
      server !== null && isCluster(server) ? allCores() : pinning.load,
    );
}

/** A peer slower than a whole run completed nothing: time one request alone, for the report. */
async function timeAlone(
  result: CellResult,
  load: LoadOptions,
  runs: RunMetrics[],
): Promise<void> {
  const started = process.hrtime.bigint();
  await httpGet(load.server.port, load.paths[0], load.headers, 600_000);
  result.median.incomplete = true;
  result.median.soloMs = Number(process.hrtime.bigint() - started) / 1e6;
  result.median.seconds = runs.reduce((sum, r) => sum + r.durationS, 0);
  result.median.runs = runs.length;
}

/**
 * Scrapes GET /metrics every `everyMs` until stopped, as Prometheus would (more often): the
 * metrics cells' load includes what serving the scrapes costs. A failed scrape fails the run.
 */
function scrapeMetrics(
  port: number,
  everyMs = SCRAPE_INTERVAL_MS,
): { stop(): Promise<void> } {
  let failure: Error | null = null;
  let scraping = Promise.resolve();
  const timer = setInterval(() => {
    scraping = httpGet(
      port,
      '/metrics',
      { Authorization: `Bearer ${METRICS_TOKEN}` },
      10_000,
    ).then(
      (answer) => {
        if (answer.status !== 200)
          failure ??= new Error(`GET /metrics answered ${answer.status}`);
      },
      (error: Error) => void (failure ??= error),
    );
  }, everyMs);
  return {
    stop: async () => {
      clearInterval(timer);
      await scraping;
      if (failure) throw failure;
    },
  };
}

async function runCell(cell: Cell, run: CellRun): Promise<CellResult> {
  if (cell.server !== 'metrics') return loadCell(cell, run);
  const scrapes = scrapeMetrics(run.servers.get('metrics')!.port);
  try {
    return await loadCell(cell, run);
  } finally {
    await scrapes.stop();
  }
}

const scenarioOf = (cell: Cell, run: CellRun): Scenario =>
  run.scenarios.find((s) => s.name === cell.scenario)!;

/** What a read cell sends: its scenario's requests, to its server (or to `server`). */
async function readLoad(
  cell: Cell,
  run: CellRun,
  server = run.servers.get(cell.server)!,
): Promise<LoadOptions> {
  const scenario = scenarioOf(cell, run);
  const load: LoadOptions = {
    server,
    paths: cell.server === 'ceiling' ? ['/'] : scenario.paths,
    okStatuses: scenario.okStatuses,
    connections: cell.connections,
    duration: run.options.duration,
    headers: { ...(scenario.headers ?? REQUEST_HEADERS) },
    database: run.database,
    scans: scenario.scans,
    rate: scenario.rate,
  };
  if (scenario.revalidate && cell.server !== 'ceiling') {
    load.pathHeaders = await revalidationHeaders(
      load.server.port,
      load.paths,
      load.headers,
    );
  }
  return load;
}

async function loadCell(cell: Cell, run: CellRun): Promise<CellResult> {
  const scenario = scenarioOf(cell, run);
  const load = await readLoad(cell, run);
  if (scenario.scans || scenario.beside) return runWrites(cell, run, load);
  await warmUp(load, run.options.warmup);
  const runs: RunMetrics[] = [];
  for (let rep = 0; rep < run.options.reps; rep++)
    runs.push(await timedRun(load));
  const result = summarise(cell.scenario, cell.server, cell.connections, runs);
  if (runs.every((r) => r.requests === 0)) await timeAlone(result, load, runs);
  return result;
}

/**
 * The metrics A/B (bench/README.md, "SQLite: the metrics A/B"): `ours` and `metrics` on the same
 * requests, in pairs, each side's median then compared. Each pair runs on two processes of its
 * own, started for it and warmed up: the same build's CPU a request moved by half from one
 * process to the next (bench/notes/2026-11-27-metrics-ab-in-turns.md), so that one process a side
 * would measure its luck (what its JIT compiled, where its memory lies) more than the metrics.
 * The two timed runs of a pair take turns going first (off on, on off, …), so that a machine
 * whose speed drifts, or whatever the second run meets, moves both sides alike; the two processes
 * take turns being started first as well. The metrics side is scraped throughout its runs, as
 * Prometheus would (more often), and ten times a second through its warm-up, which compiles the
 * scrape's code as an instance that has served a while has it (WARM_UP_SCRAPE_INTERVAL_MS).
 *
 * Then each pair runs both sides at once, on the one core the servers are pinned to, each loaded
 * by connections of its own: the scheduler shares the core between them, and the CPU each spends
 * a request is measured over the same seconds, so whatever the VM's speed does then, it does to
 * both (this VM's speed moved by more than the 3% the target allows between runs seconds apart:
 * bench/notes/2026-12-01-metrics-ab-at-once.md). The target compares those: the off side's CPU a
 * request ÷ the metrics side's, the median of the pairs (`sharedRatio`, abPairs). The runs in turns,
 * in the first AB_REPS pairs, stay the cells' figures, each side with the core to itself.
 */
async function runAb(
  off: Cell,
  on: Cell,
  run: CellRun,
): Promise<[CellResult, CellResult]> {
  const fresh = (cell: Cell, pair: number) =>
    run.servers.start({
      ...serverSpec(cell.server, run),
      name: `${cell.server} (A/B pair ${pair})`,
    });
  const offRuns: RunMetrics[] = [];
  const onRuns: RunMetrics[] = [];
  /** Each pair's off CPU a request ÷ on CPU a request, both run at once. */
  const shared: number[] = [];
  const turns = Math.max(run.options.reps, AB_REPS);
  const pairs = abPairs(run.options);
  for (let pair = 1; pair <= pairs; pair++) {
    // Started in turns too: of two processes of the same build, started one after the other,
    // the second spent 1–3% less CPU a request in the run at once (the control of
    // bench/notes/2026-12-06-metrics-close-listener-and-major-gcs.md).
    const servers =
      pair % 2 === 1
        ? [await fresh(off, pair), await fresh(on, pair)]
        : await fresh(on, pair).then(async (first) => [
            await fresh(off, pair),
            first,
          ]);
    try {
      const offLoad = await readLoad(off, run, servers[0]);
      const onLoad = await readLoad(on, run, servers[1]);
      const scraped = async <T>(
        work: () => Promise<T>,
        everyMs?: number,
      ): Promise<T> => {
        const scrapes = scrapeMetrics(onLoad.server.port, everyMs);
        try {
          return await work();
        } finally {
          await scrapes.stop();
        }
      };
      await warmUp(offLoad, run.options.warmup);
      await scraped(
        () => warmUp(onLoad, run.options.warmup),
        WARM_UP_SCRAPE_INTERVAL_MS,
      );
      const runOff = async () => offRuns.push(await timedRun(offLoad));
      const runOn = async () =>
        onRuns.push(await scraped(() => timedRun(onLoad)));
      if (pair <= turns) {
        for (const side of pair % 2 === 1 ? [runOff, runOn] : [runOn, runOff])
          await side();
      }
      const [offShared, onShared] = await Promise.all([
        timedRun(offLoad),
        scraped(() => timedRun(onLoad)),
      ]);
      if (offShared.cpuUsPerRequest && onShared.cpuUsPerRequest) {
        shared.push(offShared.cpuUsPerRequest / onShared.cpuUsPerRequest);
      }
    } finally {
      for (const server of servers) await run.servers.stop(server);
    }
  }
  const metrics = summarise(on.scenario, on.server, on.connections, onRuns);
  if (shared.length > 0) metrics.median.sharedRatio = median(shared);
  return [
    summarise(off.scenario, off.server, off.connections, offRuns),
    metrics,
  ];
}

/**
 * What a write cell asks the database after each run and undoes: the door rush's tickets let in
 * twice (door-rush.ts), or the ticket writes' rows against their answers (ticket-writes.ts).
 */
export interface WriteChecker {
  mark(): Promise<void>;
  /** Sets the run's doubleEntries or writeFaults. */
  check(metrics: RunMetrics): Promise<void>;
  reset(): Promise<void>;
  close(): Promise<void>;
}

export async function openWriteChecker(
  scenario: Scenario,
  target: DoorRushTarget,
  connections: number,
): Promise<WriteChecker> {
  const { ticketWrites } = scenario;
  if (ticketWrites) {
    const db = await openTicketWriteDatabase(target, ticketWrites);
    const success = ticketWrites.kind === 'issue' ? '201' : '200';
    return {
      mark: () => db.mark(),
      check: async (metrics) => {
        const findings = await db.findings();
        metrics.writeFaults = writeFaults(
          findings,
          metrics.statuses[success] ?? 0,
          connections,
        );
        if (metrics.writeFaults > 0) {
          console.error(
            `  ${scenario.name}: the database holds ${findings.written} rows written for ${metrics.statuses[success] ?? 0} answers ${success} (${connections} in flight at most); ${findings.overCapacity} ticket types over capacity, ${findings.counterDrift} with quantity_issued drifted`,
          );
        }
      },
      reset: () => db.reset(),
      close: () => db.close(),
    };
  }
  const door = await openDoorRushDatabase(target);
  return {
    mark: () => door.mark(),
    check: async (metrics) => {
      metrics.doubleEntries = await door.doubleEntries();
    },
    reset: () => door.reset(),
    close: () => door.close(),
  };
}

/**
 * A cell that writes (the door rush, the ticket writes, or reads with the rush beside them): the
 * same runs, each from the same database, asked after it whether it holds what the answers said
 * (openWriteChecker), then cleared of what it wrote. Reads with the rush beside them run in turns
 * with the same reads alone, on the same server (alone first, then beside, then beside first, …):
 * the ratio of the two is the cell's point, and runs minutes apart on this VM can differ by more
 * than the rush costs (bench/notes/2026-12-01-door-rush-paced-evenly.md).
 */
async function runWrites(
  cell: Cell,
  run: CellRun,
  load: LoadOptions,
): Promise<CellResult> {
  const scenario = scenarioOf(cell, run);
  const { beside } = scenario;
  // The rush beside the reads: as long as each run, paced, on the same server.
  const rush = (seconds: number) =>
    beside
      ? fire({ ...load, paths: ['/v1/check_ins'], ...beside }, seconds)
      : Promise.resolve();
  const door = await openWriteChecker(scenario, run.target, cell.connections);
  try {
    await door.mark();
    await Promise.all([
      warmUp(load, run.options.warmup),
      rush(run.options.warmup),
    ]);
    await door.reset();
    const runs: RunMetrics[] = [];
    const alone: RunMetrics[] = [];
    const withRush = async () => {
      await door.mark();
      const [metrics] = await Promise.all([
        timedRun(load),
        rush(run.options.duration),
      ]);
      await door.check(metrics);
      await door.reset();
      runs.push(metrics);
    };
    const readsAlone = async () => void alone.push(await timedRun(load));
    for (let rep = 0; rep < run.options.reps; rep++) {
      if (!beside) await withRush();
      else {
        for (const side of rep % 2 === 0
          ? [readsAlone, withRush]
          : [withRush, readsAlone])
          await side();
      }
    }
    const result = summarise(
      cell.scenario,
      cell.server,
      cell.connections,
      runs,
    );
    if (beside) result.median.aloneRps = median(alone.map((r) => r.rps));
    if (scenario.ticketWrites) {
      const success = scenario.ticketWrites.kind === 'issue' ? '201' : '200';
      result.median.succeededRps = median(
        runs.map((r) => (r.statuses[success] ?? 0) / r.durationS),
      );
    }
    return result;
  } finally {
    await door.close();
  }
}

function cellLine({ scenario, server, connections, median: m }: CellResult) {
  return (
    `  ${scenario.padEnd(8)} ${server.padEnd(7)} @${String(connections).padEnd(2)} ` +
    `${m.rps.toFixed(m.rps < 10 ? 1 : 0).padStart(7)} req/s  p50 ${m.p50} ms  p99 ${m.p99} ms  ` +
    `${m.mbps.toFixed(1)} MB/s  ${m.cpuUsPerRequest === null ? '–' : Math.round(m.cpuUsPerRequest)} µs CPU/req  ${m.errors} errors` +
    (m.doubleEntries === undefined
      ? ''
      : `  ${m.doubleEntries} double entries`) +
    (m.writeFaults === undefined
      ? ''
      : `  ${Math.round(m.succeededRps ?? 0)} written/s, ${m.writeFaults} faults`)
  );
}

/**
 * The timed matrix: each cell in turn, a line printed as each ends; a metrics cell runs in turns
 * with its `ours` twin (runAb).
 */
export async function runCells(
  cells: readonly Cell[],
  run: CellRun,
): Promise<CellResult[]> {
  const results: CellResult[] = [];
  for (const cell of cells) {
    pinLoadGenerator(run.pinning, cell.server);
    const twin = abTwin(cell, cells);
    if (cell.server === 'metrics' && twin) continue; // run with its twin
    const measured = twin
      ? await runAb(cell, twin, run)
      : [await runCell(cell, run)];
    for (const result of measured) {
      console.log(cellLine(result));
      results.push(result);
    }
  }
  pinLoadGenerator(run.pinning, null);
  return results;
}
