import { parseArgs } from 'node:util';
import { AppConfig } from '../src/config/app-config';
import { validateEnvironment } from '../src/config/environment';
import { connect } from './activity/connection';
import { runActivity } from './activity/run';
import {
  ActivityError,
  ActivityWriter,
  type PrintedChange,
} from './activity/writer';

const USAGE = `Makes changes in the database DATABASE_URL names, as a sales system would (development only).

  npm run activity -- run --box-office <id> --duration <s> --rate <changes/s> [--seed S] [--hold-ms N]
  npm run activity -- void-ticket it_5 [--hold-ms N]
  npm run activity -- cancel-order or_9 [--hold-ms N]
  npm run activity -- refund-order or_9 --amount <minor units> [--hold-ms N]
  npm run activity -- check-in it_5 [--at <unix>] [--hold-ms N]
  npm run activity -- check-out it_5 [--hold-ms N]
  npm run activity -- new-order --event ev_3 [--hold-ms N]
  npm run activity -- edit-event ev_3 --name <text> [--hold-ms N]
  npm run activity -- delete-order or_9 [--hold-ms N]

Each change is one transaction; once it commits, one JSON line per change entry is printed:
  {"type":"ORDER.UPDATED","resource_id":"or_9","stamp":1786645321}
--hold-ms N keeps the stamped transaction open N ms before committing (on SQLite at most
SYNC_LAG_S seconds less 250 ms). See docs/DESIGN.md, "Making changes in development".

void-ticket writes straight to the database; the API voids a ticket too, with a key of scope
write (docs/DEVELOPMENT.md, "Adding a write"):
  curl -X POST -u sk_demo_boxoffice_1: http://localhost:3000/v1/issued_tickets/it_5/void`;

const OPTIONS = {
  'box-office': { type: 'string' },
  duration: { type: 'string' },
  rate: { type: 'string' },
  seed: { type: 'string' },
  'hold-ms': { type: 'string' },
  amount: { type: 'string' },
  at: { type: 'string' },
  event: { type: 'string' },
  name: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;

/** An integer option, or undefined when absent; anything else is refused with its name. */
function integer(
  name: string,
  value: string | undefined,
  min = 0,
): number | undefined {
  if (value === undefined) return undefined;
  if (
    !/^-?\d+$/.test(value) ||
    Number(value) < min ||
    !Number.isSafeInteger(Number(value))
  ) {
    throw new ActivityError(
      `--${name} must be an integer of at least ${min}, got ${JSON.stringify(value)}`,
    );
  }
  return Number(value);
}

function required<T>(name: string, value: T | undefined): T {
  if (value === undefined) throw new ActivityError(`${name} is required`);
  return value;
}

async function main(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    options: OPTIONS,
    allowPositionals: true,
  });
  const [command, target, ...rest] = positionals;
  if (values.help || command === undefined) {
    process.stdout.write(`${USAGE}\n`);
    return values.help ? 0 : 2;
  }
  if (rest.length > 0)
    throw new ActivityError(`unexpected arguments: ${rest.join(' ')}`);
  const config = new AppConfig(validateEnvironment(process.env));
  const holdMs = integer('hold-ms', values['hold-ms']) ?? 0;
  const print = (entries: PrintedChange[]) => {
    for (const entry of entries)
      process.stdout.write(`${JSON.stringify(entry)}\n`);
  };
  const db = await connect(process.env.DATABASE_URL);
  try {
    const writer = new ActivityWriter(db, config.syncLagSeconds);
    const options = { holdMs };
    switch (command) {
      case 'run': {
        const summary = await runActivity(
          writer,
          db,
          {
            boxOfficeId: required(
              'box-office',
              integer('box-office', values['box-office'], 1),
            ),
            durationS: required(
              'duration',
              integer('duration', values.duration, 1),
            ),
            rate: required('--rate', integer('rate', values.rate, 1)),
            seed: integer('seed', values.seed),
            holdMs,
          },
          print,
        );
        process.stderr.write(
          `${summary.changes} changes, ${summary.entries} entries\n`,
        );
        return 0;
      }
      case 'void-ticket':
        print(
          await writer.voidTicket(
            required('the ticket id (it_5)', target),
            options,
          ),
        );
        return 0;
      case 'cancel-order':
        print(
          await writer.cancelOrder(
            required('the order id (or_9)', target),
            options,
          ),
        );
        return 0;
      case 'refund-order':
        print(
          await writer.refundOrder(
            required('the order id (or_9)', target),
            required('--amount', integer('amount', values.amount, 1)),
            options,
          ),
        );
        return 0;
      case 'check-in':
        print(
          await writer.checkIn(
            required('the ticket id (it_5)', target),
            integer('at', values.at),
            options,
          ),
        );
        return 0;
      case 'check-out':
        print(
          await writer.checkOut(
            required('the ticket id (it_5)', target),
            options,
          ),
        );
        return 0;
      case 'new-order':
        print(
          await writer.newOrder(required('--event', values.event), options),
        );
        return 0;
      case 'edit-event':
        print(
          await writer.editEvent(
            required('the event id (ev_3)', target),
            required('--name', values.name),
            options,
          ),
        );
        return 0;
      case 'delete-order':
        print(
          await writer.deleteOrder(
            required('the order id (or_9)', target),
            options,
          ),
        );
        return 0;
      default:
        throw new ActivityError(
          `unknown command ${JSON.stringify(command)} (see --help)`,
        );
    }
  } finally {
    await db.close();
  }
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    const usage =
      error instanceof ActivityError ||
      (error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS');
    process.stderr.write(
      `activity: ${error instanceof Error ? error.message : String(error)}\n`,
    );
    process.exitCode = usage ? 2 : 1;
  },
);
