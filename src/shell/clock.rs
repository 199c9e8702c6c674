//! The monotonic clock: `performance.now()` (pages, workers, service workers and Node alike), in whole
//! milliseconds.

use crate::engine::Millis;
use wasm_bindgen::prelude::*;

#[wasm_bindgen]
extern "C" {
    /// The global `performance` object.
    #[wasm_bindgen(thread_local_v2, js_name = performance)]
    static PERFORMANCE: web_sys::Performance;
}

/// Milliseconds on the monotonic clock (rounded down).
pub fn now() -> Millis {
    now_ms().max(0.0) as Millis
}

/// Milliseconds on the monotonic clock, as `performance.now()` gives them.
pub fn now_ms() -> f64 {
    PERFORMANCE.with(|p| p.now())
}
