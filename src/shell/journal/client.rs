//! What a journaled call drives instead of the caller's client and callbacks: a client whose requests
//! tell the record what the journal needs (the task a `tools/call` created, journaled — and its lock
//! taken — before the engine sees the answer; the keys of each acknowledged `tasks/update`), and
//! callbacks whose answers are journaled before the engine may send them, and whose statuses are
//! journaled as they come.

use super::entry::response_keys;
use super::lock::hold;
use super::record::Record;
use crate::json::Json;
use crate::shell::client::{Client, Reply, RequestOptions};
use crate::shell::hooks::{HandlerFn, Handlers, InputFn, StatusFn};
use crate::shell::values::{entries, field};
use std::rc::Rc;
use std::time::Duration;
use wasm_bindgen::JsValue;

/// The caller's client, watched for the journal.
pub struct JournaledClient {
    inner: Rc<dyn Client>,
    record: Rc<Record>,
    /// The tool of the call (`None` for a wait: it sends no `tools/call`).
    tool: Option<String>,
}

impl JournaledClient {
    /// `inner`'s requests, watched for `record`; `tool`: the tool a `tools/call` calls.
    pub fn new(inner: Rc<dyn Client>, record: Rc<Record>, tool: Option<String>) -> Self {
        Self { inner, record, tool }
    }
}

impl Client for JournaledClient {
    fn request(&self, method: &str, params: JsValue, options: RequestOptions) -> Reply {
        let record = self.record.clone();
        if method == "tasks/update" {
            let keys = response_keys(&params);
            let reply = self.inner.request(method, params, options);
            return Box::pin(async move {
                let r = reply.await?;
                record.acked(keys);
                Ok(r)
            });
        }
        let reply = self.inner.request(method, params, options);
        let Some(tool) = self.tool.clone().filter(|_| method == "tools/call") else { return reply };
        Box::pin(async move {
            let r = reply.await?;
            let task_id = r.get_str("taskId").filter(|_| r.get_str("resultType").as_deref() == Some("task"));
            if let Some(task_id) = task_id.filter(|_| record.task_id().is_none()) {
                record.open(&task_id, Some(tool), Some(r.clone())).await;
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

    fn request_timeout(&self) -> Option<Duration> {
        self.inner.request_timeout()
    }

    fn input_handlers(&self) -> Handlers {
        journaled_handlers(&self.record, self.inner.input_handlers())
    }
}

/// `handlers` whose `{tag: "ok", response}` answers are journaled (under the request's key) before
/// the engine may send them.
pub fn journaled_handlers(record: &Rc<Record>, handlers: Handlers) -> Handlers {
    let wrap = |h: Option<HandlerFn>| -> Option<HandlerFn> {
        let h = h?;
        let record = record.clone();
        Some(Rc::new(move |params, cx| {
            let key = cx.key.clone();
            let reply = h(params, cx);
            let record = record.clone();
            Box::pin(async move {
                let out = reply.await?;
                if let (Some(key), true) = (key, is_ok(&out)) {
                    let response = field(&out, "response").unwrap_or_default();
                    record.answer(&key, &response).await?;
                }
                Ok(out)
            })
        }))
    };
    Handlers {
        form: wrap(handlers.form),
        url: wrap(handlers.url),
        sampling: wrap(handlers.sampling),
        roots: wrap(handlers.roots),
    }
}

/// The input function, its `{tag: "ok", responses}` answers journaled (each key) before the engine
/// may send them.
pub fn journaled_input(record: &Rc<Record>, f: InputFn) -> InputFn {
    let record = record.clone();
    Rc::new(move |status, cx| {
        let reply = f(status, cx);
        let record = record.clone();
        Box::pin(async move {
            let out = reply.await?;
            if is_ok(&out) {
                let responses = field(&out, "responses").unwrap_or_default();
                for (key, response) in entries(&responses).unwrap_or_default() {
                    record.answer(&key, &response).await?;
                }
            }
            Ok(out)
        })
    })
}

/// `on_status` (when given) after journaling each status.
pub fn journaled_status(record: &Rc<Record>, on_status: Option<StatusFn>) -> StatusFn {
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
