import { execFileSync } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { SqlCounts } from '../sql-count';
import { REQUEST_HEADERS, type Scenario } from './scenarios';
import type { Launch } from './servers';

/**
 * SQL statements per request of each scenario on ours and typical: bench/sql-count.ts, in a child
 * process, on a few paths of each scenario (deep ones fewer: typical takes long on them).
 */
export function countStatements(
  launch: Launch,
  scenarios: readonly Scenario[],
): SqlCounts {
  console.log('Counting SQL statements per request (in-process)…');
  const input = join(launch.dataDir, 'sql-count-input.json');
  const output = join(launch.dataDir, 'sql-count-output.json');
  const sample: Record<string, string[]> = {};
  // GETs only: the door rush's statements are its transaction's (src/check-ins/sql/record-scan.*).
  for (const s of scenarios.filter((scenario) => !scenario.scans)) {
    sample[s.name] = s.paths.slice(0, s.name.startsWith('deep') ? 2 : 5);
  }
  writeFileSync(
    input,
    JSON.stringify({
      headers: REQUEST_HEADERS,
      scenarios: sample,
      revalidate: scenarios.filter((s) => s.revalidate).map((s) => s.name),
    }),
  );
  rmSync(output, { force: true });
  execFileSync(
    process.execPath,
    [join(launch.distRoot, 'bench', 'sql-count.js'), input, output],
    {
      env: { ...process.env, ...launch.env, MIGRATIONS_RUN: 'false' },
      stdio: ['ignore', 'ignore', 'inherit'],
      timeout: 600_000,
    },
  );
  const counts = JSON.parse(readFileSync(output, 'utf8')) as SqlCounts;
  for (const [name, perScenario] of Object.entries(counts.perRequest)) {
    const list = Object.entries(perScenario).map(([s, n]) => `${s} ${n}`);
    console.log(`  ${name}: ${list.join(', ')}`);
  }
  return counts;
}
