//! A task's status, typed: read from the status object the server sent (which stays available, as
//! it arrived, in [`TaskStatus::value`]).

use crate::json::Json;
use crate::shell::client::duration_of_millis;
use std::time::Duration;
use wasm_bindgen::JsValue;

/// Where a task is (JS: the status's `status` field).
///
/// ```no_run
/// use mcp_tasks_wasm::TaskState;
/// assert!(TaskState::Completed.is_terminal());
/// assert!(!TaskState::from_name("working").is_terminal());
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TaskState {
    /// `"working"`: still running.
    Working,
    /// `"input_required"`: waiting for answers to its `inputRequests`.
    InputRequired,
    /// `"completed"`: finished with a result.
    Completed,
    /// `"failed"`: finished with an error.
    Failed,
    /// `"cancelled"`: ended by a `tasks/cancel`.
    Cancelled,
    /// A value this library does not know (never in an outcome: the engine refuses unknown statuses).
    Other(String),
}

impl TaskState {
    /// The state named `name` (the wire's spelling).
    ///
    /// ```no_run
    /// use mcp_tasks_wasm::TaskState;
    /// assert_eq!(TaskState::from_name("input_required"), TaskState::InputRequired);
    /// ```
    pub fn from_name(name: &str) -> Self {
        match name {
            "working" => Self::Working,
            "input_required" => Self::InputRequired,
            "completed" => Self::Completed,
            "failed" => Self::Failed,
            "cancelled" => Self::Cancelled,
            other => Self::Other(other.to_owned()),
        }
    }

    /// `true` for `completed`, `failed` and `cancelled`.
    ///
    /// ```no_run
    /// use mcp_tasks_wasm::TaskState;
    /// assert!(TaskState::Cancelled.is_terminal());
    /// ```
    pub fn is_terminal(&self) -> bool {
        matches!(self, Self::Completed | Self::Failed | Self::Cancelled)
    }
}

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

/// The input requests of an `inputRequests` object, in the object's order.
pub(crate) fn input_requests(v: &JsValue) -> Vec<InputRequest> {
    let entries = v.get("inputRequests").and_then(|r| r.entries()).unwrap_or_default();
    entries
        .into_iter()
        .map(|(key, r)| InputRequest {
            key,
            method: r.get_str("method").unwrap_or_default(),
            params: r.get("params").unwrap_or(JsValue::UNDEFINED),
        })
        .collect()
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
    /// The status object itself, exactly as the client's `request` resolved with it (its `result` or
    /// `error` included).
    pub value: JsValue,
}

impl TaskStatus {
    /// Reads a status object (lenient: a missing field reads as absent, never an error; the engine
    /// has checked every status before it reaches an outcome).
    ///
    /// ```no_run
    /// use mcp_tasks_wasm::{TaskState, TaskStatus};
    /// let value = js_sys::JSON::parse(r#"{"taskId":"t1","status":"working","pollIntervalMs":250}"#).unwrap();
    /// let status = TaskStatus::from_js(&value);
    /// assert_eq!(status.state, TaskState::Working);
    /// assert_eq!(status.poll_interval, Some(std::time::Duration::from_millis(250)));
    /// ```
    pub fn from_js(value: &JsValue) -> Self {
        let millis = |key| value.get_f64(key).filter(|n| *n >= 0.0).map(duration_of_millis);
        Self {
            task_id: value.get_str("taskId").unwrap_or_default(),
            state: TaskState::from_name(&value.get_str("status").unwrap_or_default()),
            status_message: value.get_str("statusMessage"),
            created_at: value.get_str("createdAt"),
            last_updated_at: value.get_str("lastUpdatedAt"),
            ttl: millis("ttlMs"),
            poll_interval: millis("pollIntervalMs"),
            input_requests: input_requests(value),
            value: value.clone(),
        }
    }

    /// A status that may be `null` (none read yet).
    pub(crate) fn maybe(value: Option<JsValue>) -> Option<Self> {
        value.filter(|v| v.is_object()).map(|v| Self::from_js(&v))
    }
}
