//! The tagged outcome objects, built with serde-wasm-bindgen from serde-derived shapes. Results,
//! statuses, responses and rejection values are passed through as the very JS values that arrived
//! (`serde_wasm_bindgen::preserve`): a 5 MB result stays the same object and is never walked.

use crate::engine::{Cause, Failure, Outcome};
use serde::{Serialize, Serializer};
use wasm_bindgen::JsValue;

/// A JS value, as is.
fn js<S: Serializer>(v: &JsValue, s: S) -> Result<S::Ok, S::Error> {
    serde_wasm_bindgen::preserve::serialize(v, s)
}

/// A JS value, as is (only called for `Some`: the fields using it skip `None`).
fn js_some<S: Serializer>(v: &Option<JsValue>, s: S) -> Result<S::Ok, S::Error> {
    js(v.as_ref().unwrap_or(&JsValue::UNDEFINED), s)
}

/// A JS value, or `null` when there is none.
fn js_or_null<S: Serializer>(v: &Option<JsValue>, s: S) -> Result<S::Ok, S::Error> {
    js(v.as_ref().unwrap_or(&JsValue::NULL), s)
}

/// A string, or `null` when there is none.
fn str_or_null<S: Serializer>(v: &Option<&str>, s: S) -> Result<S::Ok, S::Error> {
    match v {
        Some(text) => s.serialize_str(text),
        None => js(&JsValue::NULL, s),
    }
}

/// `{tag, result?, status?, error?}`.
#[derive(Serialize)]
struct Tagged<'a> {
    tag: &'static str,
    #[serde(skip_serializing_if = "Option::is_none", serialize_with = "js_some")]
    result: Option<JsValue>,
    #[serde(skip_serializing_if = "Option::is_none", serialize_with = "js_some")]
    status: Option<JsValue>,
    #[serde(skip_serializing_if = "Option::is_none")]
    error: Option<ErrorObject<'a>>,
}

/// `{code, message, data?, kind, cause?}`.
#[derive(Serialize)]
struct ErrorObject<'a> {
    /// A number (JSON-RPC codes are safe integers); not an `i64`, whose serializer formats an error
    /// message for out-of-range values.
    code: f64,
    message: &'a str,
    #[serde(skip_serializing_if = "Option::is_none", serialize_with = "js_some")]
    data: Option<JsValue>,
    kind: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    cause: Option<CauseObject<'a>>,
}

/// `error.cause`: `{type, …}`.
#[derive(Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
enum CauseObject<'a> {
    Timeout {
        #[serde(serialize_with = "js_or_null")]
        status: Option<JsValue>,
    },
    RequestTimeout {
        method: &'a str,
        #[serde(serialize_with = "js_or_null")]
        status: Option<JsValue>,
    },
    TaskFailed {
        #[serde(serialize_with = "js")]
        status: JsValue,
    },
    RpcError {
        method: &'a str,
    },
    RequestFailed {
        method: &'a str,
        #[serde(serialize_with = "js")]
        error: JsValue,
    },
    ProtocolViolation {
        method: &'a str,
        #[serde(serialize_with = "js")]
        response: JsValue,
    },
    InputHandler {
        #[serde(serialize_with = "str_or_null")]
        key: Option<&'a str>,
        #[serde(serialize_with = "js")]
        reason: JsValue,
        #[serde(serialize_with = "js")]
        status: JsValue,
    },
    ListenUnsupported,
    Expired {
        #[serde(serialize_with = "js_or_null")]
        status: Option<JsValue>,
    },
}

fn cause_object(c: &Cause<JsValue>) -> CauseObject<'_> {
    match c {
        Cause::Timeout { status } => CauseObject::Timeout { status: status.clone() },
        Cause::RequestTimeout { method, status } => CauseObject::RequestTimeout { method, status: status.clone() },
        Cause::TaskFailed { status } => CauseObject::TaskFailed { status: status.clone() },
        Cause::RpcError { method } => CauseObject::RpcError { method },
        Cause::RequestFailed { method, error } => CauseObject::RequestFailed { method, error: error.clone() },
        Cause::ProtocolViolation { method, response } => {
            CauseObject::ProtocolViolation { method, response: response.clone() }
        }
        Cause::InputHandler { key, reason, status } => {
            CauseObject::InputHandler { key: key.as_deref(), reason: reason.clone(), status: status.clone() }
        }
        Cause::ListenUnsupported => CauseObject::ListenUnsupported,
        Cause::Expired { status } => CauseObject::Expired { status: status.clone() },
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

/// The `error` object of a failure.
pub fn failure_to_js(f: &Failure<JsValue>) -> JsValue {
    to_js(&error_object(f))
}

/// The tagged outcome object.
pub fn outcome_to_js(o: &Outcome<JsValue>) -> JsValue {
    let tagged = |tag, result: Option<&JsValue>, status: Option<&JsValue>| Tagged {
        tag,
        result: result.cloned(),
        status: status.cloned(),
        error: None,
    };
    let t = match o {
        Outcome::Result(r) => tagged("ok", Some(r), None),
        Outcome::Task(s) => tagged("task", None, Some(s)),
        Outcome::Status(s) => tagged("ok", None, Some(s)),
        Outcome::Ack => tagged("ok", None, None),
        Outcome::Cancelled(s) => tagged("cancelled", None, Some(s)),
        Outcome::InputRequired(s) => tagged("input_required", None, Some(s)),
        Outcome::Error(f) => Tagged { tag: "error", result: None, status: None, error: Some(error_object(f)) },
    };
    to_js(&t)
}

/// `value` as a JS value (plain objects for structs). Serializing these shapes cannot fail.
fn to_js<T: Serialize>(value: &T) -> JsValue {
    value.serialize(&serde_wasm_bindgen::Serializer::new()).unwrap_or(JsValue::UNDEFINED)
}
