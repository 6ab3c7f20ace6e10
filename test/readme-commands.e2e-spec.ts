import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { AddressInfo } from 'node:net';
import { seedDemoData } from '../seeds/demo-data';
import { type TestApp, createTestApp } from './utils/create-test-app';

// The README's "Using the API" lines, pasted into bash as a reader would, against the demo data:
// each runs as written (no placeholder that leaves the shell at a `>` prompt), and the scan line
// records a scan of the ticket the line before it finds.

const README = readFileSync(join(__dirname, '../README.md'), 'utf8');

/** The first ```sh block after the heading. */
function shellBlock(heading: string): string {
  const section = README.slice(README.indexOf(`\n## ${heading}\n`));
  const match = /```sh\n([\s\S]*?)```/.exec(section);
  if (match === null) throw new Error(`no sh block under ${heading}`);
  return match[1];
}

let api: TestApp;
let base: string;

beforeAll(async () => {
  api = await createTestApp();
  await seedDemoData(api.dataSource, { orders: 250, seed: 1, reset: false });
  await api.app.listen(0, '127.0.0.1');
  base = `http://127.0.0.1:${(api.server.address() as AddressInfo).port}`;
});
afterAll(() => api.close());

it("runs the README's requests in bash, the scan among them", async () => {
  const block = shellBlock('Using the API');
  expect(block).toContain('http://localhost:3000');
  const script = block.replaceAll('http://localhost:3000', base);
  const before = await checkIns();
  const { stdout } = await promisify(execFile)(
    'bash',
    ['-c', `set -euo pipefail\n${script}`],
    { timeout: 20_000 },
  );
  expect(stdout).not.toContain('"error_code"');
  expect(stdout).toContain('"object":"check_in"');
  expect(await checkIns()).toBe(before + 1);
});

async function checkIns(): Promise<number> {
  const [row] = await api.dataSource.query<{ n: number }[]>(
    'SELECT COUNT(*) AS n FROM check_ins',
  );
  return Number(row.n);
}
