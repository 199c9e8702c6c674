//! A task's status, typed: read from the status object the server sent (which stays available, as
//! it arrived, in [`TaskStatus::value`]).

use crate::json::Json;
use crate::shell::{duration_of_millis, read_task, Source};
use crate::TaskState;
use std::time::Duration;
use wasm_bindgen::JsValue;

/// One outstanding input request of a task (an entry of `inputRequests`).
///
/// ```no_run
/// # fn show(status: &mcp_tasks_wasm::TaskStatus) {
/// for request in &status.input_requests {
///     web_sys::console::log_2(&request.key.as_str().into(), &request.method.as_str().into());
/// }
/// # }
/// ```
#[derive(Clone, Debug)]
pub struct InputRequest {
    /// The key its answer goes under (echo it exactly).
    pub key: String,
    /// `elicitation/create`, `sampling/createMessage`, `roots/list`, or what the server sent.
    pub method: String,
    /// Its `params`, as sent (`undefined` when absent).
    pub params: JsValue,
}

impl InputRequest {
    /// The request under `key` (`{method, params}`).
    fn read(key: String, request: &JsValue) -> Self {
        Self {
            key,
            method: request.get_str("method").unwrap_or_default(),
            params: request.get("params").unwrap_or(JsValue::UNDEFINED),
        }
    }
}

/// The input requests of a value's `inputRequests` object, in the object's order.
pub(crate) fn input_requests(v: &JsValue) -> Vec<InputRequest> {
    let entries = v.get("inputRequests").and_then(|r| r.entries()).unwrap_or_default();
    entries.into_iter().map(|(key, r)| InputRequest::read(key, &r)).collect()
}

/// A task's status (a `Task` object of MCP 2026-07-28), typed.
///
/// ```no_run
/// use mcp_tasks_wasm::{TaskState, TaskStatus};
/// fn describe(status: &TaskStatus) -> String {
///     match &status.state {
///         TaskState::Working => format!("{} is working: {}", status.task_id, status.status_message.as_deref().unwrap_or("")),
///         TaskState::InputRequired => format!("{} needs {} answers", status.task_id, status.input_requests.len()),
///         other => format!("{} ended: {other:?}", status.task_id),
///     }
/// }
/// ```
#[derive(Clone, Debug)]
pub struct TaskStatus {
    /// `taskId`.
    pub task_id: String,
    /// `status`.
    pub state: TaskState,
    /// `statusMessage`.
    pub status_message: Option<String>,
    /// `createdAt`, as sent (RFC 3339).
    pub created_at: Option<String>,
    /// `lastUpdatedAt`, as sent (some servers bump it on every read).
    pub last_updated_at: Option<String>,
    /// `ttlMs`: how long the server keeps the task after `created_at`; `None` when absent or `null`
    /// (no limit).
    pub ttl: Option<Duration>,
    /// `pollIntervalMs`: the server's suggested interval between reads.
    pub poll_interval: Option<Duration>,
    /// `inputRequests` (with `input_required`), in the order sent.
    pub input_requests: Vec<InputRequest>,
    /// The status object as the JS functions give it: the Task's fields as the server sent them
    /// (`result` and `error` the very objects that arrived), without the answer's envelope
    /// (`resultType`, `_meta`).
    pub value: JsValue,
}

impl TaskStatus {
    /// Reads a status object as the engine reads a pushed status (a task id and a known state
    /// required; `None` otherwise — never for a status in an outcome: the engine checked those).
    ///
    /// ```no_run
    /// use mcp_tasks_wasm::{TaskState, TaskStatus};
    /// let value = js_sys::JSON::parse(r#"{"taskId":"t1","status":"working","pollIntervalMs":250}"#).unwrap();
    /// let status = TaskStatus::from_js(&value).unwrap();
    /// assert_eq!(status.state, TaskState::Working);
    /// assert_eq!(status.poll_interval, Some(std::time::Duration::from_millis(250)));
    /// ```
    pub fn from_js(value: &JsValue) -> Option<Self> {
        let view = read_task(value, Source::Pushed).ok()?;
        let millis = |ms: Option<f64>| ms.filter(|n| *n >= 0.0).map(duration_of_millis);
        Some(Self {
            task_id: view.task_id,
            state: view.state,
            status_message: view.status_message,
            created_at: view.created_at,
            last_updated_at: view.last_updated_at,
            ttl: millis(view.ttl_ms),
            poll_interval: millis(view.poll_interval_ms),
            input_requests: view
                .input_requests
                .unwrap_or_default()
                .into_iter()
                .map(|(k, r)| InputRequest::read(k, &r))
                .collect(),
            value: value.clone(),
        })
    }
}
