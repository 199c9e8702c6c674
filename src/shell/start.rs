//! The engine's machines from typed options: each function builds its call's machine and callbacks
//! and returns the future that drives it against a [`Client`] to its end ([`super::calls`] chooses
//! between these and the task journal's calls, for both APIs).

use super::callbacks::Callbacks;
use super::clock::now;
use super::end::CallFuture;
use super::invalid::InvalidArgument;
use super::millis::millis;
use super::options::{input_mode, retry, time_limits};
use super::run::{start_run, Spec};
use super::signals::Watch;
use crate::engine::both::CallAndAwait;
use crate::engine::call::{CallSettings, CallTool};
use crate::engine::session::{Build, Ended, Opening};
use crate::engine::settings::{ReadChunk, WaitSettings, DETACHED_CANCEL_TIMEOUT_MS};
use crate::engine::step::Step;
use crate::engine::wait::{TaskRef, Wait};
use crate::engine::AbortScope;
use crate::engine::TaskError;
use crate::proto::core_tasks::Generation;
use crate::proto::request::{with_tasks_extension, Call};
use crate::shell::callbacks::Handlers;
use crate::shell::client::Client;
use crate::shell::options::{AwaitOptions, CallOptions, Input, StepOptions};
use std::rc::Rc;
use wasm_bindgen::{JsCast, JsValue};

/// What `client`'s requests declare: its capabilities merged with the tasks extension (`None`: the
/// shared declaration of a client without capabilities).
fn declared(client: &dyn Client) -> Option<JsValue> {
    client.client_capabilities().map(|c| with_tasks_extension(Some(&c)))
}

/// The callbacks of a part with input: the options' handlers (else the client's) and input function.
fn input_callbacks(client: &dyn Client, input: &Input, handlers: Option<Handlers>) -> Callbacks {
    let handlers = handlers.unwrap_or_else(|| client.input_handlers());
    let input_fn = match input {
        Input::Function(f) => Some(f.clone()),
        _ => None,
    };
    Callbacks { on_status: None, handlers, input_fn }
}

fn signal_value(signal: &Option<web_sys::AbortSignal>) -> Option<JsValue> {
    signal.as_ref().map(|s| s.unchecked_ref::<JsValue>().clone())
}

/// The engine options and callbacks of a `tools/call`.
fn call_part(client: &dyn Client, o: CallOptions) -> (CallSettings<JsValue>, Callbacks) {
    let callbacks = input_callbacks(client, &o.input, o.input_handlers);
    let opts = CallSettings {
        limits: time_limits(o.timeout, o.request_timeout, client.request_timeout()),
        input: input_mode(&o.input, &callbacks.handlers),
        input_responses: o.input_responses,
        request_state: o.request_state,
        read_chunk: ReadChunk::default(),
        generation: Generation::default(),
        task_ttl_ms: o.task_ttl.and_then(millis),
    };
    (opts, callbacks)
}

/// The engine options and callbacks of a wait; `Err` when the floor is above the ceiling.
fn wait_part(client: &dyn Client, o: &AwaitOptions) -> Result<(WaitSettings, Callbacks), InvalidArgument> {
    let mut callbacks = input_callbacks(client, &o.input, o.input_handlers.clone());
    callbacks.on_status = o.on_status.clone();
    let opts = o.engine(&callbacks.handlers, client.request_timeout())?;
    Ok((opts, callbacks))
}

/// The caller's signal as the run watches it, and `stop` (see [`Stop`]).
fn one_signal(signal: &Option<web_sys::AbortSignal>, stop: Stop) -> Vec<(JsValue, Watch)> {
    let mut signals: Vec<_> = signal_value(signal).map(|s| (s, Watch::Abort(AbortScope::All))).into_iter().collect();
    with_stop(&mut signals, stop);
    signals
}

/// A wait's `cancelSignal`, watched as a cancel asked ([`Watch::Cancel`]: not an abort).
fn with_cancel(signals: &mut Vec<(JsValue, Watch)>, o: &AwaitOptions) {
    if let Some(s) = signal_value(&o.cancel_signal) {
        signals.push((s, Watch::Cancel));
    }
}

/// One more signal a run watches besides the caller's: its abort ends the whole call, rejecting with
/// its reason, and never cancels the task ([`AbortScope::Stop`]: the task journal's, when a store
/// fails: `super::journal`). `None`: none.
pub(crate) type Stop<'a> = Option<&'a web_sys::AbortSignal>;

fn with_stop(signals: &mut Vec<(JsValue, Watch)>, stop: Stop) {
    if let Some(s) = stop {
        signals.push((s.unchecked_ref::<JsValue>().clone(), Watch::Abort(AbortScope::Stop)));
    }
}

/// Drives the machine `build` makes with `client`'s declaration: made at once for a client that
/// speaks MCP 2026-07-28, else once its session is found (within `timeout_ms`, counted from now;
/// `subject` names what the call waits for, for its timeout; `wait`: it is a wait on the subject's
/// task, whose errors carry it).
fn run_machine(
    client: Rc<dyn Client>,
    build: Build<JsValue>,
    (timeout_ms, subject, wait): (Option<u64>, (&'static str, String), bool),
    callbacks: Callbacks,
    next_callbacks: Option<Callbacks>,
    signals: Vec<(JsValue, Watch)>,
    cancel_on_drop: Option<u64>,
) -> CallFuture {
    let capabilities = declared(client.as_ref());
    let t = now();
    let session = client.session(timeout_ms.map(std::time::Duration::from_millis));
    let machine = match session {
        None => build(Generation::Tasks, t, t),
        Some(_) if wait => Box::new(Opening::new(build, timeout_ms, subject, t).waiting()),
        Some(_) => Box::new(Opening::new(build, timeout_ms, subject, t)),
    };
    start_run(Spec { machine, client, capabilities, callbacks, next_callbacks, signals, cancel_on_drop, session })
}

/// The bound of the `tasks/cancel` a wait with `cancel_on_drop` sends when dropped: its request
/// timeout, else the detached cancel's default; `None` without `cancel_on_drop`.
fn drop_cancel(settings: &WaitSettings, o: &AwaitOptions) -> Option<u64> {
    o.cancel_on_drop.then(|| settings.limits.request_timeout_ms.unwrap_or(DETACHED_CANCEL_TIMEOUT_MS))
}

/// Sends a task-augmented `tools/call`: `Task`, `Result`, `InputRequired` (MRTR) or `Error`.
pub(crate) fn call_tool(
    client: Rc<dyn Client>,
    name: &str,
    args: Option<JsValue>,
    options: CallOptions,
    stop: Stop,
) -> CallFuture {
    let signals = one_signal(&options.signal, stop);
    let (opts, callbacks) = call_part(client.as_ref(), options);
    let bound = (opts.limits.deadline_ms, ("name", name.to_owned()), false);
    let name = name.to_owned();
    let build: Build<JsValue> = Box::new(move |generation, since, now| {
        Box::new(CallTool::start(name, args, CallSettings { generation, ..opts }, since, now))
    });
    run_machine(client, build, bound, callbacks, None, signals, None)
}

/// Waits for a task to finish: `Result`, `Error`, `Cancelled` or `InputRequired`. `Err`: the task reference or
/// the options are wrong (nothing was sent).
pub(crate) fn await_task(
    client: Rc<dyn Client>,
    task: TaskRef<JsValue>,
    options: AwaitOptions,
    stop: Stop,
) -> Result<CallFuture, InvalidArgument> {
    let (opts, callbacks) = wait_part(client.as_ref(), &options)?;
    let cancel_on_drop = drop_cancel(&opts, &options);
    // Checked now: an invalid task reference rejects before anything is sent.
    Wait::resume(task.clone(), opts, &[], now()).map_err(InvalidArgument::task)?;
    let mut signals = one_signal(&options.signal, stop);
    with_cancel(&mut signals, &options);
    let bound = (opts.limits.deadline_ms, ("taskId", task_id_of(&task)), true);
    let answered = options.answered;
    let build: Build<JsValue> = Box::new(move |generation, since, now| {
        let opts = WaitSettings { generation, ..opts };
        match Wait::start(task, opts, &answered, now, since, false) {
            Ok(w) => Box::new(w),
            // Not reached: the task reference was checked before.
            Err(m) => Box::new(Ended::error(TaskError::protocol("awaitTask", m, JsValue::NULL))),
        }
    });
    Ok(run_machine(client, build, bound, callbacks, None, signals, cancel_on_drop))
}

/// The task id of a task reference (the status's `taskId`).
fn task_id_of(task: &TaskRef<JsValue>) -> String {
    match task {
        TaskRef::TaskId(id) => id.clone(),
        TaskRef::Status(s) => crate::json::Json::get_str(s, "taskId").unwrap_or_default(),
    }
}

/// What [`await_task`] would reject `task` and `options` with (nothing is sent, no time is taken).
#[cfg(feature = "journal")]
pub(super) fn check_await(
    client: &dyn Client,
    task: &TaskRef<JsValue>,
    options: &AwaitOptions,
) -> Result<(), InvalidArgument> {
    let (opts, _) = wait_part(client, options)?;
    Wait::resume(task.clone(), opts, &options.answered, now()).map(drop).map_err(InvalidArgument::task)
}

/// `call_tool`, then `await_task` on a created task. `Err`: the wait's options are wrong
/// (nothing was sent). The call's signal also aborts the wait unless the wait has its own; the call's
/// timeout bounds the whole call (from its start) unless the wait's options set their own.
pub(crate) fn call_and_await(
    client: Rc<dyn Client>,
    name: &str,
    args: Option<JsValue>,
    call: CallOptions,
    wait: AwaitOptions,
    stop: Stop,
) -> Result<CallFuture, InvalidArgument> {
    let (wait_opts, wait_callbacks) = wait_part(client.as_ref(), &wait)?;
    let wait_signal = signal_value(&wait.signal);
    let mut signals = Vec::new();
    if let Some(s) = signal_value(&call.signal) {
        signals.push((s, Watch::Abort(if wait_signal.is_some() { AbortScope::Call } else { AbortScope::All })));
    }
    if let Some(s) = wait_signal {
        signals.push((s, Watch::Abort(AbortScope::Wait)));
    }
    with_stop(&mut signals, stop);
    with_cancel(&mut signals, &wait);
    let whole = wait.timeout.is_none() && call.timeout.is_some();
    let cancel_on_drop = drop_cancel(&wait_opts, &wait);
    let (opts, callbacks) = call_part(client.as_ref(), call);
    let bound = (if whole { opts.limits.deadline_ms } else { None }, ("name", name.to_owned()), false);
    let name = name.to_owned();
    let build: Build<JsValue> = Box::new(move |generation, since, now| {
        let (opts, wait_opts) = (CallSettings { generation, ..opts }, WaitSettings { generation, ..wait_opts });
        Box::new(CallAndAwait::start(name, args, opts, wait_opts, whole, since, now))
    });
    Ok(run_machine(client, build, bound, callbacks, Some(wait_callbacks), signals, cancel_on_drop))
}

/// One request: `tasks/get` (`Status`), `tasks/update` or `tasks/cancel` (`Ack`), `tasks/list`
/// (`Tasks`), or `Error`.
fn step(client: Rc<dyn Client>, call: Call<JsValue>, task_id: &str, o: StepOptions) -> CallFuture {
    let b = time_limits(o.timeout, o.request_timeout, client.request_timeout());
    let retry = retry(o.retries);
    let bound = (b.deadline_ms, ("taskId", task_id.to_owned()), false);
    let task_id = task_id.to_owned();
    let build: Build<JsValue> =
        Box::new(move |generation, since, now| Box::new(Step::start(call, task_id, b, retry, generation, since, now)));
    run_machine(client, build, bound, Callbacks::default(), None, one_signal(&o.signal, None), None)
}

/// Reads a task's status once (`tasks/get`).
pub(crate) fn get_task(client: Rc<dyn Client>, task_id: &str, options: StepOptions) -> CallFuture {
    step(client, Call::GetTask { task_id: task_id.to_owned() }, task_id, options)
}

/// Answers input requests by hand (`tasks/update` with `responses` as `inputResponses`).
pub(crate) fn update_task(
    client: Rc<dyn Client>,
    task_id: &str,
    responses: JsValue,
    options: StepOptions,
) -> CallFuture {
    step(client, Call::UpdateTaskRaw { task_id: task_id.to_owned(), responses }, task_id, options)
}

/// Asks the server to cancel a task (`tasks/cancel`).
pub(crate) fn cancel_task(client: Rc<dyn Client>, task_id: &str, options: StepOptions) -> CallFuture {
    step(client, Call::CancelTask { task_id: task_id.to_owned() }, task_id, options)
}

/// Reads a page of the session's tasks (`tasks/list`, MCP 2025-11-25), from `cursor`.
pub(crate) fn list_tasks(client: Rc<dyn Client>, cursor: Option<JsValue>, options: StepOptions) -> CallFuture {
    step(client, Call::ListTasks { cursor }, "", options)
}
