//! The Rust API against a real MCP 2025-11-25 server (the one built from @modelcontextprotocol/sdk
//! 1.32.2, tests/servers/sdk), with wasm-bindgen-test in Node and in headless Chromium: the same
//! functions and types as on a 2026-07-28 server, the generation found by the client itself.
//!
//! `node tests/wasm/run.mjs rust_generations` starts the server and passes its URL in `MCP_SDK_URL`,
//! read at compile time (`option_env!`); without it every test fails, saying how to run it.
#![cfg(target_arch = "wasm32")]
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)]

use mcp_tasks_wasm::{
    call_and_await, call_tool, cancel_task, form_handler, list_tasks, update_task, Answer, AwaitOptions, CallOptions,
    CallOutcome, Cause, ErrorKind, Handlers, HttpClient, HttpOptions, Input, StepOptions, TaskState, WaitOutcome,
};
use serde_json::json;
use std::cell::Cell;
use std::rc::Rc;
use wasm_bindgen_test::wasm_bindgen_test;

const SDK_URL: Option<&str> = option_env!("MCP_SDK_URL");

fn url() -> &'static str {
    SDK_URL.filter(|u| !u.is_empty()).unwrap_or_else(|| {
        panic!("MCP_SDK_URL was not set when tests/rust_generations.rs was compiled: run `node tests/wasm/run.mjs rust_generations`")
    })
}

/// A client whose form handler accepts with `{name: "Ada"}`, counting its calls.
fn client_with_form(calls: Rc<Cell<u32>>) -> HttpClient {
    let form = form_handler(move |_request, _context| {
        calls.set(calls.get() + 1);
        async { Answer::accept(&json!({"name": "Ada"})) }
    });
    let options = HttpOptions {
        input_handlers: Some(Handlers { form: Some(form), ..Handlers::default() }),
        ..HttpOptions::default()
    };
    HttpClient::with_options(url(), options).unwrap()
}

fn text(outcome: &WaitOutcome) -> String {
    match outcome {
        WaitOutcome::Ok(result) => result.text(),
        other => panic!("not ok: {other:?}"),
    }
}

#[wasm_bindgen_test]
async fn a_task_and_its_input_through_the_same_functions() {
    let calls = Rc::new(Cell::new(0));
    let client = client_with_form(calls.clone());
    assert_eq!(client.generation(), None, "unknown before the first request");
    let done = call_and_await(&client, "slow", &json!({"ms": 100}), CallOptions::default(), AwaitOptions::default())
        .await
        .unwrap();
    assert_eq!(text(&done), "slept 100 ms");
    assert_eq!(client.generation().as_deref(), Some("2025-11-25"));
    let asked =
        call_and_await(&client, "ask", &json!({}), CallOptions::default(), AwaitOptions::default()).await.unwrap();
    assert_eq!(text(&asked), "ask: accept {\"name\":\"Ada\"}");
    assert_eq!(calls.get(), 1, "the Rust handler answered once");
}

#[wasm_bindgen_test]
async fn returned_input_then_update_task_then_the_result() {
    let client = HttpClient::new(url()).unwrap();
    let wait = AwaitOptions { input: Input::Return, ..AwaitOptions::default() };
    let out = call_and_await(&client, "ask", &json!({}), CallOptions::default(), wait).await.unwrap();
    let WaitOutcome::InputRequired(needed) = out else { panic!("not input_required: {out:?}") };
    let status = needed.task.expect("a task's status");
    assert_eq!(status.state, TaskState::InputRequired);
    let key = needed.input_requests[0].key.clone();
    assert_eq!(needed.input_requests[0].method, "elicitation/create");
    let answers = json!({ key: {"action": "accept", "content": {"name": "Bob"}} });
    update_task(&client, &status.task_id, &answers, StepOptions::default()).await.unwrap();
    let end = mcp_tasks_wasm::await_task(&client, status.task_id.as_str(), AwaitOptions::default()).await.unwrap();
    assert_eq!(text(&end), "ask: accept {\"name\":\"Bob\"}");
}

#[wasm_bindgen_test]
async fn failed_tasks_cancelled_tasks_plain_tools_and_the_task_list() {
    let client = HttpClient::new(url()).unwrap();
    let failed = call_and_await(&client, "fail_result", &json!({}), CallOptions::default(), AwaitOptions::default())
        .await
        .unwrap();
    let WaitOutcome::Error(e) = failed else { panic!("not an error: {failed:?}") };
    assert_eq!(e.kind, ErrorKind::Server);
    assert!(matches!(e.cause, Some(Cause::TaskFailed { .. })), "{:?}", e.cause);
    assert!(e.data.is_some(), "the stored result is in data.result");

    let plain = call_tool(&client, "echo", &json!({"text": "hi"}), CallOptions::default()).await.unwrap();
    let CallOutcome::Ok(result) = plain else { panic!("not a plain result: {plain:?}") };
    assert_eq!(result.text(), "hi");

    let created = call_tool(&client, "forever", &json!({}), CallOptions::default()).await.unwrap();
    let CallOutcome::Task(status) = created else { panic!("not a task: {created:?}") };
    assert_eq!(status.ttl.map(|t| t.as_millis()), Some(300_000), "the library's own ttl");
    cancel_task(&client, &status.task_id, StepOptions::default()).await.unwrap();
    let end = mcp_tasks_wasm::await_task(&client, status.task_id.as_str(), AwaitOptions::default()).await.unwrap();
    assert!(matches!(end, WaitOutcome::Cancelled(_)), "{end:?}");

    let page = list_tasks(&client, None, StepOptions::default()).await.unwrap();
    assert!(page.tasks.iter().any(|t| t.task_id == status.task_id), "the cancelled task is listed");
}
