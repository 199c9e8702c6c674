//! A deterministic world for the machines on an MCP 2025-11-25 server (core tasks): the wait (from a
//! task id or a status), `callTool` (with or without task-augmented tools), `callAndAwait`, and the
//! steps (`updateTask`, `listTasks`), under the session gate ([`Opening`]). Plain bytes decode, one
//! byte at a time, into the machine, its options and up to 300 moves of the server (answers of every
//! shape to each request in flight, the server's own requests — for the task, another task, without
//! an id, malformed, repeated —, transport failures, the session's status stream: statuses of this
//! task and others, malformed, its end, failure or absence), the application (handler answers valid or not,
//! throws, an abort, a cancel asked) and the clock.
//!
//! What is checked after every step (a broken rule panics, with the run's history):
//! - the machine ends once, and after its end only detached requests go out;
//! - never two `tasks/result` in flight;
//! - a key is asked at most once in a part of the run, and only after the server sent its request;
//! - each server request is answered at most once with a result (again only after that answer was
//!   lost), never both answered and refused, and never answered unless asked;
//! - a stream opens only with `listen`, one at a time, closes only when open, and never outlives the end;
//! - a bounded call ends by its deadline (plus the time of one move);
//! - `wake_at` never asks to be woken in the past.

#![allow(clippy::panic)] // a broken rule is a panic, by design: libFuzzer and proptest catch it
#![allow(clippy::indexing_slicing)] // its own JSON and small constant tables, indexed in range

use crate::engine::both::CallAndAwait;
use crate::engine::call::{CallSettings, CallTool};
use crate::engine::session::Opening;
use crate::engine::settings::{HandlerSet, InputMode, Retry, TimeLimits, WaitSettings};
use crate::engine::step::Step;
use crate::engine::wait::{TaskRef, Wait};
use crate::engine::{AbortScope, Action, AskId, End, Event, Machine, ReqId, StreamEvent};
use crate::proto::core_tasks::{request_key, Generation};
use crate::proto::request::Call;
use crate::proto::rpc::{read_rejection, RequestEnd};
use serde_json::{json, Value};
use std::collections::BTreeMap;

/// The bytes, read one at a time (0 once they run out).
struct Bytes<'a>(&'a [u8]);

impl Bytes<'_> {
    fn byte(&mut self) -> u8 {
        let (first, rest) = self.0.split_first().map_or((0, &[][..]), |(b, r)| (*b, r));
        self.0 = rest;
        first
    }
    fn pick(&mut self, n: u8) -> u8 {
        self.byte() % n.max(1)
    }
    fn done(&self) -> bool {
        self.0.is_empty()
    }
}

const STATES: [&str; 6] = ["working", "input_required", "completed", "failed", "cancelled", "paused"];

fn core_task(b: &mut Bytes<'_>, id: &str) -> Value {
    let state = STATES[usize::from(b.pick(6))];
    let mut t = json!({"taskId": id, "status": state, "createdAt": "2026-09-01T08:00:00Z", "lastUpdatedAt": "2026-09-01T08:00:00Z"});
    match b.pick(4) {
        0 => {}
        1 => t["ttl"] = json!(1000),
        2 => t["ttl"] = json!(600_000),
        _ => t["ttl"] = Value::Null,
    }
    match b.pick(4) {
        0 => {}
        1 => t["pollInterval"] = json!(0),
        2 => t["pollInterval"] = json!(100),
        _ => t["pollInterval"] = json!("soon"),
    }
    if b.pick(3) == 0 {
        t["statusMessage"] = json!("why");
    }
    t
}

/// The server's answer to `method`.
fn answer(b: &mut Bytes<'_>, method: &str) -> RequestEnd<Value> {
    let error = |code: i64| read_rejection(json!({"code": code, "message": "no"}));
    match b.pick(8) {
        0 => return error([-32602, -32603, -32601][usize::from(b.pick(3))]),
        1 => {
            let status = [0, 503, 404][usize::from(b.pick(3))];
            return RequestEnd::Transport(json!({"name": "McpHttpError", "status": status}));
        }
        _ => {}
    }
    let task = if b.pick(4) == 0 { "other" } else { "t1" };
    RequestEnd::Result(match method {
        "tasks/get" => core_task(b, task),
        "tasks/cancel" => core_task(b, task),
        "tasks/result" | "tools/call" if b.pick(5) == 0 => json!("not an object"),
        "tasks/result" => json!({"content": [{"type": "text", "text": "r"}], "isError": b.pick(2) == 0}),
        "tools/call" if b.pick(2) == 0 => json!({"task": core_task(b, task)}),
        "tools/call" => json!({"content": []}),
        "tools/list" => {
            let support = ["optional", "required", "forbidden", "?"][usize::from(b.pick(4))];
            let mut page = json!({"tools": [{"name": "x", "execution": {"taskSupport": support}}]});
            if b.pick(3) == 0 {
                page = json!({"tools": [], "nextCursor": "c"});
            }
            page
        }
        "tasks/list" => json!({"tasks": [core_task(b, "t1")], "nextCursor": "c"}),
        _ => json!({}),
    })
}

/// A request of the server's: id from a small set (repeats happen), for the task or another, of every
/// kind, sometimes malformed.
fn server_request(b: &mut Bytes<'_>) -> Value {
    let id = match b.pick(5) {
        0 => json!("s"),
        1 => json!(-1),
        2 => Value::Null,
        n => json!(u64::from(n) + u64::from(b.pick(4))),
    };
    let task = ["t1", "t1", "other"][usize::from(b.pick(3))];
    let meta = json!({"io.modelcontextprotocol/related-task": {"taskId": task}});
    let (method, params) = match b.pick(5) {
        0 => (
            "elicitation/create",
            json!({"mode": "form", "message": "?", "requestedSchema": {"type": "object", "properties": {}}, "_meta": meta}),
        ),
        1 => (
            "elicitation/create",
            json!({"mode": "url", "message": "?", "url": "javascript:x", "elicitationId": "e", "_meta": meta}),
        ),
        2 => ("sampling/createMessage", json!({"messages": [], "maxTokens": 1, "_meta": meta})),
        3 => ("roots/list", json!({"_meta": meta})),
        _ => ("unknown/method", json!({"_meta": meta})),
    };
    json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params})
}

/// What the world keeps of the run.
#[derive(Default)]
struct World {
    now: u64,
    /// Requests in flight: id, method, and (for a response) the server request's id.
    flights: Vec<(ReqId, &'static str, Option<String>)>,
    asks: Vec<AskId>,
    /// Keys asked so far.
    asked: Vec<String>,
    /// The keys of the server's requests sent so far.
    sent_requests: Vec<String>,
    /// Per server request key: results sent, results lost, refusals.
    answered: BTreeMap<String, (u32, u32, u32)>,
    ended: Option<u64>,
    /// `updateTask`: the application answers by hand (keys it was never asked).
    manual: bool,
    /// The wait may listen; the session's status stream is open.
    listen: bool,
    stream_open: bool,
    history: Vec<String>,
}

impl World {
    fn fail(&self, rule: &str) -> ! {
        let tail: Vec<&String> = self.history.iter().rev().take(40).collect();
        panic!("core world: {rule} (at {} ms)\nrecent history, newest first:\n{tail:#?}", self.now);
    }

    fn drain(&mut self, m: &mut dyn Machine<Value>) {
        for _ in 0..100_000 {
            let Some(a) = m.next_action() else { return };
            self.on_action(a);
        }
        self.fail("the machine never stopped acting");
    }

    fn key_of(id: &Value) -> String {
        request_key(&json!({"id": id})).unwrap_or_else(|| id.to_string())
    }

    fn on_action(&mut self, a: Action<Value>) {
        if self.ended.is_some() && !matches!(a, Action::SendDetached { .. }) {
            self.fail("an action after the end (only detached requests may follow it)");
        }
        match a {
            Action::Send { req, call, .. } => {
                let method = call.method();
                self.history.push(format!("{} send {method}", self.now));
                if method == "tasks/result" && self.flights.iter().any(|f| f.1 == "tasks/result") {
                    self.fail("two tasks/result in flight");
                }
                let key = match &call {
                    Call::Respond { id, answer } => {
                        let key = Self::key_of(id);
                        self.on_response(&key, answer.is_ok());
                        Some(key)
                    }
                    _ => None,
                };
                self.flights.push((req, method, key));
            }
            Action::SendDetached { call: Call::Respond { id, answer }, .. } => {
                let key = Self::key_of(&id);
                self.history.push(format!("{} refuse {key}", self.now));
                self.on_response(&key, answer.is_ok());
            }
            Action::Abort { req } => {
                // A response given up (its timeout): it may not have arrived, and may go out once more.
                if let Some((_, _, Some(key))) = self.flights.iter().find(|f| f.0 == req) {
                    self.answered.entry(key.clone()).or_default().1 += 1;
                }
                self.flights.retain(|f| f.0 != req);
            }
            Action::Ask { ask, key, .. } => {
                self.history.push(format!("{} ask {key}", self.now));
                if self.asked.contains(&key) {
                    self.fail("a key asked twice");
                }
                if !self.sent_requests.contains(&key) {
                    self.fail("a key asked that no server request carried");
                }
                self.asked.push(key);
                self.asks.push(ask);
            }
            Action::AskAll { ask, status } => {
                let keys: Vec<String> =
                    status["inputRequests"].as_object().map(|o| o.keys().cloned().collect()).unwrap_or_default();
                for key in keys {
                    if self.asked.contains(&key) {
                        self.fail("a key asked twice (input function)");
                    }
                    self.asked.push(key);
                }
                self.asks.push(ask);
            }
            Action::StopAsk { ask } => self.asks.retain(|a| *a != ask),
            Action::OpenStream { .. } => {
                self.history.push(format!("{} open stream", self.now));
                if self.stream_open || !self.listen {
                    self.fail("a stream opened while one is open, or without listen");
                }
                self.stream_open = true;
            }
            Action::CloseStream => {
                self.history.push(format!("{} close stream", self.now));
                if !self.stream_open {
                    self.fail("a stream closed that is not open");
                }
                self.stream_open = false;
            }
            // `callAndAwait`'s wait: its keys are its own (the call's requests were the plain call's).
            Action::NextPart => {
                self.asked.clear();
                self.answered.clear();
                self.sent_requests.clear();
            }
            Action::End(end) => {
                let what = match &end {
                    End::Outcome(o) => o.to_json()["tag"].as_str().unwrap_or("?").to_owned(),
                    End::Rejection(_) => "rejection".to_owned(),
                };
                self.history.push(format!("{} end {what}", self.now));
                if self.stream_open {
                    self.fail("the end left the stream open");
                }
                self.ended = Some(self.now);
            }
            _ => {}
        }
    }

    /// A response to the server's request `key` went out (`ok`: a result, else a refusal).
    fn on_response(&mut self, key: &str, ok: bool) {
        let (results, lost, refusals) = self.answered.get(key).copied().unwrap_or_default();
        // The server may send one id more than once (each such request may get its own answer).
        let sent = u32::try_from(self.sent_requests.iter().filter(|k| *k == key).count()).unwrap_or(u32::MAX);
        if ok {
            if results > lost {
                self.fail("a server request answered twice");
            }
            if !self.manual && !self.asked.iter().any(|k| k == key) {
                self.fail("a server request answered that was never asked");
            }
            self.answered.insert(key.to_owned(), (results + 1, lost, refusals));
        } else {
            if !self.manual && results.saturating_sub(lost) + refusals >= sent.max(1) {
                self.fail("more answers to a server request than it was sent");
            }
            self.answered.insert(key.to_owned(), (results, lost, refusals + 1));
        }
    }
}

/// Plays the world `data` decodes into; a broken rule panics.
pub(crate) fn play(data: &[u8]) {
    let mut b = Bytes(data);
    let input = match b.pick(4) {
        0 => InputMode::Return,
        1 => InputMode::Function,
        2 => InputMode::Handlers(HandlerSet::default()),
        _ => InputMode::Handlers(HandlerSet { form: true, url: true, sampling: true, roots: b.pick(2) == 0 }),
    };
    let deadline_ms = [Some(500), Some(3_000), Some(60_000), None][usize::from(b.pick(4))];
    let limits = TimeLimits { deadline_ms, request_timeout_ms: [None, Some(200)][usize::from(b.pick(2))] };
    let generation = Generation::Core { tasks_for_tools: b.pick(2) == 0 };
    let listen = b.pick(2) == 0;
    let wait = WaitSettings { limits, input, generation, listen, ..WaitSettings::default() };
    let call = CallSettings { limits, input, generation, ..CallSettings::default() };
    let subject = b.pick(6);
    let mut world = World { manual: subject == 2, listen, ..World::default() };
    // `callAndAwait`'s wait has a deadline of its own, from its start.
    let bound = deadline_ms.map(|d| if subject == 1 { 2 * d } else { d });
    let build: crate::engine::session::Build<Value> = Box::new(move |g, since, now| -> Box<dyn Machine<Value>> {
        let wait = WaitSettings { generation: g, ..wait };
        let call = CallSettings { generation: g, ..call };
        match subject {
            0 => Box::new(CallTool::start("x".into(), None, call, since, now)),
            1 => Box::new(CallAndAwait::start("x".into(), None, call, wait, false, since, now)),
            2 => {
                let responses = json!({"2": {"action": "accept"}, "\"3\"": {"action": "decline"}});
                Box::new(Step::start(
                    Call::UpdateTaskRaw { task_id: "t1".into(), responses },
                    "t1".into(),
                    limits,
                    Retry::default(),
                    g,
                    since,
                    now,
                ))
            }
            3 => Box::new(Step::start(
                Call::ListTasks { cursor: None },
                String::new(),
                limits,
                Retry::default(),
                g,
                since,
                now,
            )),
            4 => {
                let seed =
                    json!({"taskId": "t1", "status": "working", "ttlMs": 1000, "createdAt": "2026-09-01T08:00:00Z"});
                Box::new(
                    Wait::start(TaskRef::Status(seed), wait, &[], now, since, false).unwrap_or_else(|e| panic!("{e}")),
                )
            }
            _ => Box::new(
                Wait::start(TaskRef::TaskId("t1".into()), wait, &[], now, since, false)
                    .unwrap_or_else(|e| panic!("{e}")),
            ),
        }
    });
    let mut m = Opening::new(build, deadline_ms, ("taskId", "t1".into()), 0);
    let found = json!({"generation": "2025-11-25", "capabilities": {"tasks": {"requests": {"tools": {"call": {}}}}}});
    world.drain(&mut m);
    let step = |world: &mut World, m: &mut Opening<Value>, e: Event<Value>| {
        m.handle(world.now, e);
        world.drain(m);
    };
    step(&mut world, &mut m, Event::Session(Ok(found)));
    for _ in 0..300 {
        if b.done() || world.ended.is_some() {
            break;
        }
        let event = match b.pick(10) {
            0..=2 if !world.flights.is_empty() => {
                let at = if b.pick(2) == 0 { 0 } else { world.flights.len() - 1 };
                let (req, method, key) = world.flights.remove(at);
                let reply = if method == "response" {
                    if b.pick(4) == 0 {
                        if let Some(k) = &key {
                            world.answered.entry(k.clone()).or_default().1 += 1;
                        }
                        RequestEnd::Transport(json!("lost"))
                    } else {
                        RequestEnd::Result(Value::Null)
                    }
                } else {
                    answer(&mut b, method)
                };
                world.history.push(format!("{} reply {method}", world.now));
                Event::Reply { req, reply }
            }
            3 | 4 => {
                let message = server_request(&mut b);
                world.sent_requests.push(World::key_of(&message["id"]));
                world.history.push(format!("{} server request {}", world.now, message["id"]));
                Event::ServerRequest { message }
            }
            5 if !world.asks.is_empty() => {
                let ask = world.asks.remove(0);
                let value = match b.pick(5) {
                    0 => json!({"action": "accept", "content": {}}),
                    1 => json!({"tag": "ok", "response": {"action": "decline"}}),
                    2 => json!({"tag": "ok", "responses": {}}),
                    3 => json!({"roots": []}),
                    _ => json!(7),
                };
                Event::Answer { ask, value }
            }
            6 if b.pick(8) == 0 => Event::Abort { reason: json!("stop"), scope: AbortScope::All },
            8 | 9 if world.stream_open && b.pick(2) == 0 => {
                world.history.push(format!("{} stream event", world.now));
                Event::Stream(match b.pick(8) {
                    0..=3 => {
                        let task = if b.pick(3) == 0 { "other" } else { "t1" };
                        let method = if b.pick(6) == 0 { "notifications/tasks" } else { "notifications/tasks/status" };
                        let params = if b.pick(8) == 0 { json!("not a task") } else { core_task(&mut b, task) };
                        StreamEvent::Message(json!({"jsonrpc": "2.0", "method": method, "params": params}))
                    }
                    4 => StreamEvent::End,
                    5 => {
                        let status = [405, 409, 0][usize::from(b.pick(3))];
                        StreamEvent::Failed(json!({"name": "McpHttpError", "status": status}))
                    }
                    6 => StreamEvent::Unsupported,
                    _ => {
                        StreamEvent::Message(json!({"jsonrpc": "2.0", "method": "notifications/message", "params": {}}))
                    }
                })
            }
            7 if b.pick(4) == 0 => Event::Cancel,
            _ => {
                let later = world.now + u64::from(b.byte()) * 20;
                if let Some(w) = m.wake_at() {
                    if w < world.now {
                        world.fail("wake_at is in the past");
                    }
                }
                world.now = m.wake_at().map_or(later, |w| w.min(later).max(world.now));
                Event::Tick
            }
        };
        step(&mut world, &mut m, event);
        if let (Some(d), None) = (bound, world.ended) {
            if world.now > d + 1 {
                world.fail("past the deadline without an end");
            }
        }
    }
}
