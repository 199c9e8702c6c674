//! The task journal from Rust: the stores ([`JournalStore`]), what a journal holds
//! ([`pending_tasks`]) and waiting for it again ([`resume_tasks`]). A call journals its task when its
//! options name a store (`CallOptions::journal`, `AwaitOptions::journal`); the rules are the JS API's
//! (see the README's "task journal").

use super::error::Error;
use super::outcome::WaitOutcome;
use super::status::TaskStatus;
use crate::json::Json;
use crate::shell::{AwaitOptions, Client, Each, JournalStore, Outcome, Rejection};
use std::cell::RefCell;
use std::future::Future;
use std::rc::Rc;
use wasm_bindgen::JsValue;

/// A journaled task that can be resumed (JS: a `JournalEntry`).
///
/// ```no_run
/// # fn f(task: mcp_tasks_wasm::PendingTask) {
/// web_sys::console::log_2(&task.task_id.as_str().into(), &task.tool.unwrap_or_default().as_str().into());
/// # }
/// ```
#[derive(Clone, Debug)]
pub struct PendingTask {
    /// The task's id.
    pub task_id: String,
    /// The server it runs on (the client's `id`).
    pub server: String,
    /// The tool that created it, when known.
    pub tool: Option<String>,
    /// The generation its client spoke (`"2026-07-28"`, `"2025-11-25"`), when known.
    pub generation: Option<String>,
    /// Its MCP 2025-11-25 session's id (HTTP's `Mcp-Session-Id`), when known: a task belongs to its
    /// session, and a wait resumed on another session ends with the server's "no such task".
    pub session_id: Option<String>,
    /// The last status seen.
    pub status: Option<TaskStatus>,
    /// The entry, as the store gave it.
    pub entry: JsValue,
}

impl PendingTask {
    fn from_js(entry: &JsValue) -> Self {
        Self {
            task_id: entry.get_str("taskId").unwrap_or_default(),
            server: entry.get_str("server").unwrap_or_default(),
            tool: entry.get_str("tool"),
            generation: entry.get_str("generation"),
            session_id: entry.get_str("sessionId"),
            status: entry.get("status").and_then(|s| TaskStatus::from_js(&s)),
            entry: entry.clone(),
        }
    }
}

/// The tasks `store` holds that can be resumed — with `server`, only that server's (expired entries
/// are deleted from the store as they are read). `Err`: what the store threw ([`Error::Callback`]).
///
/// ```no_run
/// use mcp_tasks_wasm::{pending_tasks, JournalStore};
/// # async fn f() -> Result<(), mcp_tasks_wasm::Error> {
/// let store = JournalStore::indexed_db("mcp-tasks-wasm")?;
/// let left = pending_tasks(&store, Some("http://127.0.0.1:8787/mcp")).await?;
/// # Ok(()) }
/// ```
pub fn pending_tasks(
    store: &JournalStore,
    server: Option<&str>,
) -> impl Future<Output = Result<Vec<PendingTask>, Error>> + 'static {
    let listing = crate::shell::pending_tasks(store.clone(), server.map(JsValue::from_str));
    async move { Ok(listing.await?.iter().map(|e| PendingTask::from_js(&e)).collect()) }
}

/// One resumed task and how it ended.
///
/// ```no_run
/// # fn f(done: mcp_tasks_wasm::Resumed) {
/// if let mcp_tasks_wasm::WaitOutcome::Ok(result) = &done.outcome { web_sys::console::log_1(&result.value); }
/// # }
/// ```
#[derive(Clone, Debug)]
pub struct Resumed {
    /// The task's id.
    pub task_id: String,
    /// The tool that created it, when known.
    pub tool: Option<String>,
    /// How its wait ended.
    pub outcome: WaitOutcome,
}

/// Called with each resumed task's outcome as it arrives (JS: `resumeTasks`'s `onOutcome`).
///
/// ```no_run
/// use mcp_tasks_wasm::OnOutcome;
/// use std::rc::Rc;
/// let heard: OnOutcome = Rc::new(|outcome, task| web_sys::console::log_1(&task.task_id.as_str().into()));
/// ```
pub type OnOutcome = Rc<dyn Fn(&WaitOutcome, &PendingTask)>;

/// Awaits every pending task of `client`'s server in `store`, all at once (each as [`await_task`]
/// with `options` would, as the one waiter of its task; answered keys are never asked again);
/// `on_outcome` hears each outcome as it arrives. Resolves with one [`Resumed`] per task, in the
/// store's order. `Err`: the first rejection (the other waits then end), or
/// [`Error::InvalidArgument`] for a client without an `id`.
///
/// [`await_task`]: crate::await_task
///
/// ```no_run
/// use mcp_tasks_wasm::{resume_tasks, AwaitOptions, HttpClient, JournalStore};
/// # async fn f() -> Result<(), mcp_tasks_wasm::Error> {
/// let client = HttpClient::new("http://127.0.0.1:8787/mcp")?;
/// let store = JournalStore::indexed_db("mcp-tasks-wasm")?;
/// for done in resume_tasks(&client, &store, AwaitOptions::default(), None).await? {
///     web_sys::console::log_1(&done.task_id.as_str().into());
/// }
/// # Ok(()) }
/// ```
pub fn resume_tasks<C: Client + Clone + 'static>(
    client: &C,
    store: &JournalStore,
    options: AwaitOptions,
    on_outcome: Option<OnOutcome>,
) -> impl Future<Output = Result<Vec<Resumed>, Error>> + 'static {
    let (shared, store): (Rc<dyn Client>, JournalStore) = (Rc::new(client.clone()), store.clone());
    async move { resuming(shared, store, options, on_outcome).await }
}

/// [`resume_tasks`] on its way.
async fn resuming(
    client: Rc<dyn Client>,
    store: JournalStore,
    options: AwaitOptions,
    on_outcome: Option<OnOutcome>,
) -> Result<Vec<Resumed>, Error> {
    let done = Rc::new(RefCell::new(Vec::new()));
    let heard = done.clone();
    let each: Each = Box::new(move |i: u32, entry: &JsValue, ended: Outcome| {
        let outcome =
            WaitOutcome::of(ended).ok_or(Rejection::InvalidArgument(String::from("resumeTasks: not an outcome")))?;
        if let Some(f) = &on_outcome {
            f(&outcome, &PendingTask::from_js(entry));
        }
        let (task_id, tool) = (entry.get_str("taskId").unwrap_or_default(), entry.get_str("tool"));
        heard.borrow_mut().push((i, Resumed { task_id, tool, outcome }));
        Ok(())
    });
    crate::shell::resume_tasks(client, store, options, each)?.await?;
    let mut done = done.take();
    done.sort_by_key(|(i, _)| *i);
    Ok(done.into_iter().map(|(_, r)| r).collect())
}
