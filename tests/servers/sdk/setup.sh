#!/usr/bin/env bash
# Idempotent install of the MCP 2025-11-25 interop server's packages (@modelcontextprotocol/sdk 1.32.2,
# exact pins in package.json, the whole tree in the committed package-lock.json).
# Usage: bash tests/servers/sdk/setup.sh      (from anywhere)
# Runs `npm ci` in this folder only when node_modules is missing or older than package-lock.json;
# a warm run only stats two files.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
lock="$here/package-lock.json"
stamp="$here/node_modules/.package-lock.json"  # written by npm at the end of every install

is_ready() {
  [ -f "$stamp" ] && ! [ "$lock" -nt "$stamp" ] && [ -f "$here/node_modules/@modelcontextprotocol/sdk/package.json" ]
}

if is_ready; then
  exit 0
fi

install() {
  # Re-check under the lock: a concurrent run may have finished meanwhile.
  if is_ready; then
    return 0
  fi
  command -v npm >/dev/null 2>&1 || { echo "setup.sh: npm not found" >&2; exit 1; }
  local t0=$SECONDS
  echo "setup.sh: npm ci in $here (@modelcontextprotocol/sdk 1.32.2) ..." >&2
  (cd "$here" && npm ci --no-audit --no-fund --loglevel=error)
  echo "setup.sh: done in $((SECONDS - t0)) s" >&2
}

if command -v flock >/dev/null 2>&1; then
  exec 9>"$here/.setup.lock"
  flock 9
  install
else
  install
fi
