// `npm run boxoffice -- create --name <name> [--currency <code>] [--timezone <IANA zone>]`
// `npm run boxoffice -- list`
import { openCliDataSource } from '../database/cli-data-source';
import { UsageError } from './api-key.command';
import {
  BOXOFFICE_USAGE,
  parseBoxOfficeCommand,
  runBoxOfficeCommand,
} from './boxoffice.command';

async function main() {
  const command = parseBoxOfficeCommand(process.argv.slice(2));
  if (command === null) {
    console.log(BOXOFFICE_USAGE);
    return;
  }
  const dataSource = await openCliDataSource();
  try {
    await runBoxOfficeCommand(
      command,
      dataSource,
      (line) => console.log(line),
      (line) => console.error(line),
    );
  } finally {
    await dataSource.destroy();
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : String(error));
  process.exitCode = error instanceof UsageError ? 2 : 1;
});
