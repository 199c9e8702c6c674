//! `getTask`, `updateTask`, `cancelTask`, `listTasks`: one request, one outcome. A `tasks/get`,
//! `tasks/cancel` or `tasks/list` that fails without a JSON-RPC answer is re-issued after a backoff (at
//! most `retries` times, within the deadline); a `tasks/update` never is. On an MCP 2025-11-25 server
//! statuses are read in that generation's shape, and `updateTask` answers each key's request with its
//! own JSON-RPC response (all must be taken for `ok`).

use super::flights::{Flight, Flights, Lost};
use super::retry::Backoff;
use super::settings::{Retry, TimeLimits, RETRY_MIN_LEFT_MS};
use super::{later, next_queued, Action, End, Event, Machine, Millis, Outcome, Queue, TaskError};
use crate::json::Json;
use crate::proto::core_tasks::{id_of_key, read_core_task, read_task_list, Generation};
use crate::proto::request::Call;
use crate::proto::rpc::RequestEnd;
use crate::proto::task::{read_task, Source};

/// The single-request machine.
#[derive(Debug)]
pub(crate) struct Step<V> {
    task_id: String,
    call: Call<V>,
    /// MCP 2025-11-25.
    core: bool,
    /// The requests still to be answered (more than one only for a 2025-11-25 `updateTask`).
    left: usize,
    timeout_ms: Option<u64>,
    flights: Flights,
    retry: Retry,
    backoff: Backoff,
    failures: u32,
    /// When the request is re-issued after a failure.
    again_at: Option<Millis>,
    out: Queue<V>,
    done: bool,
}

impl<J: Json> Step<J> {
    /// Sends `call` (a `tasks/get`, `tasks/update` or `tasks/cancel` for `task_id`) at `now`.
    #[cfg(any(all(test, not(target_arch = "wasm32")), feature = "fuzzing"))]
    pub(crate) fn new(call: Call<J>, task_id: String, limits: TimeLimits, retry: Retry, now: Millis) -> Self {
        Self::start(call, task_id, limits, retry, Generation::Tasks, now, now)
    }

    /// Sends `call` (a `tasks/get`, `tasks/update`, `tasks/cancel` for `task_id`, or a `tasks/list`) to
    /// a server of `generation` at `now`, bounded by `timeoutMs` counted from `since`.
    pub(crate) fn start(
        call: Call<J>,
        task_id: String,
        limits: TimeLimits,
        retry: Retry,
        generation: Generation,
        since: Millis,
        now: Millis,
    ) -> Self {
        let deadline = limits.deadline_ms.map(|t| later(since, t));
        let core = generation.is_core();
        let mut s = Self {
            task_id,
            call,
            core,
            left: 1,
            timeout_ms: limits.deadline_ms,
            flights: Flights::new(deadline, limits.request_timeout_ms),
            retry,
            backoff: Backoff::new(retry.seed),
            failures: 0,
            again_at: None,
            out: Queue::new(),
            done: false,
        };
        if limits.deadline_ms == Some(0) || s.flights.past_deadline(now) {
            // No time at all: the timeout, and nothing sent (as awaitTask).
            let f = TaskError::timeout(s.subject(), limits.deadline_ms.unwrap_or_default(), None);
            s.finish(End::Outcome(Outcome::Error(f)));
        } else if let (true, Call::UpdateTaskRaw { responses, .. }) = (core, &s.call) {
            // The answers to a 2025-11-25 server's requests: one response each, sent at once.
            let entries = responses.entries().unwrap_or_default();
            s.left = entries.len();
            for (key, answer) in entries {
                s.flights.send(0, Call::Respond { id: id_of_key(&key), answer: Ok(answer) }, now, &mut s.out);
            }
            if s.left == 0 {
                s.finish(End::Outcome(Outcome::Ack));
            }
        } else {
            s.send(now);
        }
        s
    }

    /// What the step is about, as its timeout names it.
    fn subject(&self) -> (&str, &str) {
        if matches!(self.call, Call::ListTasks { .. }) {
            ("method", "tasks/list")
        } else {
            ("taskId", &self.task_id)
        }
    }

    fn send(&mut self, now: Millis) {
        self.again_at = None;
        self.flights.send(0, self.call.clone(), now, &mut self.out);
    }

    fn outcome(&self, method: &'static str, reply: RequestEnd<J>) -> Outcome<J> {
        let read = |v: &J| if self.core { read_core_task(v) } else { read_task(v, Source::Get) };
        match reply {
            RequestEnd::Result(v) if method == "tasks/list" => match read_task_list(&v) {
                Ok((tasks, next_cursor)) => Outcome::Tasks { tasks, next_cursor },
                Err(m) => Outcome::Error(TaskError::protocol(method, m, v)),
            },
            RequestEnd::Result(_) if method == "response" => Outcome::Ack,
            RequestEnd::Result(v) if method == "tasks/get" => match read(&v) {
                Ok(view) if view.task_id == self.task_id => Outcome::Status(view.object),
                Ok(view) => {
                    let m =
                        ["tasks/get for task ", self.task_id.as_str(), " answered with task ", view.task_id.as_str()]
                            .concat();
                    Outcome::Error(TaskError::protocol(method, m, v))
                }
                Err(m) => Outcome::Error(TaskError::protocol(method, m, v)),
            },
            RequestEnd::Result(v) if v.is_object() => Outcome::Ack,
            RequestEnd::Result(v) => Outcome::Error(TaskError::protocol(
                method,
                [method, " answered with a result that is not an object"].concat(),
                v,
            )),
            RequestEnd::RpcError(e) => Outcome::Error(TaskError::rpc(method, e)),
            RequestEnd::Transport(e) => Outcome::Error(TaskError::transport(method, e)),
        }
    }

    /// The request was lost: re-issue it when it is idempotent, transient and retries remain, else end.
    fn on_lost(&mut self, f: &Flight, lost: Lost<J>, now: Millis) {
        self.failures += 1;
        let idempotent = !matches!(self.call, Call::UpdateTaskRaw { .. } | Call::UpdateTask { .. }) && self.left == 1;
        if idempotent && lost.transient() && self.failures <= self.retry.retries {
            let at = later(now, self.backoff.delay(self.failures, lost.retry_after()));
            if self.flights.deadline.is_none_or(|d| later(at, RETRY_MIN_LEFT_MS) <= d) {
                self.again_at = Some(at);
                return;
            }
        }
        let failure = lost.failure(f, self.subject(), None);
        self.finish(End::Outcome(Outcome::Error(failure)));
    }

    fn finish(&mut self, finish: End<J>) {
        if !self.done {
            self.done = true;
            self.again_at = None;
            self.flights.abort_all(&mut self.out);
            self.out.push_back(Action::End(finish));
        }
    }
}

impl<J: Json> Machine<J> for Step<J> {
    fn handle(&mut self, now: Millis, event: Event<J>) {
        if self.done {
            return;
        }
        match event {
            Event::Reply { req, reply } => {
                if let Some(f) = self.flights.land(req) {
                    match reply {
                        RequestEnd::Transport(_) if self.flights.past_deadline(now) => {}
                        RequestEnd::Transport(e) => {
                            let lost = Flights::loss(&f, e, now);
                            self.on_lost(&f, lost, now);
                        }
                        reply => {
                            let outcome = self.outcome(f.method, reply);
                            self.left = self.left.saturating_sub(1);
                            if self.left == 0 || !matches!(outcome, Outcome::Ack) {
                                self.finish(End::Outcome(outcome));
                            }
                        }
                    }
                }
            }
            Event::Cancel => {} // only a wait cancels its task
            Event::Abort { reason, .. } => self.finish(End::Rejection(reason)),
            Event::Throw { error } => self.finish(End::Rejection(error)),
            // A step hears no server requests (none of its requests carries them).
            Event::Tick | Event::Answer { .. } | Event::Stream(_) | Event::Session(_) | Event::ServerRequest { .. } => {
            }
        }
        if self.done {
            return;
        }
        if self.flights.past_deadline(now) {
            let f = TaskError::timeout(self.subject(), self.timeout_ms.unwrap_or_default(), None);
            return self.finish(End::Outcome(Outcome::Error(f)));
        }
        if let Some(f) = self.flights.take_expired(now, &mut self.out) {
            self.on_lost(&f, Lost::Timeout, now);
        }
        if self.again_at.is_some_and(|t| now >= t) {
            self.send(now);
        }
    }

    fn next_action(&mut self) -> Option<Action<J>> {
        next_queued(&mut self.out)
    }

    fn wake_at(&self) -> Option<Millis> {
        if self.done {
            return None;
        }
        [self.flights.deadline, self.flights.earliest_expiry(), self.again_at].into_iter().flatten().min()
    }
}
