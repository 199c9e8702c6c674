//! The one JS-backed client ([`JsBacked`]): any JS object with a `request` function — the package's
//! transports, an application's own object — read once, as a [`Client`]. The JS face reads every
//! client it is given into one; the Rust API's client types are aliases of it, made by their own
//! constructors (`crate::api`), so there is one implementation of the client, and no layer that
//! forwards to another.

use super::interop::from_js::client::{js_handlers, read_millis};
use super::interop::from_js::{as_function, entries, field, is_plain_object};
use super::interop::to_js::{js_string, request_options, set_key};
use super::invalid::InvalidArgument;
use super::reply::called;
use crate::proto::core_tasks::TASKS_GENERATION;
use crate::shell::callbacks::{Handlers, Reply};
use crate::shell::client::{Client, RequestOptions};
use js_sys::Function;
use std::time::Duration;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

/// A client backed by a JS client object: its `request` and `listen` functions, `clientCapabilities`,
/// `requestTimeoutMs` and `inputHandlers`, read once (its `id` at each journaled call). `K` is what
/// made it: `()` for any JS client object ([`JsClient`](crate::JsClient)), or the Rust API's adapter
/// ([`HttpClient`](crate::HttpClient), [`PortClient`](crate::PortClient),
/// [`DirectClient`](crate::DirectClient)), whose constructors and methods are its own.
///
/// ```no_run
/// use mcp_tasks_wasm::{get_task, JsClient, StepOptions};
/// # async fn f(made_in_js: wasm_bindgen::JsValue) -> Result<(), mcp_tasks_wasm::Error> {
/// let client: JsClient = JsClient::new(&made_in_js)?;
/// let status = get_task(&client, "tsk_123", StepOptions::default()).await?;
/// # Ok(()) }
/// ```
#[derive(Clone, Debug)]
pub struct JsBacked<K = ()> {
    object: JsValue,
    request: Function,
    listen: Option<Function>,
    /// `session` and `respond` (MCP 2025-11-25), when the object has them.
    session: Option<Function>,
    respond: Option<Function>,
    capabilities: Option<JsValue>,
    timeout: Option<Duration>,
    handlers: JsValue,
    /// Input handlers given in Rust, used instead of the object's `inputHandlers`.
    own_handlers: Option<Handlers>,
    /// What made it: held, never read (an adapter keeps what the client needs alive here).
    _kind: K,
}

impl JsBacked {
    /// Reads a duck-typed client: any object with a `request` function (and optionally `listen`).
    /// `Err`: the invalid argument (the `TypeError` to reject with).
    pub(crate) fn read(object: &JsValue) -> Result<Self, InvalidArgument> {
        if !object.is_object() {
            return Err(InvalidArgument::rule("the client must be an object with a request function"));
        }
        let function = |key| InvalidArgument::field(key, "must be a function");
        let request = match field(object, "request") {
            None => return Err(InvalidArgument::rule("the client has no request function")),
            Some(f) => as_function(&f).ok_or(function("request"))?,
        };
        let optional = |key| match field(object, key) {
            None => Ok(None),
            Some(f) => as_function(&f).map(Some).ok_or(function(key)),
        };
        let (listen, session, respond) = (optional("listen")?, optional("session")?, optional("respond")?);
        let capabilities = field(object, "clientCapabilities");
        if let Some(c) = &capabilities {
            if !c.is_object() {
                return Err(InvalidArgument::field("client.clientCapabilities", "must be an object"));
            }
            if !is_plain_object(c) || entries(c).is_none() {
                return Err(InvalidArgument::field("client.clientCapabilities", "cannot be read"));
            }
        }
        let timeout = read_millis(object, "requestTimeoutMs")?;
        let handlers = field(object, "inputHandlers").unwrap_or(JsValue::UNDEFINED);
        Ok(Self {
            object: object.clone(),
            request,
            listen,
            session,
            respond,
            capabilities,
            timeout,
            handlers,
            own_handlers: None,
            _kind: (),
        })
    }

    /// This client as made by `kind`, with the input handlers given in Rust (`None`: the object's).
    pub(crate) fn made_by<K>(self, kind: K, own_handlers: Option<Handlers>) -> JsBacked<K> {
        let Self { object, request, listen, session, respond, capabilities, timeout, handlers, .. } = self;
        JsBacked {
            object,
            request,
            listen,
            session,
            respond,
            capabilities,
            timeout,
            handlers,
            own_handlers,
            _kind: kind,
        }
    }

    /// `true` when `other` is the same reading of the same object: the same functions, no
    /// capabilities, the same request timeout and handlers (so one may serve in place of the other:
    /// the JS face shares the reading of an unchanged client between calls).
    #[cfg(feature = "js")]
    pub(crate) fn same_as(&self, other: &JsBacked) -> bool {
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

impl<K> JsBacked<K> {
    /// The JS client object (e.g. to hand it to JS code).
    ///
    /// ```no_run
    /// # fn f(client: mcp_tasks_wasm::HttpClient) {
    /// let object: &wasm_bindgen::JsValue = client.as_js();
    /// # }
    /// ```
    pub fn as_js(&self) -> &JsValue {
        &self.object
    }
}

impl<K> Client for JsBacked<K> {
    fn request(&self, method: &str, params: JsValue, options: RequestOptions) -> Reply {
        let opts = request_options(&options.signal, options.timeout);
        if let Some(hear) = &options.on_request {
            set_key(opts.unchecked_ref(), "onRequest", hear);
        }
        called(self.request.call3(&self.object, &js_string(method), &params, &opts))
    }

    /// The object's `session({timeoutMs})` — unless its `generation` already says MCP 2026-07-28, or
    /// it has no `session` function (then it speaks 2026-07-28).
    fn session(&self, timeout: Option<Duration>) -> Option<Reply> {
        let session = self.session.as_ref()?;
        if field(&self.object, "generation").and_then(|g| g.as_string()).as_deref() == Some(TASKS_GENERATION) {
            return None;
        }
        let signal: web_sys::AbortSignal = JsValue::UNDEFINED.unchecked_into();
        Some(called(session.call1(&self.object, &request_options(&signal, timeout))))
    }

    /// The object's `respond(id, result, error)`.
    fn respond(&self, id: JsValue, answer: Result<JsValue, JsValue>) -> Option<Reply> {
        let respond = self.respond.as_ref()?;
        let (result, error) = match answer {
            Ok(r) => (r, JsValue::UNDEFINED),
            Err(e) => (JsValue::UNDEFINED, e),
        };
        Some(called(respond.call3(&self.object, &id, &result, &error)))
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
        self.own_handlers.clone().unwrap_or_else(|| js_handlers(&self.handlers))
    }

    /// The object's `id` when it is a non-empty string (read at each call: the app may set it late;
    /// only a journal reads it).
    #[cfg(feature = "journal")]
    fn id(&self) -> Option<String> {
        field(&self.object, "id").and_then(|id| id.as_string()).filter(|id| !id.is_empty())
    }

    /// The object's `generation` and `sessionId`, when they are strings.
    fn generation_and_session(&self) -> (Option<String>, Option<String>) {
        let text = |key| field(&self.object, key).and_then(|v| v.as_string());
        (text("generation"), text("sessionId"))
    }
}
