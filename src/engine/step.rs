//! `getTask`, `updateTask`, `cancelTask`: one request, one outcome.

use super::flights::Flights;
use super::options::Bounds;
use super::{later, Action, Event, Failure, Finish, Machine, Millis, Outcome};
use crate::json::Json;
use crate::proto::request::Call;
use crate::proto::rpc::Reply;
use crate::proto::task::{read_task, Source};
use std::collections::VecDeque;

/// The single-request machine.
#[derive(Debug)]
pub struct Step<V> {
    task_id: String,
    timeout_ms: Option<u64>,
    flights: Flights<()>,
    out: VecDeque<Action<V>>,
    done: bool,
}

impl<J: Json> Step<J> {
    /// Sends `call` (a `tasks/get`, `tasks/update` or `tasks/cancel` for `task_id`) at `now`.
    pub fn new(call: Call<J>, task_id: String, bounds: Bounds, now: Millis) -> Self {
        let deadline = bounds.timeout_ms.map(|t| later(now, t));
        let mut s = Self {
            task_id,
            timeout_ms: bounds.timeout_ms,
            flights: Flights::new(deadline, bounds.request_timeout_ms),
            out: VecDeque::new(),
            done: false,
        };
        s.flights.send((), call, now, &mut s.out);
        s
    }

    fn outcome(&self, method: &'static str, reply: Reply<J>) -> Outcome<J> {
        match reply {
            Reply::Result(v) if method == "tasks/get" => match read_task(&v, Source::Get) {
                Ok(view) if view.task_id == self.task_id => Outcome::Status(view.object),
                Ok(view) => {
                    let m = format!("tasks/get for task {} answered with task {}", self.task_id, view.task_id);
                    Outcome::Error(Failure::protocol(method, m, v))
                }
                Err(m) => Outcome::Error(Failure::protocol(method, m, v)),
            },
            Reply::Result(v) if v.is_object() => Outcome::Ack,
            Reply::Result(v) => Outcome::Error(Failure::protocol(
                method,
                format!("{method} answered with a result that is not an object"),
                v,
            )),
            Reply::RpcError(e) => Outcome::Error(Failure::rpc(method, e)),
            Reply::Transport(e) => Outcome::Error(Failure::transport(method, e)),
        }
    }

    fn finish(&mut self, finish: Finish<J>) {
        if !self.done {
            self.done = true;
            self.flights.abort_all(&mut self.out);
            self.out.push_back(Action::Finish(finish));
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
                    let outcome = match (&reply, self.flights.overdue_after(f, now)) {
                        (Reply::Transport(_), Some(o)) => {
                            Outcome::Error(o.failure(("taskId", &self.task_id), self.timeout_ms, None))
                        }
                        _ => self.outcome(f.method, reply),
                    };
                    self.finish(Finish::Resolve(outcome));
                }
            }
            Event::Abort { reason } => self.finish(Finish::Reject(reason)),
            Event::Throw { error } => self.finish(Finish::Reject(error)),
            Event::Tick | Event::Answer { .. } | Event::Stream(_) => {}
        }
        if self.done {
            return;
        }
        if let Some(o) = self.flights.overdue(now) {
            let f = o.failure(("taskId", &self.task_id), self.timeout_ms, None);
            self.finish(Finish::Resolve(Outcome::Error(f)));
        }
    }

    fn next_action(&mut self) -> Option<Action<J>> {
        self.out.pop_front()
    }

    fn wake_at(&self) -> Option<Millis> {
        if self.done {
            return None;
        }
        [self.flights.deadline, self.flights.earliest_expiry()].into_iter().flatten().min()
    }
}
