//! # mcp-tasks-wasm
//!
//! Run long MCP tool calls as tasks (MCP 2026-07-28, extension `io.modelcontextprotocol/tasks`) from
//! web pages, workers, browser extensions and Node, through one WebAssembly module.
//!
//! The layout tells the architecture:
//! - [`json`]: the read/build interface every other part works through (JS values in the browser,
//!   `serde_json::Value` natively), so results pass through untouched.
//! - [`proto`]: the wire protocol: reading and checking what servers send, building what the client sends.
//! - [`engine`]: pure state machines (no clock, no I/O) deciding every request, timer, input round and
//!   outcome; tested natively on simulated time.
//! - `shell` (wasm32 only): the async Rust shell: typed async functions that drive the machines against
//!   JS-supplied clients on wasm-bindgen-futures, one gloo-timers timer and the caller's abort signals.
//! - `bind` (wasm32 only): the JS exports, thin wasm-bindgen bindings over the shell.
//! - [`text`]: message text without `core::fmt` (numbers in decimal).
//! - `transport` (wasm32 only): the transports' TypeScript declarations. The transports themselves are
//!   small JS adapters (`js/`): they move messages and decide nothing about a task.
//!
//! The JS contract (functions, options, outcomes, error codes) is documented in the README and in the
//! package's TypeScript declarations.

pub mod engine;
pub mod json;
pub mod proto;
pub mod text;

#[cfg(target_arch = "wasm32")]
mod bind;
#[cfg(target_arch = "wasm32")]
pub mod shell;
#[cfg(target_arch = "wasm32")]
mod transport;

/// The module's allocator: talc (maintained, made for wasm; smaller and faster than std's dlmalloc
/// here — see the README's Building section for the measured figures).
#[cfg(all(target_arch = "wasm32", not(target_feature = "atomics")))]
#[global_allocator]
static ALLOCATOR: talc::wasm::WasmDynamicTalc = talc::wasm::new_wasm_dynamic_allocator();
