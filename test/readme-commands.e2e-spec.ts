import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { AddressInfo } from 'node:net';
import { seedDemoData } from '../seeds/demo-data';
import { type TestApp, createTestApp } from './utils/create-test-app';

// The README's request lines, pasted into bash as a reader would, against the demo data: each
// runs as written (no placeholder that leaves the shell at a `>` prompt), the scan line records a
// scan of the ticket the line before it finds, and the webhooks' first line makes an endpoint.

const README = readFileSync(join(__dirname, '../README.md'), 'utf8');

/** The first ```sh block after `marker` (a heading's line, a paragraph's first words). */
function shellBlock(marker: string): string {
  const at = README.indexOf(marker);
  if (at < 0) throw new Error(`no ${marker} in the README`);
  const match = /```sh\n([\s\S]*?)```/.exec(README.slice(at));
  if (match === null) throw new Error(`no sh block after ${marker}`);
  return match[1];
}

/** `script` run by bash against the test's server, as pasted. */
async function bash(script: string): Promise<string> {
  const { stdout } = await promisify(execFile)(
    'bash',
    [
      '-c',
      `set -euo pipefail\n${script.replaceAll('http://localhost:3000', base)}`,
    ],
    { timeout: 20_000 },
  );
  return stdout;
}

let api: TestApp;
let base: string;

beforeAll(async () => {
  // As the demo server (npm start) runs it: a receiver on this machine may be a webhook's.
  api = await createTestApp({ WEBHOOK_ALLOW_PRIVATE_URLS: 'true' });
  await seedDemoData(api.dataSource, { orders: 250, seed: 1, reset: false });
  await api.app.listen(0, '127.0.0.1');
  base = `http://127.0.0.1:${(api.server.address() as AddressInfo).port}`;
});
afterAll(() => api.close());

it("runs the README's requests in bash, the scan among them", async () => {
  const block = shellBlock('\n## Using the API\n');
  expect(block).toContain('http://localhost:3000');
  const before = await checkIns();
  const stdout = await bash(block);
  expect(stdout).not.toContain('"error_code"');
  expect(stdout).toContain('"object":"check_in"');
  expect(await checkIns()).toBe(before + 1);
});

it("makes the webhook endpoint of the README's first webhook line, and shows its secret", async () => {
  const [create] = shellBlock('**Webhooks.**').split('\n');
  expect(create).toMatch(/^curl .*\/v1\/webhook_endpoints -d /);
  const stdout = await bash(create);
  expect(JSON.parse(stdout)).toMatchObject({
    object: 'webhook_endpoint',
    url: 'http://127.0.0.1:4000/webhooks',
    enabled_events: ['*'],
    status: 'enabled',
    secret: expect.stringMatching(/^whsec_/) as string,
  });
});

async function checkIns(): Promise<number> {
  const [row] = await api.dataSource.query<{ n: number }[]>(
    'SELECT COUNT(*) AS n FROM check_ins',
  );
  return Number(row.n);
}
