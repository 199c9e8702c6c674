//! The module's share of the event loop. However a server answers — a round that comes back at once, a
//! stream whose `next()` always resolves, thousands of input requests in one status — a run never
//! holds the host's event loop for long: the work the module does between two turns of the host's task
//! queue (two firings of its timer, a macrotask) is counted, and once it passes [`SLICE_MS`] a run
//! pauses until the next turn (a 0 ms sleep on the module's timer), letting the page's timers, input
//! and rendering — and an abort of the call's signal — run in between.

use std::cell::Cell;

/// The most module work between two turns of the host's task queue, in milliseconds.
pub(crate) const SLICE_MS: f64 = 10.0;

thread_local! {
    /// The module's work since the host last ran a task of the module's timer, in milliseconds.
    static WORK: Cell<f64> = const { Cell::new(0.0) };
}

/// `performance.now()`, unrounded.
pub(crate) fn precise_now() -> f64 {
    super::clock::now_ms()
}

/// Counts `ms` of module work.
pub(crate) fn spend(ms: f64) {
    WORK.with(|w| w.set(w.get() + ms));
}

/// `true` once the work counted, and `since` (when the current stretch began), passed the slice.
pub(crate) fn over(since: f64) -> bool {
    over_at(since, precise_now())
}

/// [`over`] with the clock already read: `now` is `precise_now()`.
pub(crate) fn over_at(since: f64, now: f64) -> bool {
    WORK.with(Cell::get) + (now - since) > SLICE_MS
}

/// The host ran a task of the module's timer: a new slice begins.
pub(crate) fn reset() {
    WORK.with(|w| w.set(0.0));
}
