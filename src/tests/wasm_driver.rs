//! The async Rust shell, driven from Rust with wasm-bindgen-test, in Node and in headless Chromium
//! (`npm test` runs this file twice: `WASM_BINDGEN_USE_BROWSER=1` for the browser). A scripted client
//! written in Rust (the `Client` trait) plays the server; the timers are the module's real one, kept
//! short. What is checked: outcomes and the very result object, the deadline against a request that
//! never settles, an abort with its reason, one listener per shared signal, a future dropped half-way
//! (the wait stops and sends nothing more), and nothing left running after each call.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)]

use super::support;
use crate::engine::wait::TaskRef;
use crate::engine::{Cause as EngineCause, Outcome as EngineOutcome};
use crate::shell::clock::now;
use crate::shell::end::{End, Outcome, Rejection};
use crate::shell::live::{count, Counter};
use crate::shell::reply::called;
use crate::shell::start as api;
use crate::shell::timer::{armed_count, sleep_until};
use crate::{AwaitOptions, CallOptions};
use crate::{Client, Reply, RequestOptions};
use serde_json::json;
use std::cell::RefCell;
use std::future::{poll_fn, Future};
use std::pin::Pin;
use std::rc::Rc;
use std::task::Poll;
use std::time::Duration;
use support::join;
use wasm_bindgen::JsValue;
use wasm_bindgen_test::wasm_bindgen_test;

/// A JSON value as a JS value (plain objects).
fn js(v: serde_json::Value) -> JsValue {
    v.serialize(&serde_wasm_bindgen::Serializer::json_compatible()).unwrap_or(JsValue::NULL)
}
use serde::Serialize;

/// What the scripted server answers: `(method, params)` → the request's settlement.
type Script = Box<dyn Fn(&str, &JsValue, usize) -> Reply>;

/// A client written in Rust: it logs each request (method, time, its signal) and answers by script.
struct Scripted {
    log: RefCell<Vec<(String, u64, web_sys::AbortSignal)>>,
    script: Script,
}

impl Scripted {
    fn new(script: impl Fn(&str, &JsValue, usize) -> Reply + 'static) -> Rc<Self> {
        Rc::new(Self { log: RefCell::new(Vec::new()), script: Box::new(script) })
    }
    fn methods(&self) -> Vec<String> {
        self.log.borrow().iter().map(|(m, _, _)| m.clone()).collect()
    }
}

impl Client for Scripted {
    fn request(&self, method: &str, params: JsValue, options: RequestOptions) -> Reply {
        let n = self.log.borrow().len();
        self.log.borrow_mut().push((method.to_owned(), now(), options.signal.clone()));
        (self.script)(method, &params, n)
    }
    fn listen(&self, _params: JsValue, _signal: web_sys::AbortSignal) -> Option<Reply> {
        None
    }
}

fn ok(v: JsValue) -> Reply {
    called(Ok(v))
}

fn never() -> Reply {
    Box::pin(std::future::pending())
}

fn working(id: &str) -> JsValue {
    js(json!({"resultType": "task", "taskId": id, "status": "working", "pollIntervalMs": 10, "ttlMs": null}))
}

fn zero_left() {
    assert_eq!(
        [count(Counter::Runs), count(Counter::Requests), count(Counter::Asks), count(Counter::Streams), armed_count()],
        [0, 0, 0, 0, 0],
        "nothing left running"
    );
}

/// Sleeps on the module's timer.
async fn sleep(ms: u64) {
    sleep_until(now() + ms).await;
}

fn quick_wait() -> AwaitOptions {
    AwaitOptions { min_poll_interval: Some(Duration::from_millis(10)), ..AwaitOptions::default() }
}

#[wasm_bindgen_test]
async fn a_task_that_completes_gives_the_very_result_object() {
    let result = js(json!({"content": [{"type": "text", "text": "done"}]}));
    let r = result.clone();
    let client = Scripted::new(move |method, _, n| match (method, n) {
        ("tools/call", _) => ok(working("t1")),
        (_, 1) => ok(js(json!({"taskId": "t1", "status": "working", "pollIntervalMs": 10}))),
        _ => {
            let done = js(json!({"taskId": "t1", "status": "completed"}));
            let _ = js_sys::Reflect::set(&done, &"result".into(), &r);
            ok(done)
        }
    });
    let settled: End = api::call_and_await(client.clone(), "slow", None, CallOptions::default(), quick_wait(), None)
        .unwrap_or_else(|m| panic!("{m:?}"))
        .await;
    match settled {
        Ok(Outcome::Engine(EngineOutcome::Result(v))) => {
            assert!(js_sys::Object::is(&v, &result), "the very object the client gave")
        }
        other => panic!("not ok: {other:?}"),
    }
    assert_eq!(client.methods(), ["tools/call", "tasks/get", "tasks/get"]);
    zero_left();
}

#[wasm_bindgen_test]
async fn a_request_that_never_settles_ends_at_the_deadline_with_its_signal_aborted() {
    let client = Scripted::new(|_, _, _| never());
    let t0 = now();
    let opts = AwaitOptions { timeout: Some(Duration::from_millis(60)), retries: Some(0), ..AwaitOptions::default() };
    let settled = api::await_task(client.clone(), TaskRef::TaskId("t2".to_owned()), opts, None)
        .unwrap_or_else(|m| panic!("{m:?}"))
        .await;
    let waited = now() - t0;
    match settled {
        Ok(Outcome::Engine(EngineOutcome::Error(f))) => {
            assert_eq!(f.code, -32001);
            assert!(matches!(f.cause, Some(EngineCause::Timeout { .. })));
        }
        other => panic!("not the timeout: {other:?}"),
    }
    assert!((60..1000).contains(&waited), "ended after {waited} ms");
    let log = client.log.borrow();
    assert_eq!(log.len(), 1);
    assert!(log[0].2.aborted(), "the request's signal is aborted");
    drop(log);
    zero_left();
}

#[wasm_bindgen_test]
async fn an_abort_of_a_shared_signal_rejects_every_wait_with_its_reason_and_aborts_their_requests() {
    let client = Scripted::new(|_, _, _| never());
    let controller = web_sys::AbortController::new().unwrap_or_else(|_| panic!("AbortController"));
    let waits: Vec<_> = (0..12)
        .map(|i| {
            let opts = AwaitOptions { signal: Some(controller.signal()), ..AwaitOptions::default() };
            api::await_task(client.clone(), TaskRef::TaskId(["t", &i.to_string()].concat()), opts, None)
                .unwrap_or_else(|m| panic!("{m:?}"))
        })
        .collect();
    let reason = JsValue::from_str("enough");
    let (r, c) = (reason.clone(), controller.clone());
    let all = join_all(waits);
    let aborting = async move {
        sleep(20).await;
        c.abort_with_reason(&r);
    };
    let (outs, ()) = join(all, aborting).await;
    for settled in outs {
        match settled {
            Err(Rejection::Aborted(e)) => assert_eq!(e, reason),
            other => panic!("not rejected with the abort reason: {other:?}"),
        }
    }
    assert_eq!(client.log.borrow().len(), 12, "each wait sent its one read");
    assert!(client.log.borrow().iter().all(|(_, _, s)| s.aborted()));
    zero_left();
}

#[wasm_bindgen_test]
async fn a_dropped_wait_stops_and_sends_nothing_more() {
    let client = Scripted::new(|method, _, _| match method {
        "tools/call" => ok(working("t3")),
        _ => ok(js(json!({"taskId": "t3", "status": "working", "pollIntervalMs": 10}))),
    });
    let mut wait = api::call_and_await(client.clone(), "slow", None, CallOptions::default(), quick_wait(), None)
        .unwrap_or_else(|m| panic!("{m:?}"));
    // Let it run for a while, then drop it half-way.
    let mut stop = sleep_until(now() + 45);
    let finished = poll_fn(|cx| {
        if wait.as_mut().poll(cx).is_ready() {
            return Poll::Ready(true);
        }
        Pin::new(&mut stop).poll(cx).map(|()| false)
    })
    .await;
    assert!(!finished, "the task never ends: the wait was still running");
    drop(wait);
    let sent = client.log.borrow().len();
    assert!(sent >= 3, "it polled before being dropped ({sent} requests)");
    assert_eq!(count(Counter::Runs), 0, "the run is gone with its future");
    sleep(60).await;
    assert_eq!(client.log.borrow().len(), sent, "nothing sent after the drop");
    zero_left();
}

/// Runs every future to its end, side by side.
async fn join_all<F: Future + Unpin>(mut futures: Vec<F>) -> Vec<F::Output> {
    let mut done: Vec<Option<F::Output>> = futures.iter().map(|_| None).collect();
    poll_fn(|cx| {
        for (f, d) in futures.iter_mut().zip(done.iter_mut()) {
            if d.is_none() {
                if let Poll::Ready(v) = Pin::new(f).poll(cx) {
                    *d = Some(v);
                }
            }
        }
        if done.iter().all(Option::is_some) {
            Poll::Ready(())
        } else {
            Poll::Pending
        }
    })
    .await;
    done.into_iter().flatten().collect()
}

#[wasm_bindgen_test]
fn durations_become_whole_milliseconds_rounded_up_saturating_and_no_deadline_is_none() {
    use crate::shell::millis::{duration_of_millis, millis};
    assert_eq!(millis(Duration::ZERO), Some(0));
    assert_eq!(millis(Duration::from_nanos(1)), Some(1), "a part of a millisecond rounds up");
    assert_eq!(millis(Duration::from_micros(1500)), Some(2));
    assert_eq!(millis(Duration::new(3, 1_000_000)), Some(3001), "exact milliseconds stay");
    assert_eq!(millis(Duration::new(u64::MAX / 1000 + 1, 0)), Some(u64::MAX), "saturates");
    assert_eq!(millis(Duration::new(u64::MAX, 999_999_998)), Some(u64::MAX), "saturates below NO_DEADLINE");
    assert_eq!(millis(crate::NO_DEADLINE), None);
    assert_eq!(duration_of_millis(0.5), Duration::from_millis(1));
    assert_eq!(duration_of_millis(f64::INFINITY), crate::NO_DEADLINE);
    assert_eq!(millis(duration_of_millis(1e15)), Some(1_000_000_000_000_000));
}
