//! A small read/build interface over JSON-like values.
//!
//! The engine never owns a JSON tree of its own: in the browser it reads and builds JS values in place
//! (so a tool result reaches the application as the very object the transport produced), natively it
//! works on `serde_json::Value`. Everything in `proto` and `engine` is generic over this trait.

/// The shape of a value, as far as the protocol cares.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Kind {
    /// `null`.
    Null,
    /// `true` / `false`.
    Bool,
    /// Any number.
    Number,
    /// A string.
    String,
    /// An array.
    Array,
    /// A plain object (not an array, not null, not a function).
    Object,
    /// Anything else (`undefined`, functions, symbols, big integers).
    Other,
}

/// Read and build access to a JSON-like value. Cloning must be cheap (a handle, not a deep copy, where
/// the backing store allows it).
pub(crate) trait Json: Clone {
    /// What kind of value this is.
    fn kind(&self) -> Kind;
    /// The value under `key` of an object; `None` when absent (or `undefined`) or when `self` is not an object.
    fn get(&self, key: &str) -> Option<Self>;
    /// The string, when this is one.
    fn as_str(&self) -> Option<String>;
    /// The number, when this is one.
    fn as_f64(&self) -> Option<f64>;
    /// The boolean, when this is one.
    fn as_bool(&self) -> Option<bool>;
    /// The own `(key, value)` pairs of a plain object, in order, leaving out values that are absent
    /// (`undefined`, or a read that throws); `None` for anything else, and for an object whose keys
    /// cannot be read (a JS Proxy whose `ownKeys` trap throws, a revoked Proxy).
    fn entries(&self) -> Option<Vec<(String, Self)>>;
    /// The items of an array; `None` for anything else, and for an array that cannot be read.
    fn items(&self) -> Option<Vec<Self>>;
    /// How many own keys a plain object has, without reading its values (`None` as for [`Json::entries`]).
    fn key_count(&self) -> Option<usize> {
        self.entries().map(|e| e.len())
    }
    /// `true` for an absolute `http:`/`https:` URL with a host and without credentials, as the host's
    /// URL parser reads it (the WHATWG parser in JS; a strict reading of RFC 3986 natively).
    fn is_safe_web_url(url: &str) -> bool {
        is_web_url(url)
    }
    /// `true` for host exception objects that must never be read as a JSON-RPC error even when they
    /// carry a numeric `code` (a `DOMException` in JS). Plain JSON has none.
    fn is_exception(&self) -> bool {
        false
    }
    /// `null`.
    fn null() -> Self;
    /// A string value.
    fn string(s: &str) -> Self;
    /// A number value.
    fn number(n: f64) -> Self;
    /// A new object with these fields, in this order.
    fn object(fields: Vec<(&str, Self)>) -> Self;
    /// A new array with these items.
    fn array(items: Vec<Self>) -> Self;

    /// `true` for a plain object.
    fn is_object(&self) -> bool {
        self.kind() == Kind::Object
    }
    /// The string under `key`, when it is one.
    fn get_str(&self, key: &str) -> Option<String> {
        self.get(key).and_then(|v| v.as_str())
    }
    /// The number under `key`, when it is one.
    fn get_f64(&self, key: &str) -> Option<f64> {
        self.get(key).and_then(|v| v.as_f64())
    }
    /// A copy of an object (one level deep) with `key` set to `value` (or removed when `None`).
    fn with_field(&self, key: &str, value: Option<Self>) -> Self {
        let mut fields: Vec<(String, Self)> =
            self.entries().unwrap_or_default().into_iter().filter(|(k, _)| k != key).collect();
        if let Some(v) = value {
            fields.push((key.to_owned(), v));
        }
        Self::object(fields.iter().map(|(k, v)| (k.as_str(), v.clone())).collect())
    }
}

/// An integer that JSON-RPC would accept as an error code (a whole number in the safe range).
pub(crate) fn as_integer(n: f64) -> Option<i64> {
    if n.is_finite() && n.fract() == 0.0 && n.abs() <= 9_007_199_254_740_991.0 {
        Some(n as i64)
    } else {
        None
    }
}

impl Json for serde_json::Value {
    fn kind(&self) -> Kind {
        use serde_json::Value as V;
        match self {
            V::Null => Kind::Null,
            V::Bool(_) => Kind::Bool,
            V::Number(_) => Kind::Number,
            V::String(_) => Kind::String,
            V::Array(_) => Kind::Array,
            V::Object(_) => Kind::Object,
        }
    }
    fn get(&self, key: &str) -> Option<Self> {
        self.as_object().and_then(|o| o.get(key)).cloned()
    }
    fn as_str(&self) -> Option<String> {
        serde_json::Value::as_str(self).map(str::to_owned)
    }
    fn as_f64(&self) -> Option<f64> {
        serde_json::Value::as_f64(self)
    }
    fn as_bool(&self) -> Option<bool> {
        serde_json::Value::as_bool(self)
    }
    fn entries(&self) -> Option<Vec<(String, Self)>> {
        self.as_object().map(|o| o.iter().map(|(k, v)| (k.clone(), v.clone())).collect())
    }
    fn items(&self) -> Option<Vec<Self>> {
        self.as_array().cloned()
    }
    fn null() -> Self {
        serde_json::Value::Null
    }
    fn string(s: &str) -> Self {
        serde_json::Value::String(s.to_owned())
    }
    fn number(n: f64) -> Self {
        match as_integer(n) {
            Some(i) => serde_json::Value::from(i),
            None => serde_json::Number::from_f64(n).map_or(serde_json::Value::Null, serde_json::Value::Number),
        }
    }
    fn object(fields: Vec<(&str, Self)>) -> Self {
        serde_json::Value::Object(fields.into_iter().map(|(k, v)| (k.to_owned(), v)).collect())
    }
    fn array(items: Vec<Self>) -> Self {
        serde_json::Value::Array(items)
    }
}

/// `true` for an absolute `https:` or `http:` URL with a host, without credentials (`user@`), and
/// without whitespace or control characters: the native stand-in for the WHATWG parser the wasm shell
/// uses. Scheme case-insensitive; the host is what follows `//` up to `/`, `?` or `#`.
pub(crate) fn is_web_url(url: &str) -> bool {
    let lower = url.get(..8).unwrap_or(url).to_ascii_lowercase();
    let rest = if lower.starts_with("https://") {
        url.get(8..)
    } else if lower.starts_with("http://") {
        url.get(7..)
    } else {
        None
    };
    let Some(rest) = rest else { return false };
    if url.chars().any(|c| c.is_whitespace() || c.is_control() || c == '\\') {
        return false;
    }
    let authority = rest.split(['/', '?', '#']).next().unwrap_or_default();
    let host = authority.rsplit_once(':').map_or(authority, |(h, port)| {
        if port.chars().all(|c| c.is_ascii_digit()) {
            h
        } else {
            authority
        }
    });
    !host.is_empty() && !authority.contains('@')
}
