//! Every conversion between JS values and Rust types, one file per direction: [`from_js`] reads what
//! JS gave (catching every read), [`to_js`] builds what JS gets. The engine reads and builds JS values
//! through the [`Json`] trait, implemented here for `JsValue` over both; the operations' arguments are
//! read through the [`Js`] newtype.

pub(crate) mod from_js;
pub(crate) mod to_js;

#[cfg(feature = "js")]
/// A JS value an operation was given, to be read as the Rust value it stands for: `TryFrom<Js>` for
/// the options, the client and a journal store, its methods for the other arguments
/// ([`from_js::arguments`]). A conversion is named by its types, as in automerge-wasm's interop.
#[derive(Clone, Copy)]
pub(crate) struct Js<'a>(pub &'a JsValue);

use crate::json::{Json, Kind};
use from_js::{
    array_from, entries, field, is_dom_exception, is_plain_object, is_safe_web_url, kind_of, object_keys, text_of,
};
use js_sys::{Array, Object};
use to_js::{define_own, js_string, set_key};
use wasm_bindgen::JsValue;

/// The mark that starts the text of a JS string Rust text cannot hold exactly — one with a lone
/// surrogate — or one that itself starts with the mark: its UTF-16 code units follow, four hex digits
/// each (`exact.js`). A noncharacter: text received never starts with it but in that escaped form, so
/// the mapping is one-to-one and every id, key and text goes back out exactly as it came in.
pub(crate) const MARK: &[u8] = "\u{FDD0}".as_bytes();

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
