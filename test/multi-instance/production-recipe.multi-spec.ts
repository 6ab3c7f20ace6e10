import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { basicAuth } from '../utils/create-test-app';
import type { TestDatabase } from '../utils/test-database';
import { type Kind, freshDatabase } from './databases';
import { type ServerProcess, startServer } from './server-process';

// Production in three commands (docs/OPERATIONS.md, "Running in production"; docs/API.md, "Box offices"), on
// an empty database, as an operator runs them after `npm run build`: a box office, a key for it,
// the server. The CLIs are the built ones; the server is dist/src/main.js (npm run start:prod).

const run = promisify(execFile);
const DIST = join(__dirname, '../../dist/src');

describe.each<Kind>(['sqlite', 'postgres'])(
  'the production recipe on an empty %s database',
  (kind) => {
    let database: TestDatabase;
    let server: ServerProcess | undefined;

    beforeAll(async () => {
      database = await freshDatabase(kind);
    });

    afterAll(async () => {
      await server?.stop();
      await database?.drop();
    });

    /** The built command `npm run <name>` runs: dist/src/auth/<its file>.cli.js. */
    const FILES: Record<string, string> = {
      boxoffice: 'boxoffice',
      apikey: 'api-key',
    };
    const cli = (name: string, args: string[]) =>
      run(
        process.execPath,
        [join(DIST, 'auth', `${FILES[name]}.cli.js`), ...args],
        {
          env: {
            ...process.env,
            NODE_ENV: 'production',
            DATABASE_URL: database.url,
          },
        },
      );

    it('serves a new box office with a new key: boxoffice create, apikey create, start', async () => {
      const created = await cli('boxoffice', [
        'create',
        '--name',
        'Riverside Theatre',
        '--currency',
        'EUR',
        '--timezone',
        'Europe/Dublin',
      ]);
      expect(created.stdout).toMatch(/^[1-9]\d*\n$/);
      const id = created.stdout.trim();
      expect(created.stderr).toContain(
        `Created box office ${id} "Riverside Theatre" (eur, Europe/Dublin). Next: npm run apikey -- create --box-office ${id}`,
      );
      const listed = await cli('boxoffice', ['list']);
      expect(listed.stdout).toMatch(
        new RegExp(
          `^${id}\\tRiverside Theatre\\teur\\tEurope/Dublin\\tcreated \\S+\\n$`,
        ),
      );

      const key = await cli('apikey', [
        'create',
        '--box-office',
        id,
        '--name',
        'Box office PC',
      ]);
      const secret = key.stdout.trim().split('\n')[1];
      expect(secret).toMatch(/^sk_[A-Za-z0-9]{32,}$/);

      server = await startServer({ DATABASE_URL: database.url });
      const ping = await fetch(`${server.url}/v1/ping`);
      expect(ping.status).toBe(200);
      const orders = await fetch(`${server.url}/v1/orders`, {
        headers: { Authorization: basicAuth(secret) },
      });
      expect(orders.status).toBe(200);
      expect(await orders.json()).toEqual({
        data: [],
        links: { next: null, previous: null },
      });
      // Production never seeds: no demo key works.
      const demo = await fetch(`${server.url}/v1/orders`, {
        headers: { Authorization: basicAuth('sk_demo_boxoffice_1') },
      });
      expect(demo.status).toBe(401);
    });

    it('answers --help with the usage, and a mistake with the usage and exit code 2', async () => {
      for (const name of ['boxoffice', 'apikey']) {
        const help = await cli(name, ['--help']);
        expect(help.stdout).toContain(`npm run ${name} -- create`);
      }
      await expect(
        cli('boxoffice', ['create', '--name', 'X', '--currency', 'xyz']),
      ).rejects.toMatchObject({
        code: 2,
        stderr: expect.stringContaining(
          '--currency must be one of gbp',
        ) as string,
      });
      await expect(
        cli('boxoffice', [
          'create',
          '--name',
          'X',
          '--timezone',
          'Mars/Olympus',
        ]),
      ).rejects.toMatchObject({
        code: 2,
        stderr: expect.stringContaining(
          '--timezone must be an IANA time zone',
        ) as string,
      });
      await expect(cli('boxoffice', ['create'])).rejects.toMatchObject({
        code: 2,
        stderr: expect.stringContaining(
          '--name must be 1 to 200 characters',
        ) as string,
      });
    });
  },
);
