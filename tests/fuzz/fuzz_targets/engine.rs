//! The engine fuzz target: libFuzzer's bytes decode (through `arbitrary`) into a world of server,
//! application and clock moves played against one of the engine's machines; every invariant of the
//! crate's fuzz world (`src/fuzzing/harness.rs`) is checked after every step, and a broken one panics
//! (a crash for libFuzzer).
//!
//! `MCP_FUZZ_STRICT=1` enforces the rules of the known findings too (`Rules::STRICT`); by default
//! they are relaxed (`Rules::KNOWN`) so that fuzzing goes on past them.
#![no_main]

use libfuzzer_sys::fuzz_target;
use mcp_tasks_wasm::fuzzing::{self as harness, Rules};
use std::sync::OnceLock;

/// The rules in force, read once from `MCP_FUZZ_STRICT`.
fn rules() -> Rules {
    static RULES: OnceLock<Rules> = OnceLock::new();
    *RULES.get_or_init(|| match std::env::var("MCP_FUZZ_STRICT").as_deref() {
        Ok("1") => Rules::STRICT,
        _ => Rules::KNOWN,
    })
}

fuzz_target!(|data: &[u8]| {
    harness::run(data, rules());
});
