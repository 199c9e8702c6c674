#!/usr/bin/env bash
# A short fuzz session of each target (default 60 s each: `engine`, then `core`, the 2025-11-25 world)
# from the committed corpora; exits non-zero on a crash (an engine panic or a broken rule: the input is
# saved under tests/fuzz/artifacts/<target>/)
# and when the nightly toolchain or cargo-fuzz is missing.
#
#   tests/fuzz/short.sh [seconds]          (FUZZ_SECONDS works too; MCP_FUZZ_STRICT=1 enforces the
#                                           rules of the known findings as well)
#
# New inputs go to a temporary corpus: the committed one is only read.
set -uo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
secs="${1:-${FUZZ_SECONDS:-60}}"
export PATH="$HOME/.cargo/bin:$PATH"

fail() {
  echo "tests/fuzz/short.sh: $*" >&2
  exit 2
}

command -v cargo >/dev/null 2>&1 || fail "cargo is not installed"
nightly="$(cat "$root/scripts/nightly-toolchain")"
cargo "+$nightly" --version >/dev/null 2>&1 ||
  fail "the $nightly toolchain is missing (libFuzzer needs it): bash scripts/setup.sh"
cargo fuzz --version >/dev/null 2>&1 || fail "cargo-fuzz is missing: cargo install cargo-fuzz"
[[ "$secs" =~ ^[0-9]+$ ]] || fail "the duration must be a whole number of seconds, not '$secs'"

cd "$root" || fail "cannot enter $root"
# Both targets, one after the other, `secs` each: the engine's own world and the 2025-11-25 one.
for target in engine core; do
  echo "tests/fuzz/short.sh: building the fuzz target $target (tests/fuzz/target)"
  cargo "+$nightly" fuzz build -s none --fuzz-dir tests/fuzz "$target" || fail "the fuzz target $target does not build"

  work="$(mktemp -d)"
  mkdir -p "$work/corpus" "tests/fuzz/artifacts/$target"
  log="$work/fuzz.log"

  echo "tests/fuzz/short.sh: fuzzing $target for ${secs}s from tests/fuzz/corpus/$target"
  cargo "+$nightly" fuzz run -s none --fuzz-dir tests/fuzz "$target" "$work/corpus" "tests/fuzz/corpus/$target" -- \
    -max_total_time="$secs" -timeout=10 -print_final_stats=1 \
    -artifact_prefix="tests/fuzz/artifacts/$target/" >"$log" 2>&1
  rc=$?

  grep -E '^#[0-9]+.*(INITED|DONE)' "$log" | tail -n 2
  grep -E '^stat::(number_of_executed_units|average_exec_per_sec)' "$log"
  if [ "$rc" -ne 0 ]; then
    echo "tests/fuzz/short.sh: the fuzzer found a crash in $target (exit $rc):" >&2
    grep -E -A40 'panicked|engine invariant|core world|deadly signal|ERROR: libFuzzer' "$log" | head -n 80 >&2
    grep -E 'Test unit written to|artifact' "$log" >&2
    rm -rf "$work"
    exit 1
  fi
  rm -rf "$work"
  echo "tests/fuzz/short.sh: no crash in $target"
done
