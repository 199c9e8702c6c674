//! Durations in whole milliseconds, both ways (JS counts time in milliseconds; the typed options in
//! [`Duration`]s). "No bound at all" is `Duration::MAX`: [`NO_DEADLINE`] (JS: `Infinity`).

use std::time::Duration;

/// "No bound at all" (JS: `Infinity`), for `timeout` and `request_timeout` — the one spelling of "no
/// deadline" (`None` means "the default").
///
/// ```no_run
/// use mcp_tasks_wasm::{AwaitOptions, NO_DEADLINE};
/// let forever = AwaitOptions { timeout: Some(NO_DEADLINE), ..AwaitOptions::default() };
/// ```
pub const NO_DEADLINE: Duration = Duration::MAX;

/// Whole milliseconds of a duration (rounded up), `None` for [`NO_DEADLINE`].
pub(crate) fn millis(d: Duration) -> Option<u64> {
    if d == NO_DEADLINE {
        return None;
    }
    // In u64 (no 128-bit division in the module): whole seconds, then the fraction rounded up.
    let fraction = u64::from(d.subsec_nanos().div_ceil(1_000_000));
    Some(d.as_secs().saturating_mul(1000).saturating_add(fraction))
}

/// A duration in milliseconds as JS counts them (`Infinity` for [`NO_DEADLINE`]).
pub(crate) fn millis_f64(d: Duration) -> f64 {
    millis(d).map_or(f64::INFINITY, |ms| ms as f64)
}

/// A duration of `n` milliseconds (rounded up; `Infinity` and beyond `u64` ms: no bound).
pub(crate) fn duration_of_millis(n: f64) -> Duration {
    if n >= 18_446_744_073_709_551_615.0 {
        return NO_DEADLINE;
    }
    Duration::from_millis(n.ceil() as u64)
}
