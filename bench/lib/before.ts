import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, rmSync } from 'node:fs';
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
  if (!existsSync(join(dist, 'src', 'main.js'))) build(root, commit, dir);
  // TypeScript emits nothing for a file under node_modules, and the JSON files the code imports
  // (package.json, src/**/*.json) lie under it here: they are copied where the build expects them.
  for (const file of [
    'package.json',
    ...readdirSync(join(dir, 'src'), { recursive: true, encoding: 'utf8' })
      .filter((name) => name.endsWith('.json'))
      .map((name) => join('src', name)),
  ]) {
    if (!existsSync(join(dist, file)))
      cpSync(join(dir, file), join(dist, file));
  }
  return dist;
}

/** Extracts the commit's tree into `dir` and builds it there with its own `nest build`. */
function build(root: string, commit: string, dir: string): void {
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
}
