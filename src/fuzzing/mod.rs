//! The engine's deterministic world ([`harness`]): plain bytes decode into one of the machines, its
//! options and a list of server, application and clock moves, and every invariant of the engine's
//! contract is checked after every step. The crate's property tests (`src/tests/props.rs`) play it
//! with random bytes; the fuzzer (`tests/fuzz`, cargo feature `fuzzing`) with libFuzzer's — through
//! the one entry it needs, [`run`], so that the engine itself stays internal.

pub(crate) mod core;
pub(crate) mod harness;

pub use harness::{Rules, Scenario};

/// Plays the MCP 2025-11-25 world `data` decodes into ([`core`]); a broken rule panics.
pub fn run_core(data: &[u8]) {
    core::play(data);
}

/// Plays the world `data` decodes into, under `rules`; a broken invariant panics (a crash for libFuzzer).
pub fn run(data: &[u8], rules: Rules) {
    let _ = harness::run(&Scenario::decode(data), rules);
}
