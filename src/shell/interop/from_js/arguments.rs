//! The operations' arguments as JS gives them, read into the typed options, field by field, each invalid argument
//! with its own message (the export rejects with a `TypeError` "function: message"). Every read
//! catches: a throwing getter or Proxy trap reads as absent.

use super::super::Js;
use super::client::{js_handlers, js_input_fn, js_status, read_millis};
use super::{as_function, field, is_plain_object, text_of};
use crate::engine::wait::TaskRef;
use crate::json::Json;
use crate::shell::callbacks::Handlers;
use crate::shell::client::Client;
use crate::shell::invalid::InvalidArgument;
use crate::shell::js_client::JsBacked;
use crate::shell::options::{AwaitOptions, CallOptions, Input, StepOptions};
#[cfg(feature = "journal")]
use crate::shell::store::JournalStore;
use js_sys::Function;
use std::rc::Rc;
use std::time::Duration;
use wasm_bindgen::{JsCast, JsValue};

/// An argument read, or the invalid argument in it.
pub(crate) type Check<T> = Result<T, InvalidArgument>;

/// An options object: `None` for `undefined` and `null`.
fn options(v: &JsValue) -> Check<JsValue> {
    if v.is_undefined() || v.is_null() || is_plain_object(v) {
        Ok(v.clone())
    } else {
        Err(InvalidArgument::rule("options must be an object"))
    }
}

/// A function property: `None` when absent.
fn function(o: &JsValue, key: &'static str) -> Check<Option<Function>> {
    match field(o, key) {
        None => Ok(None),
        Some(v) => as_function(&v).map(Some).ok_or(InvalidArgument::field(key, "must be a function")),
    }
}

/// A boolean property (default false).
fn flag(o: &JsValue, key: &'static str) -> Check<bool> {
    match field(o, key) {
        None => Ok(false),
        Some(v) => v.as_bool().ok_or(InvalidArgument::field(key, "must be a boolean")),
    }
}

/// A non-empty string argument.
fn name(v: &JsValue, what: &'static str) -> Check<String> {
    match text_of(v) {
        Some(s) if !s.is_empty() => Ok(s),
        _ => Err(InvalidArgument::empty(what)),
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
    Err(InvalidArgument::field(key, "must be an AbortSignal"))
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
        Some(_) => return Err(InvalidArgument::field("inputHandlers", "must be an object")),
    };
    let input = match field(o, "input") {
        None => Input::Handlers,
        Some(v) if v.as_string().as_deref() == Some("handlers") => Input::Handlers,
        Some(v) if v.as_string().as_deref() == Some("return") => Input::Return,
        Some(v) => match as_function(&v) {
            Some(f) => Input::Function(js_input_fn(f)),
            None => return Err(InvalidArgument::field("input", r#"must be "handlers", "return" or a function"#)),
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
            _ => Err(InvalidArgument::field("retries", "must be a whole number, at least 0")),
        },
    }
}

thread_local! {
    /// The client read last without `clientCapabilities`: the next call on the same, unchanged client
    /// shares its reading (ten thousand waits on one client hold one).
    static LAST_CLIENT: std::cell::RefCell<Option<Rc<JsBacked>>> = const { std::cell::RefCell::new(None) };
}

/// The client: any object with a `request` function. Read on every call (its getters run each time);
/// a reading equal to the last one is shared.
fn client(v: &JsValue) -> Check<Rc<JsBacked>> {
    let read = JsBacked::read(v)?;
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

/// Everything `callTool` reads from its options.
fn call_options(v: &JsValue) -> Check<CallOptions> {
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
        task_ttl: super::client::read_millis(&o, "taskTtlMs")?,
        signal: signal(&o)?,
        #[cfg(feature = "journal")]
        journal,
    })
}

/// Everything `awaitTask` reads from its options.
fn await_options(v: &JsValue) -> Check<AwaitOptions> {
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
        listen_fallback: flag(&o, "listenFallback")?,
        on_status: function(&o, "onStatus")?.map(js_status),
        signal: signal(&o)?,
        cancel_signal: signal_at(&o, "cancelSignal")?,
        answered: answered(&o)?,
        #[cfg(feature = "journal")]
        journal,
    })
}

/// The options of `getTask`, `updateTask` and `cancelTask`.
fn step_options(v: &JsValue) -> Check<StepOptions> {
    let o = options(v)?;
    let (timeout, request_timeout) = bounds(&o)?;
    Ok(StepOptions { timeout, request_timeout, retries: retries(&o)?, signal: signal(&o)? })
}

/// The `answered` option of `awaitTask`: `[{key, answer?}]`, the input keys answered before this wait.
fn answered(options: &JsValue) -> Check<Vec<(String, Option<JsValue>)>> {
    let want = || InvalidArgument::field("answered", "must be an array of {key, answer?} with non-empty string keys");
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

/// A `journal` value: a store, or `true` (the default store, where IndexedDB exists).
#[cfg(feature = "journal")]
fn store(v: &JsValue) -> Check<JournalStore> {
    if v.as_bool() == Some(true) {
        return JournalStore::default_store().ok_or(InvalidArgument::rule(
            "journal: true keeps the journal in IndexedDB, which this environment lacks (Node has none): pass a store — memoryJournal(), extensionStorageJournal(area) or your own {get, put, delete, list}",
        ));
    }
    JournalStore::read(v).ok_or(InvalidArgument::rule(
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

/// The `journal` option in a module built without the journal: an invalid argument (the `mcp-tasks-wasm/journal`
/// entry has it).
#[cfg(not(feature = "journal"))]
fn journal(options: &JsValue) -> Check<()> {
    match field(options, "journal") {
        Some(v) if !v.is_null() => Err(InvalidArgument::rule(
            "the journal option needs the journal entry: import from \"mcp-tasks-wasm/journal\"",
        )),
        _ => Ok(()),
    }
}

/// `resumeTasks`'s `onOutcome(outcome, entry)` (called with `this` undefined).
#[cfg(feature = "journal")]
fn on_outcome(options: &JsValue) -> Check<Option<Function>> {
    function(options, "onOutcome").map_err(|_| InvalidArgument::field("options.onOutcome", "must be a function"))
}

impl TryFrom<Js<'_>> for CallOptions {
    type Error = InvalidArgument;
    fn try_from(v: Js<'_>) -> Check<Self> {
        call_options(v.0)
    }
}

impl TryFrom<Js<'_>> for AwaitOptions {
    type Error = InvalidArgument;
    fn try_from(v: Js<'_>) -> Check<Self> {
        await_options(v.0)
    }
}

impl TryFrom<Js<'_>> for StepOptions {
    type Error = InvalidArgument;
    fn try_from(v: Js<'_>) -> Check<Self> {
        step_options(v.0)
    }
}

impl TryFrom<Js<'_>> for Rc<JsBacked> {
    type Error = InvalidArgument;
    fn try_from(v: Js<'_>) -> Check<Self> {
        client(v.0)
    }
}

#[cfg(feature = "journal")]
impl TryFrom<Js<'_>> for JournalStore {
    type Error = InvalidArgument;
    fn try_from(v: Js<'_>) -> Check<Self> {
        store(v.0)
    }
}

impl Js<'_> {
    /// A non-empty string (a tool name, a task id; `what` names it in the invalid argument).
    pub(crate) fn name(self, what: &'static str) -> Check<String> {
        name(self.0, what)
    }

    /// A tool's arguments: none, or an object ([`tool_args`](crate::shell::options::tool_args)).
    pub(crate) fn tool_args(self) -> Check<Option<JsValue>> {
        crate::shell::options::tool_args(self.0.clone())
    }

    /// The task `awaitTask` waits for: a task id or a status.
    pub(crate) fn task_ref(self) -> Check<TaskRef<JsValue>> {
        crate::shell::operations::task_ref(self.0.clone())
    }

    /// `updateTask`'s responses: a map (key → response).
    pub(crate) fn responses(self) -> Check<JsValue> {
        crate::shell::operations::responses(self.0.clone())
    }

    /// An optional field of an options object (`undefined`: absent or unreadable).
    #[cfg(feature = "journal")]
    pub(crate) fn field(self, key: &str) -> Option<JsValue> {
        field(self.0, key)
    }

    /// `resumeTasks`'s `onOutcome(outcome, entry)` (called with `this` undefined).
    #[cfg(feature = "journal")]
    pub(crate) fn on_outcome(self) -> Check<Option<Function>> {
        on_outcome(self.0)
    }
}
