//! The MCP 2025-11-25 fuzz target: libFuzzer's bytes decode, one at a time, into a machine on a
//! 2025-11-25 server (the wait, `callTool`, `callAndAwait`, `updateTask`, `listTasks`, behind the
//! session gate) and up to 300 moves of the server, the application and the clock; every rule of the
//! crate's core world (`src/fuzzing/core.rs`) is checked after every step, and a broken one panics.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    mcp_tasks_wasm::fuzzing::run_core(data);
});
