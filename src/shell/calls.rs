//! The three wait functions as both APIs call them, each written once: journaled when the options
//! name a store (cargo feature `journal`; `super::journal`), else the engine's call as is
//! ([`super::start`]). `Err`: the `TypeError` of a mistake, named after the JS function (`what`),
//! before anything is sent.

use super::end::{Driving, Rejection};
#[cfg(feature = "journal")]
use super::journal::{self, Journal};
use super::start;
use crate::engine::wait::Seed;
use crate::shell::client::Client;
#[cfg(feature = "journal")]
use crate::shell::journal::store::JournalStore;
use crate::shell::options::{AwaitOptions, CallOptions};
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
pub fn call_tool(
    client: Rc<dyn Client>,
    name: &str,
    args: Option<JsValue>,
    options: CallOptions,
) -> Result<Driving, Rejection> {
    #[cfg(feature = "journal")]
    if let Some(j) = journal_of("callTool", client.as_ref(), options.journal.clone())? {
        return Ok(journal::call_tool(client, j, name, args, options));
    }
    Ok(start::call_tool(client, name, args, options, None))
}

/// Waits for a task to finish (`awaitTask`), journaled with `options.journal`.
pub fn await_task(client: Rc<dyn Client>, seed: Seed<JsValue>, options: AwaitOptions) -> Result<Driving, Rejection> {
    #[cfg(feature = "journal")]
    if let Some(j) = journal_of("awaitTask", client.as_ref(), options.journal.clone())? {
        return journal::await_task(client, j, seed, options).map_err(|m| m.rejection("awaitTask"));
    }
    start::await_task(client, seed, options, None).map_err(|m| m.rejection("awaitTask"))
}

/// `callTool`, then `awaitTask` on a created task (`callAndAwait`), journaled with `wait.journal`,
/// else `call.journal`.
pub fn call_and_await(
    client: Rc<dyn Client>,
    name: &str,
    args: Option<JsValue>,
    call: CallOptions,
    wait: AwaitOptions,
) -> Result<Driving, Rejection> {
    #[cfg(feature = "journal")]
    {
        let store = wait.journal.clone().or_else(|| call.journal.clone());
        if let Some(j) = journal_of("callAndAwait", client.as_ref(), store)? {
            return journal::call_and_await(client, j, name, args, call, wait).map_err(|m| m.rejection("callAndAwait"));
        }
    }
    start::call_and_await(client, name, args, call, wait, None).map_err(|m| m.rejection("callAndAwait"))
}
