import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import packageJson from '../package.json';

// `npm start` and `npm test` on a Node.js older than the engines range stop at once with one line
// naming the version and the fix (scripts/check-node.js, run as prestart and pretest), instead of
// a long build that ends in a crash.

const { refusal } = require('../scripts/check-node.js') as {
  refusal: (version: string, range: string) => string | null;
};
const SCRIPT = join(__dirname, '../scripts/check-node.js');

describe('the Node.js version check', () => {
  const range = packageJson.engines.node;

  it('refuses a Node.js below the range in one line that names it and the fix', () => {
    for (const version of ['20.20.2', '22.12.0', '24.8.9', 'v24.0.0']) {
      const line = refusal(version, range);
      expect(line).toContain(`Node.js ${version}`);
      expect(line).toContain(range);
      expect(line).toContain('bash scripts/use-node24.sh');
      expect(line).not.toContain('\n');
    }
  });

  it('lets the range through', () => {
    for (const version of ['24.9.0', '24.22.3', '25.0.0', '30.1.2']) {
      expect(refusal(version, range)).toBeNull();
    }
  });

  it('runs before npm start and npm test, and passes on this Node.js', () => {
    expect(packageJson.scripts.prestart).toBe('node scripts/check-node.js');
    expect(packageJson.scripts.pretest).toBe('node scripts/check-node.js');
    const run = spawnSync(process.execPath, [SCRIPT], { encoding: 'utf8' });
    expect({ status: run.status, stderr: run.stderr }).toEqual({
      status: 0,
      stderr: '',
    });
  });
});
