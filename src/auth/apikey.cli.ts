// `npm run apikey -- create --box-office <id> [--name <label>]`
// `npm run apikey -- list --box-office <id>`
// `npm run apikey -- revoke <key-id>`
import { parseArgs } from 'node:util';
import { openCliDataSource } from '../database/cli-data-source';
import { ApiKeysService } from './api-keys.service';

const USAGE = `Usage:
  npm run apikey -- create --box-office <id> [--name <label>]
  npm run apikey -- list --box-office <id>
  npm run apikey -- revoke <key-id>`;

function positiveInt(value: string | undefined, what: string): number {
  const digits = value?.replace(/^(ak_)/, '');
  if (!digits || !/^[1-9]\d{0,9}$/.test(digits)) {
    throw new UsageError(`${what} must be a positive number`);
  }
  return Number(digits);
}

class UsageError extends Error {}

const iso = (unix: number | null) =>
  unix === null ? '' : new Date(unix * 1000).toISOString();

async function main() {
  const { positionals, values } = parseArgs({
    allowPositionals: true,
    options: { 'box-office': { type: 'string' }, name: { type: 'string' } },
  });
  const [command, ...rest] = positionals;
  if (!['create', 'list', 'revoke'].includes(command))
    throw new UsageError(USAGE);

  const dataSource = await openCliDataSource();
  const keys = new ApiKeysService(dataSource);
  try {
    if (command === 'create') {
      const boxOfficeId = positiveInt(values['box-office'], '--box-office');
      const { key, secret } = await keys.create(
        boxOfficeId,
        values.name ?? null,
      );
      console.log(
        `Created key ak_${key.id} for box office ${boxOfficeId}. It is shown only once:`,
      );
      console.log(secret);
    } else if (command === 'list') {
      const boxOfficeId = positiveInt(values['box-office'], '--box-office');
      const list = await keys.list(boxOfficeId);
      if (list.length === 0)
        console.log(`Box office ${boxOfficeId} has no keys`);
      for (const key of list) {
        console.log(
          [
            `ak_${key.id}`,
            `${key.keyPrefix}…`,
            key.revokedAt === null ? 'active' : `revoked ${iso(key.revokedAt)}`,
            `created ${iso(key.createdAt)}`,
            key.name ?? '',
          ].join('\t'),
        );
      }
    } else {
      const keyId = positiveInt(rest[0], 'key-id');
      if (!(await keys.revoke(keyId))) {
        throw new UsageError(`No active key ak_${keyId}`);
      }
      console.log(`Revoked key ak_${keyId}`);
    }
  } finally {
    await dataSource.destroy();
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = error instanceof UsageError ? 2 : 1;
});
