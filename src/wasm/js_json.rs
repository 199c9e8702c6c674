//! `Json` over JS values: every read goes through a catching import (`Reflect.get` with `catch`, or
//! `rt.js`), so a throwing getter or Proxy trap, or a revoked Proxy, reads as absent / unreadable and
//! ends that one call as a documented outcome. Builds create plain objects and arrays. Nothing is
//! copied or serialized, so a tool result stays the object the client produced.

use super::rt;
use crate::json::{Json, Kind};
use std::cell::RefCell;
use wasm_bindgen::JsValue;

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
/// its length and last bytes; a miss makes it and takes the slot).
pub fn js_string(s: &str) -> JsValue {
    // The length and the last 8 bytes pick the slot (keys and ids differ there); the text decides a hit.
    let b = s.as_bytes();
    let tail = b.get(b.len().saturating_sub(8)..).unwrap_or_default();
    let hash = tail.iter().fold(b.len() as u32, |h, &c| (h ^ u32::from(c)).wrapping_mul(0x0100_0193));
    let slot = hash as usize & (CACHED - 1);
    STRINGS.with(|cache| {
        let mut cache = cache.borrow_mut();
        if cache.is_empty() {
            cache.resize_with(CACHED, || None);
        }
        match cache.get_mut(slot) {
            Some(Some((text, value))) if **text == *s => value.clone(),
            Some(entry) => {
                let value = JsValue::from_str(s);
                *entry = Some((s.into(), value.clone()));
                value
            }
            None => JsValue::from_str(s),
        }
    })
}

impl Json for JsValue {
    fn kind(&self) -> Kind {
        match rt::kind_of(self) {
            0 => Kind::Null,
            1 => Kind::Bool,
            2 => Kind::Number,
            3 => Kind::String,
            4 => Kind::Array,
            5 => Kind::Object,
            _ => Kind::Other,
        }
    }

    fn get(&self, key: &str) -> Option<Self> {
        // Not an object, or a throwing getter or proxy trap: absent.
        Some(rt::read_key(self, &js_string(key))).filter(|v| !v.is_undefined())
    }

    fn as_str(&self) -> Option<String> {
        self.as_string()
    }

    fn as_f64(&self) -> Option<f64> {
        JsValue::as_f64(self)
    }

    fn as_bool(&self) -> Option<bool> {
        JsValue::as_bool(self)
    }

    fn entries(&self) -> Option<Vec<(String, Self)>> {
        let flat = copied(rt::entries_of(self))?;
        let mut out = Vec::with_capacity(flat.len() / 2);
        let mut pairs = flat.into_iter();
        while let (Some(k), Some(v)) = (pairs.next(), pairs.next()) {
            out.push((k.as_string().unwrap_or_default(), v));
        }
        Some(out)
    }

    fn items(&self) -> Option<Vec<Self>> {
        copied(rt::items_of(self))
    }

    fn is_exception(&self) -> bool {
        rt::is_exception(self)
    }

    fn is_safe_web_url(url: &str) -> bool {
        rt::is_safe_web_url(url)
    }

    fn null() -> Self {
        JsValue::NULL
    }

    fn string(s: &str) -> Self {
        js_string(s)
    }

    fn number(n: f64) -> Self {
        JsValue::from_f64(n)
    }

    fn boolean(b: bool) -> Self {
        JsValue::from_bool(b)
    }

    fn object(fields: Vec<(&str, Self)>) -> Self {
        let o = rt::new_object();
        for (k, v) in fields {
            // Setting a fresh plain object's own data property cannot fail.
            rt::write_key(&o, &js_string(k), &v);
        }
        o
    }

    fn array(items: Vec<Self>) -> Self {
        let a = rt::new_array();
        for item in &items {
            rt::push_item(&a, item);
        }
        a
    }
}

/// The items of an array `rt.js` made (a copy nobody else holds), or `None` when it gave `undefined`.
fn copied(list: JsValue) -> Option<Vec<JsValue>> {
    if list.is_undefined() {
        return None;
    }
    Some((0..rt::length_of(&list)).map(|i| rt::item_at(&list, i)).collect())
}
