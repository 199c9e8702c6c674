//! What a JS client object and the options carry, read into the shell's client and callbacks: its
//! timeouts, and `onStatus`, the input handlers and the input function as Rust closures that call the
//! JS functions; and calls of a client object's own methods.

use super::{as_function, field};
use crate::shell::callbacks::{HandlerFn, Handlers};
#[cfg(feature = "js")]
use crate::shell::callbacks::{InputFn, StatusFn};
use crate::shell::interop::to_js::{js_string, set_key};
use crate::shell::invalid::InvalidArgument;
use crate::shell::millis::duration_of_millis;
use crate::shell::reply::called;
use js_sys::{Function, Object};
use std::rc::Rc;
use std::time::Duration;
use wasm_bindgen::prelude::*;

/// A duration property in milliseconds: `None` when absent; an invalid argument unless a non-negative number
/// (`Infinity`: no bound; fractions round up). One message for a client's and the options' fields.
pub(crate) fn read_millis(o: &JsValue, key: &'static str) -> Result<Option<Duration>, InvalidArgument> {
    match field(o, key) {
        None => Ok(None),
        Some(v) => match v.as_f64() {
            Some(n) if n >= 0.0 => Ok(Some(duration_of_millis(n))),
            _ => Err(InvalidArgument::field(key, "must be a non-negative number of milliseconds (or Infinity)")),
        },
    }
}

/// The input handlers of a JS handlers object (each called with the object as `this`).
pub(crate) fn js_handlers(handlers: &JsValue) -> Handlers {
    let get = |name: &str| field(handlers, name).and_then(|f| as_function(&f)).map(|f| js_handler(f, handlers.clone()));
    Handlers { form: get("form"), url: get("url"), sampling: get("sampling"), roots: get("roots") }
}

#[cfg(feature = "js")]
/// `onStatus` as a JS function: called with the status, `this` undefined.
pub(crate) fn js_status(f: Function) -> StatusFn {
    Rc::new(move |status| f.call1(&JsValue::UNDEFINED, status).map(drop))
}

/// An input handler of a JS handlers object: `f.call(handlers, params, {key, status, signal})`.
pub(crate) fn js_handler(f: Function, this: JsValue) -> HandlerFn {
    Rc::new(move |params, cx| {
        let context = Object::new();
        set_key(&context, "key", &cx.key.as_deref().map_or(JsValue::UNDEFINED, js_string));
        set_key(&context, "status", &cx.status);
        set_key(&context, "signal", &cx.signal);
        called(f.call2(&this, &params, &context))
    })
}

#[cfg(feature = "js")]
/// The input function as a JS function: `f(status, {signal})`.
pub(crate) fn js_input_fn(f: Function) -> InputFn {
    Rc::new(move |status, cx| {
        let context = Object::new();
        set_key(&context, "signal", &cx.signal);
        called(f.call2(&JsValue::UNDEFINED, &status, &context))
    })
}

/// Calls `object[name]()` when it is a function: what it gave, settled as `await` would settle it
/// (`Err`: what it threw or rejected with); `None` when there is no such function.
pub(crate) fn call_method(object: &JsValue, name: &str) -> Option<crate::shell::callbacks::Reply> {
    let f = field(object, name).and_then(|f| as_function(&f))?;
    Some(called(f.call0(object)))
}

/// Calls `object[name]()` when it is a function, dropping what it returns or throws (a method whose
/// end nobody waits for, e.g. a port client's `close`).
pub(crate) fn call_and_forget(object: &JsValue, name: &str) {
    if let Some(f) = field(object, name).and_then(|f| as_function(&f)) {
        let _ = f.call0(object);
    }
}
