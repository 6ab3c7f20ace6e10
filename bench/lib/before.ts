import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';

/**
 * `--before <commit>`: an earlier build of the service, run beside `ours` in the same run, so that
 * a change's figures stand next to the build before it on the same machine at the same minute
 * (runs minutes apart on this VM differ by more than most targets allow:
 * bench/notes/2026-11-27-door-rush-lifted.md). The commit's tree is extracted with `git archive`
 * into data/bench-builds/<commit> (the repository's git-ignored data folder: no worktree, nothing
 * in .git), given this checkout's node_modules, and built once with its own `nest build`; later
 * runs reuse the build. Returns its build output (what `dist/` is to this checkout).
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
  const dir = join(root, 'data', 'bench-builds', commit.slice(0, 12));
  const dist = join(dir, 'dist');
  if (existsSync(join(dist, 'src', 'main.js'))) return dist;
  console.log(`Building ${commit.slice(0, 12)} (--before) in ${dir}…`);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  execFileSync('sh', ['-c', `git archive ${commit} | tar -x -C '${dir}'`], {
    cwd: root,
    stdio: 'inherit',
  });
  symlinkSync(join(root, 'node_modules'), join(dir, 'node_modules'), 'dir');
  execFileSync(join(root, 'node_modules', '.bin', 'nest'), ['build'], {
    cwd: dir,
    stdio: 'inherit',
  });
  return dist;
}
