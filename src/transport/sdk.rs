//! `sdkTransportClient(transport, options?)`: a client over a transport of the official TypeScript SDK
//! (e.g. `StreamableHTTPClientTransport` of `@modelcontextprotocol/client`), for applications that
//! already hold one. `request` sends the raw JSON-RPC request with `transport.send(message,
//! {requestSignal, onRequestStreamEnd})` and matches the response by id in `transport.onmessage`, so
//! `resultType: "task"` results pass through untouched (the SDK's own `Client.request` rejects them).
//!
//! The transport is started once, lazily, when it has `start()` (a rejection, e.g. "already started",
//! is ignored: `send` reports real failures). The handlers already set on the transport keep working:
//! messages that do not answer one of this client's requests go on to the previous `onmessage`, and
//! `onerror`/`onclose` are passed on after failing this client's pending requests. Ids are strings
//! (`"mcp-tasks-wasm-<n>"`), so they never collide with an SDK `Client` sharing the transport.

use super::http::{
    abort_error, callback, cat, digits, forget, is_response, mcp_error, message, read_common, settle, type_error,
    Abort, Any, Common, Target,
};
use crate::json::Json;
use js_sys::{Function, Promise, Reflect, JSON};
use std::cell::{Cell, RefCell};
use std::rc::{Rc, Weak};
use wasm_bindgen::prelude::*;

/// A pending request: its id, the functions settling its promise, and its abort wiring.
type Pending = (String, Function, Function, Abort);

/// The adapter's state.
pub(crate) struct Sdk {
    transport: JsValue,
    send: Function,
    common: Common,
    pending: RefCell<Vec<Pending>>,
    ready: RefCell<Option<Promise>>,
    last_id: Cell<u32>,
}

/// The adapter's JS callbacks (see `http::callback`).
pub(crate) enum Cb {
    /// `client.request(method, params, options)`.
    Request(Rc<Sdk>),
    /// `transport.onmessage`, chained in front of the previous handler.
    Message(Weak<Sdk>, Option<Function>),
    /// `transport.onerror`, chained in front of the previous handler.
    Error(Weak<Sdk>, Option<Function>),
    /// `transport.onclose`, chained in front of the previous handler.
    Close(Weak<Sdk>, Option<Function>),
    /// The signal or the timeout of request `id` (`method`, timeout in ms) fired.
    Abort(Weak<Sdk>, String, String, f64),
    /// `onRequestStreamEnd` of request `id`.
    StreamEnd(Weak<Sdk>, String),
    /// `send` of request `id` rejected.
    SendFailed(Weak<Sdk>, String),
}

/// Runs an adapter callback with its JS arguments.
pub(crate) fn dispatch(cb: &Cb, a: JsValue, b: JsValue, c: JsValue) -> Promise {
    let this = |w: &Weak<Sdk>| w.upgrade().map_or(JsValue::UNDEFINED, |s| s.transport.clone());
    match cb {
        Cb::Request(sdk) => return sdk.request(a, b, c).unwrap_or_else(|e| Promise::reject(&e)),
        Cb::Message(w, prev) => {
            let mine = w.upgrade().is_some_and(|s| {
                is_response(&a) && a.get_str("id").is_some_and(|id| s.finish(&id, settle(&a, "request", 0)))
            });
            if let (false, Some(f)) = (mine, prev) {
                let _ = f.call2(&this(w), &a, &b);
            }
        }
        Cb::Error(w, prev) => {
            if let Some(s) = w.upgrade() {
                // An HTTP error whose body answers one of our requests settles that one only.
                match body_error(&a) {
                    Some((Some(id), e)) => {
                        s.finish(&id, Err(e));
                    }
                    _ => s.fail_all(&a),
                }
            }
            if let Some(f) = prev {
                let _ = f.call1(&this(w), &a);
            }
        }
        Cb::Close(w, prev) => {
            if let Some(s) = w.upgrade() {
                s.fail_all(&mcp_error("request: the transport closed", 0, &"".into(), &JsValue::UNDEFINED));
            }
            if let Some(f) = prev {
                let _ = f.call0(&this(w));
            }
        }
        Cb::Abort(w, id, method, timeout_ms) => {
            if let Some(s) = w.upgrade() {
                let why = a.as_f64().unwrap_or_default() as u8;
                s.finish(id, Err(abort_error(method, 0, why, *timeout_ms, &JsValue::UNDEFINED)));
            }
        }
        Cb::StreamEnd(w, id) => {
            if let Some(s) = w.upgrade() {
                s.finish(
                    id,
                    Err(mcp_error(
                        "request: the response stream ended without a response",
                        0,
                        &"".into(),
                        &JsValue::UNDEFINED,
                    )),
                );
            }
        }
        Cb::SendFailed(w, id) => {
            if let Some(s) = w.upgrade() {
                s.finish(id, Err(send_failure(a, id)));
            }
        }
    }
    Promise::resolve(&JsValue::UNDEFINED)
}

impl Sdk {
    /// Settles the pending request `id` (when it is still pending); `true` when it was.
    fn finish(&self, id: &str, outcome: Result<JsValue, JsValue>) -> bool {
        let entry = {
            let mut pending = self.pending.borrow_mut();
            let at = pending.iter().position(|p| p.0 == id);
            at.map(|at| pending.swap_remove(at))
        };
        let Some((_, resolve, reject, _abort)) = entry else { return false };
        let _ = match outcome {
            Ok(v) => resolve.call1(&JsValue::UNDEFINED, &v),
            Err(e) => reject.call1(&JsValue::UNDEFINED, &e),
        };
        true
    }

    /// Rejects every pending request with `error`.
    fn fail_all(&self, error: &JsValue) {
        let ids: Vec<String> = self.pending.borrow().iter().map(|p| p.0.clone()).collect();
        for id in ids {
            self.finish(&id, Err(error.clone()));
        }
    }

    /// Installs the handlers and starts the transport, once; the promise never rejects.
    fn ready(self: &Rc<Self>) -> Promise {
        if let Some(p) = self.ready.borrow().clone() {
            return p;
        }
        let t = &self.transport;
        let prev = |key: &str| t.get(key).and_then(|f| f.dyn_into::<Function>().ok());
        let w = || Rc::downgrade(self);
        let handlers = [
            ("onmessage", Cb::Message(w(), prev("onmessage"))),
            ("onerror", Cb::Error(w(), prev("onerror"))),
            ("onclose", Cb::Close(w(), prev("onclose"))),
        ];
        for (key, cb) in handlers {
            let _ = Reflect::set(t, &key.into(), &callback(Target::Sdk(cb)));
        }
        let started = match t.get("start").and_then(|f| f.dyn_into::<Function>().ok()) {
            Some(start) => match start.call0(t) {
                Ok(v) => Promise::resolve(&v),
                Err(e) => Promise::reject(&e),
            },
            None => Promise::resolve(&JsValue::UNDEFINED),
        };
        // "Already started" (or any start failure) is ignored: `send` reports real failures.
        let ignore = js_sys::global().get("Boolean").unwrap_or(JsValue::UNDEFINED);
        let ready = started.unchecked_ref::<Any>().then_with(&JsValue::UNDEFINED, &ignore);
        *self.ready.borrow_mut() = Some(ready.clone());
        ready
    }

    /// `request(method, params, {timeoutMs?, signal?})`.
    fn request(self: &Rc<Self>, method: JsValue, params: JsValue, opts: JsValue) -> Result<Promise, JsValue> {
        let method = method.as_string().ok_or_else(|| type_error("request", "method must be a string"))?;
        let params = self.common.params(&params)?;
        self.last_id.set(self.last_id.get().wrapping_add(1));
        let id = cat(&["mcp-tasks-wasm-", &digits(self.last_id.get())]);
        let message = message(&JsValue::from_str(&id), &method, &params);
        let w = Rc::downgrade(self);
        let timeout = self.common.timeout(&opts);
        let hook = callback(Target::Sdk(Cb::Abort(w.clone(), id.clone(), method.clone(), timeout.unwrap_or_default())));
        let abort = Abort::new(opts.get("signal"), timeout, Some(hook.unchecked_into()));
        if abort.aborted() {
            return Err(abort.fail(&method, 0, &JsValue::UNDEFINED));
        }
        let send_opts = JsValue::object(vec![
            ("requestSignal", abort.signal()),
            ("onRequestStreamEnd", callback(Target::Sdk(Cb::StreamEnd(w.clone(), id.clone())))),
        ]);
        let mut slot = Some(abort);
        let reply = Promise::new(&mut |resolve, reject| {
            if let Some(a) = slot.take() {
                self.pending.borrow_mut().push((id.clone(), resolve, reject, a));
            }
        });
        let send = self.send.unchecked_ref::<Any>().bind_with(&self.transport, &message, &send_opts);
        let sent = self.ready().unchecked_ref::<Any>().then_with(&send, &JsValue::UNDEFINED);
        let failed = callback(Target::Sdk(Cb::SendFailed(w, id)));
        forget(&sent.unchecked_ref::<Any>().then_with(&JsValue::UNDEFINED, &failed));
        Ok(reply)
    }
}

/// The JSON-RPC error an SDK HTTP error carries in its body (`error.data.text`; the SDK throws on a
/// 404 `-32601` instead of delivering it), with the id it answers (`None` for a null id).
fn body_error(err: &JsValue) -> Option<(Option<String>, JsValue)> {
    let text = err.get("data")?.get_str("text")?;
    let msg = JSON::parse(&text).ok()?;
    let error = settle(&msg, "request", 0).err().filter(|_| msg.get("error").is_some())?;
    Some((msg.get_str("id"), error))
}

/// What a rejected `send` of request `id` means: the JSON-RPC error its HTTP body carried for this
/// request, else the rejection itself.
fn send_failure(err: JsValue, id: &str) -> JsValue {
    match body_error(&err) {
        Some((None, e)) => e,
        Some((Some(i), e)) if i == id => e,
        _ => err,
    }
}

/// Builds a client over an SDK transport (an object with `send(message, options?)`, and optionally
/// `start()`, `onmessage`, `onerror`, `onclose`). Options: `clientInfo`, `clientCapabilities`,
/// `inputHandlers`, `requestTimeoutMs`. Throws a `TypeError` for bad arguments.
#[wasm_bindgen(js_name = sdkTransportClient, unchecked_return_type = "TasksClient")]
pub fn sdk_transport_client(
    #[wasm_bindgen(unchecked_param_type = "SdkTransport")] transport: JsValue,
    #[wasm_bindgen(unchecked_optional_param_type = "SdkTransportClientOptions")] options: JsValue,
) -> Result<JsValue, JsValue> {
    const F: &str = "sdkTransportClient";
    let send = transport
        .get("send")
        .and_then(|f| f.dyn_into::<Function>().ok())
        .ok_or_else(|| type_error(F, "transport must be an object with a send function"))?;
    let common = read_common(&options, F, false)?;
    let sdk = Rc::new(Sdk {
        transport,
        send,
        common,
        pending: RefCell::new(Vec::new()),
        ready: RefCell::new(None),
        last_id: Cell::new(0),
    });
    let client = sdk.common.client_object();
    let _ = Reflect::set(&client, &"request".into(), &callback(Target::Sdk(Cb::Request(sdk))));
    Ok(client)
}
