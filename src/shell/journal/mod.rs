//! The task journal: long tasks survive page reloads, closed tabs and extension service-worker
//! restarts.
//!
//! With a journal, [`call_tool`], [`call_and_await`] and [`await_task`] record each task they create
//! or await — before the outcome can be lost — and remove it at a terminal outcome; [`pending_tasks`]
//! lists what is left and [`resume_tasks`] awaits it again. The rules:
//! - a task is journaled before the engine sees the answer that created it; an input answer is
//!   journaled (key, SHA-256 of its JSON, and the answer itself) before the `tasks/update` that carries
//!   it goes out, and the answer is dropped once that update is acknowledged (the hash stays);
//! - a resumed wait never asks a key answered before: an acknowledged key counts as answered; an
//!   unacknowledged answer is sent once again, without calling a handler (`answered` of the wait);
//! - one waiter per task across the tabs and workers of an origin ([`lock`]);
//! - a store that fails ends the call with an error outcome (`kind: "journal"`), never a silent loss.
//!
//! The stores themselves are JS objects behind the `Journal` interface ([`JournalStore`]).

mod calls;
mod client;
mod entry;
mod hash;
pub(crate) mod key;
pub(crate) mod lock;
mod record;
mod resume;

pub(crate) use calls::{await_task, call_and_await, call_tool};
pub(crate) use resume::{pending_tasks, resume_tasks, Each, Listing, Resuming};

use crate::engine::{Cause as EngineCause, Outcome as EngineOutcome};
use crate::shell::invalid::InvalidArgument;
use crate::shell::store::JournalStore;
use wasm_bindgen::JsValue;

/// Where a journaled call records its task: the store, and the server the task belongs to (the
/// client's `id`: a task id is unique only on its server).
#[derive(Clone, Debug)]
pub(crate) struct Journal {
    /// The store.
    pub store: JournalStore,
    /// The client's `id`.
    pub server: String,
}

impl Journal {
    /// A journal of `store` for a client whose `id` is `id`: a task id is unique only on its server, so
    /// a journaled client needs a non-empty `id`. `Err`: the one message of that invalid argument, in both APIs.
    pub(crate) fn on(store: JournalStore, id: Option<String>) -> Result<Journal, InvalidArgument> {
        match id {
            Some(server) if !server.is_empty() => Ok(Journal { store, server }),
            _ => Err(InvalidArgument::rule(
                "a journaled client needs an id (HTTP and stdio clients have one; set it on others)",
            )),
        }
    }
}

/// An outcome after which the task can never be resumed: `ok`, `cancelled`, the task failed or
/// expired, or the server does not know it (`-32602`).
pub(crate) fn is_terminal(o: &EngineOutcome<JsValue>) -> bool {
    match o {
        EngineOutcome::Result(_)
        | EngineOutcome::Status(_)
        | EngineOutcome::Ack
        | EngineOutcome::Tasks { .. }
        | EngineOutcome::Cancelled(_) => true,
        EngineOutcome::Error(f) => match f.cause {
            Some(EngineCause::TaskFailed { .. } | EngineCause::Expired { .. }) => true,
            Some(EngineCause::RpcError { .. }) => f.code == -32602,
            _ => false,
        },
        EngineOutcome::Task(_) | EngineOutcome::InputRequired(_) | EngineOutcome::CallInputRequired(_) => false,
    }
}
