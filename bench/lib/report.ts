import type { RunMetrics } from './load';
import { profileMarkdown, type ScenarioProfile } from './profile';
import {
  SERVER_LABELS,
  SERVER_NAMES,
  isCluster,
  type ServerName,
} from './servers';

export interface CellResult {
  scenario: string;
  server: ServerName;
  connections: number;
  runs: RunMetrics[];
  /** Medians of the runs' metrics, with the range of req/s. */
  median: Omit<RunMetrics, 'requests' | 'statuses' | 'durationS'> & {
    rpsMin: number;
    rpsMax: number;
    /** No request completed in any timed run (a peer slower than the run): see soloMs. */
    incomplete?: boolean;
    /** Then: the latency of one request sent alone, ms. */
    soloMs?: number;
    /** Seconds of timed load in all, and runs, for the bounds an incomplete cell gives. */
    seconds?: number;
    runs?: number;
    /** A write scenario: tickets let in twice, all runs (must be 0). */
    doubleEntries?: number;
    /** A ticket-write scenario: the database unlike the answers, all runs (must be 0). */
    writeFaults?: number;
    /** A ticket-write scenario: writes done (201 issued, 200 voided) a second, median. */
    succeededRps?: number;
    /** Reads with the rush beside them: the same reads alone, run in turns with these (req/s). */
    aloneRps?: number;
    /**
     * The metrics A/B's side: ours' CPU a request ÷ this side's, both run at once on one core, the
     * median of the pairs (cells.ts, runAb).
     */
    sharedRatio?: number;
  };
}

export function median(values: number[]): number {
  const sorted = values.filter((v) => Number.isFinite(v)).sort((a, b) => a - b);
  if (sorted.length === 0) return NaN;
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

export function summarise(
  scenario: string,
  server: ServerName,
  connections: number,
  runs: RunMetrics[],
): CellResult {
  const cpu = runs
    .map((r) => r.cpuUsPerRequest)
    .filter((v): v is number => v !== null);
  const dbCpu = runs
    .map((r) => r.dbCpuUsPerRequest)
    .filter((v): v is number => v !== null);
  const doubles = runs.map((r) => r.doubleEntries);
  const faults = runs.map((r) => r.writeFaults);
  return {
    scenario,
    server,
    connections,
    runs,
    median: {
      rps: median(runs.map((r) => r.rps)),
      rpsMin: Math.min(...runs.map((r) => r.rps)),
      rpsMax: Math.max(...runs.map((r) => r.rps)),
      mean: median(runs.map((r) => r.mean)),
      p50: median(runs.map((r) => r.p50)),
      p99: median(runs.map((r) => r.p99)),
      mbps: median(runs.map((r) => r.mbps)),
      cpuUsPerRequest: cpu.length ? median(cpu) : null,
      dbCpuUsPerRequest: dbCpu.length ? median(dbCpu) : null,
      errors: runs.reduce((sum, r) => sum + r.errors, 0),
      ...(doubles.every((d) => d !== undefined)
        ? { doubleEntries: doubles.reduce((sum, d) => sum + d, 0) }
        : {}),
      ...(faults.every((f) => f !== undefined)
        ? { writeFaults: faults.reduce((sum, f) => sum + f, 0) }
        : {}),
    },
  };
}

export interface Target {
  name: string;
  /** The value is a lower bound (the peer completed nothing). */
  lower?: boolean;
  /** How the value is computed, for the reader. */
  how: string;
  value: number;
  goal: string;
  met: boolean | null;
}

export function findCell(
  cells: CellResult[],
  scenario: string,
  server: ServerName,
  connections = 10,
) {
  return cells.find(
    (c) =>
      c.scenario === scenario &&
      c.server === server &&
      c.connections === connections,
  );
}

const ratio = (a: number | undefined, b: number | undefined) =>
  a === undefined || b === undefined || !(b > 0) ? NaN : a / b;

type Median = CellResult['median'];

/**
 * ours ÷ peer req/s and peer ÷ ours p99. A peer that completed nothing gives lower bounds: it
 * did under 1 request in all its timed seconds, and each took longer than one run.
 */
function speedup(ours: Median | undefined, peer: Median | undefined) {
  if (!ours || !peer) return { value: NaN, lower: false };
  if (peer.incomplete)
    return { value: ours.rps * (peer.seconds ?? NaN), lower: true };
  return { value: ratio(ours.rps, peer.rps), lower: false };
}
function slowdown(ours: Median | undefined, peer: Median | undefined) {
  if (!ours || !peer) return { value: NaN, lower: false };
  if (peer.incomplete) {
    const oneRun = ((peer.seconds ?? NaN) / Math.max(1, peer.runs ?? 1)) * 1000;
    return { value: oneRun / ours.p99, lower: true };
  }
  return { value: ratio(peer.p99, ours.p99), lower: false };
}

/** Errors of every server but the peer (ours, metrics on, ours2, the baseline, the ceiling), all runs. */
export function ourErrors(cells: CellResult[]): number {
  return cells
    .filter((c) => c.server !== 'typical')
    .reduce((sum, c) => sum + c.median.errors, 0);
}

/** The issue's targets, from whatever cells were run (NaN / null when a cell is missing). */
export function targets(
  cells: CellResult[],
  rss: Partial<Record<ServerName, number[]>>,
): Target[] {
  const at = (v: number, ok: (v: number) => boolean) =>
    Number.isFinite(v) ? ok(v) : null;
  const ours = (s: string) => findCell(cells, s, 'ours')?.median;
  const typical = (s: string) => findCell(cells, s, 'typical')?.median;
  const out: Target[] = [];
  const add = (
    name: string,
    how: string,
    value: number,
    goal: string,
    ok: (v: number) => boolean,
  ) => out.push({ name, how, value, goal, met: at(value, ok) });

  const up = speedup(ours('walk'), typical('walk'));
  add(
    'ours/typical throughput, walk',
    'req/s ours ÷ typical, walk @10',
    up.value,
    '≥ 20×',
    (v) => v >= 20,
  );
  out[out.length - 1].lower = up.lower;
  const down = slowdown(ours('walk'), typical('walk'));
  add(
    'typical/ours p99, walk',
    'p99 typical ÷ ours, walk @10',
    down.value,
    '≥ 20×',
    (v) => v >= 20,
  );
  out[out.length - 1].lower = down.lower;
  add(
    'ours MB/s, walk (1 process)',
    'MB/s, walk @10',
    ours('walk')?.mbps ?? NaN,
    '≥ 50',
    (v) => v >= 50,
  );
  add(
    'ours MB/s, walk (2 workers)',
    'MB/s, walk @10',
    findCell(cells, 'walk', 'ours2')?.median.mbps ?? NaN,
    '≥ 90',
    (v) => v >= 90,
  );
  add(
    'ours p99, walk',
    'p99, walk @10',
    ours('walk')?.p99 ?? NaN,
    '≤ 80 ms',
    (v) => v <= 80,
  );
  const listScenarios = ['first', 'walk', 'deep50', 'deep99', 'range', 'event'];
  const p99s = listScenarios
    .map((s) => ours(s)?.p99)
    .filter((v): v is number => v !== undefined);
  add(
    'ours p99, worst list scenario',
    `max p99 @10 over ${listScenarios.join(', ')}`,
    p99s.length ? Math.max(...p99s) : NaN,
    '≤ 80 ms',
    (v) => v <= 80,
  );
  add(
    'deep (99%) / first page latency',
    'mean latency ratio @10',
    ratio(ours('deep99')?.mean, ours('first')?.mean),
    '≤ 1.2',
    (v) => v <= 1.2,
  );
  add(
    'range filter / walk latency',
    'mean latency ratio @10',
    ratio(ours('range')?.mean, ours('walk')?.mean),
    '≤ 1.3',
    (v) => v <= 1.3,
  );
  const bare = (s: string) => findCell(cells, s, 'bare')?.median;
  add(
    'retrieve req/s, ours ÷ bare',
    'req/s ours ÷ bare, retrieve @10',
    ratio(ours('retrieve')?.rps, bare('retrieve')?.rps),
    '≥ 0.75×',
    (v) => v >= 0.75,
  );
  // The framework floor (issue #51): what our steps cost above Nest on Express with our reader.
  const nest = (s: string) => findCell(cells, s, 'nest')?.median;
  for (const [scenario, what] of [
    ['retrieve', 'retrieve'],
    ['walk', 'walk'],
  ] as const) {
    add(
      `${what} req/s, ours ÷ nest`,
      `req/s ours ÷ nest, ${scenario} @10`,
      ratio(ours(scenario)?.rps, nest(scenario)?.rps),
      '≥ 0.9×',
      (v) => v >= 0.9,
    );
  }
  add(
    'retrieve req/s (1 process)',
    'req/s, retrieve @10',
    ours('retrieve')?.rps ?? NaN,
    '≥ 2,000',
    (v) => v >= 2000,
  );
  add(
    'issued-ticket walk req/s (1 process)',
    'req/s, tickets @10',
    ours('tickets')?.rps ?? NaN,
    '≥ 1,000',
    (v) => v >= 1000,
  );
  add(
    'issued tickets: deep (99%) / early pages latency',
    'mean latency ratio @10, ticketdeep ÷ tickets',
    ratio(ours('ticketdeep')?.mean, ours('tickets')?.mean),
    '≤ 1.2',
    (v) => v <= 1.2,
  );
  add(
    'event list page req/s (1 process)',
    'req/s, events @10',
    ours('events')?.rps ?? NaN,
    '≥ 500',
    (v) => v >= 500,
  );
  add(
    'event retrieval req/s (1 process)',
    'req/s, eventget @10',
    ours('eventget')?.rps ?? NaN,
    '≥ 2,000',
    (v) => v >= 2000,
  );
  add(
    'issued-ticket retrieval req/s (1 process)',
    'req/s, ticketget @10',
    ours('ticketget')?.rps ?? NaN,
    '≥ 2,000',
    (v) => v >= 2000,
  );
  add(
    'event series list req/s (1 process)',
    'req/s, series @10',
    ours('series')?.rps ?? NaN,
    '≥ 500',
    (v) => v >= 500,
  );
  // Every stream Ticket Tailor's connectors read: each new list at 500 pages a second.
  for (const [scenario, what] of [
    ['products', 'products list'],
    ['vouchers', 'vouchers list'],
    ['codes', "a voucher's codes"],
    ['discounts', 'discounts list'],
    ['waitlists', "a series' waitlist signups"],
  ] as const) {
    add(
      `${what} req/s (1 process)`,
      `req/s, ${scenario} @10`,
      ours(scenario)?.rps ?? NaN,
      '≥ 500',
      (v) => v >= 500,
    );
  }
  add(
    "a series' dates: nested ÷ filtered",
    'req/s ratio @10, seriesevents ÷ seriesfilter',
    ratio(ours('seriesevents')?.rps, ours('seriesfilter')?.rps),
    '0.9–1.1',
    (v) => v >= 0.9 && v <= 1.1,
  );
  add(
    'check-in walk req/s (1 process)',
    'req/s, checkins @10',
    ours('checkins')?.rps ?? NaN,
    '≥ 1,000',
    (v) => v >= 1000,
  );
  add(
    'overview req/s (1 process)',
    'req/s, overview @10',
    ours('overview')?.rps ?? NaN,
    '≥ 1,000',
    (v) => v >= 1000,
  );
  // The door's look-up and numbers (issue #47). autocannon gives no p95: p99, which is stricter,
  // stands for it.
  add(
    'ticket search within one event, p99',
    'p99, searchevent @10',
    ours('searchevent')?.p99 ?? NaN,
    '≤ 20 ms',
    (v) => v <= 20,
  );
  add(
    'ticket search across the box office, p99',
    'p99, searchoffice @10',
    ours('searchoffice')?.p99 ?? NaN,
    '≤ 100 ms',
    (v) => v <= 100,
  );
  add(
    'attendance of the biggest event req/s (1 process)',
    'req/s, attendance @10',
    ours('attendance')?.rps ?? NaN,
    '≥ 1,000',
    (v) => v >= 1000,
  );
  add(
    'first page: 304 from the version ÷ 200',
    'req/s ratio @10, firstpoll ÷ first',
    ratio(ours('firstpoll')?.rps, ours('first')?.rps),
    '≥ 5×',
    (v) => v >= 5,
  );
  add(
    'events page: 304 from the version ÷ 200',
    'req/s ratio @10, eventpoll ÷ events',
    ratio(ours('eventpoll')?.rps, ours('events')?.rps),
    '≥ 5×',
    (v) => v >= 5,
  );
  for (const [scenario, what] of [
    ['retrieve', 'order retrieval'],
    ['walk', 'order walk'],
  ] as const) {
    const metrics = findCell(cells, scenario, 'metrics')?.median;
    add(
      `${what} with metrics on ÷ off`,
      metrics?.sharedRatio !== undefined
        ? `requests a CPU-second, metrics ÷ ours, both at once on one core, ${scenario} @10`
        : `req/s metrics ÷ ours, ${scenario} @10`,
      metrics?.sharedRatio ?? ratio(metrics?.rps, ours(scenario)?.rps),
      '≥ 0.97×',
      (v) => v >= 0.97,
    );
  }
  const door = (server: ServerName, scenario = 'doorrush') =>
    findCell(cells, scenario, server)?.median;
  add(
    'door rush scans/s, 1 process (the goal on SQLite)',
    'req/s, doorrush @10',
    door('ours')?.rps ?? NaN,
    '≥ 1,000',
    (v) => v >= 1000,
  );
  add(
    'door rush scans/s, 2 workers (the goal on PostgreSQL)',
    'req/s, doorrush @10 on ours2',
    door('ours2')?.rps ?? NaN,
    '≥ 500',
    (v) => v >= 500,
  );
  add(
    'door rush, ours ÷ the build before (--before)',
    'req/s ratio @10, doorrush on ours ÷ on before, same run',
    ratio(door('ours')?.rps, door('before')?.rps),
    '≥ 0.95×',
    (v) => v >= 0.95,
  );
  add(
    'door rush with ?expand=issued_ticket ÷ without',
    'req/s ratio @10, doorrushexpand ÷ doorrush',
    ratio(door('ours', 'doorrushexpand')?.rps, door('ours')?.rps),
    '≥ 0.9×',
    (v) => v >= 0.9,
  );
  // The ticket writes (issue #49): the writes done a second (201 issued, 200 voided).
  for (const [scenario, what] of [
    ['issue', 'tickets issued/s across ten types'],
    ['void', 'tickets voided/s'],
  ] as const) {
    add(
      `${what}, 1 process (the goal on SQLite)`,
      `${scenario === 'issue' ? '201' : '200'}s a second, ${scenario} @10`,
      door('ours', scenario)?.succeededRps ?? NaN,
      '≥ 500',
      (v) => v >= 500,
    );
    add(
      `${what}, 2 workers (the goal on PostgreSQL)`,
      `${scenario === 'issue' ? '201' : '200'}s a second, ${scenario} @10 on ours2`,
      door('ours2', scenario)?.succeededRps ?? NaN,
      '≥ 500',
      (v) => v >= 500,
    );
  }
  const faults = cells
    .map((c) => c.median.writeFaults)
    .filter((v): v is number => v !== undefined);
  add(
    'ticket writes: the database unlike the answers',
    'rows issued/voided ≠ successes, types over capacity or with quantity_issued drifted, from the database, all runs',
    faults.length ? faults.reduce((a, b) => a + b, 0) : NaN,
    '0',
    (v) => v === 0,
  );
  const paced = [door('ours', 'doorrush200'), door('ours2', 'doorrush200')]
    .map((m) => m?.p99)
    .filter((v): v is number => v !== undefined);
  add(
    'door rush p99 at 200 scans/s',
    'max p99 of doorrush200 on ours and ours2',
    paced.length ? Math.max(...paced) : NaN,
    '≤ 50 ms',
    (v) => v <= 50,
  );
  const besideRush = ours('walkscans');
  add(
    'walk while the door rush runs ÷ walk alone',
    'req/s ratio @10, walkscans ÷ the walk alone in turns with it',
    ratio(besideRush?.rps, besideRush?.aloneRps ?? ours('walk')?.rps),
    '≥ 0.8×',
    (v) => v >= 0.8,
  );
  const doubles = cells
    .map((c) => c.median.doubleEntries)
    .filter((v): v is number => v !== undefined);
  add(
    'door rush double entries',
    'tickets let in twice, from the database, all runs',
    doubles.length ? doubles.reduce((a, b) => a + b, 0) : NaN,
    '0',
    (v) => v === 0,
  );
  add(
    'errors (ours, metrics, ours2, nest, bare, ceiling, before)',
    'all runs',
    cells.length ? ourErrors(cells) : NaN,
    '0',
    (v) => v === 0,
  );
  const peaks = [
    ...(rss.ours ?? []),
    ...(rss.ours2 ?? []),
    ...(rss.ours4 ?? []),
  ];
  add(
    'peak RSS per process (ours, ours2, ours4)',
    'max VmHWM, MB',
    peaks.length ? Math.max(...peaks) : NaN,
    '≤ 256 MB',
    (v) => v <= 256,
  );
  return out;
}

const fmt = (v: number | null | undefined, digits = 0) =>
  v === null || v === undefined || !Number.isFinite(v)
    ? '–'
    : v.toLocaleString('en-US', {
        minimumFractionDigits: digits,
        maximumFractionDigits: digits,
      });

const fmtRatio = (v: number, lower = false): string =>
  lower
    ? `> ${fmtRatio(v)}`
    : !Number.isFinite(v)
      ? '–'
      : v >= 100
        ? `${fmt(v)}×`
        : v >= 10
          ? `${fmt(v, 1)}×`
          : `${fmt(v, 2)}×`;

export function markdownTable(
  cells: CellResult[],
  sqlPerRequest: Record<string, Record<string, number>>,
  titles: Record<string, string>,
  reps: number,
): string {
  // PostgreSQL runs its queries in other processes: their CPU gets a column of its own.
  const db = cells.some((c) => c.median.dbCpuUsPerRequest !== null);
  const lines = [
    `| scenario | server | conns | req/s (median${reps > 1 ? ' [min–max]' : ''}) | p50 ms | p99 ms | MB/s | CPU µs/req${db ? ' | DB CPU µs/req' : ''} | SQL/req | errors |`,
    `| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |${db ? ' ---: |' : ''} ---: | ---: |`,
  ];
  for (const c of cells) {
    const m = c.median;
    const spread = m.incomplete
      ? ` (none completed in ${fmt(m.seconds)} s)`
      : reps > 1
        ? ` [${fmt(m.rpsMin)}–${fmt(m.rpsMax)}]`
        : '';
    const p50 = m.incomplete
      ? `alone: ${fmt(m.soloMs)}`
      : fmt(m.p50, m.p50 < 10 ? 1 : 0);
    // ours2, ours4 and metrics are ours and send its statements.
    const sql =
      sqlPerRequest[
        isCluster(c.server) || c.server === 'metrics' ? 'ours' : c.server
      ]?.[c.scenario];
    lines.push(
      `| ${titles[c.scenario] ?? c.scenario} | ${SERVER_LABELS[c.server]} | ${c.connections} | ${fmt(m.rps, m.rps < 10 ? 1 : 0)}${spread} | ${p50} | ${fmt(m.p99, m.p99 < 10 ? 1 : 0)} | ${fmt(m.mbps, 1)} | ${fmt(m.cpuUsPerRequest)}${db ? ` | ${fmt(m.dbCpuUsPerRequest)}` : ''} | ${c.server === 'ceiling' ? '0' : fmt(sql, sql !== undefined && sql % 1 ? 1 : 0)} | ${m.errors} |`,
    );
  }
  return lines.join('\n');
}

/**
 * The door rush's cells (bench/README.md, "Door rush"): scans per second, latency, how many were
 * recorded and refused (the second scans of a ticket), and the tickets the database shows let in
 * twice. Null when none ran.
 */
export function doorRushTable(
  cells: CellResult[],
  titles: Record<string, string>,
): string | null {
  const door = cells.filter((c) => c.scenario.startsWith('doorrush'));
  if (door.length === 0) return null;
  const lines = [
    '| scenario | server | conns | scans/s | p50 ms | p99 ms | recorded (201) | refused (409) | double entries | errors |',
    '| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
  ];
  for (const c of door) {
    const m = c.median;
    const count = (status: string) =>
      c.runs.reduce((sum, r) => sum + (r.statuses[status] ?? 0), 0);
    lines.push(
      `| ${titles[c.scenario] ?? c.scenario} | ${SERVER_LABELS[c.server]} | ${c.connections} | ${fmt(m.rps)} | ${fmt(m.p50, m.p50 < 10 ? 1 : 0)} | ${fmt(m.p99, m.p99 < 10 ? 1 : 0)} | ${fmt(count('201'))} | ${fmt(count('409'))} | ${m.doubleEntries} | ${m.errors} |`,
    );
  }
  return lines.join('\n');
}

/**
 * The ticket writes' cells (bench/README.md, "Ticket writes"): writes done a second, latency,
 * the answers by status, and what the database showed against them. Null when none ran.
 */
export function ticketWriteTable(
  cells: CellResult[],
  titles: Record<string, string>,
): string | null {
  const writes = cells.filter(
    (c) => c.scenario === 'issue' || c.scenario === 'void',
  );
  if (writes.length === 0) return null;
  const lines = [
    '| scenario | server | conns | written/s | answers/s | p50 ms | p99 ms | CPU µs/req | 201 | 200 | 409 | faults (database ≠ answers) | errors |',
    '| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
  ];
  for (const c of writes) {
    const m = c.median;
    const count = (status: string) =>
      c.runs.reduce((sum, r) => sum + (r.statuses[status] ?? 0), 0);
    lines.push(
      `| ${titles[c.scenario] ?? c.scenario} | ${SERVER_LABELS[c.server]} | ${c.connections} | ${fmt(m.succeededRps)} | ${fmt(m.rps)} | ${fmt(m.p50, m.p50 < 10 ? 1 : 0)} | ${fmt(m.p99, m.p99 < 10 ? 1 : 0)} | ${fmt(m.cpuUsPerRequest)} | ${fmt(count('201'))} | ${fmt(count('200'))} | ${fmt(count('409'))} | ${m.writeFaults ?? '–'} | ${m.errors} |`,
    );
  }
  return lines.join('\n');
}

export function ratioTable(
  cells: CellResult[],
  titles: Record<string, string>,
): string {
  const lines = [
    '| scenario | conns | ours req/s ÷ typical | typical p99 ÷ ours | ours ÷ nest req/s | ours ÷ bare req/s | ours ÷ ceiling req/s | ours2 ÷ ours req/s | metrics on ÷ off req/s |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
  ];
  const keys = new Set(cells.map((c) => `${c.scenario}|${c.connections}`));
  for (const key of keys) {
    const [scenario, conns] = key.split('|');
    const n = Number(conns);
    const ours = findCell(cells, scenario, 'ours', n)?.median;
    if (!ours) continue;
    const typical = findCell(cells, scenario, 'typical', n)?.median;
    const nest = findCell(cells, scenario, 'nest', n)?.median;
    const bare = findCell(cells, scenario, 'bare', n)?.median;
    const ceiling = findCell(cells, scenario, 'ceiling', n)?.median;
    const ours2 = findCell(cells, scenario, 'ours2', n)?.median;
    const metrics = findCell(cells, scenario, 'metrics', n)?.median;
    if (!typical && !nest && !bare && !ceiling && !ours2 && !metrics) continue;
    const up = speedup(ours, typical);
    const down = slowdown(ours, typical);
    lines.push(
      `| ${titles[scenario] ?? scenario} | ${n} | ${fmtRatio(up.value, up.lower)} | ${fmtRatio(down.value, down.lower)} | ${fmtRatio(ratio(ours.rps, nest?.rps))} | ${fmtRatio(ratio(ours.rps, bare?.rps))} | ${fmtRatio(ratio(ours.rps, ceiling?.rps))} | ${fmtRatio(ratio(ours2?.rps, ours.rps))} | ${fmtRatio(ratio(metrics?.rps, ours.rps))} |`,
    );
  }
  return lines.join('\n');
}

/** A target's measured value in the unit its goal is written in. */
function targetValue(t: Target): string {
  return t.goal.endsWith('×') || t.goal.startsWith('≤ 1.')
    ? fmtRatio(t.value, t.lower)
    : t.goal.includes('ms')
      ? `${fmt(t.value, 1)} ms`
      : t.goal.includes('MB') && !t.goal.includes('/')
        ? `${fmt(t.value)} MB`
        : fmt(t.value, t.value < 100 && !Number.isInteger(t.value) ? 1 : 0);
}

const metMark = (t: Target) => (t.met === null ? '–' : t.met ? '✅' : '❌');

export function targetTable(list: Target[]): string {
  const lines = [
    '| target | goal | measured | met |',
    '| --- | ---: | ---: | :---: |',
  ];
  for (const t of list) {
    lines.push(
      `| ${t.name} (${t.how}) | ${t.goal} | ${targetValue(t)} | ${metMark(t)} |`,
    );
  }
  return lines.join('\n');
}

/**
 * PostgreSQL: what one database core serves and how many service instances it can feed, from
 * each scenario's CPU per request on both sides (how to read it:
 * bench/notes/2026-11-25-scale-out-1-2-4-instances.md). Null when no cell measured the
 * database's CPU (SQLite).
 */
export function scaleOutTable(
  cells: CellResult[],
  titles: Record<string, string>,
): string | null {
  const measured = cells.filter(
    (c) =>
      (c.server === 'ours' || isCluster(c.server)) &&
      c.connections === 10 &&
      (c.median.dbCpuUsPerRequest ?? 0) > 0 &&
      (c.median.cpuUsPerRequest ?? 0) > 0,
  );
  if (measured.length === 0) return null;
  const lines = [
    '| scenario | server | req/s | service CPU ms/req | DB CPU ms/req | req/s per DB core | req/s per service core | service cores one DB core feeds |',
    '| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |',
  ];
  for (const c of measured) {
    const service = c.median.cpuUsPerRequest!;
    const db = c.median.dbCpuUsPerRequest!;
    lines.push(
      `| ${titles[c.scenario] ?? c.scenario} | ${SERVER_LABELS[c.server]} | ${fmt(c.median.rps)} | ${fmt(service / 1000, 2)} | ${fmt(db / 1000, 2)} | ${fmt(1e6 / db)} | ${fmt(1e6 / service)} | ${fmt(service / db, 1)} |`,
    );
  }
  return lines.join('\n');
}

export function rssTable(rss: Partial<Record<ServerName, number[]>>): string {
  const lines = ['| server | peak RSS per process (MB) |', '| --- | --- |'];
  for (const name of SERVER_NAMES) {
    const list = rss[name];
    if (!list) continue;
    lines.push(
      `| ${SERVER_LABELS[name]} | ${list.map((v) => fmt(v)).join(', ')} |`,
    );
  }
  return lines.join('\n');
}

export interface ReportInput {
  /** One line saying what ran where. */
  header: string;
  cells: CellResult[];
  sqlPerRequest: Record<string, Record<string, number>>;
  titles: Record<string, string>;
  reps: number;
  rss: Partial<Record<ServerName, number[]>>;
  profiles?: ScenarioProfile[];
}

/** The whole Markdown report (what the console, results.json and the README get). */
export function renderReport(input: ReportInput): {
  markdown: string;
  targets: Target[];
} {
  const targetList = targets(input.cells, input.rss);
  const sections = [
    `_${input.header}_`,
    '',
    markdownTable(input.cells, input.sqlPerRequest, input.titles, input.reps),
    '',
    ratioTable(input.cells, input.titles),
    '',
    targetTable(targetList),
    '',
    rssTable(input.rss),
  ];
  const doorRush = doorRushTable(input.cells, input.titles);
  if (doorRush) sections.push('', doorRush);
  const ticketWrites = ticketWriteTable(input.cells, input.titles);
  if (ticketWrites) sections.push('', ticketWrites);
  const scaleOut = scaleOutTable(input.cells, input.titles);
  if (scaleOut) sections.push('', scaleOut);
  for (const profile of input.profiles ?? []) {
    sections.push('', profileMarkdown(profile, profile.scenario));
  }
  return { markdown: sections.join('\n'), targets: targetList };
}

/** A database's published run, as bench/README.md compares it with the other database's. */
export interface PublishedRun {
  /** The column's name: SQLite or PostgreSQL. */
  database: string;
  header: string;
  cells: CellResult[];
  titles: Record<string, string>;
  targets: Target[];
}

/**
 * Every target, one column per database (bench/README.md, "Targets"): the value and ✅ / ❌, or
 * – where that database's run has no cell for it.
 */
export function targetsAcross(runs: PublishedRun[]): string {
  const lines = [
    `| target | goal | ${runs.map((r) => r.database).join(' | ')} |`,
    `| --- | ---: |${' ---: |'.repeat(runs.length)}`,
  ];
  const names = [...new Set(runs.flatMap((r) => r.targets.map((t) => t.name)))];
  for (const name of names) {
    const first = runs
      .map((r) => r.targets.find((t) => t.name === name))
      .find((t) => t !== undefined)!;
    const cells = runs.map((r) => {
      const t = r.targets.find((x) => x.name === name);
      if (!t || t.met === null) return '–';
      return `${targetValue(t)} ${metMark(t)}`;
    });
    lines.push(
      `| ${name} (${first.how}) | ${first.goal} | ${cells.join(' | ')} |`,
    );
  }
  return lines.join('\n');
}

/**
 * One row per scenario, ours (one process, 10 connections) on each database side by side, with
 * its ratios to the typical peer and to the framework-free baseline (bench/README.md, "Latest
 * results"). The whole report of each run, every server and connection count, is in its own file.
 */
export function resultsAcross(runs: PublishedRun[]): string {
  const db = (r: PublishedRun) =>
    r.cells.some((c) => c.median.dbCpuUsPerRequest !== null);
  const headers = runs.map(
    (r) =>
      `${r.database} req/s | p99 ms | CPU µs/req${db(r) ? ' | DB CPU µs/req' : ''} | ÷ typical | ÷ bare`,
  );
  const aligns = runs.map((r) => ' ---: |'.repeat(db(r) ? 6 : 5));
  const lines = [
    ...runs.flatMap((r) => [`_${r.header}_`, '']),
    `| scenario | ${headers.join(' | ')} |`,
    `| --- |${aligns.join('')}`,
  ];
  const scenarios = [
    ...new Set(
      runs.flatMap((r) =>
        r.cells
          .filter((c) => c.server === 'ours' && c.connections === 10)
          .map((c) => c.scenario),
      ),
    ),
  ];
  for (const scenario of scenarios) {
    const title =
      runs.map((r) => r.titles[scenario]).find((t) => t !== undefined) ??
      scenario;
    const parts = runs.map((r) => {
      const ours = findCell(r.cells, scenario, 'ours')?.median;
      const width = db(r) ? 6 : 5;
      if (!ours) return Array<string>(width).fill('–').join(' | ');
      const up = speedup(ours, findCell(r.cells, scenario, 'typical')?.median);
      const bare = findCell(r.cells, scenario, 'bare')?.median;
      return [
        fmt(ours.rps, ours.rps < 10 ? 1 : 0),
        fmt(ours.p99, ours.p99 < 10 ? 1 : 0),
        fmt(ours.cpuUsPerRequest),
        ...(db(r) ? [fmt(ours.dbCpuUsPerRequest)] : []),
        fmtRatio(up.value, up.lower),
        fmtRatio(ratio(ours.rps, bare?.rps)),
      ].join(' | ');
    });
    lines.push(`| ${title} | ${parts.join(' | ')} |`);
  }
  return lines.join('\n');
}
