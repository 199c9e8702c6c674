//! A call that started, and the one future its caller awaits: the tagged outcome object, or the
//! rejection. The JS exports resolve their promises with it; the Rust API reads its typed outcome from
//! it — one settling for both APIs.

use super::api::{Driving, Settled};
use super::outcome::outcome_to_js;
use std::future::Future;
use std::pin::Pin;
use wasm_bindgen::JsValue;

/// A call's settlement on its way: its tagged outcome object, or what it rejects with.
pub type Settling = Pin<Box<dyn Future<Output = Result<JsValue, JsValue>>>>;

/// A call on its way: the engine's, or a journaled one.
pub enum Call {
    /// Without a journal.
    Plain(Driving),
    /// With a journal (cargo feature `journal`).
    #[cfg(feature = "journal")]
    Journaled(Settling),
}

/// A call that started (or the `TypeError` its arguments got).
pub type Started = Result<Call, JsValue>;

/// The call's settlement: the tagged outcome object, or the rejection. One boxed future for every
/// call (not inlined: each JS export's own future holds its arguments or this box, nothing more, and
/// its code is a call and a poll — code size and memory per call).
#[inline(never)]
pub fn settle(started: Started) -> Settling {
    match started {
        Err(e) => Box::pin(std::future::ready(Err(e))),
        Ok(Call::Plain(run)) => Box::pin(async move {
            let settled: Settled = run.await;
            settled.map(|o| outcome_to_js(&o))
        }),
        #[cfg(feature = "journal")]
        Ok(Call::Journaled(run)) => run,
    }
}

/// A `TypeError` "function: message" (the JS function's name, as both APIs reject with it).
pub fn type_error(what: &str, message: &str) -> JsValue {
    js_sys::TypeError::new(&[what, ": ", message].concat()).into()
}
