//! What every call ends with, whichever API made it: [`Ended`] — the engine's outcome, or the outcome
//! object another waiter of a journaled task broadcast — or the value it rejects with. The JS exports
//! write it as the tagged outcome object ([`settle`]); the Rust API reads it as its typed outcome.

use super::tagged::outcome_to_js;
use crate::engine::Verdict;
use std::future::Future;
use std::pin::Pin;
use wasm_bindgen::JsValue;

/// What a call ended with.
#[derive(Debug)]
pub enum Ended {
    /// The engine's outcome (results, statuses and responses the very JS values that arrived).
    Verdict(Verdict<JsValue>),
    /// The tagged outcome object another waiter of the task (another tab or worker) broadcast, as it
    /// arrived (cargo feature `journal`).
    #[cfg(feature = "journal")]
    Told(JsValue),
}

/// What every call ends with: how it ended, or the value it rejects with (the caller's abort reason,
/// or what an application callback threw).
pub type Settled = Result<Ended, JsValue>;

/// A call on its way (one boxed future, whatever the call).
pub type Driving = Pin<Box<dyn Future<Output = Settled>>>;

/// A JS export's call on its way: its tagged outcome object, or what it rejects with.
pub type Settling = Pin<Box<dyn Future<Output = Result<JsValue, JsValue>>>>;

/// The tagged outcome object of `ended`.
pub fn ended_to_js(ended: Ended) -> JsValue {
    match ended {
        Ended::Verdict(o) => outcome_to_js(&o),
        #[cfg(feature = "journal")]
        Ended::Told(object) => object,
    }
}

/// The JS settlement of a call that started (or of the `TypeError` its arguments got): the tagged
/// outcome object, or the rejection. One boxed future for every call (not inlined: each JS export's
/// own future holds its arguments or this box, nothing more, and its code is a call and a poll — code
/// size and memory per call).
#[inline(never)]
pub fn settle(started: Result<Driving, JsValue>) -> Settling {
    match started {
        Err(e) => Box::pin(std::future::ready(Err(e))),
        Ok(run) => Box::pin(async move { run.await.map(ended_to_js) }),
    }
}
