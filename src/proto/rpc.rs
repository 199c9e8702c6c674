//! JSON-RPC errors, and how a rejected `request` is read.

use crate::json::{as_integer, Json, Kind};

/// A JSON-RPC error object `{code, message, data?}`.
#[derive(Clone, Debug, PartialEq)]
pub struct RpcError<V> {
    /// The integer error code.
    pub code: i64,
    /// The human-readable message.
    pub message: String,
    /// Extra data, as sent.
    pub data: Option<V>,
}

/// How a request ended.
#[derive(Clone, Debug, PartialEq)]
pub enum Reply<V> {
    /// The server answered with a `result` (the value `request` resolved with).
    Result(V),
    /// The server answered with a JSON-RPC error.
    RpcError(RpcError<V>),
    /// The request failed without a JSON-RPC answer (network, HTTP framing, abort...): the rejection value.
    Transport(V),
}

/// Reads a JSON-RPC error object: a plain object with an integer `code` and a string `message`.
/// A host exception (e.g. a `DOMException`, which has a numeric `code`) is never one.
pub fn read_rpc_error<J: Json>(value: &J) -> Option<RpcError<J>> {
    if value.is_exception() || value.kind() != Kind::Object {
        return None;
    }
    let code = value.get_f64("code").and_then(as_integer)?;
    let message = value.get_str("message")?;
    Some(RpcError { code, message, data: value.get("data") })
}

/// Sorts the value a `request` promise rejected with: a JSON-RPC error object means the server
/// answered with an error; anything else is a transport failure.
pub fn read_rejection<J: Json>(value: J) -> Reply<J> {
    match read_rpc_error(&value) {
        Some(e) => Reply::RpcError(e),
        None => Reply::Transport(value),
    }
}

/// A short description of a transport rejection: its `message` when it has one, else the string itself.
pub fn describe_failure<J: Json>(value: &J) -> String {
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
