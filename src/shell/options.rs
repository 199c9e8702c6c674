//! The options of the operations, typed, and what they become for the engine: its settings, time
//! limits and input mode, in whole milliseconds; and the one rule for a tool's arguments. Durations are
//! [`Duration`]s; `None` takes the documented default, and [`NO_DEADLINE`] is the one spelling of "no
//! bound at all".

use super::callbacks::{Handlers, InputFn, StatusFn};
use super::invalid::InvalidArgument;
use super::millis::millis;
#[cfg(feature = "journal")]
use super::store::JournalStore;
use crate::engine::settings::{
    InputMode, ReadChunk, Retry, TimeLimits, WaitSettings, DEFAULT_LISTEN_CHECK_MS, DEFAULT_MAX_POLL_INTERVAL_MS,
    DEFAULT_MIN_POLL_INTERVAL_MS, DEFAULT_POLL_INTERVAL_MS, DEFAULT_RETRIES, DEFAULT_TIMEOUT_MS,
};
use std::time::Duration;
use wasm_bindgen::JsValue;

pub use super::millis::NO_DEADLINE;

/// Where answers to input requests come from.
///
/// ```no_run
/// use mcp_tasks_wasm::{AwaitOptions, Input};
/// let hand_back = AwaitOptions { input: Input::Return, ..AwaitOptions::default() };
/// ```
#[derive(Clone, Default)]
pub enum Input {
    /// The input handlers (the options', else the client's). The default.
    #[default]
    Handlers,
    /// Never answer: give the `input_required` status back at once.
    Return,
    /// The application's input function.
    Function(InputFn),
}

/// Options of [`call_tool`](crate::call_tool) and the call of [`call_and_await`](crate::call_and_await)
/// (JS `callTool`'s).
///
/// ```no_run
/// use mcp_tasks_wasm::{CallOptions, Input};
/// use std::time::Duration;
/// let call = CallOptions { timeout: Some(Duration::from_secs(10)), input: Input::Return, ..CallOptions::default() };
/// ```
#[derive(Clone, Default)]
pub struct CallOptions {
    /// Bound of the whole call (default 60 s; [`NO_DEADLINE`] for none).
    pub timeout: Option<Duration>,
    /// Bound of each request (default: the client's; [`NO_DEADLINE`] for none).
    pub request_timeout: Option<Duration>,
    /// Aborting it stops everything; the call rejects with its reason.
    pub signal: Option<web_sys::AbortSignal>,
    /// Where MRTR answers come from.
    pub input: Input,
    /// Handlers to use instead of the client's.
    pub input_handlers: Option<Handlers>,
    /// Answers to send with the call (continuing an MRTR round by hand).
    pub input_responses: Option<JsValue>,
    /// The `requestState` to echo with the call.
    pub request_state: Option<JsValue>,
    /// MCP 2025-11-25: the `ttl` asked for the task the call creates (default 5 minutes;
    /// `call_and_await` asks for at least its wait's deadline plus a minute).
    pub task_ttl: Option<Duration>,
    /// Journal a created task in this store (cargo feature `journal`; JS: the `journal` option).
    #[cfg(feature = "journal")]
    pub journal: Option<JournalStore>,
}

/// Options of [`await_task`](crate::await_task) and the wait of [`call_and_await`](crate::call_and_await)
/// (JS `awaitTask`'s).
///
/// ```no_run
/// use mcp_tasks_wasm::AwaitOptions;
/// use std::time::Duration;
/// # fn f() -> Result<(), wasm_bindgen::JsValue> {
/// let abort = web_sys::AbortController::new()?;
/// let wait = AwaitOptions {
///     timeout: Some(Duration::from_secs(120)),
///     min_poll_interval: Some(Duration::from_millis(250)),
///     listen: true,
///     signal: Some(abort.signal()),
///     cancel_on_abort: true,
///     ..AwaitOptions::default()
/// };
/// # Ok(()) }
/// ```
#[derive(Clone, Default)]
pub struct AwaitOptions {
    /// Bound of the whole wait (default 60 s; [`NO_DEADLINE`] for none).
    pub timeout: Option<Duration>,
    /// Bound of each request (default: the client's; [`NO_DEADLINE`] for none).
    pub request_timeout: Option<Duration>,
    /// Re-issues of a transiently failed read in a row (default 3).
    pub retries: Option<u32>,
    /// Interval when the server sends none (default 1 s).
    pub poll_interval: Option<Duration>,
    /// Floor under every interval (default 100 ms, or the ceiling when that is lower).
    pub min_poll_interval: Option<Duration>,
    /// Ceiling over every interval (default 60 s).
    pub max_poll_interval: Option<Duration>,
    /// With `listen`: an open stream silent this long gets one read (default 30 s).
    pub listen_check: Option<Duration>,
    /// Wait on `subscriptions/listen` instead of polling.
    pub listen: bool,
    /// With `listen`: poll instead where listening cannot be had — a server without
    /// `subscriptions/listen` (`-32601`) or a client that cannot listen (default: the wait ends with
    /// that error, as specified).
    pub listen_fallback: bool,
    /// With `signal`: also send a best-effort `tasks/cancel` on abort.
    pub cancel_on_abort: bool,
    /// Dropping the call's future before it ends (e.g. the losing branch of a `select`) also sends a
    /// best-effort `tasks/cancel` for the task it was waiting on (once a task is known; bounded by
    /// `request_timeout`, else 5 s; its answer is not awaited). Rust only (a JS promise cannot be
    /// dropped). Without it, a dropped wait leaves the task running on the server.
    pub cancel_on_drop: bool,
    /// Aborting it stops everything; the wait rejects with its reason.
    pub signal: Option<web_sys::AbortSignal>,
    /// A Cancel button (JS `cancelSignal`): aborting it sends `tasks/cancel` and the wait goes on to
    /// the server's answer — usually [`WaitOutcome::Cancelled`](crate::WaitOutcome::Cancelled); the
    /// task's real end when the cancel loses the race; the timeout when the server ignores it. No input
    /// is asked for after it. Unlike `signal`, the wait does not stop at once.
    pub cancel_signal: Option<web_sys::AbortSignal>,
    /// Where input answers come from.
    pub input: Input,
    /// Handlers to use instead of the client's.
    pub input_handlers: Option<Handlers>,
    /// Called once for each new status.
    pub on_status: Option<StatusFn>,
    /// Keys answered before this wait (e.g. before a restart), with the answer when it was never
    /// acknowledged: never asked; an answer given is sent once, without asking.
    pub answered: Vec<(String, Option<JsValue>)>,
    /// Journal the awaited task in this store (cargo feature `journal`; JS: the `journal` option).
    #[cfg(feature = "journal")]
    pub journal: Option<JournalStore>,
}

/// Options of [`get_task`](crate::get_task), [`update_task`](crate::update_task) and
/// [`cancel_task`](crate::cancel_task).
///
/// ```no_run
/// use mcp_tasks_wasm::StepOptions;
/// let once = StepOptions { retries: Some(0), ..StepOptions::default() };
/// ```
#[derive(Clone, Default)]
pub struct StepOptions {
    /// Bound of the whole call (default 60 s; [`NO_DEADLINE`] for none).
    pub timeout: Option<Duration>,
    /// Bound of each request (default: the client's; [`NO_DEADLINE`] for none).
    pub request_timeout: Option<Duration>,
    /// Re-issues of a transiently failed `tasks/get` or `tasks/cancel` in a row (default 3).
    pub retries: Option<u32>,
    /// Aborting it stops everything; the call rejects with its reason.
    pub signal: Option<web_sys::AbortSignal>,
}

/// A bounded duration in milliseconds, `default` when not given (or unbounded).
fn millis_or(d: Option<Duration>, default: u64) -> u64 {
    d.and_then(millis).unwrap_or(default)
}

/// The engine's time bounds: the call's timeout, and each request's (`client` is the client's own).
pub(crate) fn time_limits(
    timeout: Option<Duration>,
    request_timeout: Option<Duration>,
    client: Option<Duration>,
) -> TimeLimits {
    TimeLimits {
        deadline_ms: timeout.map_or(Some(DEFAULT_TIMEOUT_MS), millis),
        request_timeout_ms: request_timeout.or(client).and_then(millis),
    }
}

/// The engine's input mode for `input` with these handlers.
pub(crate) fn input_mode(input: &Input, handlers: &Handlers) -> InputMode {
    match input {
        Input::Handlers => InputMode::Handlers(handlers.set()),
        Input::Return => InputMode::Return,
        Input::Function(_) => InputMode::Function,
    }
}

/// The re-issue rule, with a fresh random jitter seed.
pub(crate) fn retry(retries: Option<u32>) -> Retry {
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
    ) -> Result<WaitSettings, InvalidArgument> {
        let max_poll = millis_or(self.max_poll_interval, DEFAULT_MAX_POLL_INTERVAL_MS);
        let opts = WaitSettings {
            limits: time_limits(self.timeout, self.request_timeout, client_timeout),
            poll_interval_ms: millis_or(self.poll_interval, DEFAULT_POLL_INTERVAL_MS),
            // The floor's default never exceeds a ceiling set lower.
            min_poll_interval_ms: millis_or(self.min_poll_interval, DEFAULT_MIN_POLL_INTERVAL_MS.min(max_poll)),
            max_poll_interval_ms: max_poll,
            retry: retry(self.retries),
            listen_check_ms: millis_or(self.listen_check, DEFAULT_LISTEN_CHECK_MS),
            cancel_on_abort: self.cancel_on_abort,
            input: input_mode(&self.input, handlers),
            listen: self.listen,
            listen_fallback: self.listen_fallback,
            read_chunk: ReadChunk::default(),
            generation: crate::proto::core_tasks::Generation::default(),
        };
        if opts.min_poll_interval_ms > opts.max_poll_interval_ms {
            return Err(InvalidArgument::rule("minPollIntervalMs must not exceed maxPollIntervalMs"));
        }
        Ok(opts)
    }
}

/// The tool's arguments as both APIs take them: none (`undefined` or `null`; in Rust `()` or `None`), or
/// an object that is not an array (MCP's `arguments` is a map). `Err`: the invalid argument (one message).
pub(crate) fn tool_args(v: JsValue) -> Result<Option<JsValue>, InvalidArgument> {
    if v.is_undefined() || v.is_null() {
        Ok(None)
    } else if super::interop::from_js::is_plain_object(&v) {
        Ok(Some(v))
    } else {
        Err(InvalidArgument::rule("args must be an object (not an array)"))
    }
}
