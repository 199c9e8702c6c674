//! An app on the packed crate (tests/crate/run.mjs): its own global allocator — which a crate that set
//! one would make a build error — and one export of its own, running a task the README's way.

use mcp_tasks_wasm::{call_and_await, AwaitOptions, CallOptions, HttpClient, WaitOutcome};
use wasm_bindgen::prelude::*;

/// The app's allocator (std's): a plain dependency on the crate leaves this choice to the app.
#[global_allocator]
static ALLOCATOR: std::alloc::System = std::alloc::System;

/// Runs `tool` on the server at `url`: its text, or the tag of what else the wait ended with.
#[wasm_bindgen]
pub async fn run(url: String, tool: String) -> Result<JsValue, JsValue> {
    let client = HttpClient::new(&url)?;
    let args = serde_json::json!({ "ms": 300 });
    let outcome = call_and_await(&client, &tool, &args, CallOptions::default(), AwaitOptions::default()).await?;
    Ok(match outcome {
        WaitOutcome::Ok(result) => result.text().into(),
        WaitOutcome::Error(_) => "error".into(),
        WaitOutcome::Cancelled(_) => "cancelled".into(),
        WaitOutcome::InputRequired(_) => "input_required".into(),
    })
}
