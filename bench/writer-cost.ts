/**
 * What the change feed's counter row and the overview's rollups cost a sales system: changes
 * (transactions) per second of writers of ONE box office, with 1, 4 and 16 concurrent writers,
 * against 16 writers spread over 16 box offices; what one writer holding its transaction open
 * does to the others and to sync clients; ticket-type edits during sales; the commit floor. Each
 * writer is a thread with its own connection writing a sales system's cycle (bench/lib/
 * sales-writer.ts: new orders with line items and tickets, a refund, a check-in, a cancellation),
 * each change its own transaction. Every run checks the entries the triggers wrote against what
 * committed. Measurements: bench/notes/2026-11-27-writer-concurrency.md (and
 * 2026-11-25-writer-cost-of-the-change-feed.md before it).
 *
 *   npm run bench:writer -- --help
 */
import { writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { type ParseArgsConfig, parseArgs } from 'node:util';
import {
  type ChangeOutcome,
  type Written,
  noneWritten,
} from './lib/sales-writer';
import {
  FeedWatch,
  type ScratchDatabase,
  type SyncSample,
  type WriterDatabase,
  checkCounts,
  checkEntries,
  every,
  numbersAfterCommit,
  runAssigner,
  feedCensus,
  openReader,
  sampleSync,
  scratchDatabase,
  variantParts,
  variantRuns,
} from './lib/writer-database';
import { sweepChanges } from '../src/changes/change-assigner';
import {
  type WriterJob,
  WriterPool,
  type WriterReport,
} from './lib/writer-pool';

const USAGE = `npm run bench:writer -- [options]

  --writers 1,4,16   concurrent writers of one box office (default 1,4,16)
  --offices N        box offices the largest writer count is spread over, for the contrast
                     without a shared row (default 16; 0 or 1: no spread run)
  --seconds S        length of each run (default 5)
  --rounds N         rounds; each runs every case once, in a rotated order, and the report gives
                     each figure's median [min-max] over the rounds (default 3)
  --hold-ms MS       the hold run: one more writer keeps a new order's transaction open this long
                     (default 1000; 0: no hold run)
  --hold-writers N   writers of the held box office during the hold run (default 4)
  --synchronous-commit on|off
                     PostgreSQL writers' session setting (default on). off: a commit does not wait
                     for its WAL flush, as on a server whose WAL device flushes at once (the
                     server's own setting is never changed)
  --rtt-ms MS        wait before each statement, BEGIN and COMMIT included, as a sales system
                     across a network would (default 0)
  --databases a,b    postgres, sqlite (default both)
  --variants a,b     as-migrated (default), or what-if changes joined with +, made in the scratch
                     databases only: no-feed (sync triggers dropped), no-rollups (rollup and
                     counter triggers dropped), sequence-ids (PostgreSQL: entries numbered from a
                     sequence, no counter row), at-commit (PostgreSQL: a prototype taking the
                     counter row, rollups and counters at commit, deferred constraint triggers),
                     counter-row (PostgreSQL: migration WritesWithoutHotRows reverted, entries
                     numbered by the writers from the counter row: the design before it),
                     hot-counters (PostgreSQL: migrations CountsWithoutHotRows and OneLockOrder
                     reverted, counts updated in their rows by every sale: the design before them);
                     e.g. as-migrated,sequence-ids,sequence-ids+no-rollups,at-commit
  --scenarios a,b    one (one box office, each --writers), spread, hold, edits (PostgreSQL: a
                     ticket-type edit every 100 ms during sales by the most writers), floor
                     (PostgreSQL: a change that only bumps one row per box office) (default all);
                     floor runs on as-migrated only
  --postgres URL     server the scratch databases are made on
                     (default postgres://postgres@127.0.0.1:5432/postgres)
  --json FILE        also write every run's figures there`;

const SCENARIOS = ['one', 'spread', 'hold', 'edits', 'floor'] as const;
type Scenario = (typeof SCENARIOS)[number];

/** A bad option: its message and a pointer to --help, without a stack. */
class UsageError extends Error {}

function parseArgsOrUsage<T extends ParseArgsConfig>(config: T) {
  try {
    return parseArgs(config);
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
}

function parseOptions() {
  const { values } = parseArgsOrUsage({
    options: {
      writers: { type: 'string', default: '1,4,16' },
      offices: { type: 'string', default: '16' },
      seconds: { type: 'string', default: '5' },
      rounds: { type: 'string', default: '3' },
      'hold-ms': { type: 'string', default: '1000' },
      'hold-writers': { type: 'string', default: '4' },
      'rtt-ms': { type: 'string', default: '0' },
      'synchronous-commit': { type: 'string', default: 'on' },
      databases: { type: 'string', default: 'postgres,sqlite' },
      variants: { type: 'string', default: 'as-migrated' },
      scenarios: { type: 'string', default: SCENARIOS.join(',') },
      postgres: {
        type: 'string',
        default: 'postgres://postgres@127.0.0.1:5432/postgres',
      },
      json: { type: 'string' },
      help: { type: 'boolean', default: false },
    },
  });
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    process.exit(0);
  }
  const whole = (value: string, name: string, min: number) => {
    const n = Number(value);
    if (!Number.isInteger(n) || n < min)
      throw new UsageError(
        `--${name} must be a whole number ≥ ${min}, got ${value}`,
      );
    return n;
  };
  const list = (value: string) =>
    value
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
  const writers = list(values.writers).map((w) => whole(w, 'writers', 1));
  if (writers.length === 0) throw new UsageError('--writers names no count');
  const databases = list(values.databases).map((db) => {
    if (db !== 'postgres' && db !== 'sqlite')
      throw new UsageError(`--databases: postgres or sqlite, got ${db}`);
    return db as WriterDatabase;
  });
  const variants = list(values.variants);
  try {
    variants.forEach(variantParts);
  } catch (error) {
    throw new UsageError(`--variants: ${(error as Error).message}`);
  }
  const scenarios = list(values.scenarios).map((s) => {
    if (!(SCENARIOS as readonly string[]).includes(s))
      throw new UsageError(`--scenarios: ${SCENARIOS.join(', ')}; got ${s}`);
    return s as Scenario;
  });
  const synchronousCommit = values['synchronous-commit'];
  if (synchronousCommit !== 'on' && synchronousCommit !== 'off')
    throw new UsageError('--synchronous-commit: on or off');
  const commit: 'on' | 'off' = synchronousCommit;
  const seconds = Number(values.seconds);
  if (!(seconds > 0)) throw new UsageError('--seconds must be positive');
  return {
    writers,
    offices: whole(values.offices, 'offices', 0),
    seconds,
    rounds: whole(values.rounds, 'rounds', 1),
    holdMs: whole(values['hold-ms'], 'hold-ms', 0),
    holdWriters: whole(values['hold-writers'], 'hold-writers', 1),
    rttMs: whole(values['rtt-ms'], 'rtt-ms', 0),
    synchronousCommit: commit,
    databases,
    variants,
    scenarios,
    postgres: values.postgres,
    json: values.json,
  };
}

type Options = ReturnType<typeof parseOptions>;

/** One run's setting. */
interface Case {
  db: WriterDatabase;
  variant: string;
  scenario: Scenario;
  /** Writers (sales or counter bumps); the hold and edits runs add their own writer to these. */
  writers: number;
  offices: number;
}

/** One run's figures. */
interface Figures {
  /** Changes committed per second by the case's writers (hold: by the held box office's). */
  rate: number;
  p50: number;
  p99: number;
  longest: number;
  retried: Record<string, number>;
  failed: Record<string, number>;
  /** Differences between the entries written and the changes committed; feed holes a poller saw. */
  problems: string[];
  hold?: HoldFigures;
  edits?: { committed: number; salesDeadlocks: number; editDeadlocks: number };
  roundTripMs?: number;
}

interface HoldFigures {
  ms: number;
  before: number;
  during: number;
  /** The held box office's changes that waited: their median and longest latency. */
  waitedMedian: number;
  waitedLongest: number;
  otherBefore: number;
  otherDuring: number;
  /** Sync lag (database clock − horizon) of the held box office and the other, most during the hold. */
  lagHeld: number;
  lagOther: number;
  lagHeldBefore: number;
  headMoved: boolean;
}

function cases(options: Options): Case[] {
  const largest = Math.max(...options.writers);
  const out: Case[] = [];
  const wants = (s: Scenario) => options.scenarios.includes(s);
  for (const db of options.databases) {
    for (const variant of options.variants) {
      if (!variantRuns(variant, db)) continue;
      if (wants('one'))
        for (const writers of options.writers)
          out.push({ db, variant, scenario: 'one', writers, offices: 1 });
      if (wants('spread') && options.offices > 1)
        out.push({
          db,
          variant,
          scenario: 'spread',
          writers: largest,
          offices: options.offices,
        });
      if (wants('hold') && options.holdMs > 0)
        out.push({
          db,
          variant,
          scenario: 'hold',
          writers: options.holdWriters,
          offices: 2,
        });
      if (db !== 'postgres') continue;
      if (wants('edits'))
        out.push({
          db,
          variant,
          scenario: 'edits',
          writers: largest,
          offices: 1,
        });
      if (variant !== 'as-migrated') continue;
      if (wants('floor')) {
        out.push({ db, variant, scenario: 'floor', writers: 1, offices: 1 });
        if (largest > 1)
          out.push({
            db,
            variant,
            scenario: 'floor',
            writers: largest,
            offices: 1,
          });
        if (options.offices > 1)
          out.push({
            db,
            variant,
            scenario: 'floor',
            writers: largest,
            offices: options.offices,
          });
      }
    }
  }
  return out;
}

const label = (c: Case) =>
  `${c.db} ${c.variant} ${c.scenario} ${c.writers}w/${c.offices}bo`;

function percentile(sorted: number[], p: number) {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))];
}

/** The largest value, 0 for none (no spread: a run's outcomes can be many). */
const most = (values: number[]) => values.reduce((a, b) => Math.max(a, b), 0);

const median = (values: number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor((values.length - 1) / 2)];

function tally(outcomes: ChangeOutcome[]) {
  const retried: Record<string, number> = {};
  const failed: Record<string, number> = {};
  for (const o of outcomes) {
    for (const code of o.retried) retried[code] = (retried[code] ?? 0) + 1;
    if (o.error) failed[o.error] = (failed[o.error] ?? 0) + 1;
  }
  return { retried, failed };
}

/** Committed changes ending in [from, to). */
const committedIn = (outcomes: ChangeOutcome[], from: number, to: number) =>
  outcomes.filter((o) => o.error === null && o.end >= from && o.end < to);

async function runCase(
  pool: WriterPool,
  database: ScratchDatabase,
  c: Case,
  options: Options,
  tag: string,
): Promise<Figures> {
  // The hold begins this far into its run, and the run lasts 1.5 s past the hold's end.
  const holdAfterMs = 1500;
  const seconds =
    c.scenario === 'hold'
      ? Math.max(options.seconds, (holdAfterMs + options.holdMs) / 1000 + 1.5)
      : options.seconds;
  const jobs: WriterJob[] = [];
  const add = (
    office: number,
    role: WriterJob['role'],
    more: Partial<WriterJob> = {},
  ) =>
    jobs.push({
      url: database.url,
      role,
      target: database.targets[office - 1],
      tag: `${tag}w${jobs.length}`,
      seconds,
      rttMs: options.rttMs,
      synchronousCommit: options.synchronousCommit,
      ...more,
    });
  for (let i = 0; i < c.writers; i++)
    add((i % c.offices) + 1, c.scenario === 'floor' ? 'counter' : 'sales');
  if (c.scenario === 'hold') {
    add(2, 'sales');
    add(1, 'holder', { holdAfterMs, holdMs: options.holdMs });
  }
  if (c.scenario === 'edits') add(1, 'editor', { pauseMs: 100 });

  const reader = await openReader(database.url);
  try {
    const contiguous = !variantParts(c.variant).includes('sequence-ids');
    const feed = !variantParts(c.variant).includes('no-feed');
    const assigns = numbersAfterCommit(c.db, c.variant);
    const sweep = () =>
      sweepChanges((text, params) => reader.all(text, params));
    // The setup's entries are numbered before the census the run is compared with.
    if (assigns) await sweep();
    const before = feed ? await feedCensus(reader) : null;
    const watch = new FeedWatch(reader, 1);
    const samples: SyncSample[] = [];
    if (feed) await watch.start();
    let assigner: { sweeps: number; longestMs: number } | undefined;
    const { reports, startAt, endAt } = await pool.run(jobs, (_, until) =>
      Promise.all([
        assigns
          ? runAssigner(database.url, until).then((a) => void (assigner = a))
          : Promise.resolve(),
        !feed
          ? Promise.resolve()
          : c.scenario === 'hold'
            ? every(100, until, async () => {
                samples.push(await sampleSync(reader, [1, 2]));
                await watch.poll();
              })
            : every(50, until, () =>
                contiguous ? watch.poll() : Promise.resolve(),
              ),
      ]).then(() => undefined),
    );
    // What the writers committed after the assigner's last sweep, before the checks read the feed.
    if (assigns) await sweep();
    if (assigner !== undefined) {
      // An entry waits for the next sweep: at most a period and the longest sweep.
      process.stderr.write(
        `${c.variant} ${c.scenario} ${c.writers}w/${c.offices}bo: ${assigner.sweeps} sweeps, longest ${assigner.longestMs.toFixed(1)} ms\n`,
      );
    }
    const problems: string[] = [];
    if (feed && before) {
      if (contiguous) await watch.poll();
      const written = new Map<number, Written>();
      for (const r of reports) {
        const w = written.get(r.office) ?? noneWritten();
        for (const key of Object.keys(w) as (keyof Written)[])
          w[key] += r.written[key];
        written.set(r.office, w);
      }
      problems.push(
        ...checkEntries(
          c.db,
          before,
          await feedCensus(reader),
          written,
          contiguous,
        ),
      );
      if (contiguous)
        problems.push(...watch.holes.map((h) => `feed poller ${h}`));
    }
    if (!variantParts(c.variant).includes('no-rollups'))
      problems.push(...(await checkCounts(reader)));
    return figures(c, reports, startAt, endAt, samples, problems);
  } finally {
    await reader.close();
  }
}

function figures(
  c: Case,
  reports: WriterReport[],
  startAt: number,
  endAt: number,
  samples: SyncSample[],
  problems: string[],
): Figures {
  const own = reports.filter((r) => r.role === 'sales' || r.role === 'counter');
  const held = own.filter((r) => r.office === 1);
  const measured = c.scenario === 'hold' ? held : own;
  const outcomes = measured.flatMap((r) => r.outcomes);
  const all = reports.flatMap((r) => r.outcomes);
  const seconds = (endAt - startAt) / 1000;
  const done = committedIn(outcomes, startAt, endAt);
  const latencies = done.map((o) => o.end - o.start).sort((a, b) => a - b);
  const trips = reports.reduce(
    (t, r) => ({
      count: t.count + r.trips.count,
      totalMs: t.totalMs + r.trips.totalMs,
    }),
    { count: 0, totalMs: 0 },
  );
  const result: Figures = {
    rate: done.length / seconds,
    p50: percentile(latencies, 0.5),
    p99: percentile(latencies, 0.99),
    // Committed or not: a change that waited out a deadlock and failed waited too.
    longest: most(outcomes.map((o) => o.end - o.start)),
    ...tally(all),
    problems,
    roundTripMs: trips.count ? trips.totalMs / trips.count : undefined,
  };
  if (c.scenario === 'edits') {
    const editor = reports.find((r) => r.role === 'editor')!;
    const deadlocks = (list: ChangeOutcome[]) =>
      list.reduce(
        (n, o) =>
          n +
          o.retried.filter((code) => code === '40P01').length +
          (o.error === '40P01' ? 1 : 0),
        0,
      );
    result.edits = {
      committed: editor.written.edits,
      salesDeadlocks: deadlocks(outcomes),
      editDeadlocks: deadlocks(editor.outcomes),
    };
  }
  if (c.scenario === 'hold') {
    const holder = reports.find((r) => r.role === 'holder')!;
    const from = holder.locked ?? startAt;
    const to = holder.outcomes[0]?.end ?? endAt;
    const span = to - from;
    // As long before the hold as it lasted, from the run's start at the earliest.
    const earliest = Math.max(startAt, from - span);
    const beforeSeconds = (from - earliest) / 1000;
    const other = own.filter((r) => r.office === 2).flatMap((r) => r.outcomes);
    const waited = outcomes
      .filter((o) => o.start < to && o.end > from)
      .map((o) => o.end - o.start);
    const during = samples.filter((s) => s.at >= from && s.at < to);
    const earlier = samples.filter((s) => s.at < from);
    result.hold = {
      ms: span,
      before: committedIn(outcomes, earliest, from).length / beforeSeconds,
      during: committedIn(outcomes, from, to).length / (span / 1000),
      waitedMedian: waited.length ? median(waited) : 0,
      waitedLongest: most(waited),
      otherBefore: committedIn(other, earliest, from).length / beforeSeconds,
      otherDuring: committedIn(other, from, to).length / (span / 1000),
      lagHeld: most(during.map((s) => s.lag[0])),
      lagOther: most(during.map((s) => s.lag[1])),
      lagHeldBefore: most(earlier.map((s) => s.lag[0])),
      headMoved:
        during.length > 1 && during[during.length - 1].head !== during[0].head,
    };
  }
  return result;
}

// Reporting: each figure's median [min-max] over the rounds.
function spread(values: number[], digits = 0) {
  const fmt = (v: number) =>
    v.toLocaleString('en-GB', {
      minimumFractionDigits: digits,
      maximumFractionDigits: digits,
    });
  if (values.length === 1) return fmt(values[0]);
  return `${fmt(median(values))} [${fmt(Math.min(...values))}–${fmt(Math.max(...values))}]`;
}

const codes = (runs: Figures[], key: 'retried' | 'failed') => {
  const sum: Record<string, number> = {};
  for (const run of runs)
    for (const [code, n] of Object.entries(run[key]))
      sum[code] = (sum[code] ?? 0) + n;
  const parts = Object.entries(sum).map(([code, n]) => `${n} ${code}`);
  return parts.length ? parts.join(', ') : '0';
};

function report(
  options: Options,
  plan: Case[],
  results: Map<Case, Figures[]>,
  machine: string[],
): string {
  const lines: string[] = [
    `Changes per second of sales-system writers (each change one transaction: a cycle of 7 new orders of 2 line items and 2 tickets, a check-in, a refund, a cancellation), ${options.seconds} s runs, ${options.rounds} round(s), median [min–max]${options.rttMs ? `, ${options.rttMs} ms before each statement` : ''}${options.synchronousCommit === 'off' ? ', PostgreSQL writers with synchronous_commit off' : ''}.`,
    '',
    ...machine,
    '',
  ];
  const rows = (s: Scenario[]) =>
    plan.filter((c) => s.includes(c.scenario) && results.has(c));
  const throughput = rows(['one', 'spread']);
  if (throughput.length) {
    lines.push(
      '| database | variant | writers | box offices | changes/s | p50 ms | p99 ms | retried | failed |',
      '| --- | --- | ---: | ---: | ---: | ---: | ---: | --- | --- |',
    );
    for (const c of throughput) {
      const runs = results.get(c)!;
      lines.push(
        `| ${c.db} | ${c.variant} | ${c.writers} | ${c.offices} | ${spread(runs.map((r) => r.rate))} | ${spread(
          runs.map((r) => r.p50),
          1,
        )} | ${spread(
          runs.map((r) => r.p99),
          1,
        )} | ${codes(runs, 'retried')} | ${codes(runs, 'failed')} |`,
      );
    }
    lines.push('');
  }
  // Ratios within each round (its runs minutes apart, not rounds apart), then their median.
  const ratioRows: string[] = [];
  for (const db of options.databases) {
    for (const variant of options.variants) {
      const ones = throughput.filter(
        (c) => c.db === db && c.variant === variant && c.scenario === 'one',
      );
      const spreadCase = throughput.find(
        (c) => c.db === db && c.variant === variant && c.scenario === 'spread',
      );
      if (ones.length < 2) continue;
      const fewest = ones.reduce((a, b) => (b.writers < a.writers ? b : a));
      const largest = ones.reduce((a, b) => (b.writers > a.writers ? b : a));
      const by = (c: Case | undefined) => results.get(c!)!.map((r) => r.rate);
      const per = (a: number[], b: number[]) =>
        a.slice(0, Math.min(a.length, b.length)).map((x, i) => x / b[i]);
      ratioRows.push(
        `| ${db} | ${variant} | ${spread(per(by(largest), by(fewest)), 2)} | ${spreadCase ? spread(per(by(largest), by(spreadCase)), 2) : '–'} |`,
      );
    }
  }
  if (ratioRows.length) {
    const w = Math.max(...options.writers);
    lines.push(
      `Within each round: ${w} writers of one box office against ${Math.min(...options.writers)} writer(s) of it${options.offices > 1 ? `, and against ${w} writers over ${options.offices} box offices` : ''}:`,
      '',
      `| database | variant | ${w} writers of one box office ÷ ${Math.min(...options.writers)} | ÷ ${w} over ${options.offices} |`,
      '| --- | --- | ---: | ---: |',
      ...ratioRows,
      '',
    );
  }
  const holds = rows(['hold']);
  if (holds.length) {
    lines.push(
      `One more writer of box office 1 keeps a new order's transaction open ${options.holdMs} ms after its first statement, while box office 1's other writers and one writer of box office 2 write. Changes/s during the hold and in as long just before it (at most since the run began, 1.5 s before the hold); sync lag: database clock − the box office's sync horizon (X-Sync-Watermark's age), most seen.`,
      '',
      '| database | variant | writers of box office 1 | their changes/s: before → during | their changes in the hold: median / longest latency ms | box office 2: before → during | sync lag of box office 1: before → during (s) | of box office 2 during (s) | box office 1 feed head moved during the hold |',
      '| --- | --- | ---: | --- | --- | --- | --- | ---: | --- |',
    );
    for (const c of holds) {
      const h = results.get(c)!.map((r) => r.hold!);
      lines.push(
        `| ${c.db} | ${c.variant} | ${c.writers} | ${spread(h.map((x) => x.before))} → ${spread(h.map((x) => x.during))} | ${spread(h.map((x) => x.waitedMedian))} / ${spread(h.map((x) => x.waitedLongest))} | ${spread(h.map((x) => x.otherBefore))} → ${spread(h.map((x) => x.otherDuring))} | ${spread(h.map((x) => x.lagHeldBefore))} → ${spread(h.map((x) => x.lagHeld))} | ${spread(h.map((x) => x.lagOther))} | ${h.filter((x) => x.headMoved).length} of ${h.length} runs |`,
      );
    }
    lines.push('');
  }
  const edits = rows(['edits']);
  if (edits.length) {
    lines.push(
      'A ticket-type edit (its description) every 100 ms, each its own transaction, while the writers sell that ticket type:',
      '',
      '| database | variant | writers selling | changes/s | edits committed | deadlocks of sales / of edits (each retried) | longest change ms |',
      '| --- | --- | ---: | ---: | ---: | ---: | ---: |',
    );
    for (const c of edits) {
      const runs = results.get(c)!;
      lines.push(
        `| ${c.db} | ${c.variant} | ${c.writers} | ${spread(runs.map((r) => r.rate))} | ${spread(runs.map((r) => r.edits!.committed))} | ${spread(runs.map((r) => r.edits!.salesDeadlocks))} / ${spread(runs.map((r) => r.edits!.editDeadlocks))} | ${spread(runs.map((r) => r.longest))} |`,
      );
    }
    lines.push('');
  }
  const floors = rows(['floor']);
  if (floors.length) {
    lines.push(
      "The floor: a change that only updates its box office's row of a one-column table, then commits:",
      '',
      '| database | writers | box offices | commits/s | p50 ms | p99 ms |',
      '| --- | ---: | ---: | ---: | ---: | ---: |',
    );
    for (const c of floors) {
      const runs = results.get(c)!;
      lines.push(
        `| ${c.db} | ${c.writers} | ${c.offices} | ${spread(runs.map((r) => r.rate))} | ${spread(
          runs.map((r) => r.p50),
          1,
        )} | ${spread(
          runs.map((r) => r.p99),
          1,
        )} |`,
      );
    }
    lines.push('');
  }
  const problems = plan.flatMap((c) =>
    (results.get(c) ?? []).flatMap((r, round) =>
      r.problems.map((p) => `- ${label(c)}, round ${round + 1}: ${p}`),
    ),
  );
  lines.push(
    problems.length
      ? `Checks FAILED:\n${problems.join('\n')}`
      : 'Checks: after every run the entries written matched the changes committed and the counts the triggers keep matched the rows, and the feed poller of box office 1 never saw an id before a lower one.',
  );
  const trips = plan.flatMap((c) =>
    (results.get(c) ?? []).flatMap((r) =>
      r.roundTripMs ? [r.roundTripMs] : [],
    ),
  );
  if (trips.length)
    lines.push(
      '',
      `Waited before each statement: ${spread(trips, 2)} ms (asked: ${options.rttMs} ms).`,
    );
  return lines.join('\n');
}

/** The PostgreSQL server's version and the settings a commit's wait depends on. */
async function postgresSettings(databases: Map<string, ScratchDatabase>) {
  const database = [...databases.values()].find((d) => d.db === 'postgres');
  if (!database) return '';
  const reader = await openReader(database.url);
  try {
    const rows = await reader.all(`SELECT name, setting FROM pg_settings
      WHERE name IN ('server_version', 'synchronous_commit', 'fsync', 'wal_sync_method',
                     'deadlock_timeout', 'commit_delay') ORDER BY name`);
    return `, PostgreSQL ${rows.map((r) => `${String(r.name)}=${String(r.setting)}`).join(' ')}`;
  } finally {
    await reader.close();
  }
}

async function main() {
  const options = parseOptions();
  const plan = cases(options);
  if (plan.length === 0)
    throw new UsageError('nothing to run with these options');
  const databases = new Map<string, ScratchDatabase>();
  const pool = new WriterPool();
  const results = new Map<Case, Figures[]>();
  const loads: string[] = [];
  let interrupted = false;
  const cleanup = async () => {
    await pool.close();
    await Promise.all([...databases.values()].map((d) => d.drop()));
  };
  process.once('SIGINT', () => {
    interrupted = true;
    void cleanup().finally(() => process.exit(130));
  });
  try {
    const offices = Math.max(2, options.offices);
    for (const c of plan) {
      const key = `${c.db} ${c.variant}`;
      if (!databases.has(key))
        databases.set(
          key,
          await scratchDatabase(c.db, c.variant, offices, options.postgres),
        );
    }
    for (let round = 0; round < options.rounds && !interrupted; round++) {
      loads.push(
        loadavg()
          .map((l) => l.toFixed(1))
          .join(' '),
      );
      const order = plan.map((_, i) => plan[(i + round) % plan.length]);
      for (const c of order) {
        const figures = await runCase(
          pool,
          databases.get(`${c.db} ${c.variant}`)!,
          c,
          options,
          `r${round}`,
        );
        results.set(c, [...(results.get(c) ?? []), figures]);
        process.stderr.write(
          `round ${round + 1}: ${label(c)}: ${figures.rate.toFixed(0)}/s${figures.problems.length ? ` PROBLEMS: ${figures.problems.join('; ')}` : ''}\n`,
        );
      }
    }
    loads.push(
      loadavg()
        .map((l) => l.toFixed(1))
        .join(' '),
    );
    const machine = [
      `_${cpus()[0]?.model ?? 'cpu'} × ${cpus().length}, Node ${process.version}${await postgresSettings(databases)}, load average (1, 5, 15 min) at each round's start and at the end: ${loads.join('; ')}_`,
    ];
    process.stdout.write(`${report(options, plan, results, machine)}\n`);
    if (options.json)
      writeFileSync(
        options.json,
        JSON.stringify(
          {
            options,
            machine,
            runs: plan.map((c) => ({ ...c, rounds: results.get(c) ?? [] })),
          },
          null,
          2,
        ),
      );
  } finally {
    if (!interrupted) await cleanup();
  }
}

main().catch((error: unknown) => {
  if (error instanceof UsageError) {
    process.stderr.write(`${error.message} (npm run bench:writer -- --help)\n`);
    process.exit(2);
  }
  process.stderr.write(
    `${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
  );
  process.exit(1);
});
