//! The journal key of a task: server and task id, as one string.

use crate::shell::interop::to_js::js_text;
use wasm_bindgen::JsValue;

/// The journal key of a task: `JSON.stringify([server, taskId])`.
pub(crate) fn key_of(server: &str, task_id: &str) -> String {
    key_of_values(&JsValue::from_str(server), &js_text(task_id))
}

/// [`key_of`] of the values an entry holds.
pub(crate) fn key_of_values(server: &JsValue, task_id: &JsValue) -> String {
    let pair = js_sys::Array::of2(server, task_id);
    js_sys::JSON::stringify(&pair).ok().and_then(|s| s.as_string()).unwrap_or_default()
}
