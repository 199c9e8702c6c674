//! The client's session first: a call on a client that finds its server's generation (MCP 2026-07-28
//! or 2025-11-25) waits for it before its machine is made — within the call's deadline, ended by the
//! caller's abort — and then runs the machine made for that generation ([`Opening`]).

use super::{later, next_queued, Action, End, Event, Machine, Millis, Outcome, Queue, TaskError};
use crate::json::Json;
use crate::proto::core_tasks::Generation;
use crate::proto::rpc::{read_rejection, RequestEnd};

/// Makes the call's machine for the generation found: `(generation, since, now)`, `since` being when
/// the call started (its deadline counts from there).
pub(crate) type Build<J> = Box<dyn FnOnce(Generation, Millis, Millis) -> Box<dyn Machine<J>>>;

/// A call waiting for its client's session, then its machine.
pub(crate) struct Opening<J> {
    build: Option<Build<J>>,
    machine: Option<Box<dyn Machine<J>>>,
    since: Millis,
    /// The call's deadline (`None`: none) and its `timeoutMs`, for the timeout outcome.
    deadline: Option<(Millis, u64)>,
    /// What the call waits for, as its timeout names it (`("name", tool)` or `("taskId", id)`).
    subject: (&'static str, String),
    /// A cancel asked for before the machine was made (handed to it once made).
    cancel: bool,
    /// The call is a wait on the subject's task: its error carries the task ([`Self::waiting`]).
    wait: bool,
    out: Queue<J>,
}

impl<J: Json> Opening<J> {
    /// Waits, from `now`, for the session (`Event::Session`), then makes the machine with `build`.
    pub(crate) fn new(build: Build<J>, timeout_ms: Option<u64>, subject: (&'static str, String), now: Millis) -> Self {
        let deadline = timeout_ms.map(|t| (later(now, t), t));
        Self {
            build: Some(build),
            machine: None,
            since: now,
            deadline,
            subject,
            cancel: false,
            wait: false,
            out: Queue::new(),
        }
    }

    /// The call waits on the task its subject names (`awaitTask`): an error before its machine is made
    /// carries that task's id, as a wait's errors do.
    pub(crate) fn waiting(mut self) -> Self {
        self.wait = true;
        self
    }

    /// Ends the call before its machine was made; a wait's error carries its task's id.
    fn end(&mut self, end: End<J>) {
        let end = match end {
            End::Outcome(Outcome::Error(f)) if self.wait => {
                End::Outcome(Outcome::Error(f.about(&self.subject.1, None)))
            }
            end => end,
        };
        if self.build.take().is_some() {
            self.out.push_back(Action::End(end));
        }
    }
}

impl<J: Json> Machine<J> for Opening<J> {
    fn handle(&mut self, now: Millis, event: Event<J>) {
        if let Some(m) = self.machine.as_mut() {
            return m.handle(now, event);
        }
        match event {
            Event::Session(Ok(found)) => {
                let Some(build) = self.build.take() else { return };
                let generation =
                    Generation::of(found.get_str("generation").as_deref(), found.get("capabilities").as_ref());
                self.out.push_back(Action::Speak { core: generation.is_core() });
                let mut m = build(generation, self.since, now);
                if self.cancel {
                    m.handle(now, Event::Cancel);
                }
                self.machine = Some(m);
                return;
            }
            Event::Session(Err(e)) => {
                let f = match read_rejection(e) {
                    RequestEnd::RpcError(e) => TaskError::rpc("session", e),
                    RequestEnd::Transport(e) | RequestEnd::Result(e) => TaskError::transport("session", e),
                };
                self.end(End::Outcome(Outcome::Error(f)));
            }
            Event::Abort { reason, .. } => self.end(End::Rejection(reason)),
            Event::Throw { error } => self.end(End::Rejection(error)),
            Event::Cancel => self.cancel = true,
            _ => {}
        }
        if let Some((_, timeout_ms)) = self.deadline.filter(|&(at, _)| now >= at) {
            let f = TaskError::timeout((self.subject.0, &self.subject.1), timeout_ms, None);
            self.end(End::Outcome(Outcome::Error(f)));
        }
    }

    fn next_action(&mut self) -> Option<Action<J>> {
        next_queued(&mut self.out).or_else(|| self.machine.as_mut()?.next_action())
    }

    fn wake_at(&self) -> Option<Millis> {
        match &self.machine {
            Some(m) => m.wake_at(),
            None if self.build.is_some() => self.deadline.map(|(at, _)| at),
            None => None,
        }
    }
}

/// A machine that has ended before it began, with its outcome.
pub(crate) struct Ended<J>(Option<Action<J>>);

impl<J> Ended<J> {
    /// Ends with the error `f` (its first action).
    pub(crate) fn error(f: TaskError<J>) -> Self {
        Self(Some(Action::End(End::Outcome(Outcome::Error(f)))))
    }
}

impl<J> Machine<J> for Ended<J> {
    fn handle(&mut self, _: Millis, _: Event<J>) {}

    fn next_action(&mut self) -> Option<Action<J>> {
        self.0.take()
    }

    fn wake_at(&self) -> Option<Millis> {
        None
    }
}
