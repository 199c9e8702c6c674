//! MCP 2025-11-25 (core tasks) on simulated time: the session first, calling by `taskSupport`, the
//! wait with `tasks/result` (its end, and input as the server's requests on it), the steps.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)]

use super::sim::{next_or_last, Reaction, Resp, Sim};
use crate::engine::both::CallAndAwait;
use crate::engine::call::{CallSettings, CallTool};
use crate::engine::session::Opening;
use crate::engine::settings::{HandlerSet, InputMode, Retry, TimeLimits, WaitSettings};
use crate::engine::step::Step;
use crate::engine::wait::{TaskRef, Wait};
use crate::engine::{Event, Machine, StreamEvent};
use crate::proto::core_tasks::Generation;
use crate::proto::request::Call;
use serde_json::{json, Value};
use std::cell::RefCell;
use std::collections::VecDeque;
use std::rc::Rc;

const CORE: Generation = Generation::Core { tasks_for_tools: true };
const FORM: HandlerSet = HandlerSet { form: true, url: false, sampling: false, roots: false };

/// A 2025-11-25 task as its server sends it (`ttl`, `pollInterval`; no payload).
fn core_task(status: &str) -> Value {
    json!({"taskId": "t1", "status": status, "createdAt": "2026-09-01T08:00:00Z", "lastUpdatedAt": "2026-09-01T08:00:00Z", "ttl": 600000, "pollInterval": 100})
}

fn result(text: &str) -> Value {
    json!({"content": [{"type": "text", "text": text}], "_meta": {"io.modelcontextprotocol/related-task": {"taskId": "t1"}}})
}

/// An `elicitation/create` request of the server's, id `id`, for task `task`.
fn ask(id: u64, task: &str) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "method": "elicitation/create", "params": {"mode": "form", "message": "name?", "requestedSchema": {"type": "object", "properties": {"name": {"type": "string"}}}, "_meta": {"io.modelcontextprotocol/related-task": {"taskId": task}}}})
}

fn wait_opts(input: InputMode) -> WaitSettings {
    WaitSettings { input, generation: CORE, ..WaitSettings::default() }
}

/// A 2025-11-25 server: `tasks/get` answers follow `gets` (the last repeats); `tasks/result` answers
/// `result` after `result_delay` ms (`None`: never); responses are recorded and taken.
struct Server {
    gets: RefCell<VecDeque<Value>>,
    result: RefCell<Option<(u64, Resp)>>,
    responses: RefCell<Vec<Value>>,
}

fn server(gets: Vec<Value>, result: Option<(u64, Resp)>) -> (Rc<Server>, impl FnMut(&str, &Value, u64) -> Resp) {
    let s = Rc::new(Server {
        gets: RefCell::new(gets.into()),
        result: RefCell::new(result),
        responses: RefCell::new(Vec::new()),
    });
    let script = s.clone();
    let f = move |method: &str, params: &Value, _now: u64| match method {
        "tasks/get" => Resp::Ok(0, next_or_last(&script.gets)),
        "tasks/result" => match script.result.borrow_mut().take() {
            Some((d, Resp::Ok(_, v))) => Resp::Ok(d, v),
            Some((d, Resp::Err(_, c, m))) => Resp::Err(d, c, m),
            _ => Resp::Never,
        },
        "response" => {
            script.responses.borrow_mut().push(params.clone());
            Resp::Ok(0, Value::Null)
        }
        "tasks/cancel" => Resp::Ok(0, core_task("cancelled")),
        _ => Resp::Never,
    };
    (s, f)
}

#[test]
fn a_completed_task_gives_its_tasks_result_as_sent_and_statuses_in_the_2026_shape() {
    let (_, f) = server(vec![core_task("working"), core_task("completed")], Some((0, Resp::Ok(0, result("done")))));
    let mut sim = Sim::new(f);
    sim.core = true;
    let mut w = Wait::new(TaskRef::TaskId("t1".into()), wait_opts(InputMode::default()), 0).unwrap();
    let out = sim.run(&mut w);
    assert_eq!(out, json!({"tag": "ok", "result": result("done")}), "{:#?}", sim.trace);
    assert_eq!(sim.times("tasks/result").len(), 1, "one tasks/result, once the task ended: {:#?}", sim.trace);
    let first = &sim.statuses[0];
    assert_eq!((first["ttlMs"].as_u64(), first["pollIntervalMs"].as_u64()), (Some(600000), Some(100)), "{first}");
    assert!(first.get("ttl").is_none() && first.get("pollInterval").is_none(), "{first}");
    // No 2026-07-28 envelope on the wire.
    assert!(sim.requests.iter().all(|(_, _, p)| p.get("_meta").is_none()), "{:?}", sim.requests);
}

#[test]
fn a_failed_task_carries_its_stored_result_or_its_status_message() {
    let stored = json!({"content": [{"type": "text", "text": "broke"}], "isError": true});
    let (_, f) = server(vec![core_task("failed")], Some((0, Resp::Ok(0, stored.clone()))));
    let mut sim = Sim::new(f);
    let out = sim.run(&mut Wait::new(TaskRef::TaskId("t1".into()), wait_opts(InputMode::default()), 0).unwrap());
    assert_eq!(out["tag"], "error");
    assert_eq!(out["error"]["kind"], "server");
    assert_eq!(out["error"]["cause"]["type"], "task_failed");
    assert_eq!(out["error"]["data"]["result"], stored);

    let mut failed = core_task("failed");
    failed["statusMessage"] = json!("it broke");
    let (_, f) = server(vec![failed], Some((0, Resp::Err(0, -32603, "Task t1 has no result stored"))));
    let mut sim = Sim::new(f);
    let out = sim.run(&mut Wait::new(TaskRef::TaskId("t1".into()), wait_opts(InputMode::default()), 0).unwrap());
    assert_eq!(
        (out["error"]["message"].as_str(), out["error"]["code"].as_i64()),
        (Some("it broke"), Some(-32603)),
        "{out}"
    );
    assert_eq!(out["error"]["cause"]["type"], "task_failed");
}

#[test]
fn input_comes_on_a_tasks_result_held_open_and_each_request_is_answered_once() {
    // Polls say input_required until the answer, then completed; the tasks/result stream carries the
    // request (twice: a duplicate must not be asked again), then the result.
    let (s, f) = server(
        vec![core_task("input_required"), core_task("input_required"), core_task("working"), core_task("completed")],
        Some((400, Resp::Ok(0, result("ask: Ada")))),
    );
    let mut sim = Sim::new(f).handler(|_, key, _, _| {
        assert_eq!(key, "7");
        Reaction::After(50, json!({"action": "accept", "content": {"name": "Ada"}}))
    });
    let limits = TimeLimits { deadline_ms: Some(10_000), request_timeout_ms: Some(1_000) };
    let mut w =
        Wait::new(TaskRef::TaskId("t1".into()), WaitSettings { limits, ..wait_opts(InputMode::Handlers(FORM)) }, 0)
            .unwrap();
    sim.server_request_at(20, ask(7, "t1"));
    sim.server_request_at(30, ask(7, "t1"));
    let out = sim.run(&mut w);
    assert_eq!(out, json!({"tag": "ok", "result": result("ask: Ada")}), "{:#?}", sim.trace);
    let asked: Vec<&String> = sim.trace.iter().filter(|l| l.contains("ask form")).collect();
    assert_eq!(asked.len(), 1, "asked once: {:#?}", sim.trace);
    assert_eq!(
        *s.responses.borrow(),
        vec![json!({"id": 7, "result": {"action": "accept", "content": {"name": "Ada"}}})]
    );
    // The tasks/result held open is bounded by the time left, not by requestTimeoutMs.
    let held = sim.trace.iter().find(|l| l.contains("tasks/result")).unwrap();
    assert!(held.ends_with("(timeout 10000)"), "{held}");
}

#[test]
fn input_return_lists_the_request_by_its_id_and_a_request_of_another_task_is_refused() {
    let (s, f) = server(vec![core_task("input_required")], None);
    let mut sim = Sim::new(f);
    let mut w = Wait::new(TaskRef::TaskId("t1".into()), wait_opts(InputMode::Return), 0).unwrap();
    sim.server_request_at(20, ask(3, "other"));
    sim.server_request_at(40, ask(4, "t1"));
    let out = sim.run(&mut w);
    assert_eq!(out["tag"], "input_required", "{:#?}", sim.trace);
    assert_eq!(out["status"]["status"], "input_required");
    assert_eq!(out["status"]["inputRequests"]["4"]["method"], "elicitation/create", "{out}");
    assert!(out["status"]["inputRequests"].get("3").is_none(), "{out}");
    // The other task's request got a JSON-RPC error; the returned one was left for the application.
    assert_eq!(sim.detached.len(), 1, "{:?}", sim.detached);
    assert_eq!(sim.detached[0].1["id"], 3);
    assert_eq!(sim.detached[0].1["error"]["code"], -32602);
    assert!(s.responses.borrow().is_empty());
}

#[test]
fn no_handler_gives_input_required_and_nothing_is_answered() {
    let (s, f) = server(vec![core_task("input_required")], None);
    let mut sim = Sim::new(f);
    let mut w =
        Wait::new(TaskRef::TaskId("t1".into()), wait_opts(InputMode::Handlers(HandlerSet::default())), 0).unwrap();
    sim.server_request_at(20, ask(1, "t1"));
    let out = sim.run(&mut w);
    assert_eq!(out["tag"], "input_required", "{:#?}", sim.trace);
    assert!(s.responses.borrow().is_empty() && sim.detached.is_empty(), "{:?}", sim.detached);
}

/// A `notifications/tasks/status` of the session's stream: the whole task, as its server sends it.
fn status_event(id: &str, status: &str) -> StreamEvent<Value> {
    let mut task = core_task(status);
    task["taskId"] = json!(id);
    StreamEvent::Message(json!({"jsonrpc": "2.0", "method": "notifications/tasks/status", "params": task}))
}

#[test]
fn listen_hears_the_sessions_status_notifications_and_reads_once_at_the_start() {
    // Polls would say working forever: only the stream's `completed` (after another task's) ends it.
    let (_, f) = server(vec![core_task("working")], Some((0, Resp::Ok(0, result("done")))));
    let mut sim =
        Sim::new(f).stream(vec![(300, status_event("t2", "completed")), (500, status_event("t1", "completed"))]);
    let opts = WaitSettings { listen: true, listen_check_ms: 60_000, ..wait_opts(InputMode::default()) };
    let out = sim.run(&mut Wait::new(TaskRef::TaskId("t1".into()), opts, 0).unwrap());
    assert_eq!(out, json!({"tag": "ok", "result": result("done")}), "{:#?}", sim.trace);
    assert_eq!(sim.times("tasks/get"), vec![0], "one read as the stream opens, none after: {:#?}", sim.trace);
    assert_eq!(sim.finished_at, Some(500), "{:#?}", sim.trace);
    assert_eq!(sim.trace.iter().filter(|l| l.ends_with(" listen")).count(), 1, "{:#?}", sim.trace);
    assert!(sim.statuses.iter().all(|s| s.get("ttl").is_none() && s["ttlMs"] == 600000), "{:?}", sim.statuses);
}

#[test]
fn listen_on_a_session_without_its_stream_polls_at_once() {
    for lost in [
        StreamEvent::Unsupported,
        StreamEvent::Failed(json!({"name": "McpHttpError", "status": 405})),
        StreamEvent::End,
    ] {
        let (_, f) = server(
            vec![core_task("working"), core_task("working"), core_task("completed")],
            Some((0, Resp::Ok(0, result("done")))),
        );
        let mut sim = Sim::new(f).stream(vec![(10, lost.clone())]);
        let opts = WaitSettings { listen: true, ..wait_opts(InputMode::default()) };
        let out = sim.run(&mut Wait::new(TaskRef::TaskId("t1".into()), opts, 0).unwrap());
        assert_eq!(out["tag"], "ok", "{lost:?}: {:#?}", sim.trace);
        assert!(sim.times("tasks/get").len() >= 3, "{lost:?}: polled after the stream: {:#?}", sim.trace);
        assert_eq!(sim.trace.iter().filter(|l| l.ends_with(" listen")).count(), 1, "never reopened: {:#?}", sim.trace);
    }
}

#[test]
fn a_cancelled_task_is_cancelled_without_tasks_result() {
    let (_, f) = server(vec![core_task("working"), core_task("cancelled")], None);
    let mut sim = Sim::new(f);
    let out = sim.run(&mut Wait::new(TaskRef::TaskId("t1".into()), wait_opts(InputMode::default()), 0).unwrap());
    assert_eq!(out["tag"], "cancelled");
    assert!(sim.times("tasks/result").is_empty());
}

fn tools_page(support: &str, next: Option<&str>) -> Value {
    let mut page = json!({"tools": [{"name": "other", "execution": {"taskSupport": "required"}}, {"name": "slow", "execution": {"taskSupport": support}}]});
    if let Some(c) = next {
        page = json!({"tools": [], "nextCursor": c});
    }
    page
}

/// A server whose `tools/list` pages are `pages` (by cursor: the first has none) and whose
/// `tools/call` answers `call`, recording what each request carried.
fn tool_server(pages: Vec<Value>, call: Value) -> impl FnMut(&str, &Value, u64) -> Resp {
    let mut pages: VecDeque<Value> = pages.into();
    move |method, _params, _now| match method {
        "tools/list" => Resp::Ok(0, pages.pop_front().unwrap_or_else(|| json!({"tools": []}))),
        "tools/call" => Resp::Ok(0, call.clone()),
        _ => Resp::Never,
    }
}

fn call_opts(generation: Generation) -> CallSettings<Value> {
    CallSettings { generation, ..CallSettings::default() }
}

#[test]
fn call_tool_sends_task_only_for_a_tool_whose_task_support_allows_it() {
    let created = json!({"task": core_task("working")});
    for (support, task) in [("optional", true), ("required", true), ("forbidden", false)] {
        let mut sim = Sim::new(tool_server(vec![tools_page(support, None)], created.clone()));
        let out = sim.run(&mut CallTool::new("slow".into(), None, call_opts(CORE), 0));
        let call = &sim.requests.iter().find(|(_, m, _)| m == "tools/call").unwrap().2;
        assert_eq!(call.get("task").is_some(), task, "{support}: {call}");
        if task {
            assert_eq!(call["task"]["ttl"], 300_000, "the library's own ttl");
            assert_eq!(out["tag"], "task");
            assert_eq!(out["status"]["ttlMs"], 600_000, "{out}");
        }
    }
    // Not on the first page: the next is read. A server without task-augmented tools/call: no list.
    let mut sim =
        Sim::new(tool_server(vec![tools_page("optional", Some("c2")), tools_page("optional", None)], created.clone()));
    sim.run(&mut CallTool::new("slow".into(), None, call_opts(CORE), 0));
    assert_eq!(sim.times("tools/list").len(), 2, "{:#?}", sim.trace);
    assert!(sim.requests.iter().any(|(_, m, p)| m == "tools/call" && p.get("task").is_some()));
    let plain = json!({"content": [{"type": "text", "text": "hi"}]});
    let mut sim = Sim::new(tool_server(vec![], plain.clone()));
    let out =
        sim.run(&mut CallTool::new("slow".into(), None, call_opts(Generation::Core { tasks_for_tools: false }), 0));
    assert_eq!(out, json!({"tag": "ok", "result": plain}));
    assert!(sim.times("tools/list").is_empty() && sim.requests[0].2.get("task").is_none());
}

#[test]
fn call_and_await_asks_a_ttl_beyond_its_wait_deadline() {
    let mut sim = Sim::new(tool_server(vec![tools_page("optional", None)], json!({"task": core_task("working")})));
    let wait = WaitSettings {
        limits: TimeLimits { deadline_ms: Some(900_000), request_timeout_ms: None },
        ..wait_opts(InputMode::default())
    };
    let mut m = CallAndAwait::new("slow".into(), None, call_opts(CORE), wait, false, 0);
    sim.run_until(&mut m, 10);
    let call = &sim.requests.iter().find(|(_, m, _)| m == "tools/call").unwrap().2;
    assert_eq!(call["task"]["ttl"], 960_000, "{call}");
}

#[test]
fn a_plain_calls_own_request_goes_to_the_handler_and_is_answered() {
    let done = json!({"content": [{"type": "text", "text": "hello Ada"}]});
    let responses = Rc::new(RefCell::new(Vec::new()));
    let seen = responses.clone();
    let mut sim = Sim::new(move |method: &str, params: &Value, _| match method {
        "tools/call" => Resp::Ok(200, done.clone()),
        "response" => {
            seen.borrow_mut().push(params.clone());
            Resp::Ok(0, Value::Null)
        }
        _ => Resp::Never,
    })
    .handler(|_, _, _, _| Reaction::After(10, json!({"action": "accept", "content": {"name": "Ada"}})));
    let opts =
        CallSettings { input: InputMode::Handlers(FORM), ..call_opts(Generation::Core { tasks_for_tools: false }) };
    let mut c = CallTool::new("ask".into(), None, opts, 0);
    let mut plain_ask = ask(9, "none");
    plain_ask["params"].as_object_mut().unwrap().remove("_meta");
    sim.server_request_at(50, plain_ask);
    let out = sim.run(&mut c);
    assert_eq!(out["tag"], "ok", "{:#?}", sim.trace);
    assert_eq!(*responses.borrow(), vec![json!({"id": 9, "result": {"action": "accept", "content": {"name": "Ada"}}})]);
}

#[test]
fn update_task_answers_each_key_with_its_own_response_and_list_tasks_reads_a_page() {
    let responses = Rc::new(RefCell::new(Vec::new()));
    let seen = responses.clone();
    let mut sim = Sim::new(move |method: &str, params: &Value, _| match method {
        "response" => {
            seen.borrow_mut().push(params.clone());
            Resp::Ok(0, Value::Null)
        }
        "tasks/list" => Resp::Ok(0, json!({"tasks": [core_task("working")], "nextCursor": "c2"})),
        _ => Resp::Never,
    });
    let answers = json!({"4": {"action": "accept"}, "\"5\"": {"action": "decline"}, "x": {"action": "cancel"}});
    let call = Call::UpdateTaskRaw { task_id: "t1".into(), responses: answers };
    let out = sim.run(&mut Step::start(call, "t1".into(), TimeLimits::default(), Retry::default(), CORE, 0, 0));
    assert_eq!(out, json!({"tag": "ok"}));
    let mut ids: Vec<String> = responses.borrow().iter().map(|r| r["id"].to_string()).collect();
    ids.sort();
    assert_eq!(ids, ["\"5\"", "\"x\"", "4"], "a decimal key is the number id, a quoted one the string");
    let mut sim = Sim::new(|method: &str, _: &Value, _| match method {
        "tasks/list" => Resp::Ok(0, json!({"tasks": [core_task("working")], "nextCursor": "c2"})),
        _ => Resp::Never,
    });
    let out = sim.run(&mut Step::start(
        Call::ListTasks { cursor: None },
        String::new(),
        TimeLimits::default(),
        Retry::default(),
        CORE,
        0,
        0,
    ));
    assert_eq!(out["nextCursor"], "c2");
    assert_eq!(out["tasks"][0]["ttlMs"], 600_000, "{out}");
}

/// A machine behind [`Opening`]: the session first.
fn opening(timeout_ms: Option<u64>) -> Opening<Value> {
    let build = Box::new(|generation: Generation, since, now| -> Box<dyn Machine<Value>> {
        let opts = WaitSettings {
            limits: TimeLimits { deadline_ms: Some(1_000), request_timeout_ms: None },
            generation,
            ..WaitSettings::default()
        };
        Box::new(Wait::start(TaskRef::TaskId("t1".into()), opts, &[], now, since, false).unwrap())
    });
    Opening::new(build, timeout_ms, ("taskId", "t1".into()), 0)
}

#[test]
fn the_session_comes_first_and_its_deadline_counts_from_the_call() {
    // Nothing is sent before the session; once it is found the machine of its generation runs, its
    // deadline counted from the call's start.
    let (_, f) = server(vec![core_task("working")], None);
    let mut sim = Sim::new(f);
    let mut m = opening(Some(1_000));
    sim.run_until(&mut m, 300);
    assert!(sim.requests.is_empty(), "{:#?}", sim.trace);
    m.handle(300, Event::Session(Ok(json!({"generation": "2025-11-25", "capabilities": {}}))));
    let out = sim.run(&mut m);
    assert!(sim.trace.iter().any(|l| l.contains("speak 2025-11-25")), "{:#?}", sim.trace);
    assert_eq!(out["error"]["cause"]["type"], "timeout", "{out}");
    assert_eq!(sim.finished_at, Some(1_000), "the deadline counts from the call's start");
    // A session that is never found ends at the deadline; one that fails ends with its failure.
    let mut sim = Sim::new(|_: &str, _: &Value, _| Resp::Never);
    let out = sim.run(&mut opening(Some(500)));
    assert_eq!((out["error"]["code"].as_i64(), sim.finished_at), (Some(-32001), Some(500)), "{out}");
    let mut sim = Sim::new(|_: &str, _: &Value, _| Resp::Never);
    let mut m = opening(Some(500));
    m.handle(10, Event::Session(Err(json!({"code": -32603, "message": "no"}))));
    let out = sim.run(&mut m);
    assert_eq!(
        (out["error"]["kind"].as_str(), out["error"]["cause"]["method"].as_str()),
        (Some("server"), Some("session")),
        "{out}"
    );
}

#[test]
fn a_wait_that_ends_before_its_session_carries_its_task_a_step_does_not() {
    // A wait (awaitTask on a known task): its timeout and its session's failure name the task.
    let mut sim = Sim::new(|_: &str, _: &Value, _| Resp::Never);
    let out = sim.run(&mut opening(Some(500)).waiting());
    assert_eq!((&out["tag"], &out["taskId"]), (&json!("error"), &json!("t1")), "{out}");
    assert!(out.get("status").is_none(), "no status read: {out}");
    let mut m = opening(Some(500)).waiting();
    m.handle(10, Event::Session(Err(json!({"code": -32603, "message": "no"}))));
    let out = Sim::new(|_: &str, _: &Value, _| Resp::Never).run(&mut m);
    assert_eq!(out["taskId"], "t1", "{out}");
    // Any other call (a step, a tool call): the error alone.
    let out = Sim::new(|_: &str, _: &Value, _| Resp::Never).run(&mut opening(Some(500)));
    assert!(out.get("taskId").is_none(), "{out}");
}
