//! The wait engine: pure state machines that decide every request, timer, input round and outcome.
//!
//! A machine never reads a clock, never sleeps and never touches JS. Every input (`Event`) carries the
//! current time; after each input the driver drains `next_action` until it returns `None` and arms
//! one timer for `wake_at`. The same machines run under simulated time in the native tests and under
//! real timers in the wasm shell, so every timing rule of the contract is tested exactly.

pub(crate) mod both;
pub(crate) mod call;
pub(crate) mod flights;
pub(crate) mod inputs;
pub(crate) mod outcome;
pub(crate) mod retry;
mod seen;
pub(crate) mod session;
pub(crate) mod settings;
pub(crate) mod step;
pub(crate) mod wait;

use crate::proto::input::InputKind;
use crate::proto::request::Call;
use crate::proto::rpc::RequestEnd;
#[cfg(target_arch = "wasm32")]
pub(crate) use outcome::Cause;
pub use outcome::ErrorKind;
pub(crate) use outcome::{Outcome, TaskError};

/// Milliseconds on the driver's monotonic clock.
pub(crate) type Millis = u64;

/// Identifies one request the machine asked the driver to send.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct ReqId(pub u32);

/// Identifies one call of an input handler (or of the input function).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct AskId(pub u32);

/// An input to a machine.
#[derive(Clone, Debug)]
pub(crate) enum Event<V> {
    /// Time passed (the timer armed for `wake_at` fired, or the driver just wants the machine to catch up).
    Tick,
    /// A request settled.
    Reply {
        /// Which request.
        req: ReqId,
        /// How it ended.
        reply: RequestEnd<V>,
    },
    /// An input handler (or the input function) resolved with `value` (not yet checked).
    Answer {
        /// Which call.
        ask: AskId,
        /// What it resolved with.
        value: V,
    },
    /// Something happened on the `subscriptions/listen` stream.
    Stream(StreamEvent<V>),
    /// The caller's `AbortSignal` fired with this reason.
    Abort {
        /// `signal.reason`.
        reason: V,
        /// Which part of the call the signal governs (only `callAndAwait` has parts).
        scope: AbortScope,
    },
    /// Not an abort: the application asks for the task to be cancelled (`cancelSignal` of a wait). The
    /// wait sends `tasks/cancel` and goes on to the task's end; `callTool` and the steps ignore it,
    /// `callAndAwait` holds it until its wait starts.
    Cancel,
    /// An application callback (input handler, input function, `onStatus`) threw this value.
    Throw {
        /// The thrown value.
        error: V,
    },
    /// The server sent this JSON-RPC request (`{id, method, params}`, MCP 2025-11-25 input) on one of
    /// the machine's requests that hear them ([`Call::hears_requests`]).
    ServerRequest {
        /// The request message, as it came.
        message: V,
    },
    /// The client's session is open: `Ok({generation, capabilities})` (`generation` absent: MCP
    /// 2026-07-28), or `Err` with what opening it failed with (see [`session::Opening`]).
    Session(Result<V, V>),
}

/// Which part of a call an abort signal governs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum AbortScope {
    /// The whole call.
    All,
    /// Only the `tools/call` part of `callAndAwait` (its `callOptions.signal` when `awaitOptions` has
    /// a signal of its own).
    Call,
    /// Only the wait part of `callAndAwait` (`awaitOptions.signal`).
    Wait,
    /// The whole call, and never `cancelOnAbort`'s `tasks/cancel`: a stop that is not the caller's (the
    /// task journal's, when its store failed — the task must outlive the call, to be resumed).
    Stop,
}

/// What the listen stream reported.
#[derive(Clone, Debug)]
pub(crate) enum StreamEvent<V> {
    /// One message (a JSON-RPC notification or the listen request's own response).
    Message(V),
    /// The stream ended.
    End,
    /// Opening or reading the stream failed with this value.
    Failed(V),
    /// The client has no `listen` function.
    Unsupported,
}

/// An output of a machine, for the driver to carry out in order.
#[derive(Clone, Debug)]
pub(crate) enum Action<V> {
    /// Send this request; the driver reports its end as `Event::Reply`. `timeout_ms` is handed to the
    /// client as a hint; the machine enforces it itself through `wake_at`.
    Send {
        /// Its id.
        req: ReqId,
        /// What to send.
        call: Call<V>,
        /// The time the request may take.
        timeout_ms: Option<u64>,
    },
    /// Send this request and forget it (best effort), aborting it after `timeout_ms`.
    SendDetached {
        /// What to send.
        call: Call<V>,
        /// Its bound.
        timeout_ms: u64,
    },
    /// Abort an in-flight request's signal; its late reply is ignored.
    Abort {
        /// Which request.
        req: ReqId,
    },
    /// A new status was observed: call `onStatus` with this status object.
    Status(V),
    /// Call the input handler for `kind` with `(params, {key, status, signal})`.
    Ask {
        /// This call's id.
        ask: AskId,
        /// Which handler.
        kind: InputKind,
        /// The request's key.
        key: String,
        /// The request's params.
        params: V,
        /// The status the request came with.
        status: V,
    },
    /// Call the input function with this status (its `inputRequests` limited to unanswered ones).
    AskAll {
        /// This call's id.
        ask: AskId,
        /// The status to hand over.
        status: V,
    },
    /// Abort the signal handed to an input handler call; its late answer is ignored.
    StopAsk {
        /// Which call.
        ask: AskId,
    },
    /// Open the `subscriptions/listen` stream (`call` is the listen request).
    OpenStream {
        /// The listen request.
        call: Call<V>,
    },
    /// Close the listen stream.
    CloseStream,
    /// Nothing to carry out: the machine has more work from the same input (a status's input requests
    /// read a chunk at a time, see [`settings::ReadChunk`]); the driver takes the next action, and may
    /// let its host run first.
    Continue,
    /// The call moves on to its next part (`callAndAwait`: from the call to the wait); the
    /// application callbacks of that part apply from now on.
    NextPart,
    /// The generation found (see [`session::Opening`]): from now on the run's requests are built for
    /// MCP 2025-11-25 (`core`: no `_meta` envelope) or for 2026-07-28.
    Speak {
        /// `true` for MCP 2025-11-25.
        core: bool,
    },
    /// The machine is finished.
    End(End<V>),
}

/// How a machine ends.
#[derive(Clone, Debug)]
pub(crate) enum End<V> {
    /// The call resolves with this outcome.
    Outcome(Outcome<V>),
    /// The call rejects with this value (the abort's reason, or what a callback threw).
    Rejection(V),
}

/// The common face of every machine.
pub(crate) trait Machine<V> {
    /// Feeds one input at time `now`.
    fn handle(&mut self, now: Millis, event: Event<V>);
    /// The next output, if any.
    fn next_action(&mut self) -> Option<Action<V>>;
    /// When the machine next needs a `Tick` (`None`: only other inputs can move it).
    fn wake_at(&self) -> Option<Millis>;
}

/// The actions a machine decided that the driver has not taken yet, oldest first (usually a few; one per
/// input request when a status lists thousands: a ring buffer, so taking each is constant work).
pub(crate) type Queue<V> = std::collections::VecDeque<Action<V>>;

/// The next of a machine's queued actions; once they are all taken the queue's buffer is released (a
/// machine that waits keeps none: memory per wait).
pub(crate) fn next_queued<V>(out: &mut Queue<V>) -> Option<Action<V>> {
    let next = out.pop_front();
    if next.is_none() {
        *out = Queue::new();
    }
    next
}

/// `keys`, sorted (a heap sort: its code is a fraction of `sort_unstable`'s), to look keys up in.
#[inline(never)]
pub(crate) fn sorted<'a>(keys: impl Iterator<Item = &'a str>) -> Vec<&'a str> {
    std::collections::BinaryHeap::from_iter(keys).into_sorted_vec()
}

/// `a` plus `b` milliseconds, saturating.
pub(crate) fn later(a: Millis, b: u64) -> Millis {
    a.saturating_add(b)
}
