//! The promises of the async exports, held by a tiny JS registry (`registry.js`, a wasm-bindgen
//! snippet) rather than by the module: if the module ever traps, the registry still settles every
//! call (see `registry.js`). [`promised`] is the one promise wrapper every async export goes through;
//! [`roomy`] guards the synchronous exports' entry near the JS stack limit.

use crate::shell::{deadline_ms, JsCallFuture};
use js_sys::Promise;
use std::time::Duration;
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::spawn_local;

#[wasm_bindgen(module = "/src/bind/registry.js")]
extern "C" {
    /// `undefined` when the stack has room for an export's synchronous part, else a `RangeError`.
    fn cramped() -> JsValue;
    /// A new pending promise, or `None` when the call must not start (see [`refused`]).
    fn open(on_fail: &JsValue, on_ping: &JsValue) -> Option<Promise>;
    /// The rejected promise of a call that may not start: the module failed, or no stack room.
    fn refused() -> Promise;
    /// Bounds a call by `timeout_ms` from now (`Infinity`: none) and `signal`'s abort.
    fn bound(promise: &Promise, timeout_ms: f64, signal: &JsValue);
    /// Settles a call (a call settled already is left alone).
    fn settle(promise: &Promise, ok: bool, value: &JsValue);
    /// How many calls are in flight.
    pub fn pending() -> u32;
    /// The Error the module failed with, or `null`.
    pub fn failed() -> JsValue;
    /// The module answers a ping (see [`ping`]).
    fn alive();
}

thread_local! {
    /// What the registry calls when it declares the module failed — the shell stops every run (nothing
    /// more is sent or called) — and when it asks the module for a sign of life ([`ping`]). One closure
    /// each for the module's life (`FnMut`: the closure kind the timer's and the signals' callbacks
    /// are, so the glue has one kind).
    static HOOKS: (JsValue, JsValue) = (
        Closure::<dyn FnMut()>::new(crate::shell::halt).into_js_value(),
        Closure::<dyn FnMut()>::new(ping).into_js_value(),
    );
}

/// The registry suspects the module failed (a call is overdue and nothing settled for a while): the
/// module's timer answers (`alive`) the next time it fires, which it makes as soon as the host lets it.
/// A module that trapped cannot: this call traps too (its timer's state was left borrowed), or the
/// answer never comes (its timer stopped); a busy one answers within a turn of the host.
fn ping() {
    crate::shell::ping(alive);
}

/// `Err(RangeError)` when the stack has no room for a synchronous export: it throws that at once,
/// before any of its code runs (an exception unwinding through the module would leave its state behind).
pub(crate) fn roomy() -> Result<(), JsValue> {
    let e = cramped();
    if e.is_undefined() {
        Ok(())
    } else {
        Err(e)
    }
}

/// The backstop of a call: its deadline and the signal whose abort ends it at once, by which the
/// registry settles its promise if the module cannot.
pub(crate) struct Backstop {
    /// The call's deadline from now, in milliseconds (`Infinity`: none).
    pub deadline_ms: f64,
    /// The caller's signal when it ends the whole call (`undefined`: none).
    pub signal: JsValue,
}

impl Backstop {
    /// No deadline: the call may take any time (it is settled normally, or when the module traps).
    pub(crate) const NO_DEADLINE: Backstop = Backstop { deadline_ms: f64::INFINITY, signal: JsValue::UNDEFINED };

    /// The backstop of a call with `timeout` (`None`: the default deadline) and `signal`.
    pub(crate) fn of(timeout: Option<Duration>, signal: Option<&web_sys::AbortSignal>) -> Backstop {
        Backstop { deadline_ms: deadline_ms(timeout), signal: signal.map_or(JsValue::UNDEFINED, |s| s.clone().into()) }
    }
}

/// What an async export returns: always `Ok(promise)` — never a synchronous throw. (A `Result`, not a
/// bare `Promise`: a wasm export returning one JS value can be inlined into optimized JS, and V8 11
/// — Node 20 — aborts the process when such code is deoptimized while the call runs, e.g. after 45 000
/// calls in one loop: `Deoptimizer::DoComputeBuiltinContinuation`, unreachable code for an `externref`
/// return; tests/hostile/v8-externref-deopt.mjs shows it without the library. A `Result` is returned
/// as several values, which V8 never inlines.)
pub(crate) type Promised = Result<Promise, JsValue>;

/// The promise of one async export. It is opened in the registry before anything else runs (a
/// module that failed, or a stack without room, rejects at once); then `start` reads the arguments —
/// an invalid argument rejects with its `TypeError` — and starts the call, whose end settles the promise.
/// Inlined into the export, whose own frame stays small: the reading and starting run in a frame of
/// their own ([`started`]), entered only once the stack was found to have room for them.
#[inline(always)]
pub(crate) fn promised(start: impl FnOnce() -> Result<(JsCallFuture, Backstop), JsValue>) -> Promised {
    let Some(promise) = HOOKS.with(|(halt, ping)| open(halt, ping)) else { return Ok(refused()) };
    Ok(begin(promise, started(start)))
}

/// Runs `start` in a frame of its own (one per export: its reading of the arguments).
#[inline(never)]
fn started<T>(start: impl FnOnce() -> T) -> T {
    start()
}

/// Bounds and runs a call opened as `promise` (or rejects it with its arguments' `TypeError`): one copy
/// for every export.
#[inline(never)]
fn begin(promise: Promise, started: Result<(JsCallFuture, Backstop), JsValue>) -> Promise {
    match started {
        Err(e) => settle(&promise, false, &e),
        Ok((call, b)) => {
            bound(&promise, b.deadline_ms, &b.signal);
            settle_at_end(promise.clone(), call);
        }
    }
    promise
}

/// Drives `call` to its end and settles `promise` with it.
#[inline(never)]
fn settle_at_end(promise: Promise, call: JsCallFuture) {
    spawn_local(async move {
        match call.await {
            Ok(v) => settle(&promise, true, &v),
            Err(e) => settle(&promise, false, &e),
        }
    });
}
