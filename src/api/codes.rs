//! The JSON-RPC error codes a tasks client meets, by name ([`TaskError::code`](crate::TaskError::code)
//! holds one); the predicates on [`TaskError`](crate::TaskError) and [`Error`](crate::Error)
//! (`is_not_found()`, `is_timeout()`, …) read them for you.
//!
//! ```no_run
//! use mcp_tasks_wasm::{codes, get_task, Error, HttpClient, StepOptions};
//! # async fn f() -> Result<(), Error> {
//! let client = HttpClient::new("http://127.0.0.1:8787/mcp")?;
//! match get_task(&client, "tsk_123", StepOptions::default()).await {
//!     Err(Error::Task(e)) if e.code == codes::INVALID_PARAMS => { /* no such task: e.is_not_found() says the same */ }
//!     other => { other?; }
//! }
//! # Ok(()) }
//! ```

/// The server could not read the request as JSON-RPC (`-32600`; on MCP 2025-11-25 servers also
/// "this tool must be called as a task").
pub const INVALID_REQUEST: i64 = -32600;
/// The server has no such method (`-32601`): a server without the tasks extension, without
/// `subscriptions/listen` or without `tasks/list`.
pub const METHOD_NOT_FOUND: i64 = -32601;
/// Invalid params (`-32602`): for `tasks/get`, `tasks/update` and `tasks/cancel` the task is unknown
/// or gone (expired, purged, or of another session).
pub const INVALID_PARAMS: i64 = -32602;
/// The server's internal error (`-32603`); also the library's own code for a protocol violation, a
/// failed input handler and a failed journal store.
pub const INTERNAL_ERROR: i64 = -32603;
/// The library's own: a request failed without a JSON-RPC answer (a network error, an HTTP status
/// without a JSON-RPC body, a closed stdio pipe) (`-32000`).
pub const REQUEST_FAILED: i64 = -32000;
/// The library's own: the call's deadline or one request's timeout ran out (`-32001`); the cause tells
/// which ([`TaskError::is_timeout`](crate::TaskError::is_timeout),
/// [`TaskError::is_request_timeout`](crate::TaskError::is_request_timeout)).
pub const TIMEOUT: i64 = -32001;
/// An MCP 2026-07-28 header does not match the body (`-32020`).
pub const HEADER_MISMATCH: i64 = -32020;
/// The request needs a client capability it did not declare (`-32021`): e.g. a task-only tool on a
/// client without the tasks extension; `data.requiredCapabilities` lists them.
pub const MISSING_CAPABILITY: i64 = -32021;
/// The server does not serve the protocol version asked for (`-32022`); `data.supported` lists those
/// it does.
pub const UNSUPPORTED_PROTOCOL_VERSION: i64 = -32022;
