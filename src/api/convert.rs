//! Rust values to and from JS values, with serde-wasm-bindgen (maps as plain objects).

use serde::Serialize;
use wasm_bindgen::JsValue;

/// `value` as a JS value (serde-wasm-bindgen; maps as plain objects).
pub(crate) fn to_js(value: &impl Serialize) -> Result<JsValue, JsValue> {
    value
        .serialize(&serde_wasm_bindgen::Serializer::json_compatible())
        .map_err(|e| js_sys::TypeError::new(&e.to_string()).into())
}

/// A JS value as the caller's type (serde-wasm-bindgen); `Err`: its error as a JS `Error`.
pub(crate) fn from_js<T: serde::de::DeserializeOwned>(value: &JsValue) -> Result<T, JsValue> {
    serde_wasm_bindgen::from_value(value.clone()).map_err(JsValue::from)
}
