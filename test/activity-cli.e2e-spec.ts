import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { MIGRATIONS } from '../src/database/data-source-options';
import { Factory } from './utils/factories';
import {
  durableTestDatabase,
  openWithMigrations,
} from './utils/migrated-database';
import type { TestDatabase } from './utils/test-database';

/** `npm run activity -- <args>` against `url`, as a developer runs it. */
function activity(url: string, ...args: string[]) {
  const result = spawnSync(
    process.execPath,
    [
      join(__dirname, '../node_modules/ts-node/dist/bin.js'),
      '--transpile-only',
      join(__dirname, '../dev/activity.cli.ts'),
      ...args,
    ],
    {
      cwd: join(__dirname, '..'),
      env: { ...process.env, DATABASE_URL: url, SYNC_LAG_S: '2' },
      encoding: 'utf8',
      timeout: 60_000,
    },
  );
  return {
    status: result.status,
    stdout: result.stdout,
    stderr: result.stderr,
  };
}

// docs/DESIGN.md, "Making changes in development": the command's output and errors.
describe('npm run activity', () => {
  let database: TestDatabase;
  let ticket: number;
  let order: number;

  beforeAll(async () => {
    database = await durableTestDatabase();
    const ds = await openWithMigrations(database.url, MIGRATIONS);
    const f = new Factory(ds);
    const office = await f.boxOffice('CLI');
    const event = await f.event(office.id);
    const saved = await f.order(office.id, event.id);
    order = saved.id;
    ticket = saved.issuedTickets![0].id;
    await ds.destroy();
  }, 60_000);

  afterAll(() => database?.drop());

  it('prints one JSON line per change entry once committed', () => {
    const { status, stdout, stderr } = activity(
      database.url,
      'void-ticket',
      `it_${ticket}`,
    );
    expect(stderr).toBe('');
    expect(status).toBe(0);
    const lines = stdout.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0])).toEqual({
      type: 'ISSUED_TICKET.UPDATED',
      resource_id: `it_${ticket}`,
      stamp: expect.any(Number) as number,
    });
  }, 60_000);

  it('refuses a change the data does not allow, or bad input, naming it, and prints nothing', () => {
    expect(activity(database.url, 'void-ticket', `it_${ticket}`)).toEqual({
      status: 2,
      stdout: '',
      stderr: `activity: it_${ticket} is already void\n`,
    });
    expect(
      activity(database.url, 'refund-order', `or_${order}`, '--amount', 'ten'),
    ).toEqual({
      status: 2,
      stdout: '',
      stderr:
        'activity: --amount must be an integer of at least 1, got "ten"\n',
    });
  }, 120_000);

  it('explains itself with --help', () => {
    const { status, stdout } = activity(database.url, '--help');
    expect(status).toBe(0);
    expect(stdout).toContain(
      'npm run activity -- run --box-office <id> --duration <s> --rate <changes/s> [--seed S] [--hold-ms N]',
    );
  }, 60_000);
});
