#!/usr/bin/env bash
# Fails when a fresh `npm install` would rewrite package-lock.json: the committed lock must be the
# one npm writes, so that a newcomer's first install leaves the tree clean (docs/DEVELOPMENT.md).
# It installs into a scratch copy of package.json and the lock, so the node_modules that `npm ci`
# installed for the tests stays as it is; install scripts are skipped (npm records them the same).
#   bash scripts/check-lockfile.sh   # .ci/run runs it after `npm ci`
set -euo pipefail
cd "$(dirname "$0")/.."
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
cp package.json package-lock.json "$scratch/"
(cd "$scratch" && npm install --ignore-scripts --no-audit --no-fund --prefer-offline >/dev/null)
if ! diff -u package-lock.json "$scratch/package-lock.json"; then
  echo 'package-lock.json is not what a fresh `npm install` writes (the diff above): run' >&2
  echo '`npm install` and commit the package-lock.json it leaves.' >&2
  exit 1
fi
echo 'package-lock.json is what a fresh `npm install` writes'
