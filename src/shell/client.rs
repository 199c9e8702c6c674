//! What the engine asks of a client: the [`Client`] trait and the [`RequestOptions`] of each request.
//! The package's transports are clients (`super::clients`); so is any JS object with `request`
//! (`crate::shell::js_client::JsBacked`), and any Rust type that implements the trait.

use super::callbacks::{Handlers, Reply};
use std::time::Duration;
use wasm_bindgen::JsValue;

/// What every request is sent with.
///
/// ```no_run
/// # fn f(options: mcp_tasks_wasm::RequestOptions) {
/// if options.signal.aborted() { /* the engine gave the request up */ }
/// # }
/// ```
#[derive(Clone, Debug)]
pub struct RequestOptions {
    /// Aborted when the engine gives the request up (its bound, the deadline, the call's end).
    pub signal: web_sys::AbortSignal,
    /// The time the request may take, as a hint (the engine enforces it itself, in whole
    /// milliseconds); `None`: only the call's deadline bounds it.
    pub timeout: Option<std::time::Duration>,
    /// MCP 2025-11-25: hears the server's requests that belong to this request (a task's input on
    /// its `tasks/result`, a plain `tools/call`'s own): call it with each request message
    /// (`{jsonrpc, id, method, params}`); its answer goes back through [`Client::respond`]. `None`:
    /// the request carries none.
    pub on_request: Option<js_sys::Function>,
}

/// A client the engine can drive: it sends JSON-RPC requests and, optionally, opens the
/// `subscriptions/listen` stream. Implement it to make a Rust type a client (the crate's functions
/// take `&C` where `C: Client + Clone + 'static`; keep the type cheap to clone, e.g. an `Rc` inside).
///
/// ```no_run
/// use mcp_tasks_wasm::{Client, Reply, RequestOptions};
/// use wasm_bindgen::JsValue;
///
/// /// A client that logs each request and hands it to another client. A wrapper forwards every
/// /// method: the defaults would drop the inner client's capabilities, timeout, handlers and id.
/// #[derive(Clone)]
/// struct Logged<C>(C);
///
/// impl<C: Client> Client for Logged<C> {
///     fn request(&self, method: &str, params: JsValue, options: RequestOptions) -> Reply {
///         web_sys::console::log_1(&method.into());
///         self.0.request(method, params, options)
///     }
///     fn listen(&self, params: JsValue, signal: web_sys::AbortSignal) -> Option<Reply> {
///         self.0.listen(params, signal)
///     }
///     fn client_capabilities(&self) -> Option<JsValue> {
///         self.0.client_capabilities()
///     }
///     fn request_timeout(&self) -> Option<std::time::Duration> {
///         self.0.request_timeout()
///     }
///     fn input_handlers(&self) -> mcp_tasks_wasm::Handlers {
///         self.0.input_handlers()
///     }
///     fn id(&self) -> Option<String> {
///         self.0.id()
///     }
///     fn session(&self, timeout: Option<std::time::Duration>) -> Option<Reply> {
///         self.0.session(timeout)
///     }
///     fn respond(&self, id: JsValue, answer: Result<JsValue, JsValue>) -> Option<Reply> {
///         self.0.respond(id, answer)
///     }
/// }
/// ```
pub trait Client {
    /// Sends `method` with `params`: resolves with the JSON-RPC `result`; rejects with a JSON-RPC error
    /// object `{code, message, data?}` when the server answered with one, with anything else on a
    /// transport failure.
    fn request(&self, method: &str, params: JsValue, options: RequestOptions) -> Reply;

    /// Opens `subscriptions/listen` with `params`: resolves with an async iterable of notifications
    /// (JS); `None` when the client cannot listen.
    fn listen(&self, params: JsValue, signal: web_sys::AbortSignal) -> Option<Reply>;

    /// The client's own capabilities (the tasks extension is merged into them); `None`: none.
    fn client_capabilities(&self) -> Option<JsValue> {
        None
    }

    /// The client's default per-request timeout; `None`: none.
    fn request_timeout(&self) -> Option<Duration> {
        None
    }

    /// The client's input handlers (used when the options give none).
    fn input_handlers(&self) -> Handlers {
        Handlers::default()
    }

    /// The server the client's journaled tasks belong to (a task id is unique only on its server);
    /// `None`: the client cannot journal.
    fn id(&self) -> Option<String> {
        None
    }

    /// The client's session with its server, for a client that finds the server's generation (MCP
    /// 2026-07-28 or 2025-11-25): resolves with `{generation, capabilities}` once known — opening the
    /// session first when it is not open yet, within `timeout` — or rejects with why it could not be
    /// opened. `None`: the client speaks MCP 2026-07-28 (every call then starts at once).
    fn session(&self, timeout: Option<Duration>) -> Option<Reply> {
        let _ = timeout;
        None
    }

    /// The session the client has open with its server: the generation it speaks and, where the
    /// transport names its sessions (HTTP's `Mcp-Session-Id`), the session's id — what a journal entry
    /// records. `(None, None)`: not known (no session yet, or a client that does not say).
    fn generation_and_session(&self) -> (Option<String>, Option<String>) {
        (None, None)
    }

    /// MCP 2025-11-25: answers the server's request `id` with `Ok(result)` or with the JSON-RPC error
    /// `Err({code, message})`: resolves once the answer was sent. `None`: the client cannot answer the
    /// server's requests.
    fn respond(&self, id: JsValue, answer: Result<JsValue, JsValue>) -> Option<Reply> {
        let _ = (id, answer);
        None
    }
}
