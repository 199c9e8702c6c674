//! The tagged outcome objects, built with serde-wasm-bindgen. Results, statuses, responses and
//! rejection values are passed through as the very JS values that arrived
//! (`serde_wasm_bindgen::preserve`): a 5 MB result stays the same object and is never walked.
//!
//! Each shape is written as a map of named fields ([`Field`]), not through serde's struct
//! serialization: serde-wasm-bindgen keeps a struct's field names in a `RefCell`ed cache, which a JS
//! exception at the stack limit could leave borrowed (and which costs 1.7 KB gzip).

use crate::engine::{Failure, FailureCause, Verdict};
use serde::ser::SerializeMap;
use serde::{Serialize, Serializer};
use wasm_bindgen::JsValue;

/// One field value of an object the module builds.
pub enum Field<'a> {
    /// A string.
    Str(&'a str),
    /// A number.
    Num(f64),
    /// A JS value, as is.
    Js(&'a JsValue),
    /// A nested object.
    Error(&'a ErrorObject<'a>),
    /// A nested cause.
    FailureCause(&'a CauseObject<'a>),
}

impl Serialize for Field<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            Field::Str(v) => s.serialize_str(v),
            Field::Num(n) => s.serialize_f64(*n),
            Field::Js(v) => js(v, s),
            Field::Error(e) => e.serialize(s),
            Field::FailureCause(c) => c.serialize(s),
        }
    }
}

/// Writes the fields that are present as one plain object, in order.
fn object<S: Serializer>(s: S, fields: &[(&str, Option<Field<'_>>)]) -> Result<S::Ok, S::Error> {
    let mut map = s.serialize_map(None)?;
    for (key, value) in fields {
        if let Some(v) = value {
            map.serialize_entry(key, v)?;
        }
    }
    map.end()
}

/// A JS value, as is.
fn js<S: Serializer>(v: &JsValue, s: S) -> Result<S::Ok, S::Error> {
    serde_wasm_bindgen::preserve::serialize(v, s)
}

/// `{tag, source?, result?, status?, error?}`.
struct Tagged<'a> {
    tag: &'static str,
    /// `input_required`'s: `"task"` or `"call"` (an MRTR round).
    source: Option<&'static str>,
    result: Option<JsValue>,
    status: Option<JsValue>,
    error: Option<ErrorObject<'a>>,
}

impl Serialize for Tagged<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        object(
            s,
            &[
                ("tag", Some(Field::Str(self.tag))),
                ("source", self.source.map(Field::Str)),
                ("result", self.result.as_ref().map(Field::Js)),
                ("status", self.status.as_ref().map(Field::Js)),
                ("error", self.error.as_ref().map(Field::Error)),
            ],
        )
    }
}

/// `{code, message, data?, kind, cause?}`.
pub struct ErrorObject<'a> {
    /// A number (JSON-RPC codes are safe integers); not an `i64`, whose serializer formats an error
    /// message for out-of-range values.
    code: f64,
    message: &'a str,
    data: Option<JsValue>,
    kind: &'static str,
    cause: Option<CauseObject<'a>>,
}

impl Serialize for ErrorObject<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        object(
            s,
            &[
                ("code", Some(Field::Num(self.code))),
                ("message", Some(Field::Str(self.message))),
                ("data", self.data.as_ref().map(Field::Js)),
                ("kind", Some(Field::Str(self.kind))),
                ("cause", self.cause.as_ref().map(Field::FailureCause)),
            ],
        )
    }
}

/// `error.cause`: `{type, …}` — one shape for every cause type (its fields in this order, each present
/// only where the type has it; a status that is "none" is `null`), so one serializer serves them all.
#[derive(Default)]
pub struct CauseObject<'a> {
    kind: &'static str,
    method: Option<&'a str>,
    operation: Option<&'a str>,
    key: Option<JsValue>,
    reason: Option<JsValue>,
    error: Option<JsValue>,
    response: Option<JsValue>,
    status: Option<JsValue>,
}

impl Serialize for CauseObject<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        object(
            s,
            &[
                ("type", Some(Field::Str(self.kind))),
                ("method", self.method.map(Field::Str)),
                ("operation", self.operation.map(Field::Str)),
                ("key", self.key.as_ref().map(Field::Js)),
                ("reason", self.reason.as_ref().map(Field::Js)),
                ("error", self.error.as_ref().map(Field::Js)),
                ("response", self.response.as_ref().map(Field::Js)),
                ("status", self.status.as_ref().map(Field::Js)),
            ],
        )
    }
}

/// A status that may be none: `null` then.
fn or_null(status: &Option<JsValue>) -> Option<JsValue> {
    Some(status.clone().unwrap_or(JsValue::NULL))
}

fn cause_object(c: &FailureCause<JsValue>) -> CauseObject<'_> {
    let of = |kind| CauseObject { kind, ..CauseObject::default() };
    match c {
        FailureCause::Timeout { status } => CauseObject { status: or_null(status), ..of("timeout") },
        FailureCause::RequestTimeout { method, status } => {
            CauseObject { method: Some(method), status: or_null(status), ..of("request_timeout") }
        }
        FailureCause::TaskFailed { status } => CauseObject { status: Some(status.clone()), ..of("task_failed") },
        FailureCause::RpcError { method } => CauseObject { method: Some(method), ..of("rpc_error") },
        FailureCause::RequestFailed { method, error } => {
            CauseObject { method: Some(method), error: Some(error.clone()), ..of("request_failed") }
        }
        FailureCause::ProtocolViolation { method, response } => {
            CauseObject { method: Some(method), response: Some(response.clone()), ..of("protocol_violation") }
        }
        FailureCause::InputHandler { key, reason, status } => CauseObject {
            key: Some(key.as_deref().map_or(JsValue::NULL, crate::shell::interop::to_js::js_text)),
            reason: Some(reason.clone()),
            status: Some(status.clone()),
            ..of("input_handler")
        },
        FailureCause::ListenUnsupported => of("listen_unsupported"),
        FailureCause::Expired { status } => CauseObject { status: or_null(status), ..of("expired") },
        FailureCause::JournalFailed { operation, error, status } => CauseObject {
            operation: Some(operation),
            error: Some(error.clone()),
            status: or_null(status),
            ..of("journal_failed")
        },
    }
}

fn error_object(f: &Failure<JsValue>) -> ErrorObject<'_> {
    ErrorObject {
        code: f.code as f64,
        message: &f.message,
        data: f.data.clone(),
        kind: f.kind.as_str(),
        cause: f.cause.as_ref().map(cause_object),
    }
}

/// An error outcome's `error` object (`{code, message, data?, kind, cause?}`).
pub fn error_to_js(f: &Failure<JsValue>) -> JsValue {
    to_js(&error_object(f))
}

/// The tagged outcome object.
pub fn outcome_to_js(o: &Verdict<JsValue>) -> JsValue {
    let tagged = |tag, result: Option<&JsValue>, status: Option<&JsValue>| Tagged {
        tag,
        source: None,
        result: result.cloned(),
        status: status.cloned(),
        error: None,
    };
    let t = match o {
        Verdict::Result(r) => tagged("ok", Some(r), None),
        Verdict::Task(s) => tagged("task", None, Some(s)),
        Verdict::Status(s) => tagged("ok", None, Some(s)),
        Verdict::Ack => tagged("ok", None, None),
        Verdict::Cancelled(s) => tagged("cancelled", None, Some(s)),
        Verdict::InputRequired(s) => Tagged { source: Some("task"), ..tagged("input_required", None, Some(s)) },
        Verdict::CallInputRequired(s) => Tagged { source: Some("call"), ..tagged("input_required", None, Some(s)) },
        Verdict::Error(f) => {
            Tagged { tag: "error", source: None, result: None, status: None, error: Some(error_object(f)) }
        }
    };
    to_js(&t)
}

/// `value` as a JS value (plain objects for structs). Serializing these shapes cannot fail.
fn to_js<T: Serialize>(value: &T) -> JsValue {
    value
        .serialize(&serde_wasm_bindgen::Serializer::new().serialize_maps_as_objects(true))
        .unwrap_or(JsValue::UNDEFINED)
}
