// `npm run seed -- [--orders N] [--reset] [--seed S] [--today YYYY-MM-DD]`: fills the database
// named by DATABASE_URL with the demo box offices, keys, events and N orders, dated around the
// day (see demo-data.ts and demo-calendar.ts).
import { parseArgs } from 'node:util';
import { openCliDataSource } from '../src/database/cli-data-source';
import { DemoCalendar } from './demo-calendar';
import { DayAheadError, DEMO_BOX_OFFICES, seedDemoData } from './demo-data';

const USAGE = `Usage: npm run seed -- [--orders N] [--reset] [--seed S] [--today YYYY-MM-DD]
  --orders N  orders to create across both box offices, 1 to 10,000,000 (default 250)
  --seed S    integer; the same seed and day give the same data (default 1)
  --today D   the day the data is dated around: orders in the months before it, events
              that ended before it and events on sale after it; the history ends the
              second before it, so no later than today (default: today, UTC)
  --reset     delete all existing data first (required when the database has data)`;

const MAX_ORDERS = 10_000_000;

class UsageError extends Error {}

interface CliOptions {
  orders: number;
  seed: number;
  reset: boolean;
  today: string;
}

/** The options, or null when help was asked for. */
function parseOptions(args: string[]): CliOptions | null {
  let values;
  try {
    ({ values } = parseArgs({
      args,
      options: {
        orders: { type: 'string', default: '250' },
        seed: { type: 'string', default: '1' },
        reset: { type: 'boolean', default: false },
        today: { type: 'string', default: DemoCalendar.of().today },
        help: { type: 'boolean', short: 'h', default: false },
      },
    }));
  } catch (error) {
    throw new UsageError(`${(error as Error).message}\n${USAGE}`);
  }
  if (values.help) return null;

  const orders = Number(values.orders);
  if (!/^\d+$/.test(values.orders) || orders < 1 || orders > MAX_ORDERS) {
    throw new UsageError(
      `--orders must be an integer from 1 to 10,000,000, got "${values.orders}"\n${USAGE}`,
    );
  }
  const seed = Number(values.seed);
  if (!/^-?\d+$/.test(values.seed) || !Number.isSafeInteger(seed)) {
    throw new UsageError(
      `--seed must be an integer, got "${values.seed}"\n${USAGE}`,
    );
  }
  let calendar: DemoCalendar;
  try {
    calendar = new DemoCalendar(values.today);
  } catch {
    throw new UsageError(
      `--today must be a day as YYYY-MM-DD, got "${values.today}"\n${USAGE}`,
    );
  }
  if (calendar.isAhead()) {
    throw new UsageError(
      `--${new DayAheadError(values.today).message}\n${USAGE}`,
    );
  }
  return { orders, seed, reset: values.reset, today: values.today };
}

/**
 * Progress on stderr: a bar redrawn in place on a terminal; in a log (CI), a plain line at every
 * tenth, so the log shows progress without a line per batch.
 */
function progressReporter(startedAt: number) {
  const interactive = process.stderr.isTTY === true;
  let lastTenth = 0;
  const elapsed = () => `${((Date.now() - startedAt) / 1000).toFixed(1)}s`;
  return {
    update(done: number, total: number) {
      const fraction = done / total;
      const finished = done === total;
      const counts = `${done.toLocaleString('en-GB')}/${total.toLocaleString('en-GB')} orders`;
      if (interactive) {
        const width = 30;
        const filled = Math.round(fraction * width);
        const bar = '#'.repeat(filled) + '-'.repeat(width - filled);
        const percent = `${Math.floor(fraction * 100)}%`.padStart(4);
        const end = finished ? '\n' : '';
        process.stderr.write(
          `\r[${bar}] ${percent} ${counts} ${elapsed()}${end}`,
        );
      } else {
        const tenth = Math.floor(fraction * 10);
        if (tenth > lastTenth || finished) {
          lastTenth = tenth;
          process.stderr.write(`seeded ${counts} (${elapsed()})\n`);
        }
      }
      // Index builds (SQLite) and the commit follow, a while for millions of rows.
      if (finished) process.stderr.write('building indexes and committing…\n');
    },
  };
}

async function main() {
  const options = parseOptions(process.argv.slice(2));
  if (!options) {
    console.log(USAGE);
    return;
  }
  const dataSource = await openCliDataSource();
  try {
    const startedAt = Date.now();
    const progress = progressReporter(startedAt);
    const result = await seedDemoData(dataSource, {
      ...options,
      onProgress: (done, total) => progress.update(done, total),
    });
    const seconds = ((Date.now() - startedAt) / 1000).toFixed(1);
    console.log(
      `Seeded ${result.orders.toLocaleString('en-GB')} orders in ${result.boxOffices} box offices (seed ${options.seed}, dated around ${options.today}) in ${seconds}s.`,
    );
    console.log('Demo API keys (send as the Basic auth user name):');
    for (const boxOffice of DEMO_BOX_OFFICES) {
      console.log(
        `  box office ${boxOffice.id} (${boxOffice.name}): ${boxOffice.apiKey}`,
      );
    }
  } finally {
    await dataSource.destroy();
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = error instanceof UsageError ? 2 : 1;
});
