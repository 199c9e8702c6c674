//! The errors of the Rust API: [`Error`], the one error of its functions (why a call gave no outcome,
//! or — for the single steps — the server's error answer), and [`TaskError`] with its [`Cause`], the
//! error outcome of a call (also what `Error::Task` carries).

use super::codes;
use super::result::{InputRequired, ToolResult};
use super::status::TaskStatus;
use crate::json::Json;
use crate::shell::{EngineCause, EngineTaskError, Rejection};
use crate::ErrorKind;
use wasm_bindgen::JsValue;

/// The error of every function of the Rust API (JS: what the promise rejects with; and the `error`
/// outcome of `getTask`, `updateTask` and `cancelTask`). A wait's own errors — a failed task, a
/// timeout, a request that failed — are not errors but [`WaitOutcome::Error`](crate::WaitOutcome::Error).
///
/// ```no_run
/// use mcp_tasks_wasm::{get_task, Error, HttpClient, StepOptions};
/// # async fn f() -> Result<(), Error> {
/// let client = HttpClient::new("http://127.0.0.1:8787/mcp")?;
/// match get_task(&client, "tsk_123", StepOptions::default()).await {
///     Ok(status) => web_sys::console::log_1(&status.task_id.as_str().into()),
///     Err(e) if e.is_not_found() => { /* no such task (any more) */ }
///     Err(other) => return Err(other),
/// }
/// # Ok(()) }
/// ```
#[derive(Clone, Debug)]
#[non_exhaustive]
pub enum Error {
    /// The server's (or the transport's) error answer to a single step — `get_task`, `update_task`,
    /// `cancel_task` — as a [`TaskError`] (code, kind, message, cause).
    Task(TaskError),
    /// The caller's abort signal fired; its reason (as `fetch` rejects).
    Aborted(JsValue),
    /// An application callback — an input handler, the input function, the status callback, a journal
    /// store, a resume callback — threw or rejected with this value.
    Callback(JsValue),
    /// The arguments are wrong; nothing was sent. The message names the function as JS does
    /// (`"callTool: args must be an object (not an array)"`).
    InvalidArgument(String),
    /// A JS value the app's own code failed with: `?` on a web-sys or js-sys call (which fail with a
    /// `JsValue`) in a function returning this `Error` — an input handler's, say — makes it this.
    Js(JsValue),
    /// [`WaitOutcome::into_result`](crate::WaitOutcome::into_result): the task ended cancelled.
    Cancelled(Box<TaskStatus>),
    /// `into_result`: input is needed that the library may not answer (`input: Return`, no handler).
    InputRequired(Box<InputRequired>),
    /// `into_result`: the tool ran and reported a failure (`isError: true`); its result, as sent.
    ToolError(ToolResult),
}

impl From<JsValue> for Error {
    /// A failed web-sys or js-sys call: [`Error::Js`].
    fn from(v: JsValue) -> Self {
        Self::Js(v)
    }
}

impl Error {
    /// Why a call rejected, as the Rust API tells it.
    pub(crate) fn of(r: Rejection) -> Self {
        match r {
            Rejection::InvalidArgument(message) => Self::InvalidArgument(message),
            Rejection::Aborted(v) => Self::Aborted(v),
            Rejection::Thrown(v) => Self::Callback(v),
        }
    }
}

impl Error {
    /// The error outcome this error carries ([`Error::Task`]), if it is one.
    pub fn task_error(&self) -> Option<&TaskError> {
        match self {
            Self::Task(e) => Some(e),
            _ => None,
        }
    }

    /// [`TaskError::is_not_found`] of an [`Error::Task`]: a step's task is unknown or gone.
    ///
    /// ```no_run
    /// # async fn f(client: mcp_tasks_wasm::HttpClient) -> Result<(), mcp_tasks_wasm::Error> {
    /// match mcp_tasks_wasm::cancel_task(&client, "tsk_123", Default::default()).await {
    ///     Err(e) if e.is_not_found() => {} // ended and purged already: nothing to cancel
    ///     other => other?,
    /// }
    /// # Ok(()) }
    /// ```
    pub fn is_not_found(&self) -> bool {
        self.task_error().is_some_and(TaskError::is_not_found)
    }

    /// [`TaskError::is_timeout`] of an [`Error::Task`].
    pub fn is_timeout(&self) -> bool {
        self.task_error().is_some_and(TaskError::is_timeout)
    }
}

impl Error {
    /// A JS adapter's (or store factory's) `TypeError` for a wrong argument, as its message.
    pub(crate) fn thrown_type_error(e: &JsValue) -> Self {
        Self::InvalidArgument(e.get_str("message").or_else(|| e.as_string()).unwrap_or_default())
    }

    /// A value that does not fit the caller's type (serde-wasm-bindgen's message).
    pub(crate) fn not_fitting(what: &str, message: &str) -> Self {
        Self::InvalidArgument([what, ": ", message].concat())
    }
}

impl From<Rejection> for Error {
    fn from(r: Rejection) -> Self {
        Self::of(r)
    }
}

/// What a JS value says, in one line without a stack: an `Error`'s `name: message`, a string as it
/// is, anything else by its type.
pub(crate) fn describe(v: &JsValue) -> String {
    if let Some(s) = v.as_string() {
        return s;
    }
    match (v.get_str("name"), v.get_str("message")) {
        (Some(name), Some(message)) => [name.as_str(), ": ", message.as_str()].concat(),
        (None, Some(message)) => message,
        _ => v.js_typeof().as_string().map_or_else(String::new, |t| ["a value of type ", t.as_str()].concat()),
    }
}

impl std::fmt::Display for Error {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Task(e) => write!(f, "{e}"),
            Self::Aborted(reason) => write!(f, "aborted: {}", describe(reason)),
            Self::Callback(thrown) => write!(f, "an application callback failed: {}", describe(thrown)),
            Self::InvalidArgument(message) => f.write_str(message),
            Self::Js(v) => f.write_str(&describe(v)),
            Self::Cancelled(s) => write!(f, "task {} was cancelled", s.task_id),
            Self::InputRequired(_) => f.write_str("input is needed that the library may not answer"),
            Self::ToolError(r) => write!(f, "the tool failed: {}", r.text()),
        }
    }
}

impl std::error::Error for Error {}

impl From<Error> for JsValue {
    /// What the JS function would reject with: the abort reason or the thrown value as they came, a
    /// `TypeError` for wrong arguments, and for a step's error its `error` object (`{code, message,
    /// data?, kind, cause?}`).
    fn from(e: Error) -> Self {
        match e {
            Error::Task(t) => t.value,
            Error::Aborted(v) | Error::Callback(v) | Error::Js(v) => v,
            Error::Cancelled(s) => s.value,
            Error::InputRequired(i) => i.value,
            Error::ToolError(r) => r.value,
            Error::InvalidArgument(message) => js_sys::TypeError::new(&message).into(),
        }
    }
}

impl From<TaskError> for Error {
    fn from(e: TaskError) -> Self {
        Self::Task(e)
    }
}

/// An error outcome (JS: `error`, `{code, message, data?, kind, cause?}`).
///
/// ```no_run
/// use mcp_tasks_wasm::{Cause, TaskError};
/// fn explain(error: &TaskError) -> String {
///     if error.is_timeout() {
///         return format!("still running after the deadline: {:?}", error.last_status().map(|s| s.state));
///     }
///     match &error.cause {
///         Some(Cause::TaskFailed { .. }) => format!("the task failed: {} ({})", error.message, error.code),
///         _ => error.to_string(),
///     }
/// }
/// ```
#[derive(Clone, Debug)]
pub struct TaskError {
    /// The JSON-RPC code: the server's, the task's, or the library's own — [`codes::TIMEOUT`],
    /// [`codes::REQUEST_FAILED`], [`codes::INTERNAL_ERROR`] (protocol, execution, journal). The
    /// predicates (`is_not_found()`, …) read it for you.
    pub code: i64,
    /// Who is to blame.
    pub kind: ErrorKind,
    /// What happened, in words.
    pub message: String,
    /// `data`, as sent or as documented per cause (e.g. `{taskId, timeoutMs}` for a timeout).
    pub data: Option<JsValue>,
    /// Why, in detail.
    pub cause: Option<Cause>,
    /// The task the wait was on, when the error ended a wait on one (JS: the outcome's `taskId`): with
    /// [`Self::last_status`], what to await again or cancel — a task is never orphaned.
    pub task_id: Option<String>,
    /// The error object, as in the JS outcome.
    pub value: JsValue,
    /// The task's last status the outcome carries beside the error (JS: the outcome's `status`).
    status: Option<Box<TaskStatus>>,
}

impl TaskError {
    /// Reads an outcome's `error` object.
    ///
    /// ```no_run
    /// use mcp_tasks_wasm::{ErrorKind, TaskError};
    /// let value = js_sys::JSON::parse(r#"{"code":-32001,"message":"timed out","kind":"transport"}"#).unwrap();
    /// let error = TaskError::from_js(&value);
    /// assert_eq!((error.code, error.kind), (mcp_tasks_wasm::codes::TIMEOUT, ErrorKind::Transport));
    /// ```
    pub fn from_js(value: &JsValue) -> Self {
        Self {
            code: value.get_f64("code").map_or(0, |c| c as i64),
            kind: value.get_str("kind").and_then(|k| ErrorKind::parse(&k)).unwrap_or(ErrorKind::Transport),
            message: value.get_str("message").unwrap_or_default(),
            data: value.get("data"),
            cause: value.get("cause").and_then(|c| Cause::from_js(&c)),
            task_id: None,
            value: value.clone(),
            status: None,
        }
    }

    /// Reads an `error` outcome: its `error` object, and the task it carries beside it (`taskId`,
    /// `status`).
    pub(crate) fn from_outcome(outcome: &JsValue, error: &JsValue) -> Self {
        Self {
            task_id: outcome.get_str("taskId"),
            status: outcome.get("status").and_then(|s| TaskStatus::from_js(&s)).map(Box::new),
            ..Self::from_js(error)
        }
    }
}

impl TaskError {
    /// `true` when the wait's (or the call's) own deadline ran out (`cause: timeout`) — not one
    /// request's `request_timeout`, which shares the code [`codes::TIMEOUT`]. The task keeps running:
    /// await it again to go on.
    ///
    /// ```no_run
    /// # fn f(error: mcp_tasks_wasm::TaskError) {
    /// if error.is_timeout() {
    ///     let last = error.last_status().map(|s| s.state);
    /// }
    /// # }
    /// ```
    pub fn is_timeout(&self) -> bool {
        matches!(self.cause, Some(Cause::Timeout { .. }))
    }

    /// `true` when one request outlived its `request_timeout` (`cause: request_timeout`).
    pub fn is_request_timeout(&self) -> bool {
        matches!(self.cause, Some(Cause::RequestTimeout { .. }))
    }

    /// `true` when the server no longer knows the task: it answered [`codes::INVALID_PARAMS`] for
    /// it (unknown, expired, purged, or of another session), or its TTL passed (`cause: expired`).
    ///
    /// ```no_run
    /// # fn f(error: mcp_tasks_wasm::TaskError) {
    /// if error.is_not_found() { /* forget the task id */ }
    /// # }
    /// ```
    pub fn is_not_found(&self) -> bool {
        matches!(self.cause, Some(Cause::Expired { .. }))
            || (self.code == codes::INVALID_PARAMS && matches!(self.cause, Some(Cause::RpcError { .. })))
    }

    /// `true` when the server has no such method ([`codes::METHOD_NOT_FOUND`]): no tasks extension,
    /// no `subscriptions/listen`, no `tasks/list`.
    pub fn is_method_not_found(&self) -> bool {
        self.code == codes::METHOD_NOT_FOUND && matches!(self.cause, Some(Cause::RpcError { .. }))
    }

    /// `true` when the server asks for a client capability the request did not declare
    /// ([`codes::MISSING_CAPABILITY`]; `data.requiredCapabilities` lists them).
    pub fn is_missing_capability(&self) -> bool {
        self.code == codes::MISSING_CAPABILITY && matches!(self.cause, Some(Cause::RpcError { .. }))
    }

    /// `true` when the task ended `failed` (`cause: task_failed`; [`Self::last_status`] is its status).
    pub fn is_task_failed(&self) -> bool {
        matches!(self.cause, Some(Cause::TaskFailed { .. }))
    }

    /// `true` when an input handler (or the input function) failed (`cause: input_handler`): the task
    /// still waits for that input on the server.
    pub fn is_input_handler_failed(&self) -> bool {
        matches!(self.cause, Some(Cause::InputHandler { .. }))
    }

    /// `true` when the request failed without a JSON-RPC answer ([`codes::REQUEST_FAILED`]: a network
    /// error, an HTTP error without a JSON-RPC body, a closed pipe).
    pub fn is_request_failed(&self) -> bool {
        matches!(self.cause, Some(Cause::RequestFailed { .. }))
    }

    /// The task's last status the error carries: the last one read before a timeout, a request
    /// timeout, an expiry or a journal failure, the status a failed input handler was asked for, the
    /// failed status — or, for any other error that ended a wait on a task, the last one read; `None`
    /// when none was read.
    pub fn last_status(&self) -> Option<&TaskStatus> {
        self.cause_status().or(self.status.as_deref())
    }

    /// The status the cause carries.
    fn cause_status(&self) -> Option<&TaskStatus> {
        match self.cause.as_ref()? {
            Cause::Timeout { status } | Cause::RequestTimeout { status, .. } | Cause::Expired { status } => {
                status.as_deref()
            }
            Cause::JournalFailed { status, .. } | Cause::InputHandler { status, .. } => status.as_deref(),
            Cause::TaskFailed { status } => Some(status),
            _ => None,
        }
    }

    /// The engine's error, typed (its `value` the error object the JS functions give).
    pub(crate) fn of(f: EngineTaskError<JsValue>) -> Self {
        let value = f.to_json();
        let (task_id, status) = match f.task.map(|t| *t) {
            Some(t) => (Some(t.task_id), t.status.and_then(|s| TaskStatus::from_js(&s)).map(Box::new)),
            None => (None, None),
        };
        let cause = f.cause.and_then(Cause::of);
        Self { code: f.code, kind: f.kind, message: f.message, data: f.data, cause, task_id, value, status }
    }
}

impl std::fmt::Display for TaskError {
    /// `message (code)`; for a failed input handler `message: what it failed with (code)`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match &self.cause {
            Some(Cause::InputHandler { text: Some(text), .. }) => {
                write!(f, "{}: {} ({})", self.message, text, self.code)
            }
            _ => write!(f, "{} ({})", self.message, self.code),
        }
    }
}

impl std::error::Error for TaskError {}

/// Why an error happened (JS: `error.cause`, by its `type`). A status that is `None` was never read;
/// statuses are boxed (an [`Error`](super::Error) stays small to move through `Result`s).
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
    /// `timeout`: the call's `timeout` ran out (code [`codes::TIMEOUT`]); the last status read.
    Timeout {
        /// The last status read.
        status: Option<Box<TaskStatus>>,
    },
    /// `request_timeout`: one request outlived `request_timeout` (code [`codes::TIMEOUT`]).
    RequestTimeout {
        /// The request's method.
        method: String,
        /// The last status read.
        status: Option<Box<TaskStatus>>,
    },
    /// `task_failed`: the task ended `failed` (the error is the task's).
    TaskFailed {
        /// The failed status.
        status: Box<TaskStatus>,
    },
    /// `rpc_error`: the server answered `method` with a JSON-RPC error.
    RpcError {
        /// The request's method.
        method: String,
    },
    /// `request_failed`: the client's `request` failed without a JSON-RPC answer (code
    /// [`codes::REQUEST_FAILED`]).
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
    /// `input_handler`: a handler (or the input function) failed. The task itself is still on the
    /// server, waiting for that input (`status`): answer it later — [`update_task`](crate::update_task),
    /// or [`await_task`](crate::await_task) again with handlers that work — or cancel it
    /// ([`cancel_task`](crate::cancel_task)); left alone it runs until its TTL.
    InputHandler {
        /// The request's key (`None` for the input function).
        key: Option<String>,
        /// `{type: "invalid_response", response}`, `{type: "invalid_outcome", outcome}`, or the
        /// handler's own `reason` (a Rust handler's `Err(e)`: `e`'s text; an `Error::Js`: its value).
        reason: JsValue,
        /// What the handler failed with, in words: its error's text (a Rust error's `Display`, a JS
        /// `Error`'s `name: message`, a string), or why its answer was refused. Also in the error's
        /// `Display`.
        text: Option<String>,
        /// The task's status the request came with (`None` for a `call_tool` round's request, which
        /// comes with no task).
        status: Option<Box<TaskStatus>>,
    },
    /// `listen_unsupported`: `listen` with a client that cannot listen.
    ListenUnsupported,
    /// `expired`: past `created_at + ttl` the server no longer knows the task.
    Expired {
        /// The last status read.
        status: Option<Box<TaskStatus>>,
    },
    /// `journal_failed`: the journal's store failed; the task is not cancelled.
    JournalFailed {
        /// The store's function that failed (`get`, `put`, `delete`, `list`).
        operation: String,
        /// What it threw or rejected with.
        error: JsValue,
        /// The task's last status.
        status: Option<Box<TaskStatus>>,
    },
}

impl Cause {
    /// The cause's `type` as the JS outcome spells it (`"timeout"`, `"rpc_error"`, …).
    ///
    /// ```no_run
    /// # fn f(error: mcp_tasks_wasm::TaskError) {
    /// let kind = error.cause.as_ref().map_or("none", |c| c.as_str());
    /// # }
    /// ```
    pub fn as_str(&self) -> &'static str {
        match self {
            Self::Timeout { .. } => "timeout",
            Self::RequestTimeout { .. } => "request_timeout",
            Self::TaskFailed { .. } => "task_failed",
            Self::RpcError { .. } => "rpc_error",
            Self::RequestFailed { .. } => "request_failed",
            Self::ProtocolViolation { .. } => "protocol_violation",
            Self::InputHandler { .. } => "input_handler",
            Self::ListenUnsupported => "listen_unsupported",
            Self::Expired { .. } => "expired",
            Self::JournalFailed { .. } => "journal_failed",
        }
    }

    /// The engine's cause, typed (`None`: a failed status that is not a task's, which the engine
    /// never gives).
    fn of(c: EngineCause<JsValue>) -> Option<Self> {
        let status = |s: Option<JsValue>| s.and_then(|s| TaskStatus::from_js(&s)).map(Box::new);
        Some(match c {
            EngineCause::Timeout { status: s } => Self::Timeout { status: status(s) },
            EngineCause::RequestTimeout { method, status: s } => {
                Self::RequestTimeout { method: method.to_owned(), status: status(s) }
            }
            EngineCause::TaskFailed { status } => Self::TaskFailed { status: Box::new(TaskStatus::from_js(&status)?) },
            EngineCause::RpcError { method } => Self::RpcError { method: method.to_owned() },
            EngineCause::RequestFailed { method, error } => Self::RequestFailed { method: method.to_owned(), error },
            EngineCause::ProtocolViolation { method, response } => {
                Self::ProtocolViolation { method: method.to_owned(), response }
            }
            EngineCause::InputHandler { key, reason, status: s } => {
                Self::InputHandler { key, text: handler_failure(&reason), reason, status: status(Some(s)) }
            }
            EngineCause::ListenUnsupported => Self::ListenUnsupported,
            EngineCause::Expired { status: s } => Self::Expired { status: status(s) },
            EngineCause::JournalFailed { operation, error, status: s } => {
                Self::JournalFailed { operation: operation.to_owned(), error, status: status(s) }
            }
        })
    }

    /// Reads an error's `cause` object; `None` for a type this library does not make.
    fn from_js(v: &JsValue) -> Option<Self> {
        let status = || v.get("status").and_then(|s| TaskStatus::from_js(&s)).map(Box::new);
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
                let reason = raw("reason");
                Self::InputHandler { key: v.get_str("key"), text: handler_failure(&reason), reason, status: status() }
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

/// An input handler's failure `reason` in words: why its answer was refused (the library's
/// `{type: "invalid_response" | "invalid_outcome"}`), else what it failed with ([`describe`]); `None`
/// for a reason that says nothing (`undefined`, `null`).
fn handler_failure(reason: &JsValue) -> Option<String> {
    if reason.is_undefined() || reason.is_null() {
        return None;
    }
    let refused = match reason.get_str("type").as_deref() {
        Some("invalid_response") => Some("its answer is not a valid response to the request"),
        Some("invalid_outcome") => Some("its answer is not {tag: \"ok\" | \"error\"} nor a plain result"),
        _ => None,
    };
    Some(refused.map_or_else(|| describe(reason), str::to_owned)).filter(|t| !t.is_empty())
}
