//! The machines in progress, by handle, and the one entry point that moves them: [`feed`] hands a
//! machine one event and returns every action it then decided, flattened for the JS driver
//! (`js/run.js`), which carries them out. Nothing here runs application code except the reads of
//! values a machine inspects (each through a catching import of `rt.js`).
//!
//! Re-entrancy: such a read (a getter, a Proxy trap) may call back into the module and start another
//! run. A machine is taken out of its slot while it runs, so no borrow is held meanwhile; the driver
//! never feeds a run while that run is being fed (it queues the event and feeds it afterwards).

use super::js_json::js_string;
use super::rt::emit;
use crate::engine::{AbortScope, Action, AskId, Event, Finish, Machine, ReqId, StreamEvent};
use crate::proto::rpc::{read_rejection, Reply};
use std::cell::RefCell;
use wasm_bindgen::prelude::*;

/// One run: its machine and the capabilities its requests declare.
struct Entry {
    machine: Box<dyn Machine<JsValue>>,
    capabilities: JsValue,
}

/// Runs by handle (the slot index), and the slots free for reuse.
#[derive(Default)]
struct Registry {
    slots: Vec<Option<Entry>>,
    free: Vec<u32>,
}

thread_local! {
    static RUNS: RefCell<Registry> = RefCell::new(Registry::default());
}

/// Keeps `machine` under a new handle.
pub fn register(machine: Box<dyn Machine<JsValue>>, capabilities: JsValue) -> u32 {
    RUNS.with(|r| {
        let mut r = r.borrow_mut();
        let entry = Some(Entry { machine, capabilities });
        match r.free.pop() {
            Some(slot) => {
                if let Some(s) = r.slots.get_mut(slot as usize) {
                    *s = entry;
                }
                slot
            }
            None => {
                r.slots.push(entry);
                (r.slots.len() - 1) as u32
            }
        }
    })
}

/// Forgets a run that never started (its caller's signal was already aborted).
#[wasm_bindgen(js_name = dropRun, skip_typescript)]
pub fn drop_run(handle: u32) {
    let taken = take(handle);
    drop(taken);
    RUNS.with(|r| r.borrow_mut().free.push(handle));
}

fn take(handle: u32) -> Option<Entry> {
    RUNS.with(|r| r.borrow_mut().slots.get_mut(handle as usize).and_then(Option::take))
}

/// The event codes of [`feed`] (`js/run.js` names them alike; 0 is none: only the actions so far).
mod event {
    pub const TICK: u32 = 1;
    pub const RESULT: u32 = 2;
    pub const REJECTED: u32 = 3;
    pub const ANSWER: u32 = 4;
    pub const THROW: u32 = 5;
    pub const MESSAGE: u32 = 6;
    pub const END: u32 = 7;
    pub const FAILED: u32 = 8;
    pub const UNSUPPORTED: u32 = 9;
    pub const ABORT: u32 = 10;
}

/// Feeds run `handle` one event at time `now` (`kind` from [`event`]; `id` the request, the ask, or
/// for an abort the scope: 0 all, 1 the call, 2 the wait), appends every action it then decides to
/// `out`, seven slots each — `[code, id, a, b, c, d, ms]`: 1 send (id, method, params; ms the
/// request's time, −1 none), 2 send detached (method, params; ms), 3 abort a request (id), 4 status
/// (status), 5 ask a handler (id, handler name, key, params, status), 6 ask the input function (id,
/// status), 7 stop an ask (id), 8 open the listen stream (params), 9 close it, 10 next part, 11
/// resolve (outcome), 12 reject (value) — and returns the time the run next needs a tick: −1 none
/// (also once it finished: then the handle is free), −2 when the handle is not running.
#[wasm_bindgen(js_name = feedRun, skip_typescript)]
pub fn feed(handle: u32, kind: u32, id: u32, value: JsValue, now: f64, out: &JsValue) -> f64 {
    let Some(mut entry) = take(handle) else { return -2.0 };
    let now = now as u64;
    let req = ReqId(id);
    let ask = AskId(id);
    let e = match kind {
        event::TICK => Some(Event::Tick),
        event::RESULT => Some(Event::Reply { req, reply: Reply::Result(value) }),
        event::REJECTED => Some(Event::Reply { req, reply: read_rejection(value) }),
        event::ANSWER => Some(Event::Answer { ask, value }),
        event::THROW => Some(Event::Throw { error: value }),
        event::MESSAGE => Some(Event::Stream(StreamEvent::Message(value))),
        event::END => Some(Event::Stream(StreamEvent::End)),
        event::FAILED => Some(Event::Stream(StreamEvent::Failed(value))),
        event::UNSUPPORTED => Some(Event::Stream(StreamEvent::Unsupported)),
        event::ABORT => {
            let scope = [AbortScope::All, AbortScope::Call, AbortScope::Wait].get(id as usize).copied();
            Some(Event::Abort { reason: value, scope: scope.unwrap_or(AbortScope::All) })
        }
        _ => None, // 0: no event, only the actions decided so far
    };
    if let Some(e) = e {
        entry.machine.handle(now, e);
    }
    let mut finished = false;
    while let Some(action) = entry.machine.next_action() {
        finished |= matches!(action, Action::Finish(_));
        emit_action(out, action, &entry.capabilities);
    }
    if finished {
        RUNS.with(|r| r.borrow_mut().free.push(handle));
        return -1.0;
    }
    let wake = entry.machine.wake_at().map_or(-1.0, |t| t as f64);
    RUNS.with(|r| {
        if let Some(s) = r.borrow_mut().slots.get_mut(handle as usize) {
            *s = Some(entry);
        }
    });
    wake
}

/// Appends one action's seven slots.
fn emit_action(out: &JsValue, action: Action<JsValue>, capabilities: &JsValue) {
    const U: JsValue = JsValue::UNDEFINED;
    let none = -1.0;
    let (code, id, a, b, c, d, ms) = match action {
        Action::Send { req, call, timeout_ms } => {
            (1, req.0, js_string(call.method()), call.params(capabilities), U, U, timeout_ms.map_or(none, |t| t as f64))
        }
        Action::SendDetached { call, timeout_ms } => {
            (2, 0, js_string(call.method()), call.params(capabilities), U, U, timeout_ms as f64)
        }
        Action::Abort { req } => (3, req.0, U, U, U, U, none),
        Action::Status(status) => (4, 0, status, U, U, U, none),
        Action::Ask { ask, kind, key, params, status } => {
            (5, ask.0, js_string(kind.handler_name()), js_string(&key), params, status, none)
        }
        Action::AskAll { ask, status } => (6, ask.0, status, U, U, U, none),
        Action::StopAsk { ask } => (7, ask.0, U, U, U, U, none),
        Action::OpenStream { call } => (8, 0, call.params(capabilities), U, U, U, none),
        Action::CloseStream => (9, 0, U, U, U, U, none),
        Action::NextPart => (10, 0, U, U, U, U, none),
        Action::Finish(Finish::Resolve(o)) => (11, 0, o.to_json(), U, U, U, none),
        Action::Finish(Finish::Reject(v)) => (12, 0, v, U, U, U, none),
    };
    emit(out, code, id, &a, &b, &c, &d, ms);
}
