//! `channelClient(send, options?)`: a client over any message pair — `send(message)` carries one
//! JSON-RPC message to the server, `client.receive(message)` hands it each message that arrived, and
//! `client.close(error?)` says the channel closed. The bookkeeping is [`super::channel::Channel`];
//! this is its JS face. stdio (Node) and ports are thin adapters over it.
//!
//! - `request(method, params, {timeoutMs?, signal?})` sends `{jsonrpc, id, method, params}` with the
//!   `_meta` every 2026-07-28 request carries (protocol version, client info, capabilities) and resolves
//!   with the response's `result`, or rejects with its `error` object. On abort or timeout it rejects
//!   (an `McpHttpError` with status 0) and sends `notifications/cancelled` for its id.
//! - `listen(params, {signal?})` sends `subscriptions/listen` and resolves with an async iterator of
//!   the notifications routed to it; `return()` or the signal ends it (and sends
//!   `notifications/cancelled`); the listen's result ends it, its error rejects `next()`.
//! - After `close(error)` every pending request rejects and every stream fails with `error` (default:
//!   an `McpHttpError` "the channel closed", marked `retryable: false`); later requests reject at once.
//!
//! Application code (`send`, signals) runs only outside every borrow.

use super::channel::{Channel, Routed};
use super::js::{abort_error, async_iterator, mcp_error, read_common, step, type_error, Abort, Common, Why};
use crate::json::Json;
use crate::proto::rpc::read_rpc_error;
use crate::wasm::rt;
use js_sys::{Function, Promise, Reflect};
use std::cell::RefCell;
use std::collections::VecDeque;
use std::rc::{Rc, Weak};
use wasm_bindgen::prelude::*;

/// The TypeScript declarations of the transports (the channel client, `httpClient`,
/// `sdkTransportClient`), emitted into the generated `.d.ts`.
#[wasm_bindgen(typescript_custom_section)]
const TYPES: &str = include_str!("types.d.ts");

/// One request waiting for its response.
struct Waiting {
    id: u64,
    resolve: JsValue,
    reject: JsValue,
    _abort: Abort,
}

/// One listen stream: what arrived and was not read yet, a pending `next()`, its end.
struct Stream {
    id: u64,
    queue: VecDeque<JsValue>,
    waiter: Option<(JsValue, JsValue)>,
    /// `Some(None)`: ended; `Some(Some(e))`: failed with `e`.
    end: Option<Option<JsValue>>,
    _abort: Option<Abort>,
}

/// The most notifications a stream keeps unread before it fails.
const MAX_QUEUED: usize = 10_000;

struct Chan {
    send: Function,
    common: Common,
    core: RefCell<Channel>,
    waiting: RefCell<Vec<Waiting>>,
    streams: RefCell<Vec<Stream>>,
    closed: RefCell<Option<JsValue>>,
}

fn rejected(e: &JsValue) -> Promise {
    let d = rt::deferred();
    rt::settle_with(&d.get(2), e);
    d.get(0).unchecked_into()
}

impl Chan {
    /// Calls `send(message)`; `Err` with what it threw.
    fn transmit(&self, message: &JsValue) -> Result<(), JsValue> {
        let thrown = rt::call1(&self.send, &JsValue::UNDEFINED, message);
        match thrown.dyn_ref::<js_sys::Array>() {
            Some(a) => Err(a.get(0)),
            None => Ok(()),
        }
    }

    /// What every request and listen checks before anything is sent: the channel is open, `params`
    /// get the `_meta`, and the caller's signal has not already fired. `Ok((params, signal))`, or the
    /// rejection.
    fn prepare(&self, method: &str, params: &JsValue, opts: &JsValue) -> Result<(JsValue, Option<JsValue>), JsValue> {
        if let Some(e) = self.closed.borrow().clone() {
            return Err(e);
        }
        let params = self.common.params(params)?;
        let signal = opts.get("signal");
        if signal.as_ref().is_some_and(rt::is_aborted) {
            return Err(abort_error(method, Why::Signal, 0.0));
        }
        Ok((params, signal))
    }

    fn request(self: &Rc<Self>, method: JsValue, params: JsValue, opts: JsValue) -> Promise {
        let Some(method) = method.as_string() else {
            return rejected(&type_error("request", "method must be a string"));
        };
        let (params, signal) = match self.prepare(&method, &params, &opts) {
            Ok(ready) => ready,
            Err(e) => return rejected(&e),
        };
        let (id, message) = self.core.borrow_mut().request(&method, params);
        let timeout = self.common.timeout(&opts);
        let link = Rc::downgrade(self);
        let what = method.clone();
        let hook = Box::new(move |why| {
            if let Some(c) = link.upgrade() {
                c.give_up(id, Err(abort_error(&what, why, timeout.unwrap_or_default())));
            }
        });
        let abort = Abort::new(signal, timeout, hook);
        let d = rt::deferred();
        let promise: Promise = d.get(0).unchecked_into();
        self.waiting.borrow_mut().push(Waiting { id, resolve: d.get(1), reject: d.get(2), _abort: abort });
        if let Err(e) = self.transmit(&message) {
            let cause = mcp_error(&[&method, ": send failed"].concat(), &e);
            self.settle(id, Err(cause));
        }
        promise
    }

    /// Settles request `id` (once): resolve with the result, reject with the error.
    fn settle(&self, id: u64, outcome: Result<JsValue, JsValue>) {
        let taken = {
            let mut w = self.waiting.borrow_mut();
            w.iter().position(|x| x.id == id).map(|at| w.remove(at))
        };
        if let Some(w) = taken {
            match outcome {
                Ok(v) => rt::settle_with(&w.resolve, &v),
                Err(e) => rt::settle_with(&w.reject, &e),
            }
        }
    }

    /// Gives up request `id` (its signal or timeout fired): rejects it and tells the server.
    fn give_up(&self, id: u64, outcome: Result<JsValue, JsValue>) {
        let cancelled: Option<JsValue> = self.core.borrow_mut().cancel(id, "the client gave up the request");
        self.settle(id, outcome);
        if let Some(n) = cancelled {
            let _ = self.transmit(&n);
        }
    }

    fn listen(self: &Rc<Self>, params: JsValue, opts: JsValue) -> Promise {
        let (params, signal) = match self.prepare("subscriptions/listen", &params, &opts) {
            Ok(ready) => ready,
            Err(e) => return rejected(&e),
        };
        let (id, message) = self.core.borrow_mut().listen(params);
        let link = Rc::downgrade(self);
        let hook = Box::new(move |_| {
            if let Some(c) = link.upgrade() {
                c.end_stream(id, None, true);
            }
        });
        let abort = signal.map(|s| Abort::new(Some(s), None, hook));
        let stream = Stream { id, queue: VecDeque::new(), waiter: None, end: None, _abort: abort };
        self.streams.borrow_mut().push(stream);
        if let Err(e) = self.transmit(&message) {
            self.core.borrow_mut().cancel::<JsValue>(id, "");
            self.streams.borrow_mut().retain(|s| s.id != id);
            return rejected(&mcp_error("subscriptions/listen: send failed", &e));
        }
        let d = rt::deferred();
        rt::settle_with(&d.get(1), &iterator(Rc::downgrade(self), id));
        d.get(0).unchecked_into()
    }

    /// Ends stream `id` with `error` (`None`: a clean end); `tell` sends `notifications/cancelled`.
    fn end_stream(&self, id: u64, error: Option<JsValue>, tell: bool) {
        let cancelled: Option<JsValue> =
            if tell { self.core.borrow_mut().cancel(id, "the client closed the stream") } else { None };
        let waiter = {
            let mut streams = self.streams.borrow_mut();
            let Some(s) = streams.iter_mut().find(|s| s.id == id) else { return };
            if s.end.is_none() {
                s.end = Some(error);
            }
            s._abort = None;
            s.waiter.take()
        };
        if let Some(w) = waiter {
            self.answer_next(id, w);
        }
        if let Some(n) = cancelled {
            let _ = self.transmit(&n);
        }
    }

    /// Hands the next step of stream `id` to `waiter` (resolve, reject), or keeps it waiting.
    fn answer_next(&self, id: u64, waiter: (JsValue, JsValue)) {
        let item = {
            let mut streams = self.streams.borrow_mut();
            let Some(at) = streams.iter().position(|s| s.id == id) else {
                drop(streams);
                return rt::settle_with(&waiter.0, &step(true, JsValue::UNDEFINED));
            };
            let Some(s) = streams.get_mut(at) else { return };
            if let Some(m) = s.queue.pop_front() {
                Ok(step(false, m))
            } else if let Some(end) = s.end.clone() {
                streams.remove(at);
                match end {
                    None => Ok(step(true, JsValue::UNDEFINED)),
                    Some(e) => Err(e),
                }
            } else {
                s.waiter = Some(waiter);
                return;
            }
        };
        match item {
            Ok(v) => rt::settle_with(&waiter.0, &v),
            Err(e) => rt::settle_with(&waiter.1, &e),
        }
    }

    fn next(&self, id: u64) -> Promise {
        let d = rt::deferred();
        let busy = self.streams.borrow().iter().any(|s| s.id == id && s.waiter.is_some());
        if busy {
            // One `next()` at a time: a concurrent one gets the end (callers await each step).
            rt::settle_with(&d.get(1), &step(true, JsValue::UNDEFINED));
        } else {
            self.answer_next(id, (d.get(1), d.get(2)));
        }
        d.get(0).unchecked_into()
    }

    /// Fails request or listen `id` (a message id, as sent) with `error`, or every pending request
    /// when `id` is undefined — a failure the transport reported for them (the channel stays open).
    fn fail(&self, id: JsValue, error: JsValue) {
        let ids: Vec<u64> = if id.is_undefined() {
            self.core.borrow().pending()
        } else {
            let own = self.core.borrow().as_id(&id);
            own.into_iter().collect()
        };
        for id in ids {
            let forgot = self.core.borrow_mut().forget(id);
            if forgot {
                self.settle(id, Err(error.clone()));
            } else if self.core.borrow_mut().cancel::<JsValue>(id, "").is_some() {
                self.end_stream(id, Some(error.clone()), false);
            }
        }
    }

    /// A message arrived: settle, route or ignore it; `true` when something waited for it.
    fn receive(&self, message: JsValue) -> bool {
        let routed = self.core.borrow_mut().receive(&message);
        let taken = !routed.is_empty();
        for r in routed {
            match r {
                Routed::Reply { id, outcome: Ok(v) } => self.settle(id, Ok(v)),
                Routed::Reply { id, outcome: Err(e) } => {
                    let e = if read_rpc_error(&e).is_some() {
                        e
                    } else {
                        mcp_error("request: malformed JSON-RPC error", &e)
                    };
                    self.settle(id, Err(e));
                }
                Routed::Stream { id, message } => self.push(id, message),
                Routed::StreamEnd { id, error } => self.end_stream(id, error, false),
            }
        }
        taken
    }

    fn push(&self, id: u64, message: JsValue) {
        let (waiter, overflow) = {
            let mut streams = self.streams.borrow_mut();
            let Some(s) = streams.iter_mut().find(|s| s.id == id && s.end.is_none()) else { return };
            if s.queue.len() >= MAX_QUEUED {
                s.queue.clear();
                (None, true)
            } else {
                s.queue.push_back(message);
                (s.waiter.take(), false)
            }
        };
        if overflow {
            let e = mcp_error("subscriptions/listen: more than 10000 notifications queued unread", &JsValue::UNDEFINED);
            return self.end_stream(id, Some(e), true);
        }
        if let Some(w) = waiter {
            self.answer_next(id, w);
        }
    }

    /// The channel closed: every request and stream fails with `error`.
    fn close(&self, error: JsValue) {
        let error = if error.is_undefined() {
            let e = mcp_error("the channel closed", &JsValue::UNDEFINED);
            let _ = Reflect::set(&e, &"retryable".into(), &JsValue::FALSE);
            e
        } else {
            error
        };
        if self.closed.borrow().is_some() {
            return;
        }
        *self.closed.borrow_mut() = Some(error.clone());
        let (requests, listens) = self.core.borrow_mut().close();
        for id in requests {
            self.settle(id, Err(error.clone()));
        }
        for id in listens {
            self.end_stream(id, Some(error.clone()), false);
        }
    }
}

/// The async iterator of stream `id`.
fn iterator(chan: Weak<Chan>, id: u64) -> JsValue {
    let c = chan.clone();
    let next = Closure::<dyn Fn() -> Promise>::new(move || match c.upgrade() {
        Some(c) => c.next(id),
        None => Promise::resolve(&step(true, JsValue::UNDEFINED)),
    })
    .into_js_value();
    let ret = Closure::<dyn Fn() -> Promise>::new(move || {
        if let Some(c) = chan.upgrade() {
            c.end_stream(id, None, true);
        }
        Promise::resolve(&step(true, JsValue::UNDEFINED))
    })
    .into_js_value();
    async_iterator(next, ret)
}

/// Builds a client over a message pair: `send(message)` carries one JSON-RPC message to the server;
/// the client's `receive(message)` takes each one that arrives and `close(error?)` ends the channel.
/// Options: `clientInfo`, `clientCapabilities`, `inputHandlers`, `requestTimeoutMs`, `idPrefix` (ids go
/// out as strings `"<idPrefix><n>"`). Throws a `TypeError` for bad arguments, prefixed with `name`
/// (default `"channelClient"`: a transport built on it passes its own).
#[wasm_bindgen(js_name = channelClient, unchecked_return_type = "ChannelClient")]
pub fn channel_client(
    #[wasm_bindgen(unchecked_param_type = "(message: object) => void")] send: JsValue,
    #[wasm_bindgen(unchecked_optional_param_type = "ChannelClientOptions")] options: JsValue,
    #[wasm_bindgen(unchecked_optional_param_type = "string")] name: JsValue,
) -> Result<JsValue, JsValue> {
    let name = name.as_string().unwrap_or_else(|| "channelClient".to_owned());
    let send: Function = send.dyn_into().map_err(|_| type_error(&name, "send must be a function"))?;
    let common = read_common(&options, &name)?;
    let core = match options.get_str("idPrefix") {
        Some(p) => Channel::with_prefix(&p),
        None => Channel::new(),
    };
    let chan = Rc::new(Chan {
        send,
        common,
        core: RefCell::new(core),
        waiting: RefCell::new(Vec::new()),
        streams: RefCell::new(Vec::new()),
        closed: RefCell::new(None),
    });
    let client = chan.common.client_object();
    let c = chan.clone();
    let request = Closure::<dyn Fn(JsValue, JsValue, JsValue) -> Promise>::new(move |m, p, o| c.request(m, p, o));
    let c = chan.clone();
    let listen = Closure::<dyn Fn(JsValue, JsValue) -> Promise>::new(move |p, o| c.listen(p, o));
    let c = chan.clone();
    let receive = Closure::<dyn Fn(JsValue) -> bool>::new(move |m| c.receive(m));
    let c = chan.clone();
    let fail = Closure::<dyn Fn(JsValue, JsValue)>::new(move |id, e| c.fail(id, e));
    let close = Closure::<dyn Fn(JsValue)>::new(move |e| chan.close(e));
    let fields = [
        ("request", request.into_js_value()),
        ("listen", listen.into_js_value()),
        ("receive", receive.into_js_value()),
        ("fail", fail.into_js_value()),
        ("close", close.into_js_value()),
    ];
    for (k, v) in fields {
        let _ = Reflect::set(&client, &k.into(), &v);
    }
    Ok(client)
}
