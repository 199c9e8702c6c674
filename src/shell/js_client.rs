//! The JS client objects the engine drives ([`ClientObject`]: any JS object with a `request`
//! function — the transports of the package, an application's own object), as a
//! [`Client`](crate::shell::client::Client).

use super::interop::from_js::client::{js_handlers, read_millis};
use super::interop::from_js::{as_function, entries, field, is_plain_object};
use super::interop::to_js::{js_string, request_options};
use super::invalid::Mistake;
use super::reply::called;
use crate::shell::callbacks::{Handlers, Reply};
use crate::shell::client::{Client, RequestOptions};
use js_sys::Function;
use std::time::Duration;
use wasm_bindgen::prelude::*;

/// A JS client object, read once: its `request` and `listen` functions, `clientCapabilities`,
/// `requestTimeoutMs` and `inputHandlers` (the JS exports' reading; the Rust API's `JsClient` wraps
/// it).
#[derive(Clone, Debug)]
pub struct ClientObject {
    /// The client object (`this` of its functions).
    pub object: JsValue,
    pub(in crate::shell) request: Function,
    pub(in crate::shell) listen: Option<Function>,
    pub(in crate::shell) capabilities: Option<JsValue>,
    pub(in crate::shell) timeout: Option<Duration>,
    pub(in crate::shell) handlers: JsValue,
}

impl ClientObject {
    /// Reads a duck-typed client: any object with a `request` function (and optionally `listen`).
    /// `Err`: the mistake (the `TypeError` to reject with).
    pub fn read(object: &JsValue) -> Result<Self, Mistake> {
        if !object.is_object() {
            return Err(Mistake::rule("the client must be an object with a request function"));
        }
        let function = |key| Mistake::field(key, "must be a function");
        let request = match field(object, "request") {
            None => return Err(Mistake::rule("the client has no request function")),
            Some(f) => as_function(&f).ok_or(function("request"))?,
        };
        let listen = match field(object, "listen") {
            None => None,
            Some(f) => Some(as_function(&f).ok_or(function("listen"))?),
        };
        let capabilities = field(object, "clientCapabilities");
        if let Some(c) = &capabilities {
            if !c.is_object() {
                return Err(Mistake::field("client.clientCapabilities", "must be an object"));
            }
            if !is_plain_object(c) || entries(c).is_none() {
                return Err(Mistake::field("client.clientCapabilities", "cannot be read"));
            }
        }
        let timeout = read_millis(object, "requestTimeoutMs")?;
        let handlers = field(object, "inputHandlers").unwrap_or(JsValue::UNDEFINED);
        Ok(Self { object: object.clone(), request, listen, capabilities, timeout, handlers })
    }
}

impl ClientObject {
    /// `true` when `other` is the same reading of the same object: the same functions, no
    /// capabilities, the same request timeout and handlers (so one may serve in place of the other).
    #[doc(hidden)]
    pub fn same_as(&self, other: &ClientObject) -> bool {
        let same = |a: &JsValue, b: &JsValue| a == b;
        same(&self.object, &other.object)
            && same(&self.request, &other.request)
            && match (&self.listen, &other.listen) {
                (Some(a), Some(b)) => same(a, b),
                (None, None) => true,
                _ => false,
            }
            && self.capabilities.is_none()
            && other.capabilities.is_none()
            && self.timeout == other.timeout
            && same(&self.handlers, &other.handlers)
    }
}

impl Client for ClientObject {
    fn request(&self, method: &str, params: JsValue, options: RequestOptions) -> Reply {
        let opts = request_options(&options.signal, options.timeout);
        called(self.request.call3(&self.object, &js_string(method), &params, &opts))
    }

    fn listen(&self, params: JsValue, signal: web_sys::AbortSignal) -> Option<Reply> {
        let listen = self.listen.as_ref()?;
        Some(called(listen.call2(&self.object, &params, &request_options(&signal, None))))
    }

    fn client_capabilities(&self) -> Option<JsValue> {
        self.capabilities.clone()
    }

    fn request_timeout(&self) -> Option<Duration> {
        self.timeout
    }

    fn input_handlers(&self) -> Handlers {
        js_handlers(&self.handlers)
    }

    /// The object's `id` when it is a non-empty string (read at each call: the app may set it late;
    /// only a journal reads it).
    #[cfg(feature = "journal")]
    fn id(&self) -> Option<String> {
        field(&self.object, "id").and_then(|id| id.as_string()).filter(|id| !id.is_empty())
    }
}
