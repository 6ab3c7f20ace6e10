#!/usr/bin/env node
// `npm run test:e2e:postgres`: the e2e suite against PostgreSQL. Takes the server from
// DATABASE_URL (default postgres://postgres@127.0.0.1:5432/postgres); every test file creates and
// drops a database of its own there (test/utils/test-database.ts), so runs never share data.
const { spawnSync } = require('node:child_process');
const path = require('node:path');

const url =
  process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';
if (!/^postgres(ql)?:\/\//.test(url)) {
  console.error(`DATABASE_URL must be a postgres:// URL, got ${url}`);
  process.exit(2);
}
// Through `npm run jest`, which holds jest's Node flags (npm_execpath: the npm running this script).
const npm = process.env.npm_execpath;
const result = spawnSync(
  npm ? process.execPath : 'npm',
  [
    ...(npm ? [npm] : []),
    'run',
    '--silent',
    'jest',
    '--',
    // Paths first: --selectProjects takes a list, and would read them as project names.
    ...process.argv.slice(2),
    '--selectProjects',
    'e2e',
  ],
  {
    cwd: path.join(__dirname, '../..'),
    stdio: 'inherit',
    env: { ...process.env, TEST_DATABASE_URL: url },
  },
);
process.exit(result.status ?? 1);
