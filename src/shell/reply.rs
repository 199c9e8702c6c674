//! What a request, a callback or a store gave, as a future ([`Reply`]): how a JS value, a promise or
//! a call's result becomes one. Application code's values are settled as `await` would settle them.

use crate::shell::callbacks::Reply;
use std::future::Future;
use std::pin::Pin;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;

#[wasm_bindgen(module = "/src/shell/adopt.js")]
extern "C" {
    /// A promise of the module's own that settles as `await v` would, its value boxed as `[value]`
    /// (see `adopt.js`): the only kind of promise the module awaits, whatever application code returned.
    fn adopt(v: &JsValue) -> js_sys::Promise;
}

/// A future that is the settlement of `promise` (a native promise the module made, or one of the host's).
pub(crate) fn settled(promise: js_sys::Promise) -> Reply {
    Box::pin(JsFuture::from(promise))
}

/// What application code returned, settled as `await` would settle it (see [`adopt`]).
struct Adopted(JsFuture);

impl Future for Adopted {
    type Output = Result<JsValue, JsValue>;

    fn poll(mut self: Pin<&mut Self>, cx: &mut std::task::Context<'_>) -> std::task::Poll<Self::Output> {
        // `adopt` fulfils with `[value]`, an array of its own.
        Pin::new(&mut self.0).poll(cx).map(|r| r.map(|boxed| boxed.unchecked_into::<js_sys::Array>().get_unchecked(0)))
    }
}

/// The settlement of `value`, whatever application code returned (a value, a promise, a thenable).
pub(crate) fn awaited(value: &JsValue) -> Reply {
    Box::pin(Adopted(JsFuture::from(adopt(value))))
}

/// The settlement of what calling `f` gave: its (promised) value, or what it threw.
pub(crate) fn called(result: Result<JsValue, JsValue>) -> Reply {
    match result {
        Ok(v) => awaited(&v),
        Err(e) => settled(js_sys::Promise::reject(&e)),
    }
}
