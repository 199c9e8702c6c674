//! awaitTask by polling, on simulated time: the whole request trace and the outcome, rule by rule.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)]

use super::sim;

use crate::engine::settings::{Retry, TimeLimits, WaitSettings};
use crate::engine::wait::{TaskRef, Wait};
use crate::engine::AbortScope;
use serde_json::{json, Value};
use sim::{get_result, polls, task, task_with, Resp, Sim};

fn opts() -> WaitSettings {
    WaitSettings::default()
}

fn with_timeout(timeout_ms: u64) -> WaitSettings {
    WaitSettings { limits: TimeLimits { deadline_ms: Some(timeout_ms), request_timeout_ms: None }, ..opts() }
}

fn working(interval: Option<u64>) -> Value {
    match interval {
        Some(i) => task_with("t1", "working", json!({"pollIntervalMs": i})),
        None => task("t1", "working"),
    }
}

fn completed(text: &str) -> Value {
    task_with(
        "t1",
        "completed",
        json!({"result": {"resultType": "complete", "content": [{"type": "text", "text": text}]}}),
    )
}

fn ok(v: Value) -> Resp {
    Resp::Ok(0, get_result(v))
}

fn run(task: TaskRef<Value>, o: WaitSettings, sim: &mut Sim) -> Value {
    let mut w = Wait::new(task, o, 0).expect("valid task");
    sim.run(&mut w)
}

fn status_ref(v: Value) -> TaskRef<Value> {
    TaskRef::Status(v)
}

#[test]
fn polls_at_the_servers_interval_after_a_created_status() {
    let mut sim = Sim::new(polls(vec![ok(working(Some(250))), ok(completed("done"))]));
    let out = run(status_ref(working(Some(250))), opts(), &mut sim);
    assert_eq!(
        sim.trace,
        [
            "0 status working",
            "250 tasks/get (timeout 59750)",
            "500 tasks/get (timeout 59500)",
            "500 status completed",
            "500 resolve ok"
        ]
    );
    assert_eq!(out["result"], completed("done")["result"]);
}

#[test]
fn a_bare_task_id_is_read_at_once() {
    let mut sim = Sim::new(polls(vec![ok(working(Some(300))), ok(completed("x"))]));
    run(TaskRef::TaskId("t1".into()), opts(), &mut sim);
    assert_eq!(sim.times("tasks/get"), [0, 300]);
}

#[test]
fn a_status_with_its_terminal_payload_sends_nothing() {
    for (status, tag) in [
        (completed("x"), "ok"),
        (task_with("t1", "failed", json!({"error": {"code": -32603, "message": "boom"}})), "error"),
        (task("t1", "cancelled"), "cancelled"),
    ] {
        let mut sim = Sim::new(polls(vec![Resp::Never]));
        let out = run(status_ref(status), opts(), &mut sim);
        assert!(sim.requests.is_empty(), "{tag}: {:?}", sim.trace);
        assert_eq!(out["tag"], tag);
    }
}

#[test]
fn a_seed_status_missing_its_payload_is_fetched_at_once() {
    for status in [task("t1", "input_required"), task("t1", "completed"), task("t1", "failed")] {
        let mut sim = Sim::new(polls(vec![ok(completed("x"))]));
        let out = run(status_ref(status), opts(), &mut sim);
        assert_eq!(sim.times("tasks/get"), [0]);
        assert_eq!(out["tag"], "ok");
    }
}

#[test]
fn uses_the_default_interval_when_the_server_sends_none() {
    let mut sim = Sim::new(polls(vec![ok(working(None)), ok(working(None)), ok(completed("x"))]));
    run(status_ref(working(None)), opts(), &mut sim);
    assert_eq!(sim.times("tasks/get"), [1000, 2000, 3000]);

    let mut sim = Sim::new(polls(vec![ok(working(None)), ok(completed("x"))]));
    run(status_ref(working(None)), WaitSettings { poll_interval_ms: 300, ..opts() }, &mut sim);
    assert_eq!(sim.times("tasks/get"), [300, 600]);
}

#[test]
fn never_polls_faster_than_the_floor() {
    let mut sim = Sim::new(polls(vec![
        ok(working(Some(10))),
        ok(working(Some(0))),
        ok(task_with("t1", "working", json!({"pollIntervalMs": -5}))),
        ok(completed("x")),
    ]));
    run(status_ref(working(Some(10))), opts(), &mut sim);
    assert_eq!(sim.times("tasks/get"), [100, 200, 300, 400]);

    let mut sim = Sim::new(polls(vec![ok(working(Some(10))), ok(completed("x"))]));
    run(status_ref(working(Some(10))), WaitSettings { min_poll_interval_ms: 25, ..opts() }, &mut sim);
    assert_eq!(sim.times("tasks/get"), [25, 50]);
}

#[test]
fn follows_an_interval_that_changes_mid_task() {
    let mut sim =
        Sim::new(polls(vec![ok(working(Some(500))), ok(working(Some(150))), ok(working(None)), ok(completed("x"))]));
    run(status_ref(working(Some(200))), opts(), &mut sim);
    // 200 (task), then 500, then 150, then the default 1000 once the server stops sending one.
    assert_eq!(sim.times("tasks/get"), [200, 700, 850, 1850]);
}

#[test]
fn the_interval_starts_when_the_reply_arrives() {
    let mut sim =
        Sim::new(polls(vec![Resp::Ok(40, get_result(working(Some(100)))), Resp::Ok(40, get_result(completed("x")))]));
    run(status_ref(working(Some(100))), opts(), &mut sim);
    assert_eq!(sim.times("tasks/get"), [100, 240]);
}

#[test]
fn the_deadline_ends_a_sleep_without_another_poll() {
    let mut sim = Sim::new(polls(vec![ok(working(Some(400)))]));
    let out = run(status_ref(working(Some(400))), with_timeout(1000), &mut sim);
    assert_eq!(sim.times("tasks/get"), [400, 800]);
    assert_eq!(sim.finished_at, Some(1000));
    assert_eq!(
        out,
        json!({"tag": "error", "error": {
            "code": -32001, "kind": "transport", "message": "timed out after 1000 ms waiting for task t1",
            "data": {"taskId": "t1", "timeoutMs": 1000},
            "cause": {"type": "timeout", "status": working(Some(400))}
        }, "taskId": "t1", "status": working(Some(400))}),
        "the outcome carries the task beside the error: its id and last status"
    );
}

#[test]
fn the_deadline_ends_a_request_that_never_settles() {
    let mut sim = Sim::new(polls(vec![Resp::Never]));
    let out = run(TaskRef::TaskId("t1".into()), with_timeout(500), &mut sim);
    assert_eq!(sim.trace, ["0 tasks/get (timeout 500)", "500 abort request", "500 resolve error"]);
    assert_eq!(out["error"]["code"], -32001);
    assert_eq!(out["error"]["cause"], json!({"type": "timeout", "status": null}));
}

#[test]
fn a_request_timeout_shorter_than_the_time_left_bounds_each_request() {
    let o = WaitSettings {
        limits: TimeLimits { deadline_ms: Some(10_000), request_timeout_ms: Some(200) },
        retry: Retry { retries: 0, ..Retry::default() },
        ..opts()
    };
    let mut sim = Sim::new(polls(vec![ok(working(Some(100))), Resp::Never]));
    let out = run(TaskRef::TaskId("t1".into()), o, &mut sim);
    assert_eq!(
        sim.trace,
        [
            "0 tasks/get (timeout 200)",
            "0 status working",
            "100 tasks/get (timeout 200)",
            "300 abort request",
            "300 resolve error",
        ]
    );
    assert_eq!(out["error"]["code"], -32001);
    assert_eq!(out["error"]["kind"], "transport");
    assert_eq!(out["error"]["data"], json!({"taskId": "t1", "method": "tasks/get", "timeoutMs": 200}));
    assert_eq!(
        out["error"]["cause"],
        json!({"type": "request_timeout", "method": "tasks/get", "status": working(Some(100))})
    );
}

#[test]
fn the_time_left_bounds_a_request_near_the_deadline() {
    let o = WaitSettings { limits: TimeLimits { deadline_ms: Some(1000), request_timeout_ms: Some(700) }, ..opts() };
    let mut sim = Sim::new(polls(vec![ok(working(Some(600))), Resp::Never]));
    let out = run(TaskRef::TaskId("t1".into()), o, &mut sim);
    assert_eq!(sim.trace[2], "600 tasks/get (timeout 400)");
    assert_eq!(out["error"]["cause"]["type"], "timeout");
}

#[test]
fn a_completed_task_resolves_with_its_result_as_sent() {
    let result = json!({"resultType": "complete", "content": [{"type": "text", "text": "bad input"}], "isError": true, "structuredContent": [1, 2], "_meta": {"x": 1}});
    let mut sim = Sim::new(polls(vec![ok(task_with("t1", "completed", json!({"result": result.clone()})))]));
    let out = run(TaskRef::TaskId("t1".into()), opts(), &mut sim);
    assert_eq!(out, json!({"tag": "ok", "result": result}));
}

#[test]
fn a_failed_task_is_a_server_error_with_the_tasks_own_error() {
    let failed = task_with(
        "t1",
        "failed",
        json!({"statusMessage": "upstream 503", "error": {"code": -32603, "message": "upstream 503", "data": {"retry": true}}}),
    );
    let mut sim = Sim::new(polls(vec![ok(failed.clone())]));
    let out = run(TaskRef::TaskId("t1".into()), opts(), &mut sim);
    assert_eq!(
        out,
        json!({"tag": "error", "error": {"code": -32603, "message": "upstream 503", "data": {"retry": true}, "kind": "server",
            "cause": {"type": "task_failed", "status": failed}}, "taskId": "t1"})
    );
}

#[test]
fn a_cancelled_task_resolves_cancelled() {
    let cancelled = task_with("t1", "cancelled", json!({"statusMessage": "by user"}));
    let mut sim = Sim::new(polls(vec![ok(working(Some(100))), ok(cancelled.clone())]));
    let out = run(TaskRef::TaskId("t1".into()), opts(), &mut sim);
    assert_eq!(out, json!({"tag": "cancelled", "status": cancelled}));
}

#[test]
fn an_input_required_task_is_returned_without_handlers() {
    let asking = task_with(
        "t1",
        "input_required",
        json!({"inputRequests": {"name": {"method": "elicitation/create", "params": {"message": "?", "requestedSchema": {"type": "object", "properties": {}}}}}}),
    );
    let mut sim = Sim::new(polls(vec![ok(working(Some(100))), ok(asking.clone())]));
    let out = run(TaskRef::TaskId("t1".into()), opts(), &mut sim);
    assert_eq!(out, json!({"tag": "input_required", "source": "task", "status": asking}));
    assert_eq!(sim.times("tasks/get"), [0, 100]);
}

#[test]
fn a_json_rpc_error_on_tasks_get_ends_the_wait() {
    let mut sim = Sim::new(polls(vec![Resp::Err(5, -32602, "unknown task")]));
    let out = run(TaskRef::TaskId("nope".into()), opts(), &mut sim);
    assert_eq!(
        out,
        json!({"tag": "error", "error": {"code": -32602, "message": "unknown task", "kind": "server", "cause": {"type": "rpc_error", "method": "tasks/get"}}, "taskId": "nope"})
    );
}

#[test]
fn a_transport_failure_ends_the_wait_with_its_details() {
    let rejection = json!({"name": "TypeError", "message": "HTTP 502: not JSON", "status": 502, "body": "<html>"});
    let mut sim = Sim::new(polls(vec![Resp::Fail(3, rejection.clone())]));
    let out = run(TaskRef::TaskId("t1".into()), opts(), &mut sim);
    assert_eq!(
        out,
        json!({"tag": "error", "error": {"code": -32000, "message": "tasks/get failed: HTTP 502: not JSON", "kind": "transport",
            "data": {"method": "tasks/get", "status": 502, "body": "<html>"},
            "cause": {"type": "request_failed", "method": "tasks/get", "error": rejection}}, "taskId": "t1"})
    );
}

fn protocol_error_for(answer: Value) -> Value {
    let mut sim = Sim::new(polls(vec![Resp::Ok(0, answer)]));
    let out = run(TaskRef::TaskId("t1".into()), opts(), &mut sim);
    assert_eq!(out["tag"], "error");
    assert_eq!(out["error"]["kind"], "protocol", "{out}");
    out["error"]["message"].clone()
}

#[test]
fn answers_that_break_the_protocol_are_protocol_errors_that_name_the_problem() {
    let cases = [
        (json!("working"), "the task is not an object"),
        (get_result(task("t2", "working")), "tasks/get for task t1 answered with task t2"),
        (get_result(task("t1", "paused")), "task t1 has an unknown status \"paused\""),
        (get_result(task("t1", "completed")), "task t1 completed without a result"),
        (
            get_result(task_with("t1", "completed", json!({"result": 5}))),
            "task t1 completed with a result that is not an object",
        ),
        (get_result(task("t1", "failed")), "task t1 failed without an error"),
        (
            get_result(task_with("t1", "failed", json!({"error": "boom"}))),
            "task t1 failed with an error that is not a JSON-RPC error",
        ),
        (json!({"resultType": "complete", "status": "working"}), "the task has no taskId"),
        (
            json!({"resultType": "input_required", "taskId": "t1", "status": "working"}),
            "tasks/get answered with resultType \"input_required\"",
        ),
        (
            get_result(task_with("t1", "input_required", json!({"inputRequests": [1]}))),
            "task t1 has inputRequests that are not an object",
        ),
    ];
    for (answer, message) in cases {
        assert_eq!(protocol_error_for(answer), message);
    }
}

#[test]
fn a_tasks_get_result_typed_task_is_accepted_leniently() {
    let mut answer = completed("x");
    answer["resultType"] = json!("task");
    let mut sim = Sim::new(polls(vec![Resp::Ok(0, answer)]));
    let out = run(TaskRef::TaskId("t1".into()), opts(), &mut sim);
    assert_eq!(out["tag"], "ok");
}

#[test]
fn on_status_fires_once_per_new_status() {
    let msg = |m: &str| {
        task_with(
            "t1",
            "working",
            json!({"pollIntervalMs": 100, "statusMessage": m, "lastUpdatedAt": "2026-09-01T08:00:01Z"}),
        )
    };
    let mut sim =
        Sim::new(polls(vec![ok(msg("1/3")), ok(msg("1/3")), ok(msg("2/3")), ok(msg("2/3")), ok(completed("x"))]));
    run(status_ref(working(Some(100))), opts(), &mut sim);
    let seen: Vec<Value> = sim.statuses.iter().map(|s| json!([s["status"], s.get("statusMessage")])).collect();
    assert_eq!(
        seen,
        [json!(["working", null]), json!(["working", "1/3"]), json!(["working", "2/3"]), json!(["completed", null])]
    );
    assert_eq!(sim.times("tasks/get").len(), 5);
}

#[test]
fn the_status_object_mirrors_the_wire_task_without_the_envelope() {
    let wire = json!({"resultType": "complete", "_meta": {"m": 1}, "taskId": "t1", "status": "working", "statusMessage": "s",
        "createdAt": "c", "lastUpdatedAt": "l", "ttlMs": null, "pollIntervalMs": 100, "future": 1});
    let mut sim = Sim::new(polls(vec![Resp::Ok(0, wire), ok(completed("x"))]));
    run(TaskRef::TaskId("t1".into()), opts(), &mut sim);
    assert_eq!(
        sim.statuses[0],
        json!({"taskId": "t1", "status": "working", "statusMessage": "s", "createdAt": "c", "lastUpdatedAt": "l", "ttlMs": null, "pollIntervalMs": 100})
    );
}

#[test]
fn abort_stops_everything_and_rejects_with_the_reason() {
    let mut sim = Sim::new(polls(vec![Resp::Never]));
    sim.abort_at(250, json!("stop"));
    let out = run(TaskRef::TaskId("t1".into()), opts(), &mut sim);
    assert_eq!(out, json!({"rejected": "stop"}));
    assert_eq!(sim.trace, ["0 tasks/get (timeout 60000)", "250 abort request", "250 reject"]);
    assert!(sim.detached.is_empty());
}

#[test]
fn abort_with_cancel_on_abort_sends_a_best_effort_cancel() {
    let mut sim = Sim::new(polls(vec![ok(working(Some(100)))]));
    sim.abort_at(150, json!("stop"));
    let out = run(TaskRef::TaskId("t1".into()), WaitSettings { cancel_on_abort: true, ..opts() }, &mut sim);
    assert_eq!(out, json!({"rejected": "stop"}));
    assert_eq!(sim.trace.last().unwrap(), "150 reject");
    assert_eq!(sim.detached.len(), 1);
    assert_eq!(sim.detached[0].0, "tasks/cancel");
    assert_eq!(sim.detached[0].1["taskId"], "t1");
    assert_eq!(sim.detached[0].2, 5000);
}

#[test]
fn a_stop_ends_the_wait_like_an_abort_but_never_cancels_the_task() {
    // The task journal's stop (its store failed): the task must outlive the call, to be resumed.
    let mut sim = Sim::new(polls(vec![ok(working(Some(100)))]));
    sim.abort_scoped_at(150, json!("store failed"), AbortScope::Stop);
    let out = run(TaskRef::TaskId("t1".into()), WaitSettings { cancel_on_abort: true, ..opts() }, &mut sim);
    assert_eq!(out, json!({"rejected": "store failed"}));
    assert_eq!(sim.trace.last().unwrap(), "150 reject");
    assert!(sim.detached.is_empty(), "{:?}", sim.detached);
}

#[test]
fn every_request_declares_the_tasks_extension() {
    let mut sim = Sim::new(polls(vec![ok(completed("x"))]));
    run(TaskRef::TaskId("t1".into()), opts(), &mut sim);
    let params = &sim.requests[0].2;
    assert_eq!(params["taskId"], "t1");
    assert_eq!(
        params["_meta"]["io.modelcontextprotocol/clientCapabilities"]["extensions"]["io.modelcontextprotocol/tasks"],
        json!({})
    );
}

#[test]
fn a_timed_out_read_is_reissued_with_backoff_then_ends_with_the_last_timeout() {
    let o = WaitSettings { limits: TimeLimits { deadline_ms: Some(10_000), request_timeout_ms: Some(200) }, ..opts() };
    let mut sim = Sim::new(polls(vec![ok(working(Some(100))), Resp::Never]));
    let out = run(TaskRef::TaskId("t1".into()), o, &mut sim);
    let gets = sim.times("tasks/get");
    assert_eq!(gets.len(), 5, "the read and 3 re-issues after the first timeout: {:?}", sim.trace);
    // Each re-issue waits 250·2^(n−1) ms plus up to half of that after the previous timeout.
    for (n, pair) in gets[1..].windows(2).enumerate() {
        let base = 250u64 << n;
        let gap = pair[1] - (pair[0] + 200);
        assert!((base..=base + base / 2).contains(&gap), "re-issue {}: {gap} ms ({:?})", n + 1, sim.trace);
    }
    assert_eq!(out["error"]["cause"]["type"], "request_timeout");
    assert_eq!(sim.finished_at, Some(gets[4] + 200));
}

#[test]
fn network_failures_of_reads_are_reissued_and_a_success_resets_the_count() {
    let net = || Resp::Fail(0, json!({"message": "fetch failed"}));
    let answers = vec![net(), net(), ok(working(Some(100))), net(), net(), net(), ok(completed("x"))];
    let mut sim = Sim::new(polls(answers));
    let out = run(TaskRef::TaskId("t1".into()), opts(), &mut sim);
    assert_eq!(out["tag"], "ok", "{:?}", sim.trace);
    assert_eq!(sim.times("tasks/get").len(), 7);
}

#[test]
fn a_read_out_of_retries_ends_with_the_last_transport_error() {
    let answers = (0..5).map(|i| Resp::Fail(0, json!({"message": format!("down {i}"), "status": 503}))).collect();
    let mut sim = Sim::new(polls(answers));
    let out = run(TaskRef::TaskId("t1".into()), opts(), &mut sim);
    assert_eq!(sim.times("tasks/get").len(), 4);
    assert_eq!(out["error"]["code"], -32000);
    assert_eq!(out["error"]["message"], "tasks/get failed: down 3");
    assert_eq!(out["error"]["data"], json!({"method": "tasks/get", "status": 503}));
}

#[test]
fn a_4xx_without_a_json_rpc_answer_is_not_reissued_and_retry_after_is_honoured() {
    let mut sim = Sim::new(polls(vec![Resp::Fail(0, json!({"message": "bad", "status": 400}))]));
    assert_eq!(run(TaskRef::TaskId("t1".into()), opts(), &mut sim)["error"]["code"], -32000);
    assert_eq!(sim.times("tasks/get"), [0]);

    let busy = Resp::Fail(0, json!({"message": "slow down", "status": 429, "retryAfterMs": 2000}));
    let mut sim = Sim::new(polls(vec![busy, ok(completed("x"))]));
    assert_eq!(run(TaskRef::TaskId("t1".into()), opts(), &mut sim)["tag"], "ok");
    assert_eq!(sim.times("tasks/get"), [0, 2000]);
}

#[test]
fn no_retry_is_sent_when_its_backoff_would_end_past_the_deadline() {
    let mut sim = Sim::new(polls(vec![Resp::Fail(100, json!({"message": "reset"}))]));
    let out = run(TaskRef::TaskId("t1".into()), with_timeout(300), &mut sim);
    assert_eq!(sim.times("tasks/get"), [0]);
    assert_eq!(sim.finished_at, Some(100), "ends with the transport error at once, not at the deadline");
    assert_eq!(out["error"]["cause"]["type"], "request_failed");

    // A re-issue that would leave less than 100 ms is not made either (it could only time out).
    for seed in 0..50 {
        let o = WaitSettings { retry: Retry { seed, ..Retry::default() }, ..with_timeout(450) };
        let mut sim = Sim::new(polls(vec![Resp::Fail(100, json!({"message": "reset"}))]));
        let out = run(TaskRef::TaskId("t1".into()), o, &mut sim);
        let gets = sim.times("tasks/get");
        match gets.as_slice() {
            [0] => assert_eq!(sim.finished_at, Some(100)),
            [0, t] => assert!(*t + 100 <= 450, "re-issued at {t} with less than 100 ms left"),
            other => panic!("{other:?}"),
        }
        assert_eq!(out["error"]["cause"]["type"], "request_failed", "{:?}", sim.trace);
    }
}

#[test]
fn an_unbounded_wait_has_no_deadline_and_a_huge_interval_is_clamped() {
    let o = WaitSettings { limits: TimeLimits { deadline_ms: None, request_timeout_ms: None }, ..opts() };
    let mut sim = Sim::new(polls(vec![ok(working(Some(100_000_000))), ok(completed("x"))]));
    let out = run(TaskRef::TaskId("t1".into()), o, &mut sim);
    assert_eq!(sim.trace[0], "0 tasks/get");
    assert_eq!(sim.times("tasks/get"), [0, 60_000], "maxPollIntervalMs defaults to 60000");
    assert_eq!(out["tag"], "ok");

    let o = WaitSettings { max_poll_interval_ms: 500, ..o };
    let mut sim = Sim::new(polls(vec![ok(working(Some(100_000_000))), ok(completed("x"))]));
    run(TaskRef::TaskId("t1".into()), o, &mut sim);
    assert_eq!(sim.times("tasks/get"), [0, 500]);
}

#[test]
fn past_the_ttl_one_more_read_decides_and_minus_32602_means_expired() {
    // Created 1 s before it was last updated (server clocks), ttl 3 s: 2 s left on the local clock.
    let status = task_with(
        "t1",
        "working",
        json!({"pollIntervalMs": 60_000, "createdAt": "2026-09-01T08:00:00Z", "lastUpdatedAt": "2026-09-01T08:00:01Z", "ttlMs": 3000}),
    );
    let mut sim = Sim::new(|method: &str, _: &Value, _| match method {
        "tasks/get" => Resp::Err(0, -32602, "unknown task"),
        _ => Resp::Never,
    });
    let out = run(
        status_ref(status.clone()),
        WaitSettings { limits: TimeLimits { deadline_ms: None, request_timeout_ms: None }, ..opts() },
        &mut sim,
    );
    assert_eq!(sim.times("tasks/get"), [2000]);
    assert_eq!(out["error"]["code"], -32602);
    assert_eq!(out["error"]["kind"], "server");
    assert_eq!(out["error"]["cause"]["type"], "expired");
    assert_eq!(out["error"]["cause"]["status"]["taskId"], "t1");

    // Still there past its TTL: the wait goes on at the normal interval, without another backstop read.
    let still = get_result(task_with(
        "t1",
        "working",
        json!({"pollIntervalMs": 1000, "createdAt": "2026-09-01T08:00:00Z", "lastUpdatedAt": "2026-09-01T08:00:01Z", "ttlMs": 3000}),
    ));
    let mut sim = Sim::new(polls(vec![ok(still.clone()), ok(still), ok(completed("x"))]));
    assert_eq!(run(status_ref(status), opts(), &mut sim)["tag"], "ok");
    assert_eq!(sim.times("tasks/get"), [2000, 3000, 4000]);

    // A -32602 before the TTL passed is an ordinary rpc_error; ttlMs null sets no backstop.
    let mut sim = Sim::new(|_: &str, _: &Value, _| Resp::Err(0, -32602, "unknown task"));
    let out = run(TaskRef::TaskId("t1".into()), opts(), &mut sim);
    assert_eq!(out["error"]["cause"]["type"], "rpc_error");
    let unlimited = task_with("t1", "working", json!({"pollIntervalMs": 5000, "ttlMs": null}));
    let mut sim = Sim::new(polls(vec![ok(completed("x"))]));
    run(status_ref(unlimited), opts(), &mut sim);
    assert_eq!(sim.times("tasks/get"), [5000]);
}

#[test]
fn a_seed_that_is_not_a_task_is_refused() {
    assert!(Wait::new(TaskRef::Status(json!({"status": "working"})), opts(), 0).is_err());
    assert!(Wait::<Value>::new(TaskRef::TaskId(String::new()), opts(), 0).is_err());
    assert!(Wait::new(TaskRef::Status(json!({"taskId": "t", "status": "nope"})), opts(), 0).is_err());
}

#[test]
fn a_client_that_enforces_the_handed_timeout_itself_still_yields_the_timeout_outcome() {
    // The client gives up at exactly the timeout it was handed, before the engine's own timer fires.
    let mut sim = Sim::new(polls(vec![Resp::Fail(
        500,
        json!({"name": "McpHttpError", "message": "request timed out after 500 ms"}),
    )]));
    let out = run(TaskRef::TaskId("t1".into()), with_timeout(500), &mut sim);
    assert_eq!(out["error"]["code"], -32001);
    assert_eq!(out["error"]["cause"]["type"], "timeout");

    let o = WaitSettings { limits: TimeLimits { deadline_ms: Some(10_000), request_timeout_ms: Some(300) }, ..opts() };
    let mut sim = Sim::new(polls(vec![Resp::Fail(300, json!({"message": "request timed out after 300 ms"}))]));
    let out = run(TaskRef::TaskId("t1".into()), o, &mut sim);
    assert_eq!(out["error"]["cause"]["type"], "request_timeout");

    // An earlier transport failure stays a transport failure.
    let mut sim = Sim::new(polls(vec![Resp::Fail(299, json!({"message": "connection reset"}))]));
    let out = run(TaskRef::TaskId("t1".into()), with_timeout(300), &mut sim);
    assert_eq!(out["error"]["cause"]["type"], "request_failed");
}

#[test]
fn a_transports_protocol_error_ends_the_wait_at_once_as_the_servers_protocol_violation() {
    // A message for the request that is neither a response nor a request: the transport rejects with an
    // McpProtocolError (retryable: false, the message as `response`); no re-issue, no deadline wait.
    let bad = json!({"jsonrpc": "2.0", "id": 7, "method": "notifications/message", "result": {}});
    let rejection = json!({"name": "McpProtocolError", "message": "tasks/get: the response also carries \"method\"",
        "status": 0, "retryable": false, "response": bad});
    let mut sim = Sim::new(polls(vec![Resp::Fail(50, rejection)]));
    let out = run(
        TaskRef::TaskId("t1".into()),
        WaitSettings { retry: Retry { retries: 3, ..Retry::default() }, ..opts() },
        &mut sim,
    );
    assert_eq!(sim.times("tasks/get"), [0]);
    assert_eq!(sim.finished_at, Some(50));
    assert_eq!(out["error"]["kind"], "protocol");
    assert_eq!(out["error"]["cause"]["type"], "protocol_violation");
    assert_eq!(out["error"]["cause"]["method"], "tasks/get");
    assert_eq!(out["error"]["cause"]["response"], bad);
    assert_eq!(out["error"]["message"], "tasks/get failed: the response also carries \"method\"");
}
