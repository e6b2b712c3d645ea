#!/usr/bin/env bash
# Installs the pinned npm packages of tests/mcp/npm/package.json (the real MCP servers the tests
# run against) into tests/mcp/npm/node_modules. Idempotent and quick when nothing changed: it
# skips npm when node_modules was installed from the current package.json and lock.
set -euo pipefail

DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)/tests/mcp/npm"
STAMP="$DIR/node_modules/.clawtools-installed"

if ! command -v npm >/dev/null 2>&1; then
  echo "install-npm: npm not found; the MCP tests against real servers will be skipped" >&2
  exit 0
fi

cd "$DIR"
fingerprint() { cat package.json $(ls package-lock.json 2>/dev/null) | sha256sum | cut -d' ' -f1; }

if [ -f "$STAMP" ] && [ "$(cat "$STAMP")" = "$(fingerprint)" ]; then
  exit 0
fi

echo "install-npm: installing MCP test servers into $DIR/node_modules"
if [ -f package-lock.json ]; then
  npm ci --no-audit --no-fund --loglevel=error
else
  npm install --no-audit --no-fund --loglevel=error
fi
# The lock may have been created just now: fingerprint what is on disk after the install.
fingerprint >"$STAMP"
