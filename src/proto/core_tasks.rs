//! The previous generation's shapes — MCP 2025-11-25 with its core tasks — read into the views the
//! engine already uses, so that one engine serves both generations. What it differs in:
//! - a task is `{taskId, status, statusMessage?, createdAt, lastUpdatedAt, ttl, pollInterval}` (no
//!   `resultType`, no `inputRequests`, `result` or `error`): read here into a [`TaskView`] whose status
//!   object is the 2026-07-28 shape the application knows (`ttl` → `ttlMs`, `pollInterval` →
//!   `pollIntervalMs`);
//! - `tools/call` with `task: {ttl}` answers `{task}` (a CreateTaskResult); without, the CallToolResult;
//! - a task's result comes from `tasks/result` (which blocks until the task ends), its input requests
//!   are the server's own JSON-RPC requests (carried by that `tasks/result`), answered with JSON-RPC
//!   responses; `tasks/list` pages a session's tasks.

use super::task::{read_task, Source, TaskView};
use crate::json::{Json, Kind};

/// The name of MCP 2026-07-28 (a client's `generation`).
pub(crate) const TASKS_GENERATION: &str = "2026-07-28";
/// The name of MCP 2025-11-25.
pub(crate) const CORE_GENERATION: &str = "2025-11-25";

/// The generation a client's server speaks.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) enum Generation {
    /// MCP 2026-07-28 with `io.modelcontextprotocol/tasks`.
    #[default]
    Tasks,
    /// MCP 2025-11-25 with its core tasks; `tasks_for_tools`: the server declared task-augmented
    /// `tools/call` (`capabilities.tasks.requests.tools.call`).
    Core {
        /// Whether `tools/call` may carry `task`.
        tasks_for_tools: bool,
    },
}

impl Generation {
    /// The generation a client names (`"2025-11-25"`; anything else is 2026-07-28), with the server's
    /// capabilities (from `initialize`; `None` when the client does not know them — a channel told its
    /// generation — and then each tool's `taskSupport` alone decides).
    pub(crate) fn of<J: Json>(name: Option<&str>, capabilities: Option<&J>) -> Self {
        if name != Some(CORE_GENERATION) {
            return Self::Tasks;
        }
        let Some(caps) = capabilities.filter(|c| c.is_object()) else { return Self::Core { tasks_for_tools: true } };
        let call =
            caps.get("tasks").and_then(|t| t.get("requests")).and_then(|r| r.get("tools")).and_then(|t| t.get("call"));
        Self::Core { tasks_for_tools: call.is_some_and(|c| c.kind() != Kind::Null) }
    }

    /// `true` for MCP 2025-11-25.
    pub(crate) fn is_core(self) -> bool {
        matches!(self, Self::Core { .. })
    }
}

/// A 2025-11-25 field and the 2026-07-28 status field it becomes.
const RENAMED: [(&str, &str); 7] = [
    ("taskId", "taskId"),
    ("status", "status"),
    ("statusMessage", "statusMessage"),
    ("createdAt", "createdAt"),
    ("lastUpdatedAt", "lastUpdatedAt"),
    ("ttl", "ttlMs"),
    ("pollInterval", "pollIntervalMs"),
];

/// Reads a 2025-11-25 task object into the engine's view; its status object in the 2026-07-28 shape
/// (the fields renamed, then read as a pushed 2026-07-28 status: a 2025-11-25 task has no payload).
/// `Err` carries a message naming the problem.
pub(crate) fn read_core_task<J: Json>(value: &J) -> Result<TaskView<J>, String> {
    if !value.is_object() {
        return Err("the task is not an object".to_owned());
    }
    let renamed = J::object(RENAMED.iter().filter_map(|&(from, to)| value.get(from).map(|v| (to, v))).collect());
    read_task(&renamed, Source::Pushed)
}

/// What a 2025-11-25 `tools/call` answered.
#[derive(Clone, Debug)]
pub(crate) enum CoreCallReply<V> {
    /// The CallToolResult, as sent.
    Complete(V),
    /// A CreateTaskResult: the task created.
    Task(TaskView<V>),
}

/// Reads a 2025-11-25 `tools/call` answer: `{task}` is a created task, any other object the result.
pub(crate) fn read_core_call_result<J: Json>(value: J) -> Result<CoreCallReply<J>, String> {
    if !value.is_object() {
        return Err("tools/call answered with a result that is not an object".to_owned());
    }
    match value.get("task") {
        Some(task) if task.kind() != Kind::Null => read_core_task(&task)
            .map(CoreCallReply::Task)
            .map_err(|e| ["tools/call answered with an invalid CreateTaskResult: ", e.as_str()].concat()),
        _ => Ok(CoreCallReply::Complete(value)),
    }
}

/// A tool's `execution.taskSupport` as `tools/list` declares it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum TaskSupport {
    /// The tool must be called with `task`.
    Required,
    /// It may be.
    Optional,
    /// It must not be (also: not declared).
    Forbidden,
}

/// Looks `name` up in a `tools/list` page: `Ok(Some(support))` when listed, `Ok(None)` when not (then
/// the page's `nextCursor`, if any, is the second value). `Err` names the problem.
pub(crate) fn find_tool<J: Json>(page: &J, name: &str) -> Result<(Option<TaskSupport>, Option<J>), String> {
    let Some(tools) = page.get("tools").and_then(|t| t.items()) else {
        return Err("tools/list answered without a tools array".to_owned());
    };
    for tool in &tools {
        if tool.get_str("name").as_deref() == Some(name) {
            let support = tool.get("execution").and_then(|e| e.get_str("taskSupport"));
            let support = match support.as_deref() {
                Some("required") => TaskSupport::Required,
                Some("optional") => TaskSupport::Optional,
                _ => TaskSupport::Forbidden,
            };
            return Ok((Some(support), None));
        }
    }
    let next = page.get("nextCursor").filter(|c| c.kind() == Kind::String);
    Ok((None, next))
}

/// A server→client request (`{jsonrpc, id, method, params}`) as the engine keys it: the key its
/// answer goes under — a number id in decimal, a string id as it is (quoted when it is all digits, so
/// that it never reads as a number) — or `None` when it has no usable id.
pub(crate) fn request_key<J: Json>(message: &J) -> Option<String> {
    let id = message.get("id")?;
    match id.kind() {
        Kind::String => id.as_str().map(|s| if is_decimal(&s) { ["\"", s.as_str(), "\""].concat() } else { s }),
        Kind::Number => {
            id.as_f64().and_then(crate::json::as_integer).filter(|n| *n >= 0).map(|n| crate::text::decimal(n as u64))
        }
        _ => None,
    }
}

/// `true` for a non-empty run of at most 15 decimal digits (a key [`request_key`] made of a number).
fn is_decimal(key: &str) -> bool {
    !key.is_empty() && key.len() <= 15 && key.bytes().all(|b| b.is_ascii_digit())
}

/// The JSON-RPC id a key stands for (see [`request_key`]).
pub(crate) fn id_of_key<J: Json>(key: &str) -> J {
    if is_decimal(key) {
        return J::number(key.bytes().fold(0.0, |n, b| n * 10.0 + f64::from(b - b'0')));
    }
    let unquoted = key.strip_prefix('"').and_then(|k| k.strip_suffix('"')).filter(|k| is_decimal(k));
    J::string(unquoted.unwrap_or(key))
}

/// A `tasks/list` page as the application gets it: `{tasks: [status, …], nextCursor?}`, each status in
/// the 2026-07-28 shape. `Err` names the problem.
pub(crate) fn read_task_list<J: Json>(page: &J) -> Result<(J, Option<J>), String> {
    let Some(tasks) = page.get("tasks").and_then(|t| t.items()) else {
        return Err("tasks/list answered without a tasks array".to_owned());
    };
    let mut out = Vec::with_capacity(tasks.len());
    for t in &tasks {
        out.push(
            read_core_task(t).map_err(|e| ["tasks/list answered with an invalid task: ", e.as_str()].concat())?.object,
        );
    }
    let next = page.get("nextCursor").filter(|c| c.kind() == Kind::String);
    Ok((J::array(out), next))
}

/// A server's request as the input request the engine hands out: its key ([`request_key`]) and
/// `{method, params}` (as a 2026-07-28 status lists it); `None` without a usable id.
pub(crate) fn as_input_request<J: Json>(message: &J) -> Option<(String, J)> {
    let key = request_key(message)?;
    let fields = ["method", "params"].iter().filter_map(|&k| message.get(k).map(|v| (k, v))).collect();
    Some((key, J::object(fields)))
}

/// The task a server's request belongs to (its `_meta["io.modelcontextprotocol/related-task"].taskId`).
pub(crate) fn related_task<J: Json>(message: &J) -> Option<String> {
    message.get("params")?.get("_meta")?.get("io.modelcontextprotocol/related-task")?.get_str("taskId")
}
