import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';

/**
 * `--before <commit>`: an earlier build of the service, run beside `ours` in the same run, so that
 * a change's figures stand next to the build before it on the same machine at the same minute
 * (runs minutes apart on this VM differ by more than most targets allow:
 * bench/notes/2026-11-27-door-rush-lifted.md). The commit's tree is extracted with `git archive`
 * into node_modules/.cache/bench-builds/<commit> (no worktree, nothing in .git; under
 * node_modules, which tsc, jest's roots, the linters and git leave alone, and from where Node and
 * TypeScript find this checkout's packages by walking up) and built once with its own
 * `nest build`; later runs reuse the build. Returns its build output (what `dist/` is to this
 * checkout).
 */
export function prepareBeforeBuild(root: string, ref: string): string {
  const commit = execFileSync(
    'git',
    ['rev-parse', '--verify', `${ref}^{commit}`],
    {
      cwd: root,
      encoding: 'utf8',
    },
  ).trim();
  const dir = join(
    root,
    'node_modules',
    '.cache',
    'bench-builds',
    commit.slice(0, 12),
  );
  const dist = join(dir, 'dist');
  if (existsSync(join(dist, 'src', 'main.js'))) return dist;
  console.log(`Building ${commit.slice(0, 12)} (--before) in ${dir}…`);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  execFileSync('sh', ['-c', `git archive ${commit} | tar -x -C '${dir}'`], {
    cwd: root,
    stdio: 'inherit',
  });
  execFileSync(join(root, 'node_modules', '.bin', 'nest'), ['build'], {
    cwd: dir,
    stdio: 'inherit',
  });
  return dist;
}
