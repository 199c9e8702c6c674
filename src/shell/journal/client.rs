//! What a journaled call drives instead of the caller's client and callbacks: a client whose requests
//! tell the record what the journal needs (the task a `tools/call` created, journaled — and its lock
//! taken — before the engine sees the answer; the keys of each acknowledged `tasks/update`), and
//! callbacks whose answers are journaled before the engine may send them, and whose statuses are
//! journaled as they come.

use super::entry::response_keys;
use super::lock::hold;
use super::record::Record;
use crate::json::Json;
use crate::proto::core_tasks::{read_core_call_result, CoreCallReply};
use crate::shell::callbacks::Reply;
use crate::shell::callbacks::{HandlerFn, Handlers, StatusFn};
use crate::shell::client::{Client, RequestOptions};
use crate::shell::interop::from_js::{entries, field};
use std::rc::Rc;
use std::time::Duration;
use wasm_bindgen::JsValue;

/// The caller's client, watched for the journal.
pub(crate) struct JournaledClient {
    inner: Rc<dyn Client>,
    record: Rc<Record>,
    /// The tool of the call (`None` for a wait: it sends no `tools/call`).
    tool: Option<String>,
}

impl JournaledClient {
    /// `inner`'s requests, watched for `record`; `tool`: the tool a `tools/call` calls.
    pub(crate) fn new(inner: Rc<dyn Client>, record: Rc<Record>, tool: Option<String>) -> Self {
        Self { inner, record, tool }
    }
}

impl Client for JournaledClient {
    fn request(&self, method: &str, params: JsValue, options: RequestOptions) -> Reply {
        let keys = (method == "tasks/update").then(|| response_keys(&params));
        let tool = self.tool.clone().filter(|_| method == "tools/call");
        let reply = self.inner.request(method, params, options);
        if keys.is_none() && tool.is_none() {
            return reply;
        }
        let record = self.record.clone();
        let session = self.inner.clone();
        Box::pin(async move {
            let r = reply.await?;
            if let Some(keys) = keys {
                record.acked(keys);
            }
            let Some(tool) = tool else { return Ok(r) };
            let created = created_task(&r).filter(|_| record.task_id().is_none());
            if let Some((task_id, status)) = created {
                record.open(&task_id, Some(tool), Some(status), session.generation_and_session()).await;
                record.keep_lock(hold(&record.journal().server, &task_id));
            }
            Ok(r)
        })
    }

    fn listen(&self, params: JsValue, signal: web_sys::AbortSignal) -> Option<Reply> {
        self.inner.listen(params, signal)
    }

    fn client_capabilities(&self) -> Option<JsValue> {
        self.inner.client_capabilities()
    }

    fn id(&self) -> Option<String> {
        self.inner.id()
    }

    fn session(&self, timeout: Option<Duration>) -> Option<Reply> {
        self.inner.session(timeout)
    }

    fn generation_and_session(&self) -> (Option<String>, Option<String>) {
        self.inner.generation_and_session()
    }

    fn respond(&self, id: JsValue, answer: Result<JsValue, JsValue>) -> Option<Reply> {
        self.inner.respond(id, answer)
    }

    fn request_timeout(&self) -> Option<Duration> {
        self.inner.request_timeout()
    }

    fn input_handlers(&self) -> Handlers {
        journaled_handlers(&self.record, self.inner.input_handlers())
    }
}

/// The task a `tools/call` answer created and its status: a 2026-07-28 `{resultType: "task", taskId,
/// …}`, or a 2025-11-25 CreateTaskResult `{task}` (no `resultType`; its status read into the 2026
/// shape, as the engine reads it).
fn created_task(r: &JsValue) -> Option<(String, JsValue)> {
    match r.get_str("resultType").as_deref() {
        Some("task") => r.get_str("taskId").map(|id| (id, r.clone())),
        None => match read_core_call_result(r.clone()) {
            Ok(CoreCallReply::Task(t)) => Some((t.task_id, t.object)),
            _ => None,
        },
        Some(_) => None,
    }
}

/// `handlers`, each [`journaled`].
pub(crate) fn journaled_handlers(record: &Rc<Record>, handlers: Handlers) -> Handlers {
    let wrap = |h: Option<HandlerFn>| h.map(|h| journaled(record, h));
    Handlers {
        form: wrap(handlers.form),
        url: wrap(handlers.url),
        sampling: wrap(handlers.sampling),
        roots: wrap(handlers.roots),
    }
}

/// `f` — a handler, or the input function (its context has no key) — with its `{tag: "ok"}` answers
/// journaled before the engine may send them: a handler's `response` under the request's key, each of
/// the input function's `responses` under its own.
pub(crate) fn journaled(record: &Rc<Record>, f: HandlerFn) -> HandlerFn {
    let record = record.clone();
    Rc::new(move |params, cx| {
        let key = cx.key.clone();
        let reply = f(params, cx);
        let record = record.clone();
        Box::pin(async move {
            let out = reply.await?;
            if is_ok(&out) {
                let answers = match key {
                    Some(key) => vec![(key, field(&out, "response").unwrap_or_default())],
                    None => entries(&field(&out, "responses").unwrap_or_default()).unwrap_or_default(),
                };
                record.answer(answers).await?;
            }
            Ok(out)
        })
    })
}

/// `on_status` (when given) after journaling each status.
pub(crate) fn journaled_status(record: &Rc<Record>, on_status: Option<StatusFn>) -> StatusFn {
    let record = record.clone();
    Rc::new(move |status| {
        record.status(status);
        on_status.as_ref().map_or(Ok(()), |f| f(status))
    })
}

/// `out.tag === "ok"`.
fn is_ok(out: &JsValue) -> bool {
    out.get_str("tag").as_deref() == Some("ok")
}
