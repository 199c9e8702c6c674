//! The application's callbacks: what a handler is told ([`AskContext`]) and answers ([`Reply`]), the
//! callback types ([`HandlerFn`], [`InputFn`], [`StatusFn`], [`Handlers`]), and how Rust closures
//! become them — input handlers and the input function as async closures answering with an
//! [`Answer`], and `on_status` with a typed [`TaskStatus`].

use super::status::TaskStatus;
use crate::json::Json;
use crate::proto::input::InputKind;
use crate::shell::values::js_string;
use std::future::Future;
use std::pin::Pin;
use std::rc::Rc;
use wasm_bindgen::JsValue;

/// A JS-shaped answer on its way: resolves with the value, rejects with the rejection value.
///
/// ```no_run
/// use mcp_tasks_wasm::Reply;
/// let answer: Reply = Box::pin(async { Ok(wasm_bindgen::JsValue::TRUE) });
/// ```
pub type Reply = Pin<Box<dyn Future<Output = Result<JsValue, JsValue>>>>;

/// What a handler (or the input function) is told besides its request.
///
/// ```no_run
/// use mcp_tasks_wasm::{handler, Answer};
/// let form = handler(|_params, context| async move {
///     if context.signal.aborted() { return Answer::Error("no longer wanted".into()); }
///     Answer::accept(&serde_json::json!({ context.key.unwrap_or_default(): "Ada" }))
/// });
/// ```
#[derive(Clone, Debug)]
pub struct AskContext {
    /// The key the answer goes under (`None` for the input function).
    pub key: Option<String>,
    /// The status the request came with.
    pub status: JsValue,
    /// Aborted when the answer is no longer wanted.
    pub signal: web_sys::AbortSignal,
}

/// Called with each new status; `Err` is what it threw (the call then rejects with it). Made from a
/// typed Rust closure by [`on_status`](crate::on_status).
///
/// ```no_run
/// use mcp_tasks_wasm::StatusFn;
/// use std::rc::Rc;
/// let raw: StatusFn = Rc::new(|status| { web_sys::console::log_1(status); Ok(()) });
/// ```
pub type StatusFn = Rc<dyn Fn(&JsValue) -> Result<(), JsValue>>;
/// An input handler: `(params, context)` → an answer `{tag: "ok", response} | {tag: "error", reason}`.
/// Made from a Rust async closure answering with an [`Answer`](crate::Answer) by
/// [`handler`](crate::handler).
///
/// ```no_run
/// use mcp_tasks_wasm::{handler, Answer, HandlerFn};
/// let decline: HandlerFn = handler(|_params, _context| async { Answer::decline() });
/// ```
pub type HandlerFn = Rc<dyn Fn(JsValue, AskContext) -> Reply>;
/// The input function: `(status, context)` → `{tag: "ok", responses} | {tag: "error", reason}`. Made
/// from a Rust async closure by [`input_function`](crate::input_function).
///
/// ```no_run
/// use mcp_tasks_wasm::{input_function, Answer, InputFn};
/// let none: InputFn = input_function(|_status, _context| async { Answer::Ok(js_sys::Object::new().into()) });
/// ```
pub type InputFn = Rc<dyn Fn(JsValue, AskContext) -> Reply>;

/// The input handlers, one per request kind. A request whose kind has no handler is not answered:
/// the wait returns `Outcome::InputRequired` (the library never declines on the user's behalf).
///
/// ```no_run
/// use mcp_tasks_wasm::{handler, Answer, Handlers};
/// let handlers = Handlers {
///     form: Some(handler(|_params, _context| async { Answer::accept(&serde_json::json!({"name": "Ada"})) })),
///     ..Handlers::default()
/// };
/// ```
#[derive(Clone, Default)]
pub struct Handlers {
    /// `elicitation/create` in form mode.
    pub form: Option<HandlerFn>,
    /// `elicitation/create` in url mode.
    pub url: Option<HandlerFn>,
    /// `sampling/createMessage`.
    pub sampling: Option<HandlerFn>,
    /// `roots/list`.
    pub roots: Option<HandlerFn>,
}

impl std::fmt::Debug for Handlers {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Handlers")
            .field("form", &self.form.is_some())
            .field("url", &self.url.is_some())
            .field("sampling", &self.sampling.is_some())
            .field("roots", &self.roots.is_some())
            .finish()
    }
}

impl Handlers {
    /// The handler for `kind`.
    pub(crate) fn get(&self, kind: InputKind) -> Option<&HandlerFn> {
        match kind {
            InputKind::Form => self.form.as_ref(),
            InputKind::Url => self.url.as_ref(),
            InputKind::Sampling => self.sampling.as_ref(),
            InputKind::Roots => self.roots.as_ref(),
        }
    }

    /// Which handlers are there, as the engine takes it.
    pub(crate) fn set(&self) -> crate::engine::settings::HandlerSet {
        crate::engine::settings::HandlerSet {
            form: self.form.is_some(),
            url: self.url.is_some(),
            sampling: self.sampling.is_some(),
            roots: self.roots.is_some(),
        }
    }
}

/// What an input handler (or the input function) answers.
///
/// ```no_run
/// use mcp_tasks_wasm::Answer;
/// let yes = Answer::accept(&serde_json::json!({"name": "Ada"}));
/// let no = Answer::Error("the user closed the form".into());
/// ```
#[derive(Clone, Debug)]
pub enum Answer {
    /// JS `{tag: "ok", response}` from a handler (the request's result, e.g. an `ElicitResult`), or
    /// `{tag: "ok", responses}` from the input function (key → response, some or all keys).
    Ok(JsValue),
    /// JS `{tag: "error", reason}`: the wait ends with an `execution` error carrying `reason`.
    Error(JsValue),
}

impl Answer {
    /// An `ElicitResult` accepting a form with `content` (`{action: "accept", content}`). Content that
    /// does not serialize reads as absent, which the answer check refuses (the wait then ends with an
    /// `execution` error naming the invalid response).
    ///
    /// ```no_run
    /// use mcp_tasks_wasm::Answer;
    /// let answer = Answer::accept(&serde_json::json!({"name": "Ada"}));
    /// ```
    pub fn accept(content: &impl serde::Serialize) -> Self {
        let content = super::convert::to_js(content).unwrap_or(JsValue::UNDEFINED);
        Self::Ok(JsValue::object(vec![("action", js_string("accept")), ("content", content)]))
    }

    /// An `ElicitResult` declining (`{action: "decline"}`).
    ///
    /// ```no_run
    /// let answer = mcp_tasks_wasm::Answer::decline();
    /// ```
    pub fn decline() -> Self {
        Self::Ok(JsValue::object(vec![("action", js_string("decline"))]))
    }

    /// The JS answer object, its payload under `ok_key` (`response` or `responses`).
    fn to_js(&self, ok_key: &str) -> JsValue {
        match self {
            Self::Ok(v) => JsValue::object(vec![("tag", js_string("ok")), (ok_key, v.clone())]),
            Self::Error(reason) => JsValue::object(vec![("tag", js_string("error")), ("reason", reason.clone())]),
        }
    }
}

/// An input handler from a Rust async closure: `f(params, context)` answers one request (its
/// `params`; the context has its `key`, the `status` it came with, and a `signal` aborted when the
/// answer is no longer wanted). Put it in [`Handlers`](crate::Handlers).
///
/// ```no_run
/// use mcp_tasks_wasm::{handler, Answer, AwaitOptions, Handlers};
/// let form = handler(|params, context| async move {
///     let _ = (params, context.key); // show the form, wait for the user…
///     Answer::accept(&serde_json::json!({"name": "Ada"}))
/// });
/// let wait = AwaitOptions { input_handlers: Some(Handlers { form: Some(form), ..Handlers::default() }), ..AwaitOptions::default() };
/// ```
pub fn handler<F, Fut>(f: F) -> HandlerFn
where
    F: Fn(JsValue, AskContext) -> Fut + 'static,
    Fut: Future<Output = Answer> + 'static,
{
    answering(f, "response")
}

/// `f` as the library calls it: its [`Answer`] as the JS answer object, the payload under `ok_key`.
fn answering<F, Fut>(f: F, ok_key: &'static str) -> HandlerFn
where
    F: Fn(JsValue, AskContext) -> Fut + 'static,
    Fut: Future<Output = Answer> + 'static,
{
    Rc::new(move |value, context| {
        let answer = f(value, context);
        Box::pin(async move { Ok(answer.await.to_js(ok_key)) })
    })
}

/// The input function from a Rust async closure: `f(status, context)` answers the status's
/// outstanding requests (only those not handed out yet during this wait) with
/// `Answer::Ok(responses)`, an object key → response. Use it as [`Input::Function`](crate::Input).
///
/// ```no_run
/// use mcp_tasks_wasm::{input_function, Answer, AwaitOptions, Input};
/// let ask_all = input_function(|status, _context| async move {
///     let _ = status; // answer every key it lists
///     Answer::Ok(js_sys::Object::new().into())
/// });
/// let wait = AwaitOptions { input: Input::Function(ask_all), ..AwaitOptions::default() };
/// ```
pub fn input_function<F, Fut>(f: F) -> InputFn
where
    F: Fn(JsValue, AskContext) -> Fut + 'static,
    Fut: Future<Output = Answer> + 'static,
{
    answering(f, "responses")
}

/// `on_status` from a Rust closure, called once for each new status (a new state, message or set of
/// outstanding keys), typed.
///
/// ```no_run
/// use mcp_tasks_wasm::{on_status, AwaitOptions};
/// let wait = AwaitOptions {
///     on_status: Some(on_status(|status| web_sys::console::log_1(&status.task_id.as_str().into()))),
///     ..AwaitOptions::default()
/// };
/// ```
pub fn on_status(f: impl Fn(&TaskStatus) + 'static) -> StatusFn {
    Rc::new(move |status| {
        if let Some(s) = TaskStatus::from_js(status) {
            f(&s);
        }
        Ok(())
    })
}
