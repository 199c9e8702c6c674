//! What a run ended with, in words: the tag the page shows in `data-outcome` and its text.

use crate::ui::describe;
use mcp_tasks_wasm::{Cause, Outcome, TaskError, ToolResult};
use serde_json::Value;
use wasm_bindgen::JsValue;

/// `(tag, text)` of a run's end: its outcome, or what the call rejected with.
pub fn summary(end: &Result<Outcome, JsValue>) -> (&'static str, String) {
    match end {
        Ok(Outcome::Ok(result)) => ("ok", result_text(result)),
        Ok(Outcome::Cancelled(status)) => (
            "cancelled",
            format!("cancelled: {}", status.status_message.as_deref().unwrap_or("the task was cancelled")),
        ),
        Ok(Outcome::Error(error)) => ("error", error_text(error)),
        Ok(Outcome::InputRequired(needed)) => {
            let keys: Vec<&str> = needed.input_requests.iter().map(|r| r.key.as_str()).collect();
            ("input_required", format!("the task needs input this page cannot give: {}", keys.join(", ")))
        }
        Ok(Outcome::Task(status)) => ("task", format!("task {} created (not awaited)", status.task_id)),
        Err(e) => ("error", format!("the call rejected: {}", describe(e))),
    }
}

/// The text blocks of a tool's result (`content[].text`), marked when the tool reported an error.
fn result_text(result: &ToolResult) -> String {
    let text = match result.deserialize::<Value>() {
        Ok(value) => {
            let blocks = value.get("content").and_then(Value::as_array).map(Vec::as_slice).unwrap_or_default();
            let texts: Vec<&str> = blocks.iter().filter_map(|b| b.get("text").and_then(Value::as_str)).collect();
            if texts.is_empty() {
                value.to_string()
            } else {
                texts.join("\n")
            }
        }
        Err(e) => format!("(unreadable result: {})", crate::ui::describe(&e)),
    };
    if result.is_error() {
        format!("the tool reported an error: {text}")
    } else {
        text
    }
}

/// An error outcome: its message and code, its kind and why.
fn error_text(error: &TaskError) -> String {
    let why = match &error.cause {
        Some(Cause::Timeout { .. }) => "the wait timed out; the task may still be running",
        Some(Cause::TaskFailed { .. }) => "the task failed",
        Some(Cause::RpcError { .. }) => "the server answered with an error",
        Some(Cause::RequestFailed { .. }) => "a request failed (network or HTTP)",
        Some(Cause::InputHandler { .. }) => "answering the input failed",
        _ => "",
    };
    let kind = format!("{:?}", error.kind).to_lowercase();
    if why.is_empty() {
        format!("error ({kind}): {error}")
    } else {
        format!("error ({kind}): {error} — {why}")
    }
}
