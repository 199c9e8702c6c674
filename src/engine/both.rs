//! `callAndAwait`: `callTool`, then `awaitTask` on the task it created, as one machine. Every option
//! of both parts is read before anything is sent; an immediate result, error or `input_required` of
//! the call is the outcome as is. The call's `timeoutMs` bounds the wait too when the wait's options set
//! none (`whole`); a cancel asked for during the call is asked of the task as soon as the wait starts.

use super::call::{CallSettings, CallTool};
use super::settings::{WaitSettings, DEFAULT_TASK_TTL_MS, DETACHED_CANCEL_TIMEOUT_MS, TASK_TTL_MARGIN_MS};
use super::wait::{TaskRef, Wait};
use super::{next_queued, AbortScope, Action, End, Event, Machine, Millis, Outcome, Queue, TaskError};
use crate::json::Json;
use crate::proto::request::Call;

/// The call, with the options of the wait it may start (dropped with it once the wait runs).
struct CallPart<V> {
    call: CallTool<V>,
    wait_opts: WaitSettings,
    /// The call's bound that also bounds the wait, counted from the call's start (`Some(None)`: none),
    /// when the wait's options set no bound of their own.
    whole: Option<(Millis, Option<u64>)>,
}

/// The part running. Not boxed: the machine is one allocation of one size for its whole life, so the
/// call's memory is the wait's when it starts (with boxed parts, the freed call blocks of 10 000
/// concurrent waits sat unused beside the new wait blocks: wasm memory per wait +60 %, measured).
#[allow(clippy::large_enum_variant)]
enum Phase<V> {
    Call(CallPart<V>),
    Wait(Wait<V>),
}

/// The `callAndAwait` machine.
pub(crate) struct CallAndAwait<V> {
    phase: Phase<V>,
    /// The time of the latest input (the wait starts then).
    now: Millis,
    /// An abort of the wait's own signal that came during the call: it ends the wait as it starts.
    wait_aborted: Option<V>,
    /// The actions ending the call instead of its wait (after such an abort).
    ending: Queue<V>,
    /// A cancel asked for during the call (`Event::Cancel`): handed to the wait as it starts.
    cancel_asked: bool,
}

impl<J: Json> CallAndAwait<J> {
    /// Sends `tools/call` for `name` at `now`; a created task is awaited with `wait_opts`, bounded by
    /// the call's own `timeout_ms` (counted from the call's start) instead of `wait_opts`' when
    /// `whole`. On an MCP 2025-11-25 server the task is asked to live at least the wait's deadline plus
    /// [`TASK_TTL_MARGIN_MS`].
    #[cfg(any(all(test, not(target_arch = "wasm32")), feature = "fuzzing"))]
    pub(crate) fn new(
        name: String,
        arguments: Option<J>,
        call_opts: CallSettings<J>,
        wait_opts: WaitSettings,
        whole: bool,
        now: Millis,
    ) -> Self {
        Self::start(name, arguments, call_opts, wait_opts, whole, now, now)
    }

    /// [`CallAndAwait::new`] on a client whose session opened at `now`, the call having started at `since`.
    pub(crate) fn start(
        name: String,
        arguments: Option<J>,
        mut call_opts: CallSettings<J>,
        wait_opts: WaitSettings,
        whole: bool,
        since: Millis,
        now: Millis,
    ) -> Self {
        let bound = if whole { call_opts.limits.deadline_ms } else { wait_opts.limits.deadline_ms };
        let asked = call_opts.task_ttl_ms.unwrap_or(DEFAULT_TASK_TTL_MS);
        call_opts.task_ttl_ms = Some(bound.map_or(asked, |d| asked.max(d.saturating_add(TASK_TTL_MARGIN_MS))));
        let whole = whole.then_some((since, call_opts.limits.deadline_ms));
        let call = CallTool::start(name, arguments, call_opts, since, now);
        Self {
            phase: Phase::Call(CallPart { call, wait_opts, whole }),
            now,
            wait_aborted: None,
            ending: Queue::new(),
            cancel_asked: false,
        }
    }

    fn machine(&mut self) -> &mut dyn Machine<J> {
        match &mut self.phase {
            Phase::Call(c) => &mut c.call,
            Phase::Wait(w) => w,
        }
    }
}

impl<J: Json> Machine<J> for CallAndAwait<J> {
    fn handle(&mut self, now: Millis, event: Event<J>) {
        self.now = now;
        match (&self.phase, &event) {
            (Phase::Call(_), Event::Abort { scope: AbortScope::Wait, reason }) => {
                self.wait_aborted = Some(reason.clone());
                return;
            }
            (Phase::Call(_), Event::Cancel) => {
                self.cancel_asked = true;
                return;
            }
            (Phase::Wait(_), Event::Abort { scope: AbortScope::Call, .. }) => return,
            _ => {}
        }
        self.machine().handle(now, event);
    }

    fn next_action(&mut self) -> Option<Action<J>> {
        if let Some(a) = next_queued(&mut self.ending) {
            return Some(a);
        }
        let action = self.machine().next_action()?;
        let Action::End(End::Outcome(Outcome::Task(status))) = action else { return Some(action) };
        let Phase::Call(part) = &self.phase else {
            return Some(Action::End(End::Outcome(Outcome::Task(status))));
        };
        let (mut wait_opts, mut since) = (part.wait_opts, self.now);
        if let Some((started, timeout_ms)) = part.whole {
            (wait_opts.limits.deadline_ms, since) = (timeout_ms, started);
        }
        if let Some(reason) = self.wait_aborted.take() {
            // The wait's own signal fired during the call: the wait ends as it starts — nothing of it
            // runs (no onStatus, no handler, no request but the best-effort cancel).
            if wait_opts.cancel_on_abort {
                let task_id = status.get_str("taskId").unwrap_or_default();
                let timeout_ms = wait_opts.limits.request_timeout_ms.unwrap_or(DETACHED_CANCEL_TIMEOUT_MS);
                self.ending.push_back(Action::SendDetached { call: Call::CancelTask { task_id }, timeout_ms });
            }
            self.ending.push_back(Action::End(End::Rejection(reason)));
            return next_queued(&mut self.ending);
        }
        match Wait::start(TaskRef::Status(status.clone()), wait_opts, &[], self.now, since, self.cancel_asked) {
            Ok(w) => {
                self.phase = Phase::Wait(w);
                Some(Action::NextPart)
            }
            Err(m) => Some(Action::End(End::Outcome(Outcome::Error(TaskError::protocol("tools/call", m, status))))),
        }
    }

    fn wake_at(&self) -> Option<Millis> {
        if !self.ending.is_empty() {
            return None;
        }
        match &self.phase {
            Phase::Call(c) => c.call.wake_at(),
            Phase::Wait(w) => w.wake_at(),
        }
    }
}
