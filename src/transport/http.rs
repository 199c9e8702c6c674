//! `httpClient(url, options?)`: the Streamable HTTP client (MCP 2026-07-28) over the global `fetch`
//! (or `options.fetch`), for pages, workers, extension service workers and Node.
//!
//! Every request is its own POST with the routing headers (`MCP-Protocol-Version`, `Mcp-Method`,
//! `Mcp-Name`) and the `_meta` envelope (protocol version, client info, capabilities). The reply is
//! read whatever the HTTP status: one JSON object, or an SSE stream scanned for the response to this
//! request's id. `request` resolves with the `result`, rejects with the JSON-RPC error object, or with
//! an `McpHttpError` (an `Error` with `status` and `body`, never a numeric `code`) when no JSON-RPC
//! answer came. `listen` returns an async iterator over the notifications of a `subscriptions/listen`
//! stream. `discover` sends `server/discover` once and caches the answer.
//!
//! Size matters here (every byte ships): every JS callback of the transports is one closure type
//! ([`callback`] over [`Target`]) and every async operation runs in one future ([`run`]).

use super::channel::decimal;
use super::headers::{encode_value, name_field};
use super::js::{
    abort_error, async_iterator, cat, function, is_response, mcp_error, message, read_common, set, settle, step,
    type_error, Abort, Common, Why,
};
use super::sse;
use crate::json::Json;
use crate::proto::PROTOCOL_VERSION;
use js_sys::{Function, JsString, Promise};
use std::cell::{Cell, RefCell};
use std::rc::Rc;
use wasm_bindgen::prelude::*;

#[wasm_bindgen(module = "/src/transport/fetch.js")]
extern "C" {
    #[wasm_bindgen(js_name = headersLater)]
    fn headers_later(user: &JsValue, fixed: &JsValue, what: &str) -> Promise;
    #[wasm_bindgen(js_name = postLater)]
    fn post_later(
        fetch: &Function,
        this: &JsValue,
        url: &JsValue,
        headers: &JsValue,
        message: &JsValue,
        signal: &JsValue,
    ) -> Promise;
    #[wasm_bindgen(js_name = responseParts, catch)]
    fn response_parts(r: &JsValue) -> Result<js_sys::Array, JsValue>;
    #[wasm_bindgen(js_name = textLater)]
    fn text_later(r: &JsValue) -> Promise;
    #[wasm_bindgen(js_name = readerOf, catch)]
    fn reader_of(body: &JsValue) -> Result<JsValue, JsValue>;
    #[wasm_bindgen(js_name = readLater)]
    fn read_later(reader: &JsValue) -> Promise;
    #[wasm_bindgen(js_name = cancelLater)]
    fn cancel_later(reader: &JsValue);
    #[wasm_bindgen(js_name = chunkOf)]
    fn chunk_of(step: &JsValue) -> js_sys::Array;
}

/// The most notifications a listen stream queues before they are read: past it the stream fails.
const MAX_QUEUED: usize = 10_000;

/// The TypeScript declarations of the transport exports, emitted into the generated `.d.ts`.
#[wasm_bindgen(typescript_custom_section)]
const TYPES: &str = include_str!("types.d.ts");

#[wasm_bindgen]
extern "C" {
    /// `JSON.parse` on a JS string (the text never enters wasm memory).
    #[wasm_bindgen(js_namespace = JSON, js_name = parse, catch)]
    fn json_parse(text: &JsValue) -> Result<JsValue, JsValue>;
    /// Any JS object, to call a method by name on it.
    pub(crate) type Any;
    /// `promise.then(onFulfilled, onRejected)` with any values.
    #[wasm_bindgen(method, js_name = then)]
    pub(crate) fn then_with(this: &Any, ok: &JsValue, err: &JsValue) -> Promise;
    /// `f.bind(this, a, b)`.
    #[wasm_bindgen(method, js_name = bind)]
    pub(crate) fn bind_with(this: &Any, ctx: &JsValue, a: &JsValue, b: &JsValue) -> Function;
    /// A `TextDecoder` (UTF-8, invalid bytes become U+FFFD, as SSE wants).
    type Decoder;
    #[wasm_bindgen(constructor, js_class = TextDecoder)]
    fn new() -> Decoder;
    #[wasm_bindgen(method)]
    fn decode(this: &Decoder, bytes: &[u8]) -> JsValue;
}

/// The longest body excerpt an `McpHttpError` carries.
const EXCERPT: usize = 200;
/// The first `EXCERPT` characters of a JS string.
fn excerpt(text: &JsValue) -> JsValue {
    match text.dyn_ref::<JsString>() {
        Some(s) => s.slice(0, EXCERPT as u32).into(),
        None => JsValue::from_str(""),
    }
}

/// Who a JS callback made by [`callback`] calls.
pub(crate) enum Target {
    /// `client.request`, `client.listen` or `client.discover`.
    Client(Rc<Http>, Kind),
    /// A promise of an exchange settled: go on with `Step`.
    Ex(Shared, Step),
    /// `iterator.next()` (false) or `iterator.return()` (true) of a listen stream.
    Iter(Shared, bool),
}

/// What an exchange is for: a `request`, a `listen` (an event stream of notifications), `discover`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Kind {
    /// `request`: the response to its id.
    Request,
    /// `listen`: the notifications until the listen response or the end of the stream.
    Listen,
    /// `discover`: like a request, its promise cached.
    Discover,
}

/// A JS function calling `dispatch(target, ...)`. Every callback of the transports is this one
/// closure type, and no `async` code is used: that keeps the shipped code small.
pub(crate) fn callback(target: Target) -> JsValue {
    Closure::<dyn FnMut(JsValue, JsValue, JsValue) -> Promise>::new(move |a, b, c| dispatch(&target, a, b, c))
        .into_js_value()
}

fn dispatch(target: &Target, a: JsValue, b: JsValue, c: JsValue) -> Promise {
    match target {
        Target::Client(http, Kind::Discover) => {
            let cached = http.discovered.borrow().clone();
            cached.unwrap_or_else(|| {
                let p = start(http, Kind::Discover, "server/discover".into(), a, b);
                *http.discovered.borrow_mut() = Some(p.clone());
                p
            })
        }
        Target::Client(http, Kind::Listen) => start(http, Kind::Listen, "subscriptions/listen".into(), a, b),
        Target::Client(http, Kind::Request) => start(http, Kind::Request, a, b, c),
        Target::Ex(ex, step) => {
            on_step(ex, *step, a);
            Promise::resolve(&JsValue::UNDEFINED)
        }
        Target::Iter(ex, false) => next(ex),
        Target::Iter(ex, true) => {
            let mut s = ex.borrow_mut();
            s.items.clear();
            s.answer = None;
            if let Some(a) = &s.abort {
                a.close();
            }
            s.end();
            let done = step(true, JsValue::UNDEFINED);
            if let Some((resolve, _)) = s.waiter.take() {
                let _ = resolve.call1(&JsValue::UNDEFINED, &done);
            }
            Promise::resolve(&done)
        }
    }
}

/// The client's configuration and state.
pub(crate) struct Http {
    url: JsValue,
    fetch: Option<Function>,
    headers: JsValue,
    common: Common,
    last_id: Cell<u32>,
    discovered: RefCell<Option<Promise>>,
}

/// What an exchange waits for.
#[derive(Clone, Copy)]
pub(crate) enum Step {
    /// The headers option's value (or the promise the headers function returned).
    Headers,
    /// The request headers were built: POST.
    Post,
    /// The headers function threw or rejected.
    HeadersFailed,
    /// `fetch` resolved with the `Response`.
    Response,
    /// `response.text()` resolved.
    Text,
    /// `reader.read()` resolved.
    Chunk,
    /// `fetch`, `text()` or `read()` rejected.
    Failed,
}

/// One exchange: a POST and the reading of its answer, for `request`/`discover` (the response to
/// `id`) or `listen` (the notifications until the listen response or the end of the stream).
pub(crate) struct Ex {
    http: Rc<Http>,
    kind: Kind,
    method: String,
    id: f64,
    params: JsValue,
    abort: Option<Abort>,
    status: u16,
    /// The response's `Retry-After`, in ms.
    retry_after_ms: Option<f64>,
    reader: Option<JsValue>,
    reading: bool,
    parser: sse::Parser,
    decoder: Option<Decoder>,
    /// The first bytes of an event stream (for an error's excerpt).
    head: Vec<u8>,
    /// The call's promise (taken once settled; a listen's when its stream opens).
    settle: Option<(Function, Function)>,
    /// Queued notifications (listen), handed out (and dropped) as `next()` asks for them.
    items: std::collections::VecDeque<JsValue>,
    /// The response to `id` (its outcome), or the failure that ended the stream.
    answer: Option<Result<JsValue, JsValue>>,
    done: bool,
    /// A pending `next()`, and the promise of the latest `next()` (a concurrent one waits for it).
    waiter: Option<(Function, Function)>,
    tail: Option<Promise>,
}

pub(crate) type Shared = Rc<RefCell<Ex>>;

/// `promise.then(step, failed)` for the exchange.
fn then(promise: &Promise, ex: &Shared, ok: Step, err: Step) {
    let (ok, err) = (callback(Target::Ex(ex.clone(), ok)), callback(Target::Ex(ex.clone(), err)));
    let _ = promise.unchecked_ref::<Any>().then_with(&ok, &err);
}

/// Starts a `request`, `listen` or `discover`: resolves with the result (the
/// iterator for a listen).
fn start(http: &Rc<Http>, kind: Kind, method: JsValue, params: JsValue, opts: JsValue) -> Promise {
    let Some(method) = method.as_string() else {
        return Promise::reject(&type_error("request", "method must be a string"));
    };
    let params = match http.common.params(&params) {
        Ok(p) => p,
        Err(e) => return Promise::reject(&e),
    };
    let timeout = if kind == Kind::Listen { None } else { http.common.timeout(&opts) };
    http.last_id.set(http.last_id.get().wrapping_add(1));
    let ex = Rc::new(RefCell::new(Ex {
        http: http.clone(),
        kind,
        method,
        id: http.last_id.get().into(),
        params,
        abort: Some(Abort::new(opts.get("signal"), timeout, None)),
        status: 0,
        retry_after_ms: None,
        reader: None,
        reading: false,
        parser: sse::Parser::new(),
        decoder: None,
        head: Vec::new(),
        settle: None,
        items: std::collections::VecDeque::new(),
        answer: None,
        done: false,
        waiter: None,
        tail: None,
    }));
    let promise = Promise::new(&mut |resolve, reject| ex.borrow_mut().settle = Some((resolve, reject)));
    let user = match http.headers.dyn_ref::<Function>() {
        Some(f) => {
            let s = ex.borrow();
            f.call2(&JsValue::UNDEFINED, &JsValue::from_str(&s.method), &s.params)
        }
        None => Ok(http.headers.clone()),
    };
    match user {
        Ok(h) => then(&Promise::resolve(&h), &ex, Step::Headers, Step::HeadersFailed),
        // Reported asynchronously like any other failure, so `discover` has cached this promise
        // before its failure un-caches it (a synchronous throw must not stay cached).
        Err(e) => then(&Promise::reject(&e), &ex, Step::Headers, Step::HeadersFailed),
    }
    promise
}

/// Goes on with an exchange once the promise it waited for settled with `v`. Application objects
/// (the headers value, the Response of a custom fetch, its body) are read here before the exchange
/// is borrowed, or in a microtask: no application code runs while the exchange is borrowed.
fn on_step(ex: &Shared, step: Step, v: JsValue) {
    match step {
        Step::HeadersFailed => return ex.borrow_mut().finish(Err(v)),
        Step::Headers => {
            let (method, params) = {
                let s = ex.borrow();
                (s.method.clone(), s.params.clone())
            };
            let fixed = protocol_headers(&method, &params);
            let built = headers_later(&v, &fixed, "httpClient: options.headers must give an object");
            return then(&built, ex, Step::Post, Step::HeadersFailed);
        }
        Step::Post => {
            let posted = ex.borrow().post(&v);
            return match posted {
                Ok(p) => then(&p, ex, Step::Response, Step::Failed),
                Err(e) => ex.borrow_mut().finish(Err(e)),
            };
        }
        Step::Response => {
            let parts = match response_parts(&v) {
                Ok(parts) => parts,
                Err(e) => return absorb_and_drive(ex, Err(e)),
            };
            let status = parts.get(0).as_f64().unwrap_or_default().clamp(0.0, 999.0) as u16;
            let sse = parts.get(1).as_string().is_some_and(|ct| is_event_stream(&ct));
            let retry_after = parts.get(3).as_f64().filter(|ms| *ms >= 0.0);
            {
                let mut s = ex.borrow_mut();
                s.status = status;
                s.retry_after_ms = retry_after;
            }
            if !sse {
                return then(&text_later(&v), ex, Step::Text, Step::Failed);
            }
            let body = parts.get(2);
            let reader = if body.is_null() { Ok(None) } else { reader_of(&body).map(Some) };
            let reader = match reader {
                Ok(r) => r,
                Err(e) => return absorb_and_drive(ex, Err(e)),
            };
            let mut s = ex.borrow_mut();
            s.reader = reader;
            s.decoder = Some(Decoder::new());
            if s.kind == Kind::Listen {
                // The stream is open: `listen` resolves; `next()` reads on.
                return s.settle_with(Ok(iterator(ex)));
            }
        }
        Step::Text => return ex.borrow_mut().read_json(ex, &v),
        Step::Chunk => {
            let chunk = chunk_of(&v);
            let read = match (chunk.get(0).as_bool(), chunk.get(1)) {
                (Some(true), _) => Read::End,
                (_, bytes) if !bytes.is_undefined() => Read::Bytes(js_sys::Uint8Array::new(&bytes).to_vec()),
                _ => Read::NotBytes,
            };
            let mut s = ex.borrow_mut();
            s.reading = false;
            s.take_read(read);
        }
        Step::Failed => {
            let mut s = ex.borrow_mut();
            s.reading = false;
            s.absorb(Err(v));
        }
    }
    ex.borrow_mut().drive(ex);
}

fn absorb_and_drive(ex: &Shared, outcome: Result<JsValue, JsValue>) {
    let mut s = ex.borrow_mut();
    s.absorb(outcome);
    s.drive(ex);
}

/// What one `read()` of an event stream gave.
enum Read {
    Bytes(Vec<u8>),
    End,
    NotBytes,
}

/// The protocol headers of a POST for `method` (`[name, value]` pairs; a null value deletes).
fn protocol_headers(method: &str, params: &JsValue) -> JsValue {
    let pair = |name: &str, value: JsValue| JsValue::array(vec![JsValue::from_str(name), value]);
    let mcp_name = match name_field(method).and_then(|f| params.get_str(f)) {
        Some(value) => JsValue::from_str(&encode_value(&value)),
        None => JsValue::NULL,
    };
    JsValue::array(vec![
        pair("Content-Type", "application/json".into()),
        pair("Accept", "application/json, text/event-stream".into()),
        pair("MCP-Protocol-Version", PROTOCOL_VERSION.into()),
        pair("Mcp-Method", method.into()),
        pair("Mcp-Name", mcp_name),
    ])
}

impl Ex {
    /// Settles the call's promise (a failed discover is not cached).
    fn settle_with(&mut self, outcome: Result<JsValue, JsValue>) {
        let Some((resolve, reject)) = self.settle.take() else { return };
        let _ = match outcome {
            Ok(v) => resolve.call1(&JsValue::UNDEFINED, &v),
            Err(e) => {
                if self.kind == Kind::Discover {
                    self.http.discovered.borrow_mut().take();
                }
                reject.call1(&JsValue::UNDEFINED, &e)
            }
        };
    }

    /// Settles the call's promise and ends the exchange.
    fn finish(&mut self, outcome: Result<JsValue, JsValue>) {
        self.settle_with(outcome);
        self.end();
    }

    /// Ends the exchange (queued notifications still drain): cancels the body, unties the signal
    /// and clears the timer.
    fn end(&mut self) {
        self.done = true;
        if let Some(r) = self.reader.take() {
            cancel_later(&r);
        }
        self.abort = None;
    }

    /// `"<method>: HTTP <status> <detail>"`.
    fn http_error(&self, detail: &str, body: &JsValue) -> JsValue {
        let message = cat(&[&self.method, ": HTTP ", &decimal(self.status.into()), " ", detail]);
        let e = mcp_error(&message, self.status, &excerpt(body), &JsValue::UNDEFINED);
        if let Some(ms) = self.retry_after_ms {
            set(&e, "retryAfterMs", &JsValue::from_f64(ms));
        }
        e
    }

    /// POSTs the request with `headers` (built in a microtask); the fetch itself runs in a microtask too.
    fn post(&self, headers: &JsValue) -> Result<Promise, JsValue> {
        let signal = self.abort.as_ref().map_or(JsValue::UNDEFINED, Abort::signal);
        let message = message(&JsValue::from_f64(self.id), &self.method, &self.params);
        let http = &self.http;
        let (fetch, this) = match &http.fetch {
            Some(f) => (f.clone(), JsValue::UNDEFINED),
            None => {
                let global: JsValue = js_sys::global().into();
                match function(&global, "fetch") {
                    Some(f) => (f, global),
                    None => return Err(type_error("httpClient", "no global fetch: pass options.fetch")),
                }
            }
        };
        Ok(post_later(&fetch, &this, &http.url, headers, &message, &signal))
    }

    /// The `McpHttpError` for a failed fetch or read.
    fn fail(&self, e: &JsValue) -> JsValue {
        let why = self.abort.as_ref().map_or(Why::NotAborted, Abort::why);
        let timeout = self.abort.as_ref().map_or(0.0, Abort::timeout_ms);
        abort_error(&self.method, self.status, why, timeout, e)
    }

    /// Settles the call from a JSON body (any status).
    fn read_json(&mut self, ex: &Shared, text: &JsValue) {
        let Ok(msg) = json_parse(text) else {
            return self.finish(Err(self.http_error("body is not JSON", text)));
        };
        // One request per POST: an error the server could not tie to an id (`id` null) is ours too.
        let untied_error = msg.get("error").is_some() && !matches!(msg.get("id"), Some(i) if !i.is_null());
        if !(msg.is_object() && (msg.get_f64("id") == Some(self.id) && is_response(&msg) || untied_error)) {
            return self.finish(Err(self.http_error("body is not a response to this request", text)));
        }
        match settle(&msg, &self.method, self.status) {
            // A listen answered with a JSON result: a stream that has already ended.
            Ok(_) if self.kind == Kind::Listen => {
                self.end();
                self.settle_with(Ok(iterator(ex)));
            }
            outcome => self.finish(outcome),
        }
    }

    /// Takes a failed read of the event stream (or a response that could not be read).
    fn absorb(&mut self, chunk: Result<JsValue, JsValue>) {
        if self.done {
            return;
        }
        if let Err(e) = chunk {
            // Aborting an open listen stream ends it quietly.
            let aborted = match &self.abort {
                Some(a) => a.aborted(),
                None => true,
            };
            let quiet = self.kind == Kind::Listen && self.settle.is_none() && aborted;
            if !quiet {
                self.answer = Some(Err(self.fail(&e)));
            }
            self.end();
        }
    }

    /// Takes one read of the event stream: its bytes, its end, or a chunk that is not bytes.
    fn take_read(&mut self, read: Read) {
        if self.done {
            return;
        }
        let events = match read {
            Read::End => {
                let last = self.parser.finish();
                self.take(last.into_iter().collect());
                return self.end();
            }
            Read::NotBytes => {
                let e = js_sys::TypeError::new("the response body gave a chunk that is not bytes");
                return self.absorb(Err(e.into()));
            }
            Read::Bytes(bytes) => {
                let room = EXCERPT.saturating_sub(self.head.len());
                self.head.extend(bytes.iter().take(room));
                self.parser.push(&bytes)
            }
        };
        self.take(events);
        if self.parser.overflowed() {
            let e = js_sys::RangeError::new("an event of the stream is larger than 8 MB");
            self.absorb(Err(e.into()));
        }
    }

    /// Handles the JSON messages of `events` (default type, JSON object data; others are skipped).
    fn take(&mut self, events: Vec<sse::Event>) {
        for ev in events.iter().filter(|e| e.is_message()) {
            let Some(text) = self.decoder.as_ref().map(|d| d.decode(&ev.data)) else { return };
            let Ok(msg) = json_parse(&text) else { continue };
            if self.done || !msg.is_object() {
                continue;
            }
            if msg.get_f64("id") == Some(self.id) && is_response(&msg) {
                self.answer = Some(settle(&msg, &self.method, self.status));
                self.end();
            } else if self.kind == Kind::Listen && msg.get("id").is_none() && msg.get("method").is_some() {
                if self.items.len() >= MAX_QUEUED {
                    let e = js_sys::RangeError::new("more than 10000 notifications queued unread");
                    self.items.clear();
                    return self.absorb(Err(e.into()));
                }
                self.items.push_back(msg);
            }
        }
    }

    /// After a read: settles what can be settled, else reads on (while someone waits).
    fn drive(&mut self, ex: &Shared) {
        if self.settle.is_some() {
            // A request (or a listen whose stream did not open): the response, or the end.
            if let Some(answer) = self.answer.take() {
                return self.finish(answer);
            }
            if self.done {
                let head = self.decoder.as_ref().map_or(JsValue::UNDEFINED, |d| d.decode(&self.head));
                return self.finish(Err(self.http_error("stream ended without a response", &head)));
            }
        } else {
            // A listen iterator: hand a step to the pending `next()`.
            if self.waiter.is_none() {
                return;
            }
            let item = if let Some(item) = self.items.pop_front() {
                Some(Ok(step(false, item)))
            } else if self.done {
                Some(match self.answer.take() {
                    Some(Err(e)) => Err(e),
                    _ => Ok(step(true, JsValue::UNDEFINED)),
                })
            } else {
                None
            };
            if let Some(item) = item {
                let Some((resolve, reject)) = self.waiter.take() else { return };
                let _ = match item {
                    Ok(v) => resolve.call1(&JsValue::UNDEFINED, &v),
                    Err(e) => reject.call1(&JsValue::UNDEFINED, &e),
                };
                return;
            }
        }
        match &self.reader {
            Some(r) if !self.reading => {
                self.reading = true;
                then(&read_later(r), ex, Step::Chunk, Step::Failed);
            }
            Some(_) => {}
            None => {
                // No body at all: the stream has ended.
                self.end();
                self.drive(ex);
            }
        }
    }
}

/// `next()` of a listen iterator.
fn next(ex: &Shared) -> Promise {
    let mut s = ex.borrow_mut();
    if let (Some(_), Some(tail)) = (&s.waiter, s.tail.clone()) {
        // A `next()` is pending: this one goes after it.
        let again = callback(Target::Iter(ex.clone(), false));
        let p = tail.unchecked_ref::<Any>().then_with(&again, &again);
        s.tail = Some(p.clone());
        return p;
    }
    let p = Promise::new(&mut |resolve, reject| s.waiter = Some((resolve, reject)));
    s.tail = Some(p.clone());
    s.drive(ex);
    p
}

fn is_event_stream(content_type: &str) -> bool {
    content_type.as_bytes().get(..17).is_some_and(|p| p.eq_ignore_ascii_case(b"text/event-stream"))
}

impl Drop for Ex {
    fn drop(&mut self) {
        // Dropped before its end (e.g. an iterator dropped without `return()`): release the connection.
        if let Some(r) = self.reader.take() {
            cancel_later(&r);
        }
    }
}

/// The async iterator over a listen stream: `next()`, `return()`, `[Symbol.asyncIterator]()`.
fn iterator(ex: &Shared) -> JsValue {
    async_iterator(callback(Target::Iter(ex.clone(), false)), callback(Target::Iter(ex.clone(), true)))
}

/// Builds a Streamable HTTP client for the MCP endpoint `url` (a string or `URL`). Options:
/// `headers` (an object, or a function `(method, params)` returning one or a promise of one),
/// `fetch`, `requestTimeoutMs`, `clientInfo`, `clientCapabilities`, `inputHandlers`. Throws a
/// `TypeError` for bad arguments.
#[wasm_bindgen(js_name = httpClient, unchecked_return_type = "HttpClient")]
pub fn http_client(
    #[wasm_bindgen(unchecked_param_type = "string | URL")] url: JsValue,
    #[wasm_bindgen(unchecked_optional_param_type = "HttpClientOptions")] options: JsValue,
) -> Result<JsValue, JsValue> {
    const F: &str = "httpClient";
    let url = match url.as_string() {
        Some(s) if !s.is_empty() => JsValue::from(s),
        _ => match url.get("href").filter(|h| h.is_string()) {
            Some(href) => href,
            None => return Err(type_error(F, "url must be a non-empty string or a URL")),
        },
    };
    let common = read_common(&options, F, true)?;
    let fetch = options.get("fetch").map(JsCast::unchecked_into);
    let headers = options.get("headers").unwrap_or(JsValue::UNDEFINED);
    let http = Rc::new(Http { url, fetch, headers, common, last_id: Cell::new(0), discovered: RefCell::new(None) });
    let client = http.common.client_object();
    for (kind, name) in [(Kind::Request, "request"), (Kind::Listen, "listen"), (Kind::Discover, "discover")] {
        set(&client, name, &callback(Target::Client(http.clone(), kind)));
    }
    Ok(client)
}
