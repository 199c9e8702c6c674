//! Resuming: the tasks a journal holds ([`pending_tasks`]; expired entries are dropped from the store
//! as they are read), and waiting for every pending task of a server again ([`resume_tasks`]).

use super::entry::expired;
use super::store::{key_of_values, Store};
use super::{await_task, Journal};
use crate::engine::wait::Seed;
use crate::json::Json;
use crate::shell::client::Client;
use crate::shell::options::AwaitOptions;
use crate::shell::settle::{type_error, Ended};
use crate::shell::values::{js_string, read_key};
use js_sys::Array;
use std::future::{poll_fn, Future};
use std::pin::Pin;
use std::rc::Rc;
use std::task::Poll;
use wasm_bindgen::JsValue;

/// Called with each resumed task's outcome (as the calling API writes it) and its entry, as the
/// outcome arrives; `Err` is what it threw (the resume then rejects with it).
pub type OutcomeFn<T> = Rc<dyn Fn(&T, &JsValue) -> Result<(), JsValue>>;

/// The entries `store` holds that can be resumed (with `server`, only those whose `server` is that
/// value), as the store gave them; an entry past its TTL is deleted from the store instead. `Err`: what
/// the store threw, or a `TypeError` when `list()` gave no array.
pub fn pending_tasks(store: Store, server: Option<JsValue>) -> Listing {
    Box::pin(async move {
        let list = store.list().await?;
        let Some(items) = list.items() else {
            return Err(js_sys::TypeError::new("the journal's list() did not resolve with an array").into());
        };
        let now = js_sys::Date::now();
        let out = Array::new();
        for entry in items {
            if !entry.is_object() || entry.get_str("taskId").is_none() {
                continue;
            }
            let entry_server = read_key(&entry, &js_string("server"));
            if expired(&entry, now) {
                store.delete(&key_of_values(&entry_server, &read_key(&entry, &js_string("taskId")))).await?;
            } else if server.as_ref().is_none_or(|s| entry_server == *s) {
                out.push(&entry);
            }
        }
        Ok(out)
    })
}

/// [`pending_tasks`] on its way: the array of entries.
pub type Listing = Pin<Box<dyn Future<Output = Result<Array, JsValue>>>>;

/// [`resume_tasks`] on its way: each task resumed, in the order of the entries, as its entry and its
/// outcome.
pub type Resuming<T> = Pin<Box<dyn Future<Output = Result<Vec<(JsValue, T)>, JsValue>>>>;

/// Awaits every pending task of `journal`'s server (each as `await_task` with `options` would, under
/// its lock), all at once; each outcome is written with `write` (the calling API's shape: the JS
/// object, or the typed outcome) and heard by `on_outcome` as it arrives. Rejects with the first
/// rejection (the other waits then end).
pub fn resume_tasks<T: 'static>(
    client: Rc<dyn Client>,
    journal: Journal,
    options: AwaitOptions,
    write: fn(Ended) -> Result<T, JsValue>,
    on_outcome: Option<OutcomeFn<T>>,
) -> Resuming<T> {
    Box::pin(async move {
        let server = JsValue::from_str(&journal.server);
        let entries = pending_tasks(journal.store.clone(), Some(server)).await?;
        let mut waits = Vec::new();
        for entry in entries.iter() {
            let task_id = entry.get_str("taskId").unwrap_or_default();
            let wait = await_task(client.clone(), journal.clone(), Seed::TaskId(task_id), options.clone())
                .map_err(|m| type_error("resumeTasks", &m))?;
            waits.push((entry, Some(wait)));
        }
        let mut done: Vec<Option<T>> = waits.iter().map(|_| None).collect();
        poll_fn(|cx| {
            let mut pending = false;
            for ((entry, wait), slot) in waits.iter_mut().zip(done.iter_mut()) {
                let Some(w) = wait.as_mut() else { continue };
                let Poll::Ready(finished) = w.as_mut().poll(cx) else {
                    pending = true;
                    continue;
                };
                *wait = None;
                let outcome = match finished.and_then(write) {
                    Ok(o) => o,
                    Err(e) => return Poll::Ready(Err(e)),
                };
                if let Some(f) = &on_outcome {
                    if let Err(e) = f(&outcome, entry) {
                        return Poll::Ready(Err(e));
                    }
                }
                *slot = Some(outcome);
            }
            if pending {
                Poll::Pending
            } else {
                Poll::Ready(Ok(()))
            }
        })
        .await?;
        Ok(waits.into_iter().zip(done).filter_map(|((entry, _), o)| Some((entry, o?))).collect())
    })
}
