import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { DEMO_BOX_OFFICES, seedDemoData } from '../seeds/demo-data';
import { TestApp, createTestApp } from './utils/create-test-app';

const run = promisify(execFile);
const ROOT = join(__dirname, '..');
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

// The typed client as another project gets it (docs/API.md, "The typed client"):
// `npm run client:pack` builds the tarball, which installs with one command into a project that
// has nothing of this checkout (no node_modules of ours on the way up), ships only what runs, and
// walks every list.

/** A script of the scratch project: every list walked with the installed client. */
const WALK = `
import { createBoxOfficeClient, listAll } from '@box-office/client';

const client = createBoxOfficeClient({
  baseUrl: process.env.API_URL,
  apiKey: process.env.API_KEY,
});
const counts = {};
for (const path of ['/v1/orders', '/v1/events', '/v1/issued_tickets', '/v1/event_series', '/v1/check_ins']) {
  counts[path] = 0;
  for await (const _ of listAll(client, path, { query: { limit: 100 } })) counts[path]++;
}
counts.series28 = 0;
for await (const _ of listAll(client, '/v1/event_series/{event_series_id}/events', {
  path: { event_series_id: 'es_28' },
})) counts.series28++;
console.log(JSON.stringify(counts));
`;

describe('The typed client installed from its tarball', () => {
  let t: TestApp;
  let baseUrl: string;
  let scratch: string;
  let tarball: string;

  beforeAll(async () => {
    t = await createTestApp({ RATE_LIMIT_MAX: '1000000' });
    await seedDemoData(t.dataSource, { orders: 250, seed: 1, reset: false });
    await t.app.listen(0, '127.0.0.1');
    baseUrl = `http://127.0.0.1:${(t.server.address() as AddressInfo).port}`;
    scratch = mkdtempSync(join(tmpdir(), 'client-install-'));
    await run(npm, ['run', 'client:pack'], { cwd: ROOT });
    const [file] = readdirSync(join(ROOT, 'client')).filter((f) =>
      f.endsWith('.tgz'),
    );
    tarball = join(ROOT, 'client', file);
  }, 180_000);

  afterAll(async () => {
    await t?.close();
    if (scratch) rmSync(scratch, { recursive: true, force: true });
    if (tarball) rmSync(tarball, { force: true });
  });

  it('ships the built modules and their types only', async () => {
    const { stdout } = await run('tar', ['-tzf', tarball]);
    expect(stdout.trim().split('\n').sort()).toEqual([
      'package/dist/index.d.ts',
      'package/dist/index.js',
      'package/dist/schema.d.ts',
      'package/package.json',
    ]);
  });

  it('installs into another project with one command and walks every list', async () => {
    writeFileSync(
      join(scratch, 'package.json'),
      JSON.stringify({ name: 'scratch', private: true, type: 'module' }),
    );
    writeFileSync(join(scratch, 'walk.mjs'), WALK);
    await run(
      npm,
      ['install', '--no-audit', '--no-fund', '--prefer-offline', tarball],
      { cwd: scratch },
    );
    const { stdout } = await run(process.execPath, ['walk.mjs'], {
      cwd: scratch,
      env: {
        PATH: process.env.PATH,
        API_URL: baseUrl,
        API_KEY: DEMO_BOX_OFFICES[0].apiKey,
      },
    });
    const count = async (sql: string) => {
      const [row] = await t.dataSource.query<{ n: number | string }[]>(sql);
      return Number(row.n);
    };
    expect(JSON.parse(stdout)).toEqual({
      '/v1/orders': await count(
        'SELECT count(*) AS n FROM orders WHERE box_office_id = 1',
      ),
      '/v1/events': await count(
        'SELECT count(*) AS n FROM events WHERE box_office_id = 1',
      ),
      '/v1/issued_tickets': await count(
        'SELECT count(*) AS n FROM issued_tickets WHERE box_office_id = 1',
      ),
      '/v1/event_series': await count(
        'SELECT count(*) AS n FROM event_series WHERE box_office_id = 1',
      ),
      '/v1/check_ins': await count(
        'SELECT count(*) AS n FROM check_ins WHERE box_office_id = 1',
      ),
      series28: await count(
        'SELECT count(*) AS n FROM events WHERE event_series_id = 28',
      ),
    });
    expect(JSON.parse(stdout)['/v1/check_ins']).toBeGreaterThan(0);
  }, 180_000);
});
