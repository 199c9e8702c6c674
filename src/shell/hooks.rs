//! The application's callbacks a run calls: `onStatus`, the input handlers and the input function.
//! Each is a Rust closure; a JS function becomes one through [`js_status`], [`js_handler`] and
//! [`js_input_fn`], so a Rust application can give its own.

use super::reply::{called, Reply};
use super::values::js_string;
use crate::proto::input::InputKind;
use js_sys::{Function, Object, Reflect};
use std::rc::Rc;
use wasm_bindgen::prelude::*;

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
    #[doc(hidden)]
    pub fn get(&self, kind: InputKind) -> Option<&HandlerFn> {
        match kind {
            InputKind::Form => self.form.as_ref(),
            InputKind::Url => self.url.as_ref(),
            InputKind::Sampling => self.sampling.as_ref(),
            InputKind::Roots => self.roots.as_ref(),
        }
    }

    /// Which handlers are there, as the engine takes it.
    #[doc(hidden)]
    pub fn set(&self) -> crate::engine::options::HandlerSet {
        crate::engine::options::HandlerSet {
            form: self.form.is_some(),
            url: self.url.is_some(),
            sampling: self.sampling.is_some(),
            roots: self.roots.is_some(),
        }
    }
}

/// The callbacks of one part of a call (`callAndAwait` has two: the call's, then the wait's).
#[derive(Clone, Default)]
pub struct Hooks {
    /// `onStatus`.
    pub on_status: Option<StatusFn>,
    /// The input handlers.
    pub handlers: Handlers,
    /// The input function.
    pub input_fn: Option<InputFn>,
}

/// `onStatus` as a JS function: called with the status, `this` undefined.
pub fn js_status(f: Function) -> StatusFn {
    Rc::new(move |status| f.call1(&JsValue::UNDEFINED, status).map(drop))
}

/// An input handler of a JS handlers object: `f.call(handlers, params, {key, status, signal})`.
pub fn js_handler(f: Function, this: JsValue) -> HandlerFn {
    Rc::new(move |params, cx| {
        let context = Object::new();
        let _ = Reflect::set(&context, &js_string("key"), &cx.key.as_deref().map_or(JsValue::UNDEFINED, js_string));
        let _ = Reflect::set(&context, &js_string("status"), &cx.status);
        let _ = Reflect::set(&context, &js_string("signal"), &cx.signal);
        called(f.call2(&this, &params, &context))
    })
}

/// The input function as a JS function: `f(status, {signal})`.
pub fn js_input_fn(f: Function) -> InputFn {
    Rc::new(move |status, cx| {
        let context = Object::new();
        let _ = Reflect::set(&context, &js_string("signal"), &cx.signal);
        called(f.call2(&JsValue::UNDEFINED, &status, &context))
    })
}
