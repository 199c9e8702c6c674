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
