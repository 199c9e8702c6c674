//! Simulated time for the engine: a scripted fake server, scripted input handlers, a scripted listen
//! stream, and a trace of everything the machine did, time-stamped in simulated milliseconds.
#![allow(dead_code)]

use crate::engine::{Action, AskId, End, Event, Machine, ReqId, StreamEvent};
use crate::proto::input::InputKind;
use crate::proto::request::{with_tasks_extension, Call};
use crate::proto::rpc::{read_rejection, RequestEnd};
use serde_json::{json, Value};

/// How the fake server answers one request.
pub(crate) enum Resp {
    /// `result` after `delay` ms.
    Ok(u64, Value),
    /// A JSON-RPC error after `delay` ms.
    Err(u64, i64, &'static str),
    /// A transport failure (the rejection value) after `delay` ms.
    Fail(u64, Value),
    /// Never settles.
    Never,
}

/// How a scripted input handler answers.
pub(crate) enum Reaction {
    /// Resolves with this value after `delay` ms.
    After(u64, Value),
    /// Throws this value after `delay` ms.
    Throw(u64, Value),
    /// Never settles.
    Never,
}

type Server = Box<dyn FnMut(&str, &Value, u64) -> Resp>;
type Handler = Box<dyn FnMut(Option<InputKind>, &str, &Value, u64) -> Reaction>;

enum Pending {
    Reply(ReqId, RequestEnd<Value>),
    Answer(AskId, Value),
    Throw(Value),
    Stream(StreamEvent<Value>),
    Abort(Value, crate::engine::AbortScope),
    Cancel,
    ServerRequest(Value),
}

/// The simulation.
pub(crate) struct Sim {
    pub now: u64,
    pub trace: Vec<String>,
    pub statuses: Vec<Value>,
    pub requests: Vec<(u64, String, Value)>,
    pub finish: Option<End<Value>>,
    pub finished_at: Option<u64>,
    pub detached: Vec<(String, Value, u64)>,
    server: Server,
    handler: Handler,
    stream_scripts: std::collections::VecDeque<Vec<(u64, StreamEvent<Value>)>>,
    queue: Vec<(u64, u64, Pending)>,
    seq: u64,
    stream_open: bool,
    caps: Value,
    /// The requests are built for MCP 2025-11-25 (after `Action::Speak`, or set by the test).
    pub core: bool,
}

/// A status object as a server sends it.
pub(crate) fn task(id: &str, status: &str) -> Value {
    json!({"taskId": id, "status": status, "createdAt": "2026-09-01T08:00:00Z", "lastUpdatedAt": "2026-09-01T08:00:00Z", "ttlMs": 60000})
}

/// `task` with extra fields merged in.
pub(crate) fn task_with(id: &str, status: &str, extra: Value) -> Value {
    let mut t = task(id, status);
    if let (Some(o), Some(e)) = (t.as_object_mut(), extra.as_object()) {
        for (k, v) in e {
            o.insert(k.clone(), v.clone());
        }
    }
    t
}

/// A tasks/get result (the status plus `resultType`).
pub(crate) fn get_result(status: Value) -> Value {
    let mut v = status;
    if let Some(o) = v.as_object_mut() {
        o.insert("resultType".into(), json!("complete"));
    }
    v
}

impl Sim {
    /// A simulation where the server answers through `server`; handlers never settle unless set.
    pub(crate) fn new(server: impl FnMut(&str, &Value, u64) -> Resp + 'static) -> Self {
        Self {
            now: 0,
            trace: Vec::new(),
            statuses: Vec::new(),
            requests: Vec::new(),
            finish: None,
            finished_at: None,
            detached: Vec::new(),
            server: Box::new(server),
            handler: Box::new(|_, _, _, _| Reaction::Never),
            stream_scripts: std::collections::VecDeque::new(),
            queue: Vec::new(),
            seq: 0,
            stream_open: false,
            caps: with_tasks_extension::<Value>(None),
            core: false,
        }
    }

    /// Schedules a server→client request (`{jsonrpc, id, method, params}`) at `at` (MCP 2025-11-25).
    pub(crate) fn server_request_at(&mut self, at: u64, message: Value) {
        self.push(at, Pending::ServerRequest(message));
    }

    /// Sets the input handler (and input function) script.
    pub(crate) fn handler(mut self, h: impl FnMut(Option<InputKind>, &str, &Value, u64) -> Reaction + 'static) -> Self {
        self.handler = Box::new(h);
        self
    }

    /// Events a listen stream delivers, `delay` ms after it opens. Each call scripts one more stream:
    /// the first open plays the first script, a reopen the next (none left: a silent stream).
    pub(crate) fn stream(mut self, events: Vec<(u64, StreamEvent<Value>)>) -> Self {
        self.stream_scripts.push_back(events);
        self
    }

    /// Schedules an abort at `at`.
    pub(crate) fn abort_at(&mut self, at: u64, reason: Value) {
        self.abort_scoped_at(at, reason, crate::engine::AbortScope::All);
    }

    /// Schedules a cancel asked (`cancelSignal`) at `at`.
    pub(crate) fn cancel_at(&mut self, at: u64) {
        self.push(at, Pending::Cancel);
    }

    /// Schedules an abort of `scope` at `at`.
    pub(crate) fn abort_scoped_at(&mut self, at: u64, reason: Value, scope: crate::engine::AbortScope) {
        self.push(at, Pending::Abort(reason, scope));
    }

    fn push(&mut self, at: u64, p: Pending) {
        self.seq += 1;
        self.queue.push((at, self.seq, p));
    }

    fn log(&mut self, s: String) {
        self.trace.push(format!("{} {}", self.now, s));
    }

    /// Runs `m` to its end (or until nothing can move it), returning the outcome as JSON
    /// (`{"rejected": value}` for a rejection, `null` when it never finished).
    pub(crate) fn run<M: Machine<Value>>(&mut self, m: &mut M) -> Value {
        for _ in 0..10_000 {
            self.drain(m);
            if self.finish.is_some() || !self.step(m, u64::MAX) {
                break;
            }
        }
        self.drain(m);
        match &self.finish {
            Some(End::Outcome(o)) => o.to_json(),
            Some(End::Rejection(v)) => json!({ "rejected": v }),
            None => Value::Null,
        }
    }

    /// Runs `m` like [`Sim::run`] but only through the events and timers due by `until` (to inject an
    /// event at `until` by hand afterwards).
    pub(crate) fn run_until<M: Machine<Value>>(&mut self, m: &mut M, until: u64) {
        for _ in 0..10_000 {
            self.drain(m);
            if self.finish.is_some() || !self.step(m, until) {
                break;
            }
        }
        self.drain(m);
        self.now = self.now.max(until);
    }

    /// Delivers the next event or timer due by `until`; `false` when there is none.
    fn step<M: Machine<Value>>(&mut self, m: &mut M, until: u64) -> bool {
        let next_event = self.queue.iter().map(|(t, s, _)| (*t, *s)).min().filter(|(t, _)| *t <= until);
        let wake = m.wake_at().filter(|w| *w <= until);
        match (wake, next_event) {
            (Some(w), Some((t, _))) if w < t => self.tick(m, w),
            (Some(w), None) => self.tick(m, w),
            (_, Some((t, s))) => {
                let at = self.queue.iter().position(|(qt, qs, _)| *qt == t && *qs == s).unwrap_or(0);
                let (t, _, p) = self.queue.remove(at);
                assert!(t >= self.now, "time went backwards");
                self.now = t;
                let event = match p {
                    Pending::Reply(req, reply) => Event::Reply { req, reply },
                    Pending::Answer(ask, value) => Event::Answer { ask, value },
                    Pending::Throw(error) => Event::Throw { error },
                    Pending::Stream(e) => Event::Stream(e),
                    Pending::Abort(reason, scope) => Event::Abort { reason, scope },
                    Pending::Cancel => Event::Cancel,
                    Pending::ServerRequest(message) => Event::ServerRequest { message },
                };
                m.handle(t, event);
            }
            (None, None) => return false,
        }
        true
    }

    fn tick<M: Machine<Value>>(&mut self, m: &mut M, at: u64) {
        assert!(at >= self.now, "wake_at {at} is in the past (now {})", self.now);
        self.now = at;
        m.handle(at, Event::Tick);
    }

    fn drain<M: Machine<Value>>(&mut self, m: &mut M) {
        while let Some(a) = m.next_action() {
            assert!(self.finish.is_none() || matches!(a, Action::SendDetached { .. }), "action after finish: {a:?}");
            self.act(a);
        }
    }

    fn act(&mut self, a: Action<Value>) {
        match a {
            Action::Send { req, call, timeout_ms } => {
                let method = call.method();
                let params = sent_params(&call, &self.caps, self.core);
                let t = timeout_ms.map_or(String::new(), |t| format!(" (timeout {t})"));
                self.log(format!("{method}{}{t}", describe(&call)));
                self.requests.push((self.now, method.to_owned(), params.clone()));
                match (self.server)(method, &params, self.now) {
                    Resp::Ok(d, v) => self.push(self.now + d, Pending::Reply(req, RequestEnd::Result(v))),
                    Resp::Err(d, code, msg) => {
                        let e = read_rejection(json!({"code": code, "message": msg}));
                        self.push(self.now + d, Pending::Reply(req, e));
                    }
                    Resp::Fail(d, v) => self.push(self.now + d, Pending::Reply(req, RequestEnd::Transport(v))),
                    Resp::Never => {}
                }
            }
            Action::SendDetached { call, timeout_ms } => {
                self.log(format!("detached {}{}", call.method(), describe(&call)));
                self.detached.push((call.method().to_owned(), sent_params(&call, &self.caps, self.core), timeout_ms));
            }
            Action::Abort { req } => {
                self.queue.retain(|(_, _, p)| !matches!(p, Pending::Reply(r, _) if *r == req));
                self.log("abort request".into());
            }
            Action::Status(s) => {
                let st = s["status"].as_str().unwrap_or("?").to_owned();
                self.log(format!("status {st}"));
                self.statuses.push(s);
            }
            Action::Ask { ask, kind, key, params, status: _ } => {
                self.log(format!("ask {} {key}", kind.handler_name()));
                let reaction = (self.handler)(Some(kind), &key, &params, self.now);
                self.schedule_reaction(ask, reaction);
            }
            Action::AskAll { ask, status } => {
                let keys: Vec<String> =
                    status["inputRequests"].as_object().map(|o| o.keys().cloned().collect()).unwrap_or_default();
                self.log(format!("ask function {}", keys.join(",")));
                let reaction = (self.handler)(None, &keys.join(","), &status, self.now);
                self.schedule_reaction(ask, reaction);
            }
            Action::StopAsk { ask } => {
                self.queue.retain(|(_, _, p)| !matches!(p, Pending::Answer(a, _) if *a == ask));
                self.log("stop ask".into());
            }
            Action::OpenStream { call } => {
                self.log(format!("listen{}", describe(&call)));
                self.stream_open = true;
                let events = self.stream_scripts.pop_front().unwrap_or_default();
                for (d, e) in events {
                    self.push(self.now + d, Pending::Stream(e));
                }
            }
            Action::NextPart => self.log("next part".into()),
            Action::Speak { core } => {
                self.core = core;
                self.log(format!("speak {}", if core { "2025-11-25" } else { "2026-07-28" }));
            }
            Action::Continue => {}
            Action::CloseStream => {
                self.stream_open = false;
                self.queue.retain(|(_, _, p)| !matches!(p, Pending::Stream(_)));
                self.log("close stream".into());
            }
            Action::End(f) => {
                let what = match &f {
                    End::Outcome(o) => format!("resolve {}", o.to_json()["tag"].as_str().unwrap_or("?")),
                    End::Rejection(_) => "reject".to_owned(),
                };
                self.log(what);
                self.finish = Some(f);
                self.finished_at = Some(self.now);
            }
        }
    }

    fn schedule_reaction(&mut self, ask: AskId, r: Reaction) {
        match r {
            Reaction::After(d, v) => self.push(self.now + d, Pending::Answer(ask, v)),
            Reaction::Throw(d, v) => self.push(self.now + d, Pending::Throw(v)),
            Reaction::Never => {}
        }
    }

    /// The times at which requests of `method` were sent.
    pub(crate) fn times(&self, method: &str) -> Vec<u64> {
        self.requests.iter().filter(|(_, m, _)| m == method).map(|(t, _, _)| *t).collect()
    }
}

/// What the fake server is handed for `call`: its params, or for a response (MCP 2025-11-25)
/// `{id, result}` / `{id, error}`.
fn sent_params(call: &Call<Value>, caps: &Value, core: bool) -> Value {
    match call {
        Call::Respond { id, answer: Ok(result) } => json!({"id": id, "result": result}),
        Call::Respond { id, answer: Err(error) } => json!({"id": id, "error": error}),
        call => call.params(caps, core),
    }
}

fn describe(call: &Call<Value>) -> String {
    match call {
        Call::UpdateTask { responses, .. } => {
            let keys: Vec<&str> = responses.iter().map(|(k, _)| k.as_str()).collect();
            format!(" [{}]", keys.join(","))
        }
        Call::ToolsCall { input_responses: Some(r), .. } => {
            let keys: Vec<String> = r.as_object().map(|o| o.keys().cloned().collect()).unwrap_or_default();
            format!(" [{}]", keys.join(","))
        }
        _ => String::new(),
    }
}

/// A script of tasks/get answers: the n-th poll gets the n-th entry (the last one repeats).
pub(crate) fn polls(answers: Vec<Resp>) -> impl FnMut(&str, &Value, u64) -> Resp {
    let mut answers: std::collections::VecDeque<Resp> = answers.into();
    move |method, _params, _now| match method {
        "tasks/get" => {
            if answers.len() > 1 {
                answers.pop_front().unwrap_or(Resp::Never)
            } else {
                match answers.front() {
                    Some(Resp::Ok(d, v)) => Resp::Ok(*d, v.clone()),
                    Some(Resp::Err(d, c, m)) => Resp::Err(*d, *c, m),
                    Some(Resp::Fail(d, v)) => Resp::Fail(*d, v.clone()),
                    _ => Resp::Never,
                }
            }
        }
        "tasks/update" | "tasks/cancel" => Resp::Ok(0, json!({"resultType": "complete"})),
        _ => Resp::Never,
    }
}

/// The next of a script's answers, the last one repeating once the others are taken.
pub(crate) fn next_or_last(answers: &std::cell::RefCell<std::collections::VecDeque<Value>>) -> Value {
    let mut a = answers.borrow_mut();
    if a.len() > 1 { a.pop_front() } else { a.front().cloned() }.unwrap_or(Value::Null)
}
