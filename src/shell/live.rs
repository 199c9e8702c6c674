//! What the module holds right now, for `liveCounts()`: calls in progress, requests in flight
//! (best-effort cancels included), input handler calls running, open listen streams. Each is counted
//! by a guard that lives exactly as long as the thing it counts, so a future dropped half-way (or a
//! run that ends any way at all) leaves nothing counted.

use std::cell::Cell;

/// What a [`Counted`] guard counts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Counter {
    /// A call in progress.
    Runs = 0,
    /// A request in flight.
    Requests = 1,
    /// An input handler (or the input function) running.
    Asks = 2,
    /// An open listen stream.
    Streams = 3,
}

thread_local! {
    static COUNTS: [Cell<u32>; 4] = const { [Cell::new(0), Cell::new(0), Cell::new(0), Cell::new(0)] };
}

/// Counts one thing for as long as it lives.
#[derive(Debug)]
pub(crate) struct Counted(Counter);

impl Counted {
    /// Starts counting one more of `what`.
    pub(crate) fn new(what: Counter) -> Self {
        COUNTS.with(|c| {
            if let Some(n) = c.get(what as usize) {
                n.set(n.get().saturating_add(1));
            }
        });
        Self(what)
    }
}

impl Drop for Counted {
    fn drop(&mut self) {
        COUNTS.with(|c| {
            if let Some(n) = c.get(self.0 as usize) {
                n.set(n.get().saturating_sub(1));
            }
        });
    }
}

/// The current count of `what`.
pub(crate) fn count(what: Counter) -> u32 {
    COUNTS.with(|c| c.get(what as usize).map_or(0, Cell::get))
}

/// What the module holds right now (see [`LiveCounts`]'s fields).
pub(crate) fn live_counts() -> LiveCounts {
    LiveCounts {
        runs: count(Counter::Runs),
        requests: count(Counter::Requests),
        asks: count(Counter::Asks),
        streams: count(Counter::Streams),
        timers: super::timer::armed_count(),
    }
}

/// What the module holds right now: every count is zero once every call ended or was dropped (the
/// Rust API's `live_counts()`; the JS face's `liveCounts()` adds the promises' registry).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LiveCounts {
    /// Calls in progress.
    pub runs: u32,
    /// Requests in flight.
    pub requests: u32,
    /// Input handler (or input function) calls running.
    pub asks: u32,
    /// Open listen streams.
    pub streams: u32,
    /// Armed timers (the module arms one at most).
    pub timers: u32,
}
