import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { TestDatabase } from '../utils/test-database';
import { POSTGRES_URL, freshDatabase } from './databases';
import { Exit, freePort, spawnServer } from './server-process';

/** "A few seconds": start-up itself, plus the two retries a refused PostgreSQL gets. */
const EXITS_WITHIN_MS = 8_000;

interface Outcome {
  exit: Exit;
  ms: number;
  output: string;
}

async function boot(databaseUrl: string): Promise<Outcome> {
  const started = Date.now();
  const server = spawnServer({ DATABASE_URL: databaseUrl }, await freePort());
  const timer = setTimeout(() => server.child.kill('SIGKILL'), 30_000);
  const exit = await server.exited();
  clearTimeout(timer);
  return { exit, ms: Date.now() - started, output: server.output() };
}

/** The process failed fast with exactly one line, naming the database, and no stack trace. */
function expectOneClearLine(outcome: Outcome, database: string, why: RegExp) {
  expect(outcome.exit).toEqual({ code: 1, signal: null });
  expect(outcome.ms).toBeLessThan(EXITS_WITHIN_MS);
  const lines = outcome.output.trim().split('\n');
  expect(lines).toHaveLength(1);
  const [line] = lines;
  expect(
    line.startsWith(
      `Box Office API did not start: cannot use the database ${database} (`,
    ),
  ).toBe(true);
  expect(line).toMatch(why);
  expect(line).not.toMatch(/\bat .*:\d+:\d+/);
}

// docs/DESIGN.md, Start-up: an invalid setting stops the start with one line naming it, exit code 1.
// A module that waited for the settings (MetricsModule) once left the start waiting forever on
// one: the process ended with nothing printed and exit code 0, as if it had been stopped.
describe('a start with an invalid setting', () => {
  it.each([
    ['METRICS_TOKEN', 'too-short', /METRICS_TOKEN must be 32-256 characters/],
    ['RATE_LIMIT_MAX', 'many', /RATE_LIMIT_MAX/],
  ])('fails fast with one line naming it: %s=%s', async (name, value, why) => {
    const started = Date.now();
    const server = spawnServer(
      { DATABASE_URL: 'sqlite::memory:', [name]: value },
      await freePort(),
    );
    const timer = setTimeout(() => server.child.kill('SIGKILL'), 30_000);
    const exit = await server.exited();
    clearTimeout(timer);
    expect(exit).toEqual({ code: 1, signal: null });
    expect(Date.now() - started).toBeLessThan(EXITS_WITHIN_MS);
    const lines = server.output().trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(
      /^Box Office API did not start: Invalid configuration: /,
    );
    expect(lines[0]).toMatch(why);
  });
});

// docs/DESIGN.md, Start-up: a database that is missing or cannot be written stops the
// start at once with one line saying which and why (no stack trace), and exit code 1.
describe('a start against a database it cannot use', () => {
  let sqlite: TestDatabase;

  beforeAll(async () => {
    sqlite = await freshDatabase('sqlite');
  });
  afterAll(() => sqlite?.drop());

  it('fails fast with one clear line: an SQLite file in a directory it cannot write', async () => {
    // Root may write to any directory but /proc's (CI runs as root).
    let dir = '/proc';
    if (process.getuid?.() !== 0) {
      dir = join(dirname(sqlite.url.slice('sqlite:'.length)), 'read-only');
      mkdirSync(dir);
      chmodSync(dir, 0o555);
    }
    const path = join(dir, 'boxoffice.sqlite');
    expectOneClearLine(
      await boot(`sqlite:${path}`),
      `SQLite ${path}`,
      /unable to open database file/,
    );
  });

  it('fails fast with one clear line: an SQLite path under a plain file', async () => {
    const file = join(dirname(sqlite.url.slice('sqlite:'.length)), 'a-file');
    writeFileSync(file, 'not a directory');
    const path = join(file, 'boxoffice.sqlite');
    expectOneClearLine(
      await boot(`sqlite:${path}`),
      `SQLite ${path}`,
      /EEXIST|ENOTDIR/,
    );
  });

  it('fails fast with one clear line, and no password: PostgreSQL unreachable', async () => {
    const port = await freePort();
    const outcome = await boot(
      `postgres://boxoffice:secret-password@127.0.0.1:${port}/boxoffice`,
    );
    expectOneClearLine(
      outcome,
      `PostgreSQL 127.0.0.1:${port}/boxoffice`,
      /ECONNREFUSED/,
    );
    expect(outcome.output).not.toContain('secret-password');
  });

  it('fails fast with one clear line: a PostgreSQL database that does not exist', async () => {
    const url = new URL(POSTGRES_URL);
    url.pathname = '/boxoffice_no_such_database';
    expectOneClearLine(
      await boot(url.toString()),
      `PostgreSQL ${url.host}/boxoffice_no_such_database`,
      /database "boxoffice_no_such_database" does not exist/,
    );
  });
});
