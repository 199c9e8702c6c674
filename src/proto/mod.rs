//! The wire protocol a Tasks client speaks (MCP 2026-07-28 with `io.modelcontextprotocol/tasks`):
//! reading and checking what servers send, and building what the client sends. No I/O, no clock.

pub mod call_result;
pub mod input;
pub mod request;
pub mod rpc;
pub mod task;
pub mod time;

/// The extension identifier declared in client capabilities and advertised by servers.
pub const TASKS_EXTENSION: &str = "io.modelcontextprotocol/tasks";
/// The protocol revision this library speaks.
pub const PROTOCOL_VERSION: &str = "2026-07-28";
/// `_meta` key of the client capabilities, required on every request.
pub const META_CLIENT_CAPABILITIES: &str = "io.modelcontextprotocol/clientCapabilities";
/// `_meta` key of the protocol version, required on every request.
pub const META_PROTOCOL_VERSION: &str = "io.modelcontextprotocol/protocolVersion";
/// `_meta` key of the client's self-description.
pub const META_CLIENT_INFO: &str = "io.modelcontextprotocol/clientInfo";
/// `_meta` key that ties a notification to its `subscriptions/listen` request.
pub const META_SUBSCRIPTION_ID: &str = "io.modelcontextprotocol/subscriptionId";
