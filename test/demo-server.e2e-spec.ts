import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { durableTestDatabase } from './utils/migrated-database';
import type { TestDatabase } from './utils/test-database';

/**
 * `npm start`'s server (dev/demo-server.ts) as a developer runs it, its output piped as a terminal
 * multiplexer, CI or `| tee` would: it seeds an empty database and ends its output with the banner
 * (README, Quick start), after every log line, JSON logs written asynchronously included.
 */
describe('the demo server (npm start)', () => {
  let database: TestDatabase;
  let server: ChildProcess | undefined;

  beforeAll(async () => {
    database = await durableTestDatabase();
  });
  afterAll(async () => {
    if (server && server.exitCode === null) {
      const exited = new Promise((resolve) => server!.once('exit', resolve));
      server.kill('SIGTERM');
      await exited;
    }
    await database.drop();
  });

  it('prints the banner last: the keys and the curl lines, after the logs', async () => {
    server = spawn(
      process.execPath,
      [
        join(__dirname, '../node_modules/ts-node/dist/bin.js'),
        '--transpile-only',
        join(__dirname, '../dev/demo-server.ts'),
      ],
      {
        cwd: join(__dirname, '..'),
        env: {
          ...process.env,
          DATABASE_URL: database.url,
          PORT: '0',
          LOG_FORMAT: 'json',
          LOG_LEVEL: 'info',
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let output = '';
    server.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
      output += chunk;
    });
    await new Promise<void>((resolve, reject) => {
      const waited = setTimeout(
        () => reject(new Error(`no banner in 25 s:\n${output}`)),
        25_000,
      );
      server!.stdout!.on('data', () => {
        if (/curl -u \S+ "http:\/\/localhost:\d+\/v1\/events/.test(output)) {
          clearTimeout(waited);
          resolve();
        }
      });
      server!.once('exit', (code) =>
        reject(new Error(`exited ${code}:\n${output}`)),
      );
    });
    // Anything logged late would arrive within this second.
    await new Promise((resolve) => setTimeout(resolve, 1000));

    const lines = output.trimEnd().split('\n');
    const banner = lines.findIndex((line) => line.startsWith('Demo API keys'));
    expect(banner).toBeGreaterThan(0);
    const logs = lines.filter((line) => line.startsWith('{'));
    expect(
      logs.map((line) => (JSON.parse(line) as { msg: string }).msg),
    ).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^Seeded \d+ demo orders dated around /),
        expect.stringMatching(/^Box Office API listening on /),
      ]),
    );
    expect(lines.slice(banner).filter((line) => line.startsWith('{'))).toEqual(
      [],
    );
    expect(lines.at(-1)).toMatch(/^ {2}curl -u sk_demo_boxoffice_1: "http/);
  });
});
