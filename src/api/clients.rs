//! The clients a Rust app drives: [`HttpClient`] (Streamable HTTP over `fetch`), [`PortClient`] (a
//! `MessagePort`), [`DirectClient`] (an in-process Rust handler) and [`JsClient`] (any JS client
//! object). All four are the one JS-backed client ([`JsBacked`]), made by their own constructors: the
//! first three from the package's own JS adapters — the same transports as the npm package's
//! `httpClient`, `portClient` and `directClient` — with input handlers given as Rust closures. A Rust
//! type becomes a client by implementing [`Client`](crate::Client).

use super::adapters::{direct_client, http_client, port_client};
use super::error::Error;
use crate::json::Json;
use crate::shell::{
    call_and_forget, call_method, is_safe_web_url, set_client_id, set_key, transport_options, Handlers, JsBacked,
};
use std::future::Future;
use std::rc::Rc;
use std::time::Duration;
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::future_to_promise;

/// Any JS client object: an object with a `request` function (and optionally `listen`,
/// `clientCapabilities`, `requestTimeoutMs`, `inputHandlers`, `id`) — e.g. one a JS part of the app
/// made with `stdioClient` or `sdkTransportClient`. Its functions are read once; its `id` (the server
/// its journaled tasks belong to) at each journaled call.
///
/// ```no_run
/// use mcp_tasks_wasm::{get_task, JsClient, StepOptions};
/// # async fn f(made_in_js: wasm_bindgen::JsValue) -> Result<(), mcp_tasks_wasm::Error> {
/// let client = JsClient::new(&made_in_js)?;
/// let status = get_task(&client, "tsk_123", StepOptions::default()).await?;
/// # Ok(()) }
/// ```
pub type JsClient = JsBacked;

impl JsBacked {
    /// Reads a JS client object. `Err`: [`Error::InvalidArgument`] for a value that is not a client.
    ///
    /// ```no_run
    /// # fn f(from_js: wasm_bindgen::JsValue) -> Result<(), mcp_tasks_wasm::Error> {
    /// let client = mcp_tasks_wasm::JsClient::new(&from_js)?;
    /// # Ok(()) }
    /// ```
    pub fn new(value: &JsValue) -> Result<Self, Error> {
        JsBacked::read(value).map_err(|m| Error::InvalidArgument(m.message().to_owned()))
    }
}

/// What made each of the Rust API's client types: the `K` of [`JsBacked`] behind [`HttpClient`],
/// [`PortClient`] and [`DirectClient`] (their constructors and methods).
pub mod kind {
    /// [`HttpClient`](crate::HttpClient)'s: the package's `httpClient`.
    #[derive(Clone, Copy, Debug)]
    pub struct Http;
    /// [`PortClient`](crate::PortClient)'s: the package's `portClient`.
    #[derive(Clone, Copy, Debug)]
    pub struct Port;
    /// [`DirectClient`](crate::DirectClient)'s: the package's `directClient`, and the Rust handler it
    /// calls (kept alive as long as the client).
    #[derive(Clone, Debug)]
    pub struct Direct {
        pub(super) _handler: std::rc::Rc<super::HandlerClosure>,
    }
}

/// The client a JS adapter made (`object`: what its factory returned or threw), as made by `kind`, with
/// the input handlers given in Rust and `id` set on its object.
fn adapted<K>(
    object: Result<JsValue, JsValue>,
    kind: K,
    handlers: Option<Handlers>,
    id: Option<&str>,
) -> Result<JsBacked<K>, Error> {
    let object = object.map_err(|e| Error::thrown_type_error(&e))?;
    let client = JsClient::new(&object)?.made_by(kind, handlers);
    if let Some(id) = id {
        set_client_id(&object, id);
    }
    Ok(client)
}

/// `{name, version}` as the transport options take it.
fn info_pair(info: &Option<ClientInfo>) -> Option<(&str, &str)> {
    info.as_ref().map(|i| (i.name.as_str(), i.version.as_str()))
}

/// `{name, version}` a client declares itself as (`_meta["io.modelcontextprotocol/clientInfo"]`).
///
/// ```no_run
/// use mcp_tasks_wasm::ClientInfo;
/// let info = ClientInfo { name: "my-app".into(), version: "1.2.0".into() };
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ClientInfo {
    /// The application's name.
    pub name: String,
    /// Its version.
    pub version: String,
}

/// The options of [`HttpClient::with_options`] (JS: `httpClient`'s options).
///
/// ```no_run
/// use mcp_tasks_wasm::{HttpClient, HttpOptions};
/// use std::time::Duration;
/// # fn f() -> Result<(), wasm_bindgen::JsValue> {
/// let options = HttpOptions {
///     headers: vec![("Authorization".into(), "Bearer not-a-real-token".into())],
///     request_timeout: Some(Duration::from_secs(10)),
///     ..HttpOptions::default()
/// };
/// let client = HttpClient::with_options("https://mcp.example.com/mcp", options)?;
/// # Ok(()) }
/// ```
#[derive(Clone, Debug, Default)]
pub struct HttpOptions {
    /// Headers sent with every request (they never replace the protocol headers).
    pub headers: Vec<(String, String)>,
    /// The default bound of each request ([`NO_DEADLINE`](crate::NO_DEADLINE) for none; default: none).
    pub request_timeout: Option<Duration>,
    /// What the client declares itself as (default `{name: "mcp-tasks-wasm", version}`).
    pub client_info: Option<ClientInfo>,
    /// The client's own capabilities (the tasks extension is merged in), a JS object.
    pub client_capabilities: Option<JsValue>,
    /// The input handlers of waits on this client (when their options give none). On an MCP
    /// 2025-11-25 server they also decide the capabilities its `initialize` declares (elicitation
    /// form / url, sampling, roots).
    pub input_handlers: Option<Handlers>,
    /// Names the server's generation, `"2026-07-28"` or `"2025-11-25"`, and skips finding it (default:
    /// found on the first request; see docs/generations.md).
    pub generation: Option<String>,
}

/// The Streamable HTTP client over `fetch` — MCP 2026-07-28, or a 2025-11-25 session when the server
/// speaks that (found on the first request): the npm package's `httpClient`, made from Rust. Its `id`
/// (the server its journaled tasks belong to) is the URL.
///
/// ```no_run
/// use mcp_tasks_wasm::{call_and_await, AwaitOptions, CallOptions, HttpClient};
/// # async fn f() -> Result<(), wasm_bindgen::JsValue> {
/// let client = HttpClient::new("http://127.0.0.1:8787/mcp")?;
/// let outcome = call_and_await(&client, "slow", &serde_json::json!({"ms": 50}), CallOptions::default(), AwaitOptions::default()).await?;
/// # Ok(()) }
/// ```
pub type HttpClient = JsBacked<kind::Http>;

impl JsBacked<kind::Http> {
    /// A client of the MCP endpoint at `url`, with the default options. `Err`:
    /// [`Error::InvalidArgument`] for what is not an absolute `http:`/`https:` URL with a host and no
    /// credentials (checked by the WHATWG URL parser, here, not at the first call).
    ///
    /// ```no_run
    /// # fn f() -> Result<(), mcp_tasks_wasm::Error> {
    /// let client = mcp_tasks_wasm::HttpClient::new("http://127.0.0.1:8787/mcp")?;
    /// assert!(mcp_tasks_wasm::HttpClient::new("not a url").is_err());
    /// # Ok(()) }
    /// ```
    pub fn new(url: &str) -> Result<Self, Error> {
        Self::with_options(url, HttpOptions::default())
    }

    /// A client of the MCP endpoint at `url` with `options`.
    ///
    /// ```no_run
    /// use mcp_tasks_wasm::{ClientInfo, HttpClient, HttpOptions};
    /// # fn f() -> Result<(), mcp_tasks_wasm::Error> {
    /// let info = ClientInfo { name: "my-app".into(), version: "1.0.0".into() };
    /// let client = HttpClient::with_options("http://127.0.0.1:8787/mcp", HttpOptions { client_info: Some(info), ..HttpOptions::default() })?;
    /// # Ok(()) }
    /// ```
    pub fn with_options(url: &str, options: HttpOptions) -> Result<Self, Error> {
        if !is_safe_web_url(url) {
            let message =
                "HttpClient: the URL must be an absolute http: or https: URL with a host and no credentials: ";
            return Err(Error::InvalidArgument([message, url].concat()));
        }
        let o = transport_options(
            options.request_timeout,
            info_pair(&options.client_info),
            options.client_capabilities.as_ref(),
            &options.headers,
        );
        if let Some(g) = &options.generation {
            set_key(&o, "generation", &JsValue::from_str(g));
        }
        if let Some(h) = &options.input_handlers {
            // What a 2025-11-25 `initialize` declares follows the handlers the client has; those given in
            // Rust answer (the transport's are never called: the engine asks the Rust ones).
            let declared = js_sys::Object::new();
            let kinds = [
                ("form", h.form.is_some()),
                ("url", h.url.is_some()),
                ("sampling", h.sampling.is_some()),
                ("roots", h.roots.is_some()),
            ];
            for (kind, _) in kinds.iter().filter(|(_, has)| *has) {
                set_key(&declared, kind, &Closure::<dyn Fn()>::new(|| {}).into_js_value());
            }
            set_key(&o, "inputHandlers", &declared);
        }
        adapted(http_client(url, &o), kind::Http, options.input_handlers, None)
    }

    /// The generation found on the first request (`None` until then), or named by the options:
    /// `"2026-07-28"` or `"2025-11-25"`.
    ///
    /// ```no_run
    /// # fn f(client: mcp_tasks_wasm::HttpClient) {
    /// let speaks_core_tasks = client.generation().as_deref() == Some("2025-11-25");
    /// # }
    /// ```
    pub fn generation(&self) -> Option<String> {
        js_sys::Reflect::get(self.as_js(), &JsValue::from_str("generation")).ok().and_then(|g| g.as_string())
    }

    /// Sends `server/discover` once (the answer is cached; a failure is not): the server's
    /// capabilities, e.g. for [`server_supports`](crate::server_supports).
    ///
    /// ```no_run
    /// # async fn f(client: mcp_tasks_wasm::HttpClient) -> Result<(), mcp_tasks_wasm::Error> {
    /// let found = client.discover().await?;
    /// assert!(mcp_tasks_wasm::server_supports(&found));
    /// # Ok(()) }
    /// ```
    ///
    /// `Err`: [`Error::Task`] with the JSON-RPC error or the transport failure (kind `transport`).
    pub async fn discover(&self) -> Result<JsValue, Error> {
        let failed = |e: JsValue| Error::Task(super::error::TaskError::from_js(&e));
        let discovering = call_method(self.as_js(), "discover");
        discovering.ok_or_else(|| Error::InvalidArgument("no discover function".to_owned()))?.await.map_err(failed)
    }
}

/// The options of [`PortClient::with_options`] and [`DirectClient::with_options`].
///
/// ```no_run
/// use mcp_tasks_wasm::ClientOptions;
/// let options = ClientOptions { id: Some("worker".into()), ..ClientOptions::default() };
/// ```
#[derive(Clone, Debug, Default)]
pub struct ClientOptions {
    /// The client's `id`: the server its journaled tasks belong to (a journaled call on a client
    /// without one is a `TypeError`).
    pub id: Option<String>,
    /// The default bound of each request (port clients only; default: none).
    pub request_timeout: Option<Duration>,
    /// What the client declares itself as (port clients only).
    pub client_info: Option<ClientInfo>,
    /// The client's own capabilities (the tasks extension is merged in), a JS object.
    pub client_capabilities: Option<JsValue>,
    /// The input handlers of waits on this client (when their options give none).
    pub input_handlers: Option<Handlers>,
}

/// A client of a server behind a `MessagePort` (a worker, a frame, a service worker): the npm
/// package's `portClient`, made from Rust. Messages are the JSON-RPC objects themselves.
///
/// ```no_run
/// use mcp_tasks_wasm::{call_and_await, AwaitOptions, CallOptions, PortClient};
/// # async fn f() -> Result<(), wasm_bindgen::JsValue> {
/// let channel = web_sys::MessageChannel::new()?;
/// let client = PortClient::new(channel.port1())?; // the server listens on channel.port2()
/// let outcome = call_and_await(&client, "work", &(), CallOptions::default(), AwaitOptions::default()).await?;
/// client.close();
/// # Ok(()) }
/// ```
pub type PortClient = JsBacked<kind::Port>;

impl JsBacked<kind::Port> {
    /// A client over `port` (started by the client).
    ///
    /// ```no_run
    /// # fn f(port: web_sys::MessagePort) -> Result<(), mcp_tasks_wasm::Error> {
    /// let client = mcp_tasks_wasm::PortClient::new(port)?;
    /// # Ok(()) }
    /// ```
    pub fn new(port: web_sys::MessagePort) -> Result<Self, Error> {
        Self::with_options(port, ClientOptions::default())
    }

    /// A client over `port` with `options`.
    ///
    /// ```no_run
    /// use mcp_tasks_wasm::{ClientOptions, PortClient};
    /// # fn f(port: web_sys::MessagePort) -> Result<(), mcp_tasks_wasm::Error> {
    /// let client = PortClient::with_options(port, ClientOptions { id: Some("worker".into()), ..ClientOptions::default() })?;
    /// # Ok(()) }
    /// ```
    pub fn with_options(port: web_sys::MessagePort, options: ClientOptions) -> Result<Self, Error> {
        let o = transport_options(
            options.request_timeout,
            info_pair(&options.client_info),
            options.client_capabilities.as_ref(),
            &[],
        );
        adapted(port_client(&port, &o), kind::Port, options.input_handlers, options.id.as_deref())
    }

    /// Stops listening on the port: pending requests fail (kind `transport`).
    ///
    /// ```no_run
    /// # fn f(client: mcp_tasks_wasm::PortClient) {
    /// client.close();
    /// # }
    /// ```
    pub fn close(&self) {
        call_and_forget(self.as_js(), "close");
    }
}

/// The JS function a [`DirectClient`] hands its requests to, kept alive as long as the client.
type HandlerClosure = Closure<dyn Fn(JsValue, JsValue, JsValue) -> js_sys::Promise>;

/// An in-process client: each request calls a Rust async handler `(method, params, signal)` that
/// resolves with the JSON-RPC `result`, or fails with a JSON-RPC error object `{code, message, data?}`
/// (anything else is a transport failure). `subscriptions/listen` goes to the handler too (it resolves
/// with a JS async iterable of notifications). The npm package's `directClient`, made from Rust: it
/// adds the protocol version to `_meta` when missing and has no request timeout of its own.
///
/// ```no_run
/// use mcp_tasks_wasm::{call_tool, CallOptions, DirectClient};
/// use wasm_bindgen::JsValue;
/// # async fn f() -> Result<(), mcp_tasks_wasm::Error> {
/// let client = DirectClient::new(|method, _params, _signal| async move {
///     match method.as_str() {
///         "tools/call" => Ok(js_sys::JSON::parse(r#"{"resultType":"complete","content":[]}"#)?),
///         _ => Err(js_sys::JSON::parse(r#"{"code":-32601,"message":"no such method"}"#)?),
///     }
/// })?;
/// let outcome = call_tool(&client, "echo", &(), CallOptions::default()).await?;
/// # Ok(()) }
/// ```
pub type DirectClient = JsBacked<kind::Direct>;

impl JsBacked<kind::Direct> {
    /// A client whose requests go to `handler`.
    ///
    /// ```no_run
    /// # fn f() -> Result<(), mcp_tasks_wasm::Error> {
    /// let client = mcp_tasks_wasm::DirectClient::new(|_method, params, _signal| async move { Ok(params) })?;
    /// # Ok(()) }
    /// ```
    pub fn new<F, Fut>(handler: F) -> Result<Self, Error>
    where
        F: Fn(String, JsValue, web_sys::AbortSignal) -> Fut + 'static,
        Fut: Future<Output = Result<JsValue, JsValue>> + 'static,
    {
        Self::with_options(handler, ClientOptions::default())
    }

    /// A client whose requests go to `handler`, with `options` (`id`, `client_capabilities`,
    /// `input_handlers`).
    ///
    /// ```no_run
    /// use mcp_tasks_wasm::{ClientOptions, DirectClient};
    /// # fn f() -> Result<(), mcp_tasks_wasm::Error> {
    /// let options = ClientOptions { id: Some("in-process".into()), ..ClientOptions::default() };
    /// let client = DirectClient::with_options(|_method, params, _signal| async move { Ok(params) }, options)?;
    /// # Ok(()) }
    /// ```
    pub fn with_options<F, Fut>(handler: F, options: ClientOptions) -> Result<Self, Error>
    where
        F: Fn(String, JsValue, web_sys::AbortSignal) -> Fut + 'static,
        Fut: Future<Output = Result<JsValue, JsValue>> + 'static,
    {
        let closure: HandlerClosure = Closure::new(move |method: JsValue, params: JsValue, opts: JsValue| {
            let signal = opts.get("signal").map_or_else(|| JsValue::UNDEFINED.unchecked_into(), JsCast::unchecked_into);
            future_to_promise(handler(method.as_string().unwrap_or_default(), params, signal))
        });
        let o = transport_options(None, None, options.client_capabilities.as_ref(), &[]);
        let made = direct_client(closure.as_ref(), &o);
        adapted(made, kind::Direct { _handler: Rc::new(closure) }, options.input_handlers, options.id.as_deref())
    }
}
