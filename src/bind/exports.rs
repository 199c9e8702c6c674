//! The module's exports, as the package entries re-export them (the declarations are in
//! `types.d.ts`). Each async function returns the promise of [`promised`] (held by the registry, so it
//! settles even if the module cannot), which resolves with the tagged outcome, or rejects with a
//! `TypeError` (bad arguments, nothing sent), the caller's abort reason, or what an application
//! callback threw. Every export first checks that the stack has room for it ([`roomy`]).

use super::registry::{self, promised, roomy, Backstop, Promised};
use crate::json::Json;
use crate::shell::{
    check_create_message_result, check_elicit_result, check_list_roots_result, js_call, server_supports as supports,
    with_tasks_extension, AwaitOptions, CallOptions, Client, InvalidArgument, Js, JsBacked, StepOptions,
};
#[cfg(feature = "journal")]
use crate::shell::{Each, JournalStore, Outcome, Rejection};
use std::rc::Rc;
use wasm_bindgen::prelude::*;

/// An argument read, or the invalid argument in it.
type Check<T> = Result<T, InvalidArgument>;

/// Reads the arguments with `read`; an invalid argument is the `TypeError` to reject with.
fn checked<T>(what: &str, read: impl FnOnce() -> Check<T>) -> Result<T, JsValue> {
    read().map_err(|m| m.rejection(what).into_js())
}

// Each async export is a plain function returning the promise of [`promised`]: it reads its arguments
// (an invalid argument rejects with a `TypeError`, never a synchronous throw) into the typed options of the Rust
// API and starts the same call (`crate::shell::calls`), whose end settles the promise with the tagged
// outcome object. The registry bounds a call by its deadline and signal (a journaled call waits on
// application stores, so the journal's calls are bounded by their own rules: no registry bound).

/// Sends a task-augmented `tools/call` (see the README); journaled with a `journal` option.
#[wasm_bindgen(js_name = callTool, skip_typescript)]
pub fn call_tool(client: JsValue, name: JsValue, args: JsValue, options: JsValue) -> Promised {
    promised(|| {
        let (c, n, a, o) = checked("callTool", || {
            let c: Rc<JsBacked> = Js(&client).try_into()?;
            let (n, a) = (Js(&name).name("tool name")?, Js(&args).tool_args()?);
            Ok((c, n, a, CallOptions::try_from(Js(&options))?))
        })?;
        let b = if o.journaled() { Backstop::NO_DEADLINE } else { Backstop::of(o.timeout, o.signal.as_ref()) };
        Ok((js_call(crate::shell::call_tool(c, &n, a, o)), b))
    })
}

/// Waits for a task to finish (see the README); journaled with a `journal` option.
#[wasm_bindgen(js_name = awaitTask, skip_typescript)]
pub fn await_task(client: JsValue, task: JsValue, options: JsValue) -> Promised {
    promised(|| {
        let (c, task, o) = checked("awaitTask", || {
            let c: Rc<JsBacked> = Js(&client).try_into()?;
            Ok((c, Js(&task).task_ref()?, AwaitOptions::try_from(Js(&options))?))
        })?;
        let b = if o.journaled() { Backstop::NO_DEADLINE } else { Backstop::of(o.timeout, o.signal.as_ref()) };
        Ok((js_call(crate::shell::await_task(c, task, o)), b))
    })
}

/// `callTool`, then `awaitTask` on a created task (see the README); journaled with a `journal` option
/// (on the wait's options, else on the call's).
#[wasm_bindgen(js_name = callAndAwait, skip_typescript)]
pub fn call_and_await(
    client: JsValue,
    name: JsValue,
    args: JsValue,
    call_options: JsValue,
    await_options: JsValue,
) -> Promised {
    promised(|| {
        let (c, n, a, co, wo) = checked("callAndAwait", || {
            let c: Rc<JsBacked> = Js(&client).try_into()?;
            let (n, a) = (Js(&name).name("tool name")?, Js(&args).tool_args()?);
            Ok((c, n, a, CallOptions::try_from(Js(&call_options))?, AwaitOptions::try_from(Js(&await_options))?))
        })?;
        let b = if co.journaled() || wo.journaled() { Backstop::NO_DEADLINE } else { both_bound(&co, &wo) };
        Ok((js_call(crate::shell::call_and_await(c, &n, a, co, wo)), b))
    })
}

/// `callAndAwait`'s bound: both parts' deadlines one after the other; the call's signal only when it
/// ends the whole call (a signal of one part alone does not end the other).
fn both_bound(call: &CallOptions, wait: &AwaitOptions) -> Backstop {
    let (c, w) = (Backstop::of(call.timeout, None), Backstop::of(wait.timeout, None));
    let signal = call.signal.as_ref().filter(|_| wait.signal.is_none());
    Backstop { deadline_ms: c.deadline_ms + w.deadline_ms, ..Backstop::of(None, signal) }
}

/// The tasks a journal holds that can be resumed (see the README).
#[cfg(feature = "journal")]
#[wasm_bindgen(js_name = pendingTasks, skip_typescript)]
pub fn pending_tasks(journal: JsValue, options: JsValue) -> Promised {
    promised(|| {
        let store: JournalStore = checked("pendingTasks", || Js(&journal).try_into())?;
        let listing = crate::shell::pending_tasks(store, Js(&options).field("server"));
        Ok((Box::pin(async move { Ok(listing.await.map_err(Rejection::into_js)?.into()) }), Backstop::NO_DEADLINE))
    })
}

/// Awaits every pending task of the client's server in a journal (see the README): the array of
/// `{taskId, tool, outcome}`, in the order of the entries; `onOutcome(outcome, entry)` hears each outcome
/// as it arrives.
#[cfg(feature = "journal")]
#[wasm_bindgen(js_name = resumeTasks, skip_typescript)]
pub fn resume_tasks(client: JsValue, journal: JsValue, options: JsValue) -> Promised {
    promised(|| {
        let (c, store, o, on_outcome) = checked("resumeTasks", || {
            let on_outcome = Js(&options).on_outcome()?;
            let store: JournalStore = Js(&journal).try_into()?;
            let c: Rc<JsBacked> = Js(&client).try_into()?;
            Ok((c, store, AwaitOptions::try_from(Js(&options))?, on_outcome))
        })?;
        let done = js_sys::Array::new();
        let out = done.clone();
        let each: Each = Box::new(move |i: u32, entry: &JsValue, ended: Outcome| {
            let outcome = ended.into_js();
            if let Some(f) = &on_outcome {
                f.call2(&JsValue::UNDEFINED, &outcome, entry).map_err(Rejection::Thrown)?;
            }
            let read = |key| entry.get(key).unwrap_or(JsValue::UNDEFINED);
            let (task_id, tool) = (read("taskId"), read("tool"));
            done.set(i, JsValue::object(vec![("taskId", task_id), ("tool", tool), ("outcome", outcome)]));
            Ok(())
        });
        let resuming = crate::shell::resume_tasks(c, store, o, each).map_err(Rejection::into_js)?;
        Ok((
            Box::pin(async move { resuming.await.map(|()| out.into()).map_err(Rejection::into_js) }),
            Backstop::NO_DEADLINE,
        ))
    })
}

/// Reads the client, the task id (`id`, read by the caller) and the options of a one-request function.
#[inline(never)]
fn step_args(
    what: &str,
    client: &JsValue,
    id: Check<String>,
    options: &JsValue,
) -> Result<(Rc<dyn Client>, String, StepOptions, Backstop), JsValue> {
    checked(what, || {
        let c: Rc<JsBacked> = Js(client).try_into()?;
        let id = id?;
        let o = StepOptions::try_from(Js(options))?;
        let b = Backstop::of(o.timeout, o.signal.as_ref());
        Ok((c as Rc<dyn Client>, id, o, b))
    })
}

/// A one-request function of the shell's, by its task id (`listTasks`: its cursor, `""` for none).
type StepFn = fn(Rc<dyn Client>, &str, StepOptions) -> crate::shell::CallFuture;

/// The promise of the one-request function `what`, made by `call` (one copy for all of them).
fn one_step(what: &'static str, client: JsValue, id: Check<String>, options: JsValue, call: StepFn) -> Promised {
    promised(move || {
        let (c, id, o, b) = step_args(what, &client, id, &options)?;
        Ok((js_call(Ok(call(c, &id, o))), b))
    })
}

/// Reads a task's status once (`tasks/get`).
#[wasm_bindgen(js_name = getTask, skip_typescript)]
pub fn get_task(client: JsValue, task_id: JsValue, options: JsValue) -> Promised {
    one_step("getTask", client, Js(&task_id).name("task id"), options, crate::shell::get_task)
}

/// Answers input requests by hand (`tasks/update`).
#[wasm_bindgen(js_name = updateTask, skip_typescript)]
pub fn update_task(client: JsValue, task_id: JsValue, responses: JsValue, options: JsValue) -> Promised {
    promised(|| {
        let responses = checked("updateTask", || Js(&responses).responses())?;
        let (c, id, o, b) = step_args("updateTask", &client, Js(&task_id).name("task id"), &options)?;
        Ok((js_call(Ok(crate::shell::update_task(c, &id, responses, o))), b))
    })
}

/// Asks the server to cancel a task (`tasks/cancel`).
#[wasm_bindgen(js_name = cancelTask, skip_typescript)]
pub fn cancel_task(client: JsValue, task_id: JsValue, options: JsValue) -> Promised {
    one_step("cancelTask", client, Js(&task_id).name("task id"), options, crate::shell::cancel_task)
}

/// Reads a page of the session's tasks (`tasks/list`, MCP 2025-11-25), from `cursor` (a string, or
/// none for the first page).
#[wasm_bindgen(js_name = listTasks, skip_typescript)]
pub fn list_tasks(client: JsValue, cursor: JsValue, options: JsValue) -> Promised {
    let cursor = if cursor.is_undefined() || cursor.is_null() { Ok(String::new()) } else { Js(&cursor).name("cursor") };
    one_step("listTasks", client, cursor, options, |c, cursor, o| {
        crate::shell::list_tasks(c, (!cursor.is_empty()).then(|| JsValue::from_str(cursor)), o)
    })
}

/// What the module holds right now: `{runs, requests, asks, streams, timers, calls, failed}`.
#[wasm_bindgen(js_name = liveCounts, skip_typescript)]
pub fn live_counts() -> Result<JsValue, JsValue> {
    roomy()?;
    let n = |count: u32| JsValue::from_f64(f64::from(count));
    let live = crate::shell::live_counts();
    Ok(JsValue::object(vec![
        ("runs", n(live.runs)),
        ("requests", n(live.requests)),
        ("asks", n(live.asks)),
        ("streams", n(live.streams)),
        ("timers", n(live.timers)),
        ("calls", n(registry::pending())),
        ("failed", registry::failed()),
    ]))
}

/// `base` deep-merged with `{extensions: {"io.modelcontextprotocol/tasks": {}}}` (`base` is not modified).
#[wasm_bindgen(skip_typescript)]
pub fn capabilities(base: JsValue) -> Result<JsValue, JsValue> {
    roomy()?;
    Ok(with_tasks_extension(Some(&base)))
}

/// `true` when a `server/discover` result (or a `capabilities` object) advertises the tasks extension.
#[wasm_bindgen(js_name = serverSupports, skip_typescript)]
pub fn server_supports(value: JsValue) -> Result<bool, JsValue> {
    roomy()?;
    Ok(supports(&value))
}

/// `{tag: "ok"}` or `{tag: "error", message}` (the check runs only with room on the stack).
fn validation(check: fn(&JsValue) -> Result<(), String>, value: &JsValue) -> Result<JsValue, JsValue> {
    roomy()?;
    Ok(match check(value) {
        Ok(()) => JsValue::object(vec![("tag", JsValue::string("ok"))]),
        Err(m) => JsValue::object(vec![("tag", JsValue::string("error")), ("message", JsValue::from_str(&m))]),
    })
}

/// Checks an `ElicitResult` (what a `form` or `url` handler answers).
#[wasm_bindgen(js_name = validateElicitResult, skip_typescript)]
pub fn validate_elicit_result(value: JsValue) -> Result<JsValue, JsValue> {
    validation(check_elicit_result, &value)
}

/// Checks a `CreateMessageResult` (what a `sampling` handler answers).
#[wasm_bindgen(js_name = validateCreateMessageResult, skip_typescript)]
pub fn validate_create_message_result(value: JsValue) -> Result<JsValue, JsValue> {
    validation(check_create_message_result, &value)
}

/// Checks a `ListRootsResult` (what a `roots` handler answers).
#[wasm_bindgen(js_name = validateListRootsResult, skip_typescript)]
pub fn validate_list_roots_result(value: JsValue) -> Result<JsValue, JsValue> {
    validation(check_list_roots_result, &value)
}

/// Test builds only (cargo feature `trap-test`, never in the npm package): traps the module in its
/// timer's callback `delay_ms` from now, while the timer's state is borrowed — every call's timers die
/// with it, as a real trap there would leave them.
#[cfg(feature = "trap-test")]
#[wasm_bindgen(js_name = __trapInTimer, skip_typescript)]
pub fn trap_in_timer(delay_ms: u32) {
    crate::shell::trap_in(delay_ms);
}
