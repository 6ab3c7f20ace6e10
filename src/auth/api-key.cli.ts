// `npm run apikey -- create --box-office <id> [--name <label>] [--scope read|check_in|write]`
// `npm run apikey -- list --box-office <id>`
// `npm run apikey -- revoke <key-id>`
// `npm run apikey -- --help`
import { openCliDataSource } from '../database/cli-data-source';
import {
  APIKEY_USAGE,
  UsageError,
  parseApiKeyCommand,
  runApiKeyCommand,
} from './api-key.command';

async function main() {
  const command = parseApiKeyCommand(process.argv.slice(2));
  if (command === null) {
    console.log(APIKEY_USAGE);
    return;
  }
  const dataSource = await openCliDataSource();
  try {
    await runApiKeyCommand(command, dataSource, (line) => console.log(line));
  } finally {
    await dataSource.destroy();
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : String(error));
  process.exitCode = error instanceof UsageError ? 2 : 1;
});
