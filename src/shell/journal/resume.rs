//! Resuming: the tasks a journal holds ([`pending_tasks`]; expired entries are dropped from the store
//! as they are read), and waiting for every pending task of a server again ([`resume_tasks`]).

use super::entry::expired;
use super::key::key_of_values;
use super::{await_task, Journal};
use crate::engine::wait::TaskRef;
use crate::json::Json;
use crate::shell::client::Client;
use crate::shell::end::{Outcome, Rejection};
use crate::shell::interop::from_js::read_key;
use crate::shell::interop::to_js::js_string;
use crate::shell::options::AwaitOptions;
use crate::shell::store::JournalStore;
use js_sys::Array;
use std::future::{poll_fn, Future};
use std::pin::Pin;
use std::rc::Rc;
use std::task::Poll;
use wasm_bindgen::JsValue;

/// Hears each resumed task's end as it arrives: its index among the entries, its entry, and how it
/// ended (each API writes it its way); `Err` ends the resume with that rejection.
pub(crate) type Each = Box<dyn FnMut(u32, &JsValue, Outcome) -> Result<(), Rejection>>;

/// The entries `store` holds that can be resumed (with `server`, only those whose `server` is that
/// value), as the store gave them; an entry past its TTL is deleted from the store instead. `Err`: what
/// the store threw, or a `TypeError` when `list()` gave no array.
pub(crate) fn pending_tasks(store: JournalStore, server: Option<JsValue>) -> Listing {
    Box::pin(async move {
        let list = store.list().await.map_err(Rejection::Thrown)?;
        let Some(items) = list.items() else {
            let e = js_sys::TypeError::new("the journal's list() did not resolve with an array");
            return Err(Rejection::Thrown(e.into()));
        };
        let now = js_sys::Date::now();
        let out = Array::new();
        for entry in items {
            if !entry.is_object() || entry.get_str("taskId").is_none() {
                continue;
            }
            let entry_server = read_key(&entry, &js_string("server"));
            if expired(&entry, now) {
                let key = key_of_values(&entry_server, &read_key(&entry, &js_string("taskId")));
                store.delete(&key).await.map_err(Rejection::Thrown)?;
            } else if server.as_ref().is_none_or(|s| entry_server == *s) {
                out.push(&entry);
            }
        }
        Ok(out)
    })
}

/// [`pending_tasks`] on its way: the array of entries.
pub(crate) type Listing = Pin<Box<dyn Future<Output = Result<Array, Rejection>>>>;

/// [`resume_tasks`] on its way: done when every task was heard.
pub(crate) type Resuming = Pin<Box<dyn Future<Output = Result<(), Rejection>>>>;

/// Awaits every pending task of `journal`'s server (each as `await_task` with `options` would, under
/// its lock), all at once; `each` hears each end as it arrives. Rejects with the first rejection (the
/// other waits then end).
pub(crate) fn resume_tasks(
    client: Rc<dyn Client>,
    journal: Journal,
    options: AwaitOptions,
    mut each: Each,
) -> Resuming {
    Box::pin(async move {
        let server = JsValue::from_str(&journal.server);
        let entries = pending_tasks(journal.store.clone(), Some(server)).await?;
        let mut waits = Vec::new();
        for entry in entries.iter() {
            let task_id = entry.get_str("taskId").unwrap_or_default();
            let wait = await_task(client.clone(), journal.clone(), TaskRef::TaskId(task_id), options.clone())
                .map_err(|m| m.rejection("resumeTasks"))?;
            waits.push((entry, Some(wait)));
        }
        poll_fn(|cx| {
            let mut pending = false;
            for (i, (entry, wait)) in (0..).zip(waits.iter_mut()) {
                let Some(w) = wait.as_mut() else { continue };
                let Poll::Ready(finished) = w.as_mut().poll(cx) else {
                    pending = true;
                    continue;
                };
                *wait = None;
                if let Err(e) = finished.and_then(|ended| each(i, entry, ended)) {
                    return Poll::Ready(Err(e));
                }
            }
            if pending {
                Poll::Pending
            } else {
                Poll::Ready(Ok(()))
            }
        })
        .await
    })
}
