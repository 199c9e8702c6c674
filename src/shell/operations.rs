//! Every operation, as both faces call it, each written once: the three waits (journaled when the
//! options name a store — cargo feature `journal`, [`super::journal`] — else the engine's call as is,
//! [`super::start`]), the three steps, and the journal's `pendingTasks` and `resumeTasks`; and the rules
//! both faces read their arguments by. `Err`: the rejection of an invalid argument, named after the JS
//! function, before anything is sent.

use super::end::{CallFuture, Rejection};
use super::interop::from_js::is_plain_object;
use super::invalid::InvalidArgument;
#[cfg(feature = "journal")]
use super::journal::{self, Journal};
use super::start;
use crate::engine::wait::{read_task_ref, TaskRef};
use crate::shell::client::Client;
use crate::shell::options::StepOptions;
use crate::shell::options::{AwaitOptions, CallOptions};
#[cfg(feature = "journal")]
use crate::shell::store::JournalStore;
use std::rc::Rc;
use wasm_bindgen::JsValue;

/// The journal of a call on `client` whose options name `store` (`None`: not journaled).
#[cfg(feature = "journal")]
fn journal_of(what: &str, client: &dyn Client, store: Option<JournalStore>) -> Result<Option<Journal>, Rejection> {
    let Some(store) = store else { return Ok(None) };
    Journal::on(store, client.id()).map(Some).map_err(|m| m.rejection(what))
}

/// Sends a task-augmented `tools/call` (`callTool`); a created task is journaled with
/// `options.journal`.
pub(crate) fn call_tool(
    client: Rc<dyn Client>,
    name: &str,
    args: Option<JsValue>,
    options: CallOptions,
) -> Result<CallFuture, Rejection> {
    #[cfg(feature = "journal")]
    if let Some(j) = journal_of("callTool", client.as_ref(), options.journal.clone())? {
        return Ok(journal::call_tool(client, j, name, args, options));
    }
    Ok(start::call_tool(client, name, args, options, None))
}

/// Waits for a task to finish (`awaitTask`), journaled with `options.journal`.
pub(crate) fn await_task(
    client: Rc<dyn Client>,
    task: TaskRef<JsValue>,
    options: AwaitOptions,
) -> Result<CallFuture, Rejection> {
    #[cfg(feature = "journal")]
    if let Some(j) = journal_of("awaitTask", client.as_ref(), options.journal.clone())? {
        return journal::await_task(client, j, task, options).map_err(|m| m.rejection("awaitTask"));
    }
    start::await_task(client, task, options, None).map_err(|m| m.rejection("awaitTask"))
}

/// `callTool`, then `awaitTask` on a created task (`callAndAwait`), journaled with `wait.journal`,
/// else `call.journal`.
pub(crate) fn call_and_await(
    client: Rc<dyn Client>,
    name: &str,
    args: Option<JsValue>,
    call: CallOptions,
    wait: AwaitOptions,
) -> Result<CallFuture, Rejection> {
    #[cfg(feature = "journal")]
    {
        let store = wait.journal.clone().or_else(|| call.journal.clone());
        if let Some(j) = journal_of("callAndAwait", client.as_ref(), store)? {
            return journal::call_and_await(client, j, name, args, call, wait).map_err(|m| m.rejection("callAndAwait"));
        }
    }
    start::call_and_await(client, name, args, call, wait, None).map_err(|m| m.rejection("callAndAwait"))
}

/// Reads a task's status once (`getTask`: `tasks/get`, re-issued on a transient failure).
pub(crate) fn get_task(client: Rc<dyn Client>, task_id: &str, options: StepOptions) -> CallFuture {
    start::get_task(client, task_id, options)
}

/// Answers input requests by hand (`updateTask`: `tasks/update` with `responses`, checked to be a map
/// by both faces: [`responses`]).
pub(crate) fn update_task(
    client: Rc<dyn Client>,
    task_id: &str,
    responses: JsValue,
    options: StepOptions,
) -> CallFuture {
    start::update_task(client, task_id, responses, options)
}

/// Asks the server to cancel a task (`cancelTask`: `tasks/cancel`).
pub(crate) fn cancel_task(client: Rc<dyn Client>, task_id: &str, options: StepOptions) -> CallFuture {
    start::cancel_task(client, task_id, options)
}

/// Reads a page of the session's tasks (`listTasks`: `tasks/list`, MCP 2025-11-25), from `cursor`
/// (re-issued on a transient failure). A server without a task list answers with its JSON-RPC error.
pub(crate) fn list_tasks(client: Rc<dyn Client>, cursor: Option<JsValue>, options: StepOptions) -> CallFuture {
    start::list_tasks(client, cursor, options)
}

/// `updateTask`'s responses as both faces take them: a map (key → response). `Err`: the invalid argument.
pub(crate) fn responses(v: JsValue) -> Result<JsValue, InvalidArgument> {
    if is_plain_object(&v) {
        Ok(v)
    } else {
        Err(InvalidArgument::RESPONSES)
    }
}

/// The task `awaitTask` waits for, read from its JS value (a task id or a status). `Err`: the invalid argument.
pub(crate) fn task_ref(v: JsValue) -> Result<TaskRef<JsValue>, InvalidArgument> {
    read_task_ref(v).map_err(InvalidArgument::task)
}

/// The tasks a journal's `store` holds that can be resumed (`pendingTasks`; with `server`, that
/// server's only).
#[cfg(feature = "journal")]
pub(crate) fn pending_tasks(store: JournalStore, server: Option<JsValue>) -> journal::Listing {
    journal::pending_tasks(store, server)
}

/// Awaits every pending task of `client`'s server in `store` (`resumeTasks`); `each` hears each end as
/// it arrives. `Err`: the client has no `id` (nothing is read from the store).
#[cfg(feature = "journal")]
pub(crate) fn resume_tasks(
    client: Rc<dyn Client>,
    store: JournalStore,
    options: AwaitOptions,
    each: journal::Each,
) -> Result<journal::Resuming, Rejection> {
    let j = Journal::on(store, client.id()).map_err(|m| m.rejection("resumeTasks"))?;
    Ok(journal::resume_tasks(client, j, options, each))
}
