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
            Self::GetTask { .. } => "tasks/get",
            Self::UpdateTask { .. } | Self::UpdateTaskRaw { .. } => "tasks/update",
            Self::CancelTask { .. } => "tasks/cancel",
            Self::Listen { .. } => "subscriptions/listen",
        }
    }
}

impl<J: Json> Call<J> {
    /// The request's `params`, with `_meta` carrying `capabilities` (already merged with the extension).
    pub(crate) fn params(&self, capabilities: &J) -> J {
        let meta = ("_meta", J::object(vec![(META_CLIENT_CAPABILITIES, capabilities.clone())]));
        let mut fields: Vec<(&str, J)> = Vec::new();
        match self {
            Self::ToolsCall { name, arguments, input_responses, request_state } => {
                fields.push(("name", J::string(name)));
                let optional =
                    [("arguments", arguments), ("inputResponses", input_responses), ("requestState", request_state)];
                for (k, v) in optional {
                    if let Some(v) = v {
                        fields.push((k, v.clone()));
                    }
                }
            }
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
        fields.push(meta);
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
