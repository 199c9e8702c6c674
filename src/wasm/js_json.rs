//! `Json` over JS values: every read goes through a catching import (`Reflect.get` with `catch`, or
//! `rt.js`), so a throwing getter or Proxy trap, or a revoked Proxy, reads as absent / unreadable and
//! ends that one call as a documented outcome. Builds create plain objects and arrays. Nothing is
//! copied or serialized, so a tool result stays the object the client produced.

use super::rt;
use crate::json::{Json, Kind};
use js_sys::{Array, Object, Reflect};
use wasm_bindgen::{JsCast, JsValue};

fn strings(list: JsValue) -> Option<Vec<String>> {
    let a: Array = list.dyn_into().ok()?;
    Some(a.iter().filter_map(|k| k.as_string()).collect())
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
        if !self.is_object() {
            return None;
        }
        // A throwing getter or proxy trap reads as absent.
        Reflect::get(self, &JsValue::from_str(key)).ok().filter(|v| !v.is_undefined())
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

    fn keys(&self) -> Option<Vec<String>> {
        if rt::kind_of(self) != 5 {
            return None;
        }
        strings(rt::keys_of(self))
    }

    fn items(&self) -> Option<Vec<Self>> {
        let a: Array = rt::items_of(self).dyn_into().ok()?;
        Some(a.iter().collect())
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
        JsValue::from_str(s)
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
            // Setting a fresh plain object's own data property cannot fail.
            let _ = Reflect::set(&o, &JsValue::from_str(k), &v);
        }
        o.into()
    }

    fn array(items: Vec<Self>) -> Self {
        items.into_iter().collect::<Array>().into()
    }
}
