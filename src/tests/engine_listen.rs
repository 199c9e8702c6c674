//! awaitTask with listen: true, on simulated time: acknowledgement, resync read, notifications,
//! fallback to polling, refusals, deadline, closing the stream on every outcome.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)]

use super::sim;

use crate::engine::settings::{HandlerSet, InputMode, Retry, TimeLimits, WaitSettings};
use crate::engine::wait::{TaskRef, Wait};
use crate::engine::StreamEvent;
use serde_json::{json, Value};
use sim::{get_result, polls, task_with, Reaction, Resp, Sim};

fn listen() -> WaitSettings {
    WaitSettings { listen: true, ..WaitSettings::default() }
}

fn at(status: &str, updated: &str, extra: Value) -> Value {
    let mut t = task_with("t1", status, extra);
    t["lastUpdatedAt"] = json!(format!("2026-09-01T08:00:{updated}Z"));
    t["pollIntervalMs"] = json!(100);
    t
}

fn ack(ids: Value) -> StreamEvent<Value> {
    StreamEvent::Message(json!({"jsonrpc": "2.0", "method": "notifications/subscriptions/acknowledged",
        "params": {"_meta": {"io.modelcontextprotocol/subscriptionId": 7}, "notifications": {"taskIds": ids}}}))
}

fn event(task: Value) -> StreamEvent<Value> {
    let mut params = task;
    params["_meta"] = json!({"io.modelcontextprotocol/subscriptionId": 7});
    StreamEvent::Message(json!({"jsonrpc": "2.0", "method": "notifications/tasks", "params": params}))
}

fn completed(updated: &str) -> Value {
    at("completed", updated, json!({"result": {"content": [{"type": "text", "text": "done"}]}}))
}

fn run(sim: &mut Sim, task: TaskRef<Value>, o: WaitSettings) -> Value {
    let mut w = Wait::new(task, o, 0).unwrap();
    sim.run(&mut w)
}

#[test]
fn ack_then_one_read_then_notifications_until_terminal() {
    let mut sim = Sim::new(polls(vec![Resp::Ok(5, get_result(at("working", "01", json!({}))))])).stream(vec![
        (10, ack(json!(["t1"]))),
        (100, event(at("working", "02", json!({"statusMessage": "half"})))),
        (300, event(completed("03"))),
    ]);
    let out = run(&mut sim, TaskRef::TaskId("t1".into()), listen());
    assert_eq!(out["result"]["content"][0]["text"], "done");
    assert_eq!(
        sim.trace,
        [
            "0 listen",
            "10 tasks/get (timeout 59990)",
            "15 status working",
            "100 status working",
            "300 status completed",
            "300 close stream",
            "300 resolve ok",
        ]
    );
    assert_eq!(sim.times("tasks/get"), [10]);
}

#[test]
fn a_change_made_before_the_stream_opened_is_read_after_the_ack() {
    let task = at("working", "00", json!({}));
    let mut sim =
        Sim::new(polls(vec![Resp::Ok(5, get_result(completed("01")))])).stream(vec![(10, ack(json!(["t1"])))]);
    let out = run(&mut sim, TaskRef::Status(task), listen());
    assert_eq!(out["tag"], "ok");
    assert_eq!(sim.times("tasks/get"), [10]);
}

#[test]
fn a_stream_that_ends_early_is_followed_by_polling() {
    let mut sim = Sim::new(polls(vec![
        Resp::Ok(0, get_result(at("working", "01", json!({})))),
        Resp::Ok(0, get_result(at("working", "02", json!({})))),
        Resp::Ok(0, get_result(completed("03"))),
    ]))
    .stream(vec![(10, ack(json!(["t1"]))), (40, StreamEvent::End)]);
    let out = run(&mut sim, TaskRef::TaskId("t1".into()), listen());
    assert_eq!(out["tag"], "ok");
    // Resync at 10 (interval 100) → the next poll at 110, then 210.
    assert_eq!(sim.times("tasks/get"), [10, 110, 210]);
    assert!(sim.trace.contains(&"40 close stream".to_owned()));
}

#[test]
fn a_source_that_sends_only_the_current_status_then_ends() {
    let mut sim = Sim::new(polls(vec![
        Resp::Ok(0, get_result(at("working", "01", json!({})))),
        Resp::Ok(0, get_result(completed("02"))),
    ]))
    .stream(vec![(10, ack(json!(["t1"]))), (11, event(at("working", "01", json!({})))), (12, StreamEvent::End)]);
    assert_eq!(run(&mut sim, TaskRef::TaskId("t1".into()), listen())["tag"], "ok");
    // The interval runs from the latest observation (the event at 11).
    assert_eq!(sim.times("tasks/get"), [10, 111]);
}

#[test]
fn a_stream_failure_after_the_ack_falls_back_to_polling_without_retries() {
    let mut sim = Sim::new(polls(vec![
        Resp::Ok(0, get_result(at("working", "01", json!({})))),
        Resp::Ok(0, get_result(completed("02"))),
    ]))
    .stream(vec![(10, ack(json!(["t1"]))), (20, StreamEvent::Failed(json!({"message": "network reset"})))]);
    let no_retries = WaitSettings { retry: Retry { retries: 0, ..Retry::default() }, ..listen() };
    assert_eq!(run(&mut sim, TaskRef::TaskId("t1".into()), no_retries)["tag"], "ok");
    assert_eq!(sim.times("tasks/get"), [10, 110]);
}

#[test]
fn a_broken_stream_is_reopened_after_a_backoff_and_resynced() {
    let mut sim = Sim::new(polls(vec![
        Resp::Ok(0, get_result(at("working", "01", json!({})))),
        Resp::Ok(0, get_result(at("working", "02", json!({})))),
    ]))
    .stream(vec![(10, ack(json!(["t1"]))), (20, StreamEvent::Failed(json!({"message": "network reset"})))])
    .stream(vec![(5, ack(json!(["t1"]))), (50, event(completed("03")))]);
    let out = run(&mut sim, TaskRef::TaskId("t1".into()), listen());
    assert_eq!(out["tag"], "ok");
    let opens: Vec<u64> = sim
        .trace
        .iter()
        .filter(|t| t.ends_with(" listen"))
        .map(|t| t.split(' ').next().unwrap().parse().unwrap())
        .collect();
    assert_eq!(opens.len(), 2, "{:?}", sim.trace);
    // Re-opened 250..375 ms after the failure at 20; one resync read after each acknowledgement.
    assert!((270..=395).contains(&opens[1]), "{:?}", sim.trace);
    assert_eq!(sim.times("tasks/get"), [10, opens[1] + 5]);
}

#[test]
fn a_stream_that_keeps_failing_falls_back_to_polling_after_its_retries() {
    let fail = || vec![(1, StreamEvent::Failed(json!({"message": "refused"})))];
    let mut sim = Sim::new(polls(vec![Resp::Ok(0, get_result(completed("02")))]))
        .stream(fail())
        .stream(fail())
        .stream(fail())
        .stream(fail());
    assert_eq!(run(&mut sim, TaskRef::TaskId("t1".into()), listen())["tag"], "ok");
    let opens = sim.trace.iter().filter(|t| t.ends_with(" listen")).count();
    assert_eq!(opens, 4, "the first open and 3 retries: {:?}", sim.trace);
    assert_eq!(sim.times("tasks/get").len(), 1);
}

#[test]
fn foreign_duplicate_and_stale_events_change_nothing() {
    let statuses_seen = {
        let mut sim = Sim::new(polls(vec![Resp::Ok(0, get_result(at("working", "01", json!({}))))])).stream(vec![
            (10, ack(json!(["t1"]))),
            (20, event(task_with("t2", "completed", json!({"result": {"content": []}})))),
            (30, event(at("working", "02", json!({"statusMessage": "a"})))),
            (31, event(at("working", "02", json!({"statusMessage": "a"})))),
            (32, event(at("working", "01", json!({"statusMessage": "old"})))),
            (40, event(completed("03"))),
            (41, event(at("working", "04", json!({})))),
        ]);
        let out = run(&mut sim, TaskRef::TaskId("t1".into()), listen());
        assert_eq!(out["tag"], "ok");
        assert_eq!(sim.finished_at, Some(40));
        sim.statuses.iter().map(|s| json!([s["status"], s.get("statusMessage")])).collect::<Vec<_>>()
    };
    assert_eq!(statuses_seen, [json!(["working", null]), json!(["working", "a"]), json!(["completed", null])]);
}

#[test]
fn events_before_the_ack_are_ignored() {
    let mut sim = Sim::new(polls(vec![Resp::Ok(0, get_result(at("working", "01", json!({}))))])).stream(vec![
        (5, event(completed("09"))),
        (10, ack(json!(["t1"]))),
        (50, event(completed("10"))),
    ]);
    run(&mut sim, TaskRef::TaskId("t1".into()), listen());
    assert_eq!(sim.finished_at, Some(50));
}

#[test]
fn a_server_without_subscriptions_refuses_with_its_error() {
    for refusal in [
        StreamEvent::Failed(json!({"code": -32601, "message": "Method not found"})),
        StreamEvent::Message(
            json!({"jsonrpc": "2.0", "id": 3, "error": {"code": -32601, "message": "Method not found"}}),
        ),
    ] {
        let mut sim = Sim::new(polls(vec![Resp::Never])).stream(vec![(5, refusal)]);
        let out = run(&mut sim, TaskRef::TaskId("t1".into()), listen());
        assert_eq!(out["error"]["code"], -32601);
        assert_eq!(out["error"]["kind"], "server");
        assert_eq!(out["error"]["cause"], json!({"type": "rpc_error", "method": "subscriptions/listen"}));
        assert!(sim.requests.is_empty());
    }
}

#[test]
fn a_client_without_listen_gets_a_transport_error() {
    let mut sim = Sim::new(polls(vec![Resp::Never])).stream(vec![(0, StreamEvent::Unsupported)]);
    let out = run(&mut sim, TaskRef::TaskId("t1".into()), listen());
    assert_eq!(out["error"]["kind"], "transport");
    assert_eq!(out["error"]["cause"], json!({"type": "listen_unsupported"}));
}

#[test]
fn the_listen_errors_carry_the_task_so_it_is_never_orphaned() {
    // No status read yet: the task id alone.
    let mut sim = Sim::new(polls(vec![Resp::Never])).stream(vec![(0, StreamEvent::Unsupported)]);
    let out = run(&mut sim, TaskRef::TaskId("t1".into()), listen());
    assert_eq!((&out["tag"], &out["taskId"]), (&json!("error"), &json!("t1")));
    assert!(out.get("status").is_none(), "no status was read: {out}");
    // A seed status given: it is the last status.
    let mut sim = Sim::new(polls(vec![Resp::Never]))
        .stream(vec![(5, StreamEvent::Failed(json!({"code": -32601, "message": "Method not found"})))]);
    let seed = at("working", "01", json!({}));
    let out = run(&mut sim, TaskRef::Status(seed.clone()), listen());
    assert_eq!(out["error"]["code"], -32601);
    assert_eq!((&out["taskId"], &out["status"]["status"]), (&json!("t1"), &json!("working")), "{out}");
}

#[test]
fn with_listen_fallback_a_server_or_client_without_listen_is_polled() {
    let fallback = WaitSettings { listen_fallback: true, ..listen() };
    for refusal in [
        StreamEvent::Failed(json!({"code": -32601, "message": "Method not found"})),
        StreamEvent::Message(
            json!({"jsonrpc": "2.0", "id": 3, "error": {"code": -32601, "message": "Method not found"}}),
        ),
        StreamEvent::Unsupported,
    ] {
        let mut sim = Sim::new(polls(vec![Resp::Ok(0, get_result(completed("02")))])).stream(vec![(5, refusal)]);
        let out = run(&mut sim, TaskRef::TaskId("t1".into()), fallback);
        assert_eq!(out["tag"], "ok", "{out}");
        assert_eq!(sim.times("tasks/get").len(), 1, "polled at once");
    }
    // Another refusal still ends the wait: only "no such method" means "no listen here".
    let mut sim = Sim::new(polls(vec![Resp::Never]))
        .stream(vec![(5, StreamEvent::Failed(json!({"code": -32021, "message": "missing capability"})))]);
    let out = run(&mut sim, TaskRef::TaskId("t1".into()), fallback);
    assert_eq!(out["error"]["code"], -32021);
}

#[test]
fn an_ack_that_does_not_list_the_task_falls_back_to_polling() {
    for ids in [json!(["other"]), json!([]), Value::Null] {
        let mut sim = Sim::new(polls(vec![
            Resp::Ok(0, get_result(at("working", "01", json!({})))),
            Resp::Ok(0, get_result(completed("02"))),
        ]))
        .stream(vec![(10, ack(ids.clone())), (20, event(completed("02")))]);
        let out = run(&mut sim, TaskRef::TaskId("t1".into()), listen());
        assert_eq!(out["tag"], "ok");
        assert_eq!(sim.times("tasks/get"), [10, 110], "{ids}");
        assert!(sim.trace.contains(&"10 close stream".to_owned()));
    }
}

#[test]
fn the_deadline_bounds_the_acknowledgement() {
    let mut sim = Sim::new(polls(vec![Resp::Never])).stream(vec![]);
    let o = WaitSettings { limits: TimeLimits { deadline_ms: Some(300), request_timeout_ms: None }, ..listen() };
    let out = run(&mut sim, TaskRef::TaskId("t1".into()), o);
    assert_eq!(out["error"]["code"], -32001);
    assert_eq!(sim.trace, ["0 listen", "300 close stream", "300 resolve error"]);
}

#[test]
fn the_stream_is_closed_on_every_outcome() {
    let failed = at("failed", "02", json!({"error": {"code": -32603, "message": "x"}}));
    let asking = at("input_required", "02", json!({"inputRequests": {"k": {"method": "roots/list"}}}));
    let outcomes = [
        (event(completed("02")), "ok"),
        (event(failed), "error"),
        (event(at("cancelled", "02", json!({}))), "cancelled"),
        (event(asking), "input_required"),
        (event(at("bogus", "02", json!({}))), "error"),
    ];
    for (e, tag) in outcomes {
        let mut sim = Sim::new(polls(vec![Resp::Ok(0, get_result(at("working", "01", json!({}))))]))
            .stream(vec![(10, ack(json!(["t1"]))), (20, e)]);
        let out = run(&mut sim, TaskRef::TaskId("t1".into()), listen());
        assert_eq!(out["tag"], tag);
        let n = sim.trace.len();
        assert_eq!(sim.trace[n - 2], "20 close stream", "{tag}");
    }
    let mut sim = Sim::new(polls(vec![Resp::Never])).stream(vec![(10, ack(json!(["t1"])))]);
    sim.abort_at(50, json!("stop"));
    assert_eq!(run(&mut sim, TaskRef::TaskId("t1".into()), listen()), json!({"rejected": "stop"}));
    assert!(sim.trace.contains(&"50 close stream".to_owned()));
}

#[test]
fn input_requests_pushed_as_events_are_answered_once() {
    let asking = at(
        "input_required",
        "02",
        json!({"inputRequests": {"name": {"method": "elicitation/create", "params": {"message": "?", "requestedSchema": {"type": "object", "properties": {}}}}}}),
    );
    let mut asking_again = asking.clone();
    asking_again["lastUpdatedAt"] = json!("2026-09-01T08:00:03Z");
    let mut sim = Sim::new(polls(vec![Resp::Ok(0, get_result(at("working", "01", json!({}))))]))
        .stream(vec![
            (10, ack(json!(["t1"]))),
            (20, event(asking)),
            (60, event(asking_again)),
            (90, event(completed("04"))),
        ])
        .handler(|_, _, _, _| {
            Reaction::After(10, json!({"tag": "ok", "response": {"action": "accept", "content": {"name": "Ada"}}}))
        });
    let o = WaitSettings { input: InputMode::Handlers(HandlerSet { form: true, ..HandlerSet::default() }), ..listen() };
    let out = run(&mut sim, TaskRef::TaskId("t1".into()), o);
    assert_eq!(out["tag"], "ok");
    assert_eq!(sim.times("tasks/update"), [30]);
    assert_eq!(sim.trace.iter().filter(|t| t.contains(" ask ")).count(), 1);
}

#[test]
fn a_terminal_seed_does_not_open_a_stream() {
    let mut sim = Sim::new(polls(vec![Resp::Never]));
    let out = run(&mut sim, TaskRef::Status(completed("01")), listen());
    assert_eq!(out["tag"], "ok");
    assert_eq!(sim.trace, ["0 status completed", "0 resolve ok"]);
}

#[test]
fn a_broken_status_names_where_it_came_from() {
    let completed_without_result = at("completed", "02", json!({}));
    let mut sim = Sim::new(polls(vec![Resp::Ok(0, get_result(at("working", "01", json!({}))))]))
        .stream(vec![(10, ack(json!(["t1"]))), (20, event(completed_without_result))]);
    let out = run(&mut sim, TaskRef::TaskId("t1".into()), listen());
    assert_eq!(out["error"]["kind"], "protocol");
    assert_eq!(out["error"]["cause"]["method"], "notifications/tasks");
    assert_eq!(out["error"]["message"], "task t1 completed without a result");
}
