//! The driver: runs one engine machine to its end as a Rust future. It sends the machine's requests
//! through the client, calls the application's handlers and `onStatus`, reads the listen stream,
//! sleeps on the module's timer, hears the caller's abort signals, and returns the outcome (or the
//! rejection). It makes no protocol decision.
//!
//! Every event reaches the machine through `Run::next_event`: the run's inbox (events pushed by
//! listeners and by the driver itself), then the requests and handler calls in flight, the stream and
//! the timer. Application code runs only inside `Run::perform` and the reads a machine makes; no
//! borrow of shared state is held meanwhile, so it may call back into the library at any moment.
//!
//! Dropping the future (a Rust caller that stops awaiting) ends the run on the spot: every request and
//! handler call in flight is aborted, the stream closed, the signals unwatched — nothing more is sent.

use super::callbacks::Callbacks;
use super::clock::{millis, now};
use super::end::{CallFuture, End, Outcome, Rejection};
use super::inbox::Inbox;
use super::interop::from_js::entries;
use super::interop::to_js::js_string;
use super::live::{Counted, Counter};
use super::signals::{is_aborted, reason_of, subscribe, Subscription, Watch};
use super::slice;
use super::timer::{next_turn, sleep_until, Sleep};
use crate::engine::{AbortScope, Action, AskId, End as EngineEnd, Event, Machine, ReqId, StreamEvent};
use crate::proto::request::{with_tasks_extension, Call};
use crate::proto::rpc::{read_rejection, RequestEnd};
use crate::shell::callbacks::Reply;
use crate::shell::callbacks::{AskContext, HandlerFn};
use crate::shell::client::{Client, RequestOptions};
use js_sys::Reflect;
use std::future::{poll_fn, Future};
use std::pin::Pin;
use std::rc::Rc;
use std::task::{Context, Poll};
use std::time::Duration;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::spawn_local;

thread_local! {
    /// Set for good when the module is declared failed (the JS exports' registry, after a trap): every
    /// run stops where it is — nothing more is sent, called or settled by it.
    static HALTED: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
    /// What a client without `clientCapabilities` declares: one frozen object for every call.
    static DEFAULT_CAPABILITIES: JsValue = {
        let v = with_tasks_extension::<JsValue>(None);
        deep_freeze(&v);
        v
    };
}

#[cfg(feature = "js")]
/// Stops every run for good (the module failed: its calls were settled without it).
pub(crate) fn halt() {
    HALTED.with(|h| h.set(true));
}

/// What a run is made of.
pub(crate) struct Spec {
    /// The machine.
    pub machine: Box<dyn Machine<JsValue>>,
    /// The client its requests go through.
    pub client: Rc<dyn Client>,
    /// What its requests declare (`_meta["io.modelcontextprotocol/clientCapabilities"]`); `None`: the
    /// declaration of a client without capabilities, one frozen object shared by every call.
    pub capabilities: Option<JsValue>,
    /// The callbacks of its first part.
    pub callbacks: Callbacks,
    /// The callbacks of its second part (`callAndAwait`'s wait), taken at `Action::NextPart`.
    pub next_callbacks: Option<Callbacks>,
    /// The caller's signals, with the part each governs.
    pub signals: Vec<(JsValue, Watch)>,
    /// Dropped before its end, the run sends a best-effort `tasks/cancel` bounded by this many ms for
    /// the task it saw (the Rust API's `cancel_on_drop`); `None`: it does not.
    pub cancel_on_drop: Option<u64>,
    /// The client's session being found (`Client::session`), handed to the machine as
    /// `Event::Session`; `None`: the machine needs none.
    pub session: Option<Reply>,
}

/// What a run cancels when it is dropped before its end (boxed: most runs have none).
struct DropCancel {
    timeout_ms: u64,
    /// The task of the latest status seen.
    task_id: Option<String>,
}

/// `callbacks` boxed, or `None` when there is no callback in them at all.
fn boxed(callbacks: Callbacks) -> Option<Box<Callbacks>> {
    let h = &callbacks.handlers;
    let none = [&h.form, &h.url, &h.sampling, &h.roots, &callbacks.input_fn].iter().all(|f| f.is_none());
    (!none || callbacks.on_status.is_some()).then(|| Box::new(callbacks))
}

/// What hands the server's requests on one request to its run (`Run::hearing`).
type Hearing = Closure<dyn FnMut(JsValue)>;

/// A request or handler call in flight.
struct InFlight {
    what: Waiting,
    controller: Option<web_sys::AbortController>,
    reply: Reply,
    /// What hears the server's requests on it (MCP 2025-11-25), kept alive while it is in flight.
    hearing: Option<Box<Hearing>>,
    _counted: Counted,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Waiting {
    Request(ReqId),
    Ask(AskId),
    /// The client's session (`Client::session`).
    Session,
}

/// The listen stream.
struct Stream {
    controller: Option<web_sys::AbortController>,
    /// The iterator, once `listen` gave it.
    iterator: Option<JsValue>,
    /// What the stream waits for: `listen`'s answer, then each `next()`.
    pending: Option<Reply>,
    _counted: Counted,
}

/// A run in progress.
struct Run {
    machine: Box<dyn Machine<JsValue>>,
    client: Rc<dyn Client>,
    capabilities: Option<JsValue>,
    /// The requests are built for MCP 2025-11-25 (`Action::Speak`).
    core: bool,
    /// The callbacks of the part running (`None`: it has none, as most runs: memory per wait).
    callbacks: Option<Box<Callbacks>>,
    /// `callAndAwait`'s wait callbacks until its wait starts (`Some(None)`: the wait has none).
    next_callbacks: Option<Option<Box<Callbacks>>>,
    inbox: Rc<Inbox>,
    in_flight: Vec<InFlight>,
    /// The listen stream (boxed: most runs poll).
    stream: Option<Box<Stream>>,
    sleep: Option<Sleep>,
    /// Set while the run lets the host run: its slice of work is spent (see `super::slice`).
    paused: Option<Sleep>,
    /// What `onStatus` threw: the call rejects with it, whatever the outcome.
    thrown: Option<JsValue>,
    /// An application callback's throw was handed to the machine (its rejection is then that throw).
    threw: bool,
    /// The run gave its end (a drop after it cancels nothing).
    ended: bool,
    drop_cancel: Option<Box<DropCancel>>,
    _subscriptions: Vec<Subscription>,
    _counted: Counted,
}

/// Starts running `spec` (its first requests go out now) and returns the future of its end: the
/// machine's outcome, or the value the call rejects with (the caller's abort reason, or what an
/// application callback threw). A signal already aborted (but the wait's own part's, or a cancel) rejects at once,
/// before anything is sent. One boxed future for every kind of call: the callers' futures stay small
/// (one copy of the driver's state machine in the module).
pub(crate) fn start_run(spec: Spec) -> CallFuture {
    let ends_now = |watch: &Watch| matches!(watch, Watch::Abort(AbortScope::All | AbortScope::Call | AbortScope::Stop));
    if let Some((signal, _)) = spec.signals.iter().find(|(s, watch)| ends_now(watch) && is_aborted(s)) {
        let reason = reason_of(signal);
        return Box::pin(std::future::ready(Err(Rejection::Aborted(reason))));
    }
    let inbox = Rc::new(Inbox::default());
    let subscriptions = spec.signals.iter().filter_map(|(s, watch)| subscribe(s, &inbox, *watch)).collect();
    let mut run = Run {
        machine: spec.machine,
        client: spec.client,
        capabilities: spec.capabilities,
        core: false,
        callbacks: boxed(spec.callbacks),
        next_callbacks: spec.next_callbacks.map(boxed),
        inbox,
        in_flight: Vec::new(),
        stream: None,
        sleep: None,
        paused: None,
        thrown: None,
        threw: false,
        ended: false,
        drop_cancel: spec.cancel_on_drop.map(|timeout_ms| Box::new(DropCancel { timeout_ms, task_id: None })),
        _subscriptions: subscriptions,
        _counted: Counted::new(Counter::Runs),
    };
    if let Some(session) = spec.session {
        run.track(Waiting::Session, None, session, Counter::Requests);
    }
    let since = slice::precise_now();
    let end = run.perform_all(since);
    slice::spend(slice::precise_now() - since);
    if let Some(end) = end {
        return Box::pin(std::future::ready(end));
    }
    for (signal, watch) in &spec.signals {
        if is_aborted(signal) {
            run.inbox.push(watch.event(reason_of(signal)));
        }
    }
    // The run is its own future: one allocation of its own size (an `async fn` over it kept the run
    // twice, its argument and its local: memory per wait).
    Box::pin(run)
}

impl Future for Run {
    type Output = End;

    /// Moves the machine event by event until it finishes, pausing whenever the module's slice of the
    /// event loop is spent (its work counted in `super::slice`).
    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        if HALTED.with(std::cell::Cell::get) {
            return Poll::Pending;
        }
        let since = slice::precise_now();
        let polled = self.get_mut().advance(cx, since);
        slice::spend(slice::precise_now() - since);
        polled
    }
}

impl Run {
    /// The body of `poll` (`since`: when this poll began).
    fn advance(&mut self, cx: &mut Context<'_>, since: f64) -> Poll<End> {
        // The clock is read once per event: for the slice and as the time the machine is handed (the
        // first read is the poll's own).
        let mut read = Some(since);
        loop {
            if let Some(pause) = &mut self.paused {
                if Pin::new(pause).poll(cx).is_pending() {
                    return Poll::Pending;
                }
                self.paused = None;
                read = None;
                // What the machine decided before the pause is carried out first.
                if let Some(end) = self.perform_all(since) {
                    return Poll::Ready(end);
                }
                continue;
            }
            let t = read.take().unwrap_or_else(slice::precise_now);
            if slice::over_at(since, t) {
                self.paused = Some(next_turn());
                continue;
            }
            self.arm();
            let Poll::Ready(event) = self.next_event(cx) else { return Poll::Pending };
            self.threw |= matches!(event, Event::Throw { .. });
            self.machine.handle(millis(t), event);
            if let Some(end) = self.perform_all(since) {
                return Poll::Ready(end);
            }
        }
    }

    /// Carries out the actions the machine decided, in order; the call's end once it finished. Stops
    /// (the rest stays queued in the machine) when the slice is spent: the run pauses.
    fn perform_all(&mut self, since: f64) -> Option<End> {
        while self.paused.is_none() {
            let action = self.machine.next_action()?;
            self.ended |= matches!(action, Action::End(_));
            match action {
                Action::End(EngineEnd::Outcome(o)) => {
                    return Some(self.thrown.take().map_or(Ok(Outcome::Engine(o)), |e| Err(Rejection::Thrown(e))))
                }
                // A machine rejects only on an abort or a throw, and a throw ends it at once: what it
                // rejects with after a throw was delivered is what the callback threw.
                Action::End(EngineEnd::Rejection(v)) => {
                    return Some(Err(if self.threw { Rejection::Thrown(v) } else { Rejection::Aborted(v) }))
                }
                action => self.perform(action),
            }
            if slice::over(since) {
                self.paused = Some(next_turn());
            }
        }
        None
    }

    /// Sleeps until the machine's next wake time (a new sleep only when that time changed).
    fn arm(&mut self) {
        let at = self.machine.wake_at();
        if self.sleep.as_ref().map(Sleep::at) != at {
            self.sleep = at.map(sleep_until);
        }
    }

    fn perform(&mut self, action: Action<JsValue>) {
        match action {
            Action::Send { req, call, timeout_ms } => {
                let controller = web_sys::AbortController::new().ok();
                let hearing = (self.core && call.hears_requests()).then(|| self.hearing());
                let on_request = hearing.as_ref().map(|h| h.as_ref().unchecked_ref::<js_sys::Function>().clone());
                let reply = self.send(&call, timeout_ms, controller.as_ref(), on_request);
                self.track(Waiting::Request(req), controller, reply, Counter::Requests);
                if let Some(f) = self.in_flight.last_mut() {
                    f.hearing = hearing.map(Box::new);
                }
            }
            Action::Speak { core } => self.core = core,
            Action::SendDetached { call, timeout_ms } => self.send_detached(&call, timeout_ms),
            Action::Abort { req } => self.stop(Waiting::Request(req)),
            Action::StopAsk { ask } => self.stop(Waiting::Ask(ask)),
            Action::Status(status) => {
                if let Some(d) = self.drop_cancel.as_mut() {
                    d.task_id = crate::json::Json::get_str(&status, "taskId");
                }
                if let Some(f) = self.callbacks.as_ref().and_then(|h| h.on_status.clone()) {
                    if let Err(e) = f(&status) {
                        self.thrown.get_or_insert_with(|| e.clone());
                        self.inbox.push(Event::Throw { error: e });
                    }
                }
            }
            Action::Ask { ask, kind, key, params, status } => {
                let f = self.callbacks.as_ref().and_then(|h| h.handlers.get(kind).cloned());
                self.ask(ask, f, Some(key), params, status);
            }
            Action::AskAll { ask, status } => {
                let f = self.callbacks.as_ref().and_then(|h| h.input_fn.clone());
                self.ask(ask, f, None, status.clone(), status);
            }
            Action::OpenStream { call } => self.open_stream(&call),
            Action::CloseStream => {
                if let Some(s) = self.stream.take() {
                    close_stream(*s);
                }
            }
            Action::NextPart => {
                if let Some(h) = self.next_callbacks.take() {
                    self.callbacks = h;
                }
            }
            // More of the machine's work follows: `perform_all` may pause first.
            Action::Continue => {}
            // Taken by `perform_all`.
            Action::End(_) => {}
        }
    }

    /// Calls `f` (a handler, with the request's `key`, or the input function) with its own abort
    /// signal; without it (the handler is gone: another part's callbacks), an invalid answer.
    fn ask(&mut self, ask: AskId, f: Option<HandlerFn>, key: Option<String>, params: JsValue, status: JsValue) {
        let Some(f) = f else { return self.inbox.push(Event::Answer { ask, value: JsValue::UNDEFINED }) };
        let controller = web_sys::AbortController::new().ok();
        let reply = f(params, AskContext { key, status, signal: signal_of(controller.as_ref()) });
        self.track(Waiting::Ask(ask), controller, reply, Counter::Asks);
    }

    /// Sends `call` through the client, with its own abort signal (and `on_request`, hearing the
    /// server's requests on it); a response to the server's request (MCP 2025-11-25) through the
    /// client's `respond`.
    fn send(
        &self,
        call: &Call<JsValue>,
        timeout_ms: Option<u64>,
        controller: Option<&web_sys::AbortController>,
        on_request: Option<js_sys::Function>,
    ) -> Reply {
        if let Call::Respond { id, answer } = call {
            return self.client.respond(id.clone(), answer.clone()).unwrap_or_else(|| {
                let e = js_sys::TypeError::new("the client cannot answer the server's requests (it has no respond)");
                Box::pin(std::future::ready(Err(e.into())))
            });
        }
        let options = RequestOptions {
            signal: signal_of(controller),
            timeout: timeout_ms.map(Duration::from_millis),
            on_request,
        };
        self.client.request(call.method(), self.params(call), options)
    }

    /// A function handing each server request it is called with to the machine.
    fn hearing(&self) -> Hearing {
        let inbox = Rc::downgrade(&self.inbox);
        Closure::new(move |message: JsValue| {
            if let Some(inbox) = inbox.upgrade() {
                inbox.push(Event::ServerRequest { message });
            }
        })
    }

    /// The `params` of `call`, declaring the run's capabilities (MCP 2025-11-25: none, no envelope).
    fn params(&self, call: &Call<JsValue>) -> JsValue {
        match &self.capabilities {
            Some(c) => call.params(c, self.core),
            None => DEFAULT_CAPABILITIES.with(|c| call.params(c, self.core)),
        }
    }

    fn track(&mut self, what: Waiting, controller: Option<web_sys::AbortController>, reply: Reply, counter: Counter) {
        // The first gets room for exactly one (a run has one or two things in flight, not the four a
        // Vec's first push makes room for: memory per wait); more grow the usual way (thousands of
        // handler calls for one status must not be copied one at a time).
        if self.in_flight.is_empty() {
            self.in_flight.reserve_exact(1);
        }
        self.in_flight.push(InFlight { what, controller, reply, hearing: None, _counted: Counted::new(counter) });
    }

    /// Takes the thing in flight at `at` (the last one takes its place: constant work, whatever the
    /// count); an idle run keeps no buffer.
    fn untrack(&mut self, at: usize) -> InFlight {
        let f = self.in_flight.swap_remove(at);
        if self.in_flight.is_empty() {
            self.in_flight = Vec::new();
        }
        f
    }

    /// Gives up a request or a handler call: its signal aborts, its late answer is never heard.
    fn stop(&mut self, what: Waiting) {
        if let Some(at) = self.in_flight.iter().position(|f| f.what == what) {
            let f = self.untrack(at);
            abort(f.controller.as_ref());
        }
    }

    /// A best-effort request nobody awaits (a `tasks/cancel` on abort), aborted after `timeout_ms`; a
    /// response refusing the server's request (MCP 2025-11-25), sent and forgotten.
    fn send_detached(&self, call: &Call<JsValue>, timeout_ms: u64) {
        if let Call::Respond { id, answer } = call {
            if let Some(sent) = self.client.respond(id.clone(), answer.clone()) {
                spawn_local(async move { drop(sent.await) });
            }
            return;
        }
        detached(self.client.as_ref(), call.method(), self.params(call), timeout_ms);
    }

    fn open_stream(&mut self, call: &Call<JsValue>) {
        let controller = web_sys::AbortController::new().ok();
        match self.client.listen(self.params(call), signal_of(controller.as_ref())) {
            None => self.inbox.push(Event::Stream(StreamEvent::Unsupported)),
            Some(opening) => {
                self.stream = Some(Box::new(Stream {
                    controller,
                    iterator: None,
                    pending: Some(opening),
                    _counted: Counted::new(Counter::Streams),
                }))
            }
        }
    }

    /// The next event for the machine: the inbox first, then whatever settled, then the timer.
    fn next_event(&mut self, cx: &mut Context<'_>) -> Poll<Event<JsValue>> {
        if let Poll::Ready(e) = self.inbox.poll_next(cx) {
            return Poll::Ready(e);
        }
        for i in 0..self.in_flight.len() {
            let Some(f) = self.in_flight.get_mut(i) else { break };
            if let Poll::Ready(settled) = f.reply.as_mut().poll(cx) {
                let f = self.untrack(i);
                return Poll::Ready(match (f.what, settled) {
                    (Waiting::Request(req), Ok(v)) => Event::Reply { req, reply: RequestEnd::Result(v) },
                    (Waiting::Request(req), Err(e)) => Event::Reply { req, reply: read_rejection(e) },
                    (Waiting::Ask(ask), Ok(value)) => Event::Answer { ask, value },
                    (Waiting::Ask(_), Err(error)) => Event::Throw { error },
                    (Waiting::Session, found) => Event::Session(found),
                });
            }
        }
        if let Some(e) = self.poll_stream(cx) {
            return Poll::Ready(e);
        }
        if let Some(sleep) = &mut self.sleep {
            if Pin::new(sleep).poll(cx).is_ready() {
                self.sleep = None;
                return Poll::Ready(Event::Tick);
            }
        }
        Poll::Pending
    }

    /// Moves the stream on: `listen`'s answer gives the iterator, each `next()` a message or the end.
    fn poll_stream(&mut self, cx: &mut Context<'_>) -> Option<Event<JsValue>> {
        let stream = self.stream.as_mut()?;
        let settled = match stream.pending.as_mut()?.as_mut().poll(cx) {
            Poll::Ready(v) => v,
            Poll::Pending => return None,
        };
        stream.pending = None;
        let step = match settled {
            Err(e) => return Some(self.stream_failed(e)),
            Ok(v) => v,
        };
        let Some(iterator) = stream.iterator.clone() else {
            // `listen` answered: its async iterator, or the source itself when it is one.
            return match iterator_of(&step) {
                Ok(it) => {
                    stream.iterator = Some(it.clone());
                    stream.pending = Some(next_of(&it));
                    // Poll the first `next()` at once: it may have settled already.
                    self.poll_stream(cx)
                }
                Err(e) => Some(self.stream_failed(e)),
            };
        };
        if !step.is_object() {
            let e = js_sys::TypeError::new("the listen iterator gave a step that is not an object");
            return Some(self.stream_failed(e.into()));
        }
        let done = match Reflect::get(&step, &js_string("done")) {
            Ok(d) => d.is_truthy(),
            Err(e) => return Some(self.stream_failed(e)),
        };
        if done {
            // The stream ended: nothing more comes (the stream stays counted until the machine closes it).
            return Some(Event::Stream(StreamEvent::End));
        }
        let value = match Reflect::get(&step, &js_string("value")) {
            Ok(v) => v,
            Err(e) => return Some(self.stream_failed(e)),
        };
        stream.pending = Some(next_of(&iterator));
        Some(Event::Stream(StreamEvent::Message(value)))
    }

    fn stream_failed(&mut self, e: JsValue) -> Event<JsValue> {
        if let Some(s) = &mut self.stream {
            s.pending = None;
        }
        Event::Stream(StreamEvent::Failed(e))
    }
}

impl Drop for Run {
    /// The run ended, or its future was dropped: everything in flight is given up, none awaited; a
    /// run dropped before its end with `cancel_on_drop` also asks the server to cancel the task it saw
    /// (best effort, detached).
    fn drop(&mut self) {
        for f in self.in_flight.drain(..) {
            abort(f.controller.as_ref());
        }
        if let Some(s) = self.stream.take() {
            close_stream(*s);
        }
        if let Some(d) = self.drop_cancel.take().filter(|_| !self.ended) {
            if let Some(task_id) = d.task_id {
                self.send_detached(&Call::CancelTask { task_id }, d.timeout_ms);
            }
        }
    }
}

/// Sends `method` with `params` through `client` and awaits nobody: a best-effort request (a
/// `tasks/cancel` on abort), aborted after `timeout_ms`, counted while in flight.
fn detached(client: &dyn Client, method: &str, params: JsValue, timeout_ms: u64) {
    let controller = web_sys::AbortController::new().ok();
    let options = RequestOptions {
        signal: signal_of(controller.as_ref()),
        timeout: Some(Duration::from_millis(timeout_ms)),
        on_request: None,
    };
    let mut reply = client.request(method, params, options);
    let counted = Counted::new(Counter::Requests);
    let mut bound = sleep_until(now().saturating_add(timeout_ms));
    spawn_local(async move {
        let timed_out = poll_fn(|cx| {
            if reply.as_mut().poll(cx).is_ready() {
                return Poll::Ready(false);
            }
            Pin::new(&mut bound).poll(cx).map(|()| true)
        })
        .await;
        if timed_out {
            abort(controller.as_ref());
        }
        drop(counted);
    });
}

/// The signal of `controller` (a fresh, never-aborted one in the unlikely case there is no controller).
fn signal_of(controller: Option<&web_sys::AbortController>) -> web_sys::AbortSignal {
    match controller {
        Some(c) => c.signal(),
        None => JsValue::UNDEFINED.unchecked_into(),
    }
}

/// Aborts a controller (its signal's listeners are application code: what they throw stays with them).
fn abort(controller: Option<&web_sys::AbortController>) {
    if let Some(c) = controller {
        c.abort();
    }
}

#[wasm_bindgen(module = "/src/shell/adopt.js")]
extern "C" {
    /// The async iterator of what `listen` gave: `source[Symbol.asyncIterator]()`, or `source` itself
    /// when it has a `next` function (`Err`: what that call threw, or a `TypeError`).
    #[wasm_bindgen(js_name = iteratorOf, catch)]
    fn iterator_of(source: &JsValue) -> Result<JsValue, JsValue>;
    /// `it.next()` (`Err`: what it threw, or a `TypeError` when there is no `next` function).
    #[wasm_bindgen(js_name = nextOf, catch)]
    fn call_next(it: &JsValue) -> Result<JsValue, JsValue>;
    /// `it.return?.()`, ignoring what it throws or rejects with (never awaited).
    #[wasm_bindgen(js_name = quietReturn)]
    fn quiet_return(it: &JsValue);
}

/// The settlement of `it.next()`.
fn next_of(it: &JsValue) -> Reply {
    super::reply::called(call_next(it))
}

/// Closes a stream without waiting for it: aborts its signal and asks its iterator to return (what
/// that throws or rejects with is dropped). A stream still opening is returned once `listen` answers.
fn close_stream(mut s: Stream) {
    abort(s.controller.as_ref());
    match (s.iterator.take(), s.pending.take()) {
        (Some(it), _) => quiet_return(&it),
        (None, Some(opening)) => spawn_local(async move {
            if let Ok(source) = opening.await {
                if let Ok(it) = iterator_of(&source) {
                    quiet_return(&it);
                }
            }
        }),
        (None, None) => {}
    }
}

/// Freezes a value the module built, deeply (it is then safe to share between calls).
fn deep_freeze(v: &JsValue) {
    if let Some(fields) = entries(v) {
        js_sys::Object::freeze(v.unchecked_ref::<js_sys::Object>());
        for (_, x) in fields {
            deep_freeze(&x);
        }
    }
}
