//! The synchronous helpers: capabilities with the tasks extension, and whether a server supports it.

use crate::shell::{server_supports as supports, with_tasks_extension, LiveCounts};
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
    crate::shell::live_counts()
}
