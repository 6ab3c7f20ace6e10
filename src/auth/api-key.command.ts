import { parseArgs } from 'node:util';
import type { DataSource } from 'typeorm';
import { ApiKeysService } from './api-keys.service';
import { API_KEY_SCOPES, DEFAULT_SCOPE, isApiKeyScope } from './api-key-scopes';
import { RESOURCE, idOf } from '../common/resources/resource-identities';

export const APIKEY_USAGE = `Usage:
  npm run apikey -- create --box-office <id> [--name <label>] [--scope read|check_in|write]
  npm run apikey -- list --box-office <id>
  npm run apikey -- revoke <key-id>

create prints the new key once; keys are stored hashed. Scope read (the default) reads;
check_in also records door scans (POST /v1/check_ins); write also makes every other write:
issues and voids tickets (POST /v1/issued_tickets, POST /v1/issued_tickets/{id}/void) and
changes webhook endpoints (/v1/webhook_endpoints). A box office comes first:
  npm run boxoffice -- create --name <name>`;

/** A mistake in the command line: printed with the usage, exit code 2. */
export class UsageError extends Error {}

function positiveInt(value: string | undefined, what: string): number {
  const digits = value?.replace(new RegExp(`^${RESOURCE.apiKey.prefix}`), '');
  if (!digits || !/^[1-9]\d{0,9}$/.test(digits)) {
    throw new UsageError(`${what} must be a positive number`);
  }
  return Number(digits);
}

const iso = (unix: number | null) =>
  unix === null ? '' : new Date(unix * 1000).toISOString();

/**
 * Parses the command line before any database work, so a typo never opens a database; null when
 * help was asked for.
 */
export function parseApiKeyCommand(argv: string[]) {
  const { positionals, values } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      'box-office': { type: 'string' },
      name: { type: 'string' },
      scope: { type: 'string', default: DEFAULT_SCOPE },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  if (values.help) return null;
  const [command, ...rest] = positionals;
  switch (command) {
    case 'create': {
      const { scope } = values;
      if (!isApiKeyScope(scope)) {
        throw new UsageError(
          `--scope must be one of ${API_KEY_SCOPES.join(', ')}, got "${scope}"`,
        );
      }
      return {
        command,
        boxOfficeId: positiveInt(values['box-office'], '--box-office'),
        name: values.name ?? null,
        scope,
      } as const;
    }
    case 'list':
      return {
        command,
        boxOfficeId: positiveInt(values['box-office'], '--box-office'),
      } as const;
    case 'revoke':
      return { command, keyId: positiveInt(rest[0], 'key-id') } as const;
    default:
      throw new UsageError(APIKEY_USAGE);
  }
}

/** Runs `apikey create|list|revoke`, writing what a person reads through `print`. */
export async function runApiKeyCommand(
  command: NonNullable<ReturnType<typeof parseApiKeyCommand>>,
  dataSource: DataSource,
  print: (line: string) => void,
): Promise<void> {
  const keys = new ApiKeysService(dataSource);
  if (command.command === 'create') {
    const { key, secret } = await keys.create(
      command.boxOfficeId,
      command.name,
      command.scope,
    );
    print(
      `Created key ${idOf(RESOURCE.apiKey, key.id)} for box office ${command.boxOfficeId}. It is shown only once:`,
    );
    print(secret);
  } else if (command.command === 'list') {
    const list = await keys.list(command.boxOfficeId);
    if (list.length === 0)
      print(`Box office ${command.boxOfficeId} has no keys`);
    for (const key of list) {
      print(
        [
          idOf(RESOURCE.apiKey, key.id),
          `${key.keyPrefix}…`,
          key.revokedAt === null ? 'active' : `revoked ${iso(key.revokedAt)}`,
          `created ${iso(key.createdAt)}`,
          `scope ${key.scope}`,
          key.name ?? '',
        ].join('\t'),
      );
    }
  } else {
    if (!(await keys.revoke(command.keyId))) {
      throw new UsageError(
        `No active key ${idOf(RESOURCE.apiKey, command.keyId)}`,
      );
    }
    print(`Revoked key ${idOf(RESOURCE.apiKey, command.keyId)}`);
  }
}
