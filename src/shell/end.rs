//! What every call ends with, whichever API made it: [`Outcome`] — the engine's outcome, or the outcome
//! object another waiter of a journaled task broadcast — or the value it rejects with. The JS exports
//! write it as the tagged outcome object ([`settle`]); the Rust API reads it as its typed outcome.

use crate::engine::Outcome as EngineOutcome;
use std::future::Future;
use std::pin::Pin;
use wasm_bindgen::JsValue;

/// How a call ended, for the application.
#[derive(Debug)]
pub(crate) enum Outcome {
    /// The engine's outcome (results, statuses and responses the very JS values that arrived).
    Engine(EngineOutcome<JsValue>),
    /// The tagged outcome object another waiter of the task (another tab or worker) broadcast, as it
    /// arrived (cargo feature `journal`).
    #[cfg(feature = "journal")]
    Told(JsValue),
}

/// Why a call rejects instead of ending with an outcome. JS rejects with [`Rejection::into_js`]; the
/// Rust API tells the kinds apart (`crate::Error`).
#[derive(Debug)]
pub enum Rejection {
    /// An invalid argument: "function: message" (the JS `TypeError`'s message); nothing was sent.
    InvalidArgument(String),
    /// The caller's abort signal fired: its reason.
    Aborted(JsValue),
    /// An application callback (an input handler, the input function, `onStatus`, a journal store, a
    /// resume callback) threw or rejected with this value.
    Thrown(JsValue),
}

impl Rejection {
    /// What the JS function rejects with: a `TypeError` for wrong arguments, else the value as it came.
    pub fn into_js(self) -> JsValue {
        match self {
            Self::InvalidArgument(message) => js_sys::TypeError::new(&message).into(),
            Self::Aborted(v) | Self::Thrown(v) => v,
        }
    }
}

/// What every call ends with: how it ended, or why it rejects.
pub(crate) type End = Result<Outcome, Rejection>;

/// A call on its way (one boxed future, whatever the call).
pub(crate) type CallFuture = Pin<Box<dyn Future<Output = End>>>;

#[cfg(feature = "js")]
/// A JS export's call on its way: its tagged outcome object, or what it rejects with.
pub(crate) type JsCallFuture = Pin<Box<dyn Future<Output = Result<JsValue, JsValue>>>>;

impl Outcome {
    #[cfg(feature = "js")]
    /// The tagged outcome object.
    pub(crate) fn into_js(self) -> JsValue {
        match self {
            Outcome::Engine(o) => o.to_json(),
            #[cfg(feature = "journal")]
            Outcome::Told(object) => object,
        }
    }
}

#[cfg(feature = "js")]
/// The JS settlement of a call that started (or of its invalid argument): the tagged
/// outcome object, or the rejection. One boxed future for every call (not inlined: each JS export's
/// own future holds its arguments or this box, nothing more, and its code is a call and a poll — code
/// size and memory per call).
#[inline(never)]
pub(crate) fn js_call(started: Result<CallFuture, Rejection>) -> JsCallFuture {
    match started {
        Err(e) => Box::pin(std::future::ready(Err(e.into_js()))),
        Ok(run) => Box::pin(async move { run.await.map(Outcome::into_js).map_err(Rejection::into_js) }),
    }
}
