//! The public Rust API (the crate root: `call_tool`, `await_task`, `call_and_await`, `get_task`,
//! `update_task`, `cancel_task`, `HttpClient`, `handler`, `on_status`, the typed `CallOutcome`/`WaitOutcome`, `Error`,
//! `TaskError`, `Cause`, `TaskStatus`) against real HTTP servers, with wasm-bindgen-test in Node and
//! in headless Chromium (where every request is a real cross-origin `fetch`).
//!
//! The servers: the project's test server (tests/server, 20 ms polls; the only one with
//! `subscriptions/listen` and a request log at `/_test/log`), rmcp 3.11.0 and fastmcp-tasks 4.1.4
//! (tests/servers, 100 ms polls).
//!
//! How the test learns where they are: `node tests/wasm/run.mjs rust_api` starts the three servers
//! first, then builds and runs this file with their URLs in `MCP_TEST_URL`, `MCP_RMCP_URL` and
//! `MCP_FASTMCP_URL`, read here at compile time with `option_env!` (cargo rebuilds the test when they
//! change). There is no skip: a test whose URL was not given at compile time FAILS, with a message
//! that says how to run it. A plain `cargo test --target wasm32-unknown-unknown --test rust_api`
//! without the runner therefore fails every test, which is intended: these tests exist only to talk
//! to real servers, and a test that passes without one would test nothing.
//!
//! Every request goes through [`Counting`], a [`Client`] that wraps the [`HttpClient`] and records each
//! request (method, params, signal, the reply once it settles): the tests check what was sent (and
//! what was not), that signals of requests in flight are aborted, that results are the very objects
//! the client resolved with, and that statuses carry the Task's fields as read.
#![cfg(target_arch = "wasm32")]
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)]

mod support;
use js_sys::{Function, Object, Promise, Reflect};
use mcp_tasks_wasm::{
    await_task, call_and_await, call_tool, cancel_task, get_task, handler, on_status, update_task, Answer,
    AwaitOptions, CallOptions, CallOutcome, Cause, Client, Error, ErrorKind, Handlers, HttpClient, Input, Reply,
    RequestOptions, StepOptions, TaskState, TaskStatus, ToolResult, WaitOutcome,
};
use serde::Deserialize;
use serde_json::{json, Value};
use std::cell::RefCell;
use std::future::{poll_fn, Future};
use std::pin::Pin;
use std::rc::Rc;
use std::task::Poll;
use std::time::Duration;
use support::join;
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;
use wasm_bindgen_test::wasm_bindgen_test;

// ---------------------------------------------------------------------------------------------
// The servers

const TEST_URL: Option<&str> = option_env!("MCP_TEST_URL");
const RMCP_URL: Option<&str> = option_env!("MCP_RMCP_URL");
const FASTMCP_URL: Option<&str> = option_env!("MCP_FASTMCP_URL");

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Server {
    /// The project's test server (tests/server).
    Test,
    /// rmcp 3.11.0 (tests/servers/rmcp).
    Rmcp,
    /// fastmcp-tasks 4.1.4 (tests/servers/fastmcp).
    Fastmcp,
}

impl Server {
    fn url(self) -> &'static str {
        let (url, var) = match self {
            Self::Test => (TEST_URL, "MCP_TEST_URL"),
            Self::Rmcp => (RMCP_URL, "MCP_RMCP_URL"),
            Self::Fastmcp => (FASTMCP_URL, "MCP_FASTMCP_URL"),
        };
        url.filter(|u| !u.is_empty()).unwrap_or_else(|| {
            panic!(
                "{var} was not set when tests/rust_api.rs was compiled: run it with `node tests/wasm/run.mjs rust_api`, \
                 which starts the {self:?} server and passes its URL"
            )
        })
    }

    /// The `pollIntervalMs` the server was started with (tests/wasm/run.mjs, tests/interop/servers.mjs).
    fn poll_ms(self) -> u32 {
        match self {
            Self::Test => 20,
            Self::Rmcp | Self::Fastmcp => 100,
        }
    }

    /// The message of the `fail` tool's error.
    fn fail_message(self) -> &'static str {
        match self {
            Self::Test => "tool crashed",
            Self::Rmcp => "intentional failure",
            Self::Fastmcp => "deliberate failure",
        }
    }
}

/// Defines one `#[wasm_bindgen_test]` per server for the async case `$case(server)`, in a module of
/// the case's name (the tests are then `<case>::test_server`, `<case>::rmcp`, `<case>::fastmcp`).
macro_rules! on_servers {
    ($case:ident: $($test:ident => $server:ident),+ $(,)?) => {
        mod $case {
            use super::*;
            $(
                #[wasm_bindgen_test]
                async fn $test() {
                    super::$case(Server::$server).await;
                }
            )+
        }
    };
    ($case:ident) => {
        on_servers!($case: test_server => Test, rmcp => Rmcp, fastmcp => Fastmcp);
    };
}

// ---------------------------------------------------------------------------------------------
// The counting client

/// One request as the library made it.
struct Sent {
    method: String,
    params: JsValue,
    signal: web_sys::AbortSignal,
    /// The settlement of the client's reply, once it settled (for a listen: once the stream opened).
    reply: Rc<RefCell<Option<Result<JsValue, JsValue>>>>,
}

impl Sent {
    fn settled(&self) -> bool {
        self.reply.borrow().is_some()
    }
    fn task_id(&self) -> Option<String> {
        get(&self.params, "taskId").and_then(|v| v.as_string())
    }
    /// The value the reply resolved with (`None`: pending or rejected).
    fn value(&self) -> Option<JsValue> {
        self.reply.borrow().as_ref().and_then(|r| r.as_ref().ok().cloned())
    }
}

/// An [`HttpClient`] that records every request it is asked to send.
#[derive(Clone)]
struct Counting {
    inner: HttpClient,
    sent: Rc<RefCell<Vec<Sent>>>,
}

impl Counting {
    fn new(server: Server) -> Self {
        Self { inner: HttpClient::new(server.url()).unwrap(), sent: Rc::default() }
    }

    fn record(&self, method: &str, params: JsValue, signal: web_sys::AbortSignal, reply: Reply) -> Reply {
        let slot = Rc::new(RefCell::new(None));
        self.sent.borrow_mut().push(Sent { method: method.to_owned(), params, signal, reply: slot.clone() });
        Box::pin(async move {
            let r = reply.await;
            *slot.borrow_mut() = Some(r.clone());
            r
        })
    }

    fn len(&self) -> usize {
        self.sent.borrow().len()
    }

    fn methods(&self) -> Vec<String> {
        self.sent.borrow().iter().map(|s| s.method.clone()).collect()
    }

    fn count(&self, method: &str) -> usize {
        self.sent.borrow().iter().filter(|s| s.method == method).count()
    }

    /// The value of the last settled `method` request.
    fn last_value(&self, method: &str) -> Option<JsValue> {
        self.sent.borrow().iter().rev().filter(|s| s.method == method).find_map(Sent::value)
    }

    /// The task id the first `tools/call` created.
    fn created_task_id(&self) -> String {
        let sent = self.sent.borrow();
        let call = sent.iter().find(|s| s.method == "tools/call").expect("a tools/call was sent");
        call.value().and_then(|v| get(&v, "taskId")).and_then(|v| v.as_string()).expect("the tools/call created a task")
    }

    /// Every request that had not settled: its signal must be aborted.
    fn unsettled_signals_aborted(&self) -> Vec<(String, bool)> {
        self.sent.borrow().iter().filter(|s| !s.settled()).map(|s| (s.method.clone(), s.signal.aborted())).collect()
    }
}

impl Client for Counting {
    fn request(&self, method: &str, params: JsValue, options: RequestOptions) -> Reply {
        let signal = options.signal.clone();
        let reply = self.inner.request(method, params.clone(), options);
        self.record(method, params, signal, reply)
    }
    fn listen(&self, params: JsValue, signal: web_sys::AbortSignal) -> Option<Reply> {
        let reply = self.inner.listen(params.clone(), signal.clone())?;
        Some(self.record("subscriptions/listen", params, signal, reply))
    }
    fn client_capabilities(&self) -> Option<JsValue> {
        self.inner.client_capabilities()
    }
    fn request_timeout(&self) -> Option<Duration> {
        self.inner.request_timeout()
    }
    fn input_handlers(&self) -> Handlers {
        self.inner.input_handlers()
    }
    fn id(&self) -> Option<String> {
        self.inner.id()
    }
}

// ---------------------------------------------------------------------------------------------
// Helpers

/// A JS value as JSON (for comparing and printing).
fn json_of(v: &JsValue) -> Value {
    serde_wasm_bindgen::from_value(v.clone()).unwrap_or(Value::Null)
}

fn get(v: &JsValue, key: &str) -> Option<JsValue> {
    if !v.is_object() {
        return None;
    }
    Reflect::get(v, &key.into()).ok().filter(|x| !x.is_undefined())
}

fn global_fn(name: &str) -> Function {
    Reflect::get(&js_sys::global(), &name.into()).unwrap().unchecked_into()
}

/// Sleeps on a plain `setTimeout` (not the library's timer).
async fn sleep(ms: u32) {
    let promise = Promise::new(&mut |resolve, _| {
        global_fn("setTimeout").call2(&js_sys::global(), &resolve, &ms.into()).unwrap();
    });
    JsFuture::from(promise).await.unwrap();
}

fn now() -> f64 {
    js_sys::Date::now()
}

/// What the test server received so far (`GET /_test/log`): `{method, taskId?, taskIds?, at, …}`.
async fn test_server_log() -> Vec<Value> {
    let url = Server::Test.url();
    let log_url = [url.strip_suffix("/mcp").unwrap_or(url), "/_test/log"].concat();
    let response =
        JsFuture::from(Promise::from(global_fn("fetch").call1(&js_sys::global(), &log_url.as_str().into()).unwrap()))
            .await
            .unwrap();
    let json: Function = get(&response, "json").unwrap().unchecked_into();
    let v = JsFuture::from(Promise::from(json.call0(&response).unwrap())).await.unwrap();
    serde_wasm_bindgen::from_value(v).unwrap()
}

/// The test server's log entries about `task_id` (tasks/* by `taskId`, listens by `taskIds`).
async fn test_server_log_of(task_id: &str) -> Vec<Value> {
    test_server_log()
        .await
        .into_iter()
        .filter(|e| {
            e["taskId"] == task_id || e["taskIds"].as_array().is_some_and(|ids| ids.iter().any(|i| i == task_id))
        })
        .collect()
}

/// Options of a wait that is expected to end well within its bound.
fn wait_options(server: Server) -> AwaitOptions {
    AwaitOptions {
        timeout: Some(Duration::from_secs(5)),
        min_poll_interval: Some(Duration::from_millis(10)),
        poll_interval: Some(Duration::from_millis(u64::from(server.poll_ms()))),
        ..AwaitOptions::default()
    }
}

/// A `CallToolResult` as a Rust app reads it.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
struct CallToolResult {
    content: Vec<Block>,
    #[serde(default)]
    is_error: Option<bool>,
}

#[derive(Debug, Deserialize)]
struct Block {
    #[serde(rename = "type")]
    kind: String,
    text: String,
}

/// The one text of a result, read through serde.
fn text_of(result: &ToolResult) -> String {
    let r: CallToolResult = result.deserialize().unwrap_or_else(|e| panic!("not a CallToolResult: {e:?}"));
    assert_eq!(r.content.len(), 1, "one content block: {r:?}");
    assert_eq!(r.content[0].kind, "text");
    assert_eq!(result.text(), r.content[0].text, "ToolResult::text() reads the same text");
    r.content[0].text.clone()
}

/// `call_tool` that must create a task: its typed status.
async fn create(client: &Counting, tool: &str, args: &Value) -> TaskStatus {
    match call_tool(client, tool, args, CallOptions::default()).await.unwrap() {
        CallOutcome::Task(status) => status,
        other => panic!("{tool}: not a task: {other:?}"),
    }
}

/// Cancels a task left running (cleanup; checked to be acknowledged).
async fn cleanup(server: Server, task_id: &str) {
    let client = HttpClient::new(server.url()).unwrap();
    let ack = cancel_task(&client, task_id, StepOptions::default()).await;
    assert!(ack.is_ok(), "cleanup: tasks/cancel acknowledged: {ack:?}");
}

/// Polls `future` until `stop()` holds after a poll (checked after every poll, so a request the
/// future just sent is still in flight); panics if the future ends first.
async fn run_until<F: Future + Unpin>(future: &mut F, what: &str, mut stop: impl FnMut() -> bool)
where
    F::Output: std::fmt::Debug,
{
    poll_fn(|cx| match Pin::new(&mut *future).poll(cx) {
        Poll::Ready(out) => panic!("the call ended before {what}: {out:?}"),
        Poll::Pending if stop() => Poll::Ready(()),
        Poll::Pending => Poll::Pending,
    })
    .await;
}

/// A status's `value` is the Task object as read (`read`, the reply of `tasks/get`): the very same
/// field values (`result` and `error` the very objects), without the envelope's `resultType`/`_meta`.
fn assert_status_is(status: &TaskStatus, read: &JsValue) {
    let keys = |v: &JsValue| -> Vec<String> {
        Object::keys(v.unchecked_ref::<Object>()).iter().filter_map(|k| k.as_string()).collect()
    };
    let sent: Vec<String> = keys(read).into_iter().filter(|k| k != "resultType" && k != "_meta").collect();
    let mut given = keys(&status.value);
    let mut expected = sent.clone();
    given.sort();
    expected.sort();
    assert_eq!(given, expected, "the status's fields are the Task's as sent: {}", json_of(&status.value));
    for k in &sent {
        assert!(
            Object::is(&get(&status.value, k).unwrap_or_default(), &get(read, k).unwrap_or_default()),
            "status field {k} is the value as sent"
        );
    }
}

/// Collects the typed statuses `on_status` gives.
fn status_log() -> (Rc<RefCell<Vec<TaskStatus>>>, mcp_tasks_wasm::StatusFn) {
    let log: Rc<RefCell<Vec<TaskStatus>>> = Rc::default();
    let l = log.clone();
    (log, on_status(move |s| l.borrow_mut().push(s.clone())))
}

fn states(statuses: &[TaskStatus]) -> Vec<(TaskState, Option<String>)> {
    statuses.iter().map(|s| (s.state, s.status_message.clone())).collect()
}

// ---------------------------------------------------------------------------------------------
// A task that completes

on_servers!(ok);
/// `slow` through `call_and_await`: `WaitOutcome::Ok` whose result deserialises into a Rust struct and
/// whose `value` is the very result object the last `tasks/get` resolved with; `on_status` gives each new
/// status once, typed and in order, ending with the completed one (the Task as read).
async fn ok(server: Server) {
    let client = Counting::new(server);
    let (statuses, status_fn) = status_log();
    let wait = AwaitOptions { on_status: Some(status_fn), ..wait_options(server) };
    let args = json!({"ms": 300});
    let outcome = call_and_await(&client, "slow", &args, CallOptions::default(), wait).await.unwrap();
    let WaitOutcome::Ok(result) = outcome else { panic!("{server:?}: not ok: {outcome:?}") };

    let r: CallToolResult = result.deserialize().unwrap();
    assert_eq!(r.content.len(), 1, "{r:?}");
    assert_eq!((r.content[0].kind.as_str(), r.content[0].text.as_str()), ("text", "slept 300 ms"));
    assert_ne!(r.is_error, Some(true));
    assert!(!result.is_error());

    // The result is the JS object the client resolved with, not a copy.
    let last_read = client.last_value("tasks/get").expect("a settled tasks/get");
    let sent_result = get(&last_read, "result").expect("the completed status carries its result");
    assert!(Object::is(&result.value, &sent_result), "WaitOutcome::Ok's value is the very result object");
    let text = get(&result.value, "content")
        .map(|c| js_sys::Array::from(&c).get(0))
        .and_then(|b| get(&b, "text"))
        .and_then(|t| t.as_string());
    assert_eq!(text.as_deref(), Some("slept 300 ms"), "value is the JS object itself");

    // on_status: typed, in order, each a new status, ending completed.
    let id = client.created_task_id();
    let statuses = statuses.borrow();
    assert!(statuses.iter().all(|s| s.task_id == id), "every status is the task's");
    let seen = states(&statuses);
    assert_eq!(seen.first().map(|s| &s.0), Some(&TaskState::Working), "{seen:?}");
    assert_eq!(seen.last().map(|s| &s.0), Some(&TaskState::Completed), "{seen:?}");
    assert!(seen.windows(2).all(|w| w[0] != w[1]), "each status reported once: {seen:?}");
    assert!(seen[..seen.len() - 1].iter().all(|s| s.0 == TaskState::Working), "{seen:?}");
    assert_status_is(statuses.last().unwrap(), &last_read);
    assert_eq!(statuses[0].poll_interval, Some(Duration::from_millis(server.poll_ms().into())));
    if server == Server::Test {
        // The test server's `slow` reports step i/3 every 100 ms; polls every 20 ms see each one.
        let expected = [
            (TaskState::Working, Some("step 1/3".to_owned())),
            (TaskState::Working, Some("step 2/3".to_owned())),
            (TaskState::Working, Some("step 3/3".to_owned())),
            (TaskState::Completed, None),
        ];
        assert_eq!(seen, expected);
    }
    assert_eq!(client.count("tools/call"), 1);
    assert!(client.count("tasks/get") >= 2, "it polled: {:?}", client.methods());
}

// ---------------------------------------------------------------------------------------------
// A task that fails

on_servers!(failed);
/// `fail`: `WaitOutcome::Error` of kind `Server` with the task's error, and `Cause::TaskFailed` carrying the
/// failed status, typed.
async fn failed(server: Server) {
    let client = Counting::new(server);
    let outcome =
        call_and_await(&client, "fail", &json!({}), CallOptions::default(), wait_options(server)).await.unwrap();
    let WaitOutcome::Error(error) = outcome else { panic!("{server:?}: not an error: {outcome:?}") };
    assert_eq!(error.code, -32603, "{error:?}");
    assert_eq!(error.kind, ErrorKind::Server);
    assert_eq!(error.message, server.fail_message());
    let Some(Cause::TaskFailed { status }) = &error.cause else { panic!("not task_failed: {:?}", error.cause) };
    assert_eq!(status.state, TaskState::Failed);
    assert_eq!(status.task_id, client.created_task_id());
    let sent_error = get(&status.value, "error").expect("the failed status carries its error");
    assert_eq!(json_of(&sent_error)["message"], server.fail_message());
    let last_read = client.last_value("tasks/get").expect("a settled tasks/get");
    assert_status_is(status, &last_read);
    assert!(Object::is(&sent_error, &get(&last_read, "error").unwrap()), "the error object as sent");
    if server == Server::Test {
        assert_eq!(error.data.as_ref().map(json_of), Some(json!({"reason": "test"})), "data as sent");
    }
}

// ---------------------------------------------------------------------------------------------
// A tool error

on_servers!(tool_error);
/// `tool_error`: the task completes with `isError: true`: `WaitOutcome::Ok` with `is_error()`.
async fn tool_error(server: Server) {
    let client = Counting::new(server);
    let outcome =
        call_and_await(&client, "tool_error", &json!({}), CallOptions::default(), wait_options(server)).await.unwrap();
    let WaitOutcome::Ok(result) = outcome else { panic!("{server:?}: not ok: {outcome:?}") };
    assert!(result.is_error(), "is_error(): {:?}", json_of(&result.value));
    let r: CallToolResult = result.deserialize().unwrap();
    assert_eq!(r.is_error, Some(true));
    assert_eq!(text_of(&result), "tool failed");
}

// ---------------------------------------------------------------------------------------------
// Cancelled

on_servers!(cancelled);
/// `forever`: `cancel_task` while `await_task` polls it: the wait ends `WaitOutcome::Cancelled` with the
/// cancelled status; `get_task` then reads the same state.
async fn cancelled(server: Server) {
    let client = Counting::new(server);
    let created = create(&client, "forever", &json!({})).await;
    assert_eq!(created.state, TaskState::Working);
    assert_eq!(created.poll_interval, Some(Duration::from_millis(server.poll_ms().into())));
    let id = created.task_id.clone();
    let waiting = await_task(&client, &created, wait_options(server));
    let c = client.clone();
    let cancelling = async {
        // Cancel once the wait has read the task at least once.
        while c.sent.borrow().iter().filter(|s| s.method == "tasks/get" && s.settled()).count() < 1 {
            sleep(10).await;
        }
        cancel_task(&c, &id, StepOptions::default()).await
    };
    let (outcome, ack) = join(waiting, cancelling).await;
    assert!(ack.is_ok(), "tasks/cancel acknowledged: {ack:?}");
    let WaitOutcome::Cancelled(status) = outcome.unwrap() else { panic!("{server:?}: not cancelled") };
    assert_eq!(status.state, TaskState::Cancelled);
    assert_eq!(status.task_id, id);
    assert_eq!(client.count("tasks/cancel"), 1);

    let read = get_task(&client, &id, StepOptions::default()).await.expect("the task is known");
    assert_eq!((read.task_id.as_str(), &read.state), (id.as_str(), &TaskState::Cancelled));
}

// ---------------------------------------------------------------------------------------------
// A Cancel button in one step (issue 30)

on_servers!(cancel_signal);
/// `forever` with `cancel_signal` aborted after the first read: one `tasks/cancel`, and the wait goes
/// on to the server's cancelled status (`WaitOutcome::Cancelled`), with no call to `cancel_task`.
async fn cancel_signal(server: Server) {
    let client = Counting::new(server);
    let button = web_sys::AbortController::new().unwrap();
    let wait = AwaitOptions { cancel_signal: Some(button.signal()), ..wait_options(server) };
    let waiting = call_and_await(&client, "forever", &json!({}), CallOptions::default(), wait);
    let c = client.clone();
    let pressing = async {
        while c.sent.borrow().iter().filter(|s| s.method == "tasks/get" && s.settled()).count() < 1 {
            sleep(10).await;
        }
        button.abort();
        button.abort();
    };
    let (outcome, ()) = join(waiting, pressing).await;
    let outcome = outcome.unwrap();
    let WaitOutcome::Cancelled(status) = &outcome else { panic!("{server:?}: not cancelled: {outcome:?}") };
    assert_eq!(status.state, TaskState::Cancelled);
    assert_eq!(client.count("tasks/cancel"), 1, "one tasks/cancel however often pressed");
}

// ---------------------------------------------------------------------------------------------
// The deadline

on_servers!(deadline);
/// `await_task` with a short timeout on a task that keeps working: `-32001`, kind `Transport`,
/// `Cause::Timeout` with the last status read (its fields as read), `data {taskId, timeoutMs}`; it ends
/// at the deadline, leaves no request un-aborted, and sends nothing afterwards.
async fn deadline(server: Server) {
    let client = Counting::new(server);
    let created = create(&client, "forever", &json!({})).await;
    let id = created.task_id.clone();
    let timeout_ms = 400 + 2 * server.poll_ms();
    let wait = AwaitOptions { timeout: Some(Duration::from_millis(timeout_ms.into())), ..wait_options(server) };
    let t0 = now();
    let outcome = await_task(&client, &created, wait).await.unwrap();
    let waited = now() - t0;
    let WaitOutcome::Error(error) = outcome else { panic!("{server:?}: not the timeout: {outcome:?}") };
    assert_eq!(error.code, -32001, "{error:?}");
    assert!(error.is_timeout(), "the wait's own deadline");
    assert_eq!(error.last_status().map(|s| s.task_id.as_str()), Some(id.as_str()));
    assert_eq!(error.kind, ErrorKind::Transport);
    let Some(Cause::Timeout { status: Some(status) }) = &error.cause else {
        panic!("not a timeout with a status: {:?}", error.cause)
    };
    assert_eq!(status.state, TaskState::Working);
    assert_eq!(status.task_id, id);
    let last_read = client.last_value("tasks/get").expect("it read the task");
    assert_status_is(status, &last_read); // the last status read
    let data = error.data.as_ref().map(json_of).unwrap_or_default();
    assert_eq!((&data["taskId"], &data["timeoutMs"]), (&json!(id), &json!(timeout_ms)), "{data}");
    let timeout = f64::from(timeout_ms);
    assert!(waited >= timeout - 5.0 && waited < timeout + 1000.0, "ended after {waited} ms (timeout {timeout_ms})");
    assert!(client.count("tasks/get") >= 2, "it polled until the deadline: {:?}", client.methods());
    assert!(
        client.unsettled_signals_aborted().iter().all(|(_, aborted)| *aborted),
        "requests in flight at the deadline are aborted: {:?}",
        client.unsettled_signals_aborted()
    );
    let sent = client.len();
    sleep(3 * server.poll_ms()).await;
    assert_eq!(client.len(), sent, "nothing sent after the outcome");
    cleanup(server, &id).await;
}

// ---------------------------------------------------------------------------------------------
// Input through a Rust handler

/// What the form handler was called with.
struct Asked {
    key: Option<String>,
    params: Value,
    status: TaskStatus,
    aborted: bool,
}

on_servers!(input_handler);
/// `ask` through `call_and_await` with a Rust `handler` for forms: it is called once, with the key
/// the server listed and the request's params; its answer goes out in `tasks/update` under that key
/// and reaches the tool, whose result names it.
async fn input_handler(server: Server) {
    let client = Counting::new(server);
    let asked: Rc<RefCell<Vec<Asked>>> = Rc::default();
    let a = asked.clone();
    let form = handler(move |params, context| {
        a.borrow_mut().push(Asked {
            key: context.key.clone(),
            params: json_of(&params),
            status: TaskStatus::from_js(&context.status).expect("the status a request came with"),
            aborted: context.signal.aborted(),
        });
        async { Answer::accept(&json!({"name": "Ada"})) }
    });
    let wait = AwaitOptions {
        input_handlers: Some(Handlers { form: Some(form), ..Handlers::default() }),
        ..wait_options(server)
    };
    let outcome = call_and_await(&client, "ask", &json!({}), CallOptions::default(), wait).await.unwrap();
    let WaitOutcome::Ok(result) = outcome else { panic!("{server:?}: not ok: {outcome:?}") };
    assert_eq!(text_of(&result), "hello, Ada", "the answer reached the tool");

    let id = client.created_task_id();
    let asked = asked.borrow();
    assert_eq!(asked.len(), 1, "the handler was called once");
    let call = &asked[0];
    assert!(!call.aborted, "its signal was live when it was called");
    assert_eq!(call.status.state, TaskState::InputRequired);
    assert_eq!(call.status.task_id, id);
    let listed: Vec<&str> = call.status.input_requests.iter().map(|r| r.key.as_str()).collect();
    let key = call.key.clone().expect("a handler gets its key");
    assert_eq!(listed, [key.as_str()], "the key is the one the status lists");
    match server {
        Server::Test | Server::Rmcp => assert_eq!(key, "name"),
        Server::Fastmcp => assert!(key.starts_with(&[id.as_str(), ":"].concat()), "fastmcp's opaque key: {key}"),
    }
    assert_eq!(call.status.input_requests[0].method, "elicitation/create");
    assert_eq!(call.params["message"], "What is your name?", "{}", call.params);
    assert_eq!(call.params["requestedSchema"]["required"], json!(["name"]), "{}", call.params);

    // The answer went out once, under that key, as the handler gave it.
    let sent = client.sent.borrow();
    let updates: Vec<&Sent> = sent.iter().filter(|s| s.method == "tasks/update").collect();
    assert_eq!(updates.len(), 1, "one tasks/update");
    assert_eq!(updates[0].task_id().as_deref(), Some(id.as_str()));
    let responses = json_of(&get(&updates[0].params, "inputResponses").expect("inputResponses"));
    assert_eq!(responses, json!({ key: {"action": "accept", "content": {"name": "Ada"}} }));
}

on_servers!(input_by_hand);
/// `ask` with `Input::Return`: `WaitOutcome::InputRequired` with the task's typed status; `update_task`
/// answers it by hand; a second `await_task` gets the tool's result naming the answer.
async fn input_by_hand(server: Server) {
    let client = Counting::new(server);
    let created = create(&client, "ask", &json!({})).await;
    let wait = AwaitOptions { input: Input::Return, ..wait_options(server) };
    let outcome = await_task(&client, &created, wait).await.unwrap();
    let WaitOutcome::InputRequired(needed) = outcome else { panic!("{server:?}: not input_required: {outcome:?}") };
    let task = needed.task.as_ref().expect("a task's input_required carries its status");
    assert_eq!((task.task_id.as_str(), &task.state), (created.task_id.as_str(), &TaskState::InputRequired));
    assert_eq!(needed.input_requests.len(), 1);
    let key = needed.input_requests[0].key.clone();
    assert_eq!(client.count("tasks/update"), 0, "Input::Return answers nothing");

    let answers = json!({ key: {"action": "accept", "content": {"name": "Grace"}} });
    let ack = update_task(&client, &created.task_id, &answers, StepOptions::default()).await;
    assert!(ack.is_ok(), "tasks/update acknowledged: {ack:?}");
    let outcome = await_task(&client, created.task_id.as_str(), wait_options(server)).await.unwrap();
    let WaitOutcome::Ok(result) = outcome else { panic!("{server:?}: not ok after the answer: {outcome:?}") };
    assert_eq!(text_of(&result), "hello, Grace");
}

// ---------------------------------------------------------------------------------------------
// Listen mode (the test server only: rmcp and fastmcp have no subscriptions/listen)

on_servers!(listen: test_server => Test);
/// `await_task` with `listen: true` on `slow`: the statuses arrive on the stream (each step, typed, in
/// order), the task is read once after the acknowledgement and never polled, and the stream is closed
/// (its signal aborted) when the wait ends. Checked on both sides: the client's requests and the
/// server's log.
async fn listen(server: Server) {
    let client = Counting::new(server);
    // 100 ms per step: polling at the task's 20 ms would send about 15 reads.
    let created = create(&client, "slow", &json!({"ms": 300, "pollIntervalMs": 20})).await;
    let id = created.task_id.clone();
    let (statuses, status_fn) = status_log();
    let wait = AwaitOptions { listen: true, on_status: Some(status_fn), ..wait_options(server) };
    let t0 = now();
    let outcome = await_task(&client, &created, wait).await.unwrap();
    let waited = now() - t0;
    let WaitOutcome::Ok(result) = outcome else { panic!("not ok: {outcome:?}") };
    assert_eq!(text_of(&result), "slept 300 ms");

    let expected = [
        (TaskState::Working, Some("step 1/3".to_owned())),
        (TaskState::Working, Some("step 2/3".to_owned())),
        (TaskState::Working, Some("step 3/3".to_owned())),
        (TaskState::Completed, None),
    ];
    assert_eq!(states(&statuses.borrow()), expected, "every status, once, in order");
    assert!(statuses.borrow().iter().all(|s| s.task_id == id));
    assert_eq!(
        client.methods(),
        ["tools/call", "subscriptions/listen", "tasks/get"],
        "one listen, one read after its acknowledgement, no polling (waited {waited} ms)"
    );
    let listen_signal = client.sent.borrow()[1].signal.clone();
    assert!(listen_signal.aborted(), "the stream is closed when the wait ends");

    let log: Vec<String> =
        test_server_log_of(&id).await.iter().map(|e| e["method"].as_str().unwrap_or("").to_owned()).collect();
    assert_eq!(log, ["subscriptions/listen", "tasks/get"], "what the server received about the task");
}

// ---------------------------------------------------------------------------------------------
// Dropping a call's future

on_servers!(dropped);
/// `call_and_await` on `forever`, dropped while a `tasks/get` is in flight: that request's signal is
/// aborted at once, and nothing more is sent for several poll intervals (checked on the client and,
/// for the test server, in the server's log). The task itself keeps running on the server.
async fn dropped(server: Server) {
    let client = Counting::new(server);
    let args = json!({});
    let mut wait = Box::pin(call_and_await(&client, "forever", &args, CallOptions::default(), wait_options(server)));
    let c = client.clone();
    run_until(&mut wait, "the second tasks/get", || {
        let sent = c.sent.borrow();
        let gets = sent.iter().filter(|s| s.method == "tasks/get").count();
        gets >= 2 && sent.last().is_some_and(|s| s.method == "tasks/get" && !s.settled())
    })
    .await;
    let in_flight = client.sent.borrow().last().map(|s| s.signal.clone()).unwrap();
    assert!(!in_flight.aborted(), "the read is in flight before the drop");
    let sent = client.len();
    drop(wait);
    assert!(in_flight.aborted(), "dropping the future aborts the request in flight");
    assert!(client.unsettled_signals_aborted().iter().all(|(_, a)| *a), "{:?}", client.unsettled_signals_aborted());

    let id = client.created_task_id();
    sleep(5 * server.poll_ms()).await;
    assert_eq!(client.len(), sent, "nothing sent after the drop: {:?}", client.methods());
    if server == Server::Test {
        // The server received no more reads than the client made before the drop (the aborted one
        // may or may not have reached it), and nothing else.
        let reads = client.count("tasks/get");
        let log = test_server_log_of(&id).await;
        assert!(log.iter().all(|e| e["method"] == "tasks/get"), "{log:?}");
        assert!(
            (reads - 1..=reads).contains(&log.len()),
            "the server got {} reads; the client made {reads}",
            log.len()
        );
    }
    // The task is still running: the drop did not cancel it.
    let read = get_task(&client, &id, StepOptions::default()).await.expect("the task is known");
    assert_eq!(read.state, TaskState::Working);
    cleanup(server, &id).await;
}

on_servers!(dropped_listen: test_server => Test);
/// A listen wait dropped while its stream is open: the stream's signal is aborted at once and
/// nothing more is sent.
async fn dropped_listen(server: Server) {
    let client = Counting::new(server);
    let created = create(&client, "forever", &json!({})).await;
    let id = created.task_id.clone();
    let wait_opts = AwaitOptions { listen: true, ..wait_options(server) };
    let mut wait = Box::pin(await_task(&client, &created, wait_opts));
    let c = client.clone();
    run_until(&mut wait, "the read after the acknowledgement", || {
        let sent = c.sent.borrow();
        sent.iter().any(|s| s.method == "tasks/get" && s.settled())
    })
    .await;
    let stream = client.sent.borrow().iter().find(|s| s.method == "subscriptions/listen").map(|s| s.signal.clone());
    let stream = stream.expect("the stream was opened");
    assert!(!stream.aborted(), "the stream is open before the drop");
    let sent = client.len();
    drop(wait);
    assert!(stream.aborted(), "dropping the future closes the stream");
    sleep(5 * server.poll_ms()).await;
    assert_eq!(client.len(), sent, "nothing sent after the drop: {:?}", client.methods());
    let log: Vec<String> =
        test_server_log_of(&id).await.iter().map(|e| e["method"].as_str().unwrap_or("").to_owned()).collect();
    assert_eq!(log, ["subscriptions/listen", "tasks/get"], "what the server received about the task");
    cleanup(server, &id).await;
}

// ---------------------------------------------------------------------------------------------
// An unknown task

on_servers!(unknown_task);
/// `get_task` on an id the server does not know: `Err(Error::Task(TaskError))` with the server's `-32602`, kind
/// `Server`, `Cause::RpcError` on `tasks/get`; one request, not re-issued.
async fn unknown_task(server: Server) {
    let client = Counting::new(server);
    let got = get_task(&client, "tsk_00000000000000000000000000000000", StepOptions::default()).await;
    let Err(Error::Task(error)) = got else { panic!("{server:?}: an unknown task was read: {got:?}") };
    assert_eq!(error.code, -32602, "{error:?}");
    assert_eq!(error.kind, ErrorKind::Server);
    assert!(matches!(&error.cause, Some(Cause::RpcError { method }) if method == "tasks/get"), "{:?}", error.cause);
    assert!(!error.message.is_empty());
    assert_eq!(client.methods(), ["tasks/get"], "one request, not re-issued");
}
