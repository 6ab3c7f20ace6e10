import { parseArgs } from 'node:util';
import type { DataSource } from 'typeorm';
import { CURRENCY_CODES } from '../common/currencies';
import { UsageError } from './api-key.command';
import { BoxOffice } from './entities/box-office.entity';

export const BOXOFFICE_USAGE = `Usage:
  npm run boxoffice -- create --name <name> [--currency <code>] [--timezone <IANA zone>]
  npm run boxoffice -- list

create prints the new box office's id (and only that, on stdout); give it to
  npm run apikey -- create --box-office <id>
Defaults: --currency gbp, --timezone Europe/London. Currencies: ${CURRENCY_CODES.join(', ')}.`;

const MAX_NAME = 200;

/** Whether `zone` is a time zone this runtime knows (IANA names: `Europe/London`, `UTC`). */
function isTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-GB', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

/** Parses the command line before any database work; null when help was asked for. */
export function parseBoxOfficeCommand(argv: string[]) {
  const { positionals, values } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      name: { type: 'string' },
      currency: { type: 'string', default: 'gbp' },
      timezone: { type: 'string', default: 'Europe/London' },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  if (values.help) return null;
  const [command] = positionals;
  switch (command) {
    case 'create': {
      const name = values.name?.trim() ?? '';
      if (name === '' || name.length > MAX_NAME) {
        throw new UsageError(`--name must be 1 to ${MAX_NAME} characters`);
      }
      const currency = values.currency.toLowerCase();
      if (!(CURRENCY_CODES as string[]).includes(currency)) {
        throw new UsageError(
          `--currency must be one of ${CURRENCY_CODES.join(', ')}, got "${values.currency}"`,
        );
      }
      if (!isTimeZone(values.timezone)) {
        throw new UsageError(
          `--timezone must be an IANA time zone such as Europe/London, got "${values.timezone}"`,
        );
      }
      return { command, name, currency, timezone: values.timezone } as const;
    }
    case 'list':
      return { command } as const;
    default:
      throw new UsageError(BOXOFFICE_USAGE);
  }
}

/** Runs `boxoffice create|list`: `print` is the output a script reads, `note` a person's. */
export async function runBoxOfficeCommand(
  command: NonNullable<ReturnType<typeof parseBoxOfficeCommand>>,
  dataSource: DataSource,
  print: (line: string) => void,
  note: (line: string) => void,
): Promise<void> {
  const offices = dataSource.getRepository(BoxOffice);
  if (command.command === 'create') {
    const office = await offices.save(
      offices.create({
        name: command.name,
        currency: command.currency,
        timezone: command.timezone,
        createdAt: Math.floor(Date.now() / 1000),
      }),
    );
    print(String(office.id));
    note(
      `Created box office ${office.id} "${office.name}" (${office.currency}, ${office.timezone}). Next: npm run apikey -- create --box-office ${office.id}`,
    );
    return;
  }
  const all = await offices.find({ order: { id: 'ASC' } });
  if (all.length === 0) note('There are no box offices yet');
  for (const office of all) {
    print(
      [
        office.id,
        office.name,
        office.currency,
        office.timezone,
        `created ${new Date(office.createdAt * 1000).toISOString()}`,
      ].join('\t'),
    );
  }
}
