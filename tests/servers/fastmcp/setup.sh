#!/usr/bin/env bash
# Idempotent setup of the fastmcp-tasks 4.1.4 interop server's venv.
# Usage: bash tests/servers/fastmcp/setup.sh      (from anywhere)
# Creates tests/servers/fastmcp/.venv and installs requirements.txt (exact pins,
# top-level fastmcp-tasks==4.1.4). A warm run (stamp matches) only stats files.
# Env: PYTHON=/path/to/python3 to choose the interpreter (>= 3.10).
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
venv="$here/.venv"
req="$here/requirements.txt"
stamp="$venv/.installed-requirements"

is_ready() {
  [ -x "$venv/bin/python" ] &&
    [ -f "$stamp" ] &&
    cmp -s "$req" "$stamp" &&
    compgen -G "$venv/lib/python3*/site-packages/fastmcp_tasks-4.1.4.dist-info" >/dev/null
}

if is_ready; then
  exit 0
fi

install() {
  # Re-check under the lock: a concurrent run may have finished meanwhile.
  if is_ready; then
    return 0
  fi
  local py="${PYTHON:-}"
  if [ -z "$py" ]; then
    for cand in python3.11 python3.12 python3.13 python3 python; do
      if command -v "$cand" >/dev/null 2>&1; then py="$cand"; break; fi
    done
  fi
  [ -n "$py" ] || { echo "setup.sh: no python3 found" >&2; exit 1; }
  "$py" -c 'import sys; sys.exit(0 if sys.version_info >= (3, 10) else 1)' ||
    { echo "setup.sh: $py is older than 3.10 (fastmcp-tasks needs >= 3.10)" >&2; exit 1; }

  local t0=$SECONDS
  if [ ! -x "$venv/bin/python" ] || ! "$venv/bin/python" -c '' 2>/dev/null; then
    rm -rf "$venv"
    echo "setup.sh: creating $venv with $("$py" --version 2>&1)" >&2
    "$py" -m venv "$venv"
  fi
  rm -f "$stamp"
  echo "setup.sh: installing fastmcp-tasks==4.1.4 (pinned requirements.txt) ..." >&2
  "$venv/bin/python" -m pip install --disable-pip-version-check --no-input -q -r "$req"
  cp "$req" "$stamp"
  echo "setup.sh: done in $((SECONDS - t0)) s" >&2
}

if command -v flock >/dev/null 2>&1; then
  exec 9>"$here/.venv.lock"
  flock 9
  install
else
  install
fi
