//! The clients a Rust app drives: [`HttpClient`] (Streamable HTTP over `fetch`), [`PortClient`] (a
//! `MessagePort`), [`DirectClient`] (an in-process Rust handler) and [`JsClient`] (any JS client
//! object). The first three are the package's own JS adapters, made from Rust: the same transports as
//! the npm package's `httpClient`, `portClient` and `directClient`; input handlers given in their
//! options are Rust closures. A Rust type becomes a client by implementing [`Client`].

use super::adapters::{direct_client, http_client, port_client};
use super::error::Error;
use crate::json::Json;
use crate::shell::callbacks::Handlers;
use crate::shell::callbacks::Reply;
use crate::shell::client::{Client, RequestOptions};
use crate::shell::interop::from_js::{as_function, field};
use crate::shell::interop::to_js::{js_string, set_key};
use crate::shell::js_client::ClientObject;
use crate::shell::millis::millis_f64;
use js_sys::Object;
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
#[derive(Clone, Debug)]
pub struct JsClient {
    read: ClientObject,
    /// Input handlers given in Rust (instead of the object's `inputHandlers`).
    handlers: Option<Handlers>,
}

impl JsClient {
    /// Reads a JS client object. `Err`: [`Error::InvalidArgument`] for a value that is not a client.
    ///
    /// ```no_run
    /// # fn f(from_js: wasm_bindgen::JsValue) -> Result<(), mcp_tasks_wasm::Error> {
    /// let client = mcp_tasks_wasm::JsClient::new(&from_js)?;
    /// # Ok(()) }
    /// ```
    pub fn new(value: &JsValue) -> Result<Self, Error> {
        let read = ClientObject::read(value).map_err(|m| Error::InvalidArgument(m.message().to_owned()))?;
        Ok(Self { read, handlers: None })
    }

    /// The client object (e.g. to hand it to JS code).
    ///
    /// ```no_run
    /// # fn f(client: mcp_tasks_wasm::JsClient) {
    /// let object: &wasm_bindgen::JsValue = client.as_js();
    /// # }
    /// ```
    pub fn as_js(&self) -> &JsValue {
        &self.read.object
    }

    /// A JS adapter's client with the input handlers given in Rust, and `id` set on its object.
    fn adapted(object: Result<JsValue, JsValue>, handlers: Option<Handlers>, id: Option<&str>) -> Result<Self, Error> {
        let object = object.map_err(|e| Error::thrown_type_error(&e))?;
        let client = Self { handlers, ..Self::new(&object)? };
        if let Some(id) = id {
            set_key(&object, "id", &js_string(id));
        }
        Ok(client)
    }
}

impl Client for JsClient {
    fn request(&self, method: &str, params: JsValue, options: RequestOptions) -> Reply {
        self.read.request(method, params, options)
    }
    fn listen(&self, params: JsValue, signal: web_sys::AbortSignal) -> Option<Reply> {
        self.read.listen(params, signal)
    }
    fn client_capabilities(&self) -> Option<JsValue> {
        self.read.client_capabilities()
    }
    fn request_timeout(&self) -> Option<Duration> {
        self.read.request_timeout()
    }
    fn input_handlers(&self) -> Handlers {
        self.handlers.clone().unwrap_or_else(|| self.read.input_handlers())
    }
    #[cfg(feature = "journal")]
    fn id(&self) -> Option<String> {
        self.read.id()
    }
}

/// Implements [`Client`] for a wrapper of a [`JsClient`] (field `js`).
macro_rules! adapted_client {
    ($t:ty) => {
        impl Client for $t {
            fn request(&self, method: &str, params: JsValue, options: RequestOptions) -> Reply {
                self.js.request(method, params, options)
            }
            fn listen(&self, params: JsValue, signal: web_sys::AbortSignal) -> Option<Reply> {
                self.js.listen(params, signal)
            }
            fn client_capabilities(&self) -> Option<JsValue> {
                self.js.client_capabilities()
            }
            fn request_timeout(&self) -> Option<Duration> {
                self.js.request_timeout()
            }
            fn input_handlers(&self) -> Handlers {
                self.js.input_handlers()
            }
            fn id(&self) -> Option<String> {
                self.js.id()
            }
        }
    };
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
    /// The input handlers of waits on this client (when their options give none).
    pub input_handlers: Option<Handlers>,
}

/// The common options of the JS adapters: `{requestTimeoutMs?, clientInfo?, clientCapabilities?}`.
fn adapter_options(
    request_timeout: Option<Duration>,
    client_info: Option<&ClientInfo>,
    capabilities: Option<&JsValue>,
) -> Object {
    let o = Object::new();
    if let Some(t) = request_timeout {
        set_key(&o, "requestTimeoutMs", &JsValue::from_f64(millis_f64(t)));
    }
    if let Some(info) = client_info {
        let v = JsValue::object(vec![("name", js_string(&info.name)), ("version", js_string(&info.version))]);
        set_key(&o, "clientInfo", &v);
    }
    if let Some(c) = capabilities {
        set_key(&o, "clientCapabilities", c);
    }
    o
}

/// The Streamable HTTP client (MCP 2026-07-28) over `fetch`: the npm package's `httpClient`, made
/// from Rust. Its `id` (the server its journaled tasks belong to) is the URL.
///
/// ```no_run
/// use mcp_tasks_wasm::{call_and_await, AwaitOptions, CallOptions, HttpClient};
/// # async fn f() -> Result<(), wasm_bindgen::JsValue> {
/// let client = HttpClient::new("http://127.0.0.1:8787/mcp")?;
/// let outcome = call_and_await(&client, "slow", &serde_json::json!({"ms": 50}), CallOptions::default(), AwaitOptions::default()).await?;
/// # Ok(()) }
/// ```
#[derive(Clone, Debug)]
pub struct HttpClient {
    js: JsClient,
}

impl HttpClient {
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
        if !crate::shell::interop::from_js::is_safe_web_url(url) {
            let message =
                "HttpClient: the URL must be an absolute http: or https: URL with a host and no credentials: ";
            return Err(Error::InvalidArgument([message, url].concat()));
        }
        let o = adapter_options(
            options.request_timeout,
            options.client_info.as_ref(),
            options.client_capabilities.as_ref(),
        );
        if !options.headers.is_empty() {
            let headers = Object::new();
            for (name, value) in &options.headers {
                set_key(&headers, name, &js_string(value));
            }
            set_key(&o, "headers", &headers);
        }
        Ok(Self { js: JsClient::adapted(http_client(url, &o), options.input_handlers, None)? })
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
        let object = self.js.as_js();
        let failed = |e: JsValue| Error::Task(super::error::TaskError::from_js(&e));
        let discover = field(object, "discover").and_then(|f| as_function(&f));
        let discover = discover.ok_or_else(|| Error::InvalidArgument("no discover function".to_owned()))?;
        let promise = discover.call0(object).map_err(failed)?;
        crate::shell::reply::awaited(&promise).await.map_err(failed)
    }

    /// The JS client object (e.g. to hand it to JS code).
    ///
    /// ```no_run
    /// # fn f(client: mcp_tasks_wasm::HttpClient) {
    /// let object: &wasm_bindgen::JsValue = client.as_js();
    /// # }
    /// ```
    pub fn as_js(&self) -> &JsValue {
        self.js.as_js()
    }
}

adapted_client!(HttpClient);

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
#[derive(Clone, Debug)]
pub struct PortClient {
    js: JsClient,
}

impl PortClient {
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
        let o = adapter_options(
            options.request_timeout,
            options.client_info.as_ref(),
            options.client_capabilities.as_ref(),
        );
        Ok(Self { js: JsClient::adapted(port_client(&port, &o), options.input_handlers, options.id.as_deref())? })
    }

    /// Stops listening on the port: pending requests fail (kind `transport`).
    ///
    /// ```no_run
    /// # fn f(client: mcp_tasks_wasm::PortClient) {
    /// client.close();
    /// # }
    /// ```
    pub fn close(&self) {
        let object = self.js.as_js();
        if let Some(close) = field(object, "close").and_then(|f| as_function(&f)) {
            let _ = close.call0(object);
        }
    }
}

adapted_client!(PortClient);

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
#[derive(Clone, Debug)]
pub struct DirectClient {
    js: JsClient,
    _handler: Rc<HandlerClosure>,
}

impl DirectClient {
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
            let signal =
                field(&opts, "signal").map_or_else(|| JsValue::UNDEFINED.unchecked_into(), JsCast::unchecked_into);
            future_to_promise(handler(method.as_string().unwrap_or_default(), params, signal))
        });
        let o = Object::new();
        if let Some(c) = &options.client_capabilities {
            set_key(&o, "clientCapabilities", c);
        }
        let js = JsClient::adapted(direct_client(closure.as_ref(), &o), options.input_handlers, options.id.as_deref())?;
        Ok(Self { js, _handler: Rc::new(closure) })
    }
}

adapted_client!(DirectClient);
