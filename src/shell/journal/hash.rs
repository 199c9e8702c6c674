//! The hash an answered input key keeps: `"sha256:<hex>"` of the answer's JSON (`JSON.stringify`, or
//! `String(value)` where there is no JSON) through Web Crypto; where `crypto.subtle` is missing (an
//! insecure page), `"fnv1a:<hex>"`, a 32-bit FNV-1a of the same UTF-8 text.

use crate::shell::values::field;
use js_sys::{JsString, Uint8Array};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;

#[wasm_bindgen]
extern "C" {
    /// `String(v)`, catching (a `toString` may throw).
    #[wasm_bindgen(js_name = String, catch)]
    fn string_of(v: &JsValue) -> Result<JsString, JsValue>;
}

/// `String(v)` as Rust text; `Err`: what the conversion threw.
pub fn text_of(v: &JsValue) -> Result<String, JsValue> {
    string_of(v).map(String::from)
}

/// The hash of `value`; `Err`: what `String(value)` or the digest threw.
pub async fn hash_of(value: &JsValue) -> Result<String, JsValue> {
    let text = match js_sys::JSON::stringify(value).ok().and_then(|s| s.as_string()) {
        Some(json) => json,
        None => text_of(value)?,
    };
    let bytes = text.as_bytes();
    let subtle = field(&js_sys::global(), "crypto").and_then(|c| field(&c, "subtle")).filter(|s| s.is_truthy());
    let Some(subtle) = subtle else { return Ok(["fnv1a:", &hex(&fnv1a(bytes).to_be_bytes())].concat()) };
    let subtle: web_sys::SubtleCrypto = subtle.unchecked_into();
    let digest = JsFuture::from(subtle.digest_with_str_and_u8_array("SHA-256", bytes)?).await?;
    Ok(["sha256:", &hex(&Uint8Array::new(&digest).to_vec())].concat())
}

/// 32-bit FNV-1a.
fn fnv1a(bytes: &[u8]) -> u32 {
    bytes.iter().fold(0x811c_9dc5, |h, &b| (h ^ u32::from(b)).wrapping_mul(0x0100_0193))
}

/// Lowercase hex, two digits a byte.
fn hex(bytes: &[u8]) -> String {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    let digit = |n: u8| char::from(DIGITS.get(usize::from(n & 15)).copied().unwrap_or(b'0'));
    bytes.iter().flat_map(|&b| [digit(b >> 4), digit(b)]).collect()
}
