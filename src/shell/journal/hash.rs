//! The hash an answered input key keeps: `"sha256:<hex>"` of the answer's JSON (`JSON.stringify`, or
//! `String(value)` where there is no JSON) through Web Crypto; where `crypto.subtle` is missing (an
//! insecure page), `"fnv1a:<hex>"`, a 32-bit FNV-1a of the same UTF-8 text.

use crate::shell::callbacks::Reply;
use crate::shell::interop::from_js::field;
use crate::shell::reply::settled;
use js_sys::{JsString, Uint8Array};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

#[wasm_bindgen]
extern "C" {
    /// `String(v)`, catching (a `toString` may throw).
    #[wasm_bindgen(js_name = String, catch)]
    fn string_of(v: &JsValue) -> Result<JsString, JsValue>;
}

/// `String(v)` as Rust text; `Err`: what the conversion threw.
pub(crate) fn text_of(v: &JsValue) -> Result<String, JsValue> {
    string_of(v).map(String::from)
}

/// Starts hashing `value`: the reply resolves with the hash text (FNV-1a, at once) or with the SHA-256
/// digest (an `ArrayBuffer`) that [`hash_text`] turns into it. `Err`: what `String(value)` or the
/// digest threw.
pub(crate) fn digest(value: &JsValue) -> Result<Reply, JsValue> {
    let text = match js_sys::JSON::stringify(value).ok().and_then(|s| s.as_string()) {
        Some(json) => json,
        None => text_of(value)?,
    };
    let bytes = text.as_bytes();
    let subtle = field(&js_sys::global(), "crypto").and_then(|c| field(&c, "subtle")).filter(JsValue::is_truthy);
    let promise = match subtle {
        Some(subtle) => {
            subtle.unchecked_into::<web_sys::SubtleCrypto>().digest_with_str_and_u8_array("SHA-256", bytes)?
        }
        None => js_sys::Promise::resolve(&JsValue::from_str(&["fnv1a:", &hex(&fnv1a(bytes).to_be_bytes())].concat())),
    };
    Ok(settled(promise))
}

/// The hash text of what [`digest`]'s reply resolved with.
pub(crate) fn hash_text(got: &JsValue) -> String {
    got.as_string().unwrap_or_else(|| ["sha256:", &hex(&Uint8Array::new(got).to_vec())].concat())
}

/// 32-bit FNV-1a.
fn fnv1a(bytes: &[u8]) -> u32 {
    bytes.iter().fold(0x811c_9dc5, |h, &b| (h ^ u32::from(b)).wrapping_mul(0x0100_0193))
}

/// Lowercase hex, two digits a byte.
fn hex(bytes: &[u8]) -> String {
    let mut s = String::with_capacity(bytes.len() * 2);
    for b in bytes {
        for n in [b >> 4, b & 15] {
            s.push(char::from_digit(u32::from(n), 16).unwrap_or('0'));
        }
    }
    s
}
