//! The imports from `rt.js`, the shell's JS side. Each catches what application code throws, so no
//! JS exception can cross into the module (and leave a borrow held or a future unfinished).

use js_sys::{Array, Function};
use wasm_bindgen::prelude::*;

#[wasm_bindgen(module = "/src/wasm/rt.js")]
extern "C" {
    /// Installs the shell's callback `(run, token, kind, value)`.
    #[wasm_bindgen(js_name = rtInit)]
    pub fn rt_init(f: &Function);
    /// `client.request(method, params, {signal, timeoutMs?})`; returns its abort handle.
    pub fn send(
        client: &JsValue,
        request: &Function,
        method: &JsValue,
        params: &JsValue,
        timeout_ms: Option<f64>,
        run: f64,
        token: u32,
    ) -> JsValue;
    /// Calls an input handler (`key` given) or the input function; returns its abort handle.
    pub fn ask(
        f: &Function,
        this: &JsValue,
        arg: &JsValue,
        key: Option<String>,
        status: &JsValue,
        run: f64,
        token: u32,
    ) -> JsValue;
    /// `target[key]` of an object (not null, not a function), else `undefined` — also when reading it
    /// throws (a getter, a Proxy trap, a revoked Proxy).
    #[wasm_bindgen(js_name = readKey)]
    pub fn read_key(target: &JsValue, key: &JsValue) -> JsValue;
    /// `target[key] = value` on an object the module just made (it cannot throw).
    #[wasm_bindgen(js_name = writeKey)]
    pub fn write_key(target: &JsValue, key: &JsValue, value: &JsValue);
    /// Aborts a request's or an ask's abort handle.
    pub fn abort(handle: &JsValue);
    /// Opens a listen stream; returns its handle.
    #[wasm_bindgen(js_name = openStream)]
    pub fn open_stream(client: &JsValue, listen: &Function, params: &JsValue, run: f64, token: u32) -> JsValue;
    /// Closes a listen stream without waiting for it.
    #[wasm_bindgen(js_name = closeStream)]
    pub fn close_stream(handle: &JsValue);
    /// Watches an abort signal; returns the function that stops watching (or undefined).
    pub fn watch(signal: &JsValue, run: f64, token: u32) -> JsValue;
    /// `f.call(this, arg)`: undefined, or `[error]` when it threw.
    pub fn call1(f: &Function, this: &JsValue, arg: &JsValue) -> JsValue;
    /// Calls `f()` when it is a function, ignoring what it throws.
    #[wasm_bindgen(js_name = callQuietly)]
    pub fn call_quietly(f: &JsValue);
    /// `signal.aborted === true` (false when unreadable).
    #[wasm_bindgen(js_name = isAborted)]
    pub fn is_aborted(signal: &JsValue) -> bool;
    /// `signal.reason` (or what reading it threw).
    #[wasm_bindgen(js_name = reasonOf)]
    pub fn reason_of(signal: &JsValue) -> JsValue;
    /// `[promise, resolve, reject]`.
    pub fn deferred() -> Array;
    /// `f(value)`, ignoring what it throws.
    #[wasm_bindgen(js_name = settleWith)]
    pub fn settle_with(f: &JsValue, value: &JsValue);
    /// `Object.keys(v)`, or undefined when unreadable.
    #[wasm_bindgen(js_name = keysOf)]
    pub fn keys_of(v: &JsValue) -> JsValue;
    /// A copy of an array's items, or undefined when `v` is not a readable array.
    #[wasm_bindgen(js_name = itemsOf)]
    pub fn items_of(v: &JsValue) -> JsValue;
    /// 0 null, 1 boolean, 2 number, 3 string, 4 array, 5 object, 6 other or unreadable.
    #[wasm_bindgen(js_name = kindOf)]
    pub fn kind_of(v: &JsValue) -> u32;
    /// `v instanceof DOMException` (false when unreadable).
    #[wasm_bindgen(js_name = isException)]
    pub fn is_exception(v: &JsValue) -> bool;
    /// Freezes a value the module built, deeply.
    #[wasm_bindgen(js_name = deepFreeze)]
    pub fn deep_freeze(v: &JsValue) -> JsValue;
    /// The WHATWG URL check for url-mode elicitations.
    #[wasm_bindgen(js_name = isSafeWebUrl)]
    pub fn is_safe_web_url(s: &str) -> bool;
}

#[wasm_bindgen]
extern "C" {
    /// `performance.now()`.
    #[wasm_bindgen(js_namespace = performance, js_name = now)]
    pub fn performance_now() -> f64;
    /// `console.error(message)`.
    #[wasm_bindgen(js_namespace = console, js_name = error)]
    pub fn console_error(message: &str);
}
