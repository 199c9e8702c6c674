//! The operations' arguments as JS gives them, read into the typed options, field by field, each mistake
//! with its own message (the export rejects with a `TypeError` "function: message"). Every read
//! catches: a throwing getter or Proxy trap reads as absent.

use super::client::{js_handlers, js_input_fn, js_status, read_millis};
use super::{as_function, field, is_plain_object, text_of};
use crate::engine::wait::{read_seed, Seed};
use crate::json::Json;
use crate::shell::callbacks::Handlers;
use crate::shell::client::Client;
use crate::shell::invalid::Mistake;
#[cfg(feature = "journal")]
use crate::shell::journal::store::JournalStore;
use crate::shell::js_client::ClientObject;
use crate::shell::options::{AwaitOptions, CallOptions, Input, StepOptions};
use js_sys::Function;
use std::rc::Rc;
use std::time::Duration;
use wasm_bindgen::{JsCast, JsValue};

/// An argument read, or the mistake in it.
pub type Check<T> = Result<T, Mistake>;

/// An options object: `None` for `undefined` and `null`.
fn options(v: &JsValue) -> Check<JsValue> {
    if v.is_undefined() || v.is_null() || is_plain_object(v) {
        Ok(v.clone())
    } else {
        Err(Mistake::rule("options must be an object"))
    }
}

/// A function property: `None` when absent.
fn function(o: &JsValue, key: &'static str) -> Check<Option<Function>> {
    match field(o, key) {
        None => Ok(None),
        Some(v) => as_function(&v).map(Some).ok_or(Mistake::field(key, "must be a function")),
    }
}

/// A boolean property (default false).
fn flag(o: &JsValue, key: &'static str) -> Check<bool> {
    match field(o, key) {
        None => Ok(false),
        Some(v) => v.as_bool().ok_or(Mistake::field(key, "must be a boolean")),
    }
}

/// A non-empty string argument.
pub fn name(v: &JsValue, what: &'static str) -> Check<String> {
    match text_of(v) {
        Some(s) if !s.is_empty() => Ok(s),
        _ => Err(Mistake::empty(what)),
    }
}

/// The `signal` option: an AbortSignal (duck-typed: `aborted` and `addEventListener`).
fn signal(o: &JsValue) -> Check<Option<web_sys::AbortSignal>> {
    signal_at(o, "signal")
}

/// The abort signal at `key` (`signal`, `cancelSignal`).
fn signal_at(o: &JsValue, key: &'static str) -> Check<Option<web_sys::AbortSignal>> {
    let Some(s) = field(o, key) else { return Ok(None) };
    if field(&s, "aborted").is_some() && function(&s, "addEventListener")?.is_some() {
        return Ok(Some(s.unchecked_into()));
    }
    Err(Mistake::field(key, "must be an AbortSignal"))
}

/// `timeoutMs` and `requestTimeoutMs`.
fn bounds(o: &JsValue) -> Check<(Option<Duration>, Option<Duration>)> {
    Ok((read_millis(o, "timeoutMs")?, read_millis(o, "requestTimeoutMs")?))
}

/// `inputHandlers` (`None`: the client's) and `input`.
fn input(o: &JsValue) -> Check<(Option<Handlers>, Input)> {
    let handlers = match field(o, "inputHandlers") {
        None => None,
        Some(h) if h.is_object() => Some(js_handlers(&h)),
        Some(_) => return Err(Mistake::field("inputHandlers", "must be an object")),
    };
    let input = match field(o, "input") {
        None => Input::Handlers,
        Some(v) if v.as_string().as_deref() == Some("handlers") => Input::Handlers,
        Some(v) if v.as_string().as_deref() == Some("return") => Input::Return,
        Some(v) => match as_function(&v) {
            Some(f) => Input::Function(js_input_fn(f)),
            None => return Err(Mistake::field("input", r#"must be "handlers", "return" or a function"#)),
        },
    };
    Ok((handlers, input))
}

/// The `retries` option (default 3).
fn retries(o: &JsValue) -> Check<Option<u32>> {
    match field(o, "retries") {
        None => Ok(None),
        Some(v) => match v.as_f64() {
            Some(n) if n >= 0.0 && n <= f64::from(u32::MAX) && n.fract() == 0.0 => Ok(Some(n as u32)),
            _ => Err(Mistake::field("retries", "must be a whole number, at least 0")),
        },
    }
}

thread_local! {
    /// The client read last without `clientCapabilities`: the next call on the same, unchanged client
    /// shares its reading (ten thousand waits on one client hold one).
    static LAST_CLIENT: std::cell::RefCell<Option<Rc<ClientObject>>> = const { std::cell::RefCell::new(None) };
}

/// The client: any object with a `request` function. Read on every call (its getters run each time);
/// a reading equal to the last one is shared.
pub fn client(v: &JsValue) -> Check<Rc<ClientObject>> {
    let read = ClientObject::read(v)?;
    let last = LAST_CLIENT.with(|l| l.borrow().clone());
    if let Some(last) = last.filter(|l| l.same_as(&read)) {
        return Ok(last);
    }
    let read = Rc::new(read);
    if read.client_capabilities().is_none() {
        LAST_CLIENT.with(|l| *l.borrow_mut() = Some(read.clone()));
    }
    Ok(read)
}

/// The tool arguments of `callTool` and `callAndAwait` ([`crate::shell::options::tool_args`]).
pub fn args(v: &JsValue) -> Check<Option<JsValue>> {
    crate::shell::options::tool_args(v.clone())
}

/// Everything `callTool` reads from its options.
pub fn call_options(v: &JsValue) -> Check<CallOptions> {
    let o = options(v)?;
    #[cfg_attr(not(feature = "journal"), allow(clippy::let_unit_value, unused_variables))]
    let journal = journal(&o)?;
    let (timeout, request_timeout) = bounds(&o)?;
    let (input_handlers, input) = input(&o)?;
    Ok(CallOptions {
        timeout,
        request_timeout,
        input,
        input_handlers,
        input_responses: field(&o, "inputResponses"),
        request_state: field(&o, "requestState"),
        signal: signal(&o)?,
        #[cfg(feature = "journal")]
        journal,
    })
}

/// Everything `awaitTask` reads from its options.
pub fn await_options(v: &JsValue) -> Check<AwaitOptions> {
    let o = options(v)?;
    #[cfg_attr(not(feature = "journal"), allow(clippy::let_unit_value, unused_variables))]
    let journal = journal(&o)?;
    let (timeout, request_timeout) = bounds(&o)?;
    let (input_handlers, input) = input(&o)?;
    Ok(AwaitOptions {
        timeout,
        request_timeout,
        input,
        input_handlers,
        retries: retries(&o)?,
        poll_interval: read_millis(&o, "pollIntervalMs")?,
        min_poll_interval: read_millis(&o, "minPollIntervalMs")?,
        max_poll_interval: read_millis(&o, "maxPollIntervalMs")?,
        listen_check: read_millis(&o, "listenCheckMs")?,
        cancel_on_abort: flag(&o, "cancelOnAbort")?,
        cancel_on_drop: false,
        listen: flag(&o, "listen")?,
        on_status: function(&o, "onStatus")?.map(js_status),
        signal: signal(&o)?,
        cancel_signal: signal_at(&o, "cancelSignal")?,
        answered: answered(&o)?,
        #[cfg(feature = "journal")]
        journal,
    })
}

/// The options of `getTask`, `updateTask` and `cancelTask`.
pub fn step_options(v: &JsValue) -> Check<StepOptions> {
    let o = options(v)?;
    let (timeout, request_timeout) = bounds(&o)?;
    Ok(StepOptions { timeout, request_timeout, retries: retries(&o)?, signal: signal(&o)? })
}

/// The `answered` option of `awaitTask`: `[{key, answer?}]`, the input keys answered before this wait.
fn answered(options: &JsValue) -> Check<Vec<(String, Option<JsValue>)>> {
    let want = || Mistake::field("answered", "must be an array of {key, answer?} with non-empty string keys");
    let Some(list) = field(options, "answered") else { return Ok(Vec::new()) };
    let items = list.items().ok_or_else(want)?;
    items
        .iter()
        .map(|item| match item.get_str("key") {
            Some(key) if !key.is_empty() => Ok((key, item.get("answer"))),
            _ => Err(want()),
        })
        .collect()
}

/// The task id or status `awaitTask` starts from.
pub fn seed(v: &JsValue) -> Check<Seed<JsValue>> {
    read_seed(v.clone()).map_err(Mistake::task)
}

/// A `journal` value: a store, or `true` (the default store, where IndexedDB exists).
#[cfg(feature = "journal")]
pub fn store(v: &JsValue) -> Check<JournalStore> {
    let store = if v.as_bool() == Some(true) { JournalStore::default_store() } else { JournalStore::read(v) };
    store.ok_or(Mistake::rule(
        "the journal must have get, put, delete and list (or be true: IndexedDB, where it exists)",
    ))
}

/// The `journal` option: a store (absent or `null`: none, in every function). The client's `id` is
/// checked where both APIs check it (`crate::shell::calls`).
#[cfg(feature = "journal")]
fn journal(options: &JsValue) -> Check<Option<JournalStore>> {
    match field(options, "journal") {
        Some(v) if !v.is_null() => store(&v).map(Some),
        _ => Ok(None),
    }
}

/// The `journal` option in a module built without the journal: a mistake (the `mcp-tasks-wasm/journal`
/// entry has it).
#[cfg(not(feature = "journal"))]
fn journal(options: &JsValue) -> Check<()> {
    match field(options, "journal") {
        Some(v) if !v.is_null() => {
            Err(Mistake::rule("the journal option needs the journal entry: import from \"mcp-tasks-wasm/journal\""))
        }
        _ => Ok(()),
    }
}

/// `resumeTasks`'s `onOutcome(outcome, entry)` (called with `this` undefined).
#[cfg(feature = "journal")]
pub fn on_outcome(options: &JsValue) -> Check<Option<Function>> {
    function(options, "onOutcome").map_err(|_| Mistake::field("options.onOutcome", "must be a function"))
}
