//! What the typed options of both APIs (`crate::api::options`) become for the engine: its settings,
//! bounds and input mode, in whole milliseconds; and the one rule for a tool's arguments.

use super::millis::millis;
use super::mistake::Mistake;
use crate::api::callbacks::Handlers;
use crate::api::options::{AwaitOptions, CallOptions, Input};
use crate::engine::settings::{
    Bounds, InputMode, ReadChunk, Retry, WaitSettings, DEFAULT_LISTEN_CHECK_MS, DEFAULT_MAX_POLL_INTERVAL_MS,
    DEFAULT_MIN_POLL_INTERVAL_MS, DEFAULT_POLL_INTERVAL_MS, DEFAULT_RETRIES, DEFAULT_TIMEOUT_MS,
};
use std::time::Duration;
use wasm_bindgen::JsValue;

/// A bounded duration in milliseconds, `default` when not given (or unbounded).
fn millis_or(d: Option<Duration>, default: u64) -> u64 {
    d.and_then(millis).unwrap_or(default)
}

/// The engine's time bounds: the call's timeout, and each request's (`client` is the client's own).
pub fn bounds(timeout: Option<Duration>, request_timeout: Option<Duration>, client: Option<Duration>) -> Bounds {
    Bounds {
        timeout_ms: timeout.map_or(Some(DEFAULT_TIMEOUT_MS), millis),
        request_timeout_ms: request_timeout.or(client).and_then(millis),
    }
}

/// The engine's input mode for `input` with these handlers.
pub fn input_mode(input: &Input, handlers: &Handlers) -> InputMode {
    match input {
        Input::Handlers => InputMode::Handlers(handlers.set()),
        Input::Return => InputMode::Return,
        Input::Function(_) => InputMode::Function,
    }
}

/// The re-issue rule, with a fresh random jitter seed.
pub fn retry(retries: Option<u32>) -> Retry {
    Retry {
        retries: retries.unwrap_or(DEFAULT_RETRIES),
        seed: (js_sys::Math::random() * 9_007_199_254_740_991.0) as u64,
    }
}

impl CallOptions {
    /// `true` when the call is journaled (its options name a store).
    #[cfg(feature = "js")]
    pub(crate) fn journaled(&self) -> bool {
        #[cfg(feature = "journal")]
        return self.journal.is_some();
        #[cfg(not(feature = "journal"))]
        false
    }
}

impl AwaitOptions {
    /// `true` when the wait is journaled (its options name a store).
    #[cfg(feature = "js")]
    pub(crate) fn journaled(&self) -> bool {
        #[cfg(feature = "journal")]
        return self.journal.is_some();
        #[cfg(not(feature = "journal"))]
        false
    }

    /// The engine's wait options (`client_timeout`: the client's request timeout). `Err` when the
    /// floor is above the ceiling.
    pub(crate) fn engine(
        &self,
        handlers: &Handlers,
        client_timeout: Option<Duration>,
    ) -> Result<WaitSettings, Mistake> {
        let max_poll = millis_or(self.max_poll_interval, DEFAULT_MAX_POLL_INTERVAL_MS);
        let opts = WaitSettings {
            bounds: bounds(self.timeout, self.request_timeout, client_timeout),
            poll_interval_ms: millis_or(self.poll_interval, DEFAULT_POLL_INTERVAL_MS),
            // The floor's default never exceeds a ceiling set lower.
            min_poll_interval_ms: millis_or(self.min_poll_interval, DEFAULT_MIN_POLL_INTERVAL_MS.min(max_poll)),
            max_poll_interval_ms: max_poll,
            retry: retry(self.retries),
            listen_check_ms: millis_or(self.listen_check, DEFAULT_LISTEN_CHECK_MS),
            cancel_on_abort: self.cancel_on_abort,
            input: input_mode(&self.input, handlers),
            listen: self.listen,
            read_chunk: ReadChunk::default(),
        };
        if opts.min_poll_interval_ms > opts.max_poll_interval_ms {
            return Err(Mistake::rule("minPollIntervalMs must not exceed maxPollIntervalMs"));
        }
        Ok(opts)
    }
}

/// The tool's arguments as both APIs take them: none (`undefined` or `null`; in Rust `()` or `None`), or
/// an object that is not an array (MCP's `arguments` is a map). `Err`: the mistake (one message).
pub fn tool_args(v: JsValue) -> Result<Option<JsValue>, Mistake> {
    if v.is_undefined() || v.is_null() {
        Ok(None)
    } else if super::values::is_plain_object(&v) {
        Ok(Some(v))
    } else {
        Err(Mistake::rule("args must be an object (not an array)"))
    }
}
