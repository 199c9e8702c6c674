//! Property tests of the engine's contract over the deterministic world in `crate::fuzzing`: random
//! bytes decode (through `arbitrary`, exactly as in the fuzzer `tests/fuzz`) into a machine, its
//! options and a list of server, application and clock moves; every invariant is checked after every
//! step (see `tests/fuzz/README.md` for the list).
//!
//! `every_world_keeps_the_engine_contract` runs 2000 cases by default (about 1.5 s in the debug
//! profile); `PROPTEST_CASES=N` overrides. Failures are not persisted to a file: a failure prints the
//! input bytes and the history, to be added below as a named regression test. The fuzzer's crash
//! inputs (`tests/fuzz/artifacts/engine/`) are replayed here by name too.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)]

use crate::fuzzing::harness;

use crate::engine::both::CallAndAwait;
use crate::engine::call::CallSettings;
use crate::engine::settings::{HandlerSet, InputMode, WaitSettings};
use crate::engine::{AbortScope, Action, End, Event, Machine, ReqId};
use crate::proto::rpc::RequestEnd;
use harness::{Dur, Move, Opts, ReplySpec, Rules, Scenario, StatusSpec, Subject};
use proptest::prelude::*;
use serde_json::{json, Value};
use std::collections::BTreeSet;

/// The number of cases: `PROPTEST_CASES`, else 2000.
fn cases() -> u32 {
    std::env::var("PROPTEST_CASES").ok().and_then(|s| s.parse().ok()).unwrap_or(2000)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: cases(), failure_persistence: None, ..ProptestConfig::default() })]

    /// Every world keeps every invariant (known findings relaxed, see `Rules::KNOWN`).
    #[test]
    fn every_world_keeps_the_engine_contract(bytes in proptest::collection::vec(any::<u8>(), 0..4096)) {
        harness::run_bytes(&bytes);
    }

    /// Every MCP 2025-11-25 world keeps its rules (`crate::fuzzing::core`).
    #[test]
    fn every_core_tasks_world_keeps_its_rules(bytes in proptest::collection::vec(any::<u8>(), 0..1024)) {
        crate::fuzzing::core::play(&bytes);
    }
}

/// Deterministic pseudo-random inputs (xorshift), for the generator check.
fn inputs(n: usize) -> impl Iterator<Item = Vec<u8>> {
    let mut state = 0x1234_5678_9abc_def1u64;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    (0..n).map(move |_| {
        let len = (next() % 4096) as usize;
        (0..len).map(|_| next() as u8).collect()
    })
}

/// The generator is not vacuous: over 2000 fixed inputs it reaches polls, retries, input rounds,
/// updates and their re-send, listen streams, `callAndAwait`'s second part and every kind of outcome.
#[test]
fn the_generator_reaches_every_part_of_the_engine() {
    let mut total = harness::Stats::default();
    let mut outcomes = BTreeSet::new();
    for bytes in inputs(2000) {
        let s = harness::run_bytes(&bytes);
        total.polls += s.polls;
        total.retries += s.retries;
        total.asks += s.asks;
        total.updates += s.updates;
        total.resends += s.resends;
        total.streams += s.streams;
        total.next_parts += s.next_parts;
        outcomes.extend(s.outcome);
    }
    for (what, n) in [
        ("polls", total.polls),
        ("retries", total.retries),
        ("asks", total.asks),
        ("updates", total.updates),
        ("resends", total.resends),
        ("streams", total.streams),
        ("next parts", total.next_parts),
    ] {
        assert!(n > 0, "no {what} in 2000 worlds: {total:?}");
    }
    for tag in ["ok", "task", "cancelled", "input_required", "rejected", "error timeout", "error request_failed"] {
        assert!(outcomes.contains(tag), "no outcome {tag:?} in 2000 worlds: {outcomes:?}");
    }
}

/// Replays an input file named by `HARNESS_REPLAY` (a fuzzer artifact, say) and prints its decoded
/// scenario and history: `HARNESS_REPLAY=tests/fuzz/artifacts/engine/crash-… cargo test --lib
/// props::replay -- --ignored --nocapture`.
#[test]
#[ignore = "a triage tool: needs HARNESS_REPLAY"]
fn replay() {
    let path = std::env::var("HARNESS_REPLAY").expect("HARNESS_REPLAY names an input file");
    let bytes = std::fs::read(&path).expect("the input file is readable");
    let s = Scenario::decode(&bytes);
    println!("{s:#?}");
    let (stats, history) = harness::trace(&s, Rules::KNOWN);
    println!("{}\n{stats:?}", history.join("\n"));
}

// ---------------------------------------------------------------------------------------------------
// Finding 1 (fixed in src/engine/both.rs): `callAndAwait` whose `awaitOptions.signal` fires during the call.
//
// The README: "`awaitOptions.signal` aborting during the call ends the wait as soon as it starts,
// with `cancelOnAbort` honoured". `CallAndAwait::next_action` builds the `Wait` from the created
// task's status (which observes the task reference: `onStatus`, input handlers, a `tasks/get` for a task reference that
// lacks its payload, the listen stream) and only then hands it the stored abort. So for a wait whose
// signal has already fired: `onStatus` and input handlers are called (and their signals aborted at
// once), a `tasks/get` or `subscriptions/listen` goes out (and is aborted), and a task reference that decides
// the wait by itself (terminal, or `input_required` nobody may answer) resolves the promise with that
// outcome instead of rejecting with `signal.reason`. Fixed: the machine now ends the call with the
// rejection (and the best-effort cancel) as soon as the task is created; these tests guard it.
// ---------------------------------------------------------------------------------------------------

/// `callAndAwait` (with `wait_opts`) whose wait signal fires before the `tools/call` answer, which
/// creates a task with status `task`: every action after the answer.
fn aborted_wait_starts_with(task: Value, wait_opts: WaitSettings) -> Vec<Action<Value>> {
    let mut m = CallAndAwait::new("slow".into(), None, CallSettings::default(), wait_opts, false, 0);
    while m.next_action().is_some() {}
    m.handle(5, Event::Abort { reason: json!("stop"), scope: AbortScope::Wait });
    assert!(m.next_action().is_none(), "the call part goes on");
    let mut created = task;
    created["resultType"] = json!("task");
    m.handle(10, Event::Reply { req: ReqId(1), reply: RequestEnd::Result(created) });
    std::iter::from_fn(|| m.next_action()).collect()
}

/// The actions that start something in the wait (what an aborted wait must not do).
fn started(actions: &[Action<Value>]) -> Vec<String> {
    actions
        .iter()
        .filter_map(|a| match a {
            Action::Status(_) => Some("onStatus".to_owned()),
            Action::Ask { key, .. } => Some(format!("handler for {key}")),
            Action::AskAll { .. } => Some("input function".to_owned()),
            Action::Send { call, .. } => Some(call.method().to_owned()),
            Action::OpenStream { .. } => Some("subscriptions/listen".to_owned()),
            _ => None,
        })
        .collect()
}

fn rejected_with_stop(actions: &[Action<Value>]) -> bool {
    matches!(actions.last(), Some(Action::End(End::Rejection(r))) if *r == json!("stop"))
}

#[test]
fn finding_1_an_aborted_wait_starts_nothing() {
    let form = json!({"a": {"method": "elicitation/create", "params": {"message": "Name?", "requestedSchema": {"type": "object"}}}});
    let handlers = WaitSettings {
        input: InputMode::Handlers(HandlerSet { form: true, ..HandlerSet::default() }),
        ..WaitSettings::default()
    };
    let cases = [
        (json!({"taskId": "t1", "status": "working"}), WaitSettings::default()),
        (json!({"taskId": "t1", "status": "input_required", "inputRequests": form}), handlers),
        (json!({"taskId": "t1", "status": "completed"}), WaitSettings::default()),
        (json!({"taskId": "t1", "status": "working"}), WaitSettings { listen: true, ..WaitSettings::default() }),
    ];
    for (task, opts) in cases {
        let actions = aborted_wait_starts_with(task.clone(), opts);
        assert!(started(&actions).is_empty(), "{task}: the aborted wait started {:?}", started(&actions));
        assert!(rejected_with_stop(&actions), "{task}: {actions:?}");
    }
}

#[test]
fn finding_1_an_aborted_wait_rejects_with_the_reason_whatever_the_seed() {
    let done = json!({"taskId": "t1", "status": "completed", "result": {"content": []}});
    let asking = json!({"taskId": "t1", "status": "input_required", "inputRequests": {"a": {"method": "roots/list"}}});
    for (task, opts) in [
        (done, WaitSettings::default()),
        (asking, WaitSettings { input: InputMode::Return, ..WaitSettings::default() }),
    ] {
        let actions = aborted_wait_starts_with(task.clone(), opts);
        assert!(rejected_with_stop(&actions), "{task}: resolved instead of rejecting: {:?}", actions.last());
    }
}

/// Finding 1 through the harness, under the strict rules: the wait signal fires during the call,
/// then `tools/call` creates a working task.
#[test]
fn finding_1_harness_form() {
    let created = StatusSpec::working();
    let s = Scenario {
        subject: Subject::CallAndAwait,
        opts: Opts::default(),
        moves: vec![
            Move::Abort(harness::ScopeSpec::Wait),
            Move::Reply(harness::Pick::Oldest, ReplySpec::Result(created)),
            Move::Advance(Dur::Second),
        ],
    };
    harness::run(&s, Rules::STRICT);
}

// ---------------------------------------------------------------------------------------------------
// Fuzzer crash inputs (tests/fuzz/artifacts/engine/), replayed by name.
// ---------------------------------------------------------------------------------------------------

/// Found by `MCP_FUZZ_STRICT=1 tests/fuzz/short.sh` from the committed corpus (its 39th input):
/// finding 1 — `callAndAwait`, the wait signal fires during the call, the created task's task is
/// observed (`onStatus`) before the abort ends the wait.
const CRASH_9278: &[u8] =
    include_bytes!("../../tests/fuzz/artifacts/engine/crash-92787462359c83a56470155044177e84f71bea5f");

#[test]
fn fuzz_crash_9278_finding_1_under_strict_rules() {
    harness::run(&Scenario::decode(CRASH_9278), Rules::STRICT);
}

/// The same input, since the fix: the wait never starts (no `NextPart`) and the call rejects.
#[test]
fn fuzz_crash_9278_now_rejects_before_the_wait_starts() {
    let stats = harness::run(&Scenario::decode(CRASH_9278), Rules::KNOWN);
    assert_eq!(stats.next_parts, 0, "{stats:?}");
    assert_eq!(stats.outcome.as_deref(), Some("rejected"), "{stats:?}");
}
