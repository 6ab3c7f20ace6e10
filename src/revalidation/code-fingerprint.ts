import { createHash } from 'node:crypto';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

/**
 * A fingerprint of the code that writes response bodies: a hash of every file of the
 * application's own tree (`src/` when run from source, `dist/src/` when built) and of the package
 * manifest and lock beside it. Instances of one release share it, so a validator one instance
 * issued is recognised by the others; a release that might write other bytes for the same data
 * has another, so no client keeps a body an older release wrote (src/revalidation/revalidation.ts).
 */
export function codeFingerprint(root = resolve(__dirname, '..')): string {
  const hash = createHash('sha256');
  for (const file of filesUnder(root)) {
    hash.update(relative(root, file)).update('\0').update(readFileSync(file));
  }
  const manifest = packageDirectory(root);
  if (manifest !== null) {
    for (const name of ['package.json', 'package-lock.json']) {
      const file = join(manifest, name);
      if (existsSync(file)) hash.update(name).update(readFileSync(file));
    }
  }
  return hash.digest('base64url').slice(0, 16);
}

function filesUnder(directory: string): string[] {
  return readdirSync(directory, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name))
    .sort();
}

/** The nearest directory at or above `from` that holds a package.json (null: none). */
function packageDirectory(from: string): string | null {
  for (let dir = from; ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'package.json'))) return dir;
    if (dirname(dir) === dir) return null;
  }
}
