//! Runs engine machines against JS: sends their requests through the client, calls the application's
//! handlers and `onStatus`, reads the listen stream, asks the module's one timer to wake them, watches
//! the caller's abort signals, and settles the returned promise. It makes no protocol decisions.
//!
//! Re-entrancy: application code (a client, a handler, `onStatus`, a getter or Proxy trap on a value
//! the machine reads, a duck-typed signal) may call back into the module at any moment. No `RefCell`
//! borrow is held while application code runs, except the machine's own while it reads values: an
//! event arriving then only goes into the run's inbox (a separate cell) and is handled right after.

use super::client::JsClient;
use super::js_json::js_string;
use super::rt;
use super::scheduler::{self, now};
use crate::engine::{AbortScope, Action, AskId, Event, Finish, Machine, Millis, ReqId, StreamEvent};
use crate::proto::rpc::{read_rejection, Reply};
use js_sys::{Array, Function, Promise};
use std::cell::{Cell, RefCell};
use std::collections::VecDeque;
use std::rc::Rc;
use wasm_bindgen::prelude::*;

/// What the module's timer wakes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Target {
    /// A run, by handle.
    Run(u64),
    /// The bound of a detached request, by id.
    Detached(u32),
}

/// The application callbacks of one run.
pub struct Hooks {
    /// `onStatus`.
    pub on_status: Option<Function>,
    /// The input function (`input` option).
    pub input_fn: Option<Function>,
    /// The input handlers object.
    pub handlers: JsValue,
    /// The callbacks of the run's next part (`callAndAwait`: the wait's), taken on `Action::NextPart`.
    pub next: Option<Box<Hooks>>,
}

/// A signal the run watches, with the part of the call it governs.
pub struct Watched {
    /// The signal.
    pub signal: JsValue,
    /// What it aborts.
    pub scope: AbortScope,
}

/// What a settled token stood for.
enum Pending {
    Request(ReqId),
    Ask(AskId),
    Stream,
    Signal(AbortScope),
}

/// The JS side of a run: everything it holds while it runs.
struct Io {
    client: Rc<JsClient>,
    hooks: Hooks,
    /// Requests in flight: token, id, abort handle.
    requests: Vec<(u32, ReqId, JsValue)>,
    /// Running asks: token, id, abort handle.
    asks: Vec<(u32, AskId, JsValue)>,
    /// The open stream: token, handle.
    stream: Option<(u32, JsValue)>,
    /// Watched signals: token, scope, stop-watching function.
    signals: Vec<(u32, AbortScope, JsValue)>,
    /// `resolve` and `reject` of the returned promise (taken at the end).
    settle: Option<(JsValue, JsValue)>,
    /// What `onStatus` threw: the promise rejects with it, whatever the outcome.
    callback_error: Option<JsValue>,
    /// Times the run is queued at in the module's timer.
    queued: Vec<Millis>,
    next_token: u32,
}

impl Io {
    fn token(&mut self) -> u32 {
        self.next_token = self.next_token.wrapping_add(1);
        self.next_token
    }

    /// Takes out what `token` stood for (a request, an ask, the stream or a signal).
    fn take(&mut self, token: u32) -> Option<Pending> {
        if let Some(at) = self.requests.iter().position(|r| r.0 == token) {
            return Some(Pending::Request(self.requests.remove(at).1));
        }
        if let Some(at) = self.asks.iter().position(|a| a.0 == token) {
            return Some(Pending::Ask(self.asks.remove(at).1));
        }
        if self.stream.as_ref().is_some_and(|s| s.0 == token) {
            return Some(Pending::Stream); // the stream stays open: more may come
        }
        self.signals.iter().find(|s| s.0 == token).map(|s| Pending::Signal(s.1))
    }
}

/// One machine being run.
struct Run {
    handle: u64,
    machine: RefCell<Box<dyn Machine<JsValue>>>,
    inbox: RefCell<VecDeque<Event<JsValue>>>,
    busy: Cell<bool>,
    io: RefCell<Io>,
}

/// Runs in progress, by handle (`generation << 20 | slot`), and detached request bounds.
#[derive(Default)]
struct Registry {
    slots: Vec<(u32, Option<Rc<Run>>)>,
    free: Vec<u32>,
    live: usize,
    detached: Vec<(u32, Millis, JsValue)>,
    next_detached: u32,
}

thread_local! {
    static RUNS: RefCell<Registry> = RefCell::new(Registry::default());
    static CALLBACK: Function = make_callback();
}

const SLOT_BITS: u32 = 20;

fn make_callback() -> Function {
    let f = Closure::<dyn Fn(f64, u32, u32, JsValue)>::new(on_report).into_js_value();
    let f: Function = f.unchecked_into();
    rt::rt_init(&f);
    f
}

fn lookup(handle: u64) -> Option<Rc<Run>> {
    let slot = (handle & ((1 << SLOT_BITS) - 1)) as usize;
    let generation = (handle >> SLOT_BITS) as u32;
    RUNS.with(|r| match r.borrow().slots.get(slot) {
        Some((g, Some(run))) if *g == generation => Some(run.clone()),
        _ => None,
    })
}

/// `true` while `target` still needs its timer.
pub fn is_live(target: Target) -> bool {
    match target {
        Target::Run(h) => lookup(h).is_some(),
        Target::Detached(id) => RUNS.with(|r| r.borrow().detached.iter().any(|d| d.0 == id)),
    }
}

/// The module's timer reached `at` for `target`.
pub fn woken(target: Target, at: Millis) {
    match target {
        Target::Run(h) => {
            if let Some(run) = lookup(h) {
                run.io.borrow_mut().queued.retain(|t| *t != at);
                feed(&run, Some(Event::Tick));
            }
        }
        Target::Detached(id) => {
            let taken = RUNS.with(|r| {
                let mut r = r.borrow_mut();
                let at = r.detached.iter().position(|d| d.0 == id)?;
                Some(r.detached.remove(at).2)
            });
            if let Some(c) = taken {
                rt::abort(&c);
            }
        }
    }
}

/// Live counts for leak checks: `[runs, requests, asks, streams, timers]`.
pub fn live_counts() -> [usize; 5] {
    let (runs, list, detached) = RUNS.with(|r| {
        let r = r.borrow();
        let list: Vec<Rc<Run>> = r.slots.iter().filter_map(|(_, run)| run.clone()).collect();
        (r.live, list, r.detached.len())
    });
    let mut counts = [runs, detached, 0, 0, usize::from(scheduler::armed())];
    for run in list {
        if let Ok(io) = run.io.try_borrow() {
            counts[1] += io.requests.len();
            counts[2] += io.asks.len();
            counts[3] += usize::from(io.stream.is_some());
        }
    }
    counts
}

/// Runs `machine` to its end; the promise settles with its outcome (or its rejection). A signal
/// already aborted rejects at once with its reason, before anything is sent.
pub fn run(machine: Box<dyn Machine<JsValue>>, client: Rc<JsClient>, hooks: Hooks, signals: Vec<Watched>) -> Promise {
    super::install_panic_hook();
    CALLBACK.with(|_| {}); // installs the callback on first use
    let parts = rt::deferred();
    let promise: Promise = parts.get(0).unchecked_into();
    let (resolve, reject) = (parts.get(1), parts.get(2));
    if let Some(w) = signals.iter().find(|w| w.scope != AbortScope::Wait && rt::is_aborted(&w.signal)) {
        rt::settle_with(&reject, &rt::reason_of(&w.signal));
        return promise;
    }
    let Some(run) = register(machine, client, hooks, (resolve, reject.clone())) else {
        let e = js_sys::Error::new("mcp-tasks-wasm: too many calls at once");
        rt::settle_with(&reject, &e);
        return promise;
    };
    for w in signals {
        let token = run.io.borrow_mut().token();
        let stop = rt::watch(&w.signal, run.handle as f64, token);
        run.io.borrow_mut().signals.push((token, w.scope, stop));
        if rt::is_aborted(&w.signal) {
            feed(&run, Some(Event::Abort { reason: rt::reason_of(&w.signal), scope: w.scope }));
        }
    }
    feed(&run, None);
    promise
}

fn register(
    machine: Box<dyn Machine<JsValue>>,
    client: Rc<JsClient>,
    hooks: Hooks,
    settle: (JsValue, JsValue),
) -> Option<Rc<Run>> {
    RUNS.with(|r| {
        let mut r = r.borrow_mut();
        let slot = match r.free.pop() {
            Some(s) => s,
            None if r.slots.len() < (1 << SLOT_BITS) => {
                r.slots.push((0, None));
                (r.slots.len() - 1) as u32
            }
            None => return None,
        };
        let entry = r.slots.get_mut(slot as usize)?;
        entry.0 = entry.0.wrapping_add(1).max(1);
        let handle = (u64::from(entry.0) << SLOT_BITS) | u64::from(slot);
        let io = Io {
            client,
            hooks,
            requests: Vec::new(),
            asks: Vec::new(),
            stream: None,
            signals: Vec::new(),
            settle: Some(settle),
            callback_error: None,
            queued: Vec::new(),
            next_token: 0,
        };
        let run = Rc::new(Run {
            handle,
            machine: RefCell::new(machine),
            inbox: RefCell::new(VecDeque::new()),
            busy: Cell::new(false),
            io: RefCell::new(io),
        });
        entry.1 = Some(run.clone());
        r.live += 1;
        Some(run)
    })
}

fn unregister(handle: u64) {
    let slot = (handle & ((1 << SLOT_BITS) - 1)) as u32;
    RUNS.with(|r| {
        let mut r = r.borrow_mut();
        if let Some(entry) = r.slots.get_mut(slot as usize) {
            if entry.1.take().is_some() {
                r.live -= 1;
                r.free.push(slot);
            }
        }
    });
}

/// The callback `rt.js` reports through: `kind` is 1 (resolved / a message / an abort), 0 (rejected /
/// failed) or 2 (a stream ended).
fn on_report(handle: f64, token: u32, kind: u32, value: JsValue) {
    if handle == 0.0 {
        return forget_detached(token);
    }
    let Some(run) = lookup(handle as u64) else { return };
    let pending = run.io.borrow_mut().take(token);
    let event = match pending {
        None => return, // stopped meanwhile: a late answer is dropped
        Some(Pending::Request(req)) => {
            let reply = if kind == 1 { Reply::Result(value) } else { read_rejection(value) };
            Event::Reply { req, reply }
        }
        Some(Pending::Ask(ask)) if kind == 1 => Event::Answer { ask, value },
        Some(Pending::Ask(_)) => Event::Throw { error: value },
        Some(Pending::Stream) => Event::Stream(match kind {
            1 => StreamEvent::Message(value),
            2 => StreamEvent::End,
            _ => StreamEvent::Failed(value),
        }),
        Some(Pending::Signal(scope)) => Event::Abort { reason: value, scope },
    };
    feed(&run, Some(event));
}

/// Queues `event` (if any) and runs the machine until it has nothing left to do; then asks the timer
/// to wake it when it needs to.
fn feed(run: &Rc<Run>, event: Option<Event<JsValue>>) {
    if let Some(e) = event {
        run.inbox.borrow_mut().push_back(e);
    }
    if run.busy.replace(true) {
        return; // an outer call is running the machine: it takes the event from the inbox
    }
    loop {
        loop {
            let action = run.machine.borrow_mut().next_action();
            match action {
                Some(a) => perform(run, a),
                None => break,
            }
        }
        let next = run.inbox.borrow_mut().pop_front();
        match next {
            Some(e) if run.io.borrow().settle.is_some() => run.machine.borrow_mut().handle(now(), e),
            Some(_) => {}
            None => break,
        }
    }
    run.busy.set(false);
    if run.inbox.borrow().capacity() > 0 && run.inbox.borrow().is_empty() {
        *run.inbox.borrow_mut() = VecDeque::new(); // an idle run keeps no buffers (memory per wait)
    }
    {
        let mut io = run.io.borrow_mut();
        if io.requests.is_empty() && io.requests.capacity() > 0 {
            io.requests = Vec::new();
        }
        if io.asks.is_empty() && io.asks.capacity() > 0 {
            io.asks = Vec::new();
        }
    }
    if run.io.borrow().settle.is_none() {
        return;
    }
    let at = run.machine.borrow().wake_at();
    if let Some(at) = at {
        let mut io = run.io.borrow_mut();
        if io.queued.iter().all(|q| *q > at) {
            io.queued.push(at);
            drop(io);
            scheduler::wake(at, Target::Run(run.handle));
        }
    }
}

/// Carries out one action. Application code runs only outside every borrow.
fn perform(run: &Rc<Run>, action: Action<JsValue>) {
    let h = run.handle as f64;
    match action {
        Action::Send { req, call, timeout_ms } => {
            let (client, token) = {
                let mut io = run.io.borrow_mut();
                (io.client.clone(), io.token())
            };
            let params = call.params(&client.capabilities);
            let c = rt::send(
                &client.object,
                &client.request,
                &js_string(call.method()),
                &params,
                timeout_ms.map(|t| t as f64),
                h,
                token,
            );
            run.io.borrow_mut().requests.push((token, req, c));
        }
        Action::SendDetached { call, timeout_ms } => send_detached(run, &call, timeout_ms),
        Action::Abort { req } => {
            let taken = {
                let mut io = run.io.borrow_mut();
                io.requests.iter().position(|r| r.1 == req).map(|at| io.requests.remove(at).2)
            };
            if let Some(c) = taken {
                rt::abort(&c);
            }
        }
        Action::Status(status) => {
            let on_status = run.io.borrow().hooks.on_status.clone();
            if let Some(f) = on_status {
                let thrown = rt::call1(&f, &JsValue::UNDEFINED, &status);
                if !thrown.is_undefined() {
                    let error = thrown.dyn_ref::<Array>().map_or(JsValue::UNDEFINED, |a| a.get(0));
                    let mut io = run.io.borrow_mut();
                    io.callback_error.get_or_insert(error.clone());
                    drop(io);
                    run.inbox.borrow_mut().push_back(Event::Throw { error });
                }
            }
        }
        Action::Ask { ask, kind, key, params, status } => {
            let (handlers, token) = {
                let mut io = run.io.borrow_mut();
                (io.hooks.handlers.clone(), io.token())
            };
            let c = match JsClient::handler(&handlers, kind) {
                Some(f) => rt::ask(&f, &handlers, &params, Some(key), &status, h, token),
                // The handler vanished since the options were read: an invalid answer.
                None => return run.inbox.borrow_mut().push_back(Event::Answer { ask, value: JsValue::UNDEFINED }),
            };
            run.io.borrow_mut().asks.push((token, ask, c));
        }
        Action::AskAll { ask, status } => {
            let (f, token) = {
                let mut io = run.io.borrow_mut();
                (io.hooks.input_fn.clone(), io.token())
            };
            let Some(f) = f else {
                return run.inbox.borrow_mut().push_back(Event::Answer { ask, value: JsValue::UNDEFINED });
            };
            let c = rt::ask(&f, &JsValue::UNDEFINED, &status, None, &JsValue::UNDEFINED, h, token);
            run.io.borrow_mut().asks.push((token, ask, c));
        }
        Action::StopAsk { ask } => {
            let taken = {
                let mut io = run.io.borrow_mut();
                io.asks.iter().position(|a| a.1 == ask).map(|at| io.asks.remove(at).2)
            };
            if let Some(c) = taken {
                rt::abort(&c);
            }
        }
        Action::OpenStream { call } => {
            let (client, token) = {
                let mut io = run.io.borrow_mut();
                (io.client.clone(), io.token())
            };
            let Some(listen) = client.listen.clone() else {
                return run.inbox.borrow_mut().push_back(Event::Stream(StreamEvent::Unsupported));
            };
            let handle = rt::open_stream(&client.object, &listen, &call.params(&client.capabilities), h, token);
            run.io.borrow_mut().stream = Some((token, handle));
        }
        Action::CloseStream => {
            let taken = run.io.borrow_mut().stream.take();
            if let Some((_, s)) = taken {
                rt::close_stream(&s);
            }
        }
        Action::NextPart => {
            let mut io = run.io.borrow_mut();
            if let Some(next) = io.hooks.next.take() {
                io.hooks = *next;
            }
        }
        Action::Finish(finish) => end(run, finish),
    }
}

/// Ends a run: stops every request, ask, stream and signal watch (none awaited), then settles.
fn end(run: &Rc<Run>, finish: Finish<JsValue>) {
    let mut io = run.io.borrow_mut();
    let Some((resolve, reject)) = io.settle.take() else { return };
    let requests: Vec<JsValue> = io.requests.drain(..).map(|r| r.2).collect();
    let asks: Vec<JsValue> = io.asks.drain(..).map(|a| a.2).collect();
    let stream = io.stream.take();
    let signals: Vec<JsValue> = io.signals.drain(..).map(|s| s.2).collect();
    let callback_error = io.callback_error.take();
    drop(io);
    unregister(run.handle);
    run.inbox.borrow_mut().clear();
    for stop in signals {
        rt::call_quietly(&stop);
    }
    for c in requests.iter().chain(asks.iter()) {
        rt::abort(c);
    }
    if let Some((_, s)) = stream {
        rt::close_stream(&s);
    }
    match (finish, callback_error) {
        (Finish::Resolve(_), Some(error)) => rt::settle_with(&reject, &error),
        (Finish::Resolve(o), None) => rt::settle_with(&resolve, &o.to_json()),
        (Finish::Reject(v), _) => rt::settle_with(&reject, &v),
    }
    scheduler::arm();
}

/// A best-effort request whose answer nobody awaits, aborted after `timeout_ms` by the module's timer.
fn send_detached(run: &Rc<Run>, call: &crate::proto::request::Call<JsValue>, timeout_ms: u64) {
    let client = run.io.borrow().client.clone();
    let id = RUNS.with(|r| {
        let mut r = r.borrow_mut();
        r.next_detached = r.next_detached.wrapping_add(1).max(1);
        r.next_detached
    });
    let params = call.params(&client.capabilities);
    let c =
        rt::send(&client.object, &client.request, &js_string(call.method()), &params, Some(timeout_ms as f64), 0.0, id);
    let at = now().saturating_add(timeout_ms);
    RUNS.with(|r| r.borrow_mut().detached.push((id, at, c)));
    scheduler::wake(at, Target::Detached(id));
}

/// A detached request settled: its bound is no longer needed.
fn forget_detached(id: u32) {
    RUNS.with(|r| r.borrow_mut().detached.retain(|d| d.0 != id));
    scheduler::arm();
}
