//! The callback types the shell calls: what a handler is told ([`AskContext`]) and answers ([`Reply`]),
//! the input handlers ([`HandlerFn`], [`Handlers`]), the input function ([`InputFn`]) and `onStatus`
//! ([`StatusFn`]). The Rust API makes them from typed closures (`crate::api`'s handlers); the JS face from
//! JS functions ([`super::callbacks`]).

use crate::proto::input::InputKind;
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
/// the wait returns `WaitOutcome::InputRequired` (the library never declines on the user's behalf).
/// Typed handlers: [`form_handler`](crate::form_handler), [`url_handler`](crate::url_handler),
/// [`sampling_handler`](crate::sampling_handler), [`roots_handler`](crate::roots_handler); raw ones
/// (params as the JS value): [`handler`](crate::handler).
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

/// The callbacks of one part of a call (`callAndAwait` has two: the call's, then the wait's).
#[derive(Clone, Default)]
pub(crate) struct Callbacks {
    /// `onStatus`.
    pub on_status: Option<StatusFn>,
    /// The input handlers.
    pub handlers: Handlers,
    /// The input function.
    pub input_fn: Option<InputFn>,
}
