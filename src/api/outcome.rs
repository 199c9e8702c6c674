//! What a call ends with, typed: [`Outcome`], [`TaskError`] and its [`Cause`] — the same ends the JS
//! functions write as tagged objects, converted from the engine's outcome without a JS object built or
//! read (but `TaskError::value`, the error object itself); results, statuses and responses stay the
//! very JS values that arrived.

use super::status::{input_requests, InputRequest, TaskStatus};
use crate::engine::{ErrorKind, Failure, FailureCause, Verdict};
use crate::json::Json;
use crate::shell::settle::Ended;
use crate::shell::tagged::error_to_js;
use serde::de::DeserializeOwned;
use wasm_bindgen::JsValue;

/// What `call_tool`, `await_task` and `call_and_await` end with (JS: the tagged outcome object).
///
/// ```no_run
/// use mcp_tasks_wasm::{call_and_await, AwaitOptions, CallOptions, HttpClient, Outcome};
/// # async fn run() -> Result<(), wasm_bindgen::JsValue> {
/// let client = HttpClient::new("http://127.0.0.1:8787/mcp")?;
/// match call_and_await(&client, "slow", &serde_json::json!({"ms": 50}), CallOptions::default(), AwaitOptions::default()).await? {
///     Outcome::Ok(result) => web_sys::console::log_1(&result.value),
///     Outcome::Error(error) => web_sys::console::error_1(&error.message.as_str().into()),
///     Outcome::Cancelled(status) => web_sys::console::log_1(&status.task_id.as_str().into()),
///     Outcome::InputRequired(needed) => web_sys::console::log_1(&needed.value),
///     Outcome::Task(status) => web_sys::console::log_1(&status.value),
/// }
/// # Ok(()) }
/// ```
#[derive(Clone, Debug)]
pub enum Outcome {
    /// `{tag: "ok", result}`: the tool's result (direct, or the completed task's), as sent.
    Ok(ToolResult),
    /// `{tag: "task", status}`: `call_tool` created a task (not awaited).
    Task(TaskStatus),
    /// `{tag: "error", error}`: the task failed, a request failed or timed out, the wait timed out, the
    /// server broke the protocol, an input handler failed, or the journal's store failed.
    Error(TaskError),
    /// `{tag: "cancelled", status}`: the task ended cancelled.
    Cancelled(TaskStatus),
    /// `{tag: "input_required", status}`: input is needed that the library may not answer.
    InputRequired(InputRequired),
}

impl Outcome {
    /// Reads a tagged outcome object (`{tag, result?, status?, error?}`); `None` for anything else.
    ///
    /// ```no_run
    /// use mcp_tasks_wasm::Outcome;
    /// let value = js_sys::JSON::parse(r#"{"tag":"ok","result":{"content":[]}}"#).unwrap();
    /// assert!(matches!(Outcome::from_js(&value), Some(Outcome::Ok(_))));
    /// ```
    pub fn from_js(value: &JsValue) -> Option<Self> {
        let status = || value.get("status").and_then(|s| TaskStatus::from_js(&s));
        Some(match value.get_str("tag")?.as_str() {
            "ok" => Self::Ok(ToolResult { value: value.get("result")? }),
            "task" => Self::Task(status()?),
            "cancelled" => Self::Cancelled(status()?),
            "input_required" => Self::InputRequired(InputRequired::from_js(&value.get("status")?)),
            "error" => Self::Error(TaskError::from_js(&value.get("error")?)),
            _ => return None,
        })
    }

    /// The outcome of a wait function's end: the engine's outcome, converted, or the outcome object
    /// another waiter of a journaled task broadcast, read. `Err`: not an outcome of these functions.
    pub(crate) fn of(ended: Ended) -> Result<Self, JsValue> {
        let outcome = match ended {
            Ended::Verdict(o) => Self::from_engine(o),
            #[cfg(feature = "journal")]
            Ended::Told(value) => Self::from_js(&value),
        };
        outcome.ok_or_else(|| js_sys::TypeError::new("not an outcome").into())
    }

    /// The engine's outcome of `call_tool`, `await_task` or `call_and_await`, typed.
    fn from_engine(o: Verdict<JsValue>) -> Option<Self> {
        Some(match o {
            Verdict::Result(value) => Self::Ok(ToolResult { value }),
            Verdict::Task(s) => Self::Task(TaskStatus::from_js(&s)?),
            Verdict::Cancelled(s) => Self::Cancelled(TaskStatus::from_js(&s)?),
            Verdict::InputRequired(s) | Verdict::CallInputRequired(s) => {
                Self::InputRequired(InputRequired::from_js(&s))
            }
            Verdict::Error(f) => Self::Error(TaskError::of(f)),
            Verdict::Status(_) | Verdict::Ack => return None,
        })
    }

    /// The tool's result, when the outcome is [`Outcome::Ok`].
    ///
    /// ```no_run
    /// # fn f(outcome: mcp_tasks_wasm::Outcome) {
    /// if let Some(result) = outcome.result() {
    ///     web_sys::console::log_1(&result.value);
    /// }
    /// # }
    /// ```
    pub fn result(&self) -> Option<&ToolResult> {
        match self {
            Self::Ok(r) => Some(r),
            _ => None,
        }
    }
}

/// A tool's result (a `CallToolResult`), the very JS value the client's `request` resolved with.
///
/// ```no_run
/// #[derive(serde::Deserialize)]
/// struct Text { text: String }
/// #[derive(serde::Deserialize)]
/// struct Reply { content: Vec<Text> }
/// # fn f(result: mcp_tasks_wasm::ToolResult) -> Result<(), wasm_bindgen::JsValue> {
/// let reply: Reply = result.deserialize()?;
/// assert!(!result.is_error());
/// # Ok(()) }
/// ```
#[derive(Clone, Debug)]
pub struct ToolResult {
    /// The result object, as it arrived (never copied or walked).
    pub value: JsValue,
}

impl ToolResult {
    /// The result as the caller's type (serde-wasm-bindgen); `Err`: serde-wasm-bindgen's error as a
    /// JS `Error`.
    ///
    /// ```no_run
    /// # fn f(result: mcp_tasks_wasm::ToolResult) -> Result<(), wasm_bindgen::JsValue> {
    /// let any: serde_json::Value = result.deserialize()?;
    /// # Ok(()) }
    /// ```
    pub fn deserialize<T: DeserializeOwned>(&self) -> Result<T, JsValue> {
        super::convert::from_js(&self.value)
    }

    /// `true` when the tool reported an error in its result (`isError: true`: the task itself
    /// completed).
    ///
    /// ```no_run
    /// # fn f(result: mcp_tasks_wasm::ToolResult) {
    /// if result.is_error() { web_sys::console::warn_1(&result.value); }
    /// # }
    /// ```
    pub fn is_error(&self) -> bool {
        self.value.get("isError").and_then(|v| Json::as_bool(&v)) == Some(true)
    }
}

/// Input the library may not answer: a task's `input_required` status (`await_task`), or an MRTR
/// round of `tools/call` before any task exists (`{inputRequests, requestState}`).
///
/// ```no_run
/// use mcp_tasks_wasm::{call_tool, CallOptions, DirectClient, Input, Outcome};
/// # async fn f(client: DirectClient) -> Result<(), wasm_bindgen::JsValue> {
/// let options = CallOptions { input: Input::Return, ..CallOptions::default() };
/// if let Outcome::InputRequired(needed) = call_tool(&client, "ask", &(), options).await? {
///     for request in &needed.input_requests { web_sys::console::log_1(&request.params); }
/// }
/// # Ok(()) }
/// ```
#[derive(Clone, Debug)]
pub struct InputRequired {
    /// The task's status; `None` for an MRTR round (no task yet).
    pub task: Option<TaskStatus>,
    /// The outstanding requests.
    pub input_requests: Vec<InputRequest>,
    /// The MRTR round's `requestState`, to echo with the answers (`CallOptions::request_state`).
    pub request_state: Option<JsValue>,
    /// The status object, as in the JS outcome.
    pub value: JsValue,
}

impl InputRequired {
    /// Reads the `status` of an `input_required` outcome.
    fn from_js(value: &JsValue) -> Self {
        Self {
            task: TaskStatus::from_js(value),
            input_requests: input_requests(value),
            request_state: value.get("requestState"),
            value: value.clone(),
        }
    }
}

/// An error outcome (JS: `error`, `{code, message, data?, kind, cause?}`).
///
/// ```no_run
/// use mcp_tasks_wasm::{Cause, TaskError};
/// fn explain(error: &TaskError) -> String {
///     match &error.cause {
///         Some(Cause::Timeout { status }) => format!("still running after the deadline: {:?}", status.as_ref().map(|s| &s.state)),
///         Some(Cause::TaskFailed { .. }) => format!("the task failed: {} ({})", error.message, error.code),
///         _ => error.to_string(),
///     }
/// }
/// ```
#[derive(Clone, Debug)]
pub struct TaskError {
    /// The JSON-RPC code: the server's, the task's, `-32001` (a timeout), `-32000` (a transport
    /// failure) or `-32603` (protocol, execution, journal).
    pub code: i64,
    /// Who is to blame.
    pub kind: ErrorKind,
    /// What happened, in words.
    pub message: String,
    /// `data`, as sent or as documented per cause (e.g. `{taskId, timeoutMs}` for a timeout).
    pub data: Option<JsValue>,
    /// Why, in detail.
    pub cause: Option<Cause>,
    /// The error object, as in the JS outcome.
    pub value: JsValue,
}

impl TaskError {
    /// Reads an outcome's `error` object.
    ///
    /// ```no_run
    /// use mcp_tasks_wasm::{ErrorKind, TaskError};
    /// let value = js_sys::JSON::parse(r#"{"code":-32001,"message":"timed out","kind":"transport"}"#).unwrap();
    /// let error = TaskError::from_js(&value);
    /// assert_eq!((error.code, error.kind), (-32001, ErrorKind::Transport));
    /// ```
    pub fn from_js(value: &JsValue) -> Self {
        Self {
            code: value.get_f64("code").map_or(0, |c| c as i64),
            kind: value.get_str("kind").and_then(|k| ErrorKind::parse(&k)).unwrap_or(ErrorKind::Transport),
            message: value.get_str("message").unwrap_or_default(),
            data: value.get("data"),
            cause: value.get("cause").and_then(|c| Cause::from_js(&c)),
            value: value.clone(),
        }
    }
}

impl TaskError {
    /// The engine's error, typed (its `value` the error object the JS functions give).
    pub(crate) fn of(f: Failure<JsValue>) -> Self {
        let value = error_to_js(&f);
        Self { code: f.code, kind: f.kind, message: f.message, data: f.data, cause: f.cause.and_then(Cause::of), value }
    }
}

impl std::fmt::Display for TaskError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} ({})", self.message, self.code)
    }
}

impl std::error::Error for TaskError {}

/// Why an error happened (JS: `error.cause`, by its `type`). A status that is `None` was never read.
///
/// ```no_run
/// # fn f(error: mcp_tasks_wasm::TaskError) {
/// use mcp_tasks_wasm::Cause;
/// if let Some(Cause::RpcError { method }) = &error.cause {
///     web_sys::console::log_1(&method.as_str().into());
/// }
/// # }
/// ```
#[derive(Clone, Debug)]
#[non_exhaustive]
pub enum Cause {
    /// `timeout`: the call's `timeout` ran out (code `-32001`); the last status read.
    Timeout {
        /// The last status read.
        status: Option<TaskStatus>,
    },
    /// `request_timeout`: one request outlived `request_timeout` (code `-32001`).
    RequestTimeout {
        /// The request's method.
        method: String,
        /// The last status read.
        status: Option<TaskStatus>,
    },
    /// `task_failed`: the task ended `failed` (the error is the task's).
    TaskFailed {
        /// The failed status.
        status: TaskStatus,
    },
    /// `rpc_error`: the server answered `method` with a JSON-RPC error.
    RpcError {
        /// The request's method.
        method: String,
    },
    /// `request_failed`: the client's `request` failed without a JSON-RPC answer (code `-32000`).
    RequestFailed {
        /// The request's method.
        method: String,
        /// What the request rejected with (e.g. an `McpHttpError`).
        error: JsValue,
    },
    /// `protocol_violation`: the server's answer breaks the protocol.
    ProtocolViolation {
        /// The request's method.
        method: String,
        /// What the server sent.
        response: JsValue,
    },
    /// `input_handler`: a handler (or the input function) failed.
    InputHandler {
        /// The request's key (`None` for the input function).
        key: Option<String>,
        /// `{type: "invalid_response", response}`, `{type: "invalid_outcome", outcome}`, or the
        /// handler's own `reason`.
        reason: JsValue,
        /// The status the request came with.
        status: JsValue,
    },
    /// `listen_unsupported`: `listen` with a client that cannot listen.
    ListenUnsupported,
    /// `expired`: past `created_at + ttl` the server no longer knows the task.
    Expired {
        /// The last status read.
        status: Option<TaskStatus>,
    },
    /// `journal_failed`: the journal's store failed; the task is not cancelled.
    JournalFailed {
        /// The store's function that failed (`get`, `put`, `delete`, `list`).
        operation: String,
        /// What it threw or rejected with.
        error: JsValue,
        /// The task's last status.
        status: Option<TaskStatus>,
    },
}

impl Cause {
    /// The engine's cause, typed (`None`: a failed status that is not a task's, which the engine
    /// never gives).
    fn of(c: FailureCause<JsValue>) -> Option<Self> {
        let status = |s: Option<JsValue>| s.and_then(|s| TaskStatus::from_js(&s));
        Some(match c {
            FailureCause::Timeout { status: s } => Self::Timeout { status: status(s) },
            FailureCause::RequestTimeout { method, status: s } => {
                Self::RequestTimeout { method: method.to_owned(), status: status(s) }
            }
            FailureCause::TaskFailed { status } => Self::TaskFailed { status: TaskStatus::from_js(&status)? },
            FailureCause::RpcError { method } => Self::RpcError { method: method.to_owned() },
            FailureCause::RequestFailed { method, error } => Self::RequestFailed { method: method.to_owned(), error },
            FailureCause::ProtocolViolation { method, response } => {
                Self::ProtocolViolation { method: method.to_owned(), response }
            }
            FailureCause::InputHandler { key, reason, status } => Self::InputHandler { key, reason, status },
            FailureCause::ListenUnsupported => Self::ListenUnsupported,
            FailureCause::Expired { status: s } => Self::Expired { status: status(s) },
            FailureCause::JournalFailed { operation, error, status: s } => {
                Self::JournalFailed { operation: operation.to_owned(), error, status: status(s) }
            }
        })
    }

    /// Reads an error's `cause` object; `None` for a type this library does not make.
    fn from_js(v: &JsValue) -> Option<Self> {
        let status = || v.get("status").and_then(|s| TaskStatus::from_js(&s));
        let method = || v.get_str("method").unwrap_or_default();
        let raw = |key| v.get(key).unwrap_or(JsValue::UNDEFINED);
        Some(match v.get_str("type")?.as_str() {
            "timeout" => Self::Timeout { status: status() },
            "request_timeout" => Self::RequestTimeout { method: method(), status: status() },
            "task_failed" => Self::TaskFailed { status: status()? },
            "rpc_error" => Self::RpcError { method: method() },
            "request_failed" => Self::RequestFailed { method: method(), error: raw("error") },
            "protocol_violation" => Self::ProtocolViolation { method: method(), response: raw("response") },
            "input_handler" => {
                Self::InputHandler { key: v.get_str("key"), reason: raw("reason"), status: raw("status") }
            }
            "listen_unsupported" => Self::ListenUnsupported,
            "expired" => Self::Expired { status: status() },
            "journal_failed" => Self::JournalFailed {
                operation: v.get_str("operation").unwrap_or_default(),
                error: raw("error"),
                status: status(),
            },
            _ => return None,
        })
    }
}
