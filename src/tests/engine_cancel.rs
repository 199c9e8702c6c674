//! The cancel's promises on simulated time: a wait's `cancelSignal` (`Event::Cancel`) sends one
//! `tasks/cancel` and goes on to the server's answer — `cancelled`, the task's real end when the cancel
//! loses the race or is refused, the timeout when it is ignored — asking for no more input; and
//! `callAndAwait`'s call `timeoutMs` bounding the whole call when the wait's options set none.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)]

use super::sim;

use crate::engine::both::CallAndAwait;
use crate::engine::call::CallSettings;
use crate::engine::settings::{HandlerSet, InputMode, TimeLimits, WaitSettings};
use crate::engine::wait::{TaskRef, Wait};
use serde_json::{json, Value};
use sim::{get_result, task, task_with, Reaction, Resp, Sim};
use std::cell::Cell;
use std::rc::Rc;

fn wait(timeout_ms: u64) -> Wait<Value> {
    let limits = TimeLimits { deadline_ms: Some(timeout_ms), request_timeout_ms: None };
    let o = WaitSettings { limits, poll_interval_ms: 1000, ..WaitSettings::default() };
    Wait::new(TaskRef::TaskId("t1".into()), o, 0).unwrap()
}

/// A server whose task is `working` until a `tasks/cancel` is acknowledged, then `after` (a status).
fn cancellable(after: &'static str, cancels: Rc<Cell<u32>>) -> impl FnMut(&str, &Value, u64) -> Resp {
    let mut cancelled = false;
    move |method, _, _| match method {
        "tasks/get" if cancelled => Resp::Ok(5, get_result(task_with("t1", after, end_of(after)))),
        "tasks/get" => Resp::Ok(5, get_result(task("t1", "working"))),
        "tasks/cancel" => {
            cancels.set(cancels.get() + 1);
            cancelled = true;
            Resp::Ok(5, json!({}))
        }
        _ => Resp::Never,
    }
}

fn end_of(status: &str) -> Value {
    match status {
        "completed" => json!({"result": {"content": []}}),
        "failed" => json!({"error": {"code": -32603, "message": "boom"}}),
        _ => json!({}),
    }
}

#[test]
fn a_cancel_sends_one_tasks_cancel_and_the_wait_ends_with_the_servers_cancelled_status() {
    let cancels = Rc::new(Cell::new(0));
    let mut sim = Sim::new(cancellable("cancelled", cancels.clone()));
    sim.cancel_at(300);
    sim.cancel_at(310);
    let mut w = wait(60_000);
    let out = sim.run(&mut w);
    assert_eq!(out["tag"], "cancelled", "{:?}", sim.trace);
    assert_eq!(out["status"]["status"], "cancelled");
    assert_eq!(cancels.get(), 1, "one tasks/cancel however often it is asked: {:?}", sim.trace);
    assert_eq!(sim.times("tasks/cancel"), [300]);
    // The acknowledgement (at 305) is followed by a read as soon as the floor allows, not the next poll.
    assert_eq!(sim.times("tasks/get"), [0, 305]);
    assert!(sim.detached.is_empty());
}

#[test]
fn a_cancel_that_loses_the_race_or_is_refused_gives_the_tasks_real_end() {
    // Acknowledged, but the task completed anyway.
    let mut sim = Sim::new(cancellable("completed", Rc::new(Cell::new(0))));
    sim.cancel_at(300);
    assert_eq!(sim.run(&mut wait(60_000))["tag"], "ok");

    // Refused (-32602: the legacy answer for a task already ended): the read tells the end.
    let mut sim = Sim::new(|m: &str, _: &Value, _| match m {
        "tasks/cancel" => Resp::Err(5, -32602, "task already terminal"),
        "tasks/get" => Resp::Ok(5, get_result(task_with("t1", "failed", end_of("failed")))),
        _ => Resp::Never,
    });
    let mut w = Wait::new(
        TaskRef::Status(task("t1", "working")),
        WaitSettings { poll_interval_ms: 1000, ..WaitSettings::default() },
        0,
    )
    .unwrap();
    sim.cancel_at(300);
    let out = sim.run(&mut w);
    assert_eq!(out["tag"], "error");
    assert_eq!(sim.times("tasks/get"), [305]);
}

#[test]
fn a_cancel_the_server_ignores_ends_at_the_deadline_with_the_timeout() {
    let mut sim = Sim::new(|m: &str, _: &Value, _| match m {
        "tasks/cancel" => Resp::Ok(5, json!({})),
        "tasks/get" => Resp::Ok(5, get_result(task("t1", "working"))),
        _ => Resp::Never,
    });
    sim.cancel_at(300);
    let out = sim.run(&mut wait(2_500));
    assert_eq!(out["tag"], "error");
    assert_eq!(out["error"]["code"], -32001, "{out}");
    assert_eq!(sim.finished_at, Some(2_500));
    // A cancel that never answers does not hold the wait past its deadline either.
    let mut sim = Sim::new(|m: &str, _: &Value, _| match m {
        "tasks/get" => Resp::Ok(5, get_result(task("t1", "working"))),
        _ => Resp::Never,
    });
    sim.cancel_at(300);
    assert_eq!(sim.run(&mut wait(2_500))["error"]["code"], -32001);
    assert_eq!(sim.finished_at, Some(2_500));
}

#[test]
fn a_lost_cancel_is_re_issued_like_a_read_and_a_lasting_loss_leaves_the_wait_going() {
    let tries = Rc::new(Cell::new(0));
    let t = tries.clone();
    let mut sim = Sim::new(move |m: &str, _: &Value, _| match m {
        "tasks/cancel" if t.get() < 1 => {
            t.set(t.get() + 1);
            Resp::Fail(5, json!({"message": "connection reset"}))
        }
        "tasks/cancel" => {
            t.set(t.get() + 1);
            Resp::Ok(5, json!({}))
        }
        "tasks/get" if t.get() >= 2 => Resp::Ok(5, get_result(task("t1", "cancelled"))),
        "tasks/get" => Resp::Ok(5, get_result(task("t1", "working"))),
        _ => Resp::Never,
    });
    sim.cancel_at(300);
    assert_eq!(sim.run(&mut wait(60_000))["tag"], "cancelled", "{:?}", sim.trace);
    assert_eq!(tries.get(), 2);
    let times = sim.times("tasks/cancel");
    assert!(times[1] > 305, "re-issued after a backoff: {times:?}");

    // Never reaching the server (a failure that is not transient): the wait goes on to the task's end.
    let mut sim = Sim::new(|m: &str, _: &Value, now| match m {
        "tasks/cancel" => Resp::Fail(5, json!({"name": "TypeError", "message": "bad"})),
        "tasks/get" if now > 1500 => Resp::Ok(5, get_result(task_with("t1", "completed", end_of("completed")))),
        "tasks/get" => Resp::Ok(5, get_result(task("t1", "working"))),
        _ => Resp::Never,
    });
    sim.cancel_at(300);
    assert_eq!(sim.run(&mut wait(60_000))["tag"], "ok", "{:?}", sim.trace);
}

#[test]
fn after_a_cancel_no_input_is_asked_for_and_asks_running_are_stopped() {
    let form = json!({"method": "elicitation/create", "params": {"message": "?", "requestedSchema": {"type": "object", "properties": {}}}});
    let asking = task_with("t1", "input_required", json!({"inputRequests": {"a": form.clone()}}));
    let asking2 = task_with("t1", "input_required", json!({"inputRequests": {"b": form}}));
    let mut cancelled = false;
    let mut sim = Sim::new(move |m: &str, _: &Value, now| match m {
        "tasks/cancel" => {
            cancelled = true;
            Resp::Ok(5, json!({}))
        }
        "tasks/get" if cancelled && now > 2000 => Resp::Ok(5, get_result(task("t1", "cancelled"))),
        "tasks/get" if now < 200 => Resp::Ok(5, get_result(asking.clone())),
        "tasks/get" => Resp::Ok(5, get_result(asking2.clone())),
        _ => Resp::Never,
    })
    .handler(|_, _, _, _| Reaction::Never);
    sim.cancel_at(300);
    let all = HandlerSet { form: true, url: true, sampling: true, roots: true };
    let o = WaitSettings { poll_interval_ms: 1000, input: InputMode::Handlers(all), ..WaitSettings::default() };
    let mut w = Wait::new(TaskRef::TaskId("t1".into()), o, 0).unwrap();
    assert_eq!(sim.run(&mut w)["tag"], "cancelled", "{:?}", sim.trace);
    let asks: Vec<_> = sim.trace.iter().filter(|t| t.contains(" ask ")).collect();
    assert_eq!(asks.len(), 1, "only the ask before the cancel: {:?}", sim.trace);
    assert!(sim.trace.iter().any(|t| t == "300 stop ask"), "{:?}", sim.trace);
    assert_eq!(sim.times("tasks/update"), Vec::<u64>::new());

    // With `input: "return"` an `input_required` status after the cancel does not end the wait either.
    let mut cancelled = false;
    let asking = task_with("t1", "input_required", json!({"inputRequests": {"a": {"method": "roots/list"}}}));
    let mut sim = Sim::new(move |m: &str, _: &Value, now| match m {
        "tasks/cancel" => {
            cancelled = true;
            Resp::Ok(5, json!({}))
        }
        "tasks/get" if cancelled && now > 1000 => Resp::Ok(5, get_result(task("t1", "cancelled"))),
        "tasks/get" if cancelled => Resp::Ok(5, get_result(asking.clone())),
        "tasks/get" => Resp::Ok(5, get_result(task("t1", "working"))),
        _ => Resp::Never,
    });
    sim.cancel_at(300);
    let o = WaitSettings { poll_interval_ms: 1000, input: InputMode::Return, ..WaitSettings::default() };
    let mut w = Wait::new(TaskRef::TaskId("t1".into()), o, 0).unwrap();
    assert_eq!(sim.run(&mut w)["tag"], "cancelled", "{:?}", sim.trace);
}

fn created() -> Value {
    json!({"resultType": "task", "taskId": "t1", "status": "working", "pollIntervalMs": 100, "ttlMs": null, "createdAt": "x", "lastUpdatedAt": "x"})
}

#[test]
fn a_cancel_asked_during_call_and_awaits_call_goes_out_as_its_wait_starts() {
    let cancels = Rc::new(Cell::new(0));
    let mut inner = cancellable("cancelled", cancels.clone());
    let mut sim = Sim::new(move |m: &str, p: &Value, now| match m {
        "tools/call" => Resp::Ok(50, created()),
        _ => inner(m, p, now),
    });
    sim.cancel_at(10);
    let mut m = CallAndAwait::new("slow".into(), None, CallSettings::default(), WaitSettings::default(), false, 0);
    assert_eq!(sim.run(&mut m)["tag"], "cancelled", "{:?}", sim.trace);
    assert_eq!(sim.times("tasks/cancel"), [50]);
    assert_eq!(cancels.get(), 1);

    // A call that ends with a result is that result: there is no task to cancel.
    let mut sim = Sim::new(|m: &str, _: &Value, _| match m {
        "tools/call" => Resp::Ok(50, json!({"resultType": "complete", "content": []})),
        _ => Resp::Never,
    });
    sim.cancel_at(10);
    let mut m = CallAndAwait::new("slow".into(), None, CallSettings::default(), WaitSettings::default(), false, 0);
    assert_eq!(sim.run(&mut m)["tag"], "ok");
    assert_eq!(sim.times("tasks/cancel"), Vec::<u64>::new());
}

#[test]
fn the_calls_timeout_bounds_the_whole_call_and_await_when_the_wait_sets_none() {
    let server = |m: &str, _: &Value, _| match m {
        "tools/call" => Resp::Ok(400, created()),
        "tasks/get" => Resp::Ok(5, get_result(task("t1", "working"))),
        _ => Resp::Never,
    };
    let call = CallSettings {
        limits: TimeLimits { deadline_ms: Some(1000), request_timeout_ms: None },
        ..CallSettings::default()
    };
    let mut sim = Sim::new(server);
    let mut m = CallAndAwait::new("slow".into(), None, call.clone(), WaitSettings::default(), true, 0);
    let out = sim.run(&mut m);
    assert_eq!(out["error"]["code"], -32001, "{out}");
    assert_eq!(sim.finished_at, Some(1000), "the whole call, from its start: {:?}", sim.trace);
    assert_eq!(out["error"]["data"]["timeoutMs"], 1000, "the bound the caller set: {out}");
    assert!(out["error"]["message"].as_str().unwrap().contains("after 1000 ms"), "{out}");
    // Every request of the wait is bounded by the time left of the whole call.
    assert!(sim.trace.iter().any(|t| t == "500 tasks/get (timeout 500)"), "{:?}", sim.trace);

    // Without `whole` (the wait's options set their own bound), the wait counts from its own start.
    let mut sim = Sim::new(server);
    let wait = WaitSettings {
        limits: TimeLimits { deadline_ms: Some(1000), request_timeout_ms: None },
        ..WaitSettings::default()
    };
    let mut m = CallAndAwait::new("slow".into(), None, call.clone(), wait, false, 0);
    assert_eq!(sim.run(&mut m)["error"]["code"], -32001);
    assert_eq!(sim.finished_at, Some(1400));

    // An unbounded call bounds nothing: the wait runs until the task ends.
    let mut n = 0;
    let mut sim = Sim::new(move |m: &str, _: &Value, _| match m {
        "tools/call" => Resp::Ok(400, created()),
        "tasks/get" => {
            n += 1;
            let s = if n > 100 { task_with("t1", "completed", end_of("completed")) } else { task("t1", "working") };
            Resp::Ok(5, get_result(s))
        }
        _ => Resp::Never,
    });
    let unbounded = CallSettings { limits: TimeLimits { deadline_ms: None, request_timeout_ms: None }, ..call };
    let mut m = CallAndAwait::new("slow".into(), None, unbounded, WaitSettings::default(), true, 0);
    assert_eq!(sim.run(&mut m)["tag"], "ok");
    assert!(sim.finished_at.unwrap() > 60_000, "past the wait's default bound: {:?}", sim.finished_at);
}
