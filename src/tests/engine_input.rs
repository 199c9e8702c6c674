//! Input handling in awaitTask, on simulated time: handlers, "return", the input function, dedupe,
//! rounds, timing against polls and the deadline, every invalid answer, exceptions.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)]

use super::sim;

use crate::engine::settings::{HandlerSet, InputMode, ReadChunk, TimeLimits, WaitSettings, DEFAULT_READ_CHUNK};
use crate::engine::wait::{TaskRef, Wait};
use crate::proto::input::InputKind;
use serde_json::{json, Value};
use sim::{get_result, next_or_last, task_with, Reaction, Resp, Sim};
use std::cell::RefCell;
use std::collections::VecDeque;
use std::rc::Rc;

const ALL: HandlerSet = HandlerSet { form: true, url: true, sampling: true, roots: true };

fn handlers(set: HandlerSet) -> WaitSettings {
    WaitSettings { input: InputMode::Handlers(set), ..WaitSettings::default() }
}

fn form(message: &str) -> Value {
    json!({"method": "elicitation/create", "params": {"mode": "form", "message": message, "requestedSchema": {"type": "object", "properties": {"name": {"type": "string"}}}}})
}

fn asking(requests: Value) -> Value {
    get_result(task_with("t1", "input_required", json!({"pollIntervalMs": 100, "inputRequests": requests})))
}

fn working() -> Value {
    get_result(task_with("t1", "working", json!({"pollIntervalMs": 100})))
}

fn done() -> Value {
    get_result(task_with("t1", "completed", json!({"result": {"content": [{"type": "text", "text": "ok"}]}})))
}

fn accept(name: &str) -> Value {
    json!({"tag": "ok", "response": {"action": "accept", "content": {"name": name}}})
}

/// A server whose tasks/get answers follow `gets` (the last repeats) and that records updates.
struct Script {
    gets: RefCell<VecDeque<Value>>,
    updates: RefCell<Vec<Value>>,
    update_answer: RefCell<Option<(i64, &'static str)>>,
}

fn server(gets: Vec<Value>) -> (Rc<Script>, impl FnMut(&str, &Value, u64) -> Resp) {
    let s = Rc::new(Script {
        gets: RefCell::new(gets.into()),
        updates: RefCell::new(Vec::new()),
        update_answer: RefCell::new(None),
    });
    let script = s.clone();
    let f = move |method: &str, params: &Value, _now: u64| match method {
        "tasks/get" => Resp::Ok(0, next_or_last(&script.gets)),
        "tasks/update" => {
            script.updates.borrow_mut().push(params["inputResponses"].clone());
            match *script.update_answer.borrow() {
                Some((code, msg)) => Resp::Err(0, code, msg),
                None => Resp::Ok(0, json!({"resultType": "complete"})),
            }
        }
        _ => Resp::Never,
    };
    (s, f)
}

fn run(sim: &mut Sim, o: WaitSettings) -> Value {
    let mut w = Wait::new(TaskRef::TaskId("t1".into()), o, 0).unwrap();
    sim.run(&mut w)
}

#[test]
fn a_form_handler_answers_and_polling_goes_on_while_it_runs() {
    let (script, f) = server(vec![
        asking(json!({"name": form("Name?")})),
        asking(json!({"name": form("Name?")})),
        asking(json!({"name": form("Name?")})),
        working(),
        done(),
    ]);
    let mut sim = Sim::new(f).handler(|kind, key, params, _| {
        assert_eq!((kind, key), (Some(InputKind::Form), "name"));
        assert_eq!(params["message"], "Name?");
        Reaction::After(250, accept("Ada"))
    });
    let out = run(&mut sim, handlers(ALL));
    assert_eq!(out["tag"], "ok");
    assert_eq!(
        sim.trace,
        [
            "0 tasks/get (timeout 60000)",
            "0 status input_required",
            "0 ask form name",
            "100 tasks/get (timeout 59900)",
            "200 tasks/get (timeout 59800)",
            "250 tasks/update [name] (timeout 59750)",
            "300 tasks/get (timeout 59700)",
            "300 status working",
            "400 tasks/get (timeout 59600)",
            "400 status completed",
            "400 resolve ok",
        ]
    );
    assert_eq!(*script.updates.borrow(), [json!({"name": {"action": "accept", "content": {"name": "Ada"}}})]);
}

#[test]
fn a_request_with_no_handler_for_its_kind_is_returned_and_no_handler_runs() {
    let requests = json!({"name": form("?"), "s": {"method": "sampling/createMessage", "params": {"messages": [], "maxTokens": 5}}});
    let (script, f) = server(vec![asking(requests.clone())]);
    let mut sim = Sim::new(f).handler(|_, _, _, _| panic!("no handler may run"));
    let out = run(&mut sim, handlers(HandlerSet { form: true, ..HandlerSet::default() }));
    assert_eq!(out["tag"], "input_required");
    assert_eq!(out["status"]["inputRequests"], requests);
    assert!(script.updates.borrow().is_empty());
    assert!(!sim.trace.iter().any(|t| t.contains(" ask ")));
}

#[test]
fn unknown_methods_and_modes_have_no_handler() {
    for request in [
        json!({"method": "tools/call", "params": {}}),
        json!({"method": "elicitation/create", "params": {"mode": "carrier-pigeon", "message": "?"}}),
    ] {
        let (_, f) = server(vec![asking(json!({"k": request}))]);
        let mut sim = Sim::new(f);
        assert_eq!(run(&mut sim, handlers(ALL))["tag"], "input_required");
    }
}

#[test]
fn return_mode_gives_the_status_back_at_once() {
    let (_, f) = server(vec![asking(json!({"name": form("?")}))]);
    let mut sim = Sim::new(f).handler(|_, _, _, _| panic!("no handler may run"));
    let out = run(&mut sim, WaitSettings { input: InputMode::Return, ..WaitSettings::default() });
    assert_eq!(out["tag"], "input_required");
    assert_eq!(sim.finished_at, Some(0));
}

#[test]
fn each_handler_kind_gets_its_requests() {
    let requests = json!({
        "f": form("?"),
        "u": {"method": "elicitation/create", "params": {"mode": "url", "message": "consent", "url": "https://example.com/x"}},
        "s": {"method": "sampling/createMessage", "params": {"messages": [], "maxTokens": 5}},
        "r": {"method": "roots/list"},
    });
    let (script, f) = server(vec![asking(requests), done()]);
    let mut sim = Sim::new(f).handler(|kind, _, _, _| {
        let response = match kind.unwrap() {
            InputKind::Form => json!({"action": "decline"}),
            InputKind::Url => json!({"action": "accept"}),
            InputKind::Sampling => {
                json!({"role": "assistant", "content": {"type": "text", "text": "hi"}, "model": "m"})
            }
            InputKind::Roots => json!({"roots": [{"uri": "file:///home", "name": "home"}]}),
        };
        Reaction::After(10, json!({"tag": "ok", "response": response}))
    });
    let out = run(&mut sim, handlers(ALL));
    assert_eq!(out["tag"], "ok");
    let asked: Vec<&String> = sim.trace.iter().filter(|t| t.contains(" ask ")).collect();
    assert_eq!(asked, ["0 ask form f", "0 ask roots r", "0 ask sampling s", "0 ask url u"]);
    // All four answers of the round go out in one tasks/update.
    assert_eq!(script.updates.borrow().len(), 1);
    assert_eq!(script.updates.borrow()[0].as_object().unwrap().len(), 4);
}

#[test]
fn answered_keys_are_never_asked_or_sent_again_while_the_server_still_lists_them() {
    let a = asking(json!({"name": form("?")}));
    let (script, f) = server(vec![a.clone(), a.clone(), a.clone(), a, done()]);
    let asks = Rc::new(RefCell::new(0));
    let counter = asks.clone();
    let mut sim = Sim::new(f).handler(move |_, _, _, _| {
        *counter.borrow_mut() += 1;
        Reaction::After(0, accept("Ada"))
    });
    assert_eq!(run(&mut sim, handlers(ALL))["tag"], "ok");
    assert_eq!(*asks.borrow(), 1);
    assert_eq!(script.updates.borrow().len(), 1);
    assert_eq!(sim.times("tasks/get"), [0, 100, 200, 300, 400]);
}

#[test]
fn two_input_rounds_get_two_updates() {
    let age = json!({"method": "elicitation/create", "params": {"message": "Age?", "requestedSchema": {"type": "object", "properties": {}}}});
    let (script, f) = server(vec![asking(json!({"name": form("?")})), working(), asking(json!({"age": age})), done()]);
    let mut sim = Sim::new(f).handler(|_, key, _, _| {
        Reaction::After(5, json!({"tag": "ok", "response": {"action": "accept", "content": {key: 1}}}))
    });
    assert_eq!(run(&mut sim, handlers(ALL))["tag"], "ok");
    assert_eq!(
        *script.updates.borrow(),
        [
            json!({"name": {"action": "accept", "content": {"name": 1}}}),
            json!({"age": {"action": "accept", "content": {"age": 1}}})
        ]
    );
}

#[test]
fn a_handler_still_running_when_the_task_completes_is_stopped_and_never_answers() {
    let (script, f) = server(vec![asking(json!({"name": form("?")})), done()]);
    let mut sim = Sim::new(f).handler(|_, _, _, _| Reaction::After(500, accept("late")));
    let out = run(&mut sim, handlers(ALL));
    assert_eq!(out["tag"], "ok");
    assert_eq!(
        sim.trace[3..],
        ["100 tasks/get (timeout 59900)", "100 status completed", "100 stop ask", "100 resolve ok"]
    );
    assert!(script.updates.borrow().is_empty());
}

#[test]
fn a_handler_whose_key_disappears_is_stopped_and_the_wait_goes_on() {
    let (script, f) = server(vec![asking(json!({"name": form("?")})), working(), done()]);
    let mut sim = Sim::new(f).handler(|_, _, _, _| Reaction::After(500, accept("late")));
    let out = run(&mut sim, handlers(ALL));
    assert_eq!(out["tag"], "ok");
    assert!(sim.trace.contains(&"100 stop ask".to_owned()), "{:?}", sim.trace);
    assert!(script.updates.borrow().is_empty());
    assert_eq!(sim.finished_at, Some(200));
}

#[test]
fn the_deadline_stops_a_running_handler() {
    let (_, f) = server(vec![asking(json!({"name": form("?")}))]);
    let mut sim = Sim::new(f).handler(|_, _, _, _| Reaction::Never);
    let o = WaitSettings { limits: TimeLimits { deadline_ms: Some(350), request_timeout_ms: None }, ..handlers(ALL) };
    let out = run(&mut sim, o);
    assert_eq!(out["error"]["code"], -32001);
    assert_eq!(out["error"]["cause"]["status"]["status"], "input_required");
    assert_eq!(sim.trace[sim.trace.len() - 2..], ["350 stop ask", "350 resolve error"]);
}

#[test]
fn a_handler_error_stops_the_wait_as_an_execution_error() {
    let (_, f) = server(vec![asking(json!({"name": form("?")}))]);
    let mut sim =
        Sim::new(f).handler(|_, _, _, _| Reaction::After(20, json!({"tag": "error", "reason": "user closed the tab"})));
    let out = run(&mut sim, handlers(ALL));
    assert_eq!(out["error"]["code"], -32603);
    assert_eq!(out["error"]["kind"], "execution");
    let cause = &out["error"]["cause"];
    assert_eq!(
        (&cause["type"], &cause["key"], &cause["reason"]),
        (&json!("input_handler"), &json!("name"), &json!("user closed the tab"))
    );
    assert_eq!(cause["status"]["status"], "input_required");
}

#[test]
fn every_invalid_answer_is_refused_before_it_is_sent() {
    let sampling = json!({"method": "sampling/createMessage", "params": {"messages": [], "maxTokens": 5}});
    let roots = json!({"method": "roots/list"});
    let cases = [
        (form("?"), json!({"action": "maybe"})),
        (form("?"), json!({"action": "decline", "content": {"name": "x"}})),
        (form("?"), json!({"action": "accept", "content": {"name": {"nested": true}}})),
        (form("?"), json!({"action": "accept", "content": "Ada"})),
        (form("?"), json!(null)),
        (sampling.clone(), json!({"role": "assistant", "content": {"type": "text", "text": "x"}})),
        (sampling.clone(), json!({"role": "robot", "content": {"type": "text"}, "model": "m"})),
        (sampling.clone(), json!({"role": "assistant", "content": [], "model": "m"})),
        (sampling, json!({"role": "assistant", "content": "text", "model": "m"})),
        (roots.clone(), json!({"roots": [{"uri": "https://x"}]})),
        (roots.clone(), json!({"roots": [{"uri": "file:///x", "name": 5}]})),
        (roots, json!({})),
    ];
    for (request, response) in cases {
        let (script, f) = server(vec![asking(json!({"k": request}))]);
        let r = response.clone();
        let mut sim =
            Sim::new(f).handler(move |_, _, _, _| Reaction::After(0, json!({"tag": "ok", "response": r.clone()})));
        let out = run(&mut sim, handlers(ALL));
        assert_eq!(out["error"]["kind"], "execution", "{response}");
        assert_eq!(out["error"]["cause"]["reason"], json!({"type": "invalid_response", "response": response}));
        assert!(script.updates.borrow().is_empty());
    }
}

#[test]
fn an_answer_that_is_neither_a_tagged_outcome_nor_a_plain_result_is_refused() {
    let cases = [
        json!(null),
        json!({"tag": "maybe"}),
        json!({"tag": 5, "action": "accept"}),
        json!([{"action": "accept"}]),
        json!("accept"),
    ];
    for answer in cases {
        let (_, f) = server(vec![asking(json!({"name": form("?")}))]);
        let a = answer.clone();
        let mut sim = Sim::new(f).handler(move |_, _, _, _| Reaction::After(0, a.clone()));
        let out = run(&mut sim, handlers(ALL));
        assert_eq!(out["error"]["cause"]["reason"], json!({"type": "invalid_outcome", "outcome": answer}));
    }
}

#[test]
fn a_handler_exception_rejects_with_that_exception() {
    let (_, f) = server(vec![asking(json!({"name": form("?")}))]);
    let mut sim = Sim::new(f).handler(|_, _, _, _| Reaction::Throw(30, json!({"boom": 1})));
    let out = run(&mut sim, handlers(ALL));
    assert_eq!(out, json!({"rejected": {"boom": 1}}));
    assert!(sim.trace.iter().any(|t| t == "30 abort request" || t == "30 reject"));
}

#[test]
fn a_url_elicitation_that_is_not_http_never_reaches_a_handler() {
    for url in [
        "javascript:alert(1)",
        "file:///etc/passwd",
        "https://",
        "data:text/html,x",
        "http://exa mple.com",
        "https://good.example@evil.example",
        "https://user:pw@evil.example/x",
        "https:///path-only",
        "ftp://example.com",
    ] {
        let request = json!({"method": "elicitation/create", "params": {"mode": "url", "message": "go", "url": url}});
        let (_, f) = server(vec![asking(json!({"u": request}))]);
        let mut sim = Sim::new(f).handler(|_, _, _, _| panic!("must not reach a handler"));
        let out = run(&mut sim, handlers(ALL));
        assert_eq!(out["error"]["kind"], "protocol", "{url}");
        assert!(out["error"]["message"].as_str().unwrap().contains("not a safe http(s) URL"), "{url}");
    }
}

#[test]
fn malformed_input_requests_are_protocol_errors() {
    for request in [json!("ask"), json!({"params": {}}), json!({"method": "roots/list", "params": 5})] {
        let (_, f) = server(vec![asking(json!({"k": request}))]);
        let mut sim = Sim::new(f);
        assert_eq!(run(&mut sim, handlers(ALL))["error"]["kind"], "protocol");
    }
}

#[test]
fn empty_input_requests_keep_the_wait_polling() {
    let (_, f) = server(vec![asking(json!({})), done()]);
    let mut sim = Sim::new(f);
    assert_eq!(run(&mut sim, handlers(ALL))["tag"], "ok");
}

#[test]
fn the_input_function_is_asked_each_key_once_and_may_answer_part() {
    let both = asking(json!({"a": form("A?"), "b": form("B?")}));
    let (script, f) = server(vec![both.clone(), both, asking(json!({"b": form("B?")})), done()]);
    let calls = Rc::new(RefCell::new(Vec::new()));
    let seen = calls.clone();
    let mut sim = Sim::new(f).handler(move |kind, keys, status, _| {
        assert_eq!(kind, None);
        assert_eq!(status["taskId"], "t1");
        seen.borrow_mut().push(keys.to_owned());
        let first = keys.split(',').next().unwrap().to_owned();
        Reaction::After(10, json!({"tag": "ok", "responses": {first: {"action": "accept", "content": {"v": 1}}, "zz-not-asked": {"action": "cancel"}}}))
    });
    let out = run(&mut sim, WaitSettings { input: InputMode::Function, ..WaitSettings::default() });
    assert_eq!(out["tag"], "ok");
    // "b" was handed to the function once; left out of its answer, it is not asked again this wait.
    assert_eq!(*calls.borrow(), ["a,b"]);
    let updates: Vec<Vec<String>> =
        script.updates.borrow().iter().map(|u| u.as_object().unwrap().keys().cloned().collect()).collect();
    assert_eq!(updates, [vec!["a".to_owned()]]);
}

#[test]
fn a_handler_may_answer_with_the_plain_result_checked_as_a_tagged_response_is() {
    let sampling = json!({"method": "sampling/createMessage", "params": {"messages": [], "maxTokens": 5}});
    let roots = json!({"method": "roots/list"});
    let message = json!({"role": "assistant", "content": {"type": "text", "text": "hi"}, "model": "m"});
    let cases = [
        (form("?"), json!({"action": "accept", "content": {"name": "Ada"}})),
        (form("?"), json!({"action": "decline"})),
        (form("?"), json!({"action": "cancel"})),
        (sampling, message),
        (roots, json!({"roots": [{"uri": "file:///x"}]})),
    ];
    for (request, response) in cases {
        let (script, f) = server(vec![asking(json!({"k": request})), done()]);
        let r = response.clone();
        let mut sim = Sim::new(f).handler(move |_, _, _, _| Reaction::After(0, r.clone()));
        assert_eq!(run(&mut sim, handlers(ALL))["tag"], "ok", "{response}");
        assert_eq!(*script.updates.borrow(), [json!({"k": response})], "sent as it came");
    }
    // An invalid plain result is refused before it is sent, as an invalid tagged response is.
    let (script, f) = server(vec![asking(json!({"k": form("?")}))]);
    let mut sim = Sim::new(f).handler(|_, _, _, _| Reaction::After(0, json!({"action": "maybe"})));
    let out = run(&mut sim, handlers(ALL));
    assert_eq!(out["error"]["cause"]["reason"], json!({"type": "invalid_response", "response": {"action": "maybe"}}));
    assert!(script.updates.borrow().is_empty());
    // The input function answers many keys: only `{tag: "ok", responses}` (a plain map is ambiguous).
    let (_, f) = server(vec![asking(json!({"a": form("A?")}))]);
    let plain = json!({"a": {"action": "decline"}});
    let p = plain.clone();
    let mut sim = Sim::new(f).handler(move |_, _, _, _| Reaction::After(0, p.clone()));
    let out = run(&mut sim, WaitSettings { input: InputMode::Function, ..WaitSettings::default() });
    assert_eq!(out["error"]["cause"]["reason"], json!({"type": "invalid_outcome", "outcome": plain}));
}

#[test]
fn input_function_failures() {
    let cases = [
        (json!({"tag": "error", "reason": "nope"}), json!("nope")),
        (
            json!({"tag": "ok", "responses": {"a": {"action": "yes"}}}),
            json!({"type": "invalid_response", "response": {"action": "yes"}}),
        ),
        (json!({"tag": "ok", "responses": 7}), json!({"type": "invalid_response", "response": 7})),
        (json!("whatever"), json!({"type": "invalid_outcome", "outcome": "whatever"})),
    ];
    for (answer, reason) in cases {
        let (_, f) = server(vec![asking(json!({"a": form("A?")}))]);
        let a = answer.clone();
        let mut sim = Sim::new(f).handler(move |_, _, _, _| Reaction::After(0, a.clone()));
        let out = run(&mut sim, WaitSettings { input: InputMode::Function, ..WaitSettings::default() });
        assert_eq!(out["error"]["kind"], "execution");
        assert_eq!(out["error"]["cause"]["key"], Value::Null);
        assert_eq!(out["error"]["cause"]["reason"], reason, "{answer}");
    }
}

#[test]
fn a_failed_update_for_a_task_that_ended_meanwhile_yields_the_tasks_outcome() {
    let (script, f) = server(vec![asking(json!({"name": form("?")})), done()]);
    *script.update_answer.borrow_mut() = Some((-32602, "task is finished"));
    let mut sim = Sim::new(f).handler(|_, _, _, _| Reaction::After(30, accept("Ada")));
    let out = run(&mut sim, handlers(ALL));
    assert_eq!(out["tag"], "ok");
    // The update error triggers a read as soon as the floor allows (100 ms after the previous one).
    assert_eq!(sim.times("tasks/get"), [0, 100]);
}

#[test]
fn a_failed_update_for_a_task_still_waiting_ends_the_wait_with_that_error() {
    let a = asking(json!({"name": form("?")}));
    let (script, f) = server(vec![a]);
    *script.update_answer.borrow_mut() = Some((-32603, "storage down"));
    let mut sim = Sim::new(f).handler(|_, _, _, _| Reaction::After(30, accept("Ada")));
    let out = run(&mut sim, handlers(ALL));
    assert_eq!(out["error"]["code"], -32603);
    assert_eq!(out["error"]["cause"], json!({"type": "rpc_error", "method": "tasks/update"}));
}

#[test]
fn a_seed_status_with_input_requests_is_answered_without_a_read() {
    let task = task_with("t1", "input_required", json!({"pollIntervalMs": 100, "inputRequests": {"name": form("?")}}));
    let (script, f) = server(vec![done()]);
    let mut sim = Sim::new(f).handler(|_, _, _, _| Reaction::After(0, accept("Ada")));
    let mut w = Wait::new(TaskRef::Status(task), handlers(ALL), 0).unwrap();
    assert_eq!(sim.run(&mut w)["tag"], "ok");
    assert_eq!(sim.trace[..3], ["0 status input_required", "0 ask form name", "0 tasks/update [name] (timeout 60000)"]);
    assert_eq!(script.updates.borrow().len(), 1);
}

/// `n` form requests keyed `k0` … `k{n-1}`.
fn many_forms(n: usize) -> Value {
    Value::Object((0..n).map(|i| (format!("k{i}"), form("?"))).collect())
}

#[test]
fn ten_thousand_requests_in_one_status_are_each_asked_once_and_answered_in_one_round() {
    // The input desk itself (natively a status is a serde_json tree, which every ask would copy: in the
    // module it is a handle): 10 000 requests offered, re-offered while their handlers run, answered.
    use crate::engine::inputs::InputDesk;
    use crate::engine::{Action, Queue};
    let n: usize = 10_000;
    let requests: Vec<(String, Value)> = (0..n).map(|i| (format!("k{i}"), form("?"))).collect();
    let status = json!({"taskId": "t1", "status": "input_required"});
    let mut desk = InputDesk::new(InputMode::Handlers(ALL), ReadChunk::default());
    let mut out = Queue::new();
    desk.offer(&requests, &status, &mut out).unwrap();
    // Read a chunk at a time: nothing is asked before the last request is read.
    let mut steps = 1;
    while desk.reading() {
        assert!(out.is_empty(), "an ask before every request was read");
        steps += 1;
        if desk.read_more(&mut out).unwrap() {
            break;
        }
    }
    assert_eq!(steps, n.div_ceil(DEFAULT_READ_CHUNK), "one step per chunk");
    assert!(!desk.reading());
    let asks: Vec<_> = out
        .drain(..)
        .filter_map(|a| match a {
            Action::Ask { ask, key, .. } => Some((ask, key)),
            _ => None,
        })
        .collect();
    assert_eq!(asks.len(), n, "each key asked once");
    let answer = accept("Ada");
    for (i, (ask, _)) in asks.iter().enumerate() {
        desk.answer(*ask, &answer, &status).unwrap();
        if i == n / 2 {
            // A read in the middle of the round lists the same keys: nothing is asked again.
            desk.offer(&requests, &status, &mut out).unwrap();
            assert!(out.is_empty(), "nothing asked again");
            assert!(desk.take_ready().is_empty(), "the round is not complete yet");
        }
    }
    let rounds = desk.take_ready();
    assert_eq!(rounds.len(), 1, "one round");
    assert_eq!(rounds[0].len(), n, "with every answer");
    assert!(!desk.busy());
    desk.offer(&requests, &status, &mut out).unwrap();
    assert!(out.is_empty(), "answered keys are never asked again");
    // That this is linear work (up to sorts) is held by the hostile suite's event-loop measure
    // (tests/hostile, many:10k-forms): the quadratic desk blocked a page for over a second.
}

#[test]
fn a_status_listing_more_than_ten_thousand_requests_is_a_protocol_violation() {
    let (_, f) = server(vec![asking(many_forms(10_001))]);
    let mut sim = Sim::new(f).handler(|_, _, _, _| panic!("no handler may run"));
    let out = run(&mut sim, handlers(ALL));
    assert_eq!(out["tag"], "error");
    assert_eq!(out["error"]["kind"], "protocol");
    assert_eq!(out["error"]["cause"]["type"], "protocol_violation");
    assert!(out["error"]["message"].as_str().unwrap().contains("10001 input requests"), "{}", out["error"]["message"]);
}

/// The trace and outcome of one wait whose first status lists `requests` (then the task completes),
/// every handler answering after 10 ms, read `chunk` requests per step.
fn read_in_chunks(requests: &Value, input: InputMode, chunk: ReadChunk) -> (Vec<String>, Value, Vec<Value>) {
    let (script, f) = server(vec![asking(requests.clone()), asking(requests.clone()), done()]);
    let mut sim = Sim::new(f).handler(|kind, _, _, _| match kind {
        Some(_) => Reaction::After(10, accept("Ada")),
        None => Reaction::After(10, json!({"tag": "ok", "responses": {"k0": {"action": "decline"}}})),
    });
    let out = run(&mut sim, WaitSettings { input, read_chunk: chunk, ..WaitSettings::default() });
    let updates = script.updates.borrow().clone();
    (sim.trace, out, updates)
}

#[test]
fn a_status_read_over_several_steps_is_decided_as_if_read_in_one() {
    // Five requests read 1, 2, 3 or 5 at a time: the same requests, asks, updates, outcome, in the same
    // order — with every request well-formed, with a malformed or unanswerable one last (nothing is
    // asked), and for the input function.
    let mut bad = many_forms(5);
    bad["k4"] = json!({"params": {}});
    let mut unanswerable = many_forms(5);
    unanswerable["k4"] = json!({"method": "sampling/createMessage", "params": {"messages": []}});
    let forms_only = InputMode::Handlers(HandlerSet { form: true, ..HandlerSet::default() });
    let cases = [
        (many_forms(5), InputMode::Handlers(ALL), "ok"),
        (bad, InputMode::Handlers(ALL), "error"),
        (unanswerable, forms_only, "input_required"),
        (many_forms(5), InputMode::Function, "ok"),
    ];
    for (requests, input, tag) in cases {
        let (trace, out, updates) = read_in_chunks(&requests, input, ReadChunk(5));
        assert_eq!(out["tag"], tag, "{trace:?}");
        if tag != "ok" {
            assert!(!trace.iter().any(|t| t.contains(" ask ")), "asked before every request was read: {trace:?}");
        }
        for chunk in 1..5 {
            let (t, o, u) = read_in_chunks(&requests, input, ReadChunk(chunk));
            assert_eq!((&t, &o, &u), (&trace, &out, &updates), "read {chunk} at a time");
        }
    }
}

#[test]
fn a_status_read_over_several_steps_asks_nothing_before_the_last_request_is_read() {
    use crate::engine::{Action, Event, Machine};
    use crate::proto::rpc::RequestEnd;
    let reading = |opts: WaitSettings| {
        let mut w = Wait::new(TaskRef::TaskId("t1".into()), opts, 0).unwrap();
        let Some(Action::Send { req, .. }) = w.next_action() else { panic!("no read") };
        assert!(w.next_action().is_none());
        w.handle(0, Event::Reply { req, reply: RequestEnd::Result(asking(many_forms(5))) });
        w
    };
    let opts = WaitSettings { read_chunk: ReadChunk(2), ..handlers(ALL) };
    // Drained: the status first, then a `Continue` after each step but the last (5 requests, 2 a step:
    // the first step when the status is taken in, then two more), then the five asks.
    let mut w = reading(opts);
    let mut kinds = Vec::new();
    while let Some(a) = w.next_action() {
        kinds.push(match a {
            Action::Status(_) => "status",
            Action::Continue => "continue",
            Action::Ask { .. } => "ask",
            other => panic!("unexpected {other:?}"),
        });
    }
    assert_eq!(kinds, ["status", "continue", "ask", "ask", "ask", "ask", "ask"]);
    // Not drained: the next input finds every request read (the asks queued, nothing lost or doubled).
    let mut w = reading(opts);
    assert!(matches!(w.next_action(), Some(Action::Status(_))));
    assert!(matches!(w.next_action(), Some(Action::Continue)));
    w.handle(1, Event::Tick);
    let asks = std::iter::from_fn(|| w.next_action()).filter(|a| matches!(a, Action::Ask { .. })).count();
    assert_eq!(asks, 5);
}
