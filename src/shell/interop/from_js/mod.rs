//! JS values into Rust values: every read of a value the module did not make goes through here, catching.
//! A throwing getter, Proxy trap or revoked Proxy reads as absent or unreadable and ends only its own
//! call, as a documented outcome. The reads are a few catching declarations of our own where js-sys
//! declares the function without `catch` (`Object.keys` and `Array.from` throw on a revoked Proxy or a
//! throwing trap), and the snippets' reads that catch inside (`readKey`, `kindOf`: one call each where
//! the module would make several).

#[cfg(feature = "js")]
pub(crate) mod arguments;
pub(crate) mod client;

use super::MARK;
use crate::json::{Json, Kind};
use js_sys::{Array, Function};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

#[wasm_bindgen]
extern "C" {
    /// `Object.keys(v)`, catching (a Proxy's `ownKeys` trap may throw).
    #[wasm_bindgen(js_namespace = Object, js_name = keys, catch)]
    pub(super) fn object_keys(v: &JsValue) -> Result<Array, JsValue>;
    /// `Array.from(v)`, catching (a Proxy over an array may throw on any read).
    #[wasm_bindgen(js_namespace = Array, js_name = from, catch)]
    pub(super) fn array_from(v: &JsValue) -> Result<Array, JsValue>;
}

#[wasm_bindgen(module = "/src/shell/adopt.js")]
extern "C" {
    /// `v[key]` of an object (not null, not a function), else `undefined` — also when the read throws.
    #[wasm_bindgen(js_name = readKey)]
    pub fn read_key(v: &JsValue, key: &JsValue) -> JsValue;
}

#[wasm_bindgen(module = "/src/shell/interop/exact.js")]
extern "C" {
    /// The escaped form of a JS string, or `undefined` when Rust text holds it exactly.
    #[wasm_bindgen(js_name = escapeText)]
    fn escape_text(s: &JsValue) -> Option<String>;
    /// The kind of `v` as a number: `Kind`'s variants in order (one call instead of one per test).
    #[wasm_bindgen(js_name = kindOf)]
    pub(super) fn kind_of(v: &JsValue) -> u8;
    /// `true` for a `DOMException` (never a JSON-RPC error, though it has a numeric `code`): its
    /// prototype chain is walked with catching reads, at most 64 steps (a Proxy can make it endless).
    #[wasm_bindgen(js_name = isDomException)]
    pub fn is_dom_exception(v: &JsValue) -> bool;
    /// `true` for an absolute http(s) URL with a host and no credentials, by the WHATWG URL parser.
    #[wasm_bindgen(js_name = isSafeWebUrl)]
    pub fn is_safe_web_url(s: &str) -> bool;
}

/// `v[key]` by name (see [`read_key`]); `None` when absent or unreadable.
pub(crate) fn field(v: &JsValue, key: &str) -> Option<JsValue> {
    Some(read_key(v, &super::to_js::js_string(key))).filter(|x| !x.is_undefined())
}

/// A function value, when `v` is one.
pub(crate) fn as_function(v: &JsValue) -> Option<Function> {
    v.is_function().then(|| v.clone().unchecked_into())
}

/// `true` for an object that is not an array (a revoked Proxy is none).
pub(crate) fn is_plain_object(v: &JsValue) -> bool {
    v.kind() == Kind::Object
}

/// The own enumerable `(key, value)` pairs of a plain object, values read with [`read_key`] and
/// `undefined` ones left out; `None` for anything else and when its keys cannot be read.
pub(crate) fn entries(v: &JsValue) -> Option<Vec<(String, JsValue)>> {
    if !is_plain_object(v) {
        return None;
    }
    let keys = object_keys(v).ok()?;
    let mut out = Vec::with_capacity(keys.length() as usize);
    for key in keys.iter() {
        let value = read_key(v, &key);
        if !value.is_undefined() {
            out.push((text_of(&key).unwrap_or_default(), value));
        }
    }
    Some(out)
}

/// The text of a JS string, exactly (see `MARK`); `None` for anything else.
#[inline(never)]
pub(crate) fn text_of(v: &JsValue) -> Option<String> {
    let text = v.as_string()?;
    // A lone surrogate arrives as U+FFFD (bytes EF BF BD): only then, or with the mark, may the text
    // not stand for the string (`str`'s own pattern search is avoided: it costs the module a kilobyte).
    let b = text.as_bytes();
    if b.starts_with(MARK) || b.windows(3).any(|w| w == [0xEF, 0xBF, 0xBD]) {
        return Some(escape_text(v).unwrap_or(text));
    }
    Some(text)
}

/// A JS value as a Rust application's type, by serde (serde-wasm-bindgen): a request's params, a
/// result. `Err`: serde's message.
pub(crate) fn deserialize<T: serde::de::DeserializeOwned>(value: &JsValue) -> Result<T, String> {
    serde_wasm_bindgen::from_value(value.clone()).map_err(|e| e.to_string())
}
