import type { BenchOptions } from './options';
import type { Pinning } from './proc';
import {
  BARE_SCENARIOS,
  OURS_ONLY,
  type Scenario,
  type ScenarioName,
} from './scenarios';
import type { ServerName } from './servers';

/** One scenario on one server at one connection count: warm-up, then the timed runs. */
export interface Cell {
  scenario: ScenarioName;
  server: ServerName;
  connections: number;
}

/**
 * The default matrix (bench/README.md, "Matrix and time budget"): every scenario at 10
 * connections for ours and typical (invalid: ours only), and the orders' scenarios for the
 * framework-free baseline; the walk, the headline, also at 1 connection, against the ceiling and
 * on two workers; order retrieval and the walk with metrics on. `--full` runs every scenario on
 * every server at 1 and 10 connections.
 */
export function plan(options: BenchOptions, scenarios: Scenario[]): Cell[] {
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
    // The metrics A/B: the same server with metrics on and scraped, on order retrieval and the
    // walk (issue #38: at most 3% fewer req/s).
    if (name === 'retrieve' || name === 'walk') add(name, 'metrics', [10]);
    // The door rush and the ticket writes on two workers too: on PostgreSQL, two instances on
    // one database.
    if (
      name === 'walk' ||
      name.startsWith('doorrush') ||
      name === 'issue' ||
      name === 'void' ||
      options.full
    )
      add(name, 'ours2', [10]);
    // The build before (--before): the door rush on it, beside ours.
    if (
      options.before &&
      name.startsWith('doorrush') &&
      name !== 'doorrushexpand'
    )
      add(name, 'before', [10]);
    // Four workers: the scale-out measurement, only when --servers names it.
    if (name === 'walk' && options.servers?.includes('ours4'))
      add(name, 'ours4', [10]);
    if (BARE_SCENARIOS.has(name)) add(name, 'bare', both);
    // The framework floor (Nest on Express, our reader, none of our steps): on retrieval and the
    // walk, the two ours ÷ nest targets (issue #51), every orders' scenario with --full.
    if (
      BARE_SCENARIOS.has(name) &&
      (options.full || name === 'retrieve' || name === 'walk')
    )
      add(name, 'nest', [10]);
    // The 400 path costs both servers next to nothing: compared only with --full. The typical
    // peer has no sync parameters or change feed (OURS_ONLY).
    if (OURS_ONLY.has(name)) continue;
    if (name !== 'invalid' || options.full || options.smoke)
      add(name, 'typical', both);
  }
  const servers = options.servers;
  return servers ? cells.filter((c) => servers.includes(c.server)) : cells;
}

/**
 * The servers a run starts: those of its cells, and always ours and the servers the correctness
 * gate compares it with (typical unless --servers leaves it out; ours2, ours4, bare and nest when
 * --servers names them, so that `--gate-only` checks them too).
 */
export function serversNeeded(
  options: BenchOptions,
  cells: Cell[],
): Set<ServerName> {
  const needed = new Set<ServerName>(cells.map((c) => c.server));
  needed.add('ours');
  if (!options.servers || options.servers.includes('typical'))
    needed.add('typical');
  for (const name of ['ours2', 'ours4', 'bare', 'nest'] as const) {
    if (options.servers?.includes(name)) needed.add(name);
  }
  return needed;
}

const RUN_OVERHEAD_S = 0.8; // waiting for the server to go idle, connection set-up

/**
 * Pairs of the metrics A/B that time each side alone, in turns (cells.ts, runAb): at least this
 * many, an even number so that each side goes first as often.
 */
export const AB_REPS = 6;

/**
 * Pairs of the metrics A/B in all, each ending with a run of both sides at once, whose median
 * the target reads: two identical processes differed by up to 10% a pair on this VM
 * (bench/notes/2026-12-01-metrics-ab-at-once.md), so it takes this many to read 3%.
 */
const AB_PAIRS = 16;

/** Pairs of the metrics A/B a run makes: AB_PAIRS, or AB_REPS in the smoke (not gated on it). */
export function abPairs(options: Pick<BenchOptions, 'reps' | 'smoke'>): number {
  return Math.max(options.reps, options.smoke ? AB_REPS : AB_PAIRS);
}

/** The other side of a cell's metrics A/B (`ours` ↔ `metrics`), if the run has it. */
export function abTwin(cell: Cell, cells: readonly Cell[]): Cell | undefined {
  const other =
    cell.server === 'ours'
      ? 'metrics'
      : cell.server === 'metrics'
        ? 'ours'
        : null;
  return cells.find(
    (c) =>
      c.server === other &&
      c.scenario === cell.scenario &&
      c.connections === cell.connections,
  );
}

const SERVER_START_S = 2; // a fresh process of a metrics A/B pair, until it answers

function estimateSeconds(options: BenchOptions, cells: Cell[]): number {
  const run = options.duration + RUN_OVERHEAD_S;
  return cells.reduce(
    (sum, cell) =>
      sum +
      (abTwin(cell, cells)
        ? // Each pair a fresh process a side, warmed up; the first pairs a run each alone; every
          // pair one run of both at once (cells.ts, runAb): half of it counted on each side.
          Math.max(options.reps, AB_REPS) * run +
          abPairs(options) * (SERVER_START_S + options.warmup + 0.5 * run)
        : options.warmup +
          RUN_OVERHEAD_S +
          // Reads beside the rush run in turns with the same reads alone (cells.ts, runWrites).
          (cell.scenario === 'walkscans' ? 2 : 1) * options.reps * run),
    0,
  );
}

/** One line on what the run will do and how long the load takes. */
export function describePlan(
  options: BenchOptions,
  cells: Cell[],
  pinning: Pinning | null,
): string {
  return (
    `Plan: ${cells.length} cells x (${options.warmup} s warm-up + ${options.reps} x ${options.duration} s) ≈ ${Math.ceil(estimateSeconds(options, cells) / 60)} min of load` +
    (pinning
      ? `; load generator on CPU ${pinning.load}, servers on CPU ${pinning.servers}`
      : '; no CPU pinning')
  );
}
