//! # mcp-tasks-wasm
//!
//! Run long MCP tool calls as tasks (MCP 2026-07-28, extension `io.modelcontextprotocol/tasks`) from
//! web pages, workers, browser extensions and Node, through one small WebAssembly module.
//!
//! The layout tells the architecture:
//! - [`json`]: the read/build interface every other part works through (JS values in the browser,
//!   `serde_json::Value` natively), so results pass through untouched.
//! - [`proto`]: the wire protocol: reading and checking what servers send, building what the client sends.
//! - [`engine`]: pure state machines (no clock, no I/O) deciding every request, timer, input round and
//!   outcome; tested natively on simulated time.
//! - `wasm` (wasm32 only): the thin shell that runs the machines against JS clients, timers and
//!   signals, and exports the JS API.
//! - [`text`]: message text without `core::fmt` (numbers in decimal).
//! - `transport` (wasm32 only): the transports' TypeScript declarations. Every client is JS: the
//!   in-process `directClient` (`js/direct.js`) and the message transports (HTTP, stdio, ports, SDK
//!   transports) on the JSON-RPC channel of `js/channel.js`.
//!
//! The JS contract (functions, options, outcomes, error codes) is documented in the README and in the
//! package's TypeScript declarations.

pub mod engine;
pub mod heap;
pub mod json;
pub mod proto;
pub mod text;

#[cfg(target_arch = "wasm32")]
mod transport;
#[cfg(target_arch = "wasm32")]
mod wasm;
