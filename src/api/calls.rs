//! The crate-root async functions: the very operations of the JS functions of the same names (the
//! shell's), with a Rust client, serde arguments and typed outcomes converted from the engine's (no JS
//! object in between).
//!
//! Each resolves with `Ok(outcome)` for everything the server or the network does, and with
//! [`Err(Error)`](Error) exactly where the JS function rejects: the caller's abort
//! ([`Error::Aborted`]), what an application callback threw ([`Error::Callback`]), or arguments that are
//! wrong ([`Error::InvalidArgument`]: nothing was sent); the single steps (`get_task`, `update_task`,
//! `cancel_task`) give the server's error answer as [`Error::Task`] too, so `?` carries every failure.
//! Dropping a future before it resolves ends its call on the spot: every request and handler in
//! flight is aborted (its signal fires), the listen stream is closed, nothing more is sent.
//!
//! Each function reads its arguments when called (the client is cloned, the arguments serialized)
//! and returns a `'static` future that sends nothing until it is first polled: it can be awaited, or
//! spawned with `wasm_bindgen_futures::spawn_local`.

use super::error::{Error, TaskError};
use super::outcome::{CallOutcome, WaitOutcome};
use super::status::TaskStatus;
use crate::json::Json;
use crate::shell::{
    serialize, task_ref, tool_args, AwaitOptions, CallFuture, CallOptions, Client, EngineOutcome, Outcome, Rejection,
    StepOptions,
};
use serde::Serialize;
use std::future::Future;
use std::rc::Rc;
use wasm_bindgen::JsValue;

/// The tool's arguments: a struct or a map, or none (`&()`, `None`) — the JS functions' rule
/// ([`tool_args`]), with the same message.
fn arguments(what: &str, args: &impl Serialize) -> Result<Option<JsValue>, Error> {
    let value = serialize(args).map_err(|e| Error::InvalidArgument([what, ": ", &describe_js(&e)].concat()))?;
    tool_args(value).map_err(|m| Error::of(m.rejection(what)))
}

/// The message of a serialization error (a JS `Error`).
fn describe_js(e: &JsValue) -> String {
    e.get_str("message").unwrap_or_default()
}

/// The client as the shell drives it.
fn shared<C: Client + Clone + 'static>(client: &C) -> Rc<dyn Client> {
    Rc::new(client.clone())
}

/// How a call that started (or was refused) ended: its end, or the error.
async fn ended(started: Result<CallFuture, Rejection>) -> Result<Outcome, Error> {
    Ok(started?.await?)
}

/// A wait's typed outcome.
async fn wait_outcome(started: Result<CallFuture, Rejection>) -> Result<WaitOutcome, Error> {
    WaitOutcome::of(ended(started).await?).ok_or_else(not_an_end)
}

/// An end the function does not have (never made by the engine; a broadcast that is not an outcome).
fn not_an_end() -> Error {
    Error::InvalidArgument("not an outcome of this function".to_owned())
}

/// Sends a task-augmented `tools/call` named `name` with `args` (any `Serialize` value that is an
/// object; `&()` for none): `Task` (the server created a task), `Ok` (it answered at once),
/// `InputRequired` (an MRTR round the library may not answer) or `Error`. With
/// `options.journal`, a created task is journaled before the outcome is given.
///
/// ```no_run
/// use mcp_tasks_wasm::{await_task, call_tool, AwaitOptions, CallOptions, CallOutcome, HttpClient};
/// # async fn f() -> Result<(), mcp_tasks_wasm::Error> {
/// let client = HttpClient::new("http://127.0.0.1:8787/mcp")?;
/// if let CallOutcome::Task(status) = call_tool(&client, "slow", &serde_json::json!({"ms": 200}), CallOptions::default()).await? {
///     let done = await_task(&client, &status, AwaitOptions::default()).await?;
/// }
/// # Ok(()) }
/// ```
pub fn call_tool<C: Client + Clone + 'static>(
    client: &C,
    name: &str,
    args: &impl Serialize,
    options: CallOptions,
) -> impl Future<Output = Result<CallOutcome, Error>> + 'static {
    let (client, name, args) = (shared(client), name.to_owned(), arguments("callTool", args));
    async move {
        CallOutcome::of(ended(crate::shell::call_tool(client, &name, args?, options)).await?).ok_or_else(not_an_end)
    }
}

/// What [`await_task`] waits for: a task id, or a status (`call_tool`'s, or one read before).
///
/// ```no_run
/// use mcp_tasks_wasm::TaskRef;
/// let by_id: TaskRef = "tsk_123".into();
/// ```
#[derive(Clone, Debug)]
pub enum TaskRef {
    /// A bare task id: the first read goes out at once.
    Id(String),
    /// A status: the first read goes out after its interval (none when it carries its terminal
    /// payload).
    Status(JsValue),
}

impl From<&str> for TaskRef {
    fn from(id: &str) -> Self {
        Self::Id(id.to_owned())
    }
}

impl From<String> for TaskRef {
    fn from(id: String) -> Self {
        Self::Id(id)
    }
}

impl From<&TaskStatus> for TaskRef {
    fn from(status: &TaskStatus) -> Self {
        Self::Status(status.value.clone())
    }
}

impl From<TaskStatus> for TaskRef {
    fn from(status: TaskStatus) -> Self {
        Self::Status(status.value)
    }
}

impl TaskRef {
    /// Its JS value: the task id as a JS string (exactly the one it was read from), or the status.
    fn into_js(self) -> JsValue {
        match self {
            Self::Id(id) => JsValue::string(&id),
            Self::Status(v) => v,
        }
    }
}

/// Waits for a task to finish: `Ok` (completed; the result as sent), `Error` (failed, timed out,
/// …), `Cancelled` or `InputRequired` — polling `tasks/get` at the server's interval, or with
/// `options.listen` on `subscriptions/listen`, answering input through the handlers, bounded by
/// `options.timeout` (default 60 s). With `options.journal` the wait is journaled and is the one
/// waiter of its task across the tabs and workers of the origin.
///
/// ```no_run
/// use mcp_tasks_wasm::{await_task, AwaitOptions, HttpClient, WaitOutcome};
/// use std::time::Duration;
/// # async fn f() -> Result<(), mcp_tasks_wasm::Error> {
/// let client = HttpClient::new("http://127.0.0.1:8787/mcp")?;
/// let wait = AwaitOptions { timeout: Some(Duration::from_secs(5)), ..AwaitOptions::default() };
/// match await_task(&client, "tsk_123", wait).await? {
///     WaitOutcome::Error(e) if e.is_timeout() => { /* still running; await again later */ }
///     other => web_sys::console::log_1(&format!("{other:?}").into()),
/// }
/// # Ok(()) }
/// ```
pub fn await_task<C: Client + Clone + 'static>(
    client: &C,
    task: impl Into<TaskRef>,
    options: AwaitOptions,
) -> impl Future<Output = Result<WaitOutcome, Error>> + 'static {
    let (client, task) = (shared(client), task.into());
    async move { awaiting(client, task, options).await }
}

/// [`await_task`] on its way.
async fn awaiting(client: Rc<dyn Client>, task: TaskRef, options: AwaitOptions) -> Result<WaitOutcome, Error> {
    let task = task_ref(task.into_js()).map_err(|m| Error::of(m.rejection("awaitTask")))?;
    wait_outcome(crate::shell::await_task(client, task, options)).await
}

/// [`call_tool`], then [`await_task`] on a created task; an immediate `Ok`, `Error` or
/// `InputRequired` is returned as is. Both options are checked before anything is sent. The call's
/// signal also aborts the wait, and the call's `timeout` bounds the whole call and wait (from the
/// call's start), unless `wait` sets its own. Journaled with `wait.journal`, else `call.journal`.
///
/// ```no_run
/// use mcp_tasks_wasm::{call_and_await, AwaitOptions, CallOptions, HttpClient, WaitOutcome};
/// use std::time::Duration;
/// # async fn f() -> Result<(), mcp_tasks_wasm::Error> {
/// let client = HttpClient::new("http://127.0.0.1:8787/mcp")?;
/// let whole = CallOptions { timeout: Some(Duration::from_secs(30)), ..CallOptions::default() };
/// let outcome = call_and_await(&client, "slow", &serde_json::json!({"ms": 50}), whole, AwaitOptions::default()).await?;
/// if let WaitOutcome::Ok(result) = outcome {
///     web_sys::console::log_1(&result.text().into());
/// }
/// # Ok(()) }
/// ```
pub fn call_and_await<C: Client + Clone + 'static>(
    client: &C,
    name: &str,
    args: &impl Serialize,
    call: CallOptions,
    wait: AwaitOptions,
) -> impl Future<Output = Result<WaitOutcome, Error>> + 'static {
    let (client, name, args) = (shared(client), name.to_owned(), arguments("callAndAwait", args));
    async move { wait_outcome(crate::shell::call_and_await(client, &name, args?, call, wait)).await }
}

/// The engine's outcome of a one-request call; its error answer is [`Error::Task`].
async fn step(run: CallFuture) -> Result<EngineOutcome<JsValue>, Error> {
    match run.await? {
        Outcome::Engine(EngineOutcome::Error(f)) => Err(Error::Task(TaskError::of(f))),
        Outcome::Engine(other) => Ok(other),
        #[cfg(feature = "journal")]
        Outcome::Told(_) => Err(not_an_end()),
    }
}

/// Reads a task's status once (`tasks/get`, re-issued on a transient failure like `await_task`'s
/// reads); the server's error answer is [`Error::Task`].
///
/// ```no_run
/// use mcp_tasks_wasm::{get_task, Error, HttpClient, StepOptions};
/// # async fn f() -> Result<(), Error> {
/// let client = HttpClient::new("http://127.0.0.1:8787/mcp")?;
/// match get_task(&client, "tsk_does_not_exist", StepOptions::default()).await {
///     Ok(status) => web_sys::console::log_1(&status.value),
///     Err(error) if error.is_not_found() => { /* the server does not know it */ }
///     Err(other) => return Err(other),
/// }
/// # Ok(()) }
/// ```
pub fn get_task<C: Client + Clone + 'static>(
    client: &C,
    task_id: &str,
    options: StepOptions,
) -> impl Future<Output = Result<TaskStatus, Error>> + 'static {
    let (client, task_id) = (shared(client), task_id.to_owned());
    async move { reading(client, &task_id, options).await }
}

/// [`get_task`] on its way.
async fn reading(client: Rc<dyn Client>, task_id: &str, options: StepOptions) -> Result<TaskStatus, Error> {
    match step(crate::shell::get_task(client, task_id, options)).await? {
        EngineOutcome::Status(v) => TaskStatus::from_js(&v).ok_or_else(not_an_end),
        _ => Err(not_an_end()),
    }
}

/// Answers input requests by hand: `tasks/update` with `responses` (key → response; any `Serialize`
/// map) as `inputResponses` — never re-issued. `Ok(())` when acknowledged; the server's error answer
/// is [`Error::Task`].
///
/// ```no_run
/// use mcp_tasks_wasm::{update_task, HttpClient, StepOptions};
/// # async fn f() -> Result<(), mcp_tasks_wasm::Error> {
/// let client = HttpClient::new("http://127.0.0.1:8787/mcp")?;
/// let answers = serde_json::json!({"name": {"action": "accept", "content": {"name": "Ada"}}});
/// update_task(&client, "tsk_123", &answers, StepOptions::default()).await?;
/// # Ok(()) }
/// ```
pub fn update_task<C: Client + Clone + 'static>(
    client: &C,
    task_id: &str,
    responses: &impl Serialize,
    options: StepOptions,
) -> impl Future<Output = Result<(), Error>> + 'static {
    let (client, task_id) = (shared(client), task_id.to_owned());
    let responses = arguments("updateTask", responses).and_then(|r| {
        crate::shell::responses(r.unwrap_or(JsValue::NULL)).map_err(|m| Error::of(m.rejection("updateTask")))
    });
    async move { step(crate::shell::update_task(client, &task_id, responses?, options)).await.map(drop) }
}

/// Asks the server to cancel a task (`tasks/cancel`): `Ok(())` is an acknowledgement — the task may
/// still end `completed` or `failed` ([`await_task`] tells; `AwaitOptions::cancel_signal` does both in
/// one step); the server's error answer is [`Error::Task`].
///
/// ```no_run
/// use mcp_tasks_wasm::{cancel_task, HttpClient, StepOptions};
/// # async fn f() -> Result<(), mcp_tasks_wasm::Error> {
/// let client = HttpClient::new("http://127.0.0.1:8787/mcp")?;
/// cancel_task(&client, "tsk_123", StepOptions::default()).await?;
/// # Ok(()) }
/// ```
pub fn cancel_task<C: Client + Clone + 'static>(
    client: &C,
    task_id: &str,
    options: StepOptions,
) -> impl Future<Output = Result<(), Error>> + 'static {
    let (client, task_id) = (shared(client), task_id.to_owned());
    async move { step(crate::shell::cancel_task(client, &task_id, options)).await.map(drop) }
}

/// A page of the session's tasks (from [`list_tasks`]).
#[derive(Clone, Debug)]
pub struct TaskList {
    /// The tasks, in the server's order, each status in the 2026-07-28 shape.
    pub tasks: Vec<TaskStatus>,
    /// The cursor of the next page (`None`: this is the last).
    pub next_cursor: Option<String>,
}

/// Reads a page of the session's tasks (`tasks/list`, MCP 2025-11-25) from `cursor` (`None`: the
/// first page), re-issued on a transient failure like [`get_task`]. A server without a task list (every
/// MCP 2026-07-28 server, a 2025-11-25 one without `tasks.list`) answers with its JSON-RPC error:
/// [`Error::Task`] ([`codes::METHOD_NOT_FOUND`](crate::codes::METHOD_NOT_FOUND),
/// [`TaskError::is_method_not_found`](crate::TaskError::is_method_not_found)).
///
/// ```no_run
/// use mcp_tasks_wasm::{list_tasks, HttpClient, StepOptions};
/// # async fn f() -> Result<(), mcp_tasks_wasm::Error> {
/// let client = HttpClient::new("http://127.0.0.1:8787/mcp")?;
/// let mut page = list_tasks(&client, None, StepOptions::default()).await?;
/// while let Some(cursor) = page.next_cursor.take() {
///     page = list_tasks(&client, Some(&cursor), StepOptions::default()).await?;
/// }
/// # Ok(()) }
/// ```
pub fn list_tasks<C: Client + Clone + 'static>(
    client: &C,
    cursor: Option<&str>,
    options: StepOptions,
) -> impl Future<Output = Result<TaskList, Error>> + 'static {
    let (client, cursor) = (shared(client), cursor.map(JsValue::from_str));
    async move {
        match step(crate::shell::list_tasks(client, cursor, options)).await? {
            EngineOutcome::Tasks { tasks, next_cursor } => Ok(TaskList {
                tasks: tasks.items().unwrap_or_default().iter().filter_map(TaskStatus::from_js).collect(),
                next_cursor: next_cursor.and_then(|c| c.as_str()),
            }),
            _ => Err(not_an_end()),
        }
    }
}
