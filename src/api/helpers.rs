//! The synchronous helpers: capabilities with the tasks extension, and whether a server supports it.

use crate::proto::request::{server_supports as supports, with_tasks_extension};
use wasm_bindgen::JsValue;

/// `base` (a JS object; `None` for none) deep-merged with `{extensions: {"io.modelcontextprotocol/tasks":
/// {}}}`, for a client's `client_capabilities`; `base` is not modified.
///
/// ```no_run
/// let base = js_sys::JSON::parse(r#"{"elicitation":{"form":{}}}"#).unwrap();
/// let declared = mcp_tasks_wasm::capabilities(Some(&base));
/// ```
pub fn capabilities(base: Option<&JsValue>) -> JsValue {
    with_tasks_extension(base)
}

/// `true` when a `server/discover` result (or a `capabilities` object) advertises the tasks extension.
///
/// ```no_run
/// # async fn f(client: mcp_tasks_wasm::HttpClient) -> Result<(), wasm_bindgen::JsValue> {
/// if !mcp_tasks_wasm::server_supports(&client.discover().await?) { /* call tools without tasks */ }
/// # Ok(()) }
/// ```
pub fn server_supports(discovered: &JsValue) -> bool {
    supports(discovered)
}

/// What the module holds right now (JS `liveCounts()`, without the npm promises' registry's `calls`
/// and `failed`): calls in progress, requests in flight (best-effort cancels included), input handler
/// calls running, open listen streams, armed timers (one at most). All zero once every call ended or
/// was dropped — a leak check for an app's tests.
///
/// ```no_run
/// let counts = mcp_tasks_wasm::live_counts();
/// assert_eq!(counts, mcp_tasks_wasm::LiveCounts::default(), "nothing running");
/// ```
pub fn live_counts() -> LiveCounts {
    use crate::shell::live::{count, Counter};
    LiveCounts {
        runs: count(Counter::Runs),
        requests: count(Counter::Requests),
        asks: count(Counter::Asks),
        streams: count(Counter::Streams),
        timers: crate::shell::timer::armed_count(),
    }
}

/// What [`live_counts`] returns.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LiveCounts {
    /// Calls in progress.
    pub runs: u32,
    /// Requests in flight.
    pub requests: u32,
    /// Input handler (or input function) calls running.
    pub asks: u32,
    /// Open listen streams.
    pub streams: u32,
    /// Armed timers (the module arms one at most).
    pub timers: u32,
}
