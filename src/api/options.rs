//! The options of the async functions, typed. Durations are [`Duration`]s; `None` takes the
//! documented default, and [`NO_DEADLINE`] is the one spelling of "no bound at all". (What they become
//! for the engine: `crate::shell::settings`.)

use super::callbacks::{Handlers, InputFn, StatusFn};
#[cfg(feature = "journal")]
use super::store::JournalStore;
use std::time::Duration;
use wasm_bindgen::JsValue;

/// "No bound at all" (JS: `Infinity`), for `timeout` and `request_timeout` — the one spelling of "no
/// deadline" (`None` means "the default").
///
/// ```no_run
/// use mcp_tasks_wasm::{AwaitOptions, NO_DEADLINE};
/// let forever = AwaitOptions { timeout: Some(NO_DEADLINE), ..AwaitOptions::default() };
/// ```
pub const NO_DEADLINE: Duration = crate::shell::millis::NO_BOUND;

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
