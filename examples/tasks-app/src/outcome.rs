//! What a run ended with, in words: the tag the page shows in `data-outcome` and its text.

use mcp_tasks_wasm::{Cause, Error, TaskError, ToolResult, WaitOutcome};

/// `(tag, text)` of a run's end: its outcome, or why the call gave none.
pub fn summary(end: &Result<WaitOutcome, Error>) -> (&'static str, String) {
    match end {
        Ok(WaitOutcome::Ok(result)) => ("ok", result_text(result)),
        Ok(WaitOutcome::Cancelled(status)) => (
            "cancelled",
            format!("cancelled: {}", status.status_message.as_deref().unwrap_or("the task was cancelled")),
        ),
        Ok(WaitOutcome::Error(error)) => ("error", error_text(error)),
        Ok(WaitOutcome::InputRequired(needed)) => {
            let keys: Vec<&str> = needed.input_requests.iter().map(|r| r.key.as_str()).collect();
            ("input_required", format!("the task needs input this page cannot give: {}", keys.join(", ")))
        }
        // `Error`'s Display has no JS stack: "aborted: …", "an application callback failed: …".
        Err(e) => ("error", format!("the call rejected: {e}")),
    }
}

/// The result's text (its text blocks), marked when the tool reported an error.
fn result_text(result: &ToolResult) -> String {
    let text = result.text();
    let text = if text.is_empty() { String::from("(a result without text)") } else { text };
    if result.is_error() {
        format!("the tool reported an error: {text}")
    } else {
        text
    }
}

/// An error outcome: its message and code, its kind and why.
fn error_text(error: &TaskError) -> String {
    let why = if error.is_timeout() {
        "the wait timed out; the task may still be running"
    } else {
        match &error.cause {
            Some(Cause::TaskFailed { .. }) => "the task failed",
            Some(Cause::RpcError { .. }) => "the server answered with an error",
            Some(Cause::RequestFailed { .. }) => "a request failed (network or HTTP)",
            Some(Cause::InputHandler { .. }) => "answering the input failed",
            _ => "",
        }
    };
    let kind = error.kind.as_str();
    if why.is_empty() {
        format!("error ({kind}): {error}")
    } else {
        format!("error ({kind}): {error} — {why}")
    }
}
