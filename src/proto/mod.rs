//! The wire protocol a Tasks client speaks — MCP 2026-07-28 with `io.modelcontextprotocol/tasks`, and
//! the previous generation, MCP 2025-11-25 with its core tasks ([`core_tasks`]): reading and checking what
//! servers send, and building what the client sends. No I/O, no clock.

pub(crate) mod call_result;
pub(crate) mod core_tasks;
pub(crate) mod input;
pub(crate) mod request;
pub(crate) mod rpc;
pub(crate) mod task;
pub(crate) mod time;

/// The extension identifier declared in client capabilities and advertised by servers.
///
/// ```
/// assert_eq!(mcp_tasks_wasm::TASKS_EXTENSION, "io.modelcontextprotocol/tasks");
/// ```
pub const TASKS_EXTENSION: &str = "io.modelcontextprotocol/tasks";
/// `_meta` key of the client capabilities, required on every request. (The protocol version, the client
/// info and the listen subscription id are added and read by the JS clients: `js/channel.js`,
/// `js/direct.js`.)
pub(crate) const META_CLIENT_CAPABILITIES: &str = "io.modelcontextprotocol/clientCapabilities";
