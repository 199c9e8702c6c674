//! The module's exports, as the package entries re-export them (the declarations are in
//! `types.d.ts`). The async functions are `async fn`s: wasm-bindgen-futures turns each into a
//! promise that resolves with the tagged outcome, or rejects with a `TypeError` (bad arguments, nothing
//! sent), the caller's abort reason, or what an application callback threw.

use super::read::{self, Check};
use crate::json::Json;
use crate::proto::input::{check_create_message_result, check_elicit_result, check_list_roots_result};
use crate::proto::request::{server_supports as supports, with_tasks_extension};
use crate::shell::api;
use crate::shell::client::Client;
use crate::shell::journal::{self, Journal, Journaling};
use crate::shell::live::{count, Counter};
use crate::shell::settle::{settle, type_error, Call};
use crate::shell::timer::armed_count;
use crate::shell::values::{field, is_plain_object, js_string};
use serde::Serialize;
use std::rc::Rc;
use wasm_bindgen::prelude::*;

/// Reads the arguments with `read`; a mistake is the `TypeError` to reject with.
fn checked<T>(what: &str, read: impl FnOnce() -> Check<T>) -> Result<T, JsValue> {
    read().map_err(|m| type_error(what, &m))
}

// Each export's `async fn` only hands its arguments (by value) to its start, a plain function that
// reads them and returns the one settling future (`settle`), and awaits it: each export's own future
// (and the one wasm-bindgen-futures wraps it in) holds its arguments or that box, nothing more.

/// Sends a task-augmented `tools/call` (see the README); journaled with a `journal` option.
#[wasm_bindgen(js_name = callTool, skip_typescript)]
pub async fn call_tool(client: JsValue, name: JsValue, args: JsValue, options: JsValue) -> Result<JsValue, JsValue> {
    start_call_tool(client, name, args, options).await
}

#[inline(never)]
fn start_call_tool(client: JsValue, name: JsValue, args: JsValue, options: JsValue) -> Journaling {
    let (client, name, args, options) = (&client, &name, &args, &options);
    settle(checked("callTool", || {
        let journal = read::journal(field(options, "journal"), client)?;
        let (c, n, a, o) =
            (read::client(client)?, read::name(name, "tool name")?, read::args(args)?, read::call_options(options)?);
        Ok(match journal {
            None => Call::Plain(api::call_tool(c, &n, a, o)),
            Some(j) => Call::Journaled(journal::call_tool(c, j, &n, a, o)),
        })
    }))
}

/// Waits for a task to finish (see the README); journaled with a `journal` option.
#[wasm_bindgen(js_name = awaitTask, skip_typescript)]
pub async fn await_task(client: JsValue, status_or_task_id: JsValue, options: JsValue) -> Result<JsValue, JsValue> {
    start_await_task(client, status_or_task_id, options).await
}

#[inline(never)]
fn start_await_task(client: JsValue, seed: JsValue, options: JsValue) -> Journaling {
    let (client, seed, options) = (&client, &seed, &options);
    settle(checked("awaitTask", || {
        let journal = read::journal(field(options, "journal"), client)?;
        let c = read::client(client)?;
        let mut o = read::await_options(options)?;
        Ok(match journal {
            None => {
                o.answered = read::answered(options)?;
                Call::Plain(api::await_task(c, read::seed(seed)?, o)?)
            }
            Some(j) => Call::Journaled(journal::await_task(c, j, read::seed(seed)?, o)?),
        })
    }))
}

/// `callTool`, then `awaitTask` on a created task (see the README); journaled with a `journal` option
/// (on the wait's options, else on the call's).
#[wasm_bindgen(js_name = callAndAwait, skip_typescript)]
pub async fn call_and_await(
    client: JsValue,
    name: JsValue,
    args: JsValue,
    call_options: JsValue,
    await_options: JsValue,
) -> Result<JsValue, JsValue> {
    start_call_and_await(client, name, args, call_options, await_options).await
}

#[inline(never)]
fn start_call_and_await(client: JsValue, name: JsValue, args: JsValue, call: JsValue, wait: JsValue) -> Journaling {
    let (client, name, args, call, wait) = (&client, &name, &args, &call, &wait);
    settle(checked("callAndAwait", || {
        let value = field(wait, "journal").filter(|v| !v.is_null()).or_else(|| field(call, "journal"));
        let journal = read::journal(value, client)?;
        let c = read::client(client)?;
        let n = read::name(name, "tool name")?;
        let a = read::args(args)?;
        let (co, wo) = (read::call_options(call)?, read::await_options(wait)?);
        Ok(match journal {
            None => Call::Plain(api::call_and_await(c, &n, a, co, wo)?),
            Some(j) => Call::Journaled(journal::call_and_await(c, j, &n, a, co, wo)?),
        })
    }))
}

/// The tasks a journal holds that can be resumed (see the README).
#[wasm_bindgen(js_name = pendingTasks, skip_typescript)]
pub async fn pending_tasks(journal: JsValue, options: JsValue) -> Result<JsValue, JsValue> {
    start_pending_tasks(journal, options).await
}

#[inline(never)]
fn start_pending_tasks(journal: JsValue, options: JsValue) -> Journaling {
    match checked("pendingTasks", || read::store(&journal)) {
        Err(e) => Box::pin(std::future::ready(Err(e))),
        Ok(store) => {
            let listing = journal::pending_tasks(store, field(&options, "server"));
            Box::pin(async move { Ok(listing.await?.into()) })
        }
    }
}

/// Awaits every pending task of the client's server in a journal (see the README).
#[wasm_bindgen(js_name = resumeTasks, skip_typescript)]
pub async fn resume_tasks(client: JsValue, journal: JsValue, options: JsValue) -> Result<JsValue, JsValue> {
    start_resume_tasks(client, journal, options).await
}

#[inline(never)]
fn start_resume_tasks(client: JsValue, journal: JsValue, options: JsValue) -> Journaling {
    let resuming = checked("resumeTasks", || {
        let server = read::server(&client)?;
        let on_outcome = read::on_outcome(&options)?;
        let store = read::store(&journal)?;
        let (c, o) = (read::client(&client)?, read::await_options(&options)?);
        Ok(journal::resume_tasks(c, Journal { store, server }, o, on_outcome))
    });
    resuming.unwrap_or_else(|e| Box::pin(std::future::ready(Err(e))))
}

/// Reads the client, the task id and the options of a one-request function.
#[inline(never)]
fn step_args(
    what: &str,
    client: &JsValue,
    task_id: &JsValue,
    options: &JsValue,
) -> Result<(Rc<dyn Client>, String, crate::shell::options::StepOptions), JsValue> {
    checked(what, || {
        let c = read::client(client)?;
        let id = read::name(task_id, "task id")?;
        Ok((c as Rc<dyn Client>, id, read::step_options(options)?))
    })
}

/// Reads a task's status once (`tasks/get`).
#[wasm_bindgen(js_name = getTask, skip_typescript)]
pub async fn get_task(client: JsValue, task_id: JsValue, options: JsValue) -> Result<JsValue, JsValue> {
    start_get_task(client, task_id, options).await
}

#[inline(never)]
fn start_get_task(client: JsValue, task_id: JsValue, options: JsValue) -> Journaling {
    settle(step_args("getTask", &client, &task_id, &options).map(|(c, id, o)| Call::Plain(api::get_task(c, &id, o))))
}

/// Answers input requests by hand (`tasks/update`).
#[wasm_bindgen(js_name = updateTask, skip_typescript)]
pub async fn update_task(
    client: JsValue,
    task_id: JsValue,
    responses: JsValue,
    options: JsValue,
) -> Result<JsValue, JsValue> {
    start_update_task(client, task_id, responses, options).await
}

#[inline(never)]
fn start_update_task(client: JsValue, task_id: JsValue, responses: JsValue, options: JsValue) -> Journaling {
    let started = if is_plain_object(&responses) {
        step_args("updateTask", &client, &task_id, &options)
            .map(|(c, id, o)| Call::Plain(api::update_task(c, &id, responses, o)))
    } else {
        Err(type_error("updateTask", "responses must be an object (key → response)"))
    };
    settle(started)
}

/// Asks the server to cancel a task (`tasks/cancel`).
#[wasm_bindgen(js_name = cancelTask, skip_typescript)]
pub async fn cancel_task(client: JsValue, task_id: JsValue, options: JsValue) -> Result<JsValue, JsValue> {
    start_cancel_task(client, task_id, options).await
}

#[inline(never)]
fn start_cancel_task(client: JsValue, task_id: JsValue, options: JsValue) -> Journaling {
    settle(
        step_args("cancelTask", &client, &task_id, &options).map(|(c, id, o)| Call::Plain(api::cancel_task(c, &id, o))),
    )
}

/// What `liveCounts()` returns.
#[derive(Serialize)]
struct LiveCounts {
    runs: u32,
    requests: u32,
    asks: u32,
    streams: u32,
    timers: u32,
}

/// What the module holds right now: `{runs, requests, asks, streams, timers}`.
#[wasm_bindgen(js_name = liveCounts, skip_typescript)]
pub fn live_counts() -> JsValue {
    let counts = LiveCounts {
        runs: count(Counter::Runs),
        requests: count(Counter::Requests),
        asks: count(Counter::Asks),
        streams: count(Counter::Streams),
        timers: armed_count(),
    };
    counts.serialize(&serde_wasm_bindgen::Serializer::new()).unwrap_or(JsValue::UNDEFINED)
}

/// `base` deep-merged with `{extensions: {"io.modelcontextprotocol/tasks": {}}}` (`base` is not modified).
#[wasm_bindgen(skip_typescript)]
pub fn capabilities(base: JsValue) -> JsValue {
    with_tasks_extension(Some(&base))
}

/// `true` when a `server/discover` result (or a `capabilities` object) advertises the tasks extension.
#[wasm_bindgen(js_name = serverSupports, skip_typescript)]
pub fn server_supports(value: JsValue) -> bool {
    supports(&value)
}

/// `{tag: "ok"}` or `{tag: "error", message}`.
fn validation(result: Result<(), String>) -> JsValue {
    match result {
        Ok(()) => JsValue::object(vec![("tag", js_string("ok"))]),
        Err(m) => JsValue::object(vec![("tag", js_string("error")), ("message", JsValue::from_str(&m))]),
    }
}

/// Checks an `ElicitResult` (what a `form` or `url` handler answers).
#[wasm_bindgen(js_name = validateElicitResult, skip_typescript)]
pub fn validate_elicit_result(value: JsValue) -> JsValue {
    validation(check_elicit_result(&value))
}

/// Checks a `CreateMessageResult` (what a `sampling` handler answers).
#[wasm_bindgen(js_name = validateCreateMessageResult, skip_typescript)]
pub fn validate_create_message_result(value: JsValue) -> JsValue {
    validation(check_create_message_result(&value))
}

/// Checks a `ListRootsResult` (what a `roots` handler answers).
#[wasm_bindgen(js_name = validateListRootsResult, skip_typescript)]
pub fn validate_list_roots_result(value: JsValue) -> JsValue {
    validation(check_list_roots_result(&value))
}
