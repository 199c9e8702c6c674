//! The machines' settings (what the typed options of both APIs become), with the documented defaults.

use crate::proto::core_tasks::Generation;
use crate::proto::input::InputKind;

/// Default bound of a whole call or wait (`timeoutMs`).
pub(crate) const DEFAULT_TIMEOUT_MS: u64 = 60_000;
/// Default interval between polls when the server sends no `pollIntervalMs`.
pub(crate) const DEFAULT_POLL_INTERVAL_MS: u64 = 1_000;
/// Default floor under any poll interval.
pub(crate) const DEFAULT_MIN_POLL_INTERVAL_MS: u64 = 100;
/// Bound of the best-effort `tasks/cancel` sent on abort when no request timeout is set.
pub(crate) const DETACHED_CANCEL_TIMEOUT_MS: u64 = 5_000;
/// Default ceiling over any poll interval (`maxPollIntervalMs`).
pub(crate) const DEFAULT_MAX_POLL_INTERVAL_MS: u64 = 60_000;
/// Default number of times a transiently failed idempotent request is re-issued (`retries`).
pub(crate) const DEFAULT_RETRIES: u32 = 3;
/// Default time an open, silent listen stream may go without a safety read (`listenCheckMs`).
pub(crate) const DEFAULT_LISTEN_CHECK_MS: u64 = 30_000;
/// The first backoff before re-issuing a request; it doubles with every further attempt.
pub(crate) const RETRY_BASE_MS: u64 = 250;
/// A re-issue is made only when at least this much time is left before the deadline once its backoff
/// ends (less could only end in the timeout); otherwise the wait ends at once with the failure.
pub(crate) const RETRY_MIN_LEFT_MS: u64 = 100;

/// Default `ttl` of a task `tools/call` creates on an MCP 2025-11-25 server (`taskTtlMs`): the server
/// deletes the task this long after it was created; `callAndAwait` asks for at least its wait's
/// deadline plus [`TASK_TTL_MARGIN_MS`].
pub(crate) const DEFAULT_TASK_TTL_MS: u64 = 300_000;
/// What `callAndAwait` adds to its wait's deadline for the task's `ttl` (the result is read after
/// the task ends).
pub(crate) const TASK_TTL_MARGIN_MS: u64 = 60_000;

/// How many input requests of one status are read in one step by default (see [`ReadChunk`]).
pub(crate) const DEFAULT_READ_CHUNK: usize = 64;

/// How many input requests of one status a machine reads in one step. A status listing more is read
/// over several steps, an [`Action::Continue`](super::Action::Continue) between two of them, so that a
/// driver can let its host run: a status with 10 000 requests is not read in one go. The status itself
/// is taken in at once (`onStatus`, the next read or the stream); its requests are handed out — or the
/// status refused for a malformed one, which stops what was started for it — once all are read, and
/// the machine takes no other input before that. Tests set it small, to reach that path with few
/// requests.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct ReadChunk(pub usize);

impl Default for ReadChunk {
    fn default() -> Self {
        Self(DEFAULT_READ_CHUNK)
    }
}

/// A call's time limits, shared by every machine: its deadline and each request's timeout.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct TimeLimits {
    /// The deadline: the bound of the whole call (`None`: no deadline).
    pub deadline_ms: Option<u64>,
    /// The bound of each request (`None`: only the time left bounds it).
    pub request_timeout_ms: Option<u64>,
}

impl Default for TimeLimits {
    fn default() -> Self {
        Self { deadline_ms: Some(DEFAULT_TIMEOUT_MS), request_timeout_ms: None }
    }
}

/// Which input handlers the application supplied.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct HandlerSet {
    /// `form`.
    pub form: bool,
    /// `url`.
    pub url: bool,
    /// `sampling`.
    pub sampling: bool,
    /// `roots`.
    pub roots: bool,
}

impl HandlerSet {
    /// `true` when a handler for `kind` exists.
    pub(crate) fn has(self, kind: InputKind) -> bool {
        match kind {
            InputKind::Form => self.form,
            InputKind::Url => self.url,
            InputKind::Sampling => self.sampling,
            InputKind::Roots => self.roots,
        }
    }
}

/// Where answers to input requests come from (the `input` option).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum InputMode {
    /// The client's `inputHandlers` (the default).
    Handlers(HandlerSet),
    /// Never answer: give the `input_required` status back at once.
    Return,
    /// The application's input function.
    Function,
}

impl Default for InputMode {
    fn default() -> Self {
        Self::Handlers(HandlerSet::default())
    }
}

/// How transiently failed idempotent requests are re-issued.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Retry {
    /// At most this many re-issues in a row (a success resets the count).
    pub retries: u32,
    /// Seed of the jitter added to every backoff (the shell draws it at random; tests fix it).
    pub seed: u64,
}

impl Default for Retry {
    fn default() -> Self {
        Self { retries: DEFAULT_RETRIES, seed: 0x9e37_79b9_7f4a_7c15 }
    }
}

/// Options of `awaitTask`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct WaitSettings {
    /// Time bounds.
    pub limits: TimeLimits,
    /// Interval used when the server sends none.
    pub poll_interval_ms: u64,
    /// Floor under every interval.
    pub min_poll_interval_ms: u64,
    /// Ceiling over every interval (a larger server interval is clamped to it).
    pub max_poll_interval_ms: u64,
    /// Re-issuing of failed reads and listen opens.
    pub retry: Retry,
    /// While a listen stream is open and silent this long, the task is read once (`tasks/get`).
    pub listen_check_ms: u64,
    /// Send a best-effort `tasks/cancel` when the caller aborts.
    pub cancel_on_abort: bool,
    /// Where input answers come from.
    pub input: InputMode,
    /// Wait on `subscriptions/listen` instead of polling.
    pub listen: bool,
    /// With `listen`: a server without `subscriptions/listen` (`-32601`) or a client that cannot
    /// listen is polled instead (default: the wait ends with that error, as specified).
    pub listen_fallback: bool,
    /// Input requests read per step.
    pub read_chunk: ReadChunk,
    /// The server's generation.
    pub generation: Generation,
}

impl Default for WaitSettings {
    fn default() -> Self {
        Self {
            limits: TimeLimits::default(),
            poll_interval_ms: DEFAULT_POLL_INTERVAL_MS,
            min_poll_interval_ms: DEFAULT_MIN_POLL_INTERVAL_MS,
            max_poll_interval_ms: DEFAULT_MAX_POLL_INTERVAL_MS,
            retry: Retry::default(),
            listen_check_ms: DEFAULT_LISTEN_CHECK_MS,
            cancel_on_abort: false,
            input: InputMode::default(),
            listen: false,
            listen_fallback: false,
            read_chunk: ReadChunk::default(),
            generation: Generation::default(),
        }
    }
}
