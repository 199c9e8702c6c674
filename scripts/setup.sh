#!/usr/bin/env bash
# Installs what building and testing need and this machine lacks; each step is skipped when already
# done, so a warm run takes a moment. Used by .ci/run, and by `npm test` / `npm start` on a fresh clone.
# `--demo` (what `npm start` runs) installs only what building and serving the demo needs: the wasm
# target, wasm-bindgen-cli and the npm packages — no nightly toolchain (the demo is built with stable:
# `build.mjs --demo`), cargo-fuzz or Chromium.
set -euo pipefail
cd "$(dirname "$0")/.."
SUDO=""; [ "$(id -u)" = 0 ] || SUDO="sudo"
DEMO=0; [ "${1:-}" = "--demo" ] && DEMO=1

# Rust target for the library.
if ! rustup target list --installed | grep -qx wasm32-unknown-unknown; then
  rustup target add wasm32-unknown-unknown
fi

# wasm-bindgen CLI at exactly the crate's version (Cargo.toml pins wasm-bindgen with =).
want=$(grep -A1 '^name = "wasm-bindgen"$' Cargo.lock | sed -n 's/^version = "\(.*\)"$/\1/p')
have=$(wasm-bindgen --version 2>/dev/null | awk '{print $2}' || true)
if [ "$have" != "$want" ]; then
  echo "setup: installing wasm-bindgen-cli $want (have: ${have:-none})"
  cargo install wasm-bindgen-cli --version "$want" --locked || cargo install wasm-bindgen-cli --version "$want"
fi

# The size build's toolchain and the test-only tools (not for `npm start`).
if [ "$DEMO" = 0 ]; then
  # The pinned nightly toolchain (scripts/nightly-toolchain) and its standard-library sources:
  # scripts/build.mjs rebuilds std with `-C panic=immediate-abort` for the shipped wasm (no panic
  # machinery, no core::fmt in it); the fuzzer runs on it too.
  nightly=$(cat scripts/nightly-toolchain)
  if ! rustup toolchain list | grep -q "^$nightly"; then
    echo "setup: installing the $nightly toolchain"
    rustup toolchain install "$nightly" --profile minimal --component rust-src --target wasm32-unknown-unknown ||
      echo "setup: no $nightly toolchain: the build falls back to stable (a bigger wasm)"
  fi
  if rustup toolchain list | grep -q "^$nightly"; then
    rustup component list --toolchain "$nightly" --installed 2>/dev/null | grep -q '^rust-src' ||
      rustup component add rust-src --toolchain "$nightly" || echo "setup: no rust-src for $nightly: the build falls back to stable (a bigger wasm)"
  fi

  # cargo-fuzz (the short fuzz run of `npm test` needs it and the pinned nightly).
  if ! cargo fuzz --version >/dev/null 2>&1; then
    echo "setup: installing cargo-fuzz"
    cargo install cargo-fuzz --locked || cargo install cargo-fuzz
  fi

  # Debian's Chromium for the browser tests (driven by playwright-core).
  if [ ! -x /usr/bin/chromium ]; then
    echo "setup: installing chromium"
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq chromium >/dev/null
  fi

  bash tests/servers/sdk/setup.sh  # the MCP 2025-11-25 interop server's npm packages (own lockfile; instant when installed)
fi

# npm packages, when node_modules is missing or older than the lockfile.
if [ ! -f node_modules/.package-lock.json ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  echo "setup: npm ci"
  npm ci --no-audit --no-fund
fi
