//! The JS helpers the transports share (the message channel and what is built on it, the in-process
//! client, the exports' argument errors), in one module so no transport reaches into another: error objects (`TypeError`,
//! `McpHttpError`), the options and `_meta` every client adds (`Common`), the per-request abort
//! wiring (`Abort`: the caller's signal and a timeout, on gloo-timers like every timer of the
//! module), and async-iterator steps.

use crate::json::{Json, Kind};
use crate::proto::{META_CLIENT_CAPABILITIES, META_CLIENT_INFO, META_PROTOCOL_VERSION, PROTOCOL_VERSION};
use crate::text::decimal;
use gloo_timers::callback::Timeout;
use js_sys::{Function, Object, Reflect, Symbol};
use std::cell::Cell;
use std::rc::Rc;
use wasm_bindgen::prelude::*;

#[wasm_bindgen(module = "/src/transport/later.js")]
extern "C" {
    #[wasm_bindgen(js_name = unlistenLater)]
    fn unlisten_later(signal: &JsValue, listener: &JsValue);
}

/// Why a request's controller was aborted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Why {
    /// Not aborted (yet).
    NotAborted,
    /// The caller's signal fired, or the request was closed.
    Signal,
    /// Its timeout ran out.
    Timeout,
}

/// Concatenates `parts`.
pub(crate) fn cat(parts: &[&str]) -> String {
    let mut s = String::new();
    for p in parts {
        s.push_str(p);
    }
    s
}

/// A `TypeError` whose message is prefixed with the function name.
pub(crate) fn type_error(function: &str, message: &str) -> JsValue {
    js_sys::TypeError::new(&cat(&[function, ": ", message])).into()
}

/// An `McpHttpError` of a channel (no HTTP): an `Error` named `McpHttpError` with `status: 0`,
/// `body: ""` and, when known, the `cause` — the same shape the JS transports' `transportError` gives.
pub(crate) fn mcp_error(message: &str, cause: &JsValue) -> JsValue {
    let e = js_sys::Error::new(message);
    e.set_name("McpHttpError");
    let e: JsValue = e.into();
    set(&e, "status", &JsValue::from(0));
    set(&e, "body", &JsValue::from_str(""));
    if !cause.is_undefined() {
        set(&e, "cause", cause);
    }
    e
}

pub(crate) fn set(target: &JsValue, key: &str, value: &JsValue) {
    let _ = Reflect::set(target, &JsValue::from_str(key), value);
}

pub(crate) fn function(target: &JsValue, key: &str) -> Option<Function> {
    target.get(key).and_then(|f| f.dyn_into::<Function>().ok())
}

/// What every channel client adds to every request and copies onto the client object.
pub(crate) struct Common {
    /// `_meta["io.modelcontextprotocol/clientInfo"]` unless the request has one.
    info: JsValue,
    /// `_meta["io.modelcontextprotocol/clientCapabilities"]` unless the request has one.
    caps: JsValue,
    /// The default request timeout (`requestTimeoutMs`).
    timeout_ms: Option<f64>,
    /// `clientCapabilities`, `inputHandlers`, `requestTimeoutMs` as given, for the client object.
    fields: Vec<(&'static str, JsValue)>,
}

/// What an option must be.
#[derive(Clone, Copy)]
enum Want {
    /// A plain object.
    Object,
    /// A non-negative number.
    Number,
}

impl Want {
    fn fits(self, v: &JsValue) -> bool {
        match self {
            Self::Object => v.kind() == Kind::Object,
            Self::Number => v.as_f64().is_some_and(|n| n >= 0.0),
        }
    }
}

/// The options every client takes, and their types.
const OPTIONS: [(&str, Want, &str); 4] = [
    ("clientInfo", Want::Object, "an object"),
    ("clientCapabilities", Want::Object, "an object"),
    ("inputHandlers", Want::Object, "an object"),
    ("requestTimeoutMs", Want::Number, "a non-negative number"),
];

/// Checks and reads the options every client takes (`clientInfo`, `clientCapabilities`,
/// `inputHandlers`, `requestTimeoutMs`); a bad type is a `TypeError` naming `function`.
pub(crate) fn read_common(options: &JsValue, function: &str) -> Result<Common, JsValue> {
    crate::wasm::install_panic_hook();
    if !(options.is_undefined() || options.is_null() || options.kind() == Kind::Object) {
        return Err(type_error(function, "options must be an object"));
    }
    let mut fields = Vec::new();
    for (i, (key, want, what)) in OPTIONS.iter().enumerate() {
        let Some(v) = options.get(key) else { continue };
        let fits = want.fits(&v);
        if !fits {
            return Err(type_error(function, &cat(&["options.", key, " must be ", what])));
        }
        if (1..4).contains(&i) {
            fields.push((*key, v));
        }
    }
    let info = options.get("clientInfo").unwrap_or_else(|| {
        JsValue::object(vec![
            ("name", JsValue::from_str("mcp-tasks-wasm")),
            ("version", JsValue::from_str(env!("CARGO_PKG_VERSION"))),
        ])
    });
    let caps = options.get("clientCapabilities").unwrap_or_else(|| JsValue::object(vec![]));
    Ok(Common { info, caps, timeout_ms: options.get_f64("requestTimeoutMs"), fields })
}

impl Common {
    /// A shallow copy of `params` with a new `_meta`: the caller's `_meta` fields, the protocol
    /// version, and the client info and capabilities unless `_meta` already has them. The caller's
    /// objects are never modified.
    pub(crate) fn params(&self, params: &JsValue) -> Result<JsValue, JsValue> {
        let copy = Object::new();
        if params.kind() == Kind::Object {
            Object::assign(&copy, params.unchecked_ref());
        } else if !(params.is_undefined() || params.is_null()) {
            return Err(type_error("request", "params must be an object"));
        }
        let meta = Object::new();
        if let Some(m) = params.get("_meta").filter(Json::is_object) {
            Object::assign(&meta, m.unchecked_ref());
        }
        let meta: JsValue = meta.into();
        set(&meta, META_PROTOCOL_VERSION, &JsValue::from_str(PROTOCOL_VERSION));
        for (key, value) in [(META_CLIENT_INFO, &self.info), (META_CLIENT_CAPABILITIES, &self.caps)] {
            if meta.get(key).is_none() {
                set(&meta, key, value);
            }
        }
        let copy: JsValue = copy.into();
        set(&copy, "_meta", &meta);
        Ok(copy)
    }

    /// A new client object carrying the options it must show (`clientCapabilities`, `inputHandlers`,
    /// `requestTimeoutMs`).
    pub(crate) fn client_object(&self) -> JsValue {
        let client: JsValue = Object::new().into();
        for (key, value) in &self.fields {
            set(&client, key, value);
        }
        client
    }

    /// The request's timeout: `timeoutMs` of the call options, else the client's.
    pub(crate) fn timeout(&self, opts: &JsValue) -> Option<f64> {
        opts.get_f64("timeoutMs").or(self.timeout_ms)
    }
}

/// The `McpHttpError` for a request given up: its signal aborted it, or its timeout (`timeout_ms`)
/// ran out.
pub(crate) fn abort_error(what: &str, why: Why, timeout_ms: f64) -> JsValue {
    let reason = match why {
        Why::Timeout => cat(&["request timed out after ", &decimal(timeout_ms.min(u32::MAX as f64) as u64), " ms"]),
        _ => "request aborted".to_owned(),
    };
    mcp_error(&cat(&[what, ": ", &reason]), &JsValue::UNDEFINED)
}

/// What an [`Abort`] callback does when the caller's signal or the timer fires.
struct Trip {
    why: Cell<Why>,
    hook: Box<dyn Fn(Why)>,
}

/// Ties one request to the caller's `signal` and a timeout: `hook` runs once when either fires;
/// dropping it unties them.
pub(crate) struct Abort {
    trip: Rc<Trip>,
    signal: Option<(JsValue, JsValue)>,
    /// The timeout, a gloo-timers `Timeout` (dropping it clears it), as every timer of the module.
    timer: Option<Timeout>,
}

impl Abort {
    /// Watches `signal` (already aborted: fires at once) and arms `timeout_ms` (finite only);
    /// `hook` is called once when either fires, with why.
    pub(crate) fn new(signal: Option<JsValue>, timeout_ms: Option<f64>, hook: Box<dyn Fn(Why)>) -> Self {
        let trip = Rc::new(Trip { why: Cell::new(Why::NotAborted), hook });
        let mut this = Self { trip, signal: None, timer: None };
        if let Some(ms) = timeout_ms.filter(|ms| ms.is_finite()) {
            let t = this.trip.clone();
            this.timer = Some(Timeout::new(ms.clamp(0.0, f64::from(i32::MAX)) as u32, move || t.fire(Why::Timeout)));
        }
        if let Some(signal) = signal {
            if signal.get("aborted").and_then(|a| a.as_bool()) == Some(true) {
                this.trip.fire(Why::Signal);
            } else if let Some(add) = function(&signal, "addEventListener") {
                let t = this.trip.clone();
                let fire = Closure::<dyn Fn()>::new(move || t.fire(Why::Signal)).into_js_value();
                let _ = add.call2(&signal, &"abort".into(), &fire);
                this.signal = Some((signal, fire));
            }
        }
        this
    }
}

impl Trip {
    fn fire(&self, why: Why) {
        if self.why.get() == Why::NotAborted {
            self.why.set(why);
            (self.hook)(why);
        }
    }
}

impl Drop for Abort {
    fn drop(&mut self) {
        drop(self.timer.take());
        if let Some((signal, listener)) = self.signal.take() {
            // The signal may be duck-typed: its removeEventListener is application code.
            unlisten_later(&signal, &listener);
        }
    }
}

/// `{done, value}`: one step of an async iterator.
pub(crate) fn step(done: bool, value: JsValue) -> JsValue {
    JsValue::object(vec![("done", JsValue::from_bool(done)), ("value", value)])
}

/// An async iterator object from its `next` and `return` functions (`[Symbol.asyncIterator]()` is itself).
pub(crate) fn async_iterator(next: JsValue, ret: JsValue) -> JsValue {
    let it = JsValue::object(vec![("next", next), ("return", ret)]);
    // `Object.prototype.valueOf` returns `this`: exactly what `[Symbol.asyncIterator]` must do.
    if let Ok(value_of) = Reflect::get(&Object::new(), &"valueOf".into()) {
        let _ = Reflect::set(&it, &Symbol::async_iterator(), &value_of);
    }
    it
}
