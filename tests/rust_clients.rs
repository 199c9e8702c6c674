//! The Rust API's in-process and port clients, and the journal from Rust, with wasm-bindgen-test in
//! Node and headless Chromium (`tests/wasm/run.mjs`). A small task server written in Rust answers
//! through a `DirectClient` (a Rust async handler) and through the far end of a `MessageChannel`
//! (`PortClient`). What is checked: typed outcomes and statuses in order, a result deserialised and
//! still the very object, input answered by a Rust handler (its key and params, the answer reaching
//! the server), a handler's error, `Input::Return`, argument errors as `TypeError`s with nothing sent,
//! a journaled task listed and resumed, and nothing left running.
#![cfg(target_arch = "wasm32")]
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)]

use mcp_tasks_wasm::{
    await_task, call_and_await, call_tool, get_task, handler, on_status, pending_tasks, resume_tasks, Answer,
    AwaitOptions, CallOptions, CallOutcome, Cause, ClientOptions, DirectClient, Error, ErrorKind, Handlers, Input,
    JournalStore, JsClient, PortClient, StepOptions, TaskState, WaitOutcome,
};
use serde::Serialize;
use serde_json::{json, Value};
use std::cell::RefCell;
use std::collections::HashMap;
use std::future::Future;
use std::rc::Rc;
use std::time::Duration;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_test::wasm_bindgen_test;

fn js(v: Value) -> JsValue {
    v.serialize(&serde_wasm_bindgen::Serializer::json_compatible()).unwrap()
}

fn rust(v: &JsValue) -> Value {
    serde_wasm_bindgen::from_value(v.clone()).unwrap_or(Value::Null)
}

/// A task server: `slow` completes after two reads; `ask` asks for a name, then greets it;
/// `missing` tasks are unknown (-32602). Records every method and every `tasks/update`.
#[derive(Default)]
struct Server {
    reads: HashMap<String, u32>,
    names: HashMap<String, String>,
    methods: Vec<String>,
    /// The tasks a `tasks/cancel` named (`forever` tasks then read `cancelled`).
    cancelled: Vec<String>,
    next: u32,
}

impl Server {
    fn handle(&mut self, method: &str, params: &Value) -> Result<Value, Value> {
        self.methods.push(method.to_owned());
        let task = |id: &str, status: &str| json!({"taskId": id, "status": status, "pollIntervalMs": 10, "ttlMs": null, "createdAt": "", "lastUpdatedAt": ""});
        match method {
            "tools/call" => {
                self.next += 1;
                let id = format!("{}-{}", params["name"].as_str().unwrap_or(""), self.next);
                if id.starts_with("rich") {
                    // An immediate result of every content type, with structured content.
                    return Ok(json!({"resultType": "complete", "content": [
                        {"type": "text", "text": "line 1"},
                        {"type": "image", "data": "iVBO", "mimeType": "image/png"},
                        {"type": "resource_link", "uri": "file:///a.txt", "name": "a.txt"},
                        {"type": "text", "text": "line 2"},
                        {"type": "resource", "resource": {"uri": "file:///b.txt", "text": "embedded"}},
                        {"type": "hologram", "beam": 3}
                    ], "structuredContent": {"total": 7}}));
                }
                if id.starts_with("toolerr") {
                    // The tool ran and reported a failure.
                    return Ok(
                        json!({"resultType": "complete", "isError": true, "content": [{"type": "text", "text": "bad input"}]}),
                    );
                }
                let mut t = task(&id, "working");
                t["resultType"] = json!("task");
                Ok(t)
            }
            "tasks/cancel" => {
                let id = params["taskId"].as_str().unwrap_or("").to_owned();
                self.cancelled.push(id);
                Ok(json!({"resultType": "complete"}))
            }
            "tasks/update" => {
                let id = params["taskId"].as_str().unwrap_or("").to_owned();
                let name = params["inputResponses"]["name"]["content"]["name"].as_str().unwrap_or("?").to_owned();
                self.names.insert(id, name);
                Ok(json!({"resultType": "complete"}))
            }
            "tasks/get" => {
                let id = params["taskId"].as_str().unwrap_or("").to_owned();
                if id.starts_with("missing") {
                    return Err(json!({"code": -32602, "message": "unknown task"}));
                }
                let n = self.reads.entry(id.clone()).or_default();
                *n += 1;
                let mut t = if id.starts_with("forever") {
                    // Working until cancelled.
                    task(&id, if self.cancelled.contains(&id) { "cancelled" } else { "working" })
                } else if id.starts_with("ask") {
                    match self.names.get(&id) {
                        Some(name) => {
                            json!({"taskId": id, "status": "completed", "result": {"content": [{"type": "text", "text": format!("hi {name}")}]}})
                        }
                        None => {
                            let mut t = task(&id, "input_required");
                            t["inputRequests"] = json!({"name": {"method": "elicitation/create", "params": {"message": "Name?", "requestedSchema": {"type": "object", "properties": {"name": {"type": "string"}}}}}});
                            t
                        }
                    }
                } else if *n >= 2 {
                    json!({"taskId": id, "status": "completed", "result": {"content": [{"type": "text", "text": "done"}]}})
                } else {
                    let mut t = task(&id, "working");
                    t["statusMessage"] = json!("step 1");
                    t
                };
                t["resultType"] = json!("complete");
                Ok(t)
            }
            _ => Err(json!({"code": -32601, "message": "no such method"})),
        }
    }
}

/// A `DirectClient` over a fresh server (with `options`).
fn direct(options: ClientOptions) -> (DirectClient, Rc<RefCell<Server>>) {
    let server = Rc::new(RefCell::new(Server::default()));
    let s = server.clone();
    let client = DirectClient::with_options(
        move |method, params, _signal| {
            let answer = s.borrow_mut().handle(&method, &rust(&params));
            async move { answer.map(js).map_err(js) }
        },
        options,
    )
    .unwrap();
    (client, server)
}

fn quick() -> AwaitOptions {
    AwaitOptions { min_poll_interval: Some(Duration::from_millis(10)), ..AwaitOptions::default() }
}

fn zero_left() {
    assert_eq!(mcp_tasks_wasm::live_counts(), mcp_tasks_wasm::LiveCounts::default(), "nothing left running");
}

#[derive(serde::Deserialize)]
struct Text {
    text: String,
}

#[derive(serde::Deserialize)]
struct Reply {
    content: Vec<Text>,
}

#[wasm_bindgen_test]
async fn a_direct_client_task_completes_with_typed_statuses_in_order() {
    let (client, server) = direct(ClientOptions::default());
    let seen = Rc::new(RefCell::new(Vec::new()));
    let s = seen.clone();
    let wait = AwaitOptions {
        on_status: Some(on_status(move |st| s.borrow_mut().push((st.state, st.status_message.clone())))),
        ..quick()
    };
    let outcome = call_and_await(&client, "slow", &json!({"ms": 5}), CallOptions::default(), wait).await.unwrap();
    let WaitOutcome::Ok(result) = outcome else { panic!("not ok: {outcome:?}") };
    let reply: Reply = result.deserialize().unwrap();
    assert_eq!(reply.content[0].text, "done");
    assert!(!result.is_error());
    assert_eq!(
        *seen.borrow(),
        [(TaskState::Working, None), (TaskState::Working, Some("step 1".to_owned())), (TaskState::Completed, None)]
    );
    assert_eq!(server.borrow().methods, ["tools/call", "tasks/get", "tasks/get"]);
    zero_left();
}

#[wasm_bindgen_test]
async fn a_rust_handler_answers_the_form_and_the_answer_reaches_the_server() {
    let (client, server) = direct(ClientOptions::default());
    let asked = Rc::new(RefCell::new(Vec::new()));
    let a = asked.clone();
    let form = handler(move |params, context| {
        a.borrow_mut().push((context.key.clone(), rust(&params)["message"].clone()));
        async { Answer::accept(&json!({"name": "Ada"})) }
    });
    let wait = AwaitOptions { input_handlers: Some(Handlers { form: Some(form), ..Handlers::default() }), ..quick() };
    let outcome = call_and_await(&client, "ask", &(), CallOptions::default(), wait).await.unwrap();
    let WaitOutcome::Ok(result) = outcome else { panic!("not ok: {outcome:?}") };
    assert_eq!(result.deserialize::<Reply>().unwrap().content[0].text, "hi Ada");
    assert_eq!(*asked.borrow(), [(Some("name".to_owned()), json!("Name?"))], "asked once, with its key and params");
    assert_eq!(server.borrow().methods.iter().filter(|m| *m == "tasks/update").count(), 1);
    zero_left();
}

#[wasm_bindgen_test]
async fn a_handler_error_ends_the_wait_as_an_execution_error_with_its_reason() {
    let (client, _) = direct(ClientOptions::default());
    let form = handler(|_, _| async { Answer::Error(JsValue::from_str("closed")) });
    let wait = AwaitOptions { input_handlers: Some(Handlers { form: Some(form), ..Handlers::default() }), ..quick() };
    let outcome = call_and_await(&client, "ask", &(), CallOptions::default(), wait).await.unwrap();
    let WaitOutcome::Error(e) = outcome else { panic!("not an error: {outcome:?}") };
    assert_eq!((e.code, e.kind), (-32603, ErrorKind::Execution));
    assert_eq!(e.to_string(), "the input handler for \"name\" did not answer: closed (-32603)", "its text shown");
    assert_eq!(e.last_status().map(|s| s.state), Some(TaskState::InputRequired), "the task still waits");
    match e.cause {
        Some(Cause::InputHandler { key, reason, text, status }) => {
            assert_eq!(key.as_deref(), Some("name"));
            assert_eq!(reason.as_string().as_deref(), Some("closed"));
            assert_eq!(text.as_deref(), Some("closed"));
            assert_eq!(status.map(|s| s.state), Some(TaskState::InputRequired));
        }
        other => panic!("not an input_handler cause: {other:?}"),
    }
    zero_left();
}

/// A wait whose form handler is `form`: the `input_handler` cause it ends with.
async fn failing_form(form: mcp_tasks_wasm::HandlerFn) -> (String, Option<String>, JsValue) {
    let (client, _) = direct(ClientOptions::default());
    let wait = AwaitOptions { input_handlers: Some(Handlers { form: Some(form), ..Handlers::default() }), ..quick() };
    let outcome = call_and_await(&client, "ask", &(), CallOptions::default(), wait).await.unwrap();
    let WaitOutcome::Error(e) = outcome else { panic!("not an error: {outcome:?}") };
    let shown = e.to_string();
    match e.cause {
        Some(Cause::InputHandler { text, reason, status, .. }) => {
            assert_eq!(status.map(|s| s.state), Some(TaskState::InputRequired));
            (shown, text, reason)
        }
        other => panic!("not an input_handler cause: {other:?}"),
    }
}

#[derive(Debug, thiserror::Error)]
enum FormError {
    #[error("the user has no {0}")]
    Missing(&'static str),
}

#[wasm_bindgen_test]
async fn a_handler_may_fail_with_any_error_type_and_its_text_is_kept() {
    use mcp_tasks_wasm::form_handler;
    // serde_json's error, through `?`.
    let serde = form_handler(|_request, _context| async {
        let v: Value = serde_json::from_str("{\"name\": ")?;
        Ok::<_, serde_json::Error>(Answer::accept(&v))
    });
    let (shown, text, reason) = failing_form(serde).await;
    let want = serde_json::from_str::<Value>("{\"name\": ").unwrap_err().to_string();
    assert_eq!(text.as_deref(), Some(want.as_str()));
    assert_eq!(reason.as_string().as_deref(), Some(want.as_str()), "the JS reason is the same text");
    assert!(shown.contains(&want), "{shown}");

    // anyhow, with context.
    let any = form_handler(|_request, _context| async {
        use anyhow::Context as _;
        let n: u32 = "x".parse().context("reading the age")?;
        Ok::<_, anyhow::Error>(Answer::accept(&json!({ "age": n })))
    });
    let (shown, text, _) = failing_form(any).await;
    assert_eq!(text.as_deref(), Some("reading the age"));
    assert!(shown.ends_with("did not answer: reading the age (-32603)"), "{shown}");

    // A thiserror enum, a boxed error, a String.
    let typed = form_handler(|_request, _context| async { Err::<Answer, _>(FormError::Missing("name")) });
    assert_eq!(failing_form(typed).await.1.as_deref(), Some("the user has no name"));
    let boxed = form_handler(|_request, _context| async { Err::<Answer, Box<dyn std::error::Error>>("boxed".into()) });
    assert_eq!(failing_form(boxed).await.1.as_deref(), Some("boxed"));
    let string = form_handler(|_request, _context| async { Err::<Answer, _>(String::from("a string")) });
    assert_eq!(failing_form(string).await.1.as_deref(), Some("a string"));

    // A web-sys failure through `?` into Error::Js keeps its JS value; its text is `name: message`.
    let js = form_handler(|_request, _context| async {
        let thrown: Result<(), JsValue> = Err(js_sys::Error::new("no document").into());
        thrown?;
        Ok::<_, Error>(Answer::decline())
    });
    let (_, text, reason) = failing_form(js).await;
    assert_eq!(text.as_deref(), Some("Error: no document"));
    assert!(reason.is_instance_of::<js_sys::Error>(), "the JS value as it was");
    zero_left();
}

#[wasm_bindgen_test]
async fn input_return_gives_the_typed_input_requests_back() {
    let (client, server) = direct(ClientOptions::default());
    let wait = AwaitOptions { input: Input::Return, ..quick() };
    let outcome = call_and_await(&client, "ask", &(), CallOptions::default(), wait).await.unwrap();
    let WaitOutcome::InputRequired(needed) = outcome else { panic!("not input_required: {outcome:?}") };
    let task = needed.task.expect("a task's status");
    assert_eq!(task.state, TaskState::InputRequired);
    assert_eq!(needed.input_requests.len(), 1);
    assert_eq!(
        (needed.input_requests[0].key.as_str(), needed.input_requests[0].method.as_str()),
        ("name", "elicitation/create")
    );
    assert!(!server.borrow().methods.iter().any(|m| m == "tasks/update"), "nothing answered");
    zero_left();
}

#[wasm_bindgen_test]
async fn wrong_arguments_are_type_errors_and_nothing_is_sent() {
    let (client, server) = direct(ClientOptions::default());
    // One rule for args in both APIs, with the JS functions' message.
    for e in [
        call_tool(&client, "slow", &5, CallOptions::default()).await.unwrap_err(),
        call_tool(&client, "slow", &vec![1, 2], CallOptions::default()).await.unwrap_err(),
    ] {
        assert!(
            matches!(&e, Error::InvalidArgument(m) if m == "callTool: args must be an object (not an array)"),
            "{e:?}"
        );
        assert_eq!(e.to_string(), "callTool: args must be an object (not an array)");
        let thrown = JsValue::from(e);
        assert!(thrown.is_instance_of::<js_sys::TypeError>(), "into JsValue: the JS function's TypeError");
    }
    let e =
        call_and_await(&client, "slow", &"text", CallOptions::default(), AwaitOptions::default()).await.unwrap_err();
    assert_eq!(e.to_string(), "callAndAwait: args must be an object (not an array)");
    let floor_above_ceiling = AwaitOptions {
        min_poll_interval: Some(Duration::from_secs(2)),
        max_poll_interval: Some(Duration::from_secs(1)),
        ..AwaitOptions::default()
    };
    let e = call_and_await(&client, "slow", &(), CallOptions::default(), floor_above_ceiling).await.unwrap_err();
    assert!(matches!(&e, Error::InvalidArgument(m) if m.starts_with("callAndAwait: ")), "{e:?}");
    let journaled = CallOptions { journal: Some(JournalStore::memory().unwrap()), ..CallOptions::default() };
    let e = call_tool(&client, "slow", &(), journaled).await.unwrap_err();
    assert!(matches!(e, Error::InvalidArgument(_)), "a journaled client without an id: {e:?}");
    let id_message = "a journaled client needs an id (HTTP and stdio clients have one; set it on others)";
    assert_eq!(e.to_string(), ["callTool: ", id_message].concat());
    let e = resume_tasks(&client, &JournalStore::memory().unwrap(), AwaitOptions::default(), None).await.unwrap_err();
    assert_eq!(e.to_string(), ["resumeTasks: ", id_message].concat());
    assert!(server.borrow().methods.is_empty(), "nothing sent");
    assert!(JsClient::new(&JsValue::from(3)).is_err());
    zero_left();
}

#[wasm_bindgen_test]
async fn get_task_of_an_unknown_task_is_the_servers_error() {
    let (client, _) = direct(ClientOptions::default());
    let read = get_task(&client, "missing-1", StepOptions::default()).await;
    let Err(Error::Task(e)) = read else { panic!("unknown task: {read:?}") };
    assert_eq!((e.code, e.kind), (-32602, ErrorKind::Server));
    assert!(matches!(e.cause, Some(Cause::RpcError { ref method }) if method == "tasks/get"));
    zero_left();
}

#[wasm_bindgen_test]
async fn a_journaled_task_is_listed_then_resumed_from_rust() {
    let id = ClientOptions { id: Some("in-process".to_owned()), ..ClientOptions::default() };
    let (client, _) = direct(id);
    let store = JournalStore::memory().unwrap();
    let call = CallOptions { journal: Some(store.clone()), ..CallOptions::default() };
    let created = call_tool(&client, "slow", &(), call).await.unwrap();
    let CallOutcome::Task(status) = created else { panic!("not a task: {created:?}") };
    let pending = pending_tasks(&store, Some("in-process")).await.unwrap();
    assert_eq!(pending.len(), 1);
    assert_eq!((pending[0].task_id.as_str(), pending[0].tool.as_deref()), (status.task_id.as_str(), Some("slow")));
    assert!(pending_tasks(&store, Some("elsewhere")).await.unwrap().is_empty());

    let heard = Rc::new(RefCell::new(Vec::new()));
    let h = heard.clone();
    let on_outcome: mcp_tasks_wasm::OnOutcome =
        Rc::new(move |o, task| h.borrow_mut().push((task.task_id.clone(), matches!(o, WaitOutcome::Ok(_)))));
    let done = resume_tasks(&client, &store, quick(), Some(on_outcome)).await.unwrap();
    assert_eq!(done.len(), 1);
    assert_eq!(done[0].task_id, status.task_id);
    assert!(matches!(done[0].outcome, WaitOutcome::Ok(_)), "{:?}", done[0].outcome);
    assert_eq!(*heard.borrow(), [(status.task_id.clone(), true)]);
    assert!(pending_tasks(&store, None).await.unwrap().is_empty(), "a terminal outcome removes the entry");
    zero_left();
}

#[wasm_bindgen_test]
async fn await_task_takes_a_typed_status_or_an_id() {
    let (client, server) = direct(ClientOptions::default());
    let CallOutcome::Task(status) = call_tool(&client, "slow", &(), CallOptions::default()).await.unwrap() else {
        panic!("not a task")
    };
    let by_status = await_task(&client, &status, quick()).await.unwrap();
    assert!(matches!(by_status, WaitOutcome::Ok(_)), "{by_status:?}");
    let by_id = await_task(&client, status.task_id.as_str(), quick()).await.unwrap();
    assert!(matches!(by_id, WaitOutcome::Ok(_)), "{by_id:?}");
    assert_eq!(server.borrow().methods, ["tools/call", "tasks/get", "tasks/get", "tasks/get"]);
    zero_left();
}

/// The far end of a `MessageChannel`: answers each JSON-RPC request with the server's answer.
fn serve_on(port: web_sys::MessagePort, server: Rc<RefCell<Server>>) -> Closure<dyn FnMut(web_sys::MessageEvent)> {
    let reply_port = port.clone();
    let on_message = Closure::new(move |e: web_sys::MessageEvent| {
        let message = rust(&e.data());
        let answer = server.borrow_mut().handle(message["method"].as_str().unwrap_or(""), &message["params"]);
        let reply = match answer {
            Ok(result) => json!({"jsonrpc": "2.0", "id": message["id"], "result": result}),
            Err(error) => json!({"jsonrpc": "2.0", "id": message["id"], "error": error}),
        };
        reply_port.post_message(&js(reply)).unwrap();
    });
    port.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
    port.start();
    on_message
}

#[wasm_bindgen_test]
async fn a_port_client_drives_a_task_behind_a_message_channel() {
    let channel = web_sys::MessageChannel::new().unwrap();
    let server = Rc::new(RefCell::new(Server::default()));
    let _serving = serve_on(channel.port2(), server.clone());
    let client = PortClient::new(channel.port1()).unwrap();
    let outcome = call_and_await(&client, "slow", &(), CallOptions::default(), quick()).await.unwrap();
    let WaitOutcome::Ok(result) = outcome else { panic!("not ok: {outcome:?}") };
    assert_eq!(result.deserialize::<Reply>().unwrap().content[0].text, "done");
    assert_eq!(server.borrow().methods, ["tools/call", "tasks/get", "tasks/get"]);
    client.close();
    channel.port1().close();
    channel.port2().close();
    zero_left();
}

#[wasm_bindgen_test]
async fn a_calls_future_is_static_and_sends_nothing_until_polled() {
    let (client, server) = direct(ClientOptions::default());
    let args = json!({"ms": 5});
    let future = call_and_await(&client, "slow", &args, CallOptions::default(), quick());
    drop((client, args)); // the future owns what it needs
    sleep(30).await;
    assert!(server.borrow().methods.is_empty(), "nothing sent before the first poll");
    let (tx, rx) = mailbox();
    wasm_bindgen_futures::spawn_local(async move {
        let outcome = future.await;
        tx.borrow_mut().replace(outcome);
    });
    while rx.borrow().is_none() {
        sleep(10).await;
    }
    let outcome = rx.borrow_mut().take().unwrap().unwrap();
    assert!(matches!(outcome, WaitOutcome::Ok(_)), "{outcome:?}");
    assert_eq!(server.borrow().methods, ["tools/call", "tasks/get", "tasks/get"]);
    zero_left();
}

/// Sleeps `ms` on a host timer of its own (the module's counts stay the library's alone).
async fn sleep(ms: u64) {
    let promise = js_sys::Promise::new(&mut |resolve, _| {
        let wake = move || drop(resolve.call0(&JsValue::UNDEFINED));
        gloo_timers::callback::Timeout::new(u32::try_from(ms).unwrap_or(u32::MAX), wake).forget();
    });
    let _ = wasm_bindgen_futures::JsFuture::from(promise).await;
}

/// A one-slot mailbox shared by a spawned future and the test.
type Slot = Rc<RefCell<Option<Result<WaitOutcome, Error>>>>;

fn mailbox() -> (Slot, Slot) {
    let slot: Slot = Rc::default();
    (slot.clone(), slot)
}

// ---------------------------------------------------------------------------------------------
// Issue 30: one Error type, per-function outcomes, timeouts told apart, typed results, typed
// handlers, cancel_signal and cancel_on_drop, HttpClient's URL check, live_counts.

/// Every function's failure is one `Error`, so `?` carries it (this compiles: the point).
async fn with_question_marks(client: &DirectClient) -> Result<String, Error> {
    let CallOutcome::Task(status) = call_tool(client, "slow", &(), CallOptions::default()).await? else {
        return Err(Error::InvalidArgument("no task".into()));
    };
    let read = get_task(client, &status.task_id, StepOptions::default()).await?;
    let done = await_task(client, &read, quick()).await?;
    Ok(done.result().map(|r| r.text()).unwrap_or_default())
}

#[wasm_bindgen_test]
async fn every_failure_is_one_error_type_told_apart_by_kind() {
    let (client, _) = direct(ClientOptions::default());
    assert_eq!(with_question_marks(&client).await.unwrap(), "done");

    // The caller's abort: Error::Aborted with the signal's reason; Display without a JS stack.
    let controller = web_sys::AbortController::new().unwrap();
    controller.abort_with_reason(&JsValue::from_str("user left"));
    let wait = AwaitOptions { signal: Some(controller.signal()), ..quick() };
    let e = await_task(&client, "forever-9", wait).await.unwrap_err();
    assert!(matches!(&e, Error::Aborted(r) if r.as_string().as_deref() == Some("user left")), "{e:?}");
    assert_eq!(e.to_string(), "aborted: user left");

    // A callback that throws: Error::Callback with what it threw.
    let thrown: mcp_tasks_wasm::StatusFn = Rc::new(|_| Err(js_sys::Error::new("boom").into()));
    let wait = AwaitOptions { on_status: Some(thrown), ..quick() };
    let CallOutcome::Task(status) = call_tool(&client, "slow", &(), CallOptions::default()).await.unwrap() else {
        panic!()
    };
    let e = await_task(&client, &status, wait).await.unwrap_err();
    assert!(matches!(&e, Error::Callback(v) if v.is_instance_of::<js_sys::Error>()), "{e:?}");
    assert_eq!(e.to_string(), "an application callback failed: Error: boom", "no JS stack in Display");
    let as_js = JsValue::from(e);
    assert!(as_js.is_instance_of::<js_sys::Error>(), "into JsValue: what the JS function rejects with");

    // A step's error answer: Error::Task; std::error::Error is implemented.
    let e = get_task(&client, "missing-2", StepOptions::default()).await.unwrap_err();
    let Error::Task(t) = &e else { panic!("{e:?}") };
    assert_eq!(t.cause.as_ref().map(Cause::as_str), Some("rpc_error"));
    let boxed: Box<dyn std::error::Error> = Box::new(e);
    assert!(boxed.to_string().contains("unknown task"), "{boxed}");
    // Small enough for clippy's `result_large_err` in the apps that return it (statuses are boxed).
    assert!(std::mem::size_of::<Error>() < 128, "{} bytes", std::mem::size_of::<Error>());
    zero_left();
}

#[wasm_bindgen_test]
async fn the_waits_deadline_is_told_from_one_requests_timeout() {
    let (client, _) = direct(ClientOptions::default());
    let wait = AwaitOptions { timeout: Some(Duration::from_millis(60)), ..quick() };
    let WaitOutcome::Error(e) = await_task(&client, "forever-1", wait).await.unwrap() else { panic!("not an error") };
    assert!(e.is_timeout(), "{e:?}");
    assert_eq!(e.code, -32001);
    assert_eq!(e.last_status().map(|s| (s.task_id.as_str(), s.state)), Some(("forever-1", TaskState::Working)));

    // One request that outlives request_timeout: the same code, not the wait's deadline.
    let silent = DirectClient::new(|_method, _params, _signal| async {
        wasm_bindgen_futures::JsFuture::from(js_sys::Promise::new(&mut |_, _| {})).await
    })
    .unwrap();
    let wait = AwaitOptions { request_timeout: Some(Duration::from_millis(30)), retries: Some(0), ..quick() };
    let WaitOutcome::Error(e) = await_task(&silent, "t-1", wait).await.unwrap() else { panic!("not an error") };
    assert_eq!(e.code, -32001);
    assert!(!e.is_timeout(), "a request's timeout is not the wait's: {e:?}");
    assert_eq!(e.cause.as_ref().map(Cause::as_str), Some("request_timeout"));
    assert!(e.last_status().is_none(), "nothing was read");
    zero_left();
}

#[wasm_bindgen_test]
async fn a_result_reads_as_its_text_typed_blocks_and_structured_content() {
    use mcp_tasks_wasm::Content;
    let (client, _) = direct(ClientOptions::default());
    let CallOutcome::Ok(result) = call_tool(&client, "rich", &(), CallOptions::default()).await.unwrap() else {
        panic!()
    };
    assert_eq!(result.text(), "line 1\nline 2", "the text blocks joined, as resultText");
    let blocks = result.content();
    assert_eq!(blocks.len(), 6);
    assert!(matches!(&blocks[1], Content::Image { mime_type, .. } if mime_type == "image/png"));
    assert!(matches!(&blocks[2], Content::ResourceLink { uri, name } if uri == "file:///a.txt" && name == "a.txt"));
    assert!(matches!(&blocks[4], Content::Resource { text: Some(t), blob: None, .. } if t == "embedded"));
    assert!(matches!(&blocks[5], Content::Other(v) if rust(v)["beam"] == 3), "an unknown type kept as it came");
    #[derive(serde::Deserialize)]
    struct Total {
        total: u32,
    }
    assert_eq!(result.structured::<Total>().unwrap().map(|t| t.total), Some(7));
    assert!(matches!(result.structured::<Vec<u8>>(), Err(Error::InvalidArgument(_))), "a mismatch is an error");
    zero_left();
}

#[wasm_bindgen_test]
async fn typed_handlers_read_the_request_and_may_use_question_marks() {
    use mcp_tasks_wasm::{form_handler, Answer};
    let (plain, server) = direct(ClientOptions::default());
    let asked = Rc::new(RefCell::new(Vec::new()));
    let a = asked.clone();
    let form = form_handler(move |request, _context| {
        let a = a.clone();
        async move {
            let fields = request.fields()?;
            a.borrow_mut().push((request.message.clone(), fields.clone()));
            Ok::<_, Error>(Answer::accept(&json!({ fields[0].clone(): "Typed" })))
        }
    });
    let wait = AwaitOptions { input_handlers: Some(Handlers { form: Some(form), ..Handlers::default() }), ..quick() };
    let outcome = call_and_await(&plain, "ask", &(), CallOptions::default(), wait).await.unwrap();
    assert_eq!(outcome.result().map(|r| r.text()), Some("hi Typed".to_owned()), "{outcome:?}");
    assert_eq!(*asked.borrow(), [("Name?".to_owned(), vec!["name".to_owned()])]);
    assert!(server.borrow().methods.iter().any(|m| m == "tasks/update"));

    // An Err from the handler is its `{tag: "error", reason}`: an execution error carrying it.
    let failing =
        form_handler(|_request, _context| async { Err::<Answer, _>(Error::Js(JsValue::from_str("no form here"))) });
    let wait =
        AwaitOptions { input_handlers: Some(Handlers { form: Some(failing), ..Handlers::default() }), ..quick() };
    let WaitOutcome::Error(e) = call_and_await(&plain, "ask", &(), CallOptions::default(), wait).await.unwrap() else {
        panic!("not an error")
    };
    assert_eq!(e.kind, ErrorKind::Execution);
    assert!(
        matches!(&e.cause, Some(Cause::InputHandler { reason, .. }) if reason.as_string().as_deref() == Some("no form here"))
    );

    // Answer::cancel is the ElicitResult {action: "cancel"}.
    let cancel = form_handler(|_request, _context| async { Answer::cancel() });
    let wait = AwaitOptions { input_handlers: Some(Handlers { form: Some(cancel), ..Handlers::default() }), ..quick() };
    let (client, server) = direct(ClientOptions::default());
    let timeout = AwaitOptions { timeout: Some(Duration::from_millis(200)), ..wait };
    let _ = call_and_await(&client, "ask", &(), CallOptions::default(), timeout).await.unwrap();
    assert!(server.borrow().methods.iter().any(|m| m == "tasks/update"), "the cancel was sent as the answer");
    zero_left();
}

#[wasm_bindgen_test]
async fn cancel_signal_cancels_in_one_step_and_cancel_on_drop_cancels_a_dropped_wait() {
    let (client, server) = direct(ClientOptions::default());
    let button = web_sys::AbortController::new().unwrap();
    button.abort();
    let wait = AwaitOptions { cancel_signal: Some(button.signal()), ..quick() };
    let outcome = call_and_await(&client, "forever", &(), CallOptions::default(), wait).await.unwrap();
    assert!(matches!(&outcome, WaitOutcome::Cancelled(s) if s.state == TaskState::Cancelled), "{outcome:?}");
    assert_eq!(server.borrow().cancelled.len(), 1);

    // The losing branch of a select: dropped, its task is cancelled (best effort, detached).
    let wait = AwaitOptions { cancel_on_drop: true, ..quick() };
    let mut waiting = Box::pin(call_and_await(&client, "forever", &(), CallOptions::default(), wait));
    let mut timer = Box::pin(sleep(80));
    let first = std::future::poll_fn(|cx| {
        if let std::task::Poll::Ready(o) = waiting.as_mut().poll(cx) {
            return std::task::Poll::Ready(Some(o));
        }
        timer.as_mut().poll(cx).map(|()| None)
    })
    .await;
    assert!(first.is_none(), "the timer won");
    drop(waiting);
    sleep(30).await;
    assert_eq!(server.borrow().cancelled.len(), 2, "the dropped wait's task was cancelled");
    // Without cancel_on_drop, a dropped wait leaves its task alone.
    let mut waiting = Box::pin(call_and_await(&client, "forever", &(), CallOptions::default(), quick()));
    let _ = std::future::poll_fn(|cx| {
        let _ = waiting.as_mut().poll(cx);
        std::task::Poll::Ready(())
    })
    .await;
    sleep(50).await;
    drop(waiting);
    sleep(30).await;
    assert_eq!(server.borrow().cancelled.len(), 2);
    zero_left();
}

#[wasm_bindgen_test]
async fn http_client_new_rejects_what_is_not_an_absolute_http_url_and_live_counts_are_zero() {
    use mcp_tasks_wasm::{live_counts, HttpClient, LiveCounts};
    for bad in ["not a url", "/mcp", "ftp://host/mcp", "http://user:secret@host/mcp", "https://"] {
        let e = HttpClient::new(bad).unwrap_err();
        assert!(matches!(&e, Error::InvalidArgument(m) if m.contains("absolute http")), "{bad}: {e:?}");
    }
    assert!(HttpClient::new("https://mcp.example.com/mcp").is_ok());
    assert!(HttpClient::new("http://127.0.0.1:8787/mcp").is_ok());
    assert_eq!(live_counts(), LiveCounts::default());
}

#[wasm_bindgen_test]
async fn into_result_and_the_predicates_give_results_and_errors_for_question_marks() {
    use mcp_tasks_wasm::{codes, Called};
    let (client, _) = direct(ClientOptions::default());
    let run = |tool: &'static str, wait: AwaitOptions| {
        let client = client.clone();
        async move { call_and_await(&client, tool, &(), CallOptions::default(), wait).await.unwrap().into_result() }
    };
    assert_eq!(run("slow", quick()).await.unwrap().text(), "done", "the result is Ok");
    let e = run("toolerr", quick()).await.unwrap_err();
    assert!(matches!(&e, Error::ToolError(r) if r.text() == "bad input"), "isError is an Err: {e:?}");
    assert_eq!(e.to_string(), "the tool failed: bad input");
    let e = run("ask", AwaitOptions { input: Input::Return, ..quick() }).await.unwrap_err();
    assert!(matches!(&e, Error::InputRequired(i) if i.input_requests.len() == 1), "{e:?}");

    // A cancelled task.
    let button = web_sys::AbortController::new().unwrap();
    button.abort();
    let e = run("forever", AwaitOptions { cancel_signal: Some(button.signal()), ..quick() }).await.unwrap_err();
    assert!(matches!(&e, Error::Cancelled(s) if s.state == TaskState::Cancelled), "{e:?}");

    // The deadline: Error::Task, told apart by the predicates (no code to remember).
    let e = run("forever", AwaitOptions { timeout: Some(Duration::from_millis(60)), ..quick() }).await.unwrap_err();
    assert!(e.is_timeout() && !e.is_not_found(), "{e:?}");
    let task = e.task_error().unwrap();
    assert!(task.is_timeout() && !task.is_request_timeout() && task.code == codes::TIMEOUT);
    assert_eq!(task.last_status().map(|s| s.state), Some(TaskState::Working), "the task goes on");
    assert!(task.task_id.as_deref().is_some_and(|id| id.starts_with("forever")), "and is named: {:?}", task.task_id);

    // An unknown task: is_not_found, on the step's Error and on its TaskError; a method the server lacks.
    let e = get_task(&client, "missing-1", StepOptions::default()).await.unwrap_err();
    assert!(e.is_not_found(), "{e:?}");
    assert_eq!(e.task_error().map(|t| t.code), Some(codes::INVALID_PARAMS));
    let e = mcp_tasks_wasm::list_tasks(&client, None, StepOptions::default()).await.unwrap_err();
    assert!(e.task_error().is_some_and(|t| t.is_method_not_found() && !t.is_not_found()), "{e:?}");

    // callTool: the task it created, or the result at once; a tool error is an Err.
    let created = call_tool(&client, "slow", &(), CallOptions::default()).await.unwrap().into_result().unwrap();
    assert!(matches!(created, Called::Task(s) if s.state == TaskState::Working));
    let done = call_tool(&client, "rich", &(), CallOptions::default()).await.unwrap().into_result().unwrap();
    assert!(matches!(done, Called::Done(r) if r.text().starts_with("line 1")));
    let failed = call_tool(&client, "toolerr", &(), CallOptions::default()).await.unwrap().into_result();
    assert!(matches!(failed, Err(Error::ToolError(_))));
    zero_left();
}

#[wasm_bindgen_test]
fn a_form_schema_reads_every_kind_of_field_and_the_params_deserialize() {
    use mcp_tasks_wasm::{Choice, FieldKind, FormRequest, TextFormat};
    // Parsed by JS (serde_json's json! sorts keys): the schema's order is the fields' order.
    let schema_js = js_sys::JSON::parse(r#"{"type": "object", "required": ["email", "age", "ghost"], "properties": {
        "email": {"type": "string", "title": "E-mail", "format": "email", "minLength": 3, "maxLength": 80, "default": "a@b.c"},
        "age": {"type": "integer", "description": "in years", "minimum": 0, "maximum": 150.5, "default": 30},
        "agree": {"type": "boolean", "default": true},
        "size": {"type": "string", "enum": ["s", "m"], "enumNames": ["Small"], "default": "m"},
        "color": {"type": "string", "oneOf": [{"const": "r", "title": "Red"}, {"const": "g"}, {"title": "no const"}]},
        "tags": {"type": "array", "minItems": 1, "maxItems": 2.5, "items": {"anyOf": [{"const": "x", "title": "X"}]}, "default": ["x"]},
        "when": {"type": "string", "format": "date-time"},
        "blob": {"type": "object"}
    }}"#)
    .unwrap();
    let schema = rust(&schema_js);
    let params = json!({"message": "Who?", "requestedSchema": schema});
    let request = FormRequest { message: "Who?".into(), requested_schema: schema_js, params: js(params) };
    let s = request.schema().unwrap();
    let names: Vec<&str> = s.fields.iter().map(|f| f.name.as_str()).collect();
    assert_eq!(names, ["email", "age", "agree", "size", "color", "tags", "when", "blob"], "in the schema's order");
    let email = s.field("email").unwrap();
    assert_eq!((email.title.as_deref(), email.required), (Some("E-mail"), true));
    assert!(
        matches!(&email.kind, FieldKind::Text { min_length: Some(3), max_length: Some(80), format: Some(TextFormat::Email), default: Some(d) } if d == "a@b.c")
    );
    let age = s.field("age").unwrap();
    assert_eq!(age.description.as_deref(), Some("in years"));
    assert!(
        matches!(age.kind, FieldKind::Number { integer: true, minimum: Some(m), maximum: Some(x), default: Some(d) } if m == 0.0 && x == 150.5 && d == 30.0)
    );
    assert!(matches!(s.field("agree").unwrap().kind, FieldKind::Boolean { default: Some(true) }));
    assert!(!s.field("agree").unwrap().required);
    let FieldKind::Choice { options, default } = &s.field("size").unwrap().kind else { panic!("size") };
    assert_eq!(
        options,
        &[Choice { value: "s".into(), title: Some("Small".into()) }, Choice { value: "m".into(), title: None }]
    );
    assert_eq!(default.as_deref(), Some("m"));
    let FieldKind::Choice { options, .. } = &s.field("color").unwrap().kind else { panic!("color") };
    assert_eq!(
        options,
        &[Choice { value: "r".into(), title: Some("Red".into()) }, Choice { value: "g".into(), title: None }],
        "an option without const is left out"
    );
    let FieldKind::MultiChoice { options, min_items, max_items, default } = &s.field("tags").unwrap().kind else {
        panic!("tags")
    };
    assert_eq!(
        (options.len(), *min_items, *max_items, default.as_slice()),
        (1, Some(1), None, ["x".to_owned()].as_slice()),
        "a fractional bound is no bound"
    );
    assert!(matches!(&s.field("when").unwrap().kind, FieldKind::Text { format: Some(TextFormat::DateTime), .. }));
    assert!(matches!(s.field("blob").unwrap().kind, FieldKind::Other));
    assert_eq!(request.required(), ["email", "age"], "a required name without a field is not a field");

    #[derive(serde::Deserialize)]
    #[serde(rename_all = "camelCase")]
    struct Asked {
        message: String,
        requested_schema: Value,
    }
    let asked: Asked = request.deserialize().unwrap();
    assert_eq!((asked.message.as_str(), asked.requested_schema["type"].as_str()), ("Who?", Some("object")));
    assert!(matches!(request.deserialize::<Vec<u8>>(), Err(Error::InvalidArgument(_))));

    let broken =
        FormRequest { message: String::new(), requested_schema: js(json!({"properties": []})), params: JsValue::NULL };
    assert!(matches!(broken.schema(), Err(Error::InvalidArgument(_))));
    assert!(broken.required().is_empty() && broken.fields().is_err());
}

#[wasm_bindgen_test]
async fn a_cancel_handle_cancels_a_wait_as_a_button_from_a_clone_or_a_dropped_guard() {
    use mcp_tasks_wasm::CancelHandle;
    let (client, server) = direct(ClientOptions::default());
    // The button pressed while the wait runs (from a clone, as a click handler holds it).
    let cancel = CancelHandle::new();
    let button = cancel.clone();
    let wait = AwaitOptions { cancel_signal: cancel.signal(), ..quick() };
    wasm_bindgen_futures::spawn_local(async move {
        sleep(30).await;
        button.cancel();
        button.cancel(); // twice is once
    });
    let outcome = call_and_await(&client, "forever", &(), CallOptions::default(), wait).await.unwrap();
    assert!(matches!(outcome, WaitOutcome::Cancelled(s) if s.state == TaskState::Cancelled));
    assert!(cancel.is_cancelled());
    assert_eq!(server.borrow().cancelled.len(), 1, "one tasks/cancel");

    // A dropped guard cancels.
    let cancel = CancelHandle::new();
    let guard = cancel.guard();
    assert!(!cancel.is_cancelled());
    drop(guard);
    assert!(cancel.is_cancelled());
    let wait = AwaitOptions { cancel_signal: cancel.signal(), ..quick() };
    let outcome = call_and_await(&client, "forever", &(), CallOptions::default(), wait).await.unwrap();
    assert!(matches!(outcome, WaitOutcome::Cancelled(_)));

    // As `signal`: the call ends at once with Error::Aborted.
    let stop = CancelHandle::new();
    stop.cancel();
    let wait = AwaitOptions { signal: stop.signal(), ..quick() };
    let e = call_and_await(&client, "forever", &(), CallOptions::default(), wait).await.unwrap_err();
    assert!(matches!(e, Error::Aborted(_)), "{e:?}");
    zero_left();
}
