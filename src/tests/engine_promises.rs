//! The input rounds' promises on simulated time: one ask and one update per round whatever the handler
//! timings, the listen acknowledgement bounded like any request, seeds without payload read at once,
//! `input: "return"` before any parsing, failed updates re-sent (never re-asked), safety reads of a
//! silent stream, and `callAndAwait` as one machine.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)]

use super::sim;

use crate::engine::both::CallAndAwait;
use crate::engine::call::CallSettings;
use crate::engine::settings::{HandlerSet, InputMode, TimeLimits, WaitSettings};
use crate::engine::wait::{TaskRef, Wait};
use crate::engine::{AbortScope, Event, Machine, StreamEvent};
use serde_json::{json, Value};
use sim::{get_result, task_with, Reaction, Resp, Sim};
use std::cell::RefCell;
use std::rc::Rc;

const ALL: HandlerSet = HandlerSet { form: true, url: true, sampling: true, roots: true };

fn form(message: &str) -> Value {
    json!({"method": "elicitation/create", "params": {"message": message, "requestedSchema": {"type": "object", "properties": {"v": {"type": "string"}}}}})
}

fn asking(requests: Value) -> Value {
    task_with("t1", "input_required", json!({"pollIntervalMs": 100, "inputRequests": requests}))
}

fn done() -> Value {
    task_with("t1", "completed", json!({"result": {"content": []}}))
}

fn accept() -> Value {
    json!({"tag": "ok", "response": {"action": "accept", "content": {"v": "x"}}})
}

/// A server that answers `tasks/get` with `asking(a, b)` until an update named both keys, then done.
struct Recorder {
    updates: RefCell<Vec<Vec<String>>>,
    update_failures: RefCell<u32>,
}

fn two_key_server(rec: Rc<Recorder>) -> impl FnMut(&str, &Value, u64) -> Resp {
    let mut answered: Vec<String> = Vec::new();
    move |method, params, _| match method {
        "tasks/get" if answered.len() >= 2 => Resp::Ok(0, get_result(done())),
        "tasks/get" => Resp::Ok(0, get_result(asking(json!({"a": form("A?"), "b": form("B?")})))),
        "tasks/update" => {
            let keys: Vec<String> = params["inputResponses"].as_object().unwrap().keys().cloned().collect();
            rec.updates.borrow_mut().push(keys.clone());
            if *rec.update_failures.borrow() > 0 {
                *rec.update_failures.borrow_mut() -= 1;
                return Resp::Fail(5, json!({"message": "connection reset"}));
            }
            answered.extend(keys);
            Resp::Ok(0, json!({"resultType": "complete"}))
        }
        _ => Resp::Never,
    }
}

fn uneven_handlers() -> impl FnMut(Option<crate::proto::input::InputKind>, &str, &Value, u64) -> Reaction {
    |_, key, _, _| Reaction::After(if key == "a" { 10 } else { 350 }, accept())
}

/// A wait on "t1" answering through every handler kind.
fn handler_wait() -> Wait<Value> {
    Wait::new(
        TaskRef::TaskId("t1".into()),
        WaitSettings { input: InputMode::Handlers(ALL), ..WaitSettings::default() },
        0,
    )
    .unwrap()
}

fn recorder(update_failures: u32) -> Rc<Recorder> {
    Rc::new(Recorder { updates: RefCell::new(Vec::new()), update_failures: RefCell::new(update_failures) })
}

fn asks(sim: &Sim) -> Vec<String> {
    sim.trace.iter().filter(|t| t.contains(" ask ")).cloned().collect()
}

#[test]
fn one_round_with_handlers_finishing_at_different_times_asks_each_key_once_and_sends_one_update() {
    let rec = recorder(0);
    let mut sim = Sim::new(two_key_server(rec.clone())).handler(uneven_handlers());
    let mut w = handler_wait();
    assert_eq!(sim.run(&mut w)["tag"], "ok");
    assert_eq!(asks(&sim), ["0 ask form a", "0 ask form b"], "{:?}", sim.trace);
    assert_eq!(*rec.updates.borrow(), [vec!["a".to_owned(), "b".to_owned()]]);
    // Polls went on every 100 ms while "b" was being answered.
    assert!(sim.times("tasks/get").starts_with(&[0, 100, 200, 300]));
}

#[test]
fn the_same_holds_for_input_requests_pushed_on_a_listen_stream() {
    let rec = recorder(0);
    let ask = |updated: &str| {
        let mut t = asking(json!({"a": form("A?"), "b": form("B?")}));
        t["lastUpdatedAt"] = json!(format!("2026-09-01T08:00:0{updated}Z"));
        t["_meta"] = json!({"io.modelcontextprotocol/subscriptionId": 1});
        StreamEvent::Message(json!({"jsonrpc": "2.0", "method": "notifications/tasks", "params": t}))
    };
    let ack = StreamEvent::Message(
        json!({"jsonrpc": "2.0", "method": "notifications/subscriptions/acknowledged", "params": {"notifications": {"taskIds": ["t1"]}}}),
    );
    let mut fin = done();
    fin["lastUpdatedAt"] = json!("2026-09-01T08:00:09Z");
    let fin = StreamEvent::Message(json!({"jsonrpc": "2.0", "method": "notifications/tasks", "params": fin}));
    let mut sim = Sim::new(two_key_server(rec.clone())).handler(uneven_handlers()).stream(vec![
        (1, ack),
        (20, ask("1")),
        (120, ask("2")),
        (220, ask("3")),
        (500, fin),
    ]);
    let o = WaitSettings { listen: true, input: InputMode::Handlers(ALL), ..WaitSettings::default() };
    let mut w = Wait::new(TaskRef::TaskId("t1".into()), o, 0).unwrap();
    assert_eq!(sim.run(&mut w)["tag"], "ok");
    let asked: Vec<String> = asks(&sim).iter().map(|t| t.split(' ').skip(1).collect::<Vec<_>>().join(" ")).collect();
    assert_eq!(asked, ["ask form a", "ask form b"], "{:?}", sim.trace);
    assert_eq!(*rec.updates.borrow(), [vec!["a".to_owned(), "b".to_owned()]]);
}

#[test]
fn a_failed_update_is_read_then_resent_once_without_asking_again() {
    let rec = recorder(1);
    let mut sim = Sim::new(two_key_server(rec.clone())).handler(uneven_handlers());
    let mut w = handler_wait();
    assert_eq!(sim.run(&mut w)["tag"], "ok", "{:?}", sim.trace);
    assert_eq!(asks(&sim).len(), 2, "never re-asked: {:?}", sim.trace);
    assert_eq!(rec.updates.borrow().len(), 2, "sent, failed, read, sent again");

    // A second failure of the re-sent update ends the wait with that transport error.
    let rec = recorder(2);
    let mut sim = Sim::new(two_key_server(rec.clone())).handler(uneven_handlers());
    let mut w = handler_wait();
    let out = sim.run(&mut w);
    assert_eq!(out["error"]["cause"]["type"], "request_failed");
    assert_eq!(out["error"]["cause"]["method"], "tasks/update");
    assert_eq!(asks(&sim).len(), 2);
}

#[test]
fn the_listen_acknowledgement_is_bounded_by_the_request_timeout() {
    let o = WaitSettings {
        listen: true,
        limits: TimeLimits { deadline_ms: Some(60_000), request_timeout_ms: Some(100) },
        retry: crate::engine::settings::Retry { retries: 0, ..Default::default() },
        ..WaitSettings::default()
    };
    let mut sim = Sim::new(|m: &str, _: &Value, _| match m {
        "tasks/get" => Resp::Ok(0, get_result(done())),
        _ => Resp::Never,
    })
    .stream(vec![]); // opens, never acknowledges
    let mut w = Wait::new(TaskRef::TaskId("t1".into()), o, 0).unwrap();
    assert_eq!(sim.run(&mut w)["tag"], "ok");
    assert_eq!(sim.trace[..3], ["0 listen", "100 close stream", "100 tasks/get (timeout 100)"], "{:?}", sim.trace);
}

#[test]
fn a_seed_without_its_payload_is_read_at_once_in_listen_mode_too() {
    for task in [task_with("t1", "completed", json!({})), task_with("t1", "failed", json!({}))] {
        let mut sim = Sim::new(|m: &str, _: &Value, _| match m {
            "tasks/get" => Resp::Ok(0, get_result(done())),
            _ => Resp::Never,
        });
        let mut w =
            Wait::new(TaskRef::Status(task), WaitSettings { listen: true, ..WaitSettings::default() }, 0).unwrap();
        assert_eq!(sim.run(&mut w)["tag"], "ok");
        assert!(!sim.trace.iter().any(|t| t.ends_with("listen")), "no stream: {:?}", sim.trace);
        assert_eq!(sim.times("tasks/get"), [0]);
    }
}

#[test]
fn input_return_gives_the_status_back_whatever_the_requests_hold() {
    let broken = asking(
        json!({"k": "not an object", "u": {"method": "elicitation/create", "params": {"mode": "url", "url": "javascript:x"}}}),
    );
    let mut sim = Sim::new(move |_: &str, _: &Value, _| Resp::Ok(0, get_result(broken.clone())));
    let mut w = Wait::new(
        TaskRef::TaskId("t1".into()),
        WaitSettings { input: InputMode::Return, ..WaitSettings::default() },
        0,
    )
    .unwrap();
    let out = sim.run(&mut w);
    assert_eq!(out["tag"], "input_required");
}

#[test]
fn elicitation_and_sampling_requests_without_params_are_protocol_errors() {
    for request in
        [json!({"method": "elicitation/create"}), json!({"method": "sampling/createMessage", "params": null})]
    {
        let status = asking(json!({"k": request}));
        let mut sim = Sim::new(move |_: &str, _: &Value, _| Resp::Ok(0, get_result(status.clone())))
            .handler(|_, _, _, _| panic!("no handler may see null params"));
        let mut w = handler_wait();
        let out = sim.run(&mut w);
        assert_eq!(out["error"]["kind"], "protocol");
        assert!(out["error"]["message"].as_str().unwrap().contains("has no params"));
    }
    // roots/list without params hands its handler {}.
    let status = asking(json!({"r": {"method": "roots/list"}}));
    let seen = Rc::new(RefCell::new(Value::Null));
    let s = seen.clone();
    let mut sim =
        Sim::new(move |_: &str, _: &Value, _| Resp::Ok(0, get_result(status.clone()))).handler(move |_, _, p, _| {
            *s.borrow_mut() = p.clone();
            Reaction::Never
        });
    let o = WaitSettings {
        input: InputMode::Handlers(ALL),
        limits: TimeLimits { deadline_ms: Some(50), request_timeout_ms: None },
        ..WaitSettings::default()
    };
    let mut w = Wait::new(TaskRef::TaskId("t1".into()), o, 0).unwrap();
    sim.run(&mut w);
    assert_eq!(*seen.borrow(), json!({}));
}

#[test]
fn a_silent_open_stream_gets_a_safety_read_every_listen_check() {
    let ack = StreamEvent::Message(
        json!({"jsonrpc": "2.0", "method": "notifications/subscriptions/acknowledged", "params": {"notifications": {"taskIds": ["t1"]}}}),
    );
    let mut n = 0;
    let mut sim = Sim::new(move |m: &str, _: &Value, _| match m {
        "tasks/get" => {
            n += 1;
            let t = if n < 3 { task_with("t1", "working", json!({})) } else { done() };
            Resp::Ok(0, get_result(t))
        }
        _ => Resp::Never,
    })
    .stream(vec![(5, ack)]);
    let o = WaitSettings { listen: true, listen_check_ms: 1000, ..WaitSettings::default() };
    let mut w = Wait::new(TaskRef::TaskId("t1".into()), o, 0).unwrap();
    assert_eq!(sim.run(&mut w)["tag"], "ok");
    assert_eq!(sim.times("tasks/get"), [5, 1005, 2005]);
}

#[test]
fn call_and_await_is_one_machine_and_each_signal_governs_its_part() {
    let created = json!({"resultType": "task", "taskId": "t1", "status": "working", "pollIntervalMs": 100, "ttlMs": null, "createdAt": "x", "lastUpdatedAt": "x"});
    let server = move |m: &str, _: &Value, _| match m {
        "tools/call" => Resp::Ok(10, created.clone()),
        "tasks/get" => Resp::Ok(0, get_result(done())),
        _ => Resp::Never,
    };
    let mut sim = Sim::new(server.clone());
    let wait = WaitSettings {
        limits: TimeLimits { deadline_ms: Some(5000), request_timeout_ms: None },
        ..WaitSettings::default()
    };
    let mut m = CallAndAwait::new("slow".into(), None, CallSettings::default(), wait, false, 0);
    assert_eq!(sim.run(&mut m)["tag"], "ok");
    assert_eq!(sim.times("tasks/get"), [110]);
    assert_eq!(sim.trace.last().unwrap(), "110 resolve ok");

    // The wait's own signal aborting during the call ends the wait as it starts (and nothing before).
    let mut sim = Sim::new(server.clone());
    let mut m = CallAndAwait::new("slow".into(), None, CallSettings::default(), wait, false, 0);
    m.handle(2, Event::Abort { reason: json!("stop"), scope: AbortScope::Wait });
    assert_eq!(sim.run(&mut m), json!({"rejected": "stop"}));
    assert_eq!(sim.times("tasks/get"), Vec::<u64>::new());

    // The call's own signal no longer governs the wait once the wait has its own.
    let mut sim = Sim::new(server);
    let mut m = CallAndAwait::new("slow".into(), None, CallSettings::default(), wait, false, 0);
    sim.run_until(&mut m, 50);
    m.handle(50, Event::Abort { reason: json!("late"), scope: AbortScope::Call });
    assert_eq!(sim.run(&mut m)["tag"], "ok");
}

#[test]
fn a_stop_during_call_and_await_never_cancels_the_task_whichever_part_runs() {
    let created = json!({"resultType": "task", "taskId": "t1", "status": "working", "pollIntervalMs": 100, "ttlMs": null, "createdAt": "x", "lastUpdatedAt": "x"});
    let server = move |m: &str, _: &Value, _| match m {
        "tools/call" => Resp::Ok(10, created.clone()),
        _ => Resp::Never,
    };
    let wait = WaitSettings { cancel_on_abort: true, ..WaitSettings::default() };
    for at in [5, 50] {
        let mut sim = Sim::new(server.clone());
        sim.abort_scoped_at(at, json!("store failed"), AbortScope::Stop);
        let mut m = CallAndAwait::new("slow".into(), None, CallSettings::default(), wait, false, 0);
        assert_eq!(sim.run(&mut m), json!({"rejected": "store failed"}), "stop at {at}");
        assert!(sim.detached.is_empty(), "stop at {at}: {:?}", sim.detached);
        // The caller's own abort at the same moment of the wait does cancel (the rule the stop is exempt from).
        let mut sim = Sim::new(server.clone());
        sim.abort_at(at, json!("stop"));
        let mut m = CallAndAwait::new("slow".into(), None, CallSettings::default(), wait, false, 0);
        assert_eq!(sim.run(&mut m), json!({"rejected": "stop"}));
        assert_eq!(sim.detached.len(), usize::from(at > 10), "abort at {at}: {:?}", sim.detached);
    }
}

#[test]
fn a_resumed_wait_never_asks_a_key_answered_before_and_sends_an_unacknowledged_answer_once() {
    let rec = recorder(0);
    let mut sim = Sim::new(two_key_server(rec.clone())).handler(|_, key, _, _| {
        assert_ne!(key, "a", "a was answered before the restart");
        assert_ne!(key, "b", "b's answer was stored: it is sent, not asked");
        Reaction::Never
    });
    let answered = [("a".to_owned(), None), ("b".to_owned(), Some(json!({"action": "accept", "content": {"v": "y"}})))];
    let o = WaitSettings { input: InputMode::Handlers(ALL), ..WaitSettings::default() };
    let mut w = Wait::resume(TaskRef::TaskId("t1".into()), o, &answered, 0).unwrap();
    let out = sim.run(&mut w);
    assert_eq!(asks(&sim), Vec::<String>::new());
    // Only "b" is sent (once); "a" stays outstanding on this server, so the wait times out.
    assert_eq!(*rec.updates.borrow(), [vec!["b".to_owned()]]);
    assert_eq!(out["error"]["cause"]["type"], "timeout");
}
