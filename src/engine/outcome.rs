//! A machine's verdict — how its call ended ([`Outcome`]), and its errors ([`TaskError`], why:
//! [`Cause`]) — and their JSON shape (the tagged outcome objects every exported function
//! resolves with). The Rust API's `CallOutcome`, `WaitOutcome` and `Cause` are their typed views.

use crate::json::Json;
use crate::proto::rpc::{describe_failure, RpcError};
use crate::text::decimal;

/// Code of a wait or request that ran out of time (local, as in the official SDKs' RequestTimeout).
pub(crate) const CODE_TIMEOUT: i64 = -32001;
/// Code of a request that failed without a JSON-RPC answer.
pub(crate) const CODE_TRANSPORT: i64 = -32000;
/// Code of a server answer that breaks the protocol, and of a failed input handler.
pub(crate) const CODE_INTERNAL: i64 = -32603;
/// Code refusing a server's request nothing here answers (MCP 2025-11-25 input; JSON-RPC's
/// "method not found").
pub(crate) const CODE_NOT_FOUND: i64 = -32601;
/// Code refusing a server's request that is malformed, or belongs to another task.
pub(crate) const CODE_INVALID_PARAMS: i64 = -32602;

/// How a call ended, as its machine decided.
#[derive(Clone, Debug)]
pub(crate) enum Outcome<V> {
    /// `{tag: "ok", result}`: a tool result (direct, or a completed task's), as sent.
    Result(V),
    /// `{tag: "task", status}`: `tools/call` created a task.
    Task(V),
    /// `{tag: "ok", status}`: `getTask` read a status.
    Status(V),
    /// `{tag: "ok"}`: `updateTask` / `cancelTask` were acknowledged.
    Ack,
    /// `{tag: "ok", tasks, nextCursor?}`: `listTasks` read a page of the session's tasks (MCP
    /// 2025-11-25), each in the 2026-07-28 status shape.
    Tasks {
        /// The statuses, an array.
        tasks: V,
        /// The next page's cursor, when there is one.
        next_cursor: Option<V>,
    },
    /// `{tag: "cancelled", status}`.
    Cancelled(V),
    /// `{tag: "input_required", source: "task", status}`: the task needs input and the library may not
    /// answer it.
    InputRequired(V),
    /// `{tag: "input_required", source: "call", status}`: the `tools/call` itself needs input (an MRTR
    /// round; there is no task) and the library may not answer it.
    CallInputRequired(V),
    /// `{tag: "error", error}`.
    Error(TaskError<V>),
}

/// Who is to blame for an error (JS: `error.kind`). Serializes as the `kind` string.
///
/// ```
/// use mcp_tasks_wasm::ErrorKind;
/// assert_eq!(ErrorKind::parse("transport"), Some(ErrorKind::Transport));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ErrorKind {
    /// The server answered with a JSON-RPC error, or the task failed.
    Server,
    /// A request failed or timed out (also the wait's own timeout).
    Transport,
    /// The server's answer breaks the protocol.
    Protocol,
    /// An input handler or the input function failed.
    Execution,
    /// The task journal's store failed (made by the shell's journal, never by a machine; the task is
    /// not lost: its last status is in the error's cause).
    Journal,
}

impl ErrorKind {
    /// The `kind` string (`"server"`, `"transport"`, …).
    ///
    /// ```
    /// assert_eq!(mcp_tasks_wasm::ErrorKind::Journal.as_str(), "journal");
    /// ```
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Server => "server",
            Self::Transport => "transport",
            Self::Protocol => "protocol",
            Self::Execution => "execution",
            Self::Journal => "journal",
        }
    }

    /// The kind a `kind` string names (`None` for another string).
    ///
    /// ```
    /// use mcp_tasks_wasm::ErrorKind;
    /// assert_eq!(ErrorKind::parse("protocol"), Some(ErrorKind::Protocol));
    /// ```
    pub fn parse(name: &str) -> Option<Self> {
        Some(match name {
            "server" => Self::Server,
            "transport" => Self::Transport,
            "protocol" => Self::Protocol,
            "execution" => Self::Execution,
            "journal" => Self::Journal,
            _ => return None,
        })
    }
}

/// Why an error happened, in detail (`error.cause`).
#[derive(Clone, Debug)]
pub(crate) enum Cause<V> {
    /// `{type: "timeout", status}`: the call's `timeoutMs` ran out; `status` is the last one read.
    Timeout {
        /// The last status read, if any.
        status: Option<V>,
    },
    /// `{type: "request_timeout", method, status}`: one request outlived `requestTimeoutMs`.
    RequestTimeout {
        /// The request's method.
        method: &'static str,
        /// The last status read, if any.
        status: Option<V>,
    },
    /// `{type: "task_failed", status}`.
    TaskFailed {
        /// The failed status.
        status: V,
    },
    /// `{type: "rpc_error", method}`: the server answered `method` with a JSON-RPC error.
    RpcError {
        /// The request's method.
        method: &'static str,
    },
    /// `{type: "request_failed", method, error}`: `request` rejected with `error`.
    RequestFailed {
        /// The request's method.
        method: &'static str,
        /// The rejection value, as is.
        error: V,
    },
    /// `{type: "protocol_violation", method, response}`.
    ProtocolViolation {
        /// Which answer broke the protocol (a method, or `notifications/tasks`).
        method: &'static str,
        /// The offending value.
        response: V,
    },
    /// `{type: "input_handler", key, reason, status}`.
    InputHandler {
        /// The request's key (`None` for the input function).
        key: Option<String>,
        /// Why it failed.
        reason: V,
        /// The status the request came with.
        status: V,
    },
    /// `{type: "listen_unsupported"}`: `listen: true` but the client has no `listen` function.
    ListenUnsupported,
    /// `{type: "expired", status}`: past the task's `createdAt + ttlMs` the server no longer knows it
    /// (`-32602` to the last `tasks/get`); `status` is the last status read.
    Expired {
        /// The last status read, if any.
        status: Option<V>,
    },
    /// `{type: "journal_failed", operation, error, status}`: the task journal's store failed (made by
    /// the shell's journal, never by a machine; the task is not cancelled).
    #[cfg_attr(not(feature = "journal"), allow(dead_code))]
    JournalFailed {
        /// The store's function that failed: `get` (loading the entry) or `put`.
        operation: &'static str,
        /// What it threw or rejected with.
        error: V,
        /// The task's last status, if any.
        status: Option<V>,
    },
}

/// An error outcome: `{code, message, data?, kind, cause?}`.
#[derive(Clone, Debug)]
pub(crate) struct TaskError<V> {
    /// JSON-RPC style code.
    pub code: i64,
    /// What happened.
    pub message: String,
    /// Extra data.
    pub data: Option<V>,
    /// Who is to blame.
    pub kind: ErrorKind,
    /// Details.
    pub cause: Option<Cause<V>>,
    /// The task the failed wait was on, when there is one: the outcome carries its id and last status
    /// beside the error (`{tag: "error", error, taskId, status?}`), so that no task is orphaned.
    pub task: Option<Box<TaskContext<V>>>,
}

/// The task an error outcome is about ([`TaskError::task`]).
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct TaskContext<V> {
    /// Its id.
    pub task_id: String,
    /// Its last status read (`None`: none was).
    pub status: Option<V>,
}

impl<J: Json> TaskError<J> {
    /// This error, about task `task_id` whose last status is `status` — unless it is about one already.
    pub(crate) fn about(mut self, task_id: &str, status: Option<J>) -> Self {
        if self.task.is_none() {
            self.task = Some(Box::new(TaskContext { task_id: task_id.to_owned(), status }));
        }
        self
    }

    /// The server answered `method` with a JSON-RPC error: passed through with kind `"server"`.
    pub(crate) fn rpc(method: &'static str, e: RpcError<J>) -> Self {
        Self {
            code: e.code,
            message: e.message,
            data: e.data,
            kind: ErrorKind::Server,
            cause: Some(Cause::RpcError { method }),
            task: None,
        }
    }

    /// `request` rejected with something that is not a JSON-RPC error. A transport's
    /// `McpProtocolError` (a message for the request that is neither a response nor a request) is the
    /// server breaking the protocol: a `protocol` error whose response is that message.
    pub(crate) fn transport(method: &'static str, error: J) -> Self {
        if error.get_str("name").as_deref() == Some("McpProtocolError") {
            let message = [method, " failed: ", without_prefix(&describe_failure(&error), method)].concat();
            return Self::protocol(method, message, error.get("response").unwrap_or(error));
        }
        let mut data = vec![("method", J::string(method))];
        for key in ["status", "body", "exitCode", "signal", "stderr", "sessionLost"] {
            if let Some(v) = error.get(key) {
                data.push((key, v));
            }
        }
        Self {
            code: CODE_TRANSPORT,
            message: [method, " failed: ", without_prefix(&describe_failure(&error), method)].concat(),
            data: Some(J::object(data)),
            kind: ErrorKind::Transport,
            cause: Some(Cause::RequestFailed { method, error }),
            task: None,
        }
    }

    /// The answer to `method` broke the protocol.
    pub(crate) fn protocol(method: &'static str, message: String, response: J) -> Self {
        Self {
            code: CODE_INTERNAL,
            message,
            data: None,
            kind: ErrorKind::Protocol,
            cause: Some(Cause::ProtocolViolation { method, response }),
            task: None,
        }
    }

    /// The call ran out of `timeout_ms`; `subject` names what was waited for (e.g. `("taskId", id)`).
    pub(crate) fn timeout(subject: (&str, &str), timeout_ms: u64, status: Option<J>) -> Self {
        let (key, value) = subject;
        let what = match key {
            "taskId" => ["task ", value].concat(),
            "name" => ["tool ", value].concat(),
            _ => value.to_owned(),
        };
        Self {
            code: CODE_TIMEOUT,
            message: ["timed out after ", &decimal(timeout_ms), " ms waiting for ", &what].concat(),
            data: Some(J::object(vec![(key, J::string(value)), ("timeoutMs", J::number(timeout_ms as f64))])),
            kind: ErrorKind::Transport,
            cause: Some(Cause::Timeout { status }),
            task: None,
        }
    }

    /// One request outlived its own `requestTimeoutMs` (shorter than the time left).
    pub(crate) fn request_timeout(
        subject: (&str, &str),
        method: &'static str,
        timeout_ms: u64,
        status: Option<J>,
    ) -> Self {
        let (key, value) = subject;
        Self {
            code: CODE_TIMEOUT,
            message: [method, " got no answer within ", &decimal(timeout_ms), " ms (requestTimeoutMs)"].concat(),
            data: Some(J::object(vec![
                (key, J::string(value)),
                ("method", J::string(method)),
                ("timeoutMs", J::number(timeout_ms as f64)),
            ])),
            kind: ErrorKind::Transport,
            cause: Some(Cause::RequestTimeout { method, status }),
            task: None,
        }
    }

    /// The task ended `failed` with this JSON-RPC error.
    pub(crate) fn task_failed(e: RpcError<J>, status: J) -> Self {
        Self {
            code: e.code,
            message: e.message,
            data: e.data,
            kind: ErrorKind::Server,
            cause: Some(Cause::TaskFailed { status }),
            task: None,
        }
    }

    /// A task on an MCP 2025-11-25 server ended `failed`: `Ok` with the result it stored (then in
    /// `data.result`), `Err` with the error `tasks/result` answered when it stored none. The message is
    /// the task's `statusMessage` when it has one.
    pub(crate) fn core_task_failed(stored: Result<J, RpcError<J>>, status: J) -> Self {
        let said = status.get_str("statusMessage");
        let (code, message, data) = match stored {
            Ok(result) => (
                CODE_INTERNAL,
                said.unwrap_or_else(|| "the task failed; its result is in data.result".to_owned()),
                Some(J::object(vec![("result", result)])),
            ),
            Err(e) => (e.code, said.unwrap_or(e.message), e.data),
        };
        Self { code, message, data, kind: ErrorKind::Server, cause: Some(Cause::TaskFailed { status }), task: None }
    }

    /// An input handler (key `Some`) or the input function (key `None`) failed for `reason`.
    pub(crate) fn input_handler(key: Option<String>, reason: J, status: J) -> Self {
        let message = match &key {
            Some(k) => ["the input handler for \"", k.as_str(), "\" did not answer"].concat(),
            None => "the input function did not answer".to_owned(),
        };
        Self {
            code: CODE_INTERNAL,
            message,
            data: None,
            kind: ErrorKind::Execution,
            cause: Some(Cause::InputHandler { key, reason, status }),
            task: None,
        }
    }

    /// The task expired: past its TTL the server answered `tasks/get` with this error (`-32602`).
    pub(crate) fn expired(e: RpcError<J>, status: Option<J>) -> Self {
        Self {
            code: e.code,
            message: e.message,
            data: e.data,
            kind: ErrorKind::Server,
            cause: Some(Cause::Expired { status }),
            task: None,
        }
    }

    /// `listen: true` with a client that has no `listen` function.
    pub(crate) fn listen_unsupported() -> Self {
        Self {
            code: CODE_TRANSPORT,
            message: "listen: true needs a client with a listen function; this client has none".to_owned(),
            data: None,
            kind: ErrorKind::Transport,
            cause: Some(Cause::ListenUnsupported),
            task: None,
        }
    }

    /// The `error` object.
    pub(crate) fn to_json(&self) -> J {
        let mut fields = vec![("code", J::number(self.code as f64)), ("message", J::string(&self.message))];
        if let Some(d) = &self.data {
            fields.push(("data", d.clone()));
        }
        fields.push(("kind", J::string(self.kind.as_str())));
        if let Some(c) = &self.cause {
            fields.push(("cause", c.to_json()));
        }
        J::object(fields)
    }
}

impl<J: Json> Cause<J> {
    /// The `cause` object.
    pub(crate) fn to_json(&self) -> J {
        let or_null = |s: &Option<J>| s.clone().unwrap_or_else(J::null);
        let (kind, mut fields): (&str, Vec<(&str, J)>) = match self {
            Self::Timeout { status } => ("timeout", vec![("status", or_null(status))]),
            Self::RequestTimeout { method, status } => {
                ("request_timeout", vec![("method", J::string(method)), ("status", or_null(status))])
            }
            Self::TaskFailed { status } => ("task_failed", vec![("status", status.clone())]),
            Self::RpcError { method } => ("rpc_error", vec![("method", J::string(method))]),
            Self::RequestFailed { method, error } => {
                ("request_failed", vec![("method", J::string(method)), ("error", error.clone())])
            }
            Self::ProtocolViolation { method, response } => {
                ("protocol_violation", vec![("method", J::string(method)), ("response", response.clone())])
            }
            Self::InputHandler { key, reason, status } => (
                "input_handler",
                vec![
                    ("key", key.as_deref().map_or_else(J::null, J::string)),
                    ("reason", reason.clone()),
                    ("status", status.clone()),
                ],
            ),
            Self::ListenUnsupported => ("listen_unsupported", vec![]),
            Self::Expired { status } => ("expired", vec![("status", or_null(status))]),
            Self::JournalFailed { operation, error, status } => (
                "journal_failed",
                vec![("operation", J::string(operation)), ("error", error.clone()), ("status", or_null(status))],
            ),
        };
        fields.insert(0, ("type", J::string(kind)));
        J::object(fields)
    }
}

impl<J: Json> Outcome<J> {
    /// The tagged outcome object (what the JS face resolves with and the journal broadcasts).
    #[cfg(any(not(target_arch = "wasm32"), feature = "js", feature = "journal"))]
    pub(crate) fn to_json(&self) -> J {
        let tagged = |tag: &str, field: Option<(&str, &J)>| {
            let mut fields = vec![("tag", J::string(tag))];
            match self {
                Self::InputRequired(_) => fields.push(("source", J::string("task"))),
                Self::CallInputRequired(_) => fields.push(("source", J::string("call"))),
                _ => {}
            }
            if let Some((k, v)) = field {
                fields.push((k, v.clone()));
            }
            J::object(fields)
        };
        match self {
            Self::Tasks { tasks, next_cursor } => {
                let mut page = vec![("tag", J::string("ok")), ("tasks", tasks.clone())];
                if let Some(c) = next_cursor {
                    page.push(("nextCursor", c.clone()));
                }
                J::object(page)
            }
            Self::Result(r) => tagged("ok", Some(("result", r))),
            Self::Task(s) => tagged("task", Some(("status", s))),
            Self::Status(s) => tagged("ok", Some(("status", s))),
            Self::Ack => tagged("ok", None),
            Self::Cancelled(s) => tagged("cancelled", Some(("status", s))),
            Self::InputRequired(s) | Self::CallInputRequired(s) => tagged("input_required", Some(("status", s))),
            Self::Error(f) => {
                let mut fields = vec![("tag", J::string("error")), ("error", f.to_json())];
                if let Some(t) = &f.task {
                    fields.push(("taskId", J::string(&t.task_id)));
                    if let Some(s) = &t.status {
                        fields.push(("status", s.clone()));
                    }
                }
                J::object(fields)
            }
        }
    }
}

/// `text` without a leading `"{method}: "` (the clients name the method in their errors; the failure's
/// message names it once: "tools/call failed: network error: …", not "tools/call failed: tools/call: …").
fn without_prefix<'a>(text: &'a str, method: &str) -> &'a str {
    text.strip_prefix(method).and_then(|rest| rest.strip_prefix(": ")).unwrap_or(text)
}
