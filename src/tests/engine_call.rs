//! callTool and the single steps on simulated time: the three answers to tools/call, MRTR rounds,
//! protocol violations, timeouts; getTask / updateTask / cancelTask.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)]

use super::sim;

use crate::engine::call::{CallSettings, CallTool};
use crate::engine::settings::{HandlerSet, InputMode, ReadChunk, TimeLimits};
use crate::engine::step::Step;
use crate::proto::request::Call;
use serde_json::{json, Value};
use sim::{get_result, task, Reaction, Resp, Sim};
use std::cell::RefCell;
use std::rc::Rc;

const FORMS: HandlerSet = HandlerSet { form: true, url: false, sampling: false, roots: false };

fn call(sim: &mut Sim, opts: CallSettings<Value>) -> Value {
    let mut c = CallTool::new("deploy".into(), Some(json!({"env": "prod"})), opts, 0);
    sim.run(&mut c)
}

fn created() -> Value {
    let mut t = task("t1", "working");
    t["resultType"] = json!("task");
    t["pollIntervalMs"] = json!(250);
    t
}

fn mrtr(key: &str, state: Option<&str>) -> Value {
    let mut r = json!({"resultType": "input_required", "inputRequests": {key: {"method": "elicitation/create", "params": {"message": "ok?", "requestedSchema": {"type": "object", "properties": {}}}}}});
    if let Some(s) = state {
        r["requestState"] = json!(s);
    }
    r
}

/// A server answering successive tools/call requests from `answers`, recording their params.
type Seen = Rc<RefCell<Vec<Value>>>;

fn tools(answers: Vec<Value>) -> (Seen, impl FnMut(&str, &Value, u64) -> Resp) {
    let seen = Rc::new(RefCell::new(Vec::new()));
    let log = seen.clone();
    let mut answers: std::collections::VecDeque<Value> = answers.into();
    let f = move |method: &str, params: &Value, _: u64| {
        assert_eq!(method, "tools/call");
        log.borrow_mut().push(params.clone());
        match answers.pop_front() {
            Some(v) => Resp::Ok(10, v),
            None => Resp::Never,
        }
    };
    (seen, f)
}

#[test]
fn a_task_answer_gives_the_status_without_the_envelope() {
    let (seen, f) = tools(vec![created()]);
    let mut sim = Sim::new(f);
    let out = call(&mut sim, CallSettings::default());
    let mut status = task("t1", "working");
    status["pollIntervalMs"] = json!(250);
    assert_eq!(out, json!({"tag": "task", "status": status}));
    let p = &seen.borrow()[0];
    assert_eq!((&p["name"], &p["arguments"]), (&json!("deploy"), &json!({"env": "prod"})));
    assert_eq!(
        p["_meta"]["io.modelcontextprotocol/clientCapabilities"],
        json!({"extensions": {"io.modelcontextprotocol/tasks": {}}})
    );
    assert!(p.get("inputResponses").is_none() && p.get("requestState").is_none());
}

#[test]
fn a_complete_answer_is_passed_through_as_sent() {
    for answer in [
        json!({"resultType": "complete", "content": [], "isError": true, "_meta": {"k": 1}}),
        json!({"content": [{"type": "text", "text": "no resultType: an older server"}]}),
    ] {
        let (_, f) = tools(vec![answer.clone()]);
        let mut sim = Sim::new(f);
        assert_eq!(call(&mut sim, CallSettings::default()), json!({"tag": "ok", "result": answer}));
    }
}

#[test]
fn broken_answers_are_protocol_errors() {
    let cases = [
        (
            json!({"resultType": "task", "status": "working"}),
            "tools/call answered with an invalid CreateTaskResult: the task has no taskId",
        ),
        (
            json!({"resultType": "task", "taskId": "t1"}),
            "tools/call answered with an invalid CreateTaskResult: task t1 has no status",
        ),
        (
            json!({"resultType": "task", "taskId": "t1", "status": "sleeping"}),
            "tools/call answered with an invalid CreateTaskResult: task t1 has an unknown status \"sleeping\"",
        ),
        (json!({"resultType": "streaming"}), "tools/call answered with unknown resultType \"streaming\""),
        (json!({"resultType": 3}), "tools/call answered with a resultType that is not a string"),
        (
            json!({"resultType": "input_required"}),
            "tools/call answered input_required with neither inputRequests nor requestState",
        ),
        (json!([1, 2]), "tools/call answered with a result that is not an object"),
    ];
    for (answer, message) in cases {
        let (_, f) = tools(vec![answer.clone()]);
        let mut sim = Sim::new(f);
        let out = call(&mut sim, CallSettings::default());
        assert_eq!(out["error"]["kind"], "protocol");
        assert_eq!(out["error"]["message"], message);
        assert_eq!(
            out["error"]["cause"],
            json!({"type": "protocol_violation", "method": "tools/call", "response": answer})
        );
    }
}

#[test]
fn json_rpc_and_transport_errors() {
    let mut sim = Sim::new(|_: &str, _: &Value, _: u64| Resp::Err(0, -32021, "missing capability"));
    let out = call(&mut sim, CallSettings::default());
    assert_eq!(
        out,
        json!({"tag": "error", "error": {"code": -32021, "message": "missing capability", "kind": "server", "cause": {"type": "rpc_error", "method": "tools/call"}}})
    );

    let mut sim = Sim::new(|_: &str, _: &Value, _: u64| {
        Resp::Fail(0, json!({"message": "ECONNREFUSED", "status": 0, "body": ""}))
    });
    let out = call(&mut sim, CallSettings::default());
    assert_eq!(out["error"]["kind"], "transport");
    assert_eq!(out["error"]["message"], "tools/call failed: ECONNREFUSED");

    // A client's error that names the method already: the message names it once.
    let mut sim = Sim::new(|_: &str, _: &Value, _: u64| {
        Resp::Fail(0, json!({"message": "tools/call: network error: Failed to fetch", "status": 0}))
    });
    let out = call(&mut sim, CallSettings::default());
    assert_eq!(out["error"]["message"], "tools/call failed: network error: Failed to fetch");
    // … and only its own method's name: another prefix is the client's text, kept.
    let mut sim = Sim::new(|_: &str, _: &Value, _: u64| Resp::Fail(0, json!("tools/callx: odd")));
    assert_eq!(call(&mut sim, CallSettings::default())["error"]["message"], "tools/call failed: tools/callx: odd");
}

#[test]
fn the_timeout_bounds_the_call() {
    let (_, f) = tools(vec![]);
    let mut sim = Sim::new(f);
    let out = call(
        &mut sim,
        CallSettings {
            limits: TimeLimits { deadline_ms: Some(800), request_timeout_ms: None },
            ..CallSettings::default()
        },
    );
    assert_eq!(
        out["error"],
        json!({"code": -32001, "message": "timed out after 800 ms waiting for tool deploy", "data": {"name": "deploy", "timeoutMs": 800}, "kind": "transport", "cause": {"type": "timeout", "status": null}})
    );
    assert_eq!(sim.trace, ["0 tools/call (timeout 800)", "800 abort request", "800 resolve error"]);
}

#[test]
fn one_mrtr_round_is_answered_and_retried_with_the_state_echoed() {
    let (seen, f) = tools(vec![mrtr("confirm", Some("opaque-1")), created()]);
    let mut sim = Sim::new(f).handler(|_, key, _, _| {
        assert_eq!(key, "confirm");
        Reaction::After(40, json!({"tag": "ok", "response": {"action": "accept", "content": {"ok": true}}}))
    });
    let out = call(&mut sim, CallSettings { input: InputMode::Handlers(FORMS), ..CallSettings::default() });
    assert_eq!(out["tag"], "task");
    assert_eq!(
        sim.trace,
        [
            "0 tools/call (timeout 60000)",
            "10 ask form confirm",
            // Answered at 50, but a round goes out no sooner than 100 ms after the previous one.
            "100 tools/call [confirm] (timeout 59900)",
            "110 resolve task"
        ]
    );
    let retry = &seen.borrow()[1];
    assert_eq!(retry["inputResponses"], json!({"confirm": {"action": "accept", "content": {"ok": true}}}));
    assert_eq!(retry["requestState"], "opaque-1");
    assert_eq!(retry["arguments"], json!({"env": "prod"}));
}

#[test]
fn two_mrtr_rounds_then_a_task() {
    let (seen, f) = tools(vec![mrtr("first", Some("s1")), mrtr("second", Some("s2")), created()]);
    let mut sim = Sim::new(f).handler(|_, _, _, _| {
        Reaction::After(0, json!({"tag": "ok", "response": {"action": "accept", "content": {"v": "x"}}}))
    });
    let out = call(&mut sim, CallSettings { input: InputMode::Handlers(FORMS), ..CallSettings::default() });
    assert_eq!(out["tag"], "task");
    let seen = seen.borrow();
    assert_eq!(seen.len(), 3);
    assert_eq!((&seen[1]["requestState"], &seen[2]["requestState"]), (&json!("s1"), &json!("s2")));
    assert_eq!(seen[2]["inputResponses"].as_object().unwrap().keys().collect::<Vec<_>>(), ["second"]);
}

#[test]
fn a_request_state_alone_is_retried_at_once_and_no_state_is_invented() {
    let (seen, f) =
        tools(vec![json!({"resultType": "input_required", "requestState": "only"}), json!({"content": []})]);
    let mut sim = Sim::new(f);
    assert_eq!(call(&mut sim, CallSettings::default())["tag"], "ok");
    assert_eq!(seen.borrow()[1]["requestState"], "only");
    assert!(seen.borrow()[1].get("inputResponses").is_none());

    let (seen, f) = tools(vec![mrtr("k", None), json!({"content": []})]);
    let mut sim =
        Sim::new(f).handler(|_, _, _, _| Reaction::After(0, json!({"tag": "ok", "response": {"action": "cancel"}})));
    call(&mut sim, CallSettings { input: InputMode::Handlers(FORMS), ..CallSettings::default() });
    assert!(seen.borrow()[1].get("requestState").is_none());
}

#[test]
fn mrtr_with_return_mode_or_no_handler_gives_the_round_back() {
    for input in [InputMode::Return, InputMode::Handlers(HandlerSet::default())] {
        let (seen, f) = tools(vec![mrtr("confirm", Some("s1"))]);
        let mut sim = Sim::new(f).handler(|_, _, _, _| panic!("no handler may run"));
        let out = call(&mut sim, CallSettings { input, ..CallSettings::default() });
        assert_eq!(out["tag"], "input_required");
        assert_eq!(out["source"], "call", "the call's round, told apart from a task's");
        assert_eq!(
            out["status"],
            json!({"inputRequests": mrtr("confirm", None)["inputRequests"], "requestState": "s1"})
        );
        assert_eq!(seen.borrow().len(), 1);
    }
}

#[test]
fn an_mrtr_round_can_be_continued_by_hand() {
    let (seen, f) = tools(vec![created()]);
    let mut sim = Sim::new(f);
    let opts = CallSettings {
        input_responses: Some(json!({"confirm": {"action": "accept"}})),
        request_state: Some(json!("s1")),
        ..CallSettings::default()
    };
    assert_eq!(call(&mut sim, opts)["tag"], "task");
    assert_eq!(seen.borrow()[0]["requestState"], "s1");
    assert_eq!(seen.borrow()[0]["inputResponses"], json!({"confirm": {"action": "accept"}}));
}

#[test]
fn mrtr_through_the_input_function_and_its_failures() {
    let (seen, f) = tools(vec![mrtr("confirm", Some("s1")), created()]);
    let mut sim = Sim::new(f).handler(|kind, keys, status, _| {
        assert_eq!((kind, keys), (None, "confirm"));
        assert_eq!(status["requestState"], "s1");
        Reaction::After(0, json!({"tag": "ok", "responses": {"confirm": {"action": "accept"}}}))
    });
    assert_eq!(call(&mut sim, CallSettings { input: InputMode::Function, ..CallSettings::default() })["tag"], "task");
    assert_eq!(seen.borrow()[1]["inputResponses"], json!({"confirm": {"action": "accept"}}));

    let (_, f) = tools(vec![mrtr("confirm", Some("s1"))]);
    let mut sim = Sim::new(f).handler(|_, _, _, _| Reaction::After(0, json!({"tag": "error", "reason": "no"})));
    let out = call(&mut sim, CallSettings { input: InputMode::Function, ..CallSettings::default() });
    assert_eq!(out["error"]["kind"], "execution");
    assert_eq!(out["error"]["cause"]["status"]["requestState"], "s1");

    let (_, f) = tools(vec![mrtr("confirm", Some("s1"))]);
    let mut sim = Sim::new(f).handler(|_, _, _, _| Reaction::Throw(5, json!("thrown")));
    assert_eq!(
        call(&mut sim, CallSettings { input: InputMode::Handlers(FORMS), ..CallSettings::default() }),
        json!({"rejected": "thrown"})
    );
}

#[test]
fn abort_rejects_a_call() {
    let (_, f) = tools(vec![]);
    let mut sim = Sim::new(f);
    sim.abort_at(70, json!("why"));
    assert_eq!(call(&mut sim, CallSettings::default()), json!({"rejected": "why"}));
    assert_eq!(sim.trace, ["0 tools/call (timeout 60000)", "70 abort request", "70 reject"]);
}

fn step(call: Call<Value>, answer: Resp) -> (Sim, Value) {
    let mut answer = Some(answer);
    let mut sim = Sim::new(move |_: &str, _: &Value, _: u64| answer.take().unwrap_or(Resp::Never));
    let mut s = Step::new(call, "t1".into(), TimeLimits::default(), crate::engine::settings::Retry::default(), 0);
    let out = sim.run(&mut s);
    (sim, out)
}

#[test]
fn get_task_reads_one_status() {
    let (sim, out) = step(Call::GetTask { task_id: "t1".into() }, Resp::Ok(5, get_result(task("t1", "working"))));
    assert_eq!(out, json!({"tag": "ok", "status": task("t1", "working")}));
    assert_eq!(sim.requests[0].2["taskId"], "t1");

    let (_, out) = step(Call::GetTask { task_id: "t1".into() }, Resp::Ok(5, get_result(task("t9", "working"))));
    assert_eq!(out["error"]["kind"], "protocol");
    let (_, out) = step(Call::GetTask { task_id: "t1".into() }, Resp::Err(5, -32602, "unknown task"));
    assert_eq!(out["error"]["code"], -32602);
}

#[test]
fn update_and_cancel_are_acknowledged() {
    let responses = json!({"k": {"action": "accept"}});
    let (sim, out) = step(
        Call::UpdateTaskRaw { task_id: "t1".into(), responses: responses.clone() },
        Resp::Ok(0, json!({"resultType": "complete"})),
    );
    assert_eq!(out, json!({"tag": "ok"}));
    assert_eq!(sim.requests[0].1, "tasks/update");
    assert_eq!(sim.requests[0].2["inputResponses"], responses);

    let (sim, out) = step(Call::CancelTask { task_id: "t1".into() }, Resp::Ok(0, json!({"resultType": "complete"})));
    assert_eq!(out, json!({"tag": "ok"}));
    assert_eq!(sim.requests[0].1, "tasks/cancel");

    let (_, out) = step(Call::CancelTask { task_id: "t1".into() }, Resp::Ok(0, json!("ok")));
    assert_eq!(out["error"]["kind"], "protocol");
    let (_, out) = step(Call::CancelTask { task_id: "t1".into() }, Resp::Never);
    assert_eq!(out["error"]["cause"]["type"], "timeout");
    assert_eq!(out["error"]["data"], json!({"taskId": "t1", "timeoutMs": 60000}));
}

#[test]
fn rounds_that_come_back_at_once_go_out_no_sooner_than_100_ms_apart() {
    // A server that answers every round at once with a fresh requestState and nothing to answer: one
    // round every 100 ms (not a flood), until the deadline.
    let mut n = 0;
    let mut sim = Sim::new(move |_: &str, _: &Value, _: u64| {
        n += 1;
        Resp::Ok(0, json!({"resultType": "input_required", "requestState": format!("s{n}")}))
    });
    let out = call(
        &mut sim,
        CallSettings {
            limits: TimeLimits { deadline_ms: Some(450), request_timeout_ms: None },
            ..CallSettings::default()
        },
    );
    assert_eq!(out["error"]["cause"]["type"], "timeout");
    let sent: Vec<&String> = sim.trace.iter().filter(|t| t.contains("tools/call")).collect();
    assert_eq!(
        sent,
        [
            "0 tools/call (timeout 450)",
            "100 tools/call (timeout 350)",
            "200 tools/call (timeout 250)",
            "300 tools/call (timeout 150)",
            "400 tools/call (timeout 50)"
        ]
    );
}

#[test]
fn a_round_that_took_longer_than_100_ms_is_followed_at_once() {
    let mut n = 0;
    let mut sim = Sim::new(move |_: &str, _: &Value, _: u64| {
        n += 1;
        if n < 3 {
            Resp::Ok(150, json!({"resultType": "input_required", "requestState": format!("s{n}")}))
        } else {
            Resp::Ok(150, created())
        }
    });
    let out = call(&mut sim, CallSettings::default());
    assert_eq!(out["tag"], "task");
    let sent: Vec<&String> = sim.trace.iter().filter(|t| t.contains("tools/call")).collect();
    assert_eq!(
        sent,
        ["0 tools/call (timeout 60000)", "150 tools/call (timeout 59850)", "300 tools/call (timeout 59700)"]
    );
}

#[test]
fn an_mrtr_round_read_over_several_steps_is_decided_as_if_read_in_one() {
    // Four requests in one round, read 1–4 at a time: the same asks, retry and outcome — also with a
    // malformed request last (nothing is asked) and with one no handler answers last (the round back).
    let round = |last: Value| {
        let mut r = mrtr("a", Some("s"));
        for k in ["b", "c"] {
            r["inputRequests"][k] = r["inputRequests"]["a"].clone();
        }
        r["inputRequests"]["d"] = last;
        r
    };
    let form = mrtr("a", None)["inputRequests"]["a"].clone();
    let cases = [
        (round(form), "task"),
        (round(json!({"method": 7})), "error"),
        (round(json!({"method": "roots/list"})), "input_required"),
    ];
    for (answer, tag) in cases {
        let run = |chunk: usize| {
            let (seen, f) = tools(vec![answer.clone(), created()]);
            let mut sim = Sim::new(f).handler(|_, _, _, _| {
                Reaction::After(5, json!({"tag": "ok", "response": {"action": "accept", "content": {}}}))
            });
            let opts = CallSettings {
                input: InputMode::Handlers(FORMS),
                read_chunk: ReadChunk(chunk),
                ..CallSettings::default()
            };
            let out = call(&mut sim, opts);
            let sent = seen.borrow().clone();
            (sim.trace, out, sent)
        };
        let whole = run(4);
        assert_eq!(whole.1["tag"], tag, "{:?}", whole.0);
        if tag != "task" {
            assert!(!whole.0.iter().any(|t| t.contains(" ask ")), "{:?}", whole.0);
        }
        for chunk in 1..4 {
            assert_eq!(run(chunk), whole, "read {chunk} at a time");
        }
    }
}
