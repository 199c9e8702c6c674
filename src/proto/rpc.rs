//! JSON-RPC errors, and how a rejected `request` is read.

use crate::json::{as_integer, Json, Kind};

/// A JSON-RPC error object `{code, message, data?}`.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct RpcError<V> {
    /// The integer error code.
    pub code: i64,
    /// The human-readable message.
    pub message: String,
    /// Extra data, as sent.
    pub data: Option<V>,
}

/// How a request ended.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum RequestEnd<V> {
    /// The server answered with a `result` (the value `request` resolved with).
    Result(V),
    /// The server answered with a JSON-RPC error.
    RpcError(RpcError<V>),
    /// The request failed without a JSON-RPC answer (network, HTTP framing, abort...): the rejection value.
    Transport(V),
}

/// Reads a JSON-RPC error object: a plain object with an integer `code` and a string `message`.
/// A host exception (e.g. a `DOMException`, which has a numeric `code`) is never one.
pub(crate) fn read_rpc_error<J: Json>(value: &J) -> Option<RpcError<J>> {
    if value.is_exception() || value.kind() != Kind::Object {
        return None;
    }
    let code = value.get_f64("code").and_then(as_integer)?;
    let message = value.get_str("message")?;
    Some(RpcError { code, message, data: value.get("data") })
}

/// Sorts the value a `request` promise rejected with: a JSON-RPC error object means the server
/// answered with an error; anything else is a transport failure.
pub(crate) fn read_rejection<J: Json>(value: J) -> RequestEnd<J> {
    match read_rpc_error(&value) {
        Some(e) => RequestEnd::RpcError(e),
        None => RequestEnd::Transport(value),
    }
}

/// A short description of a transport rejection: its `message` when it has one, else the string itself.
pub(crate) fn describe_failure<J: Json>(value: &J) -> String {
    if let Some(s) = value.as_str() {
        return s;
    }
    match value.get_str("message") {
        Some(m) if !m.is_empty() => m,
        _ => match value.get_str("name") {
            Some(n) => n,
            None => "request failed".to_owned(),
        },
    }
}

/// `true` when a request that failed without a JSON-RPC answer is worth re-issuing: a network error,
/// a broken stream, a timeout, HTTP 5xx, 408 or 429. An HTTP 4xx answer without a JSON-RPC error
/// (a `status` between 400 and 499) is not: sending the same request again would get the same answer;
/// nor is a rejection marked `retryable: false` (a closed channel, an exited process).
pub(crate) fn is_transient<J: Json>(error: &J) -> bool {
    if error.get("retryable").and_then(|r| r.as_bool()) == Some(false) {
        return false; // e.g. a channel that closed: the same request can only fail again
    }
    match error.get_f64("status") {
        Some(s) if (400.0..500.0).contains(&s) => s == 408.0 || s == 429.0,
        _ => true,
    }
}

/// The `Retry-After` a transport exposes on its rejection, as `retryAfterMs` (a non-negative number).
pub(crate) fn retry_after_ms<J: Json>(error: &J) -> Option<u64> {
    error.get_f64("retryAfterMs").filter(|n| *n >= 0.0 && n.is_finite()).map(|n| n.ceil() as u64)
}
