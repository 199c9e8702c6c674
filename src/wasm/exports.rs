//! The exported JS API. Each async function reads every argument first (a bad one rejects with a
//! `TypeError`; nothing is sent), builds an engine machine and hands it to the driver. No exported
//! function throws: every failure is a rejected promise.

use super::client::{JsClient, Opts};
use super::driver::{live_counts, run, Hooks, Watched};
use super::scheduler::now;
use crate::engine::both::CallAndAwait;
use crate::engine::call::{CallOptions, CallTool};
use crate::engine::options::{
    WaitOptions, DEFAULT_LISTEN_CHECK_MS, DEFAULT_MAX_POLL_INTERVAL_MS, DEFAULT_MIN_POLL_INTERVAL_MS,
    DEFAULT_POLL_INTERVAL_MS,
};
use crate::engine::step::Step;
use crate::engine::wait::{read_seed, Wait};
use crate::engine::AbortScope;
use crate::json::Json;
use crate::proto::input::{check_create_message_result, check_elicit_result, check_list_roots_result};
use crate::proto::request::{server_supports, with_tasks_extension, Call};
use js_sys::Promise;
use std::rc::Rc;
use wasm_bindgen::prelude::*;

/// A promise rejected with the same `TypeError` ("function: message") the transports throw.
fn type_error(function: &str, message: String) -> Promise {
    let parts = super::rt::deferred();
    let error = js_sys::TypeError::new(&[function, ": ", &message].concat());
    super::rt::settle_with(&parts.get(2), &error);
    parts.get(0).unchecked_into()
}

/// A seed for the jitter of backoffs.
fn seed() -> u64 {
    (js_sys::Math::random() * 9_007_199_254_740_991.0) as u64
}

fn no_hooks() -> Hooks {
    Hooks { on_status: None, input_fn: None, handlers: JsValue::UNDEFINED, next: None }
}

fn watched(signal: Option<JsValue>, scope: AbortScope) -> Vec<Watched> {
    signal.map(|signal| Watched { signal, scope }).into_iter().collect()
}

/// Everything `callTool` reads.
struct CallArgs {
    client: Rc<JsClient>,
    name: String,
    arguments: Option<JsValue>,
    opts: CallOptions<JsValue>,
    hooks: Hooks,
    signal: Option<JsValue>,
}

fn read_call(client: &JsValue, name: JsValue, args: JsValue, options: JsValue) -> Result<CallArgs, String> {
    let client = JsClient::read_shared(client)?;
    let name = name.as_string().filter(|n| !n.is_empty()).ok_or("the tool name must be a non-empty string")?;
    let arguments = if args.is_undefined() || args.is_null() {
        None
    } else if args.is_object() {
        Some(args)
    } else {
        return Err("args must be an object".to_owned());
    };
    let opts = Opts::read(options, "options")?;
    let (input, input_fn, handlers) = opts.input(&client)?;
    let call_opts = CallOptions {
        bounds: opts.bounds(&client)?,
        input,
        input_responses: opts.get("inputResponses"),
        request_state: opts.get("requestState"),
    };
    let signal = opts.signal()?;
    Ok(CallArgs {
        client,
        name,
        arguments,
        opts: call_opts,
        hooks: Hooks { on_status: None, input_fn, handlers, next: None },
        signal,
    })
}

/// Everything `awaitTask` reads (but the seed).
struct WaitArgs {
    opts: WaitOptions,
    hooks: Hooks,
    signal: Option<JsValue>,
}

fn read_wait(client: &JsClient, options: JsValue) -> Result<WaitArgs, String> {
    let opts = Opts::read(options, "options")?;
    let (input, input_fn, handlers) = opts.input(client)?;
    let max_poll = opts.millis_or("maxPollIntervalMs", DEFAULT_MAX_POLL_INTERVAL_MS)?;
    let wait_opts = WaitOptions {
        bounds: opts.bounds(client)?,
        poll_interval_ms: opts.millis_or("pollIntervalMs", DEFAULT_POLL_INTERVAL_MS)?,
        // The floor's default never exceeds a ceiling the caller set lower.
        min_poll_interval_ms: opts.millis_or("minPollIntervalMs", DEFAULT_MIN_POLL_INTERVAL_MS.min(max_poll))?,
        max_poll_interval_ms: max_poll,
        retry: opts.retry(seed())?,
        listen_check_ms: opts.millis_or("listenCheckMs", DEFAULT_LISTEN_CHECK_MS)?,
        cancel_on_abort: opts.flag("cancelOnAbort")?,
        input,
        listen: opts.flag("listen")?,
    };
    if wait_opts.min_poll_interval_ms > wait_opts.max_poll_interval_ms {
        return Err("minPollIntervalMs must not exceed maxPollIntervalMs".to_owned());
    }
    let hooks = Hooks { on_status: opts.function("onStatus")?, input_fn, handlers, next: None };
    Ok(WaitArgs { opts: wait_opts, hooks, signal: opts.signal()? })
}

/// The `answered` option of `awaitTask`: `[{key, answer?}]`, the input keys answered before this wait
/// (e.g. before a restart). They are never asked; an `answer` given (one not yet acknowledged) is sent
/// once, without asking, if a status still lists its key.
fn read_answered(options: &JsValue) -> Result<Vec<(String, Option<JsValue>)>, String> {
    const WANT: &str = "answered must be an array of {key, answer?} with non-empty string keys";
    let Some(list) = options.get("answered") else { return Ok(Vec::new()) };
    let items = list.items().ok_or(WANT)?;
    items
        .iter()
        .map(|item| match item.get_str("key") {
            Some(key) if !key.is_empty() => Ok((key, item.get("answer"))),
            _ => Err(WANT.to_owned()),
        })
        .collect()
}

/// Sends a task-augmented `tools/call` (the tasks extension declared in its `_meta`) and resolves
/// with `{tag: "task", status}`, `{tag: "ok", result}`, `{tag: "input_required", status}` or
/// `{tag: "error", error}`. MRTR rounds are answered through the `input` option.
#[wasm_bindgen(js_name = callTool, unchecked_return_type = "Promise<CallToolOutcome>")]
pub fn call_tool(
    #[wasm_bindgen(unchecked_param_type = "TasksClient")] client: JsValue,
    #[wasm_bindgen(unchecked_param_type = "string")] name: JsValue,
    #[wasm_bindgen(unchecked_optional_param_type = "Record<string, unknown>")] args: JsValue,
    #[wasm_bindgen(unchecked_optional_param_type = "CallToolOptions")] options: JsValue,
) -> Promise {
    match read_call(&client, name, args, options) {
        Ok(c) => {
            let machine = CallTool::new(c.name, c.arguments, c.opts, now());
            run(Box::new(machine), c.client, c.hooks, watched(c.signal, AbortScope::All))
        }
        Err(m) => type_error("callTool", m),
    }
}

/// Waits for a task to finish (polling `tasks/get`, or listening with `listen: true`), answering
/// input requests on the way. Resolves with `{tag: "ok", result}`, `{tag: "error", error}`,
/// `{tag: "cancelled", status}` or `{tag: "input_required", status}`.
#[wasm_bindgen(js_name = awaitTask, unchecked_return_type = "Promise<AwaitTaskOutcome>")]
pub fn await_task(
    #[wasm_bindgen(unchecked_param_type = "TasksClient")] client: JsValue,
    #[wasm_bindgen(js_name = statusOrTaskId, unchecked_param_type = "TaskStatus | string")] status_or_task_id: JsValue,
    #[wasm_bindgen(unchecked_optional_param_type = "AwaitTaskOptions")] options: JsValue,
) -> Promise {
    let started = || -> Result<Promise, String> {
        let client = JsClient::read_shared(&client)?;
        let answered = read_answered(&options)?;
        let w = read_wait(&client, options)?;
        let machine = Wait::resume(read_seed(status_or_task_id)?, w.opts, &answered, now())?;
        Ok(run(Box::new(machine), client, w.hooks, watched(w.signal, AbortScope::All)))
    };
    started().unwrap_or_else(|m| type_error("awaitTask", m))
}

/// `callTool`, then `awaitTask` when it created a task; an immediate result, error or
/// `input_required` is returned as is. Every argument of both parts is checked before anything is
/// sent. The call's `signal` also bounds the wait unless `awaitOptions` has its own.
#[wasm_bindgen(js_name = callAndAwait, unchecked_return_type = "Promise<CallAndAwaitOutcome>")]
pub fn call_and_await(
    #[wasm_bindgen(unchecked_param_type = "TasksClient")] client: JsValue,
    #[wasm_bindgen(unchecked_param_type = "string")] name: JsValue,
    #[wasm_bindgen(unchecked_optional_param_type = "Record<string, unknown>")] args: JsValue,
    #[wasm_bindgen(js_name = callOptions, unchecked_optional_param_type = "CallToolOptions")] call_options: JsValue,
    #[wasm_bindgen(js_name = awaitOptions, unchecked_optional_param_type = "AwaitTaskOptions")] await_options: JsValue,
) -> Promise {
    let started = || -> Result<Promise, String> {
        let c = read_call(&client, name, args, call_options)?;
        let w = read_wait(&c.client, await_options)?;
        let mut signals = Vec::new();
        let call_scope = if w.signal.is_some() { AbortScope::Call } else { AbortScope::All };
        signals.extend(watched(c.signal, call_scope));
        signals.extend(watched(w.signal, AbortScope::Wait));
        let machine = CallAndAwait::new(c.name, c.arguments, c.opts, w.opts, now());
        let hooks = Hooks { next: Some(Box::new(w.hooks)), ..c.hooks };
        Ok(run(Box::new(machine), c.client, hooks, signals))
    };
    started().unwrap_or_else(|m| type_error("callAndAwait", m))
}

fn start_step(
    function: &str,
    client: JsValue,
    task_id: JsValue,
    options: JsValue,
    make: impl FnOnce(String) -> Call<JsValue>,
) -> Promise {
    let started = || -> Result<Promise, String> {
        let client = JsClient::read_shared(&client)?;
        let task_id = task_id.as_string().filter(|t| !t.is_empty()).ok_or("the task id must be a non-empty string")?;
        let opts = Opts::read(options, "options")?;
        let machine = Step::new(make(task_id.clone()), task_id, opts.bounds(&client)?, opts.retry(seed())?, now());
        Ok(run(Box::new(machine), client, no_hooks(), watched(opts.signal()?, AbortScope::All)))
    };
    started().unwrap_or_else(|m| type_error(function, m))
}

/// Live counts of what the module holds, for leak checks: `{runs, requests, asks, streams, timers}`
/// (calls in progress, requests in flight incl. detached cancels, input handler calls running, open
/// listen streams, armed timers — the module arms at most one). All zero when nothing is running.
#[wasm_bindgen(js_name = liveCounts, unchecked_return_type = "LiveCounts")]
pub fn live_counts_js() -> JsValue {
    super::install_panic_hook();
    let [runs, requests, asks, streams, timers] = live_counts();
    let n = |v: usize| JsValue::from_f64(v as f64);
    JsValue::object(vec![
        ("runs", n(runs)),
        ("requests", n(requests)),
        ("asks", n(asks)),
        ("streams", n(streams)),
        ("timers", n(timers)),
    ])
}

/// Reads a task's status once (`tasks/get`): `{tag: "ok", status}` or `{tag: "error", error}`.
#[wasm_bindgen(js_name = getTask, unchecked_return_type = "Promise<GetTaskOutcome>")]
pub fn get_task(
    #[wasm_bindgen(unchecked_param_type = "TasksClient")] client: JsValue,
    #[wasm_bindgen(js_name = taskId, unchecked_param_type = "string")] task_id: JsValue,
    #[wasm_bindgen(unchecked_optional_param_type = "StepOptions")] options: JsValue,
) -> Promise {
    start_step("getTask", client, task_id, options, |task_id| Call::GetTask { task_id })
}

/// Answers input requests by hand (`tasks/update` with `responses` as `inputResponses`):
/// `{tag: "ok"}` or `{tag: "error", error}`.
#[wasm_bindgen(js_name = updateTask, unchecked_return_type = "Promise<AckOutcome>")]
pub fn update_task(
    #[wasm_bindgen(unchecked_param_type = "TasksClient")] client: JsValue,
    #[wasm_bindgen(js_name = taskId, unchecked_param_type = "string")] task_id: JsValue,
    #[wasm_bindgen(unchecked_param_type = "InputResponses")] responses: JsValue,
    #[wasm_bindgen(unchecked_optional_param_type = "StepOptions")] options: JsValue,
) -> Promise {
    if responses.kind() != crate::json::Kind::Object {
        return type_error("updateTask", "responses must be an object (key → response)".to_owned());
    }
    start_step("updateTask", client, task_id, options, |task_id| Call::UpdateTaskRaw { task_id, responses })
}

/// Asks the server to cancel a task (`tasks/cancel`): `{tag: "ok"}` or `{tag: "error", error}`.
/// The acknowledgement does not mean the task ended `cancelled`; `awaitTask` tells.
#[wasm_bindgen(js_name = cancelTask, unchecked_return_type = "Promise<AckOutcome>")]
pub fn cancel_task(
    #[wasm_bindgen(unchecked_param_type = "TasksClient")] client: JsValue,
    #[wasm_bindgen(js_name = taskId, unchecked_param_type = "string")] task_id: JsValue,
    #[wasm_bindgen(unchecked_optional_param_type = "StepOptions")] options: JsValue,
) -> Promise {
    start_step("cancelTask", client, task_id, options, |task_id| Call::CancelTask { task_id })
}

/// `base` deep-merged with `{extensions: {"io.modelcontextprotocol/tasks": {}}}`, to use as a
/// client's `clientCapabilities`. `base` is not modified.
#[wasm_bindgen(unchecked_return_type = "ClientCapabilities")]
pub fn capabilities(#[wasm_bindgen(unchecked_optional_param_type = "ClientCapabilities")] base: JsValue) -> JsValue {
    super::install_panic_hook();
    with_tasks_extension(Some(&base))
}

/// `true` when a `server/discover` result (or a `capabilities` object) advertises the tasks extension.
#[wasm_bindgen(js_name = serverSupports)]
pub fn server_supports_js(
    #[wasm_bindgen(js_name = discoverResultOrCapabilities, unchecked_param_type = "object")] value: JsValue,
) -> bool {
    super::install_panic_hook();
    server_supports(&value)
}

fn check(result: Result<(), String>) -> JsValue {
    super::install_panic_hook();
    match result {
        Ok(()) => JsValue::object(vec![("tag", "ok".into())]),
        Err(m) => JsValue::object(vec![("tag", "error".into()), ("message", JsValue::from_str(&m))]),
    }
}

/// Checks an `ElicitResult` (what a `form` or `url` handler answers).
#[wasm_bindgen(js_name = validateElicitResult, unchecked_return_type = "ValidationResult")]
pub fn validate_elicit_result(#[wasm_bindgen(unchecked_param_type = "unknown")] value: JsValue) -> JsValue {
    check(check_elicit_result(&value))
}

/// Checks a `CreateMessageResult` (what a `sampling` handler answers).
#[wasm_bindgen(js_name = validateCreateMessageResult, unchecked_return_type = "ValidationResult")]
pub fn validate_create_message_result(#[wasm_bindgen(unchecked_param_type = "unknown")] value: JsValue) -> JsValue {
    check(check_create_message_result(&value))
}

/// Checks a `ListRootsResult` (what a `roots` handler answers).
#[wasm_bindgen(js_name = validateListRootsResult, unchecked_return_type = "ValidationResult")]
pub fn validate_list_roots_result(#[wasm_bindgen(unchecked_param_type = "unknown")] value: JsValue) -> JsValue {
    check(check_list_roots_result(&value))
}
