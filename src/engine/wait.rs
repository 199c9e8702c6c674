//! `awaitTask`: waits for one task to finish, by polling `tasks/get` or by listening on
//! `subscriptions/listen`, answering input requests on the way, bounded by a deadline.
//!
//! Scheduling rules kept here, so simulated time can test them exactly:
//! - every `tasks/get` goes out no sooner than `minPollIntervalMs` after the previous one settled;
//!   between polls the latest status's `pollIntervalMs` (else the option), clamped to
//!   `[minPollIntervalMs, maxPollIntervalMs]`;
//! - a `tasks/get` or listen open that fails without a JSON-RPC answer (and is transient, see
//!   [`crate::proto::rpc::is_transient`]) is re-issued after a backoff, at most `retries` times in a row;
//!   a listen that cannot be (re)opened falls back to polling;
//! - a failed `tasks/update` is never re-asked of the user: the task is read and the stored answers of
//!   keys still outstanding are sent once more;
//! - past `createdAt + ttlMs` without a terminal status, one more read decides (`-32602` = expired);
//! - an open listen stream silent for `listenCheckMs` gets one safety read.
//!
//! On an MCP 2025-11-25 server (core tasks) a task that ended gives its result through one
//! `tasks/result`; `listen` hears the session's `notifications/tasks/status` (the whole task, for every
//! task of the session): that generation has no subscription, so the stream counts as open at once (the
//! read that follows an acknowledgement is made then), and a stream that fails, ends or cannot be had
//! gives way to polling at once; while the
//! task needs input a `tasks/result` is held open for the rest of the wait, and the server's requests
//! on it (`Event::ServerRequest`) go to the input desk one by one, each answered with its own JSON-RPC
//! response (a key is the request's id, see [`crate::proto::core_tasks::request_key`]).

use super::flights::{Flights, Lost};
use super::inputs::{hear, refusal, InputDesk, Stop};
use super::outcome::{CODE_INVALID_PARAMS, CODE_NOT_FOUND};
use super::retry::Backoff;
use super::seen::Seen;
use super::settings::{InputMode, ReadChunk, WaitSettings, DETACHED_CANCEL_TIMEOUT_MS, RETRY_MIN_LEFT_MS};
use super::{
    later, next_queued, AbortScope, Action, End, Event, Machine, Millis, Outcome, Queue, StreamEvent, TaskError,
};
use crate::json::{Json, Kind};
use crate::proto::core_tasks::{id_of_key, read_core_task, related_task};
use crate::proto::request::Call;
use crate::proto::rpc::{read_rejection, read_rpc_error, RequestEnd, RpcError};
use crate::proto::task::{age_ms, read_task, Source, TaskState, TaskView};

/// What the wait starts from.
#[derive(Clone, Debug)]
pub(crate) enum TaskRef<V> {
    /// A bare task id: the first `tasks/get` goes out at once.
    TaskId(String),
    /// A status object (from `callTool`, `getTask` or an earlier outcome).
    Status(V),
}

/// What a request was sent for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Purpose {
    Poll,
    /// The `tasks/cancel` the application asked for (`cancelSignal`).
    Cancel,
    /// MCP 2025-11-25: the `tasks/result`.
    Result,
    /// A `tasks/update` (MCP 2025-11-25: the response to one of the server's requests); the index into
    /// `unacked` (numbered from 1).
    Update(u32),
}

impl Purpose {
    /// As the flights keep it: 0 a poll, 1 the cancel, 2 the result, `id + 2` an update.
    fn tag(self) -> u32 {
        match self {
            Self::Poll => 0,
            Self::Cancel => 1,
            Self::Result => 2,
            Self::Update(id) => id.wrapping_add(2),
        }
    }

    /// From the flights' number.
    fn of(tag: u32) -> Self {
        match tag {
            0 => Self::Poll,
            1 => Self::Cancel,
            2 => Self::Result,
            t => Self::Update(t - 2),
        }
    }
}

/// The application asked for the task to be cancelled (`cancelSignal`): its `tasks/cancel` went out.
#[derive(Clone, Copy, Debug)]
struct Cancelling {
    /// The cancel's transient failures in a row (re-issued like a read, within `retries`).
    failures: u32,
    /// When a lost cancel goes out again.
    again_at: Option<Millis>,
}

/// The listen stream's state.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Stream {
    /// No stream (polling, or not yet opened).
    Off,
    /// Opened, waiting for the acknowledgement until `expires` (the request's own bound).
    Opening { expires: Option<Millis> },
    /// Acknowledged for this task: notifications replace polling; `heard` is when the task was last
    /// heard of (a notification or a read), for the safety read.
    Open { heard: Millis },
    /// Closed after a failure; reopened at `at`.
    Reopen { at: Millis },
}

/// The TTL backstop: when the task's `createdAt + ttlMs` passes on the local clock.
#[derive(Clone, Debug)]
struct Ttl {
    /// A hash of the `createdAt` the pair came with (a new pair re-arms the backstop).
    created_at: u64,
    ttl_ms: f64,
    expires: Millis,
    checked: bool,
}

/// Answers sent in a `tasks/update` not yet acknowledged.
#[derive(Clone, Debug)]
struct Unacked<V> {
    id: u32,
    answers: Vec<(String, V)>,
    /// A re-send after a failed first attempt: a second failure ends the wait.
    resent: bool,
}

/// The `awaitTask` machine.
#[derive(Debug)]
pub(crate) struct Wait<V> {
    task_id: String,
    opts: WaitSettings,
    flights: Flights,
    /// The input desk, once there is input to answer (boxed: most waits have none; a wait is kept small).
    desk: Option<Box<InputDesk<V>>>,
    /// The latest status observed.
    last: Option<Seen<V>>,
    next_poll: Option<Millis>,
    /// When the latest `tasks/get` settled (the floor counts from there).
    poll_settled: Option<Millis>,
    /// Still waiting by listening (false once fallen back to polling).
    listening: bool,
    stream: Stream,
    poll_failures: u32,
    listen_failures: u32,
    backoff: Backoff,
    ttl: Option<Ttl>,
    unacked: Vec<Unacked<V>>,
    next_update: u32,
    /// Answers of failed updates, to send again once the next status shows their keys outstanding.
    resend: Vec<(String, V)>,
    /// A `tasks/update` error held until the next status says whether the task is still going
    /// (boxed: rare, and a wait is kept small).
    update_error: Option<Box<TaskError<V>>>,
    /// Set once the application asked for the task to be cancelled.
    cancelling: Option<Cancelling>,
    /// MCP 2025-11-25.
    core: bool,
    /// MCP 2025-11-25: what `tasks/result` answered before the task was seen to end (boxed: rare).
    stored: Option<Box<RequestEnd<V>>>,
    out: Queue<V>,
    done: bool,
}

impl<J: Json> Wait<J> {
    /// Starts waiting at `now`. `Err` when the task reference is not a task id or a task status (the
    /// tests' and the fuzz world's start; the shell resumes with what was answered before).
    #[cfg(any(all(test, not(target_arch = "wasm32")), feature = "fuzzing"))]
    pub(crate) fn new(task: TaskRef<J>, opts: WaitSettings, now: Millis) -> Result<Self, String> {
        Self::resume(task, opts, &[], now)
    }

    /// Starts waiting at `now` with keys already answered before (e.g. before a restart): `answered`
    /// keys are never asked; those with `Some` answer not yet acknowledged are sent once, without asking,
    /// when a status shows them outstanding.
    pub(crate) fn resume(
        task: TaskRef<J>,
        opts: WaitSettings,
        answered: &[(String, Option<J>)],
        now: Millis,
    ) -> Result<Self, String> {
        Self::start(task, opts, answered, now, now, false)
    }

    /// [`Wait::resume`] whose `timeout_ms` counts from `since` (`callAndAwait`'s wait bounded by its
    /// call's `timeoutMs`, which counts from the call's start), not from `now`; `cancel`: the
    /// application asked for the task to be cancelled before the wait started (during the call), so the
    /// wait starts with its `tasks/cancel` and never asks for input, not even the task reference's.
    pub(crate) fn start(
        task: TaskRef<J>,
        opts: WaitSettings,
        answered: &[(String, Option<J>)],
        now: Millis,
        since: Millis,
        cancel: bool,
    ) -> Result<Self, String> {
        let (task_id, view) = match task {
            TaskRef::TaskId(id) if !id.is_empty() => (id, None),
            TaskRef::TaskId(_) => return Err("the task id is empty".to_owned()),
            TaskRef::Status(v) => {
                let view = read_task(&v, Source::Pushed)?;
                (view.task_id.clone(), Some(view))
            }
        };
        let deadline = opts.limits.deadline_ms.map(|t| later(since, t));
        let core = opts.generation.is_core();
        let mut w = Self {
            task_id,
            opts,
            flights: Flights::new(deadline, opts.limits.request_timeout_ms),
            desk: None,
            last: None,
            next_poll: None,
            poll_settled: None,
            listening: opts.listen,
            stream: Stream::Off,
            poll_failures: 0,
            listen_failures: 0,
            backoff: Backoff::new(opts.retry.seed),
            ttl: None,
            unacked: Vec::new(),
            next_update: 1,
            resend: Vec::new(),
            update_error: None,
            cancelling: None,
            core,
            stored: None,
            out: Queue::new(),
            done: false,
        };
        for (key, answer) in answered {
            desk(&mut w.desk, w.opts.input, w.opts.read_chunk).reserve(key);
            if let Some(a) = answer {
                w.resend.push((key.clone(), a.clone()));
            }
        }
        if core && !w.resend.is_empty() && !cancel {
            // A 2025-11-25 server asks each request once: answers not known to be taken go out now.
            let answers = std::mem::take(&mut w.resend);
            w.send_update(answers, true, now);
        }
        if cancel {
            w.ask_cancel(now);
        }
        match view {
            // A bare id: read it at once; in listen mode the read after the acknowledgement does that.
            None if w.listening && w.resend.is_empty() => w.open_stream(now),
            None => w.read_soon(now),
            Some(view) => {
                let fetch_now = !core && lacks_payload(&view);
                let interval = w.interval(&view);
                w.observe(view, now, SEED);
                if w.done {
                } else if fetch_now || (w.listening && !w.resend.is_empty()) {
                    // Read it first; a stream (listen mode) is opened after that read.
                    w.read_soon(now);
                } else if w.listening {
                    w.open_stream(now);
                } else {
                    w.next_poll = Some(later(now, interval));
                }
            }
        }
        w.advance(now);
        Ok(w)
    }

    /// The interval to wait after `view`: the server's, else the option's, within the floor and ceiling.
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
        asked.min(self.opts.max_poll_interval_ms).max(self.opts.min_poll_interval_ms)
    }

    /// The earliest a `tasks/get` may go out at `now`: the floor after the previous one settled.
    fn floor(&self, now: Millis) -> Millis {
        self.poll_settled.map_or(now, |t| later(t, self.opts.min_poll_interval_ms).max(now))
    }

    /// Reads the task as soon as the floor allows (unless a read is in flight or due sooner).
    fn read_soon(&mut self, now: Millis) {
        if self.flights.has(Purpose::Poll.tag()) {
            return;
        }
        let at = self.floor(now);
        self.next_poll = Some(self.next_poll.map_or(at, |t| t.min(at)));
    }

    /// Takes in a status from `origin`: the task reference, a poll reply (`"tasks/get"`) or a notification
    /// (`"notifications/tasks"`).
    fn observe(&mut self, view: TaskView<J>, now: Millis, origin: &'static str) {
        let from_ref = origin == SEED;
        let protocol = |message: String, status: J| TaskError::protocol(origin, message, status);
        // Only a notification and a read can overtake each other; reads alone are sequential.
        if let Some(last) = &self.last {
            if matches!(self.stream, Stream::Open { .. }) && last.is_newer_than(&view) {
                return;
            }
        }
        if self.last.as_ref().is_none_or(|last| !last.same_status(&view)) {
            self.out.push_back(Action::Status(view.object.clone()));
        }
        self.track_ttl(&view, now);
        let status = view.object.clone();
        if self.core && matches!(view.state, TaskState::Completed | TaskState::Failed) {
            let completed = view.state == TaskState::Completed;
            self.last = Some(Seen::new(view, now, 0, false));
            match self.stored.take() {
                Some(end) => self.decide(*end, completed, status),
                None => self.ask_result(now, false),
            }
            return;
        }
        match view.state {
            TaskState::Completed => match &view.result {
                Some(r) if r.is_object() => self.finish(End::Outcome(Outcome::Result(r.clone()))),
                Some(_) => self.fail(protocol(
                    ["task ", self.task_id.as_str(), " completed with a result that is not an object"].concat(),
                    status,
                )),
                None if from_ref => {} // a task reference without its payload: read at once
                None => self
                    .fail(protocol(["task ", self.task_id.as_str(), " completed without a result"].concat(), status)),
            },
            TaskState::Failed => match view.error.as_ref().map(read_rpc_error) {
                Some(Some(e)) => self.fail(TaskError::task_failed(e, status)),
                Some(None) => self.fail(protocol(
                    ["task ", self.task_id.as_str(), " failed with an error that is not a JSON-RPC error"].concat(),
                    status,
                )),
                None if from_ref => {}
                None => {
                    self.fail(protocol(["task ", self.task_id.as_str(), " failed without an error"].concat(), status))
                }
            },
            TaskState::Cancelled => self.finish(End::Outcome(Outcome::Cancelled(status))),
            TaskState::InputRequired | TaskState::Working => {
                if let Some(f) = self.update_error.take().map(|f| *f) {
                    return self.fail(f);
                }
                if self.cancelling.is_some() || self.core {
                    // Asked to cancel: no more input is asked for or sent; the wait goes on to the end.
                    // MCP 2025-11-25: the input comes as the server's requests, on a `tasks/result`.
                    if self.cancelling.is_none() && view.state == TaskState::InputRequired {
                        self.ask_result(now, true);
                    }
                    let (interval, lacks) = (self.interval(&view), lacks_payload(&view));
                    self.last = Some(Seen::new(view, now, interval, lacks));
                    return;
                }
                let requests = view.input_requests.as_deref().unwrap_or_default();
                self.send_again(requests, now);
                // Offering nothing to a desk that never had input does nothing: no desk is made for it.
                if !requests.is_empty() || self.desk.is_some() {
                    let d = desk(&mut self.desk, self.opts.input, self.opts.read_chunk);
                    match d.offer(requests, &status, &mut self.out) {
                        Err(Stop::Return) => return self.finish(End::Outcome(Outcome::InputRequired(status))),
                        Err(Stop::Fail(f)) => {
                            // The status was read (its requests are what is wrong): the last one, as when
                            // its requests are read over several steps.
                            let (interval, lacks) = (self.interval(&view), lacks_payload(&view));
                            self.last = Some(Seen::new(view, now, interval, lacks));
                            return self.fail(f);
                        }
                        Ok(()) => {}
                    }
                }
                // While the desk still reads the requests, `read_on` sends what is ready once it is done.
                if !self.desk.as_ref().is_some_and(|d| d.reading()) {
                    self.send_ready(now);
                }
            }
        }
        let (interval, lacks) = (self.interval(&view), lacks_payload(&view));
        self.last = Some(Seen::new(view, now, interval, lacks));
    }

    /// Re-arms the TTL backstop when the `(createdAt, ttlMs)` pair is new, anchored on the local clock
    /// at `now` minus the task's age by the server's own timestamps.
    fn track_ttl(&mut self, view: &TaskView<J>, now: Millis) {
        let Some(ttl_ms) = view.ttl_ms else {
            if view.object.get("ttlMs").is_some_and(|t| t.kind() == Kind::Null) {
                self.ttl = None;
            }
            return;
        };
        let created_at = text_hash(view.created_at.as_deref());
        if self.ttl.as_ref().is_some_and(|t| t.ttl_ms == ttl_ms && t.created_at == created_at) {
            return;
        }
        let left = (ttl_ms - age_ms(view)).max(0.0);
        let expires = if left >= u64::MAX as f64 { Millis::MAX } else { later(now, left.ceil() as u64) };
        self.ttl = Some(Ttl { created_at, ttl_ms, expires, checked: false });
    }

    /// `true` once the TTL backstop has passed.
    fn past_ttl(&self, now: Millis) -> bool {
        self.ttl.as_ref().is_some_and(|t| now >= t.expires)
    }

    /// Sends again, once, the stored answers of failed updates whose keys `requests` still lists.
    fn send_again(&mut self, requests: &[(String, J)], now: Millis) {
        if self.resend.is_empty() {
            return;
        }
        let listed = super::sorted(requests.iter().map(|(k, _)| k.as_str()));
        let answers: Vec<(String, J)> = std::mem::take(&mut self.resend)
            .into_iter()
            .filter(|(k, _)| listed.binary_search(&k.as_str()).is_ok())
            .collect();
        if !answers.is_empty() {
            self.send_update(answers, true, now);
        }
    }

    /// Sends one `tasks/update` per completed input round.
    fn send_ready(&mut self, now: Millis) {
        for answers in self.desk.as_mut().map(|d| d.take_ready()).unwrap_or_default() {
            if !answers.is_empty() {
                self.send_update(answers, false, now);
            }
        }
    }

    /// Sends `answers` in one `tasks/update` (MCP 2025-11-25: each in the response to its request).
    fn send_update(&mut self, answers: Vec<(String, J)>, resent: bool, now: Millis) {
        let rounds = if self.core { answers.into_iter().map(|a| vec![a]).collect() } else { vec![answers] };
        for answers in rounds {
            let id = self.next_update;
            self.next_update += 1;
            let call = match answers.first() {
                Some((key, answer)) if self.core => Call::Respond { id: id_of_key(key), answer: Ok(answer.clone()) },
                _ => Call::UpdateTask { task_id: self.task_id.clone(), responses: answers.clone() },
            };
            self.unacked.push(Unacked { id, answers, resent });
            self.flights.send(Purpose::Update(id).tag(), call, now, &mut self.out);
        }
    }

    /// MCP 2025-11-25: asks for the task's result (`tasks/result`), unless already answered or asked:
    /// bounded as a read once the task ended, held open for the rest of the wait (`open`) while it
    /// needs input — the server's requests come on it.
    fn ask_result(&mut self, now: Millis, open: bool) {
        if self.stored.is_some() || self.flights.has(Purpose::Result.tag()) {
            return;
        }
        let call = Call::TasksResult { task_id: self.task_id.clone() };
        if open {
            self.flights.send_long(Purpose::Result.tag(), call, now, &mut self.out);
        } else {
            self.flights.send(Purpose::Result.tag(), call, now, &mut self.out);
        }
    }

    /// MCP 2025-11-25: the end of a task seen `completed` (else `failed`) with `status`, by what its
    /// `tasks/result` answered.
    fn decide(&mut self, end: RequestEnd<J>, completed: bool, status: J) {
        match (completed, end) {
            (true, RequestEnd::Result(r)) if r.is_object() => self.finish(End::Outcome(Outcome::Result(r))),
            (false, RequestEnd::Result(r)) if r.is_object() => self.fail(TaskError::core_task_failed(Ok(r), status)),
            (_, RequestEnd::Result(r)) => {
                let m =
                    ["tasks/result for task ", self.task_id.as_str(), " answered with a result that is not an object"];
                self.fail(TaskError::protocol("tasks/result", m.concat(), r));
            }
            (true, RequestEnd::RpcError(e)) => self.fail(TaskError::rpc("tasks/result", e)),
            (false, RequestEnd::RpcError(e)) => self.fail(TaskError::core_task_failed(Err(e), status)),
            (_, RequestEnd::Transport(_)) => {} // never kept: a lost `tasks/result` is handled as a lost read
        }
    }

    /// `true` when the latest status is `completed` or `failed` (MCP 2025-11-25: its result is asked).
    fn ended(&self) -> bool {
        self.last.as_ref().is_some_and(|s| matches!(s.state, TaskState::Completed | TaskState::Failed))
    }

    /// MCP 2025-11-25: the server sent request `m` on the `tasks/result`: one more input request of the
    /// task, offered beside those pending (one of another task is refused).
    fn on_server_request(&mut self, m: J, now: Millis) {
        if !self.core || related_task(&m).is_some_and(|t| t != self.task_id) {
            return self.out.push_back(refusal(&m, CODE_INVALID_PARAMS, "not a request of the task this wait is on"));
        }
        if self.cancelling.is_some() {
            return self.out.push_back(refusal(&m, CODE_NOT_FOUND, "the task is being cancelled"));
        }
        let last = self.last_status().unwrap_or_else(|| J::object(vec![("taskId", J::string(&self.task_id))]));
        let base = last.with_field("status", Some(J::string("input_required")));
        match hear(&mut self.desk, (self.opts.input, self.opts.read_chunk), &m, &base, &mut self.out) {
            Ok(()) => self.send_ready(now),
            Err((Stop::Return, status)) => self.finish(End::Outcome(Outcome::InputRequired(status))),
            Err((Stop::Fail(f), _)) => self.fail(f),
        }
    }

    /// The application asked for the task to be cancelled: `tasks/cancel` goes out (once; a transient
    /// loss is re-issued as a read is), the input asks running are stopped and no more are made, and the
    /// wait goes on to the task's end — `cancelled`, or whatever the server makes of the cancel.
    fn ask_cancel(&mut self, now: Millis) {
        if self.cancelling.is_some() {
            return;
        }
        self.cancelling = Some(Cancelling { failures: 0, again_at: None });
        if let Some(d) = self.desk.as_mut() {
            d.stop_all(&mut self.out);
        }
        self.send_cancel(now);
    }

    fn send_cancel(&mut self, now: Millis) {
        let call = Call::CancelTask { task_id: self.task_id.clone() };
        self.flights.send(Purpose::Cancel.tag(), call, now, &mut self.out);
    }

    fn poll_now(&mut self, now: Millis) {
        if !self.flights.has(Purpose::Poll.tag()) {
            self.next_poll = None;
            let call = Call::GetTask { task_id: self.task_id.clone() };
            self.flights.send(Purpose::Poll.tag(), call, now, &mut self.out);
        }
    }

    /// Deadline, request and acknowledgement timeouts, the TTL backstop, safety reads, reopens and due
    /// polls at `now`.
    fn advance(&mut self, now: Millis) {
        if self.done {
            return;
        }
        if self.flights.past_deadline(now) {
            let f = TaskError::timeout(
                ("taskId", &self.task_id),
                self.opts.limits.deadline_ms.unwrap_or_default(),
                self.last_status(),
            );
            return self.fail(f);
        }
        while let Some(f) = self.flights.take_expired(now, &mut self.out) {
            self.on_lost(Purpose::of(f.purpose), &f, Lost::Timeout, now);
            if self.done {
                return;
            }
        }
        match self.stream {
            Stream::Opening { expires: Some(e) } if now >= e => self.listen_failed(Lost::Timeout, now),
            Stream::Reopen { at } if now >= at => self.open_stream(now),
            Stream::Open { heard }
                if !self.flights.has(Purpose::Poll.tag()) && now >= later(heard, self.opts.listen_check_ms.max(1)) =>
            {
                // Silent too long: read the task once; the read's answer counts as hearing of it.
                self.stream = Stream::Open { heard: now };
                self.read_soon(now);
            }
            _ => {}
        }
        if let Some(t) = self.ttl.as_mut().filter(|t| !t.checked && now >= t.expires) {
            t.checked = true;
            self.read_soon(now);
        }
        if let Some(c) = self.cancelling.as_mut().filter(|c| c.again_at.is_some_and(|t| now >= t)) {
            c.again_at = None;
            self.send_cancel(now);
        }
        if self.next_poll.is_some_and(|t| now >= t) {
            self.poll_now(now);
        }
    }

    fn last_status(&self) -> Option<J> {
        self.last.as_ref().map(|v| v.object.clone())
    }

    fn on_reply(&mut self, purpose: Purpose, reply: RequestEnd<J>, now: Millis) {
        match (purpose, reply) {
            (Purpose::Poll, RequestEnd::Result(v)) => {
                self.poll_settled = Some(now);
                self.poll_failures = 0;
                let read = if self.core { read_core_task(&v) } else { read_task(&v, Source::Get) };
                match read {
                    Err(m) => self.fail(TaskError::protocol("tasks/get", m, v)),
                    Ok(view) if view.task_id != self.task_id => {
                        let m = [
                            "tasks/get for task ",
                            self.task_id.as_str(),
                            " answered with task ",
                            view.task_id.as_str(),
                        ]
                        .concat();
                        self.fail(TaskError::protocol("tasks/get", m, v));
                    }
                    Ok(view) => {
                        let interval = self.interval(&view);
                        self.observe(view, now, "tasks/get");
                        if !self.done {
                            self.after_read(now, interval);
                        }
                    }
                }
            }
            (Purpose::Poll, RequestEnd::RpcError(e)) => {
                self.poll_settled = Some(now);
                self.poll_failed_rpc(e, now);
            }
            (Purpose::Update(id), RequestEnd::Result(_)) => self.unacked.retain(|u| u.id != id),
            (Purpose::Update(id), RequestEnd::RpcError(e)) => {
                // The task may have ended meanwhile (then the update was moot): read it before failing.
                self.unacked.retain(|u| u.id != id);
                self.update_error = Some(Box::new(TaskError::rpc("tasks/update", e)));
                self.read_soon(now);
            }
            // Acknowledged or refused (a task already ended or gone): the task's status tells the end.
            (Purpose::Cancel, RequestEnd::Result(_) | RequestEnd::RpcError(_)) => self.read_soon(now),
            // The task ended: decided now if its status said so, else once a read says how.
            (Purpose::Result, end) => {
                let last = self.last.as_ref().filter(|_| self.ended()).map(|s| (s.state, s.object.clone()));
                match last {
                    Some((state, status)) => self.decide(end, state == TaskState::Completed, status),
                    None => {
                        self.stored = Some(Box::new(end));
                        self.read_soon(now);
                    }
                }
            }
            (_, RequestEnd::Transport(_)) => {} // handled as a loss
        }
    }

    /// What follows a read that left the task going: the next poll, or the stream.
    fn after_read(&mut self, now: Millis, interval: u64) {
        if !self.listening {
            self.next_poll = Some(later(now, interval).max(self.floor(now)));
            return;
        }
        match self.stream {
            Stream::Off => self.open_stream(now),
            Stream::Open { .. } => self.stream = Stream::Open { heard: now },
            Stream::Opening { .. } | Stream::Reopen { .. } => {}
        }
    }

    fn poll_failed_rpc(&mut self, e: RpcError<J>, now: Millis) {
        if self.past_ttl(now) && e.code == -32602 {
            let status = self.last_status();
            return self.fail(TaskError::expired(e, status));
        }
        self.fail(TaskError::rpc("tasks/get", e));
    }

    /// A request ended without an answer: reads are re-issued after a backoff (within `retries` and
    /// the deadline), failed updates are followed by a read and re-sent once.
    fn on_lost(&mut self, purpose: Purpose, f: &super::flights::Flight, lost: Lost<J>, now: Millis) {
        let id = self.task_id.clone();
        let subject = ("taskId", id.as_str());
        match purpose {
            // A `tasks/result` held open for input: the next status that needs input opens another.
            Purpose::Result if !self.ended() => {}
            Purpose::Poll | Purpose::Result => {
                self.poll_settled = Some(now);
                self.poll_failures += 1;
                match self.retry_at(self.poll_failures, &lost, now) {
                    Some(at) => self.next_poll = Some(at.max(self.floor(now))),
                    None => {
                        let failure = lost.failure(f, subject, self.last_status());
                        self.fail(failure);
                    }
                }
            }
            Purpose::Update(id) => {
                let Some(at) = self.unacked.iter().position(|u| u.id == id) else { return };
                let u = self.unacked.remove(at);
                if u.resent || !lost.transient() {
                    let failure = lost.failure(f, subject, self.last_status());
                    return self.fail(failure);
                }
                if self.core {
                    // Its request is not asked again: the answer goes out once more at once.
                    return self.send_update(u.answers, true, now);
                }
                self.resend.extend(u.answers);
                self.read_soon(now);
            }
            Purpose::Cancel => {
                let failures = self.cancelling.map_or(0, |c| c.failures) + 1;
                let again_at = self.retry_at(failures, &lost, now);
                // Not re-issued (or out of retries): the wait goes on, the server's end decides.
                self.cancelling = Some(Cancelling { failures, again_at });
            }
        }
    }

    /// When to re-issue after failure number `failures` of a kind, or `None` when it must not be:
    /// not transient, out of retries, or the backoff would end past the deadline.
    fn retry_at(&mut self, failures: u32, lost: &Lost<J>, now: Millis) -> Option<Millis> {
        if !lost.transient() || failures > self.opts.retry.retries {
            return None;
        }
        let at = later(now, self.backoff.delay(failures, lost.retry_after()));
        match self.flights.deadline {
            Some(d) if later(at, RETRY_MIN_LEFT_MS) > d => None,
            _ => Some(at),
        }
    }

    fn open_stream(&mut self, now: Millis) {
        let expires = self.flights.timeout_at(now).map(|t| later(now, t));
        self.stream = Stream::Opening { expires };
        self.next_poll = None;
        self.out.push_back(Action::OpenStream { call: Call::Listen { task_id: self.task_id.clone() } });
        if self.core {
            // Nothing acknowledges a 2025-11-25 stream: what changed before it opened is read now.
            self.stream = Stream::Open { heard: now };
            self.read_soon(now);
        }
    }

    fn on_stream(&mut self, event: StreamEvent<J>, now: Millis) {
        if !matches!(self.stream, Stream::Opening { .. } | Stream::Open { .. }) {
            return; // a late event from a stream already given up
        }
        match event {
            // A 2025-11-25 session without the stream (or whose stream broke): polls, as it always can.
            StreamEvent::Unsupported | StreamEvent::Failed(_) if self.core => self.fall_back(now),
            // Asked to poll where listening cannot be had.
            StreamEvent::Unsupported if self.opts.listen_fallback => self.fall_back(now),
            StreamEvent::Unsupported => self.fail(TaskError::listen_unsupported()),
            StreamEvent::End => self.fall_back(now),
            StreamEvent::Failed(v) => match (self.stream, read_rejection(v)) {
                (Stream::Opening { .. }, RequestEnd::RpcError(e)) => self.listen_refused(e, now),
                (_, RequestEnd::Transport(e)) => self.listen_failed(Lost::Failed(e), now),
                _ => self.fall_back(now),
            },
            StreamEvent::Message(m) => self.on_message(m, now),
        }
    }

    /// The server refused the listen with JSON-RPC error `e`: the wait ends with it — or, with
    /// `listen_fallback` and a server without the method (`-32601`), polls.
    fn listen_refused(&mut self, e: RpcError<J>, now: Millis) {
        if self.opts.listen_fallback && e.code == CODE_NOT_FOUND {
            return self.fall_back(now);
        }
        self.fail(TaskError::rpc("subscriptions/listen", e));
    }

    /// The listen stream failed (or its acknowledgement timed out): reopen after a backoff, or poll.
    fn listen_failed(&mut self, lost: Lost<J>, now: Millis) {
        self.close_stream();
        self.listen_failures += 1;
        match self.retry_at(self.listen_failures, &lost, now) {
            Some(at) => self.stream = Stream::Reopen { at },
            None => self.fall_back(now),
        }
    }

    fn on_message(&mut self, m: J, now: Millis) {
        let method = m.get_str("method");
        if method.is_none() && m.get("id").is_some() {
            // The listen request's own response: an error refuses the subscription, a result ends it.
            match (self.stream, m.get("error").as_ref().and_then(read_rpc_error)) {
                (Stream::Opening { .. }, Some(e)) => self.listen_refused(e, now),
                _ => self.fall_back(now),
            }
            return;
        }
        let params = m.get("params").unwrap_or_else(J::null);
        match (self.stream, method.as_deref()) {
            (Stream::Opening { .. }, Some("notifications/subscriptions/acknowledged")) => {
                let acked = params
                    .get("notifications")
                    .and_then(|n| n.get("taskIds"))
                    .and_then(|ids| ids.items())
                    .is_some_and(|ids| ids.iter().any(|i| i.as_str().as_deref() == Some(self.task_id.as_str())));
                if acked {
                    // Changes made before the stream opened are not pushed: read the status once.
                    self.stream = Stream::Open { heard: now };
                    self.listen_failures = 0;
                    self.read_soon(now);
                } else {
                    self.fall_back(now);
                }
            }
            (Stream::Open { .. }, Some(name)) if name == self.status_notification() => {
                if params.get_str("taskId").as_deref() != Some(self.task_id.as_str()) {
                    return; // another task's event
                }
                self.stream = Stream::Open { heard: now };
                let read = if self.core { read_core_task(&params) } else { read_task(&params, Source::Pushed) };
                match read {
                    Ok(view) => self.observe(view, now, self.status_notification()),
                    Err(e) => self.fail(TaskError::protocol(self.status_notification(), e, m)),
                }
            }
            _ => {} // events before the acknowledgement, other notifications: ignored
        }
    }

    /// The notification that carries a task's status on the stream.
    fn status_notification(&self) -> &'static str {
        if self.core {
            "notifications/tasks/status"
        } else {
            "notifications/tasks"
        }
    }

    /// The stream is gone before the task ended: poll for the rest of the wait.
    fn fall_back(&mut self, now: Millis) {
        self.close_stream();
        self.listening = false;
        let due = match &self.last {
            Some(seen) if !seen.lacks_payload => later(seen.at, seen.interval).max(now),
            _ => now,
        };
        if !self.flights.has(Purpose::Poll.tag()) {
            let due = due.max(self.floor(now));
            self.next_poll = Some(self.next_poll.map_or(due, |t| t.min(due)));
        }
    }

    fn close_stream(&mut self) {
        if matches!(self.stream, Stream::Opening { .. } | Stream::Open { .. }) {
            self.out.push_back(Action::CloseStream);
        }
        self.stream = Stream::Off;
    }

    /// Reads the next chunk of the input requests of the status last observed (see
    /// [`InputDesk::read_more`]); once all are read, what `observe` would have done after offering them
    /// follows. `true` while more are left to read.
    fn read_on(&mut self) -> bool {
        let Some(desk) = self.desk.as_mut().filter(|d| d.reading()) else { return false };
        match desk.read_more(&mut self.out) {
            Ok(false) => return true,
            Ok(true) => self.send_ready(self.last.as_ref().map_or(0, |s| s.at)),
            Err(Stop::Return) => {
                let status = self.last_status().unwrap_or_else(J::null);
                self.finish(End::Outcome(Outcome::InputRequired(status)));
            }
            Err(Stop::Fail(f)) => self.fail(f),
        }
        false
    }

    /// Ends the wait with `f`, about this task (its id and last status: the task is never orphaned).
    fn fail(&mut self, f: TaskError<J>) {
        let f = f.about(&self.task_id, self.last_status());
        self.finish(End::Outcome(Outcome::Error(f)));
    }

    /// Ends the wait: everything in flight is stopped, then the outcome goes out.
    fn finish(&mut self, finish: End<J>) {
        if self.stop_everything() {
            self.out.push_back(Action::End(finish));
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
        if let Some(d) = self.desk.as_mut() {
            d.stop_all(&mut self.out);
        }
        self.close_stream();
        true
    }
}

/// The desk of `slot`, made (answering through `mode`) when there is none yet.
fn desk<J: Json>(slot: &mut Option<Box<InputDesk<J>>>, mode: InputMode, chunk: ReadChunk) -> &mut InputDesk<J> {
    slot.get_or_insert_with(|| Box::new(InputDesk::new(mode, chunk)))
}

/// A task reference status that names a payload it does not carry (`input_required` without `inputRequests`,
/// `completed` without `result`, `failed` without `error`): it is read at once.
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
        // A driver that took no input before the requests were all read gets them read first.
        while self.read_on() {}
        if self.done {
            return;
        }
        match event {
            Event::Tick => {}
            Event::Reply { req, reply } => {
                if let Some(f) = self.flights.land(req) {
                    match reply {
                        RequestEnd::Transport(e) if !self.flights.past_deadline(now) => {
                            let lost = Flights::loss(&f, e, now);
                            self.on_lost(Purpose::of(f.purpose), &f, lost, now);
                        }
                        RequestEnd::Transport(_) => {} // the deadline is handled below
                        reply => self.on_reply(Purpose::of(f.purpose), reply, now),
                    }
                }
            }
            Event::Answer { ask, value } => {
                let status = self.last_status().unwrap_or_else(J::null);
                // Without a desk nothing was asked: a late answer, ignored.
                let answered = self.desk.as_mut().map_or(Ok(()), |d| d.answer(ask, &value, &status));
                match answered {
                    Err(Stop::Fail(f)) => self.fail(f),
                    Err(Stop::Return) => self.finish(End::Outcome(Outcome::InputRequired(status))),
                    Ok(()) => self.send_ready(now),
                }
            }
            Event::Stream(e) => self.on_stream(e, now),
            Event::ServerRequest { message } => self.on_server_request(message, now),
            Event::Session(_) => {}
            Event::Cancel => self.ask_cancel(now),
            Event::Abort { reason, scope } => {
                self.stop_everything();
                if self.opts.cancel_on_abort && scope != AbortScope::Stop {
                    let call = Call::CancelTask { task_id: self.task_id.clone() };
                    let timeout_ms = self.opts.limits.request_timeout_ms.unwrap_or(DETACHED_CANCEL_TIMEOUT_MS);
                    self.out.push_back(Action::SendDetached { call, timeout_ms });
                }
                self.out.push_back(Action::End(End::Rejection(reason)));
            }
            Event::Throw { error } => self.finish(End::Rejection(error)),
        }
        self.advance(now);
    }

    fn next_action(&mut self) -> Option<Action<J>> {
        if self.out.is_empty() && self.read_on() {
            self.out.push_back(Action::Continue);
        }
        next_queued(&mut self.out)
    }

    fn wake_at(&self) -> Option<Millis> {
        if self.done {
            return None;
        }
        let stream = match self.stream {
            Stream::Opening { expires } => expires,
            Stream::Reopen { at } => Some(at),
            // While a read is in flight its answer counts as hearing of the task: no check is due.
            Stream::Open { .. } if self.flights.has(Purpose::Poll.tag()) => None,
            Stream::Open { heard } => Some(later(heard, self.opts.listen_check_ms.max(1))),
            Stream::Off => None,
        };
        let ttl = self.ttl.as_ref().filter(|t| !t.checked).map(|t| t.expires);
        let cancel = self.cancelling.and_then(|c| c.again_at);
        [self.flights.deadline, self.next_poll, self.flights.earliest_expiry(), stream, ttl, cancel]
            .into_iter()
            .flatten()
            .min()
    }
}

/// Reads the task reference a caller hands to `awaitTask`: a task id string or a status object.
pub(crate) fn read_task_ref<J: Json>(value: J) -> Result<TaskRef<J>, String> {
    match value.kind() {
        Kind::String => Ok(TaskRef::TaskId(value.as_str().unwrap_or_default())),
        Kind::Object => Ok(TaskRef::Status(value)),
        _ => Err("expected a task id string or a task status object".to_owned()),
    }
}

/// A 64-bit FNV-1a hash of an optional text (`None` hashes apart from every text).
fn text_hash(text: Option<&str>) -> u64 {
    text.map_or(0, |t| {
        t.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)) | 1
    })
}
