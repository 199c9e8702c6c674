//! What the client sends: the request kinds the engine issues and their `params`, each carrying
//! `_meta["io.modelcontextprotocol/clientCapabilities"]` with the tasks extension declared.

use super::{META_CLIENT_CAPABILITIES, TASKS_EXTENSION};
use crate::json::{Json, Kind};

/// A request the engine asks the transport to send (its variants named after the methods).
#[derive(Clone, Debug, PartialEq)]
#[allow(clippy::enum_variant_names)]
pub(crate) enum Call<V> {
    /// `tools/call` (with `inputResponses` and `requestState` on an MRTR retry).
    ToolsCall {
        /// The tool name.
        name: String,
        /// The tool arguments, when given.
        arguments: Option<V>,
        /// MRTR answers, on a retry.
        input_responses: Option<V>,
        /// The echoed MRTR `requestState`, on a retry.
        request_state: Option<V>,
        /// MCP 2025-11-25: the task's TTL, sent as `task: {ttl}` (`None`: a plain call).
        task_ttl_ms: Option<u64>,
    },
    /// `tools/list` (MCP 2025-11-25: a tool's `execution.taskSupport`), from `cursor`.
    ToolsList {
        /// The page's cursor (`None`: the first page).
        cursor: Option<V>,
    },
    /// `tasks/result` (MCP 2025-11-25): blocks until the task ends; carries the task's input requests.
    TasksResult {
        /// The task.
        task_id: String,
    },
    /// `tasks/list` (MCP 2025-11-25), from `cursor`.
    ListTasks {
        /// The page's cursor (`None`: the first page).
        cursor: Option<V>,
    },
    /// A JSON-RPC response to the server's request `id` (MCP 2025-11-25 input): not a request; the
    /// client sends it and reports when it was taken.
    Respond {
        /// The server's request id, as it came.
        id: V,
        /// The answer: the request's result, or the JSON-RPC error `{code, message}` refusing it.
        answer: Result<V, V>,
    },
    /// `tasks/get`.
    GetTask {
        /// The task.
        task_id: String,
    },
    /// `tasks/update` with the answers as `(key, response)` pairs.
    UpdateTask {
        /// The task.
        task_id: String,
        /// The answers.
        responses: Vec<(String, V)>,
    },
    /// `tasks/update` with an answers object handed in by the caller, as is.
    UpdateTaskRaw {
        /// The task.
        task_id: String,
        /// The `inputResponses` object.
        responses: V,
    },
    /// `tasks/cancel`.
    CancelTask {
        /// The task.
        task_id: String,
    },
    /// `subscriptions/listen` for one task's notifications.
    Listen {
        /// The task.
        task_id: String,
    },
}

impl<V> Call<V> {
    /// The JSON-RPC method name.
    pub(crate) fn method(&self) -> &'static str {
        match self {
            Self::ToolsCall { .. } => "tools/call",
            Self::ToolsList { .. } => "tools/list",
            Self::TasksResult { .. } => "tasks/result",
            Self::ListTasks { .. } => "tasks/list",
            Self::Respond { .. } => "response",
            Self::GetTask { .. } => "tasks/get",
            Self::UpdateTask { .. } | Self::UpdateTaskRaw { .. } => "tasks/update",
            Self::CancelTask { .. } => "tasks/cancel",
            Self::Listen { .. } => "subscriptions/listen",
        }
    }
}

impl<V> Call<V> {
    /// `true` for the requests whose answer may be preceded by the server's own requests (MCP
    /// 2025-11-25: a task's input comes on its `tasks/result`, a plain call's on its `tools/call`): the
    /// client hands those to the run.
    pub(crate) fn hears_requests(&self) -> bool {
        matches!(self, Self::TasksResult { .. } | Self::ToolsCall { task_ttl_ms: None, .. })
    }
}

impl<J: Json> Call<J> {
    /// The request's `params`: for MCP 2026-07-28 with `_meta` carrying `capabilities` (already merged
    /// with the extension); for MCP 2025-11-25 (`core`) with no `_meta` (that generation has no envelope).
    pub(crate) fn params(&self, capabilities: &J, core: bool) -> J {
        let meta = ("_meta", J::object(vec![(META_CLIENT_CAPABILITIES, capabilities.clone())]));
        let mut fields: Vec<(&str, J)> = Vec::new();
        match self {
            Self::ToolsCall { name, arguments, input_responses, request_state, task_ttl_ms } => {
                fields.push(("name", J::string(name)));
                let optional =
                    [("arguments", arguments), ("inputResponses", input_responses), ("requestState", request_state)];
                for (k, v) in optional {
                    if let Some(v) = v {
                        fields.push((k, v.clone()));
                    }
                }
                if let Some(ttl) = task_ttl_ms {
                    fields.push(("task", J::object(vec![("ttl", J::number(*ttl as f64))])));
                }
            }
            Self::ToolsList { cursor } | Self::ListTasks { cursor } => {
                if let Some(c) = cursor {
                    fields.push(("cursor", c.clone()));
                }
            }
            Self::TasksResult { task_id } => fields.push(("taskId", J::string(task_id))),
            Self::Respond { .. } => return J::null(), // not a request: the client sends the answer itself
            Self::GetTask { task_id } | Self::CancelTask { task_id } => fields.push(("taskId", J::string(task_id))),
            Self::UpdateTask { task_id, responses } => {
                fields.push(("taskId", J::string(task_id)));
                let answers = responses.iter().map(|(k, v)| (k.as_str(), v.clone())).collect();
                fields.push(("inputResponses", J::object(answers)));
            }
            Self::UpdateTaskRaw { task_id, responses } => {
                fields.push(("taskId", J::string(task_id)));
                fields.push(("inputResponses", responses.clone()));
            }
            Self::Listen { task_id } => {
                let ids = J::array(vec![J::string(task_id)]);
                fields.push(("notifications", J::object(vec![("taskIds", ids)])));
            }
        }
        if !core {
            fields.push(meta);
        }
        J::object(fields)
    }
}

/// Deep-merges two values: objects merge key by key (recursively), anything else is replaced by `over`.
/// Neither input is modified.
pub(crate) fn deep_merge<J: Json>(base: &J, over: &J) -> J {
    if !(base.is_object() && over.is_object()) {
        return over.clone();
    }
    let mut fields: Vec<(String, J)> = base.entries().unwrap_or_default();
    for (k, v) in over.entries().unwrap_or_default() {
        match fields.iter_mut().find(|(fk, _)| *fk == k) {
            Some((_, existing)) => *existing = deep_merge(existing, &v),
            None => fields.push((k, v)),
        }
    }
    J::object(fields.iter().map(|(k, v)| (k.as_str(), v.clone())).collect())
}

/// `base` (or `{}`) deep-merged with `{extensions: {"io.modelcontextprotocol/tasks": {}}}`.
pub(crate) fn with_tasks_extension<J: Json>(base: Option<&J>) -> J {
    let declaration = J::object(vec![("extensions", J::object(vec![(TASKS_EXTENSION, J::object(vec![]))]))]);
    match base {
        Some(b) if b.is_object() => deep_merge(b, &declaration),
        _ => declaration,
    }
}

/// `true` when a `server/discover` result (or its `capabilities`) advertises the tasks extension.
pub(crate) fn server_supports<J: Json>(value: &J) -> bool {
    let caps = value.get("capabilities").filter(Json::is_object).unwrap_or_else(|| value.clone());
    caps.get("extensions").and_then(|e| e.get(TASKS_EXTENSION)).is_some_and(|d| d.kind() != Kind::Null)
}
