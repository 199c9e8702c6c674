//! Runs one engine machine against JS: sends its requests through the client, calls the
//! application's handlers and `onStatus`, reads the listen stream, arms one timer at a time, listens
//! to the caller's `AbortSignal`, and settles the returned promise. It makes no protocol decisions.

use super::client::JsClient;
use crate::engine::{Action, AskId, Event, Finish, Machine, ReqId, StreamEvent};
use crate::json::Json;
use crate::proto::input::InputKind;
use crate::proto::request::Call;
use crate::proto::rpc::{read_rejection, Reply};
use gloo_timers::callback::Timeout;
use js_sys::{Function, Promise, Reflect};
use std::cell::RefCell;
use std::collections::VecDeque;
use std::rc::{Rc, Weak};
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::{spawn_local, JsFuture};
use web_sys::AbortController;

#[wasm_bindgen]
extern "C" {
    #[wasm_bindgen(js_namespace = performance, js_name = now)]
    fn performance_now() -> f64;
    #[wasm_bindgen(js_name = setTimeout)]
    fn set_timeout(f: &Function, ms: i32) -> JsValue;
    #[wasm_bindgen(js_name = clearTimeout)]
    fn clear_timeout(id: &JsValue);
}

/// How long closing the listen stream may delay the outcome.
const CLOSE_BOUND_MS: i32 = 5_000;
/// The longest delay `setTimeout` takes; longer waits re-arm.
const MAX_TIMER_MS: u64 = i32::MAX as u64;

/// The application callbacks of one run.
pub struct Hooks {
    /// `onStatus`.
    pub on_status: Option<Function>,
    /// The input function (`input` option).
    pub input_fn: Option<Function>,
    /// The input handlers object.
    pub handlers: JsValue,
}

struct Stream {
    controller: AbortController,
    iterator: Option<JsValue>,
    epoch: u32,
}

struct Driver {
    machine: Box<dyn Machine<JsValue>>,
    client: Rc<JsClient>,
    hooks: Hooks,
    requests: Vec<(ReqId, AbortController)>,
    asks: Vec<(AskId, AbortController)>,
    stream: Option<Stream>,
    stream_epoch: u32,
    closing: Option<Promise>,
    timer: Option<Timeout>,
    queue: VecDeque<Event<JsValue>>,
    busy: bool,
    settle: Option<(Function, Function)>,
    signal: Option<(JsValue, Function)>,
    /// The strong reference that keeps a running driver alive; dropped when it finishes.
    keep_alive: Option<Rc<RefCell<Driver>>>,
}

type Shared = Rc<RefCell<Driver>>;
type Link = Weak<RefCell<Driver>>;

/// Milliseconds on the monotonic clock.
pub fn now() -> u64 {
    performance_now().max(0.0).floor() as u64
}

/// Runs `machine` to its end; the promise settles with its outcome (or its rejection).
pub fn run(machine: Box<dyn Machine<JsValue>>, client: Rc<JsClient>, hooks: Hooks, signal: Option<JsValue>) -> Promise {
    let mut slot = Some((machine, client, hooks, signal));
    Promise::new(&mut |resolve, reject| {
        let Some((machine, client, hooks, signal)) = slot.take() else { return };
        if let Some(s) = &signal {
            if s.get("aborted").and_then(|a| a.as_bool()) == Some(true) {
                let _ = reject.call1(&JsValue::UNDEFINED, &s.get("reason").unwrap_or(JsValue::UNDEFINED));
                return;
            }
        }
        let driver = Rc::new(RefCell::new(Driver {
            machine,
            client,
            hooks,
            requests: Vec::new(),
            asks: Vec::new(),
            stream: None,
            stream_epoch: 0,
            closing: None,
            timer: None,
            queue: VecDeque::new(),
            busy: false,
            settle: Some((resolve, reject)),
            signal: None,
            keep_alive: None,
        }));
        driver.borrow_mut().keep_alive = Some(driver.clone());
        if let Some(s) = signal {
            listen_for_abort(&driver, s);
        }
        feed(&Rc::downgrade(&driver), None);
    })
}

fn listen_for_abort(driver: &Shared, signal: JsValue) {
    let link = Rc::downgrade(driver);
    let s = signal.clone();
    let on_abort = Closure::once_into_js(move || {
        let reason = s.get("reason").unwrap_or(JsValue::UNDEFINED);
        feed(&link, Some(Event::Abort { reason }));
    });
    let Ok(on_abort) = on_abort.dyn_into::<Function>() else { return };
    if let Some(add) = signal.get("addEventListener").and_then(|f| f.dyn_into::<Function>().ok()) {
        let _ = add.call2(&signal, &"abort".into(), &on_abort);
        driver.borrow_mut().signal = Some((signal, on_abort));
    }
}

/// Queues `event` (if any) and runs the machine until it has nothing left to do.
fn feed(link: &Link, event: Option<Event<JsValue>>) {
    let Some(this) = link.upgrade() else { return };
    {
        let mut d = this.borrow_mut();
        if d.settle.is_none() {
            return;
        }
        if let Some(e) = event {
            d.queue.push_back(e);
        }
        if d.busy {
            return;
        }
        d.busy = true;
    }
    loop {
        loop {
            let action = this.borrow_mut().machine.next_action();
            match action {
                Some(a) => perform(&this, a),
                None => break,
            }
        }
        let next = this.borrow_mut().queue.pop_front();
        match next {
            Some(e) => this.borrow_mut().machine.handle(now(), e),
            None => break,
        }
    }
    let mut d = this.borrow_mut();
    d.busy = false;
    d.timer = None;
    if d.settle.is_some() {
        if let Some(at) = d.machine.wake_at() {
            let delay = at.saturating_sub(now()).min(MAX_TIMER_MS) as u32;
            let link = link.clone();
            d.timer = Some(Timeout::new(delay, move || feed(&link, Some(Event::Tick))));
        }
    }
}

fn perform(this: &Shared, action: Action<JsValue>) {
    let link = Rc::downgrade(this);
    match action {
        Action::Send { req, call, timeout_ms } => {
            let client = this.borrow().client.clone();
            let (controller, promise) = send(&client, &call, timeout_ms);
            this.borrow_mut().requests.push((req, controller));
            spawn_local(async move {
                let reply = match JsFuture::from(promise).await {
                    Ok(v) => Reply::Result(v),
                    Err(e) => read_rejection(e),
                };
                if let Some(d) = link.upgrade() {
                    d.borrow_mut().requests.retain(|(id, _)| *id != req);
                }
                feed(&link, Some(Event::Reply { req, reply }));
            });
        }
        Action::SendDetached { call, timeout_ms } => {
            let client = this.borrow().client.clone();
            let (controller, promise) = send(&client, &call, Some(timeout_ms));
            spawn_local(async move {
                let bound = Timeout::new(timeout_ms.min(MAX_TIMER_MS) as u32, move || controller.abort());
                let _ = JsFuture::from(promise).await;
                drop(bound);
            });
        }
        Action::Abort { req } => {
            // Taken out first: abort() runs the signal's listeners synchronously, outside any borrow.
            let taken = take_controller(&mut this.borrow_mut().requests, req);
            if let Some(c) = taken {
                c.abort();
            }
        }
        Action::Status(status) => {
            let on_status = this.borrow().hooks.on_status.clone();
            if let Some(f) = on_status {
                if let Err(error) = f.call1(&JsValue::UNDEFINED, &status) {
                    this.borrow_mut().queue.push_back(Event::Throw { error });
                }
            }
        }
        Action::Ask { ask, kind, key, params, status } => {
            let handlers = this.borrow().hooks.handlers.clone();
            let handler = JsClient::handler(&handlers, kind);
            start_ask(this, ask, handler, handlers, params, Some((key, kind)), status);
        }
        Action::AskAll { ask, status } => {
            let function = this.borrow().hooks.input_fn.clone();
            start_ask(this, ask, function, JsValue::UNDEFINED, status, None, JsValue::UNDEFINED);
        }
        Action::StopAsk { ask } => {
            let taken = take_controller(&mut this.borrow_mut().asks, ask);
            if let Some(c) = taken {
                c.abort();
            }
        }
        Action::OpenStream { call } => open_stream(this, &call),
        Action::CloseStream => close_stream(this),
        Action::Finish(finish) => {
            let mut guard = this.borrow_mut();
            let d = &mut *guard;
            let Some((resolve, reject)) = d.settle.take() else { return };
            let (f, value) = match finish {
                Finish::Resolve(o) => (resolve, o.to_json()),
                Finish::Reject(v) => (reject, v),
            };
            let controllers: Vec<AbortController> =
                d.requests.drain(..).map(|(_, c)| c).chain(d.asks.drain(..).map(|(_, c)| c)).collect();
            if let Some((signal, on_abort)) = d.signal.take() {
                if let Some(remove) = signal.get("removeEventListener").and_then(|f| f.dyn_into::<Function>().ok()) {
                    let _ = remove.call2(&signal, &"abort".into(), &on_abort);
                }
            }
            d.timer = None;
            let closing = d.closing.take();
            d.keep_alive = None;
            drop(guard);
            for c in controllers {
                c.abort();
            }
            match closing {
                None => {
                    let _ = f.call1(&JsValue::UNDEFINED, &value);
                }
                Some(p) => spawn_local(async move {
                    let _ = JsFuture::from(p).await;
                    let _ = f.call1(&JsValue::UNDEFINED, &value);
                }),
            }
        }
    }
}

/// Removes the controller registered under `id`, if any.
fn take_controller<I: PartialEq>(list: &mut Vec<(I, AbortController)>, id: I) -> Option<AbortController> {
    let at = list.iter().position(|(i, _)| *i == id)?;
    Some(list.remove(at).1)
}

/// Calls `client.request(method, params, {signal, timeoutMs?})`; a synchronous throw becomes a rejection.
fn send(client: &JsClient, call: &Call<JsValue>, timeout_ms: Option<u64>) -> (AbortController, Promise) {
    let params = call.params(&client.capabilities);
    let controller = new_controller();
    let mut fields = vec![("signal", JsValue::from(controller.signal()))];
    if let Some(t) = timeout_ms {
        fields.push(("timeoutMs", JsValue::from_f64(t as f64)));
    }
    let options = JsValue::object(fields);
    let ret = client.request.call3(&client.object, &call.method().into(), &params, &options);
    (controller, settled(ret))
}

fn settled(ret: Result<JsValue, JsValue>) -> Promise {
    match ret {
        Ok(v) => Promise::resolve(&v),
        Err(e) => Promise::reject(&e),
    }
}

fn new_controller() -> AbortController {
    // `AbortController` exists wherever this package runs (browsers, workers, Node >= 16).
    AbortController::new().unwrap_or_else(|_| JsValue::UNDEFINED.unchecked_into())
}

/// Calls an input handler (`key` given) or the input function with a context carrying an abort signal.
fn start_ask(
    this: &Shared,
    ask: AskId,
    f: Option<Function>,
    this_arg: JsValue,
    arg: JsValue,
    key: Option<(String, InputKind)>,
    status: JsValue,
) {
    let link = Rc::downgrade(this);
    let controller = new_controller();
    let mut ctx = vec![("signal", JsValue::from(controller.signal()))];
    if let Some((k, _)) = &key {
        ctx.insert(0, ("key", JsValue::from_str(k)));
        ctx.insert(1, ("status", status));
    }
    let ret = match f {
        Some(f) => f.call2(&this_arg, &arg, &JsValue::object(ctx)),
        None => Ok(JsValue::UNDEFINED), // the handler vanished: an invalid answer
    };
    this.borrow_mut().asks.push((ask, controller));
    let promise = settled(ret);
    spawn_local(async move {
        let event = match JsFuture::from(promise).await {
            Ok(value) => Event::Answer { ask, value },
            Err(error) => Event::Throw { error },
        };
        if let Some(d) = link.upgrade() {
            let mut d = d.borrow_mut();
            if !d.asks.iter().any(|(id, _)| *id == ask) {
                return; // stopped: the late answer (or exception) is dropped
            }
            d.asks.retain(|(id, _)| *id != ask);
        }
        feed(&link, Some(event));
    });
}

fn open_stream(this: &Shared, call: &Call<JsValue>) {
    let client = this.borrow().client.clone();
    let Some(listen) = client.listen.clone() else {
        this.borrow_mut().queue.push_back(Event::Stream(StreamEvent::Unsupported));
        return;
    };
    let controller = new_controller();
    let options = JsValue::object(vec![("signal", controller.signal().into())]);
    let ret = listen.call2(&client.object, &call.params(&client.capabilities), &options);
    let epoch = {
        let mut d = this.borrow_mut();
        d.stream_epoch += 1;
        let epoch = d.stream_epoch;
        d.stream = Some(Stream { controller, iterator: None, epoch });
        epoch
    };
    let link = Rc::downgrade(this);
    let promise = settled(ret);
    spawn_local(async move {
        let event = match read_stream(&link, epoch, promise).await {
            Ok(()) => StreamEvent::End,
            Err(e) => StreamEvent::Failed(e),
        };
        if is_current(&link, epoch) {
            feed(&link, Some(Event::Stream(event)));
        }
    });
}

fn is_current(link: &Link, epoch: u32) -> bool {
    link.upgrade().is_some_and(|d| d.borrow().stream.as_ref().is_some_and(|s| s.epoch == epoch))
}

/// Reads the async iterable `listen` resolved with, feeding each message, until it ends or the
/// stream is closed.
async fn read_stream(link: &Link, epoch: u32, opened: Promise) -> Result<(), JsValue> {
    let iterable = JsFuture::from(opened).await?;
    let iterator = match Reflect::get(&iterable, &js_sys::Symbol::async_iterator())
        .ok()
        .and_then(|f| f.dyn_into::<Function>().ok())
    {
        Some(f) => f.call0(&iterable)?,
        None if iterable.get("next").is_some() => iterable,
        None => return Err(js_sys::TypeError::new("listen() did not return an async iterable").into()),
    };
    let next = iterator
        .get("next")
        .and_then(|f| f.dyn_into::<Function>().ok())
        .ok_or_else(|| JsValue::from_str("the listen iterator has no next()"))?;
    match link.upgrade() {
        Some(d) => match d.borrow_mut().stream.as_mut() {
            Some(s) if s.epoch == epoch => s.iterator = Some(iterator.clone()),
            _ => return Ok(()),
        },
        None => return Ok(()),
    }
    loop {
        let step = JsFuture::from(settled(next.call0(&iterator))).await?;
        if !is_current(link, epoch) {
            return Ok(());
        }
        if step.get("done").and_then(|d| d.as_bool()) == Some(true) {
            return Ok(());
        }
        let message = step.get("value").unwrap_or(JsValue::UNDEFINED);
        feed(link, Some(Event::Stream(StreamEvent::Message(message))));
    }
}

/// Aborts the stream's signal and asks its iterator to finish; the outcome waits for that at most
/// `CLOSE_BOUND_MS`.
fn close_stream(this: &Shared) {
    let Some(stream) = this.borrow_mut().stream.take() else { return };
    stream.controller.abort();
    let Some(iterator) = stream.iterator else { return };
    let Some(ret) = iterator.get("return").and_then(|f| f.dyn_into::<Function>().ok()) else { return };
    let returned = settled(ret.call0(&iterator));
    let mut timer = JsValue::UNDEFINED;
    let bound = Promise::new(&mut |resolve, _| timer = set_timeout(&resolve, CLOSE_BOUND_MS));
    let race = Promise::race(&[returned, bound].into_iter().collect::<js_sys::Array>());
    // Whatever wins, clear the bound's timer so it does not keep a Node process alive.
    let clear = Closure::once_into_js(move |_: JsValue| clear_timeout(&timer));
    let Ok(clear) = clear.dyn_into::<Function>() else { return };
    let Some(then) = race.get("then").and_then(|f| f.dyn_into::<Function>().ok()) else { return };
    if let Ok(p) = then.call2(&race, &clear, &clear) {
        this.borrow_mut().closing = Some(p.unchecked_into());
    }
}
