//! `awaitTask`: waits for one task to finish, by polling `tasks/get` or by listening on
//! `subscriptions/listen`, answering input requests on the way, bounded by a deadline.

use super::flights::{Flights, Overdue};
use super::inputs::{InputDesk, Stop};
use super::options::{WaitOptions, DETACHED_CANCEL_TIMEOUT_MS};
use super::{later, Action, Event, Failure, Finish, Machine, Millis, Outcome, StreamEvent};
use crate::json::{Json, Kind};
use crate::proto::request::Call;
use crate::proto::rpc::{read_rejection, read_rpc_error, Reply};
use crate::proto::task::{is_stale, read_task, same_status, Source, TaskState, TaskView};
use std::collections::VecDeque;

/// What the wait starts from.
#[derive(Clone, Debug)]
pub enum Seed<V> {
    /// A bare task id: the first `tasks/get` goes out at once.
    TaskId(String),
    /// A status object (from `callTool`, `getTask` or an earlier outcome).
    Status(V),
}

/// What a request was sent for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Purpose {
    Poll,
    Update,
}

/// The listen stream's state.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Stream {
    Off,
    /// Opened, waiting for the acknowledgement.
    Opening,
    /// Acknowledged for this task: notifications replace polling.
    Open,
}

/// The `awaitTask` machine.
#[derive(Debug)]
pub struct Wait<V> {
    task_id: String,
    opts: WaitOptions,
    flights: Flights<Purpose>,
    desk: InputDesk<V>,
    /// The latest status observed, and when.
    last: Option<(TaskView<V>, Millis)>,
    next_poll: Option<Millis>,
    stream: Stream,
    /// A `tasks/update` error held until the next status says whether the task is still going.
    update_error: Option<Failure<V>>,
    out: VecDeque<Action<V>>,
    done: bool,
}

impl<J: Json> Wait<J> {
    /// Starts waiting at `now`. `Err` when the seed is not a task id or a task status.
    pub fn new(seed: Seed<J>, opts: WaitOptions, now: Millis) -> Result<Self, String> {
        let (task_id, view) = match seed {
            Seed::TaskId(id) if !id.is_empty() => (id, None),
            Seed::TaskId(_) => return Err("the task id is empty".to_owned()),
            Seed::Status(v) => {
                let view = read_task(&v, Source::Pushed)?;
                (view.task_id.clone(), Some(view))
            }
        };
        let deadline = opts.bounds.timeout_ms.map(|t| later(now, t));
        let mut w = Self {
            task_id,
            opts,
            flights: Flights::new(deadline, opts.bounds.request_timeout_ms),
            desk: InputDesk::new(opts.input),
            last: None,
            next_poll: None,
            stream: Stream::Off,
            update_error: None,
            out: VecDeque::new(),
            done: false,
        };
        match view {
            None => w.begin(now, true),
            Some(view) => {
                let fetch_now = lacks_payload(&view);
                w.observe(view, now, SEED);
                if !w.done {
                    w.begin(now, fetch_now);
                }
            }
        }
        w.advance(now);
        Ok(w)
    }

    /// Starts observing: opens the listen stream, or polls now / on the normal schedule.
    fn begin(&mut self, now: Millis, fetch_now: bool) {
        if self.opts.listen {
            self.stream = Stream::Opening;
            self.next_poll = None;
            self.out.push_back(Action::OpenStream { call: Call::Listen { task_id: self.task_id.clone() } });
        } else if fetch_now {
            self.next_poll = Some(now);
        }
    }

    /// The interval to wait after `view`: the server's, else the option's, never under the floor.
    fn interval(&self, view: &TaskView<J>) -> u64 {
        let asked = view.poll_interval_ms.map_or(self.opts.poll_interval_ms, |p| {
            if p <= 0.0 {
                0
            } else if p >= u64::MAX as f64 {
                u64::MAX
            } else {
                p.ceil() as u64
            }
        });
        asked.max(self.opts.min_poll_interval_ms)
    }

    /// Takes in a status from `origin`: the seed, a poll reply (`"tasks/get"`) or a notification
    /// (`"notifications/tasks"`).
    fn observe(&mut self, view: TaskView<J>, now: Millis, origin: &'static str) {
        let from_seed = origin == SEED;
        let protocol = |message: String, status: J| Failure::protocol(origin, message, status);
        // Only a notification and a poll reply can overtake each other; polls alone are sequential.
        if let Some((last, _)) = &self.last {
            if self.stream == Stream::Open && is_stale(&view, last) {
                return;
            }
        }
        if self.last.as_ref().is_none_or(|(last, _)| !same_status(last, &view)) {
            self.out.push_back(Action::Status(view.object.clone()));
        }
        let status = view.object.clone();
        match view.state {
            TaskState::Completed => match &view.result {
                Some(r) if r.is_object() => self.finish(Finish::Resolve(Outcome::Result(r.clone()))),
                Some(_) => self.fail(protocol(
                    format!("task {} completed with a result that is not an object", self.task_id),
                    status,
                )),
                None if from_seed => {} // a seed without its payload: fetched at once
                None => self.fail(protocol(format!("task {} completed without a result", self.task_id), status)),
            },
            TaskState::Failed => match view.error.as_ref().map(read_rpc_error) {
                Some(Some(e)) => self.fail(Failure::task_failed(e, status)),
                Some(None) => self.fail(protocol(
                    format!("task {} failed with an error that is not a JSON-RPC error", self.task_id),
                    status,
                )),
                None if from_seed => {}
                None => self.fail(protocol(format!("task {} failed without an error", self.task_id), status)),
            },
            TaskState::Cancelled => self.finish(Finish::Resolve(Outcome::Cancelled(status))),
            TaskState::InputRequired | TaskState::Working => {
                if let Some(f) = self.update_error.take() {
                    return self.fail(f);
                }
                let requests = view.input_requests.clone().unwrap_or_default();
                match self.desk.offer(&requests, &status, &mut self.out) {
                    Err(Stop::Return) => return self.finish(Finish::Resolve(Outcome::InputRequired(status))),
                    Err(Stop::Fail(f)) => return self.fail(f),
                    Ok(()) => {}
                }
                self.send_ready(now);
            }
        }
        if !self.done && self.stream == Stream::Off && !self.flights.has(Purpose::Poll) {
            self.next_poll = Some(later(now, self.interval(&view)));
        }
        self.last = Some((view, now));
    }

    /// Sends one `tasks/update` per completed input round.
    fn send_ready(&mut self, now: Millis) {
        for responses in self.desk.take_ready() {
            if responses.is_empty() {
                continue;
            }
            let call = Call::UpdateTask { task_id: self.task_id.clone(), responses };
            self.flights.send(Purpose::Update, call, now, &mut self.out);
        }
    }

    fn poll_now(&mut self, now: Millis) {
        if !self.flights.has(Purpose::Poll) {
            self.next_poll = None;
            let call = Call::GetTask { task_id: self.task_id.clone() };
            self.flights.send(Purpose::Poll, call, now, &mut self.out);
        }
    }

    /// Deadline, request timeouts and due polls at `now`.
    fn advance(&mut self, now: Millis) {
        if self.done {
            return;
        }
        if let Some(o) = self.flights.overdue(now) {
            return self.time_out(o);
        }
        if self.next_poll.is_some_and(|t| now >= t) {
            self.poll_now(now);
        }
    }

    fn time_out(&mut self, o: Overdue<Purpose>) {
        let f = o.failure(("taskId", &self.task_id), self.opts.bounds.timeout_ms, self.last_status());
        self.fail(f);
    }

    fn last_status(&self) -> Option<J> {
        self.last.as_ref().map(|(v, _)| v.object.clone())
    }

    fn on_reply(&mut self, purpose: Purpose, reply: Reply<J>, now: Millis) {
        match (purpose, reply) {
            (Purpose::Poll, Reply::Result(v)) => match read_task(&v, Source::Get) {
                Err(m) => self.fail(Failure::protocol("tasks/get", m, v)),
                Ok(view) if view.task_id != self.task_id => {
                    let m = format!("tasks/get for task {} answered with task {}", self.task_id, view.task_id);
                    self.fail(Failure::protocol("tasks/get", m, v));
                }
                Ok(view) => self.observe(view, now, "tasks/get"),
            },
            (Purpose::Poll, Reply::RpcError(e)) => self.fail(Failure::rpc("tasks/get", e)),
            (Purpose::Update, Reply::Result(_)) => {}
            (Purpose::Update, Reply::RpcError(e)) => {
                // The task may have ended meanwhile (then the update was moot): read it before failing.
                self.update_error = Some(Failure::rpc("tasks/update", e));
                self.poll_now(now);
            }
            (p, Reply::Transport(e)) => {
                let method = if p == Purpose::Poll { "tasks/get" } else { "tasks/update" };
                self.fail(Failure::transport(method, e));
            }
        }
    }

    fn on_stream(&mut self, event: StreamEvent<J>, now: Millis) {
        if self.stream == Stream::Off {
            return; // a late event from a stream already given up
        }
        match event {
            StreamEvent::Unsupported => self.fail(Failure::listen_unsupported()),
            StreamEvent::End => self.fall_back(now),
            StreamEvent::Failed(v) => match (self.stream, read_rejection(v)) {
                (Stream::Opening, Reply::RpcError(e)) => self.fail(Failure::rpc("subscriptions/listen", e)),
                _ => self.fall_back(now),
            },
            StreamEvent::Message(m) => self.on_message(m, now),
        }
    }

    fn on_message(&mut self, m: J, now: Millis) {
        let method = m.get_str("method");
        if method.is_none() && m.get("id").is_some() {
            // The listen request's own response: an error refuses the subscription, a result ends it.
            match (self.stream, m.get("error").as_ref().and_then(read_rpc_error)) {
                (Stream::Opening, Some(e)) => self.fail(Failure::rpc("subscriptions/listen", e)),
                _ => self.fall_back(now),
            }
            return;
        }
        let params = m.get("params").unwrap_or_else(J::null);
        match (self.stream, method.as_deref()) {
            (Stream::Opening, Some("notifications/subscriptions/acknowledged")) => {
                let acked = params.get("notifications").and_then(|n| n.get("taskIds")).is_some_and(|ids| {
                    ids.items().iter().any(|i| i.as_str().as_deref() == Some(self.task_id.as_str()))
                });
                if acked {
                    // Changes made before the stream opened are not pushed: read the status once.
                    self.stream = Stream::Open;
                    self.poll_now(now);
                } else {
                    self.fall_back(now);
                }
            }
            (Stream::Open, Some("notifications/tasks")) => {
                if params.get_str("taskId").as_deref() != Some(self.task_id.as_str()) {
                    return; // another task's event
                }
                match read_task(&params, Source::Pushed) {
                    Ok(view) => self.observe(view, now, "notifications/tasks"),
                    Err(e) => self.fail(Failure::protocol("notifications/tasks", e, m)),
                }
            }
            _ => {} // events before the acknowledgement, other notifications: ignored
        }
    }

    /// The stream is gone before the task ended: poll for the rest of the wait.
    fn fall_back(&mut self, now: Millis) {
        self.close_stream();
        let due = match &self.last {
            Some((view, at)) if !lacks_payload(view) => later(*at, self.interval(view)).max(now),
            _ => now,
        };
        if !self.flights.has(Purpose::Poll) {
            self.next_poll = Some(due);
        }
    }

    fn close_stream(&mut self) {
        if self.stream != Stream::Off {
            self.stream = Stream::Off;
            self.out.push_back(Action::CloseStream);
        }
    }

    fn fail(&mut self, f: Failure<J>) {
        self.finish(Finish::Resolve(Outcome::Error(f)));
    }

    /// Ends the wait: everything in flight is stopped, then the outcome goes out.
    fn finish(&mut self, finish: Finish<J>) {
        if self.stop_everything() {
            self.out.push_back(Action::Finish(finish));
        }
    }

    /// Stops polling, requests, input handlers and the stream; `false` when already done.
    fn stop_everything(&mut self) -> bool {
        if self.done {
            return false;
        }
        self.done = true;
        self.next_poll = None;
        self.flights.abort_all(&mut self.out);
        self.desk.stop_all(&mut self.out);
        self.close_stream();
        true
    }
}

/// A seed status that names a payload it does not carry (`input_required` without `inputRequests`,
/// `completed` without `result`, `failed` without `error`): it is fetched at once.
fn lacks_payload<V>(view: &TaskView<V>) -> bool {
    match view.state {
        TaskState::InputRequired => view.input_requests.is_none(),
        TaskState::Completed => view.result.is_none(),
        TaskState::Failed => view.error.is_none(),
        TaskState::Working | TaskState::Cancelled => false,
    }
}

/// The origin of a status handed in by the caller (for `cause.method` of a protocol error).
const SEED: &str = "awaitTask";

impl<J: Json> Machine<J> for Wait<J> {
    fn handle(&mut self, now: Millis, event: Event<J>) {
        if self.done {
            return;
        }
        match event {
            Event::Tick => {}
            Event::Reply { req, reply } => {
                if let Some(f) = self.flights.land(req) {
                    match (&reply, self.flights.overdue_after(f, now)) {
                        (Reply::Transport(_), Some(o)) => self.time_out(o),
                        _ => self.on_reply(f.purpose, reply, now),
                    }
                }
            }
            Event::Answer { ask, value } => {
                let status = self.last_status().unwrap_or_else(J::null);
                match self.desk.answer(ask, &value, &status) {
                    Err(Stop::Fail(f)) => self.fail(f),
                    Err(Stop::Return) => self.finish(Finish::Resolve(Outcome::InputRequired(status))),
                    Ok(()) => self.send_ready(now),
                }
            }
            Event::Stream(e) => self.on_stream(e, now),
            Event::Abort { reason } => {
                self.stop_everything();
                if self.opts.cancel_on_abort {
                    let call = Call::CancelTask { task_id: self.task_id.clone() };
                    let timeout_ms = self.opts.bounds.request_timeout_ms.unwrap_or(DETACHED_CANCEL_TIMEOUT_MS);
                    self.out.push_back(Action::SendDetached { call, timeout_ms });
                }
                self.out.push_back(Action::Finish(Finish::Reject(reason)));
            }
            Event::Throw { error } => self.finish(Finish::Reject(error)),
        }
        self.advance(now);
    }

    fn next_action(&mut self) -> Option<Action<J>> {
        self.out.pop_front()
    }

    fn wake_at(&self) -> Option<Millis> {
        if self.done {
            return None;
        }
        [self.flights.deadline, self.next_poll, self.flights.earliest_expiry()].into_iter().flatten().min()
    }
}

/// Reads the seed a caller hands to `awaitTask`: a task id string or a status object.
pub fn read_seed<J: Json>(value: J) -> Result<Seed<J>, String> {
    match value.kind() {
        Kind::String => Ok(Seed::TaskId(value.as_str().unwrap_or_default())),
        Kind::Object => Ok(Seed::Status(value)),
        _ => Err("expected a task id string or a task status object".to_owned()),
    }
}
