//! Rust values into JS values: the objects the module builds (plain objects and arrays, their fields
//! set by catching assignments), the JS strings it makes (cached: property names, methods and task ids
//! repeat on every poll), and text kept exact both ways (see [`super::MARK`]). Nothing is copied or
//! serialized that arrived as a JS value: a tool result stays the object the client produced.

use super::MARK;
use js_sys::Object;
use std::cell::RefCell;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

#[wasm_bindgen]
extern "C" {
    /// An object the module built, whose fields it sets.
    type Built;
    /// `o[key] = value`, catching (an inherited setter is application code). The same [[Set]] as
    /// `Reflect.set`, which V8 runs several times slower (a generic call where an assignment has a cache).
    #[wasm_bindgen(method, structural, indexing_setter, catch)]
    fn assign(this: &Built, key: &JsValue, value: &JsValue) -> Result<(), JsValue>;
}

#[wasm_bindgen(module = "/src/shell/interop/exact.js")]
extern "C" {
    /// The JS string an escaped form stands for (`undefined`: not one).
    #[wasm_bindgen(js_name = unescapeText)]
    fn unescape_text(s: &str) -> JsValue;
    /// `o[key] = value` as an own data property (also for `"__proto__"`).
    #[wasm_bindgen(js_name = defineOwn)]
    pub(super) fn define_own(o: &Object, key: &JsValue, value: &JsValue);
}

/// Sets `o[key] = value` on an object the module built; a setter that throws (one a page defined on
/// `Object.prototype`) leaves the field unset, its exception caught.
pub(crate) fn set_key(o: &JsValue, key: &str, value: &JsValue) {
    let _ = o.unchecked_ref::<Built>().assign(&js_string(key), value);
}

/// How many JS strings [`js_string`] keeps (a power of two).
const CACHED: usize = 256;

/// One slot of the cache: a text and its JS string.
type Slot = Option<(Box<str>, JsValue)>;

thread_local! {
    /// Recently made JS strings by the hash of their text: property names, methods, task ids and
    /// statuses repeat on every poll, and making a JS string from Rust text (a UTF-8 decode) is one of
    /// the dearest steps of a poll.
    static STRINGS: RefCell<Vec<Slot>> = const { RefCell::new(Vec::new()) };
}

/// The JS string of `s`, from the cache when it was made recently (a direct-mapped table by a hash of
/// its length and last bytes; a miss makes it and takes the slot). No borrow of the cache is held
/// while the string is made (a JS exception there must not leave it borrowed).
pub(crate) fn js_string(s: &str) -> JsValue {
    // The length and the last 8 bytes pick the slot (keys and ids differ there); the text decides a hit.
    let b = s.as_bytes();
    let tail = b.get(b.len().saturating_sub(8)..).unwrap_or_default();
    let hash = tail.iter().fold(b.len() as u32, |h, &c| (h ^ u32::from(c)).wrapping_mul(0x0100_0193));
    let slot = hash as usize & (CACHED - 1);
    let hit = STRINGS.with(|cache| match cache.borrow().get(slot) {
        Some(Some((text, value))) if **text == *s => Some(value.clone()),
        _ => None,
    });
    if let Some(value) = hit {
        return value;
    }
    let value = js_text(s);
    STRINGS.with(|cache| {
        let mut cache = cache.borrow_mut();
        if cache.is_empty() {
            cache.resize_with(CACHED, || None);
        }
        if let Some(entry) = cache.get_mut(slot) {
            *entry = Some((s.into(), value.clone()));
        }
    });
    value
}

/// The JS string of a text made by [`text_of`] (the very string it came from).
pub(crate) fn js_text(s: &str) -> JsValue {
    if s.as_bytes().starts_with(MARK) {
        let v = unescape_text(s);
        if !v.is_undefined() {
            return v;
        }
    }
    JsValue::from_str(s)
}

/// A request's options as the client's `request` and `listen` take them: `{signal, timeoutMs?}`.
pub(crate) fn request_options(signal: &web_sys::AbortSignal, timeout: Option<std::time::Duration>) -> JsValue {
    let o = Object::new();
    set_key(&o, "signal", signal);
    if let Some(t) = timeout {
        set_key(&o, "timeoutMs", &JsValue::from_f64(crate::shell::millis::millis_f64(t)));
    }
    o.into()
}

/// A Rust value as a JS value, by serde (serde-wasm-bindgen; maps as plain objects): a Rust
/// application's tool arguments, answers and results. `Err`: a `TypeError` with serde's message.
pub(crate) fn serialize(value: &impl serde::Serialize) -> Result<JsValue, JsValue> {
    value
        .serialize(&serde_wasm_bindgen::Serializer::json_compatible())
        .map_err(|e| js_sys::TypeError::new(&e.to_string()).into())
}

/// The options of a JS transport made from Rust: `{requestTimeoutMs?, clientInfo?: {name, version},
/// clientCapabilities?, headers?}`, each only when given.
pub(crate) fn transport_options(
    request_timeout: Option<std::time::Duration>,
    client_info: Option<(&str, &str)>,
    capabilities: Option<&JsValue>,
    headers: &[(String, String)],
) -> JsValue {
    let o = Object::new();
    if let Some(t) = request_timeout {
        set_key(&o, "requestTimeoutMs", &JsValue::from_f64(crate::shell::millis::millis_f64(t)));
    }
    if let Some((name, version)) = client_info {
        let info = Object::new();
        set_key(&info, "name", &js_string(name));
        set_key(&info, "version", &js_string(version));
        set_key(&o, "clientInfo", &info);
    }
    if let Some(c) = capabilities {
        set_key(&o, "clientCapabilities", c);
    }
    if !headers.is_empty() {
        let h = Object::new();
        for (name, value) in headers {
            set_key(&h, name, &js_string(value));
        }
        set_key(&o, "headers", &h);
    }
    o.into()
}

/// Sets a client object's `id`: the server its journaled tasks belong to.
pub(crate) fn set_client_id(object: &JsValue, id: &str) {
    set_key(object, "id", &js_string(id));
}
