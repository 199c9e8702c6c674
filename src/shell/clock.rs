//! The monotonic clock: `performance.now()` (pages, workers, service workers and Node alike), in whole
//! milliseconds.

use crate::engine::Millis;
use wasm_bindgen::prelude::*;

#[wasm_bindgen]
extern "C" {
    /// `performance.now()` (the global `performance` read at each call, as the registry reads it).
    #[wasm_bindgen(js_namespace = performance, js_name = now)]
    fn performance_now() -> f64;
}

/// Milliseconds on the monotonic clock (rounded down).
pub(crate) fn now() -> Millis {
    millis(now_ms())
}

/// A reading of [`now_ms`] in whole milliseconds (rounded down).
pub(crate) fn millis(t: f64) -> Millis {
    t.max(0.0) as Millis
}

/// Milliseconds on the monotonic clock, as `performance.now()` gives them.
pub(crate) fn now_ms() -> f64 {
    performance_now()
}
