//! The three answers to `tools/call`: a result, an MRTR input request, or a task.

use super::input::input_entries;
use super::task::{read_task, Source, TaskView};
use crate::json::{Json, Kind};

/// What a `tools/call` result means.
#[derive(Clone, Debug)]
pub(crate) enum CallReply<V> {
    /// `resultType` `"complete"` or absent: the CallToolResult, as sent.
    Complete(V),
    /// `resultType` `"task"`: a task was created.
    Task(TaskView<V>),
    /// `resultType` `"input_required"` (MRTR, before any task exists).
    InputRequired(Mrtr<V>),
}

/// An MRTR `InputRequiredResult`.
#[derive(Clone, Debug)]
pub(crate) struct Mrtr<V> {
    /// `inputRequests` as `(key, request)` pairs (empty when absent).
    pub requests: Vec<(String, V)>,
    /// `requestState`, echoed verbatim on the retry.
    pub request_state: Option<V>,
    /// The status object for the application: `{inputRequests?, requestState?}` as sent.
    pub object: V,
}

/// Reads a `tools/call` result. `Err` names the protocol problem.
pub(crate) fn read_call_result<J: Json>(value: J) -> Result<CallReply<J>, String> {
    if !value.is_object() {
        return Err("tools/call answered with a result that is not an object".to_owned());
    }
    let result_type = match value.get("resultType") {
        None => None,
        Some(rt) => match rt.as_str() {
            Some(s) => Some(s),
            None => return Err("tools/call answered with a resultType that is not a string".to_owned()),
        },
    };
    match result_type.as_deref() {
        None | Some("complete") => Ok(CallReply::Complete(value)),
        Some("task") => read_task(&value, Source::Created)
            .map(CallReply::Task)
            .map_err(|e| ["tools/call answered with an invalid CreateTaskResult: ", e.as_str()].concat()),
        Some("input_required") => read_mrtr(&value).map(CallReply::InputRequired),
        Some(other) => Err(["tools/call answered with unknown resultType \"", other, "\""].concat()),
    }
}

fn read_mrtr<J: Json>(value: &J) -> Result<Mrtr<J>, String> {
    let requests = value.get("inputRequests").filter(|r| r.kind() != Kind::Null);
    let request_state = value.get("requestState").filter(|r| r.kind() != Kind::Null);
    if requests.is_none() && request_state.is_none() {
        return Err("tools/call answered input_required with neither inputRequests nor requestState".to_owned());
    }
    let entries = match &requests {
        None => Vec::new(),
        Some(r) => match input_entries("tools/call's input_required", r)?.filter(|_| r.is_object()) {
            Some(e) => e,
            None => {
                return Err(
                    "tools/call answered input_required with inputRequests that are not a readable object".to_owned()
                )
            }
        },
    };
    let mut fields = Vec::new();
    if let Some(r) = &requests {
        fields.push(("inputRequests", r.clone()));
    }
    if let Some(s) = &request_state {
        fields.push(("requestState", s.clone()));
    }
    Ok(Mrtr { requests: entries, request_state, object: J::object(fields) })
}
