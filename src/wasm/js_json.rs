//! `Json` over JS values: reads go through `Reflect`, builds create plain objects and arrays.
//! Nothing is copied or serialized, so a tool result stays the object the client produced.

use crate::json::{Json, Kind};
use js_sys::{Array, Object, Reflect};
use wasm_bindgen::{JsCast, JsValue};

impl Json for JsValue {
    fn kind(&self) -> Kind {
        if self.is_null() {
            Kind::Null
        } else if self.as_bool().is_some() {
            Kind::Bool
        } else if self.as_f64().is_some() {
            Kind::Number
        } else if self.is_string() {
            Kind::String
        } else if Array::is_array(self) {
            Kind::Array
        } else if self.is_object() {
            Kind::Object
        } else {
            Kind::Other
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

    fn keys(&self) -> Vec<String> {
        match self.dyn_ref::<Object>() {
            Some(o) if !Array::is_array(self) => Object::keys(o).iter().filter_map(|k| k.as_string()).collect(),
            _ => Vec::new(),
        }
    }

    fn items(&self) -> Vec<Self> {
        match self.dyn_ref::<Array>() {
            Some(a) => a.iter().collect(),
            None => Vec::new(),
        }
    }

    fn is_exception(&self) -> bool {
        self.is_instance_of::<web_sys::DomException>()
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
