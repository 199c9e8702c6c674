//! `callAndAwait`: `callTool`, then `awaitTask` on the task it created, as one machine. Every option
//! of both parts is read before anything is sent; an immediate result, error or `input_required` of
//! the call is the outcome as is.

use super::call::{CallOptions, CallTool};
use super::options::{WaitOptions, DETACHED_CANCEL_TIMEOUT_MS};
use super::wait::{Seed, Wait};
use super::{AbortScope, Action, Event, Failure, Finish, Machine, Millis, Outcome};
use crate::json::Json;
use crate::proto::request::Call;
use std::collections::VecDeque;

enum Phase<V> {
    Call(Box<CallTool<V>>),
    Wait(Box<Wait<V>>),
}

/// The `callAndAwait` machine.
pub struct CallAndAwait<V> {
    phase: Phase<V>,
    wait_opts: WaitOptions,
    /// The time of the latest input (the wait starts then).
    now: Millis,
    /// An abort of the wait's own signal that came during the call: it ends the wait as it starts.
    wait_aborted: Option<V>,
    /// The actions ending the call instead of its wait (after such an abort).
    ending: VecDeque<Action<V>>,
}

impl<J: Json> CallAndAwait<J> {
    /// Sends `tools/call` for `name` at `now`; a created task is awaited with `wait_opts`.
    pub fn new(
        name: String,
        arguments: Option<J>,
        call_opts: CallOptions<J>,
        wait_opts: WaitOptions,
        now: Millis,
    ) -> Self {
        Self {
            phase: Phase::Call(Box::new(CallTool::new(name, arguments, call_opts, now))),
            wait_opts,
            now,
            wait_aborted: None,
            ending: VecDeque::new(),
        }
    }

    fn machine(&mut self) -> &mut dyn Machine<J> {
        match &mut self.phase {
            Phase::Call(c) => c.as_mut(),
            Phase::Wait(w) => w.as_mut(),
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
            (Phase::Wait(_), Event::Abort { scope: AbortScope::Call, .. }) => return,
            _ => {}
        }
        self.machine().handle(now, event);
    }

    fn next_action(&mut self) -> Option<Action<J>> {
        if let Some(a) = self.ending.pop_front() {
            return Some(a);
        }
        let action = self.machine().next_action()?;
        let Action::Finish(Finish::Resolve(Outcome::Task(status))) = action else { return Some(action) };
        if let Some(reason) = self.wait_aborted.take() {
            // The wait's own signal fired during the call: the wait ends as it starts — nothing of it
            // runs (no onStatus, no handler, no request but the best-effort cancel).
            if self.wait_opts.cancel_on_abort {
                let task_id = status.get_str("taskId").unwrap_or_default();
                let timeout_ms = self.wait_opts.bounds.request_timeout_ms.unwrap_or(DETACHED_CANCEL_TIMEOUT_MS);
                self.ending.push_back(Action::SendDetached { call: Call::CancelTask { task_id }, timeout_ms });
            }
            self.ending.push_back(Action::Finish(Finish::Reject(reason)));
            return self.ending.pop_front();
        }
        match Wait::new(Seed::Status(status.clone()), self.wait_opts, self.now) {
            Ok(w) => {
                self.phase = Phase::Wait(Box::new(w));
                Some(Action::NextPart)
            }
            Err(m) => Some(Action::Finish(Finish::Resolve(Outcome::Error(Failure::protocol("tools/call", m, status))))),
        }
    }

    fn wake_at(&self) -> Option<Millis> {
        if !self.ending.is_empty() {
            return None;
        }
        match &self.phase {
            Phase::Call(c) => c.wake_at(),
            Phase::Wait(w) => w.wake_at(),
        }
    }
}
