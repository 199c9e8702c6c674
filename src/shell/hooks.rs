//! The application's callbacks a run calls: `onStatus`, the input handlers and the input function.
//! Each is a Rust closure; a JS function becomes one through [`js_status`], [`js_handler`] and
//! [`js_input_fn`], so a Rust application can give its own.

use super::reply::called;
use super::values::{js_string, set_key};
use crate::shell::callbacks::{HandlerFn, Handlers, InputFn, StatusFn};
use js_sys::{Function, Object};
use std::rc::Rc;
use wasm_bindgen::prelude::*;

/// The callbacks of one part of a call (`callAndAwait` has two: the call's, then the wait's).
#[derive(Clone, Default)]
pub struct Hooks {
    /// `onStatus`.
    pub on_status: Option<StatusFn>,
    /// The input handlers.
    pub handlers: Handlers,
    /// The input function.
    pub input_fn: Option<InputFn>,
}

/// `onStatus` as a JS function: called with the status, `this` undefined.
pub fn js_status(f: Function) -> StatusFn {
    Rc::new(move |status| f.call1(&JsValue::UNDEFINED, status).map(drop))
}

/// An input handler of a JS handlers object: `f.call(handlers, params, {key, status, signal})`.
pub fn js_handler(f: Function, this: JsValue) -> HandlerFn {
    Rc::new(move |params, cx| {
        let context = Object::new();
        set_key(&context, "key", &cx.key.as_deref().map_or(JsValue::UNDEFINED, js_string));
        set_key(&context, "status", &cx.status);
        set_key(&context, "signal", &cx.signal);
        called(f.call2(&this, &params, &context))
    })
}

/// The input function as a JS function: `f(status, {signal})`.
pub fn js_input_fn(f: Function) -> InputFn {
    Rc::new(move |status, cx| {
        let context = Object::new();
        set_key(&context, "signal", &cx.signal);
        called(f.call2(&JsValue::UNDEFINED, &status, &context))
    })
}
