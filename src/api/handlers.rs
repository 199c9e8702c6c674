//! Rust closures as the application's callbacks: input handlers and the input function as async
//! closures answering with an [`Answer`] (raw, or typed: forms, URLs, sampling, roots), and `on_status`
//! with a typed [`TaskStatus`].

use super::form::FormSchema;
use super::status::TaskStatus;
use crate::json::Json;
use crate::shell::{serialize, AskContext, HandlerFn, InputFn, StatusFn};
use std::future::Future;
use std::rc::Rc;
use wasm_bindgen::JsValue;

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
        let content = serialize(content).unwrap_or(JsValue::UNDEFINED);
        Self::Ok(JsValue::object(vec![("action", JsValue::string("accept")), ("content", content)]))
    }

    /// An `ElicitResult` declining (`{action: "decline"}`): the user said no.
    ///
    /// ```no_run
    /// let answer = mcp_tasks_wasm::Answer::decline();
    /// ```
    pub fn decline() -> Self {
        Self::Ok(JsValue::object(vec![("action", JsValue::string("decline"))]))
    }

    /// An `ElicitResult` cancelling (`{action: "cancel"}`): the user dismissed the request without
    /// choosing.
    ///
    /// ```no_run
    /// let answer = mcp_tasks_wasm::Answer::cancel();
    /// ```
    pub fn cancel() -> Self {
        Self::Ok(JsValue::object(vec![("action", JsValue::string("cancel"))]))
    }

    /// Any result, serialized (e.g. a `CreateMessageResult` or a `ListRootsResult`); a value that does
    /// not serialize reads as absent, which the answer check refuses.
    ///
    /// ```no_run
    /// let roots = mcp_tasks_wasm::Answer::result(&serde_json::json!({"roots": [{"uri": "file:///work"}]}));
    /// ```
    pub fn result(value: &impl serde::Serialize) -> Self {
        Self::Ok(serialize(value).unwrap_or(JsValue::UNDEFINED))
    }

    /// The JS answer object, its payload under `ok_key` (`response` or `responses`).
    fn to_js(&self, ok_key: &str) -> JsValue {
        match self {
            Self::Ok(v) => JsValue::object(vec![("tag", JsValue::string("ok")), (ok_key, v.clone())]),
            Self::Error(reason) => JsValue::object(vec![("tag", JsValue::string("error")), ("reason", reason.clone())]),
        }
    }
}

/// What a handler's future may resolve with: an [`Answer`], or a `Result<Answer, E>` with any error
/// type that has a `Display` — `serde_json::Error`, `anyhow::Error`, a `thiserror` enum,
/// `Box<dyn std::error::Error>`, a `String`, this crate's [`Error`](crate::Error) — so that `?` works
/// inside it. An `Err(e)` answers `Answer::Error` with `e`'s text (an [`Error::Js`](crate::Error::Js)
/// or [`Error::Callback`](crate::Error::Callback): with its JS value): the wait ends with an
/// `execution` error whose [`Cause::InputHandler`](crate::Cause::InputHandler) carries that text and
/// the task's status, and whose `Display` shows the text. A web-sys call fails with a `JsValue`:
/// return `Result<Answer, mcp_tasks_wasm::Error>` and `?` turns it into [`Error::Js`](crate::Error::Js).
///
/// ```no_run
/// use mcp_tasks_wasm::{form_handler, Answer, Error};
/// let form = form_handler(|request, _context| async move {
///     let fields: Vec<String> = request.fields()?; // a `Result<_, Error>`: `?` works
///     let name = fields.first().cloned().unwrap_or_else(|| "name".to_owned());
///     Ok::<_, Error>(Answer::accept(&serde_json::json!({ name: "Ada" })))
/// });
/// let parsed = form_handler(|_request, _context| async move {
///     let value: serde_json::Value = serde_json::from_str("{\"name\": \"Ada\"}")?; // serde_json's error
///     Ok::<_, serde_json::Error>(Answer::accept(&value))
/// });
/// ```
#[diagnostic::on_unimplemented(
    message = "an input handler answers an `Answer` or a `Result<Answer, E>` whose `E` has a `Display`",
    label = "this is not `Answer` nor `Result<Answer, impl Display>`",
    note = "for a JsValue error (web-sys, js-sys), return `Result<Answer, mcp_tasks_wasm::Error>`: `?` turns a JsValue into `Error::Js`"
)]
pub trait IntoAnswer {
    /// The answer.
    fn into_answer(self) -> Answer;
}

impl IntoAnswer for Answer {
    fn into_answer(self) -> Answer {
        self
    }
}

impl<E: std::fmt::Display + 'static> IntoAnswer for Result<Answer, E> {
    fn into_answer(self) -> Answer {
        self.unwrap_or_else(|e| {
            // This crate's JS-valued errors keep their value; any other error is its text.
            match (&e as &dyn std::any::Any).downcast_ref::<super::Error>() {
                Some(super::Error::Js(v) | super::Error::Callback(v)) => Answer::Error(v.clone()),
                _ => Answer::Error(JsValue::from_str(&e.to_string())),
            }
        })
    }
}

/// An input handler from a Rust async closure over the raw request: `f(params, context)` answers one
/// request (its `params` as the JS value; the context has its `key`, the `status` it came with, and a
/// `signal` aborted when the answer is no longer wanted). Put it in [`Handlers`](crate::Handlers). The
/// typed ones ([`form_handler`] and its siblings) read the params for you.
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
    Fut: Future + 'static,
    Fut::Output: IntoAnswer,
{
    answering(f, "response")
}

/// `f` as the library calls it: its [`Answer`] as the JS answer object, the payload under `ok_key`.
fn answering<F, Fut>(f: F, ok_key: &'static str) -> HandlerFn
where
    F: Fn(JsValue, AskContext) -> Fut + 'static,
    Fut: Future + 'static,
    Fut::Output: IntoAnswer,
{
    Rc::new(move |value, context| {
        let answer = f(value, context);
        Box::pin(async move { Ok(answer.await.into_answer().to_js(ok_key)) })
    })
}

/// A typed handler: `read` makes the request of `f` from the raw params.
fn typed<R: 'static, F, Fut>(read: fn(&JsValue) -> R, f: F) -> HandlerFn
where
    F: Fn(R, AskContext) -> Fut + 'static,
    Fut: Future + 'static,
    Fut::Output: IntoAnswer,
{
    handler(move |params, context| f(read(&params), context))
}

/// An `elicitation/create` request in form mode, as a form handler gets it.
#[derive(Clone, Debug)]
pub struct FormRequest {
    /// What to ask the user.
    pub message: String,
    /// `requestedSchema`: `{type: "object", properties: {name → primitive schema}, required?}` (the
    /// spec's flat schema).
    pub requested_schema: JsValue,
    /// The request's `params`, as they arrived.
    pub params: JsValue,
}

impl FormRequest {
    fn read(params: &JsValue) -> Self {
        Self {
            message: params.get_str("message").unwrap_or_default(),
            requested_schema: params.get("requestedSchema").unwrap_or(JsValue::UNDEFINED),
            params: params.clone(),
        }
    }

    /// The form's schema, typed: each field with its kind (text, number, boolean, single- or
    /// multi-select), title, description, default and bounds. `Err`
    /// ([`Error::InvalidArgument`](super::Error::InvalidArgument)) when `requestedSchema.properties` is
    /// not an object.
    ///
    /// ```no_run
    /// # fn f(request: mcp_tasks_wasm::FormRequest) -> Result<(), mcp_tasks_wasm::Error> {
    /// for field in request.schema()?.fields {
    ///     let _ = (field.title.unwrap_or(field.name), field.required, field.kind);
    /// }
    /// # Ok(()) }
    /// ```
    pub fn schema(&self) -> Result<FormSchema, super::Error> {
        FormSchema::read(&self.requested_schema)
    }

    /// The names of the form's fields (`requestedSchema.properties`), in order.
    pub fn fields(&self) -> Result<Vec<String>, super::Error> {
        Ok(self.schema()?.fields.into_iter().map(|f| f.name).collect())
    }

    /// The names of the fields the form requires (those of its fields `requestedSchema.required`
    /// lists); none when the schema has no fields.
    pub fn required(&self) -> Vec<String> {
        let fields = self.schema().map(|s| s.fields).unwrap_or_default();
        fields.into_iter().filter(|f| f.required).map(|f| f.name).collect()
    }

    /// The request's `params` as the caller's type (serde-wasm-bindgen), as
    /// [`InputRequest::deserialize`](crate::InputRequest::deserialize); `Err`
    /// ([`Error::InvalidArgument`](super::Error::InvalidArgument)) when they do not fit it.
    ///
    /// ```no_run
    /// #[derive(serde::Deserialize)]
    /// #[serde(rename_all = "camelCase")]
    /// struct Asked { message: String, requested_schema: serde_json::Value }
    /// # fn f(request: mcp_tasks_wasm::FormRequest) -> Result<(), mcp_tasks_wasm::Error> {
    /// let asked: Asked = request.deserialize()?;
    /// # Ok(()) }
    /// ```
    pub fn deserialize<T: serde::de::DeserializeOwned>(&self) -> Result<T, super::Error> {
        super::outcome::deserialize("params", &self.params)
    }
}

/// An `elicitation/create` request in URL mode, as a URL handler gets it (the library has checked the
/// URL: `http:`/`https:`, a host, no credentials).
#[derive(Clone, Debug)]
pub struct UrlRequest {
    /// What the user is asked to do there.
    pub message: String,
    /// The URL to show (in full, with its domain highlighted) and to open only with consent.
    pub url: String,
    /// `elicitationId`, when sent.
    pub elicitation_id: Option<String>,
    /// The request's `params`, as they arrived.
    pub params: JsValue,
}

impl UrlRequest {
    fn read(params: &JsValue) -> Self {
        Self {
            message: params.get_str("message").unwrap_or_default(),
            url: params.get_str("url").unwrap_or_default(),
            elicitation_id: params.get_str("elicitationId"),
            params: params.clone(),
        }
    }
}

/// One message of a `sampling/createMessage` request.
#[derive(Clone, Debug)]
pub struct SamplingMessage {
    /// `"user"` or `"assistant"`.
    pub role: String,
    /// Its text, when its content is a text block (or blocks: their texts joined with "\n").
    pub text: Option<String>,
    /// Its `content`, as it arrived.
    pub content: JsValue,
}

/// A `sampling/createMessage` request, as a sampling handler gets it.
#[derive(Clone, Debug)]
pub struct SamplingRequest {
    /// The conversation.
    pub messages: Vec<SamplingMessage>,
    /// `maxTokens`.
    pub max_tokens: Option<u64>,
    /// `systemPrompt`, when sent.
    pub system_prompt: Option<String>,
    /// The request's `params`, as they arrived (model preferences, tools, …).
    pub params: JsValue,
}

impl SamplingRequest {
    fn read(params: &JsValue) -> Self {
        let text_of = |content: &JsValue| -> Option<String> {
            let texts = super::result::texts_of(&content.items().unwrap_or_else(|| vec![content.clone()]));
            (!texts.is_empty()).then(|| texts.join("\n"))
        };
        let messages = params.get("messages").and_then(|m| m.items()).unwrap_or_default();
        Self {
            messages: messages
                .iter()
                .map(|m| {
                    let content = m.get("content").unwrap_or(JsValue::UNDEFINED);
                    SamplingMessage { role: m.get_str("role").unwrap_or_default(), text: text_of(&content), content }
                })
                .collect(),
            max_tokens: params.get_f64("maxTokens").filter(|n| *n >= 0.0).map(|n| n as u64),
            system_prompt: params.get_str("systemPrompt"),
            params: params.clone(),
        }
    }
}

/// A form handler (`elicitation/create`, form mode) from a Rust async closure over the typed request;
/// it answers with [`Answer::accept`], [`Answer::decline`] or [`Answer::cancel`] — or a
/// `Result<Answer, E>` ([`IntoAnswer`]).
///
/// ```no_run
/// use mcp_tasks_wasm::{form_handler, Answer, Handlers};
/// let form = form_handler(|request, _context| async move {
///     web_sys::console::log_1(&request.message.as_str().into()); // show the form, wait for the user…
///     Answer::accept(&serde_json::json!({"name": "Ada"}))
/// });
/// let handlers = Handlers { form: Some(form), ..Handlers::default() };
/// ```
pub fn form_handler<F, Fut>(f: F) -> HandlerFn
where
    F: Fn(FormRequest, AskContext) -> Fut + 'static,
    Fut: Future + 'static,
    Fut::Output: IntoAnswer,
{
    typed(FormRequest::read, f)
}

/// A URL handler (`elicitation/create`, URL mode): `accept` means the user consented to open the URL.
///
/// ```no_run
/// use mcp_tasks_wasm::{url_handler, Answer};
/// let url = url_handler(|request, _context| async move {
///     if request.url.starts_with("https://") { Answer::Ok(js_sys::JSON::parse(r#"{"action":"accept"}"#).unwrap()) } else { Answer::decline() }
/// });
/// ```
pub fn url_handler<F, Fut>(f: F) -> HandlerFn
where
    F: Fn(UrlRequest, AskContext) -> Fut + 'static,
    Fut: Future + 'static,
    Fut::Output: IntoAnswer,
{
    typed(UrlRequest::read, f)
}

/// A sampling handler (`sampling/createMessage`): answer with a `CreateMessageResult`
/// ([`Answer::result`]).
///
/// ```no_run
/// use mcp_tasks_wasm::{sampling_handler, Answer};
/// let sampling = sampling_handler(|request, _context| async move {
///     let asked = request.messages.last().and_then(|m| m.text.clone()).unwrap_or_default();
///     Answer::result(&serde_json::json!({"role": "assistant", "content": {"type": "text", "text": asked}, "model": "echo"}))
/// });
/// ```
pub fn sampling_handler<F, Fut>(f: F) -> HandlerFn
where
    F: Fn(SamplingRequest, AskContext) -> Fut + 'static,
    Fut: Future + 'static,
    Fut::Output: IntoAnswer,
{
    typed(SamplingRequest::read, f)
}

/// A roots handler (`roots/list`, no params of note): answer with a `ListRootsResult`
/// ([`Answer::result`]).
///
/// ```no_run
/// use mcp_tasks_wasm::{roots_handler, Answer};
/// let roots = roots_handler(|_context| async { Answer::result(&serde_json::json!({"roots": [{"uri": "file:///work"}]})) });
/// ```
pub fn roots_handler<F, Fut>(f: F) -> HandlerFn
where
    F: Fn(AskContext) -> Fut + 'static,
    Fut: Future + 'static,
    Fut::Output: IntoAnswer,
{
    handler(move |_params, context| f(context))
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
    Fut: Future + 'static,
    Fut::Output: IntoAnswer,
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
