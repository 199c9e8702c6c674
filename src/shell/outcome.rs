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

/// `error.cause`: `{type, …}` — one shape for every cause type (its fields in this order, each present
/// only where the type has it; a status that is "none" is `null`), so one serializer serves them all.
#[derive(Serialize, Default)]
struct CauseObject<'a> {
    #[serde(rename = "type")]
    kind: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    method: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none", serialize_with = "js_some")]
    key: Option<JsValue>,
    #[serde(skip_serializing_if = "Option::is_none", serialize_with = "js_some")]
    reason: Option<JsValue>,
    #[serde(skip_serializing_if = "Option::is_none", serialize_with = "js_some")]
    error: Option<JsValue>,
    #[serde(skip_serializing_if = "Option::is_none", serialize_with = "js_some")]
    response: Option<JsValue>,
    #[serde(skip_serializing_if = "Option::is_none", serialize_with = "js_some")]
    status: Option<JsValue>,
}

/// A status that may be none: `null` then.
fn or_null(status: &Option<JsValue>) -> Option<JsValue> {
    Some(status.clone().unwrap_or(JsValue::NULL))
}

fn cause_object(c: &Cause<JsValue>) -> CauseObject<'_> {
    let of = |kind| CauseObject { kind, ..CauseObject::default() };
    match c {
        Cause::Timeout { status } => CauseObject { status: or_null(status), ..of("timeout") },
        Cause::RequestTimeout { method, status } => {
            CauseObject { method: Some(method), status: or_null(status), ..of("request_timeout") }
        }
        Cause::TaskFailed { status } => CauseObject { status: Some(status.clone()), ..of("task_failed") },
        Cause::RpcError { method } => CauseObject { method: Some(method), ..of("rpc_error") },
        Cause::RequestFailed { method, error } => {
            CauseObject { method: Some(method), error: Some(error.clone()), ..of("request_failed") }
        }
        Cause::ProtocolViolation { method, response } => {
            CauseObject { method: Some(method), response: Some(response.clone()), ..of("protocol_violation") }
        }
        Cause::InputHandler { key, reason, status } => CauseObject {
            key: Some(key.as_deref().map_or(JsValue::NULL, JsValue::from_str)),
            reason: Some(reason.clone()),
            status: Some(status.clone()),
            ..of("input_handler")
        },
        Cause::ListenUnsupported => of("listen_unsupported"),
        Cause::Expired { status } => CauseObject { status: or_null(status), ..of("expired") },
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
