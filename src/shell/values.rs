//! Reading and building JS values without ever letting a JS exception into the module.
//!
//! Every read of an application value goes through a catching binding: a few catching declarations of
//! our own where js-sys declares the function without `catch` (`Object.keys` and `Array.from` throw on a
//! revoked Proxy or a throwing trap), and the snippets' reads that catch inside (`readKey`, `kindOf`: one
//! call each where the module would make several). A throwing getter, Proxy trap or revoked Proxy reads
//! as absent / unreadable and ends only its own call, as a documented outcome. Builds make plain objects and arrays.
//! Nothing is copied or serialized: a tool result stays the object the client produced.

use crate::json::{Json, Kind};
use js_sys::{Array, Function, Object, Promise};
use std::cell::RefCell;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

#[wasm_bindgen]
extern "C" {
    /// `Object.keys(v)`, catching (a Proxy's `ownKeys` trap may throw).
    #[wasm_bindgen(js_namespace = Object, js_name = keys, catch)]
    fn object_keys(v: &JsValue) -> Result<Array, JsValue>;
    /// `Array.from(v)`, catching (a Proxy over an array may throw on any read).
    #[wasm_bindgen(js_namespace = Array, js_name = from, catch)]
    fn array_from(v: &JsValue) -> Result<Array, JsValue>;
    /// An object the module built, whose fields it sets.
    type Built;
    /// `o[key] = value`, catching (an inherited setter is application code). The same [[Set]] as
    /// `Reflect.set`, which V8 runs several times slower (a generic call where an assignment has a cache).
    #[wasm_bindgen(method, structural, indexing_setter, catch)]
    fn assign(this: &Built, key: &JsValue, value: &JsValue) -> Result<(), JsValue>;
}

/// Sets `o[key] = value` on an object the module built; a setter that throws (one a page defined on
/// `Object.prototype`) leaves the field unset, its exception caught.
pub fn set_key(o: &JsValue, key: &str, value: &JsValue) {
    let _ = o.unchecked_ref::<Built>().assign(&js_string(key), value);
}

/// `v[key]` by name (see [`read_key`]); `None` when absent or unreadable.
pub fn field(v: &JsValue, key: &str) -> Option<JsValue> {
    Some(read_key(v, &js_string(key))).filter(|x| !x.is_undefined())
}

/// A function value, when `v` is one.
pub fn as_function(v: &JsValue) -> Option<Function> {
    v.is_function().then(|| v.clone().unchecked_into())
}

/// `true` for an object that is not an array (a revoked Proxy is none).
pub fn is_plain_object(v: &JsValue) -> bool {
    v.kind() == Kind::Object
}

#[wasm_bindgen(module = "/src/shell/adopt.js")]
extern "C" {
    /// A promise of the module's own that settles as `await v` would, its value boxed as `[value]`
    /// (see `adopt.js`): the only kind of promise the module awaits, whatever application code returned.
    pub fn adopt(v: &JsValue) -> Promise;
    /// `v[key]` of an object (not null, not a function), else `undefined` — also when the read throws.
    #[wasm_bindgen(js_name = readKey)]
    pub fn read_key(v: &JsValue, key: &JsValue) -> JsValue;
}

/// The own enumerable `(key, value)` pairs of a plain object, values read with [`read_key`] and
/// `undefined` ones left out; `None` for anything else and when its keys cannot be read.
pub fn entries(v: &JsValue) -> Option<Vec<(String, JsValue)>> {
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

/// Freezes a value the module built, deeply (it is then safe to share between calls).
pub fn deep_freeze(v: &JsValue) {
    if let Some(fields) = entries(v) {
        Object::freeze(v.unchecked_ref::<Object>());
        for (_, x) in fields {
            deep_freeze(&x);
        }
    }
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
pub fn js_string(s: &str) -> JsValue {
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

/// The mark that starts the text of a JS string Rust text cannot hold exactly — one with a lone
/// surrogate — or one that itself starts with the mark: its UTF-16 code units follow, four hex digits
/// each (`exact.js`). A noncharacter: text received never starts with it but in that escaped form, so
/// the mapping is one-to-one and every id, key and text goes back out exactly as it came in.
const MARK: &[u8] = "\u{FDD0}".as_bytes();

#[wasm_bindgen(module = "/src/shell/exact.js")]
extern "C" {
    /// The escaped form of a JS string, or `undefined` when Rust text holds it exactly.
    #[wasm_bindgen(js_name = escapeText)]
    fn escape_text(s: &JsValue) -> Option<String>;
    /// The JS string an escaped form stands for (`undefined`: not one).
    #[wasm_bindgen(js_name = unescapeText)]
    fn unescape_text(s: &str) -> JsValue;
    /// The kind of `v` as a number: `Kind`'s variants in order (one call instead of one per test).
    #[wasm_bindgen(js_name = kindOf)]
    fn kind_of(v: &JsValue) -> u8;
    /// `o[key] = value` as an own data property (also for `"__proto__"`).
    #[wasm_bindgen(js_name = defineOwn)]
    fn define_own(o: &Object, key: &JsValue, value: &JsValue);
    /// `true` for a `DOMException` (never a JSON-RPC error, though it has a numeric `code`): its
    /// prototype chain is walked with catching reads, at most 64 steps (a Proxy can make it endless).
    #[wasm_bindgen(js_name = isDomException)]
    pub fn is_dom_exception(v: &JsValue) -> bool;
    /// `true` for an absolute http(s) URL with a host and no credentials, by the WHATWG URL parser.
    #[wasm_bindgen(js_name = isSafeWebUrl)]
    pub fn is_safe_web_url(s: &str) -> bool;
}

/// The text of a JS string, exactly (see `MARK`); `None` for anything else.
#[inline(never)]
pub fn text_of(v: &JsValue) -> Option<String> {
    let text = v.as_string()?;
    // A lone surrogate arrives as U+FFFD (bytes EF BF BD): only then, or with the mark, may the text
    // not stand for the string (`str`'s own pattern search is avoided: it costs the module a kilobyte).
    let b = text.as_bytes();
    if b.starts_with(MARK) || b.windows(3).any(|w| w == [0xEF, 0xBF, 0xBD]) {
        return Some(escape_text(v).unwrap_or(text));
    }
    Some(text)
}

/// The JS string of a text made by [`text_of`] (the very string it came from).
pub fn js_text(s: &str) -> JsValue {
    if s.as_bytes().starts_with(MARK) {
        let v = unescape_text(s);
        if !v.is_undefined() {
            return v;
        }
    }
    JsValue::from_str(s)
}

impl Json for JsValue {
    fn kind(&self) -> Kind {
        match kind_of(self) {
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
        field(self, key)
    }

    fn as_str(&self) -> Option<String> {
        text_of(self)
    }

    fn as_f64(&self) -> Option<f64> {
        JsValue::as_f64(self)
    }

    fn as_bool(&self) -> Option<bool> {
        JsValue::as_bool(self)
    }

    fn entries(&self) -> Option<Vec<(String, Self)>> {
        entries(self)
    }

    fn key_count(&self) -> Option<usize> {
        is_plain_object(self).then(|| object_keys(self).ok()).flatten().map(|k| k.length() as usize)
    }

    fn items(&self) -> Option<Vec<Self>> {
        if self.kind() != Kind::Array {
            return None;
        }
        array_from(self).ok().map(|a| a.iter().collect())
    }

    fn is_exception(&self) -> bool {
        is_dom_exception(self)
    }

    fn is_safe_web_url(url: &str) -> bool {
        is_safe_web_url(url)
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
        let o = Object::new();
        for (k, v) in fields {
            if k == "__proto__" {
                define_own(&o, &js_string(k), &v); // assignment would set the prototype
            } else {
                set_key(&o, k, &v);
            }
        }
        o.into()
    }

    fn array(items: Vec<Self>) -> Self {
        let a = Array::new();
        for item in &items {
            a.push(item);
        }
        a.into()
    }
}
